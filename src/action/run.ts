// The main step once its inputs are valid (start.ts): the pull request → who asked → evidence restored from the last run's
// artifact → the engine's loop (STOP label and cancellation as backpressure; after each iteration the
// commit is pushed and the PR comment rewritten) → outputs, job summary, the action's exit.
// Cancellation: the first SIGINT/SIGTERM pauses the run (the report is written); a second one
// aborts at once, after writing the outputs, the summary and the comment for the post step.
// Here: the steps up to the loop; the loop on the PR is loop-on-pr.ts, its end finish.ts, an abort abort.ts.
import * as core from '@actions/core';
import * as github from '@actions/github';
import { join, relative, resolve } from 'node:path';
import { EXIT_CODES, type TerminalState } from '../engine/run/fsm.js';
import type { Logger } from '../engine/os/ports.js';
import { NodeProcessRunner } from '../engine/os/process.js';
import { installSignalStop, type InstalledSignalStop } from '../engine/os/signals.js';
import { closeInheritedDescriptors, inheritedNote } from '../engine/os/descriptors.js';
import { artifactNameFor, downloadEvidence, findPreviousEvidence } from './artifact.js';
import { apiError, createClient, errorText, retryBaseMs, type ApiClient } from './github.js';
import type { ActionInputs } from './inputs.js';
import { pauseOf } from './pause.js';
import { mayStart } from './permissions.js';
import { isFork, NoPullRequest, resolvePullRequest, triggerOf, type Payload, type PullRequestInfo, type RepoRef } from './pull-request.js';
import { BranchPusher, GITHUB_TOKEN_PUSH_WARNING } from './push.js';
import { Scrubber } from './scrub.js';
import { savePostState, type PostState } from './state.js';
import { StopLabel } from './stop-label.js';
import { writeSummary } from './job-summary.js';
import { refusalMarkdown } from './summary.js';
import { lastWords, type AbortScene } from './abort.js';
import { finish } from './finish.js';
import { loop, type PauseFor } from './loop-on-pr.js';
import { setOutputs } from './outputs.js';

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

/** The main step once its inputs are valid (start.ts); never rejects (a crash becomes core.setFailed with exit code 1). */
export async function run(inputs: ActionInputs): Promise<void> {
  const closed = closeInheritedDescriptors();
  if (closed.length) core.info(`phuc-loop: ${inheritedNote(closed)}`);
  const scrubber = new Scrubber();
  const scene: AbortScene = { scrub: (s) => scrubber.scrub(s) };
  const signals = installSignalStop({ meaning: 'workflow cancellation', notify: (m) => core.warning(m), onAbort: (sig) => lastWords(scene, signals, sig) });
  try {
    await runMain(inputs, scrubber, signals, scene);
  } catch (e) {
    core.setFailed(`phuc-loop crashed: ${errorText(e)}`);
    process.exitCode = EXIT_CODES.CRASH;
  } finally {
    signals.dispose();
  }
}

async function runMain(inputs: ActionInputs, scrubber: Scrubber, signals: InstalledSignalStop, scene: AbortScene): Promise<void> {
  const scrub = (s: string) => scrubber.scrub(s);
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
