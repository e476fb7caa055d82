// The engine's loop on the pull request: the PR comment follows every phase (sticky) or iteration,
// each iteration's commit is pushed, the STOP label and the signals stop it, and the comment's final
// body is handed to the post step. The engine's modules load here, when a run gets this far.
import * as core from '@actions/core';
import { writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import type { LoopOutcome } from '../engine/loop/loop.js';
import type { Logger } from '../engine/os/ports.js';
import { NodeProcessRunner } from '../engine/os/process.js';
import type { InstalledSignalStop } from '../engine/os/signals.js';
import type { HaltingReport } from '../engine/evidence/report.js';
import { costUse } from '../engine/common/display.js';
import type { AbortScene } from './abort.js';
import { CommentPublisher, FINAL_MARKER, ITERATION_MARKER, renderComment, STICKY_MARKER, type CommentView } from './comment.js';
import { errorText, retryBaseMs, type ApiClient } from './github.js';
import { budgetOverrides, type ActionInputs } from './inputs.js';
import type { Pause } from './pause.js';
import { phaseLine, rowsOf, withCommits } from './progress.js';
import type { PullRequestInfo, RepoRef } from './pull-request.js';
import type { BranchPusher } from './push.js';
import type { Scrubber } from './scrub.js';
import { savePostState, type PostState } from './state.js';
import type { StopLabel } from './stop-label.js';

/** The pause (by what, how to go on) of a run that ended with this stop reason, or null. */
export type PauseFor = (stopReason: string | null, detail: string | null) => Pause | null;

export interface LoopArgs {
  inputs: ActionInputs;
  api: ApiClient;
  scrubber: Scrubber;
  pr: PullRequestInfo;
  repo: RepoRef;
  repoUrl: string;
  runUrl: string;
  root: string;
  configPath: string;
  evidenceRoot: string;
  artifactName: string;
  pusher: BranchPusher | null;
  commentFile: string;
  post: PostState;
  log: Logger;
  signals: InstalledSignalStop;
  stopLabel: StopLabel;
  pauseFor: PauseFor;
  scene: AbortScene;
}

export interface LoopResult {
  outcome: LoopOutcome;
  comments: CommentPublisher;
  commits: Map<number, string>;
  stopLabel: StopLabel;
  apiCallsAtStart: number;
  iterationsRun: number;
}

export async function loop(a: LoopArgs): Promise<LoopResult> {
  const scrub = (s: string) => a.scrubber.scrub(s);
  const { octokit } = a.api;
  const { stopLabel } = a;
  const comments = new CommentPublisher({
    octokit,
    repo: a.repo,
    issue: a.pr.number,
    mode: a.inputs.comment,
    warn: (m) => core.warning(m),
    scrub,
    retryBaseMs: retryBaseMs(),
  });
  const commits = new Map<number, string>();
  const links = { runUrl: a.runUrl, repoUrl: a.repoUrl, artifactName: a.artifactName, stopLabel: a.inputs['stop-label'] };
  const budgetLine = (report: HaltingReport | null) =>
    report?.budget_use
      ? `iterations ${report.budget_use.iterations} · seconds ${report.budget_use.seconds} · cost ${costUse(report.budget_use.cost_usd)}`
      : null;
  const view = (report: HaltingReport, rows: CommentView['rows'], extra: Partial<CommentView>): CommentView => ({
    status: report.status,
    stopReason: report.stop_reason,
    detail: report.detail,
    goal: report.goal,
    rows,
    budget: budgetLine(report),
    ...links,
    ...shown,
    pause: a.pauseFor(report.stop_reason, report.detail),
    ...extra,
  });
  /** The body the post step publishes (with the artifact link); main never spends a call on it. */
  const handToPost = async (body: string) => {
    await writeFile(a.commentFile, scrub(body)).catch(() => undefined);
    notePostComment();
  };
  // The comment's writes go out one after the other, in the order the run made them: the phase
  // events are not awaited by the loop, and a later body must never be overwritten by an earlier one.
  let writes = Promise.resolve();
  const inTurn = (write: () => Promise<unknown>) => {
    writes = writes.then(write).then(
      () => undefined,
      (e: unknown) => core.warning(`the PR comment was not updated: ${scrub(errorText(e))}`),
    );
  };
  const sticky = a.inputs.comment === 'sticky';
  // A run the STOP label stops at once writes no RUNNING comment (the post step writes the paused
  // one): the first write waits for one STOP check, and none goes out once a stop is asked for.
  let firstStopCheck: Promise<unknown> | null = null;
  const stopping = () => stopLabel.requested !== null || a.signals.received !== null;
  const notePostComment = () => {
    if (a.post.commentId !== comments.commentId || a.post.commentFile !== a.commentFile) {
      a.post.commentId = comments.commentId;
      a.post.commentFile = a.commentFile;
      savePostState(a.post);
    }
  };
  let lastReport: HaltingReport | null = null;
  // The baseline row and the failing checks, read from the evidence before each write (an abort reuses the last).
  const { evidenceView } = await import('./evidence-view.js');
  let shown: Awaited<ReturnType<typeof evidenceView>> = { baseline: null, failing: null };
  // While the loop runs its evidence is written in the loop home (the phase events name it); it is published to the checkout at the end.
  let evidenceDir = a.evidenceRoot;
  const readShown = async () => {
    shown = await evidenceView(evidenceDir, lastReport).catch(() => shown);
  };
  if (a.inputs.comment !== 'off')
    a.scene.comment = (detail, pause) => {
      const rows = lastReport ? rowsOf(lastReport, commits) : [];
      const v: CommentView = lastReport
        ? { ...view(lastReport, rows, {}), status: 'EXIT_BLOCKED', stopReason: 'BACKPRESSURE_SIGNAL', detail, pause }
        : { status: 'EXIT_BLOCKED', stopReason: 'BACKPRESSURE_SIGNAL', detail, pause, rows, ...links, ...shown };
      writeFileSync(a.commentFile, scrub(renderComment(v, a.inputs.comment === 'per-iteration' ? FINAL_MARKER : STICKY_MARKER)));
      notePostComment();
    };
  let iterationsRun = 0;
  const apiCallsAtStart = a.api.calls();
  // Secrets the engine scrubs from evidence but never hands to the agent (names in PHUC_LOOP_SECRET_VARS).
  const extraSecrets: Record<string, string> = {};
  a.scrubber.secrets.forEach((v, i) => (extraSecrets[`PHUC_LOOP_ACTION_SECRET_${i}`] = v));
  const env: Record<string, string | undefined> = {
    ...process.env,
    // Claude Code reads it from its environment; the key proxy holds it like an API key.
    ...(a.inputs['claude-code-oauth-token'] ? { CLAUDE_CODE_OAUTH_TOKEN: a.inputs['claude-code-oauth-token'] } : {}),
    ...extraSecrets,
    PHUC_LOOP_SECRET_VARS: [process.env['PHUC_LOOP_SECRET_VARS'] ?? '', ...Object.keys(extraSecrets)].filter(Boolean).join(','),
  };
  const { runLoop } = await import('../engine/loop/loop.js');
  const outcome = await runLoop({
    cwd: a.root,
    configPath: a.configPath,
    runner: new NodeProcessRunner(),
    clock: { monotonicMs: () => performance.now() },
    log: a.log,
    env,
    stopSources: [a.signals.stop, stopLabel],
    signal: a.signals.signal,
    isolation: a.inputs.isolation,
    keyProxy: a.inputs['key-proxy'],
    agentOverride: a.inputs.agent,
    modelOverride: a.inputs.model,
    budgetOverrides: budgetOverrides(a.inputs),
    fresh: a.inputs.fresh,
    pollMs: Math.round(a.inputs['poll-seconds'] * 1000),
    host: {
      phase: (p) => {
        // What an abort (a second signal) reports as done: the iterations on record as this phase starts.
        a.scene.iterations = p.rows.length;
        evidenceDir = p.evidenceRoot;
        if (!sticky) return;
        // Sticky: the comment is there from the baseline on, with the phase the run is in.
        const running = { status: 'RUNNING', phase: phaseLine(p), goal: p.goal, rows: withCommits(p.rows, commits), budget: budgetLine(lastReport), ...links };
        firstStopCheck ??= stopLabel.check();
        inTurn(async () => {
          await firstStopCheck;
          if (stopping()) return;
          await readShown();
          const body = renderComment({ ...running, ...shown }, STICKY_MARKER);
          await comments.publish(body);
          await handToPost(body);
        });
      },
      afterIteration: async ({ iteration, commit, report }) => {
        iterationsRun++;
        commits.set(iteration, commit);
        lastReport = report;
        a.scene.iterations = report.iterations_completed;
        if (a.pusher) {
          const pushed = await a.pusher
            .push(commit)
            .catch((e: unknown) => ({ ok: false as const, attempts: 1, reason: `PUSH_FAILED: ${(e as Error).message}` }));
          if (!pushed.ok) {
            core.warning(scrub(pushed.reason));
            return scrub(pushed.reason);
          }
          core.info(`iter ${iteration}: pushed ${commit.slice(0, 12)} to ${a.pr.headRef}${pushed.attempts > 1 ? ` (after ${pushed.attempts} attempts)` : ''}`);
        }
        // The comment is a view: a failure to render or send it is a warning, never a stop. A sticky
        // one shows this iteration's row with the next phase (or the post step's final state).
        if (sticky) {
          inTurn(async () => {
            await readShown();
            await handToPost(renderComment(view(report, rowsOf(report, commits), {}), STICKY_MARKER));
          });
          // The iteration ends with its comment writes done (a hung API shows here, before the report).
          await writes;
        } else if (a.inputs.comment === 'per-iteration')
          try {
            const rows = rowsOf(report, commits).filter((r) => r.iteration === iteration);
            await readShown();
            const body = renderComment(view(report, rows, { iteration }), ITERATION_MARKER);
            await comments.publish(body);
            await handToPost(body);
          } catch (e) {
            core.warning(`iter ${iteration}: the PR comment was not updated: ${scrub((e as Error).message)}`);
          }
        return null;
      },
    },
  });
  await writes;
  // The halting report exists and the evidence is published: an abort from here on leaves them.
  a.scene.reported = true;
  a.post.loopEnded = true;
  savePostState(a.post);
  // The final state of the comment (the halting status replaces RUNNING) is published by the post
  // step together with the link to the evidence artifact: one call instead of two.
  if (!outcome.nothingToDo && a.inputs.comment !== 'off') {
    const rows = rowsOf(outcome.report, commits);
    lastReport = outcome.report;
    evidenceDir = a.evidenceRoot;
    await readShown();
    await handToPost(renderComment(view(outcome.report, rows, {}), a.inputs.comment === 'per-iteration' ? FINAL_MARKER : STICKY_MARKER));
  }
  return { outcome, comments, commits, stopLabel, apiCallsAtStart, iterationsRun };
}
