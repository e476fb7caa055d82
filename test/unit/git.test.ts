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
}, 300_000);

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
  // A bound for a hang, not a speed target: 11,000 files written and staged took over 60 s at load 15.
}, 300_000);

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

/** A new repository with one commit holding `name`; `git` runs git in it. */
async function committedRepo(prefix: string, name: string): Promise<{ dir: string; git: (...args: string[]) => string }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' });
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 't@t');
  git('config', 'user.name', 't');
  await writeFile(join(dir, name), name === 'AGENTS.md' ? 'one\n' : 'a\n');
  git('add', '-A');
  git('commit', '-qm', 'init');
  return { dir, git };
}

test("commit with the loop's own file: added when new, staged by the commit when tracked, added when the index lost it; never a commit without it", async () => {
  const { dir, git } = await committedRepo('phuc-git-commit-', 'a.txt');
  const port = new Git(new NodeProcessRunner(), dir);
  await port.openSession();
  try {
    const committed = (c: { commit: string; tree: string }) => {
      expect(git('rev-parse', 'HEAD', 'HEAD^{tree}').trim().split('\n')).toEqual([c.commit, c.tree]);
      return git('show', 'HEAD:AGENTS.md');
    };
    // New: added, with what was staged besides.
    await writeFile(join(dir, 'AGENTS.md'), 'one\n');
    await writeFile(join(dir, 'a.txt'), 'b\n');
    git('add', 'a.txt');
    expect(committed(await port.commit('first\n', ['AGENTS.md']))).toBe('one\n');
    expect(git('show', 'HEAD:a.txt')).toBe('b\n');
    expect(git('log', '--format=%s')).toBe('first\ninit\n');
    // Tracked: its new text through --include, and nothing unstaged of the user's.
    await writeFile(join(dir, 'AGENTS.md'), 'two\n');
    await writeFile(join(dir, 'a.txt'), 'user edit\n');
    expect(committed(await port.commit('second\n', ['AGENTS.md'], true))).toBe('two\n');
    expect(git('show', 'HEAD:a.txt')).toBe('b\n');
    expect(git('status', '--porcelain')).toBe(' M a.txt\n');
    // Said to be tracked but taken out of the index: added all the same, in one commit.
    git('rm', '-q', '--cached', 'AGENTS.md');
    await writeFile(join(dir, 'AGENTS.md'), 'three\n');
    expect(committed(await port.commit('third\n', ['AGENTS.md'], true))).toBe('three\n');
    expect(git('log', '--format=%s')).toBe('third\nsecond\nfirst\ninit\n');
    // The same tree as an earlier, packed commit: git writes no loose tree; the names come from git.
    await writeFile(join(dir, 'AGENTS.md'), 'one\n');
    git('checkout', '-q', 'HEAD~2', '--', 'a.txt');
    git('gc', '-q');
    git('add', 'a.txt');
    expect(committed(await port.commit('fourth\n', ['AGENTS.md'], true))).toBe('one\n');
    expect(git('rev-parse', 'HEAD^{tree}')).toBe(git('rev-parse', 'HEAD~3^{tree}'));
    expect(await port.topLevelNames(git('rev-parse', 'HEAD^{tree}').trim())).toEqual(new Set(['AGENTS.md', 'a.txt']));
    // Ignored and untracked: git refuses to add it, and nothing is committed.
    git('rm', '-q', '--cached', 'AGENTS.md');
    await writeFile(join(dir, '.git', 'info', 'exclude'), 'AGENTS.md\n');
    const head = git('rev-parse', 'HEAD');
    await expect(port.commit('fifth\n', ['AGENTS.md'], true)).rejects.toThrow(GitError);
    expect(git('rev-parse', 'HEAD')).toBe(head);
  } finally {
    await port.close();
  }
});

test('commit on git 2.45 and later, which refuses --include of a name the index lost: added, one commit', async () => {
  const { dir, git } = await committedRepo('phuc-git-245-', 'AGENTS.md');
  // A git that behaves as 2.45 does: `commit --include -- <name>` of a name not in the index exits 128.
  const bin = join(dir, '.git', 'fake-bin');
  await mkdir(bin);
  const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  await writeFile(
    join(bin, 'git'),
    `#!/bin/sh\ncase " $* " in *" commit "*"--include -- "*) n=$(eval echo \\$$#); ${real} ls-files --error-unmatch -- "$n" >/dev/null 2>&1 || { echo "error: pathspec '$n' did not match any file(s) known to git" >&2; exit 128; } ;; esac\nexec ${real} "$@"\n`,
    { mode: 0o755 },
  );
  const port = new Git(new NodeProcessRunner(), dir, { ...process.env, PATH: `${bin}:${process.env.PATH}` });
  await port.openSession();
  try {
    git('rm', '-q', '--cached', 'AGENTS.md');
    await writeFile(join(dir, 'AGENTS.md'), 'two\n');
    const c = await port.commit('second\n', ['AGENTS.md'], true);
    expect(git('rev-parse', 'HEAD').trim()).toBe(c.commit);
    expect(git('show', 'HEAD:AGENTS.md')).toBe('two\n');
    expect(git('log', '--format=%s')).toBe('second\ninit\n');
  } finally {
    await port.close();
  }
});

test('a git shell killed mid-command fails that call with a GitError (helper_ended); the next call gets a new shell', async () => {
  const own = new Git(new NodeProcessRunner(), repo);
  await own.openSession();
  try {
    // The credential helper kills its whole process group: the session's shell, git and itself.
    const killed = own.run(['-c', 'credential.helper=!kill -KILL 0', 'credential', 'fill'], { stdin: 'protocol=https\nhost=example.com\n\n' });
    await expect(killed).rejects.toThrow(GitError);
    await expect(killed).rejects.toMatchObject({ kind: 'helper_ended', code: 'GIT_FAILURE' });
    expect(await own.head()).toMatch(/^[0-9a-f]{40}$/);
    expect((await own.run(['rev-parse', 'HEAD'])).trim()).toBe(await own.head());
  } finally {
    await own.close();
  }
});
