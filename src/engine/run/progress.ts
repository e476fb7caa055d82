// Is the loop still making progress? Three watchers (docs/glossary.md "Progress"): the stall
// counter with escalation (after 2 stalled iterations, a stronger agent before giving up),
// repeated failure signatures with a detour then STUCK, and the DEGA improvement order between
// iterations.
import type { BlockerClass } from './dega.js';
import { BLOCKER_CLASSES } from './dega.js';
import { Decimal } from '../common/decimal.js';
import { detourFor, type Signature } from './signature.js';

export interface Detour {
  /** The iteration whose capsule carries the detour. */
  iteration: number;
  repeated: (Signature & { instruction: string | null })[];
}

export interface ProgressState {
  best_residual: string | null;
  stalled: number;
  escalated_at: number | null;
  signatures: Record<string, Signature>;
  detour: Detour | null;
}

export const initialProgress = (baselineResidual: string | null): ProgressState => ({
  best_residual: baselineResidual,
  stalled: 0,
  escalated_at: null,
  signatures: {},
  detour: null,
});

export const ESCALATE_AFTER = 2;

/**
 * Counts iterations without a new best residual. Returns whether to switch to the escalation agent
 * now (after two stalled iterations, once) and whether the loop has stalled out.
 */
export function trackStall(p: ProgressState, residual: Decimal | null, o: { stallIterations: number; canEscalate: boolean; iteration: number }) {
  if (residual !== null && (p.best_residual === null || residual.lt(p.best_residual))) {
    p.best_residual = residual.toString();
    p.stalled = 0;
  } else p.stalled++;
  if (o.canEscalate && p.escalated_at === null && p.stalled >= ESCALATE_AFTER) {
    // The stall count goes on: the escalated agent gets the rest of the window, not a new one.
    p.escalated_at = o.iteration + 1;
    return { escalate: true, stalledOut: false };
  }
  return { escalate: false, stalledOut: p.stalled >= o.stallIterations };
}

/**
 * Compares this iteration's failure signatures with the last: a signature seen twice in a row in an
 * iteration that made no progress (the residual did not fall) opens a detour for the next
 * iteration; a detoured signature seen again without progress is STUCK. Criteria that keep failing
 * while the agent fixes others are not stuck.
 */
export function trackSignatures(
  p: ProgressState,
  failing: Signature[],
  detours: { match: string; instruction: string }[],
  iteration: number,
  progressed: boolean,
) {
  const stuck = p.detour && !progressed ? failing.filter((s) => p.detour!.repeated.some((d) => d.signature === s.signature)) : [];
  const repeated = progressed ? [] : failing.filter((s) => p.signatures[s.criterion]?.signature === s.signature);
  p.signatures = Object.fromEntries(failing.map((s) => [s.criterion, s]));
  p.detour =
    repeated.length && !stuck.length ? { iteration: iteration + 1, repeated: repeated.map((s) => ({ ...s, instruction: detourFor(detours, s) })) } : null;
  return { stuck, detour: p.detour };
}

/**
 * An iteration a stop cut short before its checks (a pause, decide.ts countsAgainstBudget): the
 * stall counter and the failure signatures move only on a judged iteration, so none counts it;
 * and a detour meant for it goes to the iteration that takes its work up, whose agent has not seen
 * it in full (the same failure after a detour is STUCK only once an agent has had the detour).
 */
export function passStopped(p: ProgressState, iteration: number): void {
  if (p.detour?.iteration === iteration) p.detour = { ...p.detour, iteration: iteration + 1 };
}

/** DEGA ordering with its tie-breakers: class rank, then a lower residual, then fewer fail-closed signals. */
export function improvement(
  prev: { class: BlockerClass; residual: string | null; failClosed: number } | null,
  cur: { class: BlockerClass; residual: string | null; failClosed: number },
): 'better' | 'same' | 'worse' | 'first' {
  if (!prev) return 'first';
  const rank = (c: BlockerClass) => BLOCKER_CLASSES.indexOf(c);
  if (rank(cur.class) !== rank(prev.class)) return rank(cur.class) > rank(prev.class) ? 'better' : 'worse';
  if (cur.residual !== null && prev.residual !== null && !new Decimal(cur.residual).eq(prev.residual))
    return new Decimal(cur.residual).lt(prev.residual) ? 'better' : 'worse';
  if (cur.failClosed !== prev.failClosed) return cur.failClosed < prev.failClosed ? 'better' : 'worse';
  return 'same';
}
