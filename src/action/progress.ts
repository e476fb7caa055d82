// One row per iteration (G, L, O, W, GLOW, residual, certificate, northstar distance), as the engine
// recorded it in the halting report — computed from evidence, never the agent's word.
import type { HaltingReport } from '../engine/evidence/report.js';

export type IterationRow = HaltingReport['iteration_rows'][number] & {
  /** The iteration's commit, when this run made it. */
  commit?: string;
};

export function rowsOf(report: HaltingReport, commits: ReadonlyMap<number, string> = new Map()): IterationRow[] {
  return report.iteration_rows.map((r) => ({ ...r, commit: commits.get(r.iteration) }));
}
