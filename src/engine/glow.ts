// GLOW (seed §4.1): G + L + O + W, each 0–25, computed from the iteration's evidence by the seed's
// tables — never self-reported by the agent. Each component takes the highest row that applies.
import { Decimal, dstr } from './decimal.js';

export interface GlowInput {
  iteration: number;
  /** Criteria met before this iteration (previous iteration, or the baseline run). */
  previouslyMet: ReadonlyMap<string, boolean>;
  met: ReadonlyMap<string, boolean>;
  previousResidual: Decimal | null;
  residual: Decimal;
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
  residual: string;
}

export function newlyMet(previous: ReadonlyMap<string, boolean>, now: ReadonlyMap<string, boolean>): string[] {
  return [...now].filter(([id, met]) => met && !previous.get(id)).map(([id]) => id);
}

export function scoreGlow(i: GlowInput): Glow {
  const fresh = newlyMet(i.previouslyMet, i.met);
  const drop = i.previousResidual && i.residual.lt(i.previousResidual) ? i.previousResidual.minus(i.residual) : null;
  const bigDrop = drop !== null && i.previousResidual!.gt(0) && drop.div(i.previousResidual!).gt(new Decimal('0.3'));
  const artifacts = (i.diffProduced ? 1 : 0) + (i.report === 'valid' ? 1 : 0);

  const [G, gWhy] = fresh.length
    ? [25, `criterion newly met: ${fresh.join(', ')}`]
    : bigDrop
      ? [15, `residual fell by more than 30% (${dstr(i.previousResidual!)} → ${dstr(i.residual)})`]
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
  const belowRp = i.R_p ? i.residual.lt(i.R_p) : i.residual.isZero();
  const distanceFell = i.previousDistance !== null && i.distance !== null && i.distance.lt(i.previousDistance);
  const [W, wWhy] = belowRp
    ? [25, 'residual below R_p']
    : distanceFell
      ? [20, `northstar distance ${dstr(i.previousDistance!)} → ${dstr(i.distance!)}`]
      : fresh.length
        ? [15, 'acceptance criterion newly true']
        : drop
          ? [5, 'residual fell (sub-goal)']
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
    residual: dstr(i.residual),
  };
}

/** How many iterations in a row, ending with the last, scored W = 0 (seed §4.1 hard rule). */
export function trailingZeroW(history: readonly Pick<Glow, 'W'>[]): number {
  let n = 0;
  for (let k = history.length - 1; k >= 0 && history[k].W === 0; k--) n++;
  return n;
}
