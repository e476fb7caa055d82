// One row per iteration (G, L, O, W, GLOW, residual, certificate, northstar distance, cost, tokens),
// as the engine recorded it — computed from evidence, never the agent's word — and the status line
// of the phase the run is in.
import type { LoopPhase } from '../engine/loop/loop.js';
import type { HaltingReport } from '../engine/evidence/report.js';

export type IterationRow = HaltingReport['iteration_rows'][number] & {
  /** The iteration's commit, when this run made it. */
  commit?: string;
};

export function rowsOf(report: HaltingReport, commits: ReadonlyMap<number, string> = new Map()): IterationRow[] {
  return withCommits(report.iteration_rows, commits);
}

export function withCommits(rows: readonly HaltingReport['iteration_rows'][number][], commits: ReadonlyMap<number, string>): IterationRow[] {
  return rows.map((r) => ({ ...r, commit: commits.get(r.iteration) }));
}

/** The comment's status line for a phase. */
export function phaseLine(p: Pick<LoopPhase, 'phase' | 'iteration'>): string {
  switch (p.phase) {
    case 'baseline':
      return 'baseline: the criteria run on the branch head';
    case 'head':
      return `the branch head is judged before iteration ${p.iteration}`;
    case 'agent':
      return `iteration ${p.iteration}: the agent is working`;
    case 'checks':
      return `iteration ${p.iteration}: the checks run on the agent's change`;
  }
}
