// The sandbox on machines unlike this one, made in a private mount namespace of the loop's: one
// without perl (each command's namespace is then set up by the shell supervisor, mount(8)
// processes, instead of the perl one), and one whose scratch folders are nosuid, nodev, noexec
// (as on many hosts), which the command's private ones must stay. Each runs a few commands through
// the sandbox (user+pidns) and prints what they saw as JSON.
import { spawn } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../helpers/repo.js';
import { SYSTEM_DIRS, systemTool } from '../../src/engine/os/spawner.js';
import { probeIsolation } from '../../src/engine/os/sandbox.js';

const facts = await probeIsolation();
const canTest = process.getuid?.() === 0 && facts.userPidns === null && systemTool('perl') !== null && systemTool('unshare') !== null;

/** The host program: `probes` (name → shell script) each run as a check, their results as JSON on stdout. */
const host = (probes: Record<string, string>) => `
import { mkdtemp, chmod } from 'node:fs/promises';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { NodeProcessRunner } from ${JSON.stringify(join(ROOT, 'src/engine/os/process.ts'))};
import { resolveIsolation, Sandbox } from ${JSON.stringify(join(ROOT, 'src/engine/os/sandbox.ts'))};
import { systemTool } from ${JSON.stringify(join(ROOT, 'src/engine/os/spawner.ts'))};
const dir = await mkdtemp(join(tmpdir(), 'phuc-machine-work-'));
await chmod(dir, 0o777);
const sb = await Sandbox.create(await resolveIsolation('user+pidns'), { killGraceMs: 300 });
const runner = new NodeProcessRunner({ killGraceMs: 300 });
const out = { perl: systemTool('perl'), limits: sb.limits, probes: {} };
for (const [name, script] of Object.entries(${JSON.stringify(probes)})) {
  const r = await runner.run(await sb.wrap({ command: '/bin/sh', args: ['-c', script], cwd: dir, env: {}, timeoutMs: 30_000 }, 'check'));
  out.probes[name] = { code: r.exitCode, out: r.stdout.trim(), err: r.stderr.trim() };
}
await sb.dispose();
console.log(JSON.stringify(out));
`;

/** Runs the host program in a private mount namespace after `setup` (shell, as root) changed the machine there. */
async function onMachine(
  setup: (dir: string) => Promise<string>,
  probes: Record<string, string>,
): Promise<{ perl: string | null; limits: string[]; probes: Record<string, { code: number; out: string }> }> {
  const dir = await mkdtemp(join(tmpdir(), 'phuc-machine-'));
  try {
    const file = join(dir, 'host.mts');
    await writeFile(file, host(probes));
    const child = spawn(
      'unshare',
      ['-m', '--propagation', 'private', 'sh', '-c', `${await setup(dir)} && exec "$0" --import tsx "$1"`, process.execPath, file],
      {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise((r) => child.on('close', r));
    if (code !== 0) throw new Error(`the host failed (${String(code)}): ${stderr}`);
    return JSON.parse(stdout.trim().split('\n').at(-1)!);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

(canTest ? test : test.skip)('without perl the shell supervisor sets the namespace up, and the missing keyring protection is a limit', async () => {
  const r = await onMachine(
    async (dir) => {
      // Every perl of the system folders covered by a file that cannot run.
      const blocker = join(dir, 'not-perl');
      await writeFile(blocker, '');
      await chmod(blocker, 0o644);
      return SYSTEM_DIRS.map((d) => `{ [ ! -e ${d}/perl ] || mount --bind ${blocker} ${d}/perl; }`).join(' && ');
    },
    {
      exit: 'exit 7',
      own: 'echo mine > own.txt && cat own.txt',
      machine: 'touch /var/phuc-noperl-probe 2>/dev/null && echo wrote || echo refused',
      leave: 'echo left > /tmp/phuc-noperl-left && echo ok',
      find: 'cat /tmp/phuc-noperl-left 2>/dev/null || echo absent',
    },
  );
  expect(r.perl).toBeNull();
  expect(r.limits.join('\n')).toMatch(/perl is not installed/);
  expect(r.probes.exit.code).toBe(7);
  expect(r.probes.own).toMatchObject({ code: 0, out: 'mine' });
  expect(r.probes.machine.out).toBe('refused');
  expect(r.probes.leave).toMatchObject({ code: 0, out: 'ok' });
  expect(r.probes.find.out).toBe('absent');
});

(canTest ? test : test.skip)("a command's private scratch folders keep the host's nosuid, nodev and noexec", async () => {
  const scratch = ['/dev/shm', '/run/lock', '/var/tmp'];
  const r = await onMachine(
    () => Promise.resolve(scratch.map((d) => `{ [ ! -d ${d} ] || mount -t tmpfs -o nosuid,nodev,noexec,mode=1777 phuc-test ${d}; }`).join(' && ')),
    Object.fromEntries(
      scratch.map((d) => [
        d,
        `[ -d ${d} ] || { echo absent; exit; }; awk '$5 == "${d}" { o = $6 } END { print o }' /proc/self/mountinfo; cp /bin/true ${d}/t && { ${d}/t 2>/dev/null && echo ran || echo refused; }`,
      ]),
    ),
  );
  expect(r.perl).not.toBeNull();
  for (const d of scratch) {
    if (r.probes[d].out === 'absent') continue;
    const [options, ran] = r.probes[d].out.split('\n');
    expect([d, options.split(',').filter((o) => ['nosuid', 'nodev', 'noexec'].includes(o))]).toEqual([d, ['nosuid', 'nodev', 'noexec']]);
    expect([d, ran]).toEqual([d, 'refused']);
  }
});
