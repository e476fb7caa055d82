// The main step: inputs → the pull request → who asked → evidence restored from the last run's
// artifact → the engine's loop (STOP label and cancellation as backpressure; after each iteration the
// commit is pushed and the PR comment rewritten) → outputs, job summary, the action's exit.
// Cancellation: the first SIGINT/SIGTERM pauses the run (the report is written); a second one
// aborts at once, after writing the outputs, the summary and the comment for the post step.
import * as core from '@actions/core';
import * as github from '@actions/github';
import { writeFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { EXIT_CODES, type TerminalState } from '../engine/loop/fsm.js';
import type { LoopOutcome } from '../engine/loop/loop.js';
import type { Logger } from '../engine/os/ports.js';
import { NodeProcessRunner } from '../engine/os/process.js';
import { installSignalStop, type InstalledSignalStop, type StopSignal } from '../engine/os/signals.js';
import { closeInheritedDescriptors, inheritedNote } from '../engine/os/descriptors.js';
import type { HaltingReport } from '../engine/evidence/report.js';
import { artifactNameFor, downloadEvidence, findPreviousEvidence } from './artifact.js';
import { CommentPublisher, FINAL_MARKER, ITERATION_MARKER, renderComment, STICKY_MARKER, type CommentView } from './comment.js';
import { apiError, createClient, errorText, retryBaseMs, type ApiClient } from './github.js';
import { budgetOverrides, InputError, readInputs, type ActionInputs } from './inputs.js';
import { pauseNote, pauseOf, type Pause } from './pause.js';
import { mayStart } from './permissions.js';
import { phaseLine, rowsOf, withCommits } from './progress.js';
import { runFigures } from './run-figures.js';
import { isFork, NoPullRequest, resolvePullRequest, triggerOf, type Payload, type PullRequestInfo, type RepoRef } from './pull-request.js';
import { BranchPusher, GITHUB_TOKEN_PUSH_WARNING } from './push.js';
import { Scrubber } from './scrub.js';
import { savePostState, type PostState } from './state.js';
import { StopLabel } from './stop-label.js';
import { refusalMarkdown, reportMarkdown, writeSummary, writeSummarySync } from './summary.js';
import { costUse } from '../engine/common/display.js';

// The engine (and what only a running loop needs) is loaded once the run gets that far: a refusal,
// and the first output of every run, come before it (bench/startup.ts measures it).
const engine = () => import('../engine/loop/loop.js');

/** A refusal before the loop starts: the action's own terminal status, never a silent success. */
class Refusal extends Error {
  constructor(
    readonly status: TerminalState,
    readonly stopReason: string,
    readonly detail: string,
  ) {
    super(detail);
  }
}

const OUTPUTS = ['status', 'stop-reason', 'certificate', 'residual', 'iterations', 'glow', 'report-path', 'certified-commit', 'cost-usd', 'tokens'] as const;

function setOutputs(values: Partial<Record<(typeof OUTPUTS)[number], string>>, scrub: (s: string) => string): void {
  for (const name of OUTPUTS) core.setOutput(name, scrub(values[name] ?? ''));
}

const coreLogger = (scrub: (s: string) => string): Logger => ({
  info: (m) => core.info(scrub(m)),
  warn: (m) => core.warning(scrub(m)),
  error: (m) => core.error(scrub(m)),
});

async function gitToplevel(runner: NodeProcessRunner, cwd: string): Promise<string | null> {
  const r = await runner.run({
    command: 'git',
    args: ['rev-parse', '--show-toplevel'],
    cwd,
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '' },
  });
  return r.exitCode === 0 ? r.stdout.trim() : null;
}

/**
 * What an abort (a second signal) still writes, synchronously: filled in as the run gets that far.
 * `comment` writes the paused comment the post step publishes.
 */
interface AbortScene {
  scrub: (s: string) => string;
  pause?: (detail: string) => Pause | null;
  comment?: (detail: string, pause: Pause | null) => void;
  iterations?: number;
  /** The engine wrote its halting report: nothing is left to say for it. */
  reported?: boolean;
}

/** The last words of an aborted main step: outputs, job summary, the comment for the post step. */
function lastWords(scene: AbortScene, signals: InstalledSignalStop, sig: StopSignal): void {
  if (scene.reported) return;
  const detail = `the run was aborted by a second signal (${signals.received ?? sig}, then ${sig}) before its halting report was written; the evidence of the finished iterations is kept`;
  const pause = scene.pause?.(detail) ?? null;
  setOutputs(
    {
      status: 'EXIT_BLOCKED',
      'stop-reason': 'BACKPRESSURE_SIGNAL',
      certificate: 'NONE',
      iterations: scene.iterations === undefined ? '' : String(scene.iterations),
    },
    scene.scrub,
  );
  writeSummarySync(refusalMarkdown('EXIT_BLOCKED', 'BACKPRESSURE_SIGNAL', detail, { notes: pause ? [pauseNote(pause)] : [], scrub: scene.scrub }));
  try {
    scene.comment?.(detail, pause);
  } catch {
    /* the comment is a view; the outputs and the summary are written */
  }
  core.setFailed(scene.scrub(`phuc-loop: EXIT_BLOCKED(BACKPRESSURE_SIGNAL): ${detail}`));
}

/** The main step; never rejects (a crash becomes core.setFailed with exit code 1). */
export async function run(): Promise<void> {
  const closed = closeInheritedDescriptors();
  if (closed.length) core.info(`phuc-loop: ${inheritedNote(closed)}`);
  const scrubber = new Scrubber();
  const scene: AbortScene = { scrub: (s) => scrubber.scrub(s) };
  const signals = installSignalStop({ meaning: 'workflow cancellation', notify: (m) => core.warning(m), onAbort: (sig) => lastWords(scene, signals, sig) });
  try {
    await runMain(scrubber, signals, scene);
  } catch (e) {
    core.setFailed(`phuc-loop crashed: ${errorText(e)}`);
    process.exitCode = EXIT_CODES.CRASH;
  } finally {
    signals.dispose();
  }
}

async function runMain(scrubber: Scrubber, signals: InstalledSignalStop, scene: AbortScene): Promise<void> {
  const scrub = (s: string) => scrubber.scrub(s);
  let inputs: ActionInputs;
  try {
    inputs = readInputs();
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    setOutputs({ status: 'EXIT_NEED_INFO', 'stop-reason': 'INVALID_INPUT', certificate: 'NONE', iterations: '0' }, scrub);
    core.setFailed(`phuc-loop: ${e.message}`);
    process.exitCode = EXIT_CODES.EXIT_NEED_INFO;
    return;
  }
  scrubber.add(inputs['github-token']);
  if (inputs['push-token']) scrubber.add(inputs['push-token']);
  if (inputs['claude-code-oauth-token']) scrubber.add(inputs['claude-code-oauth-token']);
  scrubber.addEnv(process.env);
  const api = createClient(inputs['github-token']);
  try {
    await main(inputs, api, scrubber, signals, scene);
  } catch (e) {
    if (e instanceof Refusal) {
      setOutputs({ status: e.status, 'stop-reason': e.stopReason, certificate: 'NONE', iterations: '0' }, scrub);
      await writeSummary(refusalMarkdown(e.status, e.stopReason, e.detail, { notes: [], scrub }));
      core.setFailed(scrub(`phuc-loop: ${e.status}(${e.stopReason}): ${e.detail}`));
      process.exitCode = EXIT_CODES[e.status];
      return;
    }
    core.setFailed(scrub(`phuc-loop crashed: ${errorText(e)}`));
    process.exitCode = EXIT_CODES.CRASH;
  }
}

async function main(inputs: ActionInputs, api: ApiClient, scrubber: Scrubber, signals: InstalledSignalStop, scene: AbortScene): Promise<void> {
  const scrub = (s: string) => scrubber.scrub(s);
  const log = coreLogger(scrub);
  const ctx = github.context;
  const repo: RepoRef = ctx.repo;
  const serverUrl = ctx.serverUrl;
  const repoUrl = `${serverUrl}/${repo.owner}/${repo.repo}`;
  const runUrl = `${repoUrl}/actions/runs/${ctx.runId}`;
  const octokit = api.octokit;
  const runner = new NodeProcessRunner();
  const token = inputs['github-token'];

  // 1. The pull request, and whether this actor may start a loop on it.
  const payload = ctx.payload as Payload;
  const trigger = triggerOf(ctx.eventName, payload, ctx.actor);
  let pr: PullRequestInfo;
  try {
    pr = await resolvePullRequest({ octokit, repo, eventName: ctx.eventName, payload, input: inputs['pull-request'] });
  } catch (e) {
    if (e instanceof NoPullRequest) throw new Refusal('EXIT_NEED_INFO', 'NO_PULL_REQUEST', e.message);
    throw new Refusal('EXIT_BLOCKED', 'PULL_REQUEST_UNAVAILABLE', `could not read the pull request (${apiError(e)})`);
  }
  core.info(
    `pull request #${pr.number}: ${pr.headRepo ?? '(deleted repository)'}:${pr.headRef} @ ${pr.headSha.slice(0, 12)}; trigger ${trigger.eventName}${trigger.kind !== 'other' ? ` (${trigger.kind})` : ''} by ${trigger.actor}`,
  );
  if (isFork(pr))
    throw new Refusal(
      'EXIT_BLOCKED',
      'FORK_PULL_REQUEST',
      `pull request #${pr.number} comes from ${pr.headRepo ?? 'a deleted fork'}, not ${pr.baseRepo}: phuc-loop does not run on fork pull requests ` +
        `(it would push to a branch it does not own and hand repository secrets to code from outside). Nothing was run or pushed.`,
    );
  const allowed = await mayStart({ octokit, repo, trigger, allowedBots: inputs['allowed-bots'] }).catch((e: unknown) => {
    throw new Refusal('EXIT_BLOCKED', 'PERMISSION_UNKNOWN', `could not ask GitHub for ${trigger.actor}'s permission (${apiError(e)}); not starting`);
  });
  if (!allowed.allowed) throw new Refusal('EXIT_BLOCKED', 'ACTOR_NOT_ALLOWED', `${allowed.why}. Nothing was run.`);
  core.info(`allowed: ${allowed.why}`);
  const stopLabel = new StopLabel({ octokit, repo, issue: pr.number, label: inputs['stop-label'], warn: (m) => core.warning(m) });
  const pauseFor: PauseFor = (stopReason, detail) =>
    pauseOf({
      stopReason,
      detail,
      signal: signals.received,
      labelReason: stopLabel.requested,
      stopLabel: inputs['stop-label'],
      trigger: { kind: trigger.kind, label: payload.label?.name },
    });
  scene.pause = (detail) => pauseFor('BACKPRESSURE_SIGNAL', detail);

  // 2. Where the checkout, the config and the evidence are.
  const workspace = process.env['GITHUB_WORKSPACE'] ?? process.cwd();
  const workdir = resolve(workspace, inputs['working-directory']);
  const toplevel = await gitToplevel(runner, workdir);
  const root = toplevel ?? workdir;
  const configPath = relative(root, resolve(workdir, inputs.config));
  const evidenceRoot = join(root, (await engine()).DEFAULT_EVIDENCE_DIR);
  const artifactName = artifactNameFor(inputs['artifact-name'], pr.number);
  const tempDir = process.env['RUNNER_TEMP'] ?? workspace;
  const commentFile = join(tempDir, `phuc-loop-comment-${ctx.runId}-${pr.number}.md`);
  const post: PostState = {
    upload: false,
    evidenceDir: evidenceRoot,
    artifactName,
    retentionDays: inputs['retention-days'],
    pullRequest: pr.number,
    commentId: null,
    commentFile: null,
    commentMode: inputs.comment,
    checkout: toplevel,
    loopEnded: false,
  };
  savePostState(post);

  // 3. The branch the commits go to: credentials out of the agent's reach, checkout = branch tip.
  const pusher =
    inputs.push && toplevel
      ? new BranchPusher({
          runner,
          cwd: toplevel,
          env: process.env,
          serverUrl,
          repository: pr.baseRepo,
          branch: pr.headRef,
          // Pushes made with github.token start no workflow: a push-token makes the PR's checks run.
          token: inputs['push-token'] ?? token,
          retryBaseMs: retryBaseMs(),
          log: (m) => core.info(m),
          scrub,
        })
      : null;
  const notes: string[] = [];
  let restored = false;
  try {
    if (pusher) {
      const refused = await pusher.prepare();
      if (refused) {
        const colon = refused.indexOf(':');
        throw new Refusal('EXIT_BLOCKED', colon < 0 ? refused : refused.slice(0, colon), refused.slice(colon + 1).trim());
      }
    } else if (!inputs.push) notes.push('push: false — the iteration commits stay in the runner and in the evidence artifact.');

    // 4. Evidence of earlier runs: restored before the engine starts; the engine verifies it.
    if (toplevel && !inputs.fresh) {
      const prev = await findPreviousEvidence({ octokit, repo, name: artifactName }).catch((e: unknown) => {
        throw new Refusal(
          'EXIT_BLOCKED',
          'EVIDENCE_UNVERIFIABLE',
          `could not list the evidence artifacts of #${pr.number} (${apiError(e)}); not starting a fresh loop silently`,
        );
      });
      for (const s of prev.skipped) core.info(`evidence: ${s}`);
      if (prev.found) {
        const a = prev.found;
        core.info(`evidence: restoring artifact ${a.name} (id ${a.id}) of run ${a.runId} (${a.headBranch ?? '?'} @ ${(a.headSha ?? '?').slice(0, 12)})`);
        try {
          const files = await downloadEvidence({ artifact: a, token, repo, target: evidenceRoot, tempDir });
          restored = true;
          notes.push(
            `Evidence restored from artifact \`${a.name}\` (id ${a.id}) of [run ${a.runId}](${repoUrl}/actions/runs/${a.runId}): ${files.length} file(s).`,
          );
        } catch (e) {
          throw new Refusal(
            'EXIT_BLOCKED',
            'EVIDENCE_UNVERIFIABLE',
            `${(e as Error).message}; not starting a fresh loop silently (use the fresh input to start over)`,
          );
        }
        // Only a tree that verifies is handed on again; a bad one stays the previous run's artifact.
        const { verifyTree } = await import('../engine/evidence/verify.js');
        post.upload = (await verifyTree(evidenceRoot, { allowOpenTail: true }).catch(() => ({ ok: false }))).ok;
      } else {
        notes.push(`No earlier evidence artifact named \`${artifactName}\`: a new loop starts.${prev.skipped.length ? ` (${prev.skipped.join('; ')})` : ''}`);
        post.upload = true;
      }
    } else {
      if (inputs.fresh) notes.push('fresh: true — earlier evidence is not restored; a new loop starts.');
      post.upload = true;
    }
    savePostState(post);
    // A new loop has no iteration on record; a restored one's count is known once the engine read it.
    if (!restored) scene.iterations = 0;

    // 5. The loop.
    const outcome = await loop({
      inputs,
      api,
      scrubber,
      pr,
      repo,
      repoUrl,
      runUrl,
      root,
      configPath,
      evidenceRoot,
      artifactName,
      pusher,
      commentFile,
      post,
      log,
      signals,
      stopLabel,
      pauseFor,
      scene,
    });
    if (pusher?.pushes && !inputs['push-token']) {
      core.warning(GITHUB_TOKEN_PUSH_WARNING);
      notes.unshift(`**Warning:** ${GITHUB_TOKEN_PUSH_WARNING}`);
    }
    await finish({ inputs, api, outcome, evidenceRoot, notes, scrub, runUrl, repoUrl, artifactName, pr, pauseFor });
  } finally {
    await pusher?.restore();
  }
}

/** The pause (by what, how to go on) of a run that ended with this stop reason, or null. */
type PauseFor = (stopReason: string | null, detail: string | null) => Pause | null;

interface LoopArgs {
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

interface LoopResult {
  outcome: LoopOutcome;
  comments: CommentPublisher;
  commits: Map<number, string>;
  stopLabel: StopLabel;
  apiCallsAtStart: number;
  iterationsRun: number;
}

async function loop(a: LoopArgs): Promise<LoopResult> {
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
  const { runLoop } = await engine();
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

interface FinishArgs {
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

async function finish(f: FinishArgs): Promise<void> {
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
