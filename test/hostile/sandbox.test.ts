// Hostile scripted agents against the sandbox, at every isolation level this machine gives the test
// process (as root, as in CI: user+pidns and none; pidns runs as another user in the CLI-level tests,
// test/hostile/live-checks.test.ts and test/integration/). Each class of attack is asserted where its level promises to hold;
// at `none` the same probe is run to show it does find what the stronger levels hide.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, chown, copyFile, link, lstat, mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { makeRepo, FIXTURES } from '../helpers/repo.js';
import { killQuietly, namespaceIn, processesIn, processesOf, readText, referenceBeats } from '../helpers/procs.js';
import { NodeProcessRunner } from '../../src/engine/os/process.js';
import type { RunResult, RunSpec } from '../../src/engine/os/ports.js';
import { ISOLATION_LEVELS, resolveIsolation, ROLE_USERS, Sandbox, type IsolationLevel, type SandboxRole } from '../../src/engine/os/sandbox.js';
import { isolationFacts } from '../helpers/isolation.js';

const facts = await isolationFacts();
const LEVELS = ISOLATION_LEVELS.filter((l) => l === 'none' || (l === 'user+pidns' ? facts.userPidns : facts.pidns) === null);
const SECRET_VAR = 'PHUC_HOSTILE_SECRET';
const GRACE_MS = 300;
const runner = new NodeProcessRunner({ killGraceMs: GRACE_MS });
const exec = promisify(execFile);

const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(what: string, done: () => Promise<boolean> | boolean, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await delay(20);
  }
}
test('on a root machine user+pidns and none are available, and pidns is refused to the root loop (CI covers user+pidns)', async () => {
  if (process.getuid?.() !== 0) return;
  expect(facts).toEqual({ privilege: 'root', userPidns: null, pidns: expect.stringMatching(/runs as root.*uid 0 outside/) });
  expect(LEVELS).toEqual(['user+pidns', 'none']);
  await expect(resolveIsolation('pidns', facts)).rejects.toThrow(
    /agent.isolation: pidns is not available on this machine: the loop runs as root.*Available here: user\+pidns, none/,
  );
});

describe.each(LEVELS)('isolation %s', (level: IsolationLevel) => {
  const strong = level === 'user+pidns';
  const contained = level !== 'none';
  const secret = `s3cr3t-${randomBytes(12).toString('hex')}`;
  let root: string;
  let bin: string;
  let repo: string;
  let loopHome: string;
  let evidence: string;
  let sb: Sandbox;
  let decoy: ChildProcess;

  beforeAll(async () => {
    // Everything the role must reach lives under a 0755 folder (mkdtemp makes 0700 ones).
    root = await mkdtemp(join(tmpdir(), 'phuc-hostile-'));
    await chmod(root, 0o755);
    bin = join(root, 'bin');
    await mkdir(bin);
    for (const f of await readdir(join(FIXTURES, 'hostile'), { withFileTypes: true }))
      if (f.isFile()) await copyFile(join(FIXTURES, 'hostile', f.name), join(bin, f.name));
    repo = await makeRepo({ 'README.md': 'hello\n', 'src/a.txt': 'a\n' });
    loopHome = join(root, 'loop-home');
    await mkdir(loopHome, { mode: 0o700 });
    evidence = join(repo, '.git', 'phuc-loop', 'evidence');
    await mkdir(evidence, { recursive: true, mode: 0o700 });
    await writeFile(join(evidence, 'manifest.json'), '{}');
    // The loop's secret: in the environment the sandbox is given, and in a process's initial
    // environment (the way a loop holds GITHUB_TOKEN), readable through /proc/<pid>/environ.
    decoy = spawn('sleep', ['600'], { env: { PATH: process.env.PATH, [SECRET_VAR]: secret }, stdio: 'ignore' });
    sb = await Sandbox.create(await resolveIsolation(level, facts), { env: { ...process.env, HOME: loopHome, [SECRET_VAR]: secret }, killGraceMs: GRACE_MS });
    await sb.grantWorkTree(repo);
  });

  afterAll(async () => {
    decoy.kill('SIGKILL');
    await sb.reclaimWorkTree(repo);
    await sb.dispose();
    await rm(root, { recursive: true, force: true });
    await rm(join(repo, '..'), { recursive: true, force: true });
  });

  const run = async (role: SandboxRole, command: string, args: string[], extra: Partial<RunSpec> = {}): Promise<RunResult> =>
    runner.run(await sb.wrap({ command, args, cwd: repo, env: { PHUC_ITERATION: '1' }, timeoutMs: 30_000, ...extra }, role));
  const hostile = (script: string, args: string[], extra: Partial<RunSpec> = {}) => run('agent', '/bin/sh', [join(bin, script), ...args], extra);

  test('the command gets its input, its folder, its exit code and a clean environment', async () => {
    const r = await run('check', '/bin/sh', ['-c', 'cat; pwd; env | cut -d= -f1 | sort | tr "\\n" " "; exit 3'], { stdin: 'prompt\n' });
    expect(r.exitCode).toBe(3);
    const [input, cwd, names] = r.stdout.split('\n');
    expect([input, cwd]).toEqual(['prompt', repo]);
    const identity = contained ? ['HOME', 'LOGNAME', 'TMPDIR', 'USER'] : ['HOME', 'LOGNAME', 'TMPDIR', 'USER'].filter((n) => process.env[n] !== undefined);
    const extra = strong ? ['GIT_CONFIG_COUNT', 'GIT_CONFIG_KEY_0', 'GIT_CONFIG_VALUE_0'] : contained ? [] : ['PHUC_RUN_TAG'];
    const expected = [...identity, ...extra, 'PATH', 'PHUC_ITERATION', 'PWD'];
    const locale = /^(LANG|LANGUAGE|LC_[A-Z_]+|TZ|SHLVL|OLDPWD|_)$/;
    expect(
      names
        .trim()
        .split(' ')
        .filter((n) => !locale.test(n))
        .sort(),
    ).toEqual(expected.sort());
  });

  test("(a) the loop's secret is in no environment the agent can read", async () => {
    const r = await hostile('environ.sh', [SECRET_VAR]);
    expect(r.stdout).toContain('scanned');
    expect(r.stdout).not.toContain('own-env');
    if (!contained) {
      // The same probe beside the loop does find it: the test can fail.
      expect(r.stdout).toContain(secret);
      return;
    }
    expect(r.stdout).not.toContain(secret);
    expect(r.stdout).not.toMatch(/MOUNTED/);
    // Its own PID namespace: only a handful of its own processes are visible.
    expect(Number(/visible=(\d+)/.exec(r.stdout)?.[1])).toBeLessThan(10);
  });

  test('(b) setsid + env -i + a double fork + SIGTERM ignored + no stdio: nothing outlives the run', async () => {
    const hb = join(repo, `.hb-${level}`);
    const pidFile = join(repo, `.survivor-${level}`);
    const nsFile = join(repo, `.ns-${level}`);
    const r = await hostile('escape.sh', [hb, pidFile, nsFile]);
    expect(r.stdout).toContain('started');
    expect(Number(await readText(hb))).toBeGreaterThan(0);
    if (!contained) {
      // Beside the loop the survivor lives on (the sweep cannot find it): the test can fail.
      const pid = Number(await readText(pidFile));
      try {
        const seen = await readText(hb);
        await until('the survivor beating on', async () => (await readText(hb)) !== seen);
      } finally {
        killQuietly(pid);
      }
      return;
    }
    const last = await readText(hb);
    await referenceBeats(root, 5);
    expect(await readText(hb)).toBe(last);
    // Killed, they ran nothing more (above); on a busy machine the kernel may still be tearing them down.
    const ns = await namespaceIn(nsFile);
    await until('the killed namespace to empty', async () => (await processesIn(ns)).length === 0);
    if (strong) await until("the agent user's processes to be gone", async () => (await processesOf(sb.user('agent')!.uid, repo)).length === 0);
  });

  test("(c) HOME planting reaches neither the loop's HOME nor the next run", async () => {
    const first = await hostile('plant-home.sh', [loopHome]);
    const home = /home=(.*)/.exec(first.stdout)?.[1];
    if (!contained) {
      expect(home).toBe(loopHome);
      return;
    }
    expect(home).not.toBe(loopHome);
    expect(first.stdout).toContain(`wrote ${home}/.gitconfig`);
    expect(first.stdout).toContain(`wrote ${home}/.npmrc`);
    const second = await run('agent', '/bin/sh', ['-c', 'echo "home=$HOME"; ls -A "$HOME" "$TMPDIR"']);
    expect(second.exitCode).toBe(0);
    const next = /home=(.*)/.exec(second.stdout)?.[1];
    expect(next).not.toBe(home);
    expect(existsSync(home!)).toBe(false); // removed before the next run starts (at its end when root)
    expect(second.stdout.split('\n').filter((l) => l && !l.startsWith('home=') && !l.endsWith(':'))).toEqual([]);
    if (strong) {
      expect(first.stdout).not.toContain(`wrote ${loopHome}`);
      expect(await readdir(loopHome)).toEqual([]);
    }
  });

  test("(d) no privilege is gained; .git, evidence, the sandbox base and the loop's HOME are out of reach", async () => {
    const setuid = join(bin, 'setuid-id');
    await copyFile('/usr/bin/id', setuid);
    await chmod(setuid, 0o4755);
    const gitConfig = await readFile(join(repo, '.git', 'config'), 'utf8');
    const probe = join('/root', '.phuc-hostile-probe');
    try {
      const r = await hostile('escalate.sh', [setuid, evidence, sb.base, loopHome, ...(strong && process.getuid?.() === 0 ? ['/root'] : [])]);
      expect(r.stdout).toContain('tried');
      if (!contained) return;
      expect(r.stdout).toMatch(/^NoNewPrivs:\s+1$/m);
      expect(r.stdout).toMatch(/^CapEff:\s+0+$/m);
      expect(r.stdout).toMatch(/^CapPrm:\s+0+$/m);
      expect(r.stdout).toMatch(/^CapBnd:\s+0+$/m);
      if (!strong) return;
      expect(r.stdout).toContain(`setuid-euid=${sb.user('agent')!.uid}\n`);
      const attempts = r.stdout.split('\n').filter((l) => /^[a-z-]+=(ok|denied)$/.test(l));
      expect(attempts.length).toBe(process.getuid?.() === 0 ? 11 : 10);
      expect(attempts.filter((l) => l.endsWith('=ok'))).toEqual([]);
      expect(await readFile(join(repo, '.git', 'config'), 'utf8')).toBe(gitConfig);
      expect(await readdir(loopHome)).toEqual([]);
    } finally {
      if (strong && process.getuid?.() === 0) await rm(probe, { force: true });
    }
  });

  test("(g) a check that makes its round's TMPDIR a link to a folder of the machine: the next check's TMPDIR is not bound there", async () => {
    // The checks of one round share a HOME the check user owns, its TMPDIR inside it; a folder every
    // user may write stands for /tmp/.X11-unix and the like.
    const shared = await mkdtemp(join(tmpdir(), 'phuc-shared-tmp-'));
    const home = await mkdtemp(join(root, 'round-home-'));
    try {
      await chmod(shared, 0o1777);
      await mkdir(join(home, 'tmp'));
      if (strong) {
        const uid = Number((await exec('id', ['-u', ROLE_USERS.check])).stdout.trim());
        const gid = Number((await exec('id', ['-g', ROLE_USERS.check])).stdout.trim());
        for (const p of [home, join(home, 'tmp')]) await chown(p, uid, gid);
      }
      const env = { HOME: home, TMPDIR: join(home, 'tmp') };
      const linked = await run('check', '/bin/sh', ['-c', `rm -rf "$HOME/tmp" && ln -s ${shared} "$HOME/tmp" && echo linked`], { env });
      expect(linked.stdout).toBe('linked\n');
      await run('check', '/bin/sh', ['-c', 'echo left > "$TMPDIR/mark"'], { env });
      // At none the check writes wherever the loop can: the probe finds the mark there.
      expect(existsSync(join(shared, 'mark'))).toBe(!contained);
    } finally {
      await rm(shared, { recursive: true, force: true });
      await rm(home, { recursive: true, force: true });
    }
  });

  test('(f) a SysV IPC object the agent makes (a message queue) does not reach the checks', async () => {
    // IPC objects outlive their process: shared, a queue the agent leaves would be a token its code
    // finds while judged, and pass in the loop but not in a clean clone.
    const agent = await run('agent', '/bin/sh', ['-c', 'ipcmk -Q -p 0644 | sed "s/.*: *//"']);
    const id = agent.stdout.trim();
    expect(id).toMatch(/^\d+$/);
    const check = await run('check', '/bin/sh', ['-c', `if ipcs -q | awk '{print $2}' | grep -qx ${id}; then echo seen; else echo gone; fi`]);
    if (!contained) {
      // Beside the loop the queue is still there: the test can fail.
      expect(check.stdout.trim()).toBe('seen');
      await run('check', '/bin/sh', ['-c', `ipcrm -q ${id}`]);
      return;
    }
    expect(check.stdout.trim()).toBe('gone');
  });

  test('(e) a time-out ends everything the agent started, at once after the grace', async () => {
    const ns = join(repo, `.tree-t-${level}`);
    const r = await hostile('tree.sh', [ns, contained ? 'full' : 'weak'], { timeoutMs: 800 });
    expect(r).toMatchObject({ timedOut: true, aborted: false });
    expect(r.exitCode === 0).toBe(false);
    expect(r.durationMs).toBeLessThan(800 + GRACE_MS + 3000);
    if (contained) expect(await processesIn(await namespaceIn(ns))).toEqual([]);
  });

  test('(e) an abort ends everything the agent started', async () => {
    const ns = join(repo, `.tree-a-${level}`);
    const ac = new AbortController();
    const result = hostile('tree.sh', [ns, contained ? 'full' : 'weak'], { signal: ac.signal });
    await until('the tree to be ready', () => existsSync(`${ns}.ready`));
    ac.abort();
    const r = await result;
    expect(r).toMatchObject({ aborted: true, timedOut: false });
    expect(r.durationMs).toBeLessThan(GRACE_MS + 5000);
    if (contained) expect(await processesIn(await namespaceIn(ns))).toEqual([]);
  });

  if (strong) {
    test('the agent writes the work tree, not .git; reclaim gives everything back to the owner of .git', async () => {
      const outside = join(root, 'outside.txt');
      await writeFile(outside, "not the agent's\n");
      // Another user's file where the test may give it away (as root): then a followed link would show in reclaim too.
      if (process.getuid?.() === 0) await chown(outside, 12345, 12345);
      const outsideUid = (await lstat(outside)).uid;
      // The loop writes the work tree only between steps (under sudo it cannot while the agent owns it).
      await sb.reclaimWorkTree(repo);
      await link(outside, join(repo, 'hardlink.txt')); // a hard link in the tree to a file elsewhere
      await sb.grantWorkTree(repo);
      expect((await lstat(outside)).uid).toBe(outsideUid);
      const r = await run('agent', '/bin/sh', [
        '-c',
        'echo more >> README.md && echo new > new.txt && mkdir -p d/e && echo x > d/e/f && chmod 700 d && ln -s ../outside.txt link && echo wrote; echo x >> hardlink.txt || echo hardlink-denied',
      ]);
      expect(r.stdout).toBe('wrote\nhardlink-denied\n');
      await sb.reclaimWorkTree(repo);
      const owner = await lstat(join(repo, '.git'));
      const wrong: string[] = [];
      const walk = async (dir: string): Promise<void> => {
        for (const e of await readdir(dir, { withFileTypes: true })) {
          const p = join(dir, e.name);
          if (p === join(repo, '.git') || p === join(repo, 'hardlink.txt')) continue;
          const s = await lstat(p);
          if (s.uid !== owner.uid || s.gid !== owner.gid) wrong.push(p);
          if (e.isDirectory()) await walk(p);
        }
      };
      await walk(repo);
      expect(wrong).toEqual([]);
      expect((await lstat(outside)).uid).toBe(outsideUid); // links were never followed
      await rm(join(repo, 'hardlink.txt'));
    });

    test("the kernel's keyrings are closed to the command: each key syscall fails as on a kernel without them", async () => {
      const perl = ['/usr/bin/perl', '/bin/perl'].find((p) => existsSync(p));
      const nr = ({ x64: 250, arm64: 219 } as Partial<Record<string, number>>)[process.arch];
      if (!perl || nr === undefined) return; // then the report lists it among the limits
      // KEYCTL_GET_KEYRING_ID of the user keyring, creating it: works for any process that may use keyrings.
      const r = await run('agent', perl, [
        '-e',
        `my $id = syscall(${nr}, 0, -4, 1); print $id > 0 ? "allowed\\n" : "refused: " . ($!{ENOSYS} ? "ENOSYS" : $!) . "\\n";`,
      ]);
      expect(r.stdout).toBe(contained ? 'refused: ENOSYS\n' : 'allowed\n');
    });

    test("the check workspace is out of the agent's reach; the exchange folder of one role is out of the other's", async () => {
      const ws = await sb.privateDir();
      await writeFile(join(ws, 'test.txt'), 'judged\n');
      await sb.grant('check', ws);
      const io = await sb.exchangeDir('agent');
      await writeFile(join(io, 'prompt.md'), 'do it\n');
      const agent = await run('agent', '/bin/sh', [
        '-c',
        `cat ${ws}/test.txt || echo ws-denied; cat ${io}/prompt.md && echo io-read; echo '{}' > ${io}/report.json`,
      ]);
      expect(agent.stdout).toBe('ws-denied\ndo it\nio-read\n');
      // The agent reads its input there; what it writes outside its own folders does not outlive it.
      expect(await readFile(join(io, 'report.json'), 'utf8').catch(() => 'absent')).toBe('absent');
      const check = await run('check', '/bin/sh', ['-c', `id -un; cat test.txt && echo out > result.txt; cat ${io}/prompt.md || echo io-denied`], { cwd: ws });
      expect(check.stdout).toBe('phuc-check\njudged\nio-denied\n');
      await sb.reclaim(ws);
      for (const f of ['test.txt', 'result.txt']) expect((await lstat(join(ws, f))).uid).toBe(process.getuid!());
    });

    test('a work tree under a folder the role cannot traverse is reached through a private mount, nothing else of that folder', async () => {
      const closed = await mkdtemp(join(tmpdir(), 'phuc-closed-')); // 0700, like /root or /home/runner
      try {
        await writeFile(join(closed, 'private.txt'), "the loop user's\n");
        const tree = await makeRepo({ 'a.txt': 'a\n' });
        const inner = join(closed, 'work');
        await rename(tree, inner);
        await rm(join(tree, '..'), { recursive: true });
        await sb.grantWorkTree(inner);
        const r = await run('agent', '/bin/sh', ['-c', 'pwd; echo b > b.txt && echo wrote; ls -A ..; cat ../private.txt || echo hidden'], { cwd: inner });
        expect(r.stdout).toBe(`${inner}\nwrote\nwork\nhidden\n`);
        expect(await readFile(join(inner, 'b.txt'), 'utf8')).toBe('b\n');
        await sb.reclaimWorkTree(inner);
      } finally {
        await rm(closed, { recursive: true, force: true });
      }
    });

    test('PATH keeps only the folders the role can reach', async () => {
      const r = await run('agent', '/bin/sh', ['-c', 'echo "$PATH"'], { env: { PATH: `/root:/usr/bin:${root}/missing:/bin` } });
      expect(r.stdout).toBe('/usr/bin:/bin\n');
    });
  }
});
