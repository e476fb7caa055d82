// The clean check workspace on real git repositories with real processes: it holds exactly the
// judged tree (byte for byte what `git archive` gives), puts back what a check changed, keeps only
// untouched setup outputs, and gives the checks nothing of the loop's environment.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmod,
  lstat,
  mkdir,
  mkdtemp,
  open as openFile,
  readdir,
  readFile,
  readlink,
  rm,
  stat,
  symlink,
  unlink,
  writeFile,
  appendFile,
  rename,
} from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { CheckWorkspace, type CheckWorkspaceOptions } from '../../src/engine/judge/workspace.js';
import { NodeProcessRunner } from '../../src/engine/os/process.js';
import { CA_BUNDLE_VARS } from '../../src/engine/os/secrets.js';
import { agent, cli, config, git, makeRepo, NORTHSTAR, readJson, until } from '../helpers/repo.js';

const sh = promisify(execFile);
const runner = new NodeProcessRunner();

/** Every entry under `dir`: type, exec bit, content hash or link target. */
async function snapshot(dir: string, skip: string[] = []): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (rel: string) => {
    for (const name of (await readdir(join(dir, rel))).sort()) {
      const p = rel ? `${rel}/${name}` : name;
      if (skip.includes(p)) continue;
      const st = await lstat(join(dir, p));
      if (st.isSymbolicLink()) out[p] = `link ${await readlink(join(dir, p))}`;
      else if (st.isDirectory()) {
        out[p] = 'dir';
        await walk(p);
      } else
        out[p] = `file ${st.mode & 0o111 ? 'x' : '-'} ${createHash('sha256')
          .update(await readFile(join(dir, p)))
          .digest('hex')}`;
    }
  };
  await walk('');
  return out;
}

async function archive(repo: string, commit: string): Promise<Record<string, string>> {
  const dir = await mkdtemp(join(dirname(repo), 'archive-'));
  await sh('sh', ['-c', `git archive --format=tar ${commit} | tar -x -C '${dir}'`], { cwd: repo });
  const snap = await snapshot(dir);
  await rm(dir, { recursive: true, force: true });
  return snap;
}

async function commitAll(repo: string, message: string): Promise<string> {
  await git(repo, 'add', '-A');
  await git(repo, 'commit', '-q', '--allow-empty', '-m', message);
  return (await git(repo, 'rev-parse', 'HEAD')).trim();
}

async function open(repo: string, extra: Partial<CheckWorkspaceOptions> = {}) {
  const root = join(dirname(repo), `checks-${Math.random().toString(36).slice(2)}`);
  return CheckWorkspace.open({ root, repo, runner, ...extra });
}

/** Waits (with a deadline) until the wall clock is in the next second: git keeps whole-second times. */
async function nextSecond(): Promise<void> {
  const s = Math.floor(Date.now() / 1000);
  const deadline = Date.now() + 2000;
  while (Math.floor(Date.now() / 1000) === s && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
}

/** What a check run as another user could do: rewrite a tracked file in place, same size, then put its mtime back. */
async function tamper(file: string, text: string): Promise<void> {
  const before = await stat(file, { bigint: true });
  await sh('sh', [
    '-c',
    `cp -p "$1" "$1.ref" && printf '%s' "$2" | dd of="$1" conv=notrunc status=none && touch -r "$1.ref" "$1" && rm "$1.ref"`,
    'sh',
    file,
    text,
  ]);
  const after = await stat(file, { bigint: true });
  expect([after.mtimeNs, after.size, after.ino]).toEqual([before.mtimeNs, before.size, before.ino]);
}

// Each round's leftovers are removed either by the next update itself or by tidy(), which the loop
// asks for once a round's commands are done (in the background, while it goes on): the same result.
const modes = [
  ['updated directly', (ws: CheckWorkspace, commit: string) => ws.update(commit)],
  [
    'tidied after the round',
    (ws: CheckWorkspace, commit: string) => {
      ws.tidy();
      return ws.update(commit);
    },
  ],
] as const;

describe.each(modes)('CheckWorkspace.update (%s)', (_, update) => {
  test('holds exactly each commit of a history with deletions, renames, mode changes and symlinks (same as git archive)', async () => {
    const repo = await makeRepo({
      'a.txt': 'alpha\n',
      'dir/b.txt': 'beta\n',
      'script.sh': '#!/bin/sh\necho hi\n',
      'deep/x/y/z.txt': 'zed\n',
      'sp ace.txt': 'space\n',
      'ü-name.txt': 'unicode\n',
      f: 'a file that becomes a folder\n',
      '.gitattributes': '*.crlf text eol=crlf\n',
      'n.crlf': 'line one\nline two\n',
    });
    await symlink('a.txt', join(repo, 'link'));
    await symlink('deep/x', join(repo, 'dirlink'));
    const c1 = await commitAll(repo, 'symlinks');
    await unlink(join(repo, 'dir/b.txt'));
    await rename(join(repo, 'a.txt'), join(repo, 'renamed.txt'));
    await unlink(join(repo, 'link'));
    await symlink('renamed.txt', join(repo, 'link'));
    await chmod(join(repo, 'script.sh'), 0o755);
    await unlink(join(repo, 'f'));
    await mkdir(join(repo, 'f'));
    await writeFile(join(repo, 'f/inner.txt'), 'now a folder\n');
    const c2 = await commitAll(repo, 'delete, rename, chmod, file to folder');
    await rm(join(repo, 'deep'), { recursive: true });
    await writeFile(join(repo, 'deep'), 'a folder that became a file\n');
    await unlink(join(repo, 'dirlink'));
    await writeFile(join(repo, 'dirlink'), 'a link that became a file\n');
    await chmod(join(repo, 'script.sh'), 0o644);
    const c3 = await commitAll(repo, 'folder to file, link to file, exec bit off');
    const tree2 = (await git(repo, 'rev-parse', `${c2}^{tree}`)).trim();

    const ws = await open(repo);
    try {
      for (const [id, commit] of [c1, c2, c3, c1, tree2, c3].entries()) {
        await update(ws, commit);
        expect({ step: id, files: await snapshot(ws.dir) }).toEqual({ step: id, files: await archive(repo, commit) });
      }
    } finally {
      await ws.close();
    }
  });

  test('removes untracked and ignored files, planted .git folders and the old HOME; keeps untouched setup outputs', async () => {
    const repo = await makeRepo({ '.gitignore': 'build/\n.env\n', 'src/app.js': 'ok\n', 'package-lock.json': '{}\n' });
    const head = (await git(repo, 'rev-parse', 'HEAD')).trim();
    const ws = await open(repo);
    try {
      await update(ws, head);
      expect(await ws.setup({ command: 'mkdir -p node_modules/dep && echo dep > node_modules/dep/index.js', timeoutMs: 30_000 })).toMatchObject({
        state: 'ran',
        cached: true,
      });
      const depIno = (await stat(join(ws.dir, 'node_modules/dep/index.js'))).ino;
      await writeFile(join(ws.dir, 'junk.txt'), 'left by a check\n');
      await writeFile(join(ws.dir, '.npmrc'), 'script-shell=/bin/true\n');
      await writeFile(join(ws.dir, '.env'), 'ignored\n');
      await mkdir(join(ws.dir, 'build'));
      await writeFile(join(ws.dir, 'build/out.js'), 'ignored\n');
      for (const g of ['.git', 'src/.git', 'newdir/.git']) {
        await mkdir(join(ws.dir, g), { recursive: true });
        await writeFile(join(ws.dir, g, 'config'), '[core]\n\tfsmonitor = touch pwned\n');
      }
      await chmod(join(ws.dir, 'src'), 0o700);
      await writeFile(join(ws.home, '.npmrc'), 'script-shell=/bin/true\n');
      await writeFile(join(ws.home, 'tmp', 'jest-cache'), 'poisoned\n');

      expect((await update(ws, head)).outputs).toBe('kept');
      expect(await snapshot(ws.dir, ['node_modules'])).toEqual(await archive(repo, head));
      expect((await stat(join(ws.dir, 'node_modules/dep/index.js'))).ino).toBe(depIno);
      expect((await stat(join(ws.dir, 'src'))).mode & 0o777).toBe(0o755);
      expect(await readdir(ws.home)).toEqual(expect.arrayContaining(['tmp', '.config']));
      expect(await readdir(ws.home)).toHaveLength(2);
      expect(await readdir(join(ws.home, 'tmp'))).toEqual([]);
    } finally {
      await ws.close();
    }
  });

  test('without setup outputs, each kind of touch made at once after the update is undone; an untouched round changes nothing', async () => {
    const repo = await makeRepo({ 'src/app.js': 'ok\n', 'src/lib/util.js': 'util\n', 'top.txt': 'top\n' });
    const head = (await git(repo, 'rev-parse', 'HEAD')).trim();
    const want = await archive(repo, head);
    // Each touches ws/ the moment update() returns, perhaps within the clock tick of git's last write there.
    const touches: [string, (dir: string) => Promise<unknown>][] = [
      ['nothing', () => Promise.resolve()],
      ['a file at the top', (d) => writeFile(join(d, 'junk.txt'), 'x')],
      ['a file in a sub-folder', (d) => writeFile(join(d, 'src/lib/conftest.py'), 'x')],
      ['a folder', (d) => mkdir(join(d, 'src/__pycache__'))],
      ['a planted .git', (d) => mkdir(join(d, 'src/.git'))],
      ['a tracked file removed', (d) => unlink(join(d, 'top.txt'))],
      ['a tracked file swapped for a link', (d) => unlink(join(d, 'src/app.js')).then(() => symlink('/etc/hostname', join(d, 'src/app.js')))],
      ['a tracked file swapped for a folder', (d) => unlink(join(d, 'top.txt')).then(() => mkdir(join(d, 'top.txt')))],
      ['a folder opened to all', (d) => chmod(join(d, 'src/lib'), 0o777)],
      ['a file renamed', (d) => rename(join(d, 'src/lib/util.js'), join(d, 'src/lib/util2.js'))],
    ];
    const ws = await open(repo);
    try {
      for (const [what, touch] of touches) {
        await update(ws, head);
        await touch(ws.dir);
        await update(ws, head);
        expect({ what, files: await snapshot(ws.dir) }).toEqual({ what, files: want });
        expect({ what, mode: (await stat(join(ws.dir, 'src/lib'))).mode & 0o777 }).toEqual({ what, mode: 0o755 });
      }
    } finally {
      await ws.close();
    }
  });

  test('HOME starts empty after a round that touched it (an entry, a mode, a folder swapped), and is kept as it is when untouched', async () => {
    const repo = await makeRepo({ 'src/app.js': 'ok\n' });
    const head = (await git(repo, 'rev-parse', 'HEAD')).trim();
    const ws = await open(repo);
    const ino = async () => (await stat(ws.home)).ino;
    const fresh = async () => {
      expect((await readdir(ws.home)).sort()).toEqual(['.config', 'tmp']);
      expect(await readdir(join(ws.home, 'tmp'))).toEqual([]);
      expect(await readdir(join(ws.home, '.config'))).toEqual([]);
      for (const d of [ws.home, join(ws.home, 'tmp'), join(ws.home, '.config')]) expect((await lstat(d)).mode & 0o777).toBe(0o755);
    };
    try {
      await update(ws, head);
      const untouched = await ino();
      // Held open across the update: a HOME removed and made anew would leave it with no link.
      const held = await openFile(ws.home, 'r');
      try {
        await update(ws, head);
        expect((await held.stat()).nlink).toBeGreaterThan(0);
      } finally {
        await held.close();
      }
      expect(await ino()).toBe(untouched);
      await fresh();
      const touches: [string, () => Promise<unknown>][] = [
        ['a file in tmp, removed again', () => writeFile(join(ws.home, 'tmp', 'x'), 'x').then(() => unlink(join(ws.home, 'tmp', 'x')))],
        ['a file in .config', () => writeFile(join(ws.home, '.config', 'npmrc'), 'x')],
        ['a dot file in HOME', () => writeFile(join(ws.home, '.npmrc'), 'x')],
        ['HOME opened to all', () => chmod(ws.home, 0o777)],
        ['tmp swapped for a link', () => rm(join(ws.home, 'tmp'), { recursive: true }).then(() => symlink('/tmp', join(ws.home, 'tmp')))],
        ['tmp swapped for a new folder', () => rm(join(ws.home, 'tmp'), { recursive: true }).then(() => mkdir(join(ws.home, 'tmp')))],
      ];
      for (const [what, touch] of touches) {
        await touch();
        await update(ws, head);
        await fresh().catch((e: unknown) => {
          throw new Error(`after ${what}: ${String(e)}`);
        });
      }
    } finally {
      await ws.close();
    }
  });

  test('puts back a tracked file a check rewrote in place with its mtime restored, in the same second or a later one', async () => {
    const repo = await makeRepo({ 'test/check.sh': 'exit 1\n', 'src/x.txt': 'x\n' });
    const head = (await git(repo, 'rev-parse', 'HEAD')).trim();
    const ws = await open(repo);
    try {
      await update(ws, head);
      const file = join(ws.dir, 'test/check.sh');
      await tamper(file, 'exit 0\n'); // the same second as the update, most likely
      await update(ws, head);
      expect(await readFile(file, 'utf8')).toBe('exit 1\n');
      await nextSecond();
      await update(ws, head);
      await nextSecond();
      await tamper(file, 'exit 0\n');
      await update(ws, head);
      expect(await readFile(file, 'utf8')).toBe('exit 1\n');
      // An executable bit set by a check is taken back too.
      await chmod(file, 0o755);
      await update(ws, head);
      expect((await stat(file)).mode & 0o111).toBe(0);
    } finally {
      await ws.close();
    }
  });

  test('after a hand-over to another owner, unchanged files are not rewritten and a tampered one still is', async () => {
    const repo = await makeRepo({ 'a.txt': 'a\n', 'b.txt': 'b\n', 'sub/c.txt': 'c\n' });
    const head = (await git(repo, 'rev-parse', 'HEAD')).trim();
    // The hand-over the loop's sandbox is asked for: give the check user what it does not own yet.
    const given: string[][] = [];
    const handOver = async (dir: string) => {
      const list = (await sh('find', [dir, '!', '-user', '65534', '-print0'], { encoding: 'utf8' })).stdout.split('\0').filter(Boolean);
      if (list.length) await sh('chown', ['-h', '65534:65534', ...list]);
      given.push([dir, ...list]);
    };
    const ws = await open(repo, { handOver });
    try {
      await update(ws, head);
      expect(given.map((g) => g[0])).toEqual([ws.dir, ws.home]);
      expect(given[0].length).toBeGreaterThan(4);
      await tamper(join(ws.dir, 'b.txt'), 'B\n');
      given.length = 0;
      await update(ws, head);
      // Only the file git had to write again changed hands.
      expect(given[0]).toEqual([ws.dir, join(ws.dir, 'b.txt')]);
      expect(await readFile(join(ws.dir, 'b.txt'), 'utf8')).toBe('b\n');
      given.length = 0;
      await update(ws, head);
      expect(given[0]).toEqual([ws.dir]);
    } finally {
      await ws.close();
    }
  });

  test('refuses anything but an object id', async () => {
    const repo = await makeRepo({ 'a.txt': 'a\n' });
    const ws = await open(repo);
    try {
      await expect(ws.update('HEAD')).rejects.toThrow(/commit or tree id/);
      await expect(ws.update('--help')).rejects.toThrow(/commit or tree id/);
    } finally {
      await ws.close();
    }
  });
});

describe.each(modes)('CheckWorkspace.setup (%s)', (_, update) => {
  test('runs once while its inputs are unchanged, again after a lockfile change or a changed output; caches are not kept', async () => {
    const repo = await makeRepo({ 'package-lock.json': '{"v":1}\n', 'README.md': 'one\n' });
    const count = join(dirname(repo), 'setup-count');
    const command = `echo run >> '${count}' && mkdir -p node_modules/dep && cp package-lock.json node_modules/dep/lock.json`;
    const runs = async () => (await readFile(count, 'utf8').catch(() => '')).split('\n').filter(Boolean).length;
    const c1 = (await git(repo, 'rev-parse', 'HEAD')).trim();
    await writeFile(join(repo, 'README.md'), 'two\n');
    const c2 = await commitAll(repo, 'readme only');
    await writeFile(join(repo, 'package-lock.json'), '{"v":2}\n');
    const c3 = await commitAll(repo, 'lockfile');
    const ws = await open(repo);
    const setup = () => ws.setup({ command, timeoutMs: 30_000 });
    try {
      await update(ws, c1);
      expect(await setup()).toMatchObject({ state: 'ran', cached: true });
      await update(ws, c1);
      expect(await setup()).toMatchObject({ state: 'reused' });
      // Tools' caches inside the dependencies are removed, without counting as a change.
      await mkdir(join(ws.dir, 'node_modules/.cache/babel'), { recursive: true });
      await writeFile(join(ws.dir, 'node_modules/.cache/babel/x.json'), 'poisoned\n');
      await mkdir(join(ws.dir, 'node_modules/.vite'));
      expect((await update(ws, c2)).outputs).toBe('kept');
      expect(await readdir(join(ws.dir, 'node_modules'))).toEqual(['dep']);
      expect(await setup()).toMatchObject({ state: 'reused' });
      expect(await runs()).toBe(1);

      await update(ws, c3);
      expect(await setup()).toMatchObject({ state: 'ran' });
      expect(await runs()).toBe(2);
      expect(await readFile(join(ws.dir, 'node_modules/dep/lock.json'), 'utf8')).toBe('{"v":2}\n');

      // A check that edits an installed dependency (mtime put back) loses the outputs: setup runs again.
      await tamper(join(ws.dir, 'node_modules/dep/lock.json'), '{"v":9}\n');
      expect((await update(ws, c3)).outputs).toBe('dropped');
      await expect(stat(join(ws.dir, 'node_modules'))).rejects.toThrow();
      expect(await setup()).toMatchObject({ state: 'ran' });
      expect(await runs()).toBe(3);
      // So does a file added among them.
      await writeFile(join(ws.dir, 'node_modules/dep/extra.js'), 'planted\n');
      expect((await update(ws, c3)).outputs).toBe('dropped');
      expect(await setup()).toMatchObject({ state: 'ran' });
      expect(await runs()).toBe(4);
    } finally {
      await ws.close();
    }
  });

  test('a failed setup is reported and tried again; its partial output is not kept', async () => {
    const repo = await makeRepo({ 'requirements.txt': 'x==1\n' });
    const head = (await git(repo, 'rev-parse', 'HEAD')).trim();
    const ws = await open(repo);
    try {
      for (let i = 0; i < 2; i++) {
        await update(ws, head);
        await expect(stat(join(ws.dir, '.venv'))).rejects.toThrow();
        const s = await ws.setup({ command: 'mkdir .venv && echo broken >&2 && exit 3', timeoutMs: 30_000 });
        expect(s).toMatchObject({ state: 'failed', reason: expect.stringContaining('exited 3') });
      }
    } finally {
      await ws.close();
    }
  });

  test('a setup that changes tracked files is not reused; no setup removes earlier outputs', async () => {
    const repo = await makeRepo({ 'package.json': '{}\n' });
    const head = (await git(repo, 'rev-parse', 'HEAD')).trim();
    const ws = await open(repo);
    try {
      await update(ws, head);
      const s = await ws.setup({ command: 'echo "{ }" > package.json && mkdir node_modules', timeoutMs: 30_000 });
      expect(s).toMatchObject({
        state: 'ran',
        cached: false,
        note: expect.stringContaining('changed tracked files (package.json)'),
        changed: ['package.json'],
      });
      await update(ws, head);
      expect(await readFile(join(ws.dir, 'package.json'), 'utf8')).toBe('{}\n');
      expect(await ws.setup({ command: 'mkdir node_modules', timeoutMs: 30_000 })).toMatchObject({ state: 'ran', cached: true });
      await update(ws, head);
      expect(await ws.setup({ command: undefined, timeoutMs: 30_000 })).toEqual({ state: 'none' });
      await expect(stat(join(ws.dir, 'node_modules'))).rejects.toThrow();
    } finally {
      await ws.close();
    }
  });

  test('fresh() starts from nothing: a new folder, setup from scratch', async () => {
    const repo = await makeRepo({ 'package-lock.json': '{}\n' });
    const head = (await git(repo, 'rev-parse', 'HEAD')).trim();
    const root = join(dirname(repo), 'fresh');
    await mkdir(join(root, 'ws'), { recursive: true });
    await writeFile(join(root, 'ws', 'stale.txt'), 'from before\n');
    const { workspace, setup } = await CheckWorkspace.fresh({ root, repo, runner }, head, { command: 'mkdir node_modules', timeoutMs: 30_000 });
    try {
      expect(setup).toMatchObject({ state: 'ran' });
      expect((await readdir(workspace.dir)).sort()).toEqual(['node_modules', 'package-lock.json']);
    } finally {
      await workspace.dispose();
    }
    await expect(stat(root)).rejects.toThrow();
  });
});

describe('CheckWorkspace.setup on the log', () => {
  test('says when it starts, that it still runs while it does (heartbeat), and how long it took when it fails', async () => {
    const repo = await makeRepo({ 'package-lock.json': '{}\n' });
    const head = (await git(repo, 'rev-parse', 'HEAD')).trim();
    const lines: string[] = [];
    const log = { info: (m: string) => lines.push(m), warn: (m: string) => lines.push(m), error: (m: string) => lines.push(m) };
    const release = join(dirname(repo), 'release');
    const command = `while [ ! -f '${release}' ]; do sleep 0.05; done; exit 4`;
    const ws = await open(repo, { log, heartbeatMs: 50 });
    try {
      await ws.update(head);
      const running = ws.setup({ command, timeoutMs: 60_000 });
      await until(() => lines.filter((l) => l.includes('still running')).length >= 2, 20_000, 'two heartbeats');
      await writeFile(release, '');
      const s = await running;
      expect(lines[0]).toMatch(/^checks\.setup `while .*`: running \(inputs [0-9a-f]{12}\)$/);
      expect(lines[1]).toMatch(/^checks\.setup `while .*`: still running \(\d+\.\d s\)$/);
      expect(s).toMatchObject({ state: 'failed', reason: expect.stringMatching(/exited 4 after \d+\.\d s$/) });
      // A reused setup runs nothing and says nothing here (the round's line says it was reused).
      const seen = lines.length;
      await ws.update(head);
      expect(await ws.setup({ command: 'true', timeoutMs: 60_000 })).toMatchObject({ state: 'ran' });
      await ws.update(head);
      expect(await ws.setup({ command: 'true', timeoutMs: 60_000 })).toMatchObject({ state: 'reused' });
      expect(lines.slice(seen).filter((l) => /: running \(/.test(l))).toEqual([expect.stringMatching(/^checks\.setup `true`: running/)]);
    } finally {
      await ws.close();
    }
  });
});

describe('CheckWorkspace.changedTracked', () => {
  test('names a tracked file rewritten in place with its mtime put back, a folder swapped for a link, a removed file; never untracked files or modes', async () => {
    const repo = await makeRepo({ 'test/a.test.js': 'assert(1 === 1)\n', 'src/x.js': 'x\n' });
    const head = (await git(repo, 'rev-parse', 'HEAD')).trim();
    const ws = await open(repo);
    try {
      await ws.update(head);
      expect(ws.changedTracked()).toEqual([]);
      // Untracked files and folders (setup outputs, caches) are not the tree's: not even walked.
      await mkdir(join(ws.dir, 'node_modules/dep'), { recursive: true });
      await writeFile(join(ws.dir, 'node_modules/dep/index.js'), 'x\n');
      expect(ws.changedTracked()).toEqual([]);
      // Same size, same inode, mtime put back: only the content says.
      await tamper(join(ws.dir, 'test/a.test.js'), 'assert(1 !== 1)\n');
      expect(ws.changedTracked()).toEqual(['test/a.test.js']);
      await ws.update(head);
      expect(ws.changedTracked()).toEqual([]);
      // A check that opens its workspace to everyone changes no byte.
      await chmod(join(ws.dir, 'src/x.js'), 0o777);
      expect(ws.changedTracked()).toEqual([]);
      await ws.update(head);
      // The same bytes, read through a link where the folder was.
      await sh('sh', ['-c', 'cp -rp src ../src-copy && rm -r src && ln -s ../src-copy src'], { cwd: ws.dir });
      expect(ws.changedTracked()).toEqual(['src/']);
      await unlink(join(ws.dir, 'src'));
      await ws.update(head);
      await unlink(join(ws.dir, 'test/a.test.js'));
      expect(ws.changedTracked()).toEqual(['test/a.test.js']);
    } finally {
      await ws.close();
    }
  });
});

describe('CheckWorkspace.env', () => {
  test('holds nothing of the loop environment but PATH, LANG, TZ and the CA bundle the agent gets, plus checks.env', async () => {
    const repo = await makeRepo({ 'a.txt': 'a\n' });
    const head = (await git(repo, 'rev-parse', 'HEAD')).trim();
    const ca = new Set<string>(CA_BUNDLE_VARS);
    const baseEnv = {
      ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !ca.has(k.toUpperCase()))),
      NODE_EXTRA_CA_CERTS: '/etc/ssl/inspecting-proxy.pem',
      REQUESTS_CA_BUNDLE: '/etc/ssl/inspecting-proxy.pem',
      npm_config_cafile: '/etc/ssl/inspecting-proxy.pem',
      PATH: process.env.PATH,
      LANG: 'C.UTF-8',
      TZ: 'UTC',
      PHUC_FAKE_SECRET: 'sekrit-value-123',
      GITHUB_TOKEN: 'ghs_faketoken123',
      NODE_OPTIONS: '--require /tmp/evil.js',
      HOME: '/root',
      npm_config_script_shell: '/bin/true',
    };
    const ws = await open(repo, { baseEnv, env: { CI: 'true', HOME: '/elsewhere' } });
    try {
      await ws.update(head);
      const env = ws.env();
      expect(Object.keys(env).sort()).toEqual(
        [
          'CI',
          'GIT_CEILING_DIRECTORIES',
          'GIT_CONFIG_GLOBAL',
          'GIT_CONFIG_NOSYSTEM',
          'HOME',
          'LANG',
          'NODE_EXTRA_CA_CERTS',
          'NPM_CONFIG_GLOBALCONFIG',
          'NPM_CONFIG_USERCONFIG',
          'PATH',
          'REQUESTS_CA_BUNDLE',
          'npm_config_cafile',
          'TMPDIR',
          'TZ',
          'XDG_CONFIG_HOME',
        ].sort(),
      );
      expect(env).toMatchObject({
        HOME: ws.home,
        TMPDIR: join(ws.home, 'tmp'),
        GIT_CONFIG_GLOBAL: '/dev/null',
        NPM_CONFIG_USERCONFIG: join(ws.home, '.npmrc'),
        NPM_CONFIG_GLOBALCONFIG: join(ws.home, '.npm-globalrc'),
        CI: 'true',
        TZ: 'UTC',
      });
      // What a check process actually sees.
      const r = await runner.run({ command: 'env', cwd: ws.dir, env });
      expect(r.stdout).not.toMatch(/sekrit|ghs_fake|evil\.js|script_shell/);
      expect(r.stdout).toContain(`HOME=${ws.home}\n`);
      expect(r.stdout).toContain('NODE_EXTRA_CA_CERTS=/etc/ssl/inspecting-proxy.pem\n');
    } finally {
      await ws.close();
    }
  });
});

describe('CheckWorkspace cost', () => {
  test('an update after a one-file change rewrites only that file (2,000-file tree)', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 2000; i++) files[`src/m${i % 40}/f${i}.txt`] = `file ${i}\n`;
    const repo = await makeRepo(files);
    const c1 = (await git(repo, 'rev-parse', 'HEAD')).trim();
    await appendFile(join(repo, 'src/m7/f7.txt'), 'changed\n');
    const c2 = await commitAll(repo, 'one file');
    const ws = await open(repo);
    try {
      await ws.update(c1);
      const untouched = await stat(join(ws.dir, 'src/m0/f0.txt'), { bigint: true });
      await ws.update(c2);
      const now = await stat(join(ws.dir, 'src/m0/f0.txt'), { bigint: true });
      expect([now.ino, now.ctimeNs]).toEqual([untouched.ino, untouched.ctimeNs]);
      expect(await readFile(join(ws.dir, 'src/m7/f7.txt'), 'utf8')).toBe('file 7\nchanged\n');
    } finally {
      await ws.close();
    }
  });
});

describe('phuc-loop verify --rerun', () => {
  const three = [1, 2, 3].map((i) => ({ id: `bug${i}`, run: `grep -q fixed-${i} src/status.txt` }));
  let repo: string;
  let ev: string;
  beforeAll(async () => {
    repo = await makeRepo({
      'phuc-loop.yml': config({ criteria: three, agent: agent('fixer.mjs') }),
      'NORTHSTAR.md': NORTHSTAR,
      'src/status.txt': 'bugs: 3\n',
    });
    const run = await cli(repo, ['run']);
    expect(run.stdout).toMatch(/EXIT_CONVERGED\(EXACT\)/);
    ev = join(repo, 'evidence/loop');
  });

  test('passes on a converged run and says what it reran', async () => {
    const r = await cli(repo, ['verify', '--rerun']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const head = (await git(repo, 'rev-parse', 'HEAD')).trim();
    expect(r.stdout).toMatch(/^rerun: isolation (user\+pidns|pidns|none), the checks' network (loopback|open)$/m);
    expect(r.stdout).toContain(`rerun: commit ${head} (named by the certificate) checked out fresh, with a fresh HOME`);
    for (const i of [1, 2, 3]) expect(r.stdout).toContain(`rerun: bug${i} \`grep -q fixed-${i} src/status.txt\`: met — certificate: met`);
    expect(r.stdout).toContain('rerun: certificate type EXACT — certificate: EXACT');
  });

  /** Where a rerun that disagrees keeps the criteria's logs (its folder is removed by the test). */
  function keptLogs(stdout: string): string {
    const kept = /rerun: the criteria's logs are kept in (\S+)/.exec(stdout)?.[1];
    expect(kept).toBeDefined();
    return kept!;
  }

  /**
   * A copy of the tree whose plan records `run` as the third criterion (the certificate says met),
   * with its manifest entry updated so that the plain verify still holds.
   */
  async function withThirdCriterion(name: string, run: string): Promise<string> {
    const copy = join(dirname(repo), name);
    await sh('cp', ['-r', ev, copy]);
    const plan = await readJson<{ acceptance_criteria: { id: string; run: string }[] }>(join(copy, 'plan.json'));
    plan.acceptance_criteria[2].run = run;
    const text = JSON.stringify(plan, null, 2) + '\n';
    await writeFile(join(copy, 'plan.json'), text);
    const manifest = await readJson<{ files: { path: string; sha256: string; bytes: number }[] }>(join(copy, 'manifest.json'));
    Object.assign(
      manifest.files.find((f) => f.path === 'plan.json')!,
      { sha256: createHash('sha256').update(text).digest('hex'), bytes: Buffer.byteLength(text) },
    );
    await writeFile(join(copy, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
    expect((await cli(repo, ['verify', copy])).code).toBe(0);
    return copy;
  }

  test("fails (exit 12) naming the field when the evidence's plan is not what the certified commit's config gives", async () => {
    // The criteria are taken from phuc-loop.yml in the certified commit, never from the evidence:
    // a plan edited (and rehashed) to record another command is named, not run.
    const copy = await withThirdCriterion('evidence-mutated', 'grep -q fixed-4 src/status.txt');
    const r = await cli(repo, ['verify', '--rerun', copy]);
    expect(r.code).toBe(12);
    expect(r.stdout).toMatch(/rerun: criteria, residual, certificates, R_p and rung from phuc-loop\.yml in commit [0-9a-f]{12} \(not from the evidence\)/);
    expect(r.stdout).toContain('rerun: bug3 `grep -q fixed-3 src/status.txt`: met — certificate: met');
    expect(r.stdout).not.toContain('fixed-4`');
    await rm(dirname(keptLogs(r.stdout)), { recursive: true, force: true });
    expect(r.stderr).toMatch(
      /FAIL rerun: plan\.json acceptance_criteria\[bug3\]\.run: "grep -q fixed-4 src\/status\.txt" in the evidence, "grep -q fixed-3 src\/status\.txt" from phuc-loop\.yml in commit [0-9a-f]{12}/,
    );
    expect(r.stderr).toContain('the outcome differs from the certificate');
  });

  test('what another user planted in TMPDIR (node_modules, conftest.py) does not reach the rerun: its workspace is not under TMPDIR', async () => {
    // The criterion passes only where no node_modules/phuc-planted can be found (and once the
    // agent fixed its bug): a rerun whose workspace sat under the planted TMPDIR would fail.
    const planted = await makeRepo({
      'phuc-loop.yml': config({
        criteria: [
          { id: 'clean', run: `grep -q fixed-1 src/status.txt && node -e "try { require('phuc-planted') } catch { process.exit(0) } process.exit(1)"` },
        ],
        agent: agent('fixer.mjs'),
      }),
      'NORTHSTAR.md': NORTHSTAR,
      'src/status.txt': 'bugs: 1\n',
    });
    expect((await cli(planted, ['run'])).stdout).toMatch(/EXIT_CONVERGED\(EXACT\)/);
    // TMPDIR stands for /tmp, which the agent can write: Node looks for node_modules, pytest for
    // conftest.py, in every parent folder of the workspace.
    const tmp = await mkdtemp(join(dirname(repo), 'tmpdir-'));
    await chmod(tmp, 0o1777);
    await mkdir(join(tmp, 'node_modules', 'phuc-planted'), { recursive: true });
    await writeFile(join(tmp, 'node_modules', 'phuc-planted', 'index.js'), 'module.exports = 1;\n');
    await writeFile(join(tmp, 'conftest.py'), 'raise SystemExit(0)\n');
    await sh('chmod', ['-R', 'a+rX', tmp]);
    const r = await cli(planted, ['verify', '--rerun'], { TMPDIR: tmp });
    expect(r.stdout).toMatch(/rerun: clean `grep -q fixed-1 src\/status.txt && node -e .*`: met — certificate: met/);
    expect(r.code).toBe(0);
    expect((await readdir(tmp)).sort()).toEqual(['conftest.py', 'node_modules']);
  });

  test('fails when the certified commit is not in the repository given', async () => {
    const other = await makeRepo({ 'a.txt': 'unrelated\n' });
    const r = await cli(repo, ['verify', '--rerun', ev, '--repo', other]);
    expect(r.code).toBe(12);
    expect(r.stderr).toMatch(/FAIL the certified commit [0-9a-f]{40} is not in .* \(fetch it first\)/);
  });

  test('wins no certificate through a file the commit does not hold (live judging, an ignored build output the agent made: set aside after its step)', async () => {
    const hostile = await makeRepo({
      'phuc-loop.yml': config({
        criteria: [{ id: 'tests', run: 'npm test' }],
        agent: agent('ignored-output.mjs'),
        extra: 'checks:\n  workspace: live\nbudget:\n  max_iterations: 1\n',
      }),
      'NORTHSTAR.md': NORTHSTAR,
      'NOTES.md': '# notes\n',
      '.gitignore': 'build/\n',
      'package.json': '{ "name": "h", "version": "1.0.0", "scripts": { "test": "node test/run.js" } }\n',
      'test/run.js': "process.exit(require('node:fs').existsSync('build/ok') ? 0 : 1);\n",
    });
    const run = await cli(hostile, ['run', '--isolation', 'none']);
    // Live judging runs the criteria in the work tree: the ignored build/ok the agent wrote there
    // would make the test pass; it is set aside after the step, so the criterion fails as in a clone.
    expect(run.stdout).toMatch(/iter 0: what the agent made that git does not see, set aside: build/);
    expect(run.stdout).toMatch(/iter 0: criterion tests failed \(exit 1\)/);
    expect(run.stdout).not.toMatch(/EXIT_CONVERGED/);
    expect(await lstat(join(hostile, 'build/ok')).catch(() => null)).toBeNull();
  });
});
