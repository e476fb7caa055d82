// GLOW: G + L + O + W, each 0–25, computed from the iteration's evidence by the tables of
// docs/glossary.md — never self-reported by the agent. Each component takes the highest row that applies.
import { Decimal, dstr } from '../common/decimal.js';

export interface GlowInput {
  iteration: number;
  /** Criteria met before this iteration (previous iteration, or the baseline run). */
  previouslyMet: ReadonlyMap<string, boolean>;
  met: ReadonlyMap<string, boolean>;
  previousResidual: Decimal | null;
  /** null when not computed (or the checks did not run): W and the total are then unknown, never 0. */
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
  /** What NORTHSTAR.md measures of the loop's own facts: W counts a win only where the Northstar sees it. */
  northstar: { residual: boolean; criteria: readonly string[] };
}

export interface Glow {
  iteration: number;
  G: number;
  L: number;
  O: number;
  /** null: unknown (no residual to score W's rows against); it neither advances nor counts toward drift. */
  W: number | null;
  /** G + L + O + W; unknown (null) with W. */
  total: number | null;
  reasons: { G: string; L: string; O: string; W: string };
  northstar_metric_advanced: boolean;
  residual: string | null;
  /** A known W = 0 with a total over 60: busy without advancing the Northstar (a warning, not a stop). */
  warning: string | null;
}

/** Above this total, a W of 0 is flagged (docs/glossary.md "GLOW"). */
export const HIGH_GLOW = 60;

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
  // W takes the highest row that applies; without a residual its top rows cannot be decided. W is
  // kept apart from G: a criterion or a residual counts as a Northstar win only where a metric
  // measures it, so a busy iteration that moves no metric scores W = 0 however high G is.
  const freshWin = fresh.filter((id) => i.northstar.criteria.includes(id));
  const [W, wWhy]: [number | null, string] =
    r === null
      ? [null, 'unknown: the residual was not computed']
      : belowRp
        ? [25, 'residual below R_p']
        : distanceFell
          ? [20, `northstar distance ${dstr(i.previousDistance!)} → ${dstr(i.distance!)}`]
          : freshWin.length
            ? [15, `acceptance criterion newly true: ${freshWin.join(', ')}`]
            : drop && i.northstar.residual
              ? [5, 'residual fell (sub-goal)']
              : [0, 'no northstar metric advanced'];
  const total = W === null ? null : G + L + O + W;
  return {
    iteration: i.iteration,
    G,
    L,
    O,
    W,
    total,
    reasons: { G: gWhy, L: lWhy, O: oWhy, W: wWhy },
    northstar_metric_advanced: distanceFell,
    residual: r === null ? null : dstr(r),
    warning:
      W === 0 && G + L + O > HIGH_GLOW
        ? `High GLOW without Northstar alignment (GLOW ${total}, W = 0): check whether this iteration advances any NORTHSTAR metric`
        : null,
  };
}

/** How many iterations in a row, ending with the last, scored a known W = 0 (Northstar drift); an unknown W ends the run of zeros. */
export function trailingZeroW(history: readonly Pick<Glow, 'W'>[]): number {
  let n = 0;
  for (let k = history.length - 1; k >= 0 && history[k].W === 0; k--) n++;
  return n;
}
