// Backpressure and races on GitHub: the STOP label added while the agent runs, workflow cancellation,
// someone else pushing to the branch meanwhile, and the API failing twice with 502 before recovering.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { GitHubEmulator } from '../harness/github-emulator.js';
import { branchSha, log } from '../harness/git-origin.js';
import { apiFigure, debugJob, e2eAgent, fixtureAgent, loopFiles, REPO, restCalls, runJob, scenario, TOKEN, until, useEmulator } from './helpers.js';
import { agentStarted } from '../helpers/repo.js';

let gh: GitHubEmulator;
useEmulator((g) => {
  gh = g;
  gh.setPermission(REPO, 'alice', 'write');
});

test('a STOP label added while the agent runs stops it within poll-seconds: BACKPRESSURE, report, comment, artifact', async () => {
  const s = await scenario(gh, 21, loopFiles(fixtureAgent('sleepy.mjs')));
  const mark = gh.calls.length;
  let labelledAt = 0;
  const job = await runJob(s, {
    inputs: { 'poll-seconds': '0.5', 'stop-label': 'STOP' },
    onMainStarted: async (_h, workspace) => {
      // The check before iteration 0 has been made and the agent has written its partial work.
      await until(() => gh.countCalls({ operation: 'issues/list-labels-on-issue' }, mark) >= 1, 20_000, 'the STOP check before iteration 0');
      await agentStarted(workspace);
      labelledAt = Date.now();
      gh.setLabels(REPO, 21, ['STOP']);
    },
  });
  const { main, post } = job;
  expect(main.exitCode).toBe(12);
  expect(main.outputs).toMatchObject({ status: 'EXIT_BLOCKED', 'stop-reason': 'BACKPRESSURE_SIGNAL', certificate: 'BACKPRESSURE', iterations: '1' });
  // Stopped long before the sleepy agent's 60 s (the bound leaves room for a loaded machine; poll-seconds is 1).
  const stoppedAfter = Date.now() - labelledAt;
  expect(stoppedAfter).toBeLessThan(30_000);
  const agentLog = await readFile(join(job.workspace, 'evidence/loop/iter_0/agent.log'), 'utf8');
  expect(agentLog).toMatch(/stopped/);
  expect(main.summary).toContain('the STOP label is on pull request #21');
  // A pause, said as one: by what, and how to go on.
  const paused =
    /\*\*Paused:\*\* the `STOP` label is on the pull request\. \*\*To go on:\*\* Remove the `STOP` label, then re-run the job from the workflow run page, or trigger the workflow again: the next run continues from the evidence/;
  expect(main.summary).toMatch(paused);
  expect(gh.commentsOn(REPO, 21)[0].body).toMatch(/EXIT_BLOCKED \(BACKPRESSURE_SIGNAL\)/);
  expect(gh.commentsOn(REPO, 21)[0].body).toMatch(paused);
  expect(post?.outputs['artifact-id']).toMatch(/^\d+$/);
  // The partial work of the stopped iteration is committed and pushed like any other.
  expect((await log(s.origin, 'pr-21', { since: s.origin.headSha! })).map((c) => c.files)).toEqual([expect.arrayContaining(['src/partial.txt', 'AGENTS.md'])]);
  const calls = restCalls(gh, job.callsBefore);
  process.stdout.write(
    `e2e API calls, STOP run (stopped ${stoppedAfter} ms after the label): ${JSON.stringify(calls)} → ${JSON.stringify(apiFigure(calls, 1))}\n`,
  );
}, 60_000);

test('workflow cancellation (SIGINT to the step) stops the agent the same way; post still uploads the evidence', async () => {
  const s = await scenario(gh, 22, loopFiles(fixtureAgent('sleepy.mjs')));
  const mark = gh.calls.length;
  let stoppedWithinMs = Infinity;
  const job = await runJob(s, {
    onMainStarted: async (h, workspace) => {
      await until(() => gh.countCalls({ operation: 'issues/list-labels-on-issue' }, mark) >= 1, 20_000, 'the STOP check before iteration 0');
      await agentStarted(workspace);
      const t0 = Date.now();
      await h.cancel({ sigintMs: 7500 });
      stoppedWithinMs = Date.now() - t0;
    },
  });
  const { main, post } = job;
  expect(main.cancelled).toBe(true);
  // Ended by itself within the runner's grace (measured from the SIGINT, not from the step's start: a busy machine slows the baseline).
  expect(stoppedWithinMs).toBeLessThan(7500);
  expect(main.stdout).not.toMatch(/SIGTERM received/);
  expect(main.outputs).toMatchObject({ status: 'EXIT_BLOCKED', 'stop-reason': 'BACKPRESSURE_SIGNAL' });
  expect(main.stdout).toMatch(/SIGINT received \(workflow cancellation\)/);
  expect(main.summary).toMatch(/\*\*Paused:\*\* the workflow run was cancelled \(SIGINT\)\. \*\*To go on:\*\* Re-run the job/);
  expect(gh.commentsOn(REPO, 22)[0].body).toMatch(/\*\*Paused:\*\* the workflow run was cancelled \(SIGINT\)/);
  expect(main.leftoverProcesses).toBe(false);
  expect(post?.exitCode).toBe(0);
  const artifact = gh.listArtifacts({ runId: job.run.id })[0];
  expect([...gh.artifactFiles(artifact.id).keys()]).toEqual(expect.arrayContaining(['halting_report.json', 'iter_0/certificate.json']));
  expect(JSON.parse(gh.artifactFiles(artifact.id).get('halting_report.json')!.toString())).toMatchObject({
    status: 'EXIT_BLOCKED',
    stop_reason: 'BACKPRESSURE_SIGNAL',
  });
}, 60_000);

test('a push race: someone else pushes while the agent runs → EXIT_BLOCKED(BRANCH_MOVED), nothing forced', async () => {
  const s = await scenario(gh, 23, loopFiles(e2eAgent('racer.mjs')));
  // The "someone else" is the agent here, so it must be able to write the origin: at user+pidns the
  // agent user cannot (which the sandbox tests cover); this test is about the loop's push.
  const job = await runJob(s, { env: { PHUC_TEST_E2E_BARE_DIR: s.origin.bareDir, PHUC_TEST_E2E_BRANCH: 'pr-23' }, inputs: { isolation: 'none' } });
  const { main, post } = job;
  expect(main.exitCode).toBe(12);
  expect(main.outputs).toMatchObject({ status: 'EXIT_BLOCKED', 'stop-reason': 'BRANCH_MOVED', iterations: '1' });
  expect(main.summary).toMatch(/BRANCH_MOVED: someone else pushed to pr-23 while the loop ran/);
  // The other commit is the tip; the loop's commit was never pushed over it.
  const commits = await log(s.origin, 'pr-23', { since: s.origin.headSha! });
  expect(commits.map((c) => c.subject)).toEqual(['a concurrent human commit']);
  const local = (await readFile(join(job.workspace, '.git/HEAD'), 'utf8')).trim();
  expect(local).toMatch(/^ref: refs\/heads\/pr-23$/);
  expect(await branchSha(s.origin, 'pr-23')).toBe(commits[0].sha);
  expect(gh.commentsOn(REPO, 23)[0].body).toMatch(/BRANCH_MOVED/);
  expect(post?.outputs['artifact-id']).toMatch(/^\d+$/);
}, 60_000);

test('the API failing twice with 502 then recovering: the run goes on (comment trigger, pulls.get, artifacts, comments)', async () => {
  const s = await scenario(gh, 24, loopFiles(fixtureAgent('fixer.mjs'), { criteria: 1 }));
  for (const operation of [
    'pulls/get',
    'repos/get-collaborator-permission-level',
    'actions/list-artifacts-for-repo',
    'issues/list-comments',
    'issues/create-comment',
    'issues/list-labels-on-issue',
  ])
    gh.failNext({ operation }, [502, 502]);
  const event = {
    action: 'created',
    issue: { number: 24, title: 'PR 24', pull_request: { url: `${gh.url}/repos/${REPO}/pulls/24` } },
    comment: { id: 1, body: '/phuc-loop', user: { login: 'alice', type: 'User' } },
    sender: { login: 'alice', type: 'User' },
    repository: { full_name: REPO, name: 'widgets', owner: { login: 'octo' } },
  };
  const job = await runJob(s, { event, runOpts: { event: 'issue_comment', headBranch: 'main', actor: 'alice' } });
  const { main, post } = job;
  if (main.exitCode !== 0) throw new Error(debugJob(job));
  expect(main.outputs).toMatchObject({ status: 'EXIT_CONVERGED', 'stop-reason': 'EXACT', iterations: '1' });
  for (const operation of ['pulls/get', 'repos/get-collaborator-permission-level', 'actions/list-artifacts-for-repo', 'issues/create-comment'])
    expect([
      operation,
      gh.calls
        .slice(job.callsBefore)
        .filter((c) => c.operation === operation)
        .map((c) => c.status),
    ]).toEqual([operation, [502, 502, expect.any(Number)]]);
  // A failed create is never sent again blindly: the comment is looked up after each failure.
  expect(
    gh.calls
      .slice(job.callsBefore)
      .filter((c) => c.operation === 'issues/list-comments')
      .map((c) => c.status),
  ).toEqual([502, 502, 200, 200, 200]);
  expect(gh.commentsOn(REPO, 24)).toHaveLength(1);
  expect(gh.commentsOn(REPO, 24)[0].body).toMatch(/EXIT_CONVERGED \(EXACT\)/);
  expect(post?.exitCode).toBe(0);
  expect(JSON.stringify(main.outputs) + main.summary).not.toContain(TOKEN);
}, 60_000);

test('a STOP label already on the PR: no agent starts; the comment and the artifact still tell the story', async () => {
  const s = await scenario(gh, 25, loopFiles(fixtureAgent('fixer.mjs')), { labels: ['stop'] });
  const job = await runJob(s, { inputs: { 'stop-label': 'STOP' } });
  expect(job.main.exitCode).toBe(12);
  expect(job.main.outputs).toMatchObject({ status: 'EXIT_BLOCKED', 'stop-reason': 'BACKPRESSURE_SIGNAL', certificate: 'BACKPRESSURE', iterations: '0' });
  expect(job.main.stdout).not.toMatch(/iter 0: agent/);
  expect(await log(s.origin, 'pr-25', { since: s.origin.headSha! })).toEqual([]);
  // The final comment is written once, by the post step, with the artifact link.
  const comments = gh.commentsOn(REPO, 25);
  expect(comments).toHaveLength(1);
  expect(comments[0].body).toMatch(/EXIT_BLOCKED \(BACKPRESSURE_SIGNAL\)/);
  expect(comments[0].body).toMatch(/\*\*Paused:\*\* the `STOP` label is on the pull request\. \*\*To go on:\*\* Remove the `STOP` label/);
  expect(comments[0].body).toContain(`/artifacts/${job.post?.outputs['artifact-id']}`);
  expect(restCalls(gh, job.callsBefore)).toEqual({
    'actions/list-artifacts-for-repo': 1,
    'issues/list-labels-on-issue': 1,
    'issues/list-comments': 1,
    'issues/create-comment': 1,
  });
}, 60_000);

test('an agent hitting its rate limit pauses the run; the summary says to wait, then start again the way it was started (a label)', async () => {
  const s = await scenario(gh, 26, loopFiles(fixtureAgent('rate-limited.mjs')));
  const event = { ...gh.pullRequestEvent(REPO, 26, 'labeled'), label: { name: 'phuc-loop' }, sender: { login: 'alice', type: 'User' } };
  const job = await runJob(s, { event, runOpts: { actor: 'alice' } });
  expect(job.main.outputs).toMatchObject({ status: 'EXIT_BLOCKED', 'stop-reason': 'BACKPRESSURE_SIGNAL' });
  const paused =
    /\*\*Paused:\*\* the agent hit a rate limit of its model service \([^)]*\)\. \*\*To go on:\*\* Wait until the limit resets, then add the `phuc-loop` label again \(remove it first if it is still there\), or re-run the job/;
  expect(job.main.summary).toMatch(paused);
  expect(gh.commentsOn(REPO, 26)[0].body).toMatch(paused);
}, 60_000);
