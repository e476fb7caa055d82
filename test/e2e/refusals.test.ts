// Who may start a loop, and where: fork PRs are refused (no push, no secrets), a label from an actor
// without write access is refused (asked of the API), bots only when allow-listed; bad inputs are
// named before anything runs.
import type { GitHubEmulator } from '../harness/github-emulator.js';
import { branchSha, log } from '../harness/git-origin.js';
import { debugJob, fixtureAgent, loopFiles, REPO, restCalls, runJob, scenario, useEmulator } from './helpers.js';

let gh: GitHubEmulator;
useEmulator((g) => {
  gh = g;
  gh.setPermission(REPO, 'mallory', 'read');
  gh.setPermission(REPO, 'maintainer-mo', 'maintain');
});

const labeled = (number: number, sender: { login: string; type: string }) => ({
  ...gh.pullRequestEvent(REPO, number, 'labeled'),
  label: { name: 'phuc-loop' },
  sender: { ...sender, id: 1 },
});

test('a fork PR is refused clearly: no API write, no push, no agent, no artifact', async () => {
  const s = await scenario(gh, 31, loopFiles(fixtureAgent('fixer.mjs')), { headRepo: 'forker/widgets' });
  const job = await runJob(s);
  expect(job.main.exitCode).toBe(12);
  expect(job.main.outputs).toMatchObject({ status: 'EXIT_BLOCKED', 'stop-reason': 'FORK_PULL_REQUEST', iterations: '0' });
  expect(job.main.summary).toMatch(/comes from forker\/widgets, not octo\/widgets: phuc-loop does not run on fork pull requests/);
  expect(job.main.annotations.find((a) => a.level === 'error')?.message).toMatch(/EXIT_BLOCKED\(FORK_PULL_REQUEST\)/);
  expect(restCalls(gh, job.callsBefore)).toEqual({});
  expect(await branchSha(s.origin, 'pr-31')).toBe(s.origin.headSha);
  expect(gh.commentsOn(REPO, 31)).toEqual([]);
  expect(gh.listArtifacts({ runId: job.run.id })).toEqual([]);
  expect(job.main.stdout).not.toMatch(/plan:|iter 0/);
});

test('a label from an actor without write access is refused after asking the API', async () => {
  const s = await scenario(gh, 32, loopFiles(fixtureAgent('fixer.mjs')));
  const job = await runJob(s, { event: labeled(32, { login: 'mallory', type: 'User' }), runOpts: { actor: 'mallory' } });
  expect(job.main.exitCode).toBe(12);
  expect(job.main.outputs).toMatchObject({ status: 'EXIT_BLOCKED', 'stop-reason': 'ACTOR_NOT_ALLOWED' });
  expect(job.main.summary).toMatch(/mallory has read access; a label starts phuc-loop only for actors with write, maintain or admin access/);
  expect(restCalls(gh, job.callsBefore)).toEqual({ 'repos/get-collaborator-permission-level': 1 });
  expect(await log(s.origin, 'pr-32', { since: s.origin.headSha! })).toEqual([]);
  expect(gh.listArtifacts({ runId: job.run.id })).toEqual([]);
});

test('bots: refused unless allow-listed; an allow-listed bot starts the loop (per-iteration comments)', async () => {
  const s = await scenario(gh, 33, loopFiles(fixtureAgent('fixer.mjs'), { criteria: 1 }));
  const refused = await runJob(s, { event: labeled(33, { login: 'helper-bot[bot]', type: 'Bot' }) });
  expect(refused.main.outputs).toMatchObject({ status: 'EXIT_BLOCKED', 'stop-reason': 'ACTOR_NOT_ALLOWED' });
  expect(refused.main.summary).toMatch(/helper-bot\[bot\] is a bot and not in allowed-bots/);
  expect(restCalls(gh, refused.callsBefore)).toEqual({});

  const ok = await runJob(s, {
    event: labeled(33, { login: 'helper-bot[bot]', type: 'Bot' }),
    inputs: { 'allowed-bots': 'renovate[bot], helper-bot[bot]', comment: 'per-iteration' },
  });
  if (ok.main.exitCode !== 0) throw new Error(debugJob(ok));
  expect(ok.main.outputs).toMatchObject({ status: 'EXIT_CONVERGED', iterations: '1' });
  // One comment for iteration 0, one for the final status (with the artifact link).
  const bodies = gh.commentsOn(REPO, 33).map((c) => c.body);
  expect(bodies).toHaveLength(2);
  expect(bodies[0]).toMatch(/^<!-- phuc-loop:iteration -->\n### phuc-loop · iteration 0 · RUNNING/);
  expect(bodies[1]).toMatch(/^<!-- phuc-loop:final -->\n### phuc-loop · EXIT_CONVERGED \(EXACT\)/);
  expect(bodies[1]).toContain(`/actions/runs/${ok.run.id}/artifacts/${ok.post?.outputs['artifact-id']}`);
}, 60_000);

test("a maintainer's label starts the loop (maintain counts as write)", async () => {
  const s = await scenario(gh, 34, loopFiles(fixtureAgent('fixer.mjs'), { criteria: 1 }));
  const job = await runJob(s, { event: labeled(34, { login: 'maintainer-mo', type: 'User' }), inputs: { comment: 'off', push: 'false' } });
  expect(job.main.outputs).toMatchObject({ status: 'EXIT_CONVERGED', iterations: '1' });
  expect(job.main.stdout).toMatch(/allowed: maintainer-mo has maintain access/);
  // push: false keeps the branch as it was; comment: off writes no comment.
  expect(await branchSha(s.origin, 'pr-34')).toBe(s.origin.headSha);
  expect(gh.commentsOn(REPO, 34)).toEqual([]);
}, 60_000);

test('bad inputs are refused before anything runs, each named with what is allowed', async () => {
  const s = await scenario(gh, 35, loopFiles(fixtureAgent('fixer.mjs')));
  const job = await runJob(s, { inputs: { comment: 'loud', 'poll-seconds': 'fast', agent: 'gpt', 'retention-days': '365' } });
  expect(job.main.exitCode).toBe(13);
  expect(job.main.outputs).toMatchObject({ status: 'EXIT_NEED_INFO', 'stop-reason': 'INVALID_INPUT' });
  const msg = job.main.annotations.find((a) => a.level === 'error')!.message;
  expect(msg).toMatch(/input "comment": got "loud"; must be one of sticky \| per-iteration \| off/);
  expect(msg).toMatch(/input "poll-seconds": got "fast"; must be a number of seconds between 0.5 and 3600/);
  expect(msg).toMatch(/input "agent": got "gpt"; must be empty \(use the config's agent.use\) or one of claude \| codex \| gemini \| aider \| command/);
  expect(msg).toMatch(/input "retention-days": got "365"; must be an integer of days between 1 and 90/);
  expect(restCalls(gh, job.callsBefore)).toEqual({});
  expect(job.post?.stdout).toMatch(/did not get as far as the evidence/);
});
