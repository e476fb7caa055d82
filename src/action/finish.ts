// The end of a loop that ran: the outputs, the job summary (the halting report) and the step's exit.
import * as core from '@actions/core';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ApiClient } from './github.js';
import type { ActionInputs } from './inputs.js';
import type { LoopResult, PauseFor } from './loop-on-pr.js';
import { setOutputs } from './outputs.js';
import { pauseNote } from './pause.js';
import type { PullRequestInfo } from './pull-request.js';
import { runFigures } from './run-figures.js';
import { writeSummary } from './job-summary.js';
import { reportMarkdown } from './summary.js';

export interface FinishArgs {
  inputs: ActionInputs;
  api: ApiClient;
  outcome: LoopResult;
  evidenceRoot: string;
  notes: string[];
  scrub: (s: string) => string;
  runUrl: string;
  repoUrl: string;
  artifactName: string;
  pr: PullRequestInfo;
  pauseFor: PauseFor;
}

export async function finish(f: FinishArgs): Promise<void> {
  const { outcome, iterationsRun, stopLabel, apiCallsAtStart } = f.outcome;
  const r = outcome.report;
  const reportPath = join(f.evidenceRoot, 'halting_report.json');
  const hasReport = await readFile(reportPath).then(
    () => true,
    () => false,
  );
  setOutputs(
    {
      status: outcome.status,
      'stop-reason': outcome.stop_reason,
      certificate: r.halting_certificate.type,
      residual: r.halting_certificate.final_residual_decimal_string ?? '',
      iterations: String(r.iterations_completed),
      glow: String(r.glow_history.at(-1)?.total ?? ''),
      'report-path': hasReport ? reportPath : '',
      // Only a convergence certifies a commit; any other end names none.
      'certified-commit': outcome.status === 'EXIT_CONVERGED' ? (r.halting_certificate.commit ?? '') : '',
      ...(await runFigures(f.evidenceRoot)),
    },
    f.scrub,
  );
  const loopCalls = f.api.calls() - apiCallsAtStart;
  core.info(
    `API calls in this step: ${f.api.calls()} — ${f.api.calls() - loopCalls} before the loop, ${loopCalls} during it for ${iterationsRun} iteration(s), ` +
      `of which ${stopLabel.polls} STOP label check(s); the final comment is sent by the post step`,
  );
  const pause = f.pauseFor(outcome.stop_reason, r.detail);
  const notes = [...(pause ? [pauseNote(pause)] : []), ...f.notes];
  if (outcome.nothingToDo)
    notes.push(
      `${outcome.nothingToDo.charAt(0).toUpperCase()}${outcome.nothingToDo.slice(1)}. Push a change to the branch (or use the fresh input) to run the loop again.`,
    );
  notes.push(`[Workflow run](${f.runUrl}) · the evidence tree is uploaded as \`${f.artifactName}\` when the job ends.`);
  const agentsMd = (await readFile(join(f.evidenceRoot, 'agents_md_final.md'), 'utf8').catch(() => '')) || undefined;
  await writeSummary(await reportMarkdown(r, agentsMd, { notes, scrub: f.scrub }));
  if (outcome.status !== 'EXIT_CONVERGED') {
    const why = r.detail ? `: ${r.detail}` : '';
    core.setFailed(
      f.scrub(`phuc-loop ended ${outcome.status}(${outcome.stop_reason})${outcome.nothingToDo ? ' (nothing to do: unchanged since that run)' : ''}${why}`),
    );
    process.exitCode = outcome.exitCode;
  } else core.info(`phuc-loop ended ${outcome.status}(${outcome.stop_reason})`);
}
