// How the runs of one loop go on from each other, as the halting report says it: iteration numbers and
// budgets across runs, what a run that ended so does next (the run section, \`to go on\`).
import { iterationsUsed } from '../run/decide.js';
import { pauseStep } from '../os/stops.js';
import type { TerminalState } from '../run/fsm.js';
import type { LoopState } from './state.js';
import type { Plan } from '../config/plan.js';

/** Which run of its loop a report is about: iteration numbers and budgets go on across the runs of one loop. */
export interface RunInfo {
  /** The iteration this run started at (0 for the run that started the loop). */
  first: number;
  resumed: boolean;
  /** Why this run's progress windows started again from a new measurement of HEAD, or null. */
  rebaseline: string | null;
}

/** How iterations are numbered and budgets counted across runs (README "What happens in an iteration"). */
export const RUN_ACCOUNTING: Readonly<Record<'numbering' | 'budgets', string>> = {
  numbering:
    'Iterations are numbered on across the runs of one loop (one evidence tree): a run that continues the loop starts at the next number; `phuc-loop run --fresh` starts a new loop at iteration 0.',
  budgets:
    'max_iterations, max_total_seconds, max_total_cost_usd and max_total_tool_calls count every run of this loop (iterations recorded but for those a stop cut short before their checks ran, wall time, reported cost and tool calls, summed); max_seconds_per_iteration and max_tool_calls_per_iteration bound each iteration. A budget changed between runs applies from the next iteration (plan.json budget_revisions).',
};

const BUDGET_FIELDS: Record<string, string> = {
  MAX_ITERS: 'budget.max_iterations (or `phuc-loop run --max-iterations N`)',
  MAX_TOTAL_SECONDS: 'budget.max_total_seconds (or `phuc-loop run --max-total-seconds N`)',
  MAX_COST: 'budget.max_total_cost_usd (or `phuc-loop run --max-cost USD`)',
  MAX_TOOL_CALLS: 'budget.max_total_tool_calls',
};

/** The iterations a stop cut short before their checks ran, said beside a count of iterations used: not counted. */
export function notCounted(stoppedBeforeChecks: readonly number[]): string | null {
  const n = stoppedBeforeChecks;
  if (!n.length) return null;
  return n.length === 1
    ? `iteration ${n[0]} stopped before its checks ran, not counted`
    : `iterations ${n.join(', ')} stopped before their checks ran, not counted`;
}

/** The report's "used / max_iterations", naming the iterations not counted. */
export function iterationUse(s: LoopState, max: number): string {
  const note = notCounted(s.stopped_before_checks);
  return `${iterationsUsed(s.next_iteration, s.stopped_before_checks)} / ${max}${note ? ` (${note})` : ''}`;
}

/**
 * What goes on after a run ended so, naming the command; `next` is the iteration a continuing run
 * starts at, `stoppedBeforeChecks` the iterations that used no budget (state.json).
 */
export function howToGoOn(
  status: TerminalState,
  stopReason: string,
  next: number,
  stoppedBeforeChecks: readonly number[] = [],
  pause: string | null = null,
): string {
  if (status === 'EXIT_BUDGET_EXCEEDED') {
    const note = stopReason === 'MAX_ITERS' ? notCounted(stoppedBeforeChecks) : null;
    return `raise ${BUDGET_FIELDS[stopReason] ?? 'the budget that ran out'} above what all runs of this loop used${note ? ` (${note})` : ''}: \`phuc-loop run\` then continues at iteration ${next}`;
  }
  if (stopReason === 'BACKPRESSURE_SIGNAL')
    return (
      `a pause: ${pauseStep(pause)}\`phuc-loop run\` continues at iteration ${next}` +
      (stoppedBeforeChecks.includes(next - 1) ? ` (iteration ${next - 1}, stopped before its checks ran, does not count against max_iterations)` : '')
    );
  if (status === 'EXIT_CONVERGED')
    return `commit a new change and \`phuc-loop run\` judges it (iterations go on from ${next}), or \`phuc-loop run --fresh\` starts a new loop at iteration 0`;
  if (status === 'EXIT_NEED_INFO') return `supply what is missing, then \`phuc-loop run\` judges HEAD again and continues at iteration ${next}`;
  if (stopReason === 'AGENT_FAILED')
    return `the agent failed before it changed anything (the detail gives its own words): fix the cause (its API key or service, the network, its installation), then \`phuc-loop run\` tries iteration ${next} again (no commit is needed)`;
  if (stopReason === 'RESIDUAL_UNAVAILABLE')
    return `fix what the residual needs (the detail says what: a runner, the JUnit files), then \`phuc-loop run\` judges HEAD again and continues at iteration ${next} (no commit is needed unless the fix is in the repository)`;
  if (stopReason === 'FOLDER_READ_ONLY')
    return `make the folder the detail names writable, then \`phuc-loop run\` goes on at iteration ${next} (nothing was written)`;
  if (stopReason === 'GIT_FAILURE')
    return (
      'fix what git failed at (the detail says what); what an interrupted agent step changed is left uncommitted in the work tree (`git status`): ' +
      `commit it to have it judged, or discard it; then \`phuc-loop run\` tries again (no commit is needed) and continues at iteration ${next}`
    );
  return `fix the cause and commit: \`phuc-loop run\` judges the new HEAD and continues at iteration ${next}; or \`phuc-loop run --fresh\` starts a new loop at iteration 0 (the old evidence is kept)`;
}

/** "iteration 3", "iterations 2–4", "iterations 0, 2" (a redone iteration keeps its number). */
export function iterationSpan(ns: readonly number[]): string {
  if (!ns.length) return 'no iteration';
  if (ns.length === 1) return `iteration ${ns[0]}`;
  const consecutive = ns.every((n, k) => k === 0 || n === ns[k - 1] + 1);
  return `iterations ${consecutive ? `${ns[0]}–${ns.at(-1)}` : ns.join(', ')}`;
}

/** The run section: which iterations this run made, how numbering and budgets carry across runs, what goes on. */
export function runSection(
  run: RunInfo,
  iterations: number[],
  s: LoopState,
  plan: Plan,
  status: TerminalState | null,
  stopReason: string | null,
  pause: string | null,
) {
  return {
    resumed: run.resumed,
    first_iteration: run.first,
    iterations: iterations.filter((n) => n >= run.first),
    earlier_iterations: iterations.filter((n) => n < run.first),
    next_iteration: s.next_iteration,
    rebaselined: run.rebaseline,
    budget_revisions: (plan.budget_revisions ?? []).map((r) => ({ from_iteration: r.from_iteration, max_iterations: r.budget.max_iterations })),
    numbering: RUN_ACCOUNTING.numbering,
    budgets: RUN_ACCOUNTING.budgets,
    how_to_go_on: status && stopReason ? howToGoOn(status, stopReason, s.next_iteration, s.stopped_before_checks, pause) : null,
  };
}
