// A STOP is a pause at any moment (SPEC §7): each stop source at each moment ends with a halting
// report and evidence that verifies, and the next run continues and converges. Real CLI, real repos.
import { existsSync } from 'node:fs';
import { readFile, rm, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { agent, cli, config, git, makeRepo, NORTHSTAR, readJson, startCli, twoBugRepo, until } from '../helpers/repo.js';

const report = (repo: string) => readJson<Record<string, any>>(join(repo, 'evidence/loop/halting_report.json'));
const loopCommits = async (repo: string) => (await git(repo, 'log', '--format=%s')).split('\n').filter((l) => l.startsWith('phuc-loop: iteration')).length;

async function convergesNext(repo: string): Promise<void> {
  const r = await cli(repo, ['run']);
  expect(r.stdout + r.stderr).toMatch(/halt: EXIT_CONVERGED/);
  expect(r.code).toBe(0);
  expect((await cli(repo, ['verify'])).code).toBe(0);
}

test('a STOP file before the run: paused at once, nothing committed; removed, the next run converges', async () => {
  const repo = await twoBugRepo('moody.mjs');
  await mkdir(join(repo, 'scratch'), { recursive: true });
  await writeFile(join(repo, 'scratch/STOP'), '');
  const r = await cli(repo, ['run']);
  expect(r.code).toBe(12);
  expect(await report(repo)).toMatchObject({ status: 'EXIT_BLOCKED', stop_reason: 'BACKPRESSURE_SIGNAL' });
  expect(await loopCommits(repo)).toBe(0);
  expect((await cli(repo, ['verify'])).code).toBe(0);
  await rm(join(repo, 'scratch/STOP'));
  await convergesNext(repo);
});

test('SIGTERM to an agent that changed nothing: the attempt is not counted and nothing is committed; the next run converges', async () => {
  const repo = await twoBugRepo('moody.mjs');
  const run = startCli(repo, ['run'], { PHUC_TEST_AGENT_MODE: 'wait' });
  await waitForFile(repo, '.phuc-loop'); // the report folder, made just before the agent starts
  run.child.kill('SIGTERM');
  const r = await run.done;
  expect(r.code).toBe(12);
  expect(await report(repo)).toMatchObject({ status: 'EXIT_BLOCKED', stop_reason: 'BACKPRESSURE_SIGNAL', iterations_completed: 0 });
  expect(await loopCommits(repo)).toBe(0);
  expect(await git(repo, 'status', '--porcelain', '--untracked-files=no')).toBe('');
  await convergesNext(repo);
  expect(await loopCommits(repo)).toBe(2);
});

test('a pause after a partial change commits it as partial work; the next run judges HEAD first and goes on', async () => {
  const repo = await twoBugRepo('moody.mjs');
  const run = startCli(repo, ['run'], { PHUC_TEST_AGENT_MODE: 'partial' });
  await waitForLine(repo, 'src/status.txt', 'fixed-1');
  run.child.kill('SIGTERM');
  const r = await run.done;
  expect(r.code).toBe(12);
  expect(await report(repo)).toMatchObject({ stop_reason: 'BACKPRESSURE_SIGNAL', halting_certificate: { type: 'BACKPRESSURE' } });
  expect(await git(repo, 'show', 'HEAD:src/status.txt')).toContain('fixed-1');
  const next = await cli(repo, ['run']);
  expect(next.stdout).toMatch(/HEAD judged: 1\/2 criteria met/);
  expect(next.code).toBe(0);
});

test('a pause after the change that fixes the last bug: the next run converges on HEAD without an agent step, and verify (and --rerun) passes that certificate', async () => {
  const repo = await makeRepo({
    'phuc-loop.yml': config({ criteria: [{ id: 'one', run: 'grep -q fixed-1 src/status.txt' }], agent: agent('moody.mjs') }),
    'NORTHSTAR.md': NORTHSTAR,
    'src/status.txt': 'start\n',
  });
  const run = startCli(repo, ['run'], { PHUC_TEST_AGENT_MODE: 'partial' });
  await waitForLine(repo, 'src/status.txt', 'fixed-1');
  run.child.kill('SIGTERM');
  expect((await run.done).code).toBe(12);
  const next = await cli(repo, ['run']);
  expect(next.stdout).toMatch(/HEAD already meets the criteria: certificate EXACT without an agent step/);
  expect(next.code).toBe(0);
  for (const args of [['verify'], ['verify', '--rerun']]) {
    const verify = await cli(repo, args);
    expect({ args, code: verify.code, out: verify.stdout + verify.stderr }).toEqual({ args, code: 0, out: expect.not.stringContaining('FAIL') });
  }
});

/** Resolves once `rel` exists in the repo (a file or a folder). */
const waitForFile = (repo: string, rel: string) => until(() => existsSync(join(repo, rel)), 30_000, `${rel} to exist`);
const waitForLine = (repo: string, rel: string, text: string) =>
  until(async () => (await readFile(join(repo, rel), 'utf8').catch(() => '')).includes(text), 30_000, `${rel} to hold ${text}`);
