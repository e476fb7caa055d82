// An agent that makes more new files than a command line can name (E2BIG at the kernel's ARG_MAX,
// 2 MB here): the loop hands paths to git on its standard input, so the iteration ends as any
// other, in modest time, and no log line or report carries the megabytes of names.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { cli, config, FIXTURES, git, makeRepo, NORTHSTAR, readJson } from '../helpers/repo.js';

/** 12,000 names of ~210 bytes: 2.5 MB of paths, past ARG_MAX (2 MB). */
const COUNT = 12_000;

/** The files HEAD changed (more than the helper's output buffer holds). */
const committedFiles = async (repo: string) =>
  (await promisify(execFile)('git', ['show', '--name-only', '--format=', 'HEAD'], { cwd: repo, maxBuffer: 64 << 20 })).stdout.split('\n').filter(Boolean);

const repoWith = (folder: string) =>
  makeRepo({
    'phuc-loop.yml': config({
      criteria: [{ id: 'fixed', run: 'grep -qx fixed src/status.txt' }],
      agent: `sh ${JSON.stringify(join(FIXTURES, 'hostile', 'many-paths.sh'))} ${COUNT} ${folder}`,
    }),
    'NORTHSTAR.md': NORTHSTAR,
    'src/status.txt': 'broken\n',
  });

test('more new files than a command line holds: committed and judged, the run ends normally, logs stay short', async () => {
  const repo = await repoWith('many');
  const r = await cli(repo, ['run']);
  expect(/GIT_FAILURE|Argument list too long/.test(r.stdout + r.stderr)).toBe(false);
  expect(r.code).toBe(0);
  expect(r.stdout.length + r.stderr.length).toBeLessThan(20_000);
  const committed = await committedFiles(repo);
  expect(committed.filter((p) => p.startsWith('many/'))).toHaveLength(COUNT);
  expect(committed).toEqual(expect.arrayContaining(['src/status.txt', '--output=x', '-q']));
  expect(await git(repo, 'status', '--porcelain')).toBe('');
});

test('as many new files under a protected folder: all reverted, the guardrail line counts them instead of listing them', async () => {
  const repo = await repoWith('test/many');
  const r = await cli(repo, ['run']);
  expect(/GIT_FAILURE|Argument list too long/.test(r.stdout + r.stderr)).toBe(false);
  expect(r.code).toBe(12);
  expect(r.stdout.length + r.stderr.length).toBeLessThan(20_000);
  expect(r.stdout).toMatch(/protected paths changed and reverted: test\/many\/p{200}_\d+, /);
  // The files, and the folder the revert left of them (an agent-made entry git does not see, set aside).
  expect(r.stdout).toContain(` and ${COUNT + 1 - 20} more`);
  const rep = await readJson<Record<string, any>>(join(repo, 'evidence/loop/halting_report.json'));
  expect(rep).toMatchObject({ stop_reason: 'GUARDRAIL_VIOLATION' });
  expect(JSON.stringify(rep).length).toBeLessThan(100_000);
  expect(existsSync(join(repo, 'test/many')) ? await readdir(join(repo, 'test/many')) : []).toEqual([]);
  expect(await committedFiles(repo)).not.toContainEqual(expect.stringMatching(/^test\/many/));
  expect((await readFile(join(repo, 'AGENTS.md'), 'utf8')).match(/p{200}_\d+/g)?.length ?? 0).toBeLessThan(100);
});
