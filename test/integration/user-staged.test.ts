// The user's staged changes are the user's (SPEC §7), as their unstaged ones are: each step's commit
// is the index after the agent's changes are staged, so what the user had staged before the run
// (an edit, a new file, a deletion, an edit staged and edited again) must not be committed as the
// agent's. They are unstaged before the step, stay in the work tree as uncommitted changes, and the
// index as it was is kept under refs/phuc-loop/user-staged, from which each is staged again.
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { cli, config, git, makeRepo, NORTHSTAR, readJson } from '../helpers/repo.js';

test("the user's staged edit, new file and deletion are neither committed as the agent's nor lost: unstaged, kept in refs/phuc-loop/user-staged", async () => {
  const repo = await makeRepo({
    'phuc-loop.yml': config({
      criteria: [{ id: 'fixed', run: 'grep -qx fixed src/status.txt' }],
      agent: "sh -c 'echo fixed > src/status.txt'",
      mayChange: ['src/**'],
    }),
    'NORTHSTAR.md': NORTHSTAR,
    'src/status.txt': 'broken\n',
    'src/user.txt': 'one\n',
    'src/gone.txt': 'to be deleted\n',
  });
  await writeFile(join(repo, 'src/user.txt'), 'one\nstaged\n');
  await writeFile(join(repo, 'src/new.txt'), 'new\n');
  await git(repo, 'add', 'src/user.txt', 'src/new.txt');
  await git(repo, 'rm', '-q', 'src/gone.txt');
  await writeFile(join(repo, 'src/user.txt'), 'one\nstaged\nand not staged\n');

  const r = await cli(repo, ['run']);
  expect(r.stdout + r.stderr).not.toMatch(/crashed/);
  // The agent's iteration holds its own change (and the loop's AGENTS.md), none of the user's.
  expect((await git(repo, 'show', '--name-only', '--format=', 'HEAD')).split('\n').filter(Boolean).sort()).toEqual(['AGENTS.md', 'src/status.txt']);
  expect(r.stdout).toMatch(/staged changes \(src\/gone\.txt, src\/new\.txt, src\/user\.txt\) unstaged, .*refs\/phuc-loop\/user-staged/);
  expect(r.code).toBe(0);
  const artifacts = await readJson<{ changed_paths: string[] }>(join(repo, 'evidence/loop/iter_0/artifacts.json'));
  expect(artifacts.changed_paths).toEqual(['src/status.txt']);
  // Nothing lost: the work tree as the user left it, the staged versions in the ref.
  expect(await readFile(join(repo, 'src/user.txt'), 'utf8')).toBe('one\nstaged\nand not staged\n');
  expect(await readFile(join(repo, 'src/new.txt'), 'utf8')).toBe('new\n');
  expect(existsSync(join(repo, 'src/gone.txt'))).toBe(false);
  expect(await git(repo, 'show', 'refs/phuc-loop/user-staged:src/user.txt')).toBe('one\nstaged\n');
  expect(await git(repo, 'ls-tree', '--name-only', 'refs/phuc-loop/user-staged', 'src/')).not.toMatch(/gone/);
  // The next step the log names stages them again as they were.
  const commit = /git restore --staged --source=([0-9a-f]{12})/.exec(r.stdout)![1];
  await git(repo, 'restore', '--staged', `--source=${commit}`, '--', 'src/user.txt', 'src/new.txt', 'src/gone.txt');
  expect(await git(repo, 'show', ':src/user.txt')).toBe('one\nstaged\n');
  expect((await git(repo, 'status', '--porcelain', '--', 'src')).split('\n').filter(Boolean).sort()).toEqual([
    'A  src/new.txt',
    'D  src/gone.txt',
    'MM src/user.txt',
  ]);
  expect((await cli(repo, ['verify'])).code).toBe(0);
});
