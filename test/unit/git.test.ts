// The git port with more paths than a command line holds (E2BIG past ARG_MAX): every call that
// takes the agent's paths reads them on stdin or picks them out of git's listing, and gives the
// same answer as for a few paths.
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GitError } from '../../src/engine/common/errors.js';
import { describeArgs, Git } from '../../src/engine/os/git.js';
import { NodeProcessRunner } from '../../src/engine/os/process.js';

/** 11,000 names of ~200 bytes: past 2 MB. */
const LONG = 'q'.repeat(190);
const many = (dir: string, n = 11_000) => Array.from({ length: n }, (_, i) => `${dir}/${LONG}_${i}`);

let repo: string;
let g: Git;
const sh = (...args: string[]) => execFileSync('git', args, { cwd: repo, encoding: 'utf8', maxBuffer: 64 << 20 });

beforeAll(async () => {
  repo = await mkdtemp(join(tmpdir(), 'phuc-git-port-'));
  sh('init', '-q', '-b', 'main');
  sh('config', 'user.email', 't@t');
  sh('config', 'user.name', 't');
  await mkdir(join(repo, 'old'));
  await Promise.all(many('old', 2_000).map((p) => writeFile(join(repo, p), 'head\n')));
  await writeFile(join(repo, '-q'), 'head\n');
  await writeFile(join(repo, '*'), 'star\n');
  sh('add', '-A');
  sh('commit', '-qm', 'init');
  g = new Git(new NodeProcessRunner(), repo);
  await g.openSession();
}, 60_000);

afterAll(() => g.close());

test('staging, looking up and putting back 11,000 long new paths, beside tracked ones', async () => {
  await mkdir(join(repo, 'new'));
  const fresh = many('new');
  await Promise.all(fresh.map((p) => writeFile(join(repo, p), 'x\n')));
  const tracked = [...many('old', 2_000), '-q'];
  await Promise.all(tracked.map((p) => writeFile(join(repo, p), 'changed\n')));
  const all = [...fresh, ...tracked, 'missing/never'];

  expect([...(await g.inHead(all))].sort()).toEqual([...tracked].sort());
  expect((await g.indexed(all)).size).toBe(tracked.length);

  const tree = await g.stage(all);
  expect(tree).toMatch(/^[0-9a-f]{40}$/);
  expect(tree).not.toBe(await g.commitTree(sh('rev-parse', 'HEAD').trim()));
  expect(await g.stagedDiff()).toContain(`+++ b/new/${LONG}_10999`);
  expect((await g.indexed(all)).size).toBe(fresh.length + tracked.length);
  expect(await g.refusedToStage(all)).toEqual([]);

  await g.restoreFromHead(all);
  expect(sh('status', '--porcelain')).toBe('');
  expect(existsSync(join(repo, fresh[0]))).toBe(false);
}, 60_000);

test('a literal name is no pattern on stdin either: "*" restores only the file named so', async () => {
  await writeFile(join(repo, '*'), 'changed\n');
  await writeFile(join(repo, '-q'), 'changed\n');
  await g.restoreFromHead(['*']);
  expect(sh('status', '--porcelain')).toBe(' M -q\n');
  await g.restoreFromIndex(['-q']);
  expect(sh('status', '--porcelain')).toBe('');
});

test('staging as git add -A: deleted, replaced by a folder, a folder replaced by a link; a path beyond the link is refused', async () => {
  await mkdir(join(repo, 'd'));
  await writeFile(join(repo, 'd', 'f'), 'f\n');
  await writeFile(join(repo, 'file'), 'file\n');
  sh('add', '-A');
  sh('commit', '-qm', 'more');
  execFileSync('rm', ['-rf', join(repo, 'd'), join(repo, 'file')]);
  await mkdir(join(repo, 'file'));
  await writeFile(join(repo, 'file', 'in'), 'in\n');
  await symlink('old', join(repo, 'd'));
  await expect(g.stage(['d', 'd/f', 'file', 'file/in'])).rejects.toThrow(GitError);
  expect(await g.refusedToStage(['d', 'd/f', 'file', 'file/in'])).toEqual([{ path: 'd/f', error: "error: 'd/f' is beyond a symbolic link" }]);
  sh('reset', '-q');
  await g.stage(['d', 'file', 'file/in']);
  expect(sh('diff', '--cached', '--name-status', 'HEAD')).toBe('A\td\nD\td/f\nD\tfile\nA\tfile/in\n');
  sh('reset', '-q', '--hard');
  sh('clean', '-qfd');
});

test('index flags cleared and uncommitted work compared for more paths than a command line holds', async () => {
  const tracked = many('old', 2_000);
  sh('update-index', '--skip-worktree', tracked[0], tracked[1]);
  expect((await g.clearIndexFlags()).sort()).toEqual([tracked[0], tracked[1]].sort());
  expect(sh('ls-files', '-v', '--', tracked[0])).toMatch(/^H /);
  await writeFile(join(repo, tracked[5]), 'changed\n');
  const same = await g.sameAs('HEAD', tracked);
  expect(same.size).toBe(tracked.length - 1);
  expect(same.has(tracked[5])).toBe(false);
  sh('checkout', '--', tracked[5]);
});

test("a failing git call's message names a few of its arguments and counts the rest", () => {
  const args = ['ls-files', '--', ...many('x', 1_000)];
  const text = describeArgs(args);
  expect(text.length).toBeLessThan(400);
  expect(text).toMatch(/^ls-files -- x\/q+_0 … \(999 more argument\(s\)\)$/);
  expect(describeArgs(['status', '-z'])).toBe('status -z');
  expect(new GitError(`git failed: ${'y'.repeat(5_000_000)}`).message.length).toBeLessThan(2_100);
});

test("commit with the loop's own file: staged when tracked or new, its deletion too; a tree git finds packed already", async () => {
  const dir = await mkdtemp(join(tmpdir(), 'phuc-git-commit-'));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' });
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 't@t');
  git('config', 'user.name', 't');
  await writeFile(join(dir, 'a.txt'), 'a\n');
  git('add', '-A');
  git('commit', '-qm', 'init');
  const port = new Git(new NodeProcessRunner(), dir);
  await port.openSession();
  try {
    const committed = (c: { commit: string; tree: string }) => {
      expect(git('rev-parse', 'HEAD', 'HEAD^{tree}').trim().split('\n')).toEqual([c.commit, c.tree]);
      return git('show', 'HEAD:AGENTS.md');
    };
    // Untracked at first: added (the commit amended), with what was staged besides.
    await writeFile(join(dir, 'AGENTS.md'), 'one\n');
    await writeFile(join(dir, 'a.txt'), 'b\n');
    git('add', 'a.txt');
    expect(committed(await port.commit('first\n', ['AGENTS.md']))).toBe('one\n');
    expect(git('show', 'HEAD:a.txt')).toBe('b\n');
    expect(git('log', '--format=%s')).toBe('first\ninit\n');
    // Tracked: its new text, and nothing unstaged of the user's.
    await writeFile(join(dir, 'AGENTS.md'), 'two\n');
    await writeFile(join(dir, 'a.txt'), 'user edit\n');
    expect(committed(await port.commit('second\n', ['AGENTS.md']))).toBe('two\n');
    expect(git('show', 'HEAD:a.txt')).toBe('b\n');
    expect(git('status', '--porcelain')).toBe(' M a.txt\n');
    // Removed from the index (as an agent could): the file is added again.
    git('rm', '-q', '--cached', 'AGENTS.md');
    expect(committed(await port.commit('third\n', ['AGENTS.md']))).toBe('two\n');
    // The same tree as an earlier, packed commit: git writes no loose tree; the names come from git.
    await writeFile(join(dir, 'AGENTS.md'), 'one\n');
    git('checkout', '-q', 'HEAD~2', '--', 'a.txt');
    git('gc', '-q');
    git('add', 'a.txt');
    expect(committed(await port.commit('fourth\n', ['AGENTS.md']))).toBe('one\n');
    expect(git('rev-parse', 'HEAD^{tree}')).toBe(git('rev-parse', 'HEAD~3^{tree}'));
    expect(git('log', '--format=%s')).toBe('fourth\nthird\nsecond\nfirst\ninit\n');
  } finally {
    await port.close();
  }
});
