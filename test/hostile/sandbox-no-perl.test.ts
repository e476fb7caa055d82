// The sandbox where the system has no perl: each command's namespace is set up by the shell
// supervisor (mount(8) processes) instead of the perl one. The loop runs in a private mount
// namespace in which every perl of the system folders is covered by a file that cannot run, so
// both supervisors keep their promises on this machine (a read-only machine, private scratch
// folders, the command's own folders writable, its exit code passed on) and the missing keyring
// protection is said as a limit.
import { spawn } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../helpers/repo.js';
import { SYSTEM_DIRS, systemTool } from '../../src/engine/os/spawner.js';
import { probeIsolation } from '../../src/engine/os/sandbox.js';

const facts = await probeIsolation();
const canTest = process.getuid?.() === 0 && facts.userPidns === null && systemTool('perl') !== null && systemTool('unshare') !== null;

/** Runs in the namespace: one command per probe through the sandbox, its results as JSON on stdout. */
const HOST = `
import { mkdtemp, writeFile, chmod } from 'node:fs/promises';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { NodeProcessRunner } from ${JSON.stringify(join(ROOT, 'src/engine/os/process.ts'))};
import { resolveIsolation, Sandbox } from ${JSON.stringify(join(ROOT, 'src/engine/os/sandbox.ts'))};
import { systemTool } from ${JSON.stringify(join(ROOT, 'src/engine/os/spawner.ts'))};
const dir = await mkdtemp(join(tmpdir(), 'phuc-noperl-work-'));
await chmod(dir, 0o777);
const sb = await Sandbox.create(await resolveIsolation('user+pidns'), { killGraceMs: 300 });
const runner = new NodeProcessRunner({ killGraceMs: 300 });
const run = async (script) => {
  const r = await runner.run(await sb.wrap({ command: '/bin/sh', args: ['-c', script], cwd: dir, env: {}, timeoutMs: 30_000 }, 'check'));
  return { code: r.exitCode, out: r.stdout.trim(), err: r.stderr.trim() };
};
const out = {
  perl: systemTool('perl'),
  limits: sb.limits,
  exit: await run('exit 7'),
  own: await run('echo mine > own.txt && cat own.txt'),
  machine: await run('touch /var/phuc-noperl-probe 2>/dev/null && echo wrote || echo refused'),
  leave: await run('echo left > /tmp/phuc-noperl-left && echo ok'),
  find: await run('cat /tmp/phuc-noperl-left 2>/dev/null || echo absent'),
};
await sb.dispose();
console.log(JSON.stringify(out));
`;

(canTest ? test : test.skip)('without perl the shell supervisor sets the namespace up, and the missing keyring protection is a limit', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'phuc-noperl-'));
  try {
    const host = join(dir, 'host.mts');
    const blocker = join(dir, 'not-perl');
    await writeFile(host, HOST);
    await writeFile(blocker, '');
    await chmod(blocker, 0o644);
    const covers = SYSTEM_DIRS.map((d) => join(d, 'perl'))
      .map((p) => `[ ! -e ${p} ] || mount --bind ${blocker} ${p}`)
      .join(' && ');
    const child = spawn('unshare', ['-m', '--propagation', 'private', 'sh', '-c', `${covers} && exec "$0" --import tsx "$1"`, process.execPath, host], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise((r) => child.on('close', r));
    if (code !== 0) throw new Error(`the host failed (${String(code)}): ${stderr}`);
    const r = JSON.parse(stdout.trim().split('\n').at(-1)!);
    expect(r.perl).toBeNull();
    expect(r.limits.join('\n')).toMatch(/perl is not installed/);
    expect(r.exit.code).toBe(7);
    expect(r.own).toMatchObject({ code: 0, out: 'mine' });
    expect(r.machine.out).toBe('refused');
    expect(r.leave).toMatchObject({ code: 0, out: 'ok' });
    expect(r.find.out).toBe('absent');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
