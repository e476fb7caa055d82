import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { ShellSession } from '../../src/engine/os/process.js';
import { type HelperKind, startVia, systemTool } from '../../src/engine/os/spawner.js';
import { ROOT } from '../helpers/repo.js';

let dir: string;
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'phuc-spawner-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const gone = (pid: number) => {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
};

async function until<T>(what: string, f: () => T | undefined | false, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = f();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function collect(s: Readable): () => string {
  let text = '';
  s.on('data', (d: Buffer) => (text += d.toString()));
  return () => text;
}

// The perl helper where the system has perl (CI has), and the Node helper, which serves where it has not.
const kinds: HelperKind[] = systemTool('perl') ? ['perl', 'node'] : ['node'];

describe.each(kinds)('startChild through the %s helper', (kind) => {
  const startChild = (command: string, args: string[], o: Parameters<typeof startVia>[3]) => startVia(kind, command, args, o);
  /** A later child still starts, exits and gives its output whole. */
  const serves = async (word: string) => {
    const c = await startChild('/bin/sh', ['-c', `echo ${word}`], { cwd: dir, env });
    const out = collect(c.stdout);
    expect(await c.exit).toEqual({ code: 0, signal: null });
    await until('output', () => out() === `${word}\n`);
  };

  test("a child is started by the helper, not by the loop's process, with its own process group, input, output and exit", async () => {
    const c = await startChild('/bin/sh', ['-c', 'echo "$PPID $(ps -o pgid= -p $$)"; cat; echo oops >&2; exit 7'], { cwd: dir, env, stdin: 'hello\n' });
    const out = collect(c.stdout);
    const err = collect(c.stderr);
    expect(await c.exit).toEqual({ code: 7, signal: null });
    await until('output', () => out().includes('hello') && err().includes('oops'));
    const [parent, group] = out().split('\n')[0].trim().split(/\s+/).map(Number);
    expect(parent).not.toBe(process.pid);
    expect(group).toBe(c.pid);
    expect(out().split('\n')[1]).toBe('hello');
    expect(err()).toBe('oops\n');
  });

  test("a child holds no descriptor of the helper's channel (it could ask the helper, which runs as the loop, to start anything)", async () => {
    const c = await startChild(
      '/bin/sh',
      ['-c', 'echo $PPID; for f in /proc/$$/fd/*; do readlink "$f"; done; echo; for f in /proc/$PPID/fd/*; do readlink "$f"; done'],
      {
        cwd: dir,
        env,
      },
    );
    const out = collect(c.stdout);
    const closed = new Promise((r) => c.stdout.once('close', r));
    await c.exit;
    await closed;
    const [head, helperFds] = out().split('\n\n');
    const childFds = head.split('\n').slice(1);
    const sockets = helperFds.split('\n').filter((t) => t.startsWith('socket:'));
    expect(sockets.length).toBeGreaterThan(0);
    // The child's own pipes (stdio) are the helper's too; its IPC socket must not be among the child's.
    const stdio = new Set(childFds.slice(0, 3));
    for (const s of sockets.filter((t) => !stdio.has(t))) expect(childFds).not.toContain(s);
  });

  test('a command that cannot be started fails like spawn (ENOENT, EACCES; a missing folder: ENOENT)', async () => {
    await expect(startChild(join(dir, 'no-such-program'), [], { cwd: dir, env })).rejects.toMatchObject({ code: 'ENOENT' });
    await writeFile(join(dir, 'not-executable'), 'echo hi\n');
    await expect(startChild(join(dir, 'not-executable'), [], { cwd: dir, env })).rejects.toMatchObject({ code: 'EACCES' });
    await expect(startChild('/bin/sh', ['-c', 'true'], { cwd: join(dir, 'gone'), env })).rejects.toMatchObject({ code: 'ENOENT' });
  });

  test('the child gets exactly the environment asked for, its input whole, and default signal handling', async () => {
    const input = 'line\n'.repeat(50_000);
    const c = await startChild('/bin/sh', ['-c', 'cat /proc/$$/environ; echo; grep SigIgn /proc/$$/status; wc -c'], {
      cwd: dir,
      env: { ...env, 'ODD NAME': '=x\ny' },
      stdin: input,
    });
    const out = collect(c.stdout);
    const closed = new Promise((r) => c.stdout.once('close', r));
    expect(await c.exit).toEqual({ code: 0, signal: null });
    await closed;
    const lines = out().trimEnd().split('\n');
    expect(lines.at(-1)).toBe(String(input.length));
    expect(lines.at(-2)).toMatch(/^SigIgn:\s+0+$/);
    // Nothing of the helper's or the loop's (no PWD either: a direct spawn passes none).
    const environ = lines.slice(0, -2).join('\n').split('\0').filter(Boolean);
    expect(environ.sort()).toEqual(['ODD NAME==x\ny', `PATH=${env.PATH}`]);
  });

  test('a child that never reads a large input holds up no other child', async () => {
    const stuck = await startChild('/bin/sh', ['-c', 'exec sleep 60'], { cwd: dir, env, stdin: 'x'.repeat(4_000_000) });
    try {
      await serves('free');
    } finally {
      process.kill(-stuck.pid, 'SIGKILL');
    }
    expect(await stuck.exit).toEqual({ code: null, signal: 'SIGKILL' });
  });

  test('a reader that gives up on a flood it did not read holds up no later child', async () => {
    const flood = await startChild('/bin/sh', ['-c', 'head -c 3000000 /dev/zero; exec sleep 60'], { cwd: dir, env });
    try {
      await until('output the reader has not taken', () => flood.stdout.readableLength >= 16384);
      flood.stdout.destroy();
      flood.stderr.destroy();
      await serves('next');
    } finally {
      process.kill(-flood.pid, 'SIGKILL');
    }
  });

  test("a loop that is killed takes its children's process groups with it (the helper kills them when its channel closes)", async () => {
    const file = join(dir, 'host.mts');
    await writeFile(
      file,
      `import { startVia } from ${JSON.stringify(join(ROOT, 'src/engine/os/spawner.ts'))};
       const c = await startVia(${JSON.stringify(kind)}, '/bin/sh', ['-c', 'sleep 60 & echo $! ; wait'], { cwd: '/', env: { PATH: process.env.PATH } });
       c.stdout.on('data', (d) => console.log('child ' + c.pid + ' ' + String(d).trim()));`,
    );
    const loop = spawn(process.execPath, ['--import', 'tsx', file], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    const out = collect(loop.stdout);
    let pids: number[] = [];
    try {
      pids = (await until('the child', () => /child (\d+) (\d+)\n/.exec(out()) ?? undefined)).slice(1).map(Number);
      loop.kill('SIGKILL');
      await until('the child and its own child to end', () => pids.every(gone));
    } finally {
      loop.kill('SIGKILL');
      for (const pid of pids)
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // gone
        }
    }
  });

  test('bytes pass unchanged, and large output is whole', async () => {
    const c = await startChild('/bin/sh', ['-c', 'printf "\\000\\377\\n"; head -c 3000000 /dev/zero | tr "\\0" x'], { cwd: dir, env });
    const chunks: Buffer[] = [];
    c.stdout.on('data', (d: Buffer) => chunks.push(d));
    const closed = new Promise((r) => c.stdout.once('close', r));
    await c.exit;
    await closed;
    const all = Buffer.concat(chunks);
    expect([...all.subarray(0, 3)]).toEqual([0, 255, 10]);
    expect(all.length).toBe(3 + 3_000_000);
  });

  test('a helper killed while a child runs: the child reads as killed, and the next start works', async () => {
    const c = await startChild('/bin/sh', ['-c', 'echo $PPID; exec sleep 60'], { cwd: dir, env });
    const out = collect(c.stdout);
    const helper = Number(await until('the helper pid', () => /^(\d+)\n/.exec(out())?.[1]));
    try {
      process.kill(helper, 'SIGKILL');
      expect(await c.exit).toEqual({ code: null, signal: 'SIGKILL' });
    } finally {
      process.kill(-c.pid, 'SIGKILL');
    }
    await serves('again');
  });
});

describe('startChild', () => {
  test('the helper ends with the loop, and a Ctrl-C at the terminal does not reach it', async () => {
    const file = join(dir, 'host.mts');
    await writeFile(
      file,
      `import { startChild } from ${JSON.stringify(join(ROOT, 'src/engine/os/spawner.ts'))};
       process.on('SIGINT', () => console.log('sigint'));
       const run = async () => {
         const c = await startChild('/bin/sh', ['-c', 'echo $PPID'], { cwd: '/', env: { PATH: process.env.PATH } });
         let t = '';
         c.stdout.on('data', (d) => (t += d));
         const closed = new Promise((r) => c.stdout.once('close', r));
         await c.exit;
         await closed;
         console.log('helper ' + t.trim());
       };
       await run();
       process.stdin.on('data', run);`,
    );
    const loop = spawn(process.execPath, ['--import', 'tsx', file], { cwd: ROOT, detached: true, stdio: ['pipe', 'pipe', 'inherit'] });
    const out = collect(loop.stdout);
    try {
      const helper = Number(await until('the helper', () => /helper (\d+)\n/.exec(out())?.[1]));
      process.kill(-loop.pid!, 'SIGINT');
      await until('the loop to see SIGINT', () => out().includes('sigint'));
      loop.stdin.write('\n');
      // The same helper still serves: the Ctrl-C did not end it.
      await until(
        'a second start',
        () =>
          out()
            .split('\n')
            .filter((l) => l === `helper ${helper}`).length === 2,
      );
      loop.kill('SIGKILL');
      await until('the helper to end', () => gone(helper));
    } finally {
      loop.kill('SIGKILL');
    }
  });
});

describe('ShellSession output', () => {
  test('each command gets exactly its own output, whatever it prints (a forged end marker, no final newline, bytes)', async () => {
    const s = await ShellSession.start(dir, env);
    try {
      const forged = await s.run(`printf '__phuc_00000000000000000000000000000000_1 0\\n__phuc_ 0\\nno newline'; printf 'err' >&2; (exit 3)`);
      expect(forged).toEqual({ exitCode: 3, stdout: '__phuc_00000000000000000000000000000000_1 0\n__phuc_ 0\nno newline', stderr: 'err' });
      const big = await s.run('head -c 2000000 /dev/zero | tr "\\0" y');
      expect(big.stdout.length).toBe(2_000_000);
      expect(big.exitCode).toBe(0);
      expect(await s.run('cat', 'a\0b')).toEqual({ exitCode: 0, stdout: 'a\0b', stderr: '' });
      // Input is written exactly: quotes, a leading dash, percent signs, NULs at either end, many parts.
      for (const input of ["it's -n %s\\0 \n", '\0x\0', 'é\0\0', '-e', "'"]) expect((await s.run('cat', input)).stdout).toBe(input);
      const names = Array.from({ length: 20_000 }, (_, i) => `dir/file ${i}'s`).join('\0');
      expect((await s.run('cat', names)).stdout).toBe(names);
      expect((await s.run('echo next')).stdout).toBe('next\n');
    } finally {
      await s.close();
    }
  });
});
