// Cancellation as GitHub's runner does it: SIGINT to the main step's node process, SIGTERM 7.5 s
// later, SIGKILL 2.5 s after that. The first signal pauses the run (the agent is stopped, the report
// and the summary are written within the grace); a second one aborts at once, still leaving a paused
// summary and evidence the next run continues from.
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { GitHubEmulator } from '../harness/github-emulator.js';
import { branchSha, cloneWorkspace } from '../harness/git-origin.js';
import { e2eAgent, loopFiles, REPO, resumesAndConverges, runJob, scenario, TOKEN, until, type Scenario, useEmulator } from './helpers.js';

let gh: GitHubEmulator;
useEmulator((g) => (gh = g));

const stubborn = (n: number) => scenario(gh, n, loopFiles(e2eAgent('stubborn.mjs'), { criteria: 2 }));

/** The checkout the job runs in, and a wait for the agent's first change in it (the agent is then at work). */
async function checkout(s: Scenario) {
  const workspace = await cloneWorkspace(s.origin, { token: TOKEN, branch: `pr-${s.number}` });
  const agentAtWork = () =>
    until(
      () => existsSync(join(workspace, 'src/status.txt')) && readFileSync(join(workspace, 'src/status.txt'), 'utf8').includes('fixed-1'),
      30_000,
      'the agent at work',
    );
  return { workspace, agentAtWork };
}

test("the runner's cancel cascade: the stop (through an agent that ignores SIGTERM) ends within the grace, paused, reported, resumable", async () => {
  const s = await stubborn(61);
  const { workspace, agentAtWork } = await checkout(s);
  let stoppedWithinMs = Infinity;
  const job = await runJob(s, {
    workspace,
    env: { PHUC_TEST_E2E_AGENT_MS: '60000', PHUC_TEST_E2E_IGNORE_TERM: '1' },
    onMainStarted: async (h) => {
      await agentAtWork();
      const t0 = Date.now();
      await h.cancel(); // the runner's timings: SIGINT, 7.5 s, SIGTERM, 2.5 s, SIGKILL
      stoppedWithinMs = Date.now() - t0;
    },
  });
  const { main, post } = job;
  // Ended by itself before the runner escalated: no SIGTERM was needed.
  expect({ exit: main.exitCode, signal: main.signal, cancelled: main.cancelled }).toEqual({ exit: 12, signal: null, cancelled: true });
  expect(stoppedWithinMs).toBeLessThan(7500);
  expect(main.stdout).not.toMatch(/SIGTERM received/);
  expect(main.leftoverProcesses).toBe(false);
  expect(main.outputs).toMatchObject({ status: 'EXIT_BLOCKED', 'stop-reason': 'BACKPRESSURE_SIGNAL', iterations: '1' });
  expect(main.summary).toContain('## phuc-loop: EXIT_BLOCKED (BACKPRESSURE_SIGNAL)');
  expect(main.summary).toMatch(/\*\*Paused:\*\* the workflow run was cancelled \(SIGINT\)\. \*\*To go on:\*\* Re-run the job from the workflow run page/);
  expect(JSON.parse(await readFile(join(job.workspace, 'evidence/loop/halting_report.json'), 'utf8'))).toMatchObject({
    status: 'EXIT_BLOCKED',
    stop_reason: 'BACKPRESSURE_SIGNAL',
  });
  // The post step uploaded the evidence and published the paused comment.
  expect(post?.exitCode).toBe(0);
  const artifact = gh.listArtifacts({ runId: job.run.id })[0];
  expect([...gh.artifactFiles(artifact.id).keys()]).toEqual(expect.arrayContaining(['halting_report.json', 'state.json', 'iter_0/certificate.json']));
  expect(gh.commentsOn(REPO, 61)[0].body).toMatch(/\*\*Paused:\*\* the workflow run was cancelled/);
  await resumesAndConverges(s, { onRecord: 1, iterations: 2, env: { PHUC_TEST_E2E_AGENT_MS: '0' } });
}, 90_000);

test('a second Ctrl-C while the report is being written aborts at once: paused summary and comment, evidence the next run continues from', async () => {
  const s = await stubborn(62);
  const { workspace, agentAtWork } = await checkout(s);
  const mark = gh.calls.length;
  // The comment's lookup (as the run starts) never gets an answer: the run goes on, and the graceful
  // stop hangs where iteration 0 waits for its comment writes, after its commit is pushed and before
  // the halting report.
  gh.failNext({ operation: 'issues/list-comments' }, ['timeout']);
  const job = await runJob(s, {
    workspace,
    env: { PHUC_TEST_E2E_AGENT_MS: '60000', PHUC_LOOP_API_TIMEOUT_MS: '120000' },
    onMainStarted: async (h) => {
      await agentAtWork();
      h.kill('SIGINT');
      await until(() => gh.calls.slice(mark).some((c) => c.operation === 'issues/list-comments' && c.timedOut), 30_000, 'the hanging comment lookup');
      await until(async () => (await branchSha(s.origin, 'pr-62')) !== s.origin.headSha, 30_000, 'the push of iteration 0');
      h.kill('SIGINT');
    },
  });
  const { main, post } = job;
  expect({ exit: main.exitCode, signal: main.signal }).toEqual({ exit: 130, signal: null });
  expect(main.stdout).toMatch(/SIGINT received again: aborting now/);
  expect(main.outputs).toMatchObject({ status: 'EXIT_BLOCKED', 'stop-reason': 'BACKPRESSURE_SIGNAL', certificate: 'NONE', iterations: '1' });
  expect(main.summary).toContain('## phuc-loop: EXIT_BLOCKED (BACKPRESSURE_SIGNAL)');
  expect(main.summary).toMatch(/aborted by a second signal \(SIGINT, then SIGINT\) before its halting report was written/);
  expect(main.summary).toMatch(/\*\*Paused:\*\* the workflow run was cancelled \(SIGINT\)/);
  // The post step still uploads the evidence and publishes the paused comment (looked up first: one comment).
  expect(post?.exitCode).toBe(0);
  expect(gh.listArtifacts({ runId: job.run.id })).toHaveLength(1);
  const comments = gh.commentsOn(REPO, 62);
  expect(comments).toHaveLength(1);
  expect(comments[0].body).toMatch(/EXIT_BLOCKED \(BACKPRESSURE_SIGNAL\)/);
  expect(comments[0].body).toMatch(/\*\*Paused:\*\*/);
  await resumesAndConverges(s, { onRecord: 1, iterations: 2, env: { PHUC_TEST_E2E_AGENT_MS: '0' } });
}, 90_000);

test('a second Ctrl-C before any iteration of the run ended still sets every output: iterations is the count on record (0)', async () => {
  const s = await stubborn(63);
  const { workspace, agentAtWork } = await checkout(s);
  const job = await runJob(s, {
    workspace,
    // The agent ignores SIGTERM: after the first SIGINT its step takes the kill grace to end, so the second comes before iteration 0 does.
    env: { PHUC_TEST_E2E_AGENT_MS: '60000', PHUC_TEST_E2E_IGNORE_TERM: '1' },
    onMainStarted: async (h) => {
      await agentAtWork();
      h.kill('SIGINT');
      await h.waitForOutput(/SIGINT received \(workflow cancellation\)/, 10_000);
      h.kill('SIGINT');
    },
  });
  const { main } = job;
  expect({ exit: main.exitCode, signal: main.signal }).toEqual({ exit: 130, signal: null });
  expect(main.stdout).toMatch(/SIGINT received again: aborting now/);
  expect(main.outputs).toMatchObject({ status: 'EXIT_BLOCKED', 'stop-reason': 'BACKPRESSURE_SIGNAL', certificate: 'NONE', iterations: '0' });
  expect(main.summary).toMatch(/aborted by a second signal \(SIGINT, then SIGINT\) before its halting report was written/);
}, 90_000);
