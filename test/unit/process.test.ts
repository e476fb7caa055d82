import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeProcessRunner, OutputCapture, RUN_TAG_VAR } from '../../src/engine/os/process.js';
import type { ContainedRun, RunSpec } from '../../src/engine/os/ports.js';
import { ROOT } from '../helpers/repo.js';

const runner = new NodeProcessRunner({ killGraceMs: 300 });
let dir: string;
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
const spec = (command: string, extra: Partial<RunSpec> = {}): RunSpec => ({ command, cwd: dir, env, ...extra });

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'phuc-proc-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Dead: no such process, or a zombie (dead, waiting to be reaped by init, which some containers do late). */
function isGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
}

function pidsIn(file: string): number[] {
  return readFileSync(file, 'utf8').split(/\s+/).filter(Boolean).map(Number);
}

/** Test cleanup only: never leave a stray sleep behind, even when an assertion fails. */
function killAll(pids: number[]): void {
  for (const p of pids)
    try {
      process.kill(p, 'SIGKILL');
    } catch {
      // gone
    }
}

describe('NodeProcessRunner basics', () => {
  test('exit code, stdout and stderr of a shell command', async () => {
    const r = await runner.run(spec('printf out; printf err >&2; exit 3'));
    expect(r).toMatchObject({ exitCode: 3, signal: null, timedOut: false, aborted: false, stdout: 'out', stderr: 'err' });
    expect(r.durationMs).toBeGreaterThan(0);
  });

  test('args run the executable directly, without a shell', async () => {
    const r = await runner.run(spec(process.execPath, { args: ['-e', 'process.stdout.write(process.argv[1]); process.exit(5)', '$HOME; echo no'] }));
    expect(r.exitCode).toBe(5);
    expect(r.stdout).toBe('$HOME; echo no');
  });

  test('stdin is delivered and then closed', async () => {
    const r = await runner.run(spec('cat; echo "[eof]"', { stdin: 'héllo\nworld\n' }));
    expect(r.stdout).toBe('héllo\nworld\n[eof]\n');
    const big = 'x'.repeat(1_000_000);
    const r2 = await runner.run(
      spec(process.execPath, { args: ['-e', 'let n=0;process.stdin.on("data",c=>n+=c.length).on("end",()=>console.log(n))'], stdin: big }),
    );
    expect(r2.stdout.trim()).toBe(String(big.length));
  });

  test('without stdin the child sees end of input at once', async () => {
    const r = await runner.run(spec('cat; echo done', { timeoutMs: 3000 }));
    expect(r).toMatchObject({ exitCode: 0, stdout: 'done\n', timedOut: false });
  });

  test('a child that never reads its input does not fail the run (EPIPE)', async () => {
    const r = await runner.run(spec('exit 0', { stdin: 'y'.repeat(2_000_000) }));
    expect(r.exitCode).toBe(0);
  });

  test('env and cwd are the given ones, plus the run tag', async () => {
    const r = await runner.run(spec('pwd; echo "$FOO"; echo "${HOME:-unset}"; env | grep -c "^' + RUN_TAG_VAR + '="', { env: { ...env, FOO: 'bar' } }));
    expect(r.stdout.split('\n')).toEqual([dir, 'bar', 'unset', '1', '']);
  });

  test('a child ended by a signal reports the signal and a null exit code', async () => {
    const r = await runner.run(spec('kill -TERM $$; sleep 5'));
    expect(r).toMatchObject({ exitCode: null, signal: 'SIGTERM', timedOut: false, aborted: false });
  });

  test('an executable that does not exist resolves with 127 and the error', async () => {
    const r = await runner.run(spec('/nonexistent/phuc-agent', { args: ['x'] }));
    expect(r.exitCode).toBe(127);
    expect(r.stderr).toContain('ENOENT');
    expect(r.stderr).toContain('/nonexistent/phuc-agent');
    const viaShell = await runner.run(spec('phuc-no-such-command-xyz'));
    expect(viaShell.exitCode).toBe(127);
  });

  test('a missing cwd resolves with an error instead of throwing', async () => {
    const r = await runner.run({ command: 'true', cwd: join(dir, 'missing'), env });
    expect(r.exitCode).toBe(127);
    expect(r.stderr).toContain(join(dir, 'missing'));
  });
});

describe('output truncation', () => {
  test('keeps head and tail halves with a marker in the middle', async () => {
    const script = 'process.stdout.write("A".repeat(5000) + "B".repeat(5000)); process.stderr.write("e".repeat(3000))';
    const r = await runner.run(spec(process.execPath, { args: ['-e', script], maxOutputBytes: 1000 }));
    expect(r.stdout).toBe('A'.repeat(500) + '\n[... 9000 bytes omitted ...]\n' + 'B'.repeat(500));
    expect(r.stderr).toBe('e'.repeat(500) + '\n[... 2000 bytes omitted ...]\n' + 'e'.repeat(500));
  });

  test('output within the limit is kept whole', async () => {
    const r = await runner.run(spec('printf 0123456789', { maxOutputBytes: 10 }));
    expect(r.stdout).toBe('0123456789');
  });

  test('many small chunks and multi-byte characters are cut on character boundaries', () => {
    const c = new OutputCapture(9);
    for (const ch of 'ééééééééééé') c.push(Buffer.from(ch)); // 11 × 2 bytes
    const t = c.text();
    expect(t).not.toContain('\uFFFD');
    expect(t).toBe('éé\n[... 14 bytes omitted ...]\néé');
    const whole = new OutputCapture();
    whole.push(Buffer.from('abc'));
    whole.push(Buffer.from('def'));
    expect(whole.text()).toBe('abcdef');
  });
});

describe('killing the whole tree', () => {
  // Children in the group, a child in its own session (setsid), one in its own session with an
  // emptied environment (found only through its parent link), a nested shell with its own child,
  // and a child that ignores SIGTERM; the script then hangs.
  const tree = (pids: string) => `
    sleep 30 & echo $! >> ${pids}
    setsid sleep 31 & echo $! >> ${pids}
    env -i "$(command -v setsid)" "$(command -v sleep)" 34 & echo $! >> ${pids}
    sh -c 'sleep 32 & echo $! >> ${pids}; wait' & echo $! >> ${pids}
    sh -c 'trap "" TERM; echo $$ >> ${pids}; while :; do sleep 0.05; done' &
    echo $$ >> ${pids}
    sleep 33`;

  test('on timeout every process of the tree is gone, even setsid and TERM-ignoring ones', async () => {
    const pids = join(dir, 'pids');
    const r = await runner.run(spec(tree(pids), { timeoutMs: 500 }));
    const all = pidsIn(pids);
    try {
      expect(all).toHaveLength(7);
      expect(r).toMatchObject({ timedOut: true, aborted: false, exitCode: null });
      expect(r.signal).toMatch(/^SIG(TERM|KILL)$/);
      expect(r.durationMs).toBeLessThan(3000);
      for (const p of all) expect([p, isGone(p)]).toEqual([p, true]);
    } finally {
      killAll(all);
    }
  });

  test('abort through an AbortController kills the tree', async () => {
    const pids = join(dir, 'pids');
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 400);
    const r = await runner.run(spec(tree(pids), { signal: ac.signal, timeoutMs: 10_000 }));
    const all = pidsIn(pids);
    try {
      expect(r).toMatchObject({ aborted: true, timedOut: false, exitCode: null });
      expect(r.durationMs).toBeLessThan(3000);
      for (const p of all) expect([p, isGone(p)]).toEqual([p, true]);
    } finally {
      killAll(all);
    }
  });

  test('a child that ignores SIGTERM itself is killed after the grace period', async () => {
    const r = await runner.run(spec('trap "" TERM; while :; do sleep 0.05; done', { timeoutMs: 300 }));
    expect(r).toMatchObject({ timedOut: true, exitCode: null, signal: 'SIGKILL' });
    expect(r.durationMs).toBeLessThan(2500);
  });

  test('an already aborted signal starts nothing', async () => {
    const ac = new AbortController();
    ac.abort();
    const marker = join(dir, 'ran');
    const r = await runner.run(spec(`touch ${marker}`, { signal: ac.signal }));
    expect(r).toMatchObject({ aborted: true, exitCode: null });
    await new Promise((res) => setTimeout(res, 100));
    expect(existsSync(marker)).toBe(false);
  });

  test('a child that exits while a grandchild holds stdout resolves promptly; the grandchild is killed', async () => {
    const pids = join(dir, 'pids');
    const started = performance.now();
    const r = await runner.run(spec(`sleep 30 & echo $! > ${pids}; echo done`, { timeoutMs: 20_000 }));
    const all = pidsIn(pids);
    try {
      expect(r).toMatchObject({ exitCode: 0, stdout: 'done\n', timedOut: false });
      expect(performance.now() - started).toBeLessThan(2000);
      expect(isGone(all[0])).toBe(true);
    } finally {
      killAll(all);
    }
  });

  test('an orphan that called setsid after its parent exited is killed too (found by the run tag)', async () => {
    const pids = join(dir, 'pids');
    // The intermediate shell exits at once: the sleep has no parent link, no group and no session
    // in common with the child; only its environment still says where it came from.
    const r = await runner.run(spec(`sh -c 'setsid sleep 30 >/dev/null 2>&1 & echo $! > ${pids}'; sleep 0.1; echo done`, { timeoutMs: 20_000 }));
    const all = pidsIn(pids);
    try {
      expect(r).toMatchObject({ exitCode: 0, stdout: 'done\n' });
      expect(isGone(all[0])).toBe(true);
    } finally {
      killAll(all);
    }
  });

  test('a chain that forks and exits at once (each child outliving its parent, SIGTERM ignored) is swept until nothing of it is left', async () => {
    const pids = join(dir, 'pids');
    // Each generation forks the next and exits (keeping the run tag) for 2-3 s, then the last one
    // writes its pid and stays. After a second of it, a sweep reads thousands of new pids and finds
    // a generation that is gone by the time it kills.
    const runner = new NodeProcessRunner({ killGraceMs: 1500 });
    const chain = `use POSIX (); POSIX::setsid(); $SIG{TERM} = 'IGNORE'; my $t0 = time;
      while (time - $t0 < 3) { POSIX::_exit(0) if fork } open my $f, '>>', '${pids}'; print $f "$$\n"; close $f; sleep 30`;
    const r = await runner.run(
      spec(`perl -e "$CHAIN" </dev/null >/dev/null 2>&1 & sleep 1; echo started`, { env: { ...env, CHAIN: chain }, timeoutMs: 20_000 }),
    );
    expect(r).toMatchObject({ exitCode: 0, stdout: 'started\n' });
    const left = readdirSync('/proc')
      .filter((n) => /^\d+$/.test(n))
      .filter((n) => {
        try {
          return readFileSync(`/proc/${n}/cmdline`, 'utf8').includes(pids);
        } catch {
          return false;
        }
      });
    try {
      expect(left).toEqual([]);
    } finally {
      killAll([...left.map(Number), ...(existsSync(pids) ? pidsIn(pids) : [])]);
    }
  });

  test('a run without leftovers is not slowed down by the kill grace', async () => {
    const slow = new NodeProcessRunner({ killGraceMs: 5000 });
    const started = performance.now();
    const r = await slow.run(spec('echo hi'));
    expect(r.stdout).toBe('hi\n');
    expect(performance.now() - started).toBeLessThan(1500);
  });
});

describe('contained runs (RunSpec.contained, set by Sandbox.wrap)', () => {
  const containment = () => {
    const calls = { forceKill: [] as number[], release: 0 };
    const contained: ContainedRun = {
      graceMs: 100,
      forceKill: (pid) => {
        calls.forceKill.push(pid);
        process.kill(-pid, 'SIGKILL');
        return Promise.resolve();
      },
      release: () => {
        calls.release++;
        return Promise.resolve();
      },
    };
    return { calls, contained };
  };

  test('the environment is exactly the given one (no run tag) and the run is released once', async () => {
    const { calls, contained } = containment();
    const r = await runner.run(spec(`env | grep -c '^${RUN_TAG_VAR}=' || true`, { contained }));
    expect(r).toMatchObject({ exitCode: 0, stdout: '0\n' });
    expect(calls).toEqual({ forceKill: [], release: 1 });
  });

  test('a stop sends SIGTERM to the process group; the run is force-killed only when it outlasts the grace', async () => {
    const polite = containment();
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 200);
    const r1 = await runner.run(spec('sleep 30 & wait', { contained: polite.contained, signal: ac.signal }));
    expect(r1).toMatchObject({ aborted: true, exitCode: null, signal: 'SIGTERM' });
    expect(polite.calls).toEqual({ forceKill: [], release: 1 });

    const stubborn = containment();
    const r2 = await runner.run(spec('trap "" TERM; while :; do sleep 0.05; done', { contained: stubborn.contained, timeoutMs: 200 }));
    expect(r2).toMatchObject({ timedOut: true, signal: 'SIGKILL' });
    expect(stubborn.calls.forceKill).toHaveLength(1);
    expect(stubborn.calls.release).toBe(1);
    expect(r2.durationMs).toBeLessThan(200 + 100 + 1000 + 1500);
  });
});

describe("ShellSession (the loop's git shell)", () => {
  // A stand-in loop: starts a session, survives SIGINT (the loop handles Ctrl-C itself), and runs one
  // more command through the session on each line of input.
  const host = (dir: string) => `
    import { ShellSession } from ${JSON.stringify(join(ROOT, 'src/engine/os/process.ts'))};
    process.on('SIGINT', () => console.log('sigint'));
    const s = await ShellSession.start(${JSON.stringify(dir)}, { PATH: process.env.PATH });
    console.log('shell ' + (await s.run('echo $$')).stdout.trim());
    process.stdin.on('data', async () => {
      const r = await s.run('echo alive').catch((e) => ({ stdout: e.message }));
      console.log('after ' + r.stdout.trim());
    });`;

  test('a Ctrl-C at the terminal does not reach it, and it ends with the loop', async () => {
    const file = join(dir, 'host.mts');
    await writeFile(file, host(dir));
    // Its own process group, like a terminal's foreground job.
    const loop = spawn(process.execPath, ['--import', 'tsx', file], { cwd: ROOT, detached: true, stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    loop.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const waitOut = async (re: RegExp) => {
      const end = Date.now() + 30_000;
      while (!re.test(out) && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
      return re.exec(out);
    };
    try {
      const shell = Number((await waitOut(/shell (\d+)\n/))?.[1]);
      expect(shell).toBeGreaterThan(0);
      process.kill(-loop.pid!, 'SIGINT'); // what the terminal does on Ctrl-C
      await waitOut(/sigint\n/);
      loop.stdin.write('\n');
      expect((await waitOut(/after .*\n/))?.[0]).toBe('after alive\n');
      loop.kill('SIGKILL');
      const end = Date.now() + 10_000;
      while (!isGone(shell) && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
      expect(isGone(shell)).toBe(true);
    } finally {
      killAll([loop.pid!]);
    }
  });
});
