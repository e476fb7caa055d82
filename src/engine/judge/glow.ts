// GLOW: G + L + O + W, each 0–25, computed from the iteration's evidence by the tables of
// docs/glossary.md — never self-reported by the agent. Each component takes the highest row that applies.
import { Decimal, dstr } from '../common/decimal.js';

export interface GlowInput {
  iteration: number;
  /** Criteria met before this iteration (previous iteration, or the baseline run). */
  previouslyMet: ReadonlyMap<string, boolean>;
  met: ReadonlyMap<string, boolean>;
  previousResidual: Decimal | null;
  /** null when not computed (or the checks did not run): W is then unknown, never a 0. */
  residual: Decimal | null;
  R_p: Decimal | null;
  diffProduced: boolean;
  report: 'valid' | 'malformed' | 'absent';
  /** The iteration's AGENTS.md entry holds a Lane A fact not recorded in the previous entry. */
  newLaneA: boolean;
  /** It holds a Lane B measurement (a residual or distance that moved). */
  newLaneB: boolean;
  /** It holds Lane C guidance (the agent's report). */
  laneC: boolean;
  previousDistance: Decimal | null;
  distance: Decimal | null;
}

export interface Glow {
  iteration: number;
  G: number;
  L: number;
  O: number;
  W: number;
  total: number;
  reasons: { G: string; L: string; O: string; W: string };
  northstar_metric_advanced: boolean;
  residual: string | null;
  /** W could not be scored (no residual): it neither advances nor counts toward Northstar drift. */
  W_unknown?: true;
}

export function newlyMet(previous: ReadonlyMap<string, boolean>, now: ReadonlyMap<string, boolean>): string[] {
  return [...now].filter(([id, met]) => met && !previous.get(id)).map(([id]) => id);
}

export function scoreGlow(i: GlowInput): Glow {
  const fresh = newlyMet(i.previouslyMet, i.met);
  const r = i.residual;
  const drop = i.previousResidual && r && r.lt(i.previousResidual) ? i.previousResidual.minus(r) : null;
  const bigDrop = drop !== null && i.previousResidual!.gt(0) && drop.div(i.previousResidual!).gt(new Decimal('0.3'));
  const artifacts = (i.diffProduced ? 1 : 0) + (i.report === 'valid' ? 1 : 0);

  const [G, gWhy] = fresh.length
    ? [25, `criterion newly met: ${fresh.join(', ')}`]
    : bigDrop
      ? [15, `residual fell by more than 30% (${dstr(i.previousResidual!)} → ${dstr(r!)})`]
      : artifacts > 0 || i.report === 'malformed'
        ? [5, 'artifact produced, no new capability']
        : [0, 'no new capability; residual unchanged'];
  const [L, lWhy] = i.newLaneA
    ? [25, 'new Lane A fact with artifact link']
    : i.newLaneB
      ? [15, 'new Lane B measurement']
      : i.laneC
        ? [5, 'Lane C guidance only']
        : [0, 'no new learning'];
  const [O, oWhy] =
    artifacts >= 2
      ? [25, 'diff and report, sha256-linked in the manifest']
      : artifacts === 1
        ? [15, i.diffProduced ? 'diff, sha256-linked' : 'report, sha256-linked']
        : i.report === 'malformed'
          ? [5, 'malformed report only (partial)']
          : [0, 'no artifact'];
  const belowRp = r !== null && (i.R_p ? r.lt(i.R_p) : r.isZero());
  const distanceFell = i.previousDistance !== null && i.distance !== null && i.distance.lt(i.previousDistance);
  const [W, wWhy] = belowRp
    ? [25, 'residual below R_p']
    : distanceFell
      ? [20, `northstar distance ${dstr(i.previousDistance!)} → ${dstr(i.distance!)}`]
      : fresh.length
        ? [15, 'acceptance criterion newly true']
        : drop
          ? [5, 'residual fell (sub-goal)']
          : r === null
            ? [0, 'unknown: the residual was not computed']
            : [0, 'no northstar metric advanced'];
  return {
    iteration: i.iteration,
    G,
    L,
    O,
    W,
    total: G + L + O + W,
    reasons: { G: gWhy, L: lWhy, O: oWhy, W: wWhy },
    northstar_metric_advanced: distanceFell,
    residual: r === null ? null : dstr(r),
    ...(r === null && W === 0 ? { W_unknown: true as const } : {}),
  };
}

/** How many iterations in a row, ending with the last, scored a known W = 0 (Northstar drift). */
export function trailingZeroW(history: readonly Pick<Glow, 'W' | 'W_unknown'>[]): number {
  let n = 0;
  for (let k = history.length - 1; k >= 0 && history[k].W === 0 && !history[k].W_unknown; k--) n++;
  return n;
}
