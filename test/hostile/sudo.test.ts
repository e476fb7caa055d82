// The sudo path of the sandbox (SPEC §7 "Isolation"). On GitHub-hosted runners the loop is not root
// but the user `runner` with passwordless sudo; user+pidns then works through `sudo -n`. As root on
// Linux with sudo installed (CI), this test makes such a user (a sudoers.d drop-in, removed
// afterwards), runs the built CLI as that user on a repository it owns, with a hostile agent and a
// secret GITHUB_TOKEN in the loop's environment, and checks what user+pidns promises there.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, copyFile, lstat, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DEEP_SH, FIXTURES, NORTHSTAR, config, makeRepo, readJson, until, type CliResult } from '../helpers/repo.js';
import { namespaceIn, processesIn, processesOf, readText, referenceBeats } from '../helpers/procs.js';
import { cliAs, createLoopUser, deleteLoopUser, type LoopUser } from '../helpers/users.js';

const exec = promisify(execFile);
const SUDO = ['/usr/bin/sudo', '/bin/sudo'].find((p) => existsSync(p));
const skipped =
  process.platform !== 'linux'
    ? 'not Linux'
    : process.getuid?.() !== 0
      ? 'the test must run as root (it creates a user with passwordless sudo)'
      : !SUDO
        ? 'sudo is not installed (apt-get install sudo; .ci/run installs it)'
        : null;
if (skipped) console.warn(`test/hostile/sudo.test.ts skipped: ${skipped}`);

const SECRET = `ghs_${randomBytes(18).toString('hex')}`;

/** Every file under `dir` that holds `needle`. */
async function filesHolding(dir: string, needle: string): Promise<string[]> {
  const hits: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile()) continue;
    const p = join(e.parentPath, e.name);
    if ((await readFile(p).catch(() => Buffer.alloc(0))).includes(needle)) hits.push(p);
  }
  return hits;
}

(skipped ? describe.skip : describe)(`user+pidns through passwordless sudo${skipped ? ` (skipped: ${skipped})` : ''}`, () => {
  let base: string;
  let out: string;
  let repo: string;
  let user: LoopUser;
  let run: CliResult;

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'phuc-sudo-'));
    await chmod(base, 0o755);
    user = await createLoopUser();
    const dropIn = `/etc/sudoers.d/${user.name}`;
    await writeFile(dropIn, `${user.name} ALL=(ALL) NOPASSWD: ALL\n`, { mode: 0o440 });
    await exec('visudo', ['-cf', dropIn]);
    // The hostile scripts where the agent user reaches them; its findings go to a folder it may write.
    const bin = join(base, 'bin');
    await mkdir(bin);
    for (const f of ['environ.sh', 'escape.sh', 'survivor.sh', 'sudo-agent.sh']) await copyFile(join(FIXTURES, 'hostile', f), join(bin, f));
    out = join(base, 'out');
    await mkdir(out);
    await chmod(out, 0o1777);
    repo = await makeRepo({
      'phuc-loop.yml': config({
        criteria: [{ id: 'done', run: 'grep -q done src/status.txt' }],
        agent: `sh ${join(bin, 'sudo-agent.sh')} ${out}`,
        writable: [out],
      }),
      'NORTHSTAR.md': NORTHSTAR,
      'src/status.txt': 'start\n',
    });
    await exec('chown', ['-R', `${user.uid}:${user.gid}`, repo]);
    run = await cliAs(user, repo, ['run'], { GITHUB_TOKEN: SECRET });
  });

  afterAll(async () => {
    await deleteLoopUser(user);
    if (base) await rm(base, { recursive: true, force: true });
    if (repo) await rm(join(repo, '..'), { recursive: true, force: true });
  });

  test('the loop has sudo, the run converges at user+pidns and says so in the certificate and the report', async () => {
    expect(await readText(join(base, 'out', 'id.txt'))).toMatch(/^uid=\d+\(phuc-agent\)/);
    expect(run.stdout).toContain('isolation: user+pidns (auto chose user+pidns: the loop has passwordless sudo)');
    expect(run.stderr).not.toMatch(/check workspace is under/); // judged under /var/lib/phuc-loop, not the temp folder
    expect(run.code).toBe(0);
    const ev = join(repo, 'evidence/loop');
    const report = await readJson<{ halting_certificate: { isolation: string; iteration: number } }>(join(ev, 'halting_report.json'));
    expect(report.halting_certificate.isolation).toBe('user+pidns');
    const cert = await readJson<{ isolation: string; type: string }>(join(ev, `iter_${report.halting_certificate.iteration}/certificate.json`));
    expect(cert).toMatchObject({ isolation: 'user+pidns', type: 'EXACT' });
    // verify --rerun judges a fresh checkout as the check user too, through the same sudo path.
    const verify = await cliAs(user, repo, ['verify', '--rerun'], { GITHUB_TOKEN: SECRET });
    // The whole output in the failure message: what did not verify, which criterion differed, or a crash's stack.
    if (verify.code !== 0) throw new Error(`verify --rerun exited ${String(verify.code)}:\n${verify.stdout}${verify.stderr}`);
    expect(verify.stdout).toContain('rerun: isolation user+pidns');
    expect(verify.stdout).not.toMatch(/warning/);
  });

  test("the agent cannot read the loop's GITHUB_TOKEN through /proc/<pid>/environ, and the token is in no evidence", async () => {
    const found = await readText(join(out, 'environ.txt'));
    expect(found).toContain('scanned');
    expect(found).not.toContain('FOUND');
    expect(found).not.toContain(SECRET);
    expect(found).not.toMatch(/MOUNTED/);
    expect(Number(/visible=(\d+)/.exec(found)?.[1])).toBeLessThan(10);
    expect(`${run.stdout}${run.stderr}`).not.toContain(SECRET);
    expect(await filesHolding(repo, SECRET)).toEqual([]);
    const history = await exec('git', ['-c', 'safe.directory=*', 'log', '-p', '--all'], { cwd: repo, maxBuffer: 64 * 1024 * 1024 });
    expect(history.stdout).toContain('src/status.txt');
    expect(history.stdout).not.toContain(SECRET);
  });

  test('a setsid double-fork survivor does not outlive the agent step', async () => {
    expect(await readText(join(out, 'escape.txt'))).toBe('started');
    expect(Number(await readText(join(out, 'heartbeat')))).toBeGreaterThan(0);
    const last = await readText(join(out, 'heartbeat'));
    await referenceBeats(base, 5);
    expect(await readText(join(out, 'heartbeat'))).toBe(last);
    // Killed already (the heartbeat stopped); on a busy machine the kernel may still be tearing down.
    const ns = await namespaceIn(join(out, 'ns'));
    await until(async () => (await processesIn(ns)).length === 0, 15_000, 'the ended namespace to empty');
    const agent = Number((await exec('id', ['-u', 'phuc-agent'])).stdout);
    await until(async () => (await processesOf(agent, repo)).length === 0, 15_000, "the agent user's processes to be gone");
  });

  test('checks.workspace: live: the checks run as the check user through sudo, and the tree comes back to the loop user', async () => {
    const live = await makeRepo({
      'phuc-loop.yml': config({
        criteria: [{ id: 'done', run: `id -un > ${join(out, 'live-check.txt')}; grep -q done src/status.txt` }],
        // Besides the work: a path past PATH_MAX, which root takes back through sudo, and a hard link to
        // a file of its own outside the tree, which its own mount of the tree refuses (EXDEV; a link
        // within one writable mount is copied on the way back: test/hostile/tree-return.test.ts).
        agent: `${DEEP_SH}; deep .; echo own > ${join(out, 'outside')} && ln ${join(out, 'outside')} linked
echo done > src/status.txt; printf '{"tried":["x"],"claims":[],"failures":[],"open_questions":[],"can_further_iteration_help":true}' > "$PHUC_REPORT_FILE"`,
        writable: [out],
        extra: 'checks:\n  workspace: live',
      }),
      'NORTHSTAR.md': NORTHSTAR,
      'src/status.txt': 'start\n',
    });
    try {
      await exec('chown', ['-R', `${user.uid}:${user.gid}`, live]);
      const r = await cliAs(user, live, ['run'], { GITHUB_TOKEN: SECRET });
      expect({ code: r.code, output: r.stdout + r.stderr }).toEqual({ code: 0, output: expect.stringContaining('halt: EXIT_CONVERGED') });
      expect(await readText(join(out, 'live-check.txt'))).toBe('phuc-check');
      expect(r.stdout).toContain('replay 1/1 (the work tree: checks.workspace live): certificate EXACT');
      expect((await exec('find', [live, '!', '-uid', String(user.uid)])).stdout).toBe('');
      const outside = await lstat(join(out, 'outside'));
      expect([outside.uid, outside.nlink]).toEqual([Number((await exec('id', ['-u', 'phuc-agent'])).stdout), 1]);
      expect(existsSync(join(live, 'linked'))).toBe(false);
    } finally {
      await exec('rm', ['-rf', '--', join(live, '..')]);
    }
  });

  test('the agent cannot sudo', async () => {
    const sudo = await readText(join(out, 'sudo.txt'));
    expect(sudo).toMatch(/sudo=denied$/);
    expect(sudo).not.toContain('sudo=ok');
  });
});
