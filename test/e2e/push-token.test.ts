// The loop's pushes use the push-token input when given: GitHub starts no workflow for pushes made
// with github.token, so the pull request's checks would never run on the loop's commits. The origin
// is served over git's smart HTTP (test/harness/git-http.ts), which sees the Authorization header
// of every request and answers 401 to any token but the one it accepts.
import type { GitHubEmulator } from '../harness/github-emulator.js';
import { branchSha } from '../harness/git-origin.js';
import { startGitHttp, type GitHttpServer } from '../harness/git-http.js';
import { debugJob, e2eAgent, fixtureAgent, leftTheRunner, loopFiles, runJob, scenario, TOKEN, useEmulator } from './helpers.js';

const PUSH_TOKEN = 'github_pat_e2ePushToken0123456789abcdefXYZ';
let gh: GitHubEmulator;
const servers: GitHttpServer[] = [];
useEmulator((g) => (gh = g));

afterAll(async () => {
  for (const s of servers) await s.close();
});

async function served(number: number, accept: string) {
  const s = await scenario(gh, number, loopFiles(fixtureAgent('fixer.mjs'), { criteria: 2 }));
  const git = await startGitHttp([s.origin], { accept: [accept] });
  servers.push(git);
  return { s, git, env: { GITHUB_SERVER_URL: git.serverUrl } };
}

const pushes = (git: GitHttpServer) => git.requests.filter((r) => r.service === 'git-receive-pack' && r.method === 'POST');

test('with push-token, every push (and the branch check before it) uses it, never github-token; no warning', async () => {
  const { s, git, env } = await served(60, PUSH_TOKEN);
  const job = await runJob(s, { inputs: { 'push-token': PUSH_TOKEN }, env });
  if (job.main.exitCode !== 0) throw new Error(debugJob(job));
  expect(job.main.outputs['status']).toBe('EXIT_CONVERGED');
  expect(pushes(git).length).toBeGreaterThanOrEqual(2);
  expect(git.requests.every((r) => r.token === PUSH_TOKEN && r.status === 200)).toBe(true);
  const lastPushed = [...job.main.stdout.matchAll(/pushed ([0-9a-f]{12}) to pr-60/g)].at(-1)?.[1];
  expect(lastPushed).toBeDefined();
  expect(await branchSha(s.origin, 'pr-60')).toMatch(new RegExp(`^${lastPushed}`));
  // The outputs: the certified commit is the one pushed last; the fixer reports no cost or tokens.
  expect(job.main.outputs['certified-commit']).toBe(await branchSha(s.origin, 'pr-60'));
  expect(job.main.outputs).toMatchObject({ iterations: '2', 'cost-usd': '', tokens: '' });
  expect(job.main.summary).not.toMatch(/pushed with `github-token`/);
  expect(job.main.annotations.filter((a) => a.level === 'warning').map((a) => a.message)).not.toContainEqual(expect.stringMatching(/push-token/));
  // The push token is masked in the job log and never leaves the runner.
  expect(job.main.masks).toContain(PUSH_TOKEN);
  expect(leftTheRunner(gh, job)).not.toContain(PUSH_TOKEN);
  expect(job.main.stdout.replace(/^::add-mask::.*$/gm, '')).not.toContain(PUSH_TOKEN);
}, 120_000);

test('without push-token the pushes use github-token, and the summary and a warning say the PR checks did not run on them', async () => {
  const { s, git, env } = await served(61, TOKEN);
  const before = await branchSha(s.origin, 'pr-61');
  const job = await runJob(s, { env });
  if (job.main.exitCode !== 0) throw new Error(debugJob(job));
  expect(pushes(git).length).toBeGreaterThanOrEqual(2);
  expect(git.requests.every((r) => r.token === TOKEN)).toBe(true);
  expect(await branchSha(s.origin, 'pr-61')).not.toBe(before);
  expect(job.main.summary).toMatch(/\*\*Warning:\*\* The iteration commits were pushed with `github-token`.*GitHub starts no workflow.*`push-token`/);
  expect(job.main.annotations).toContainEqual(expect.objectContaining({ level: 'warning', message: expect.stringMatching(/GitHub starts no workflow/) }));
}, 120_000);

test('outputs cost-usd and tokens: what the agent reported, summed', async () => {
  const s = await scenario(gh, 62, loopFiles(e2eAgent('paid-fixer.mjs'), { criteria: 2 }));
  const job = await runJob(s);
  if (job.main.exitCode !== 0) throw new Error(debugJob(job));
  // Two agent iterations at 0.25 USD and 1250 tokens each.
  expect(job.main.outputs).toMatchObject({ status: 'EXIT_CONVERGED', 'cost-usd': '0.5', tokens: '2500' });
  expect(job.main.outputs['certified-commit']).toMatch(/^[0-9a-f]{40}$/);
}, 120_000);
