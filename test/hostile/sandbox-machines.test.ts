// The sandbox on machines unlike this one, made in a private mount namespace of the loop's: ones
// without bubblewrap or perl (every level above none is refused, auto included, naming the package),
// and one whose scratch folders are nosuid, nodev, noexec (as on many hosts), which the command's
// private ones must stay. Each runs a few commands through the sandbox (user+pidns) and prints what
// they saw as JSON.
import { spawn } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../helpers/repo.js';
import { SYSTEM_DIRS, systemTool } from '../../src/engine/os/spawner.js';
import { isolationFacts } from '../helpers/isolation.js';

const facts = await isolationFacts();
const canTest = process.getuid?.() === 0 && facts.userPidns === null && systemTool('unshare') !== null;

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
const iso = await resolveIsolation('auto').catch((e) => e);
if (iso instanceof Error) {
  console.log(JSON.stringify({ error: iso.message }));
  process.exit(0);
}
const sb = await Sandbox.create(iso, { killGraceMs: 300 });
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
): Promise<{ error?: string; perl: string | null; limits: string[]; probes: Record<string, { code: number; out: string }> }> {
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

/** Setup that covers every copy of `tool` in the system folders with a file that cannot run. */
const without = (tool: string) => async (dir: string) => {
  const blocker = join(dir, `not-${tool}`);
  await writeFile(blocker, '');
  await chmod(blocker, 0o644);
  return SYSTEM_DIRS.map((d) => `{ [ ! -e ${d}/${tool} ] || mount --bind ${blocker} ${d}/${tool}; }`).join(' && ');
};

(canTest ? test : test.skip)('without bubblewrap the loop is refused at auto (never run beside it), naming the package and agent.isolation', async () => {
  const r = await onMachine(without('bwrap'), {});
  expect(r.error).toBe(
    'agent.isolation: auto needs bubblewrap (the bwrap program), which is not installed: install the bubblewrap package (apt-get install bubblewrap), or set agent.isolation: none to run the agent and the checks beside the loop.',
  );
});

(canTest ? test : test.skip)('without perl (which runs sandbox-init.pl) the loop is refused at auto too, naming the package', async () => {
  const r = await onMachine(without('perl'), {});
  expect(r.error).toBe(
    'agent.isolation: auto needs perl (it runs sandbox-init.pl), which is not installed: install the perl-base package, or set agent.isolation: none to run the agent and the checks beside the loop.',
  );
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
