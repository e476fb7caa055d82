// What the hostile tests look at in /proc: the processes of a PID namespace or of a user, and a
// heartbeat to wait on instead of a fixed sleep.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdir, readFile, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import { FIXTURES, until } from './repo.js';

export const readText = (p: string) =>
  readFile(p, 'utf8').then(
    (t) => t.trim(),
    () => '',
  );

export function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // gone
  }
}

/** The PID namespace a hostile agent recorded (`readlink /proc/self/ns/pid`). */
export async function namespaceIn(file: string): Promise<string> {
  const ns = await readText(file);
  expect(ns).toMatch(/^pid:\[\d+\]$/);
  return ns;
}

/** Live processes (not zombies) in the PID namespace `ns` (as `readlink /proc/self/ns/pid` printed it). */
export async function processesIn(ns: string): Promise<number[]> {
  const pids = (await readdir('/proc')).filter((n) => /^\d+$/.test(n));
  const hits = await Promise.all(
    pids.map(async (p) => {
      const [link, stat] = await Promise.all([readlink(`/proc/${p}/ns/pid`).catch(() => ''), readText(`/proc/${p}/stat`)]);
      return link === ns && !/\) Z /.test(stat) ? Number(p) : null;
    }),
  );
  return hits.filter((p): p is number => p !== null);
}

/** Live processes of `uid`, only those whose working folder lies under `dir` when it is given. */
export async function processesOf(uid: number, dir?: string): Promise<number[]> {
  const pids = (await readdir('/proc')).filter((n) => /^\d+$/.test(n));
  const hits = await Promise.all(
    pids.map(async (p) => {
      const [status, cwd] = await Promise.all([readText(`/proc/${p}/status`), readlink(`/proc/${p}/cwd`).catch(() => '')]);
      const live = !/^State:\s+Z/m.test(status);
      return live && new RegExp(`^Uid:\\s+${uid}\\s`, 'm').test(status) && (dir === undefined || cwd.startsWith(dir)) ? Number(p) : null;
    }),
  );
  return hits.filter((p): p is number => p !== null);
}

/**
 * Waits until a live writer at the survivor's pace (test/fixtures/hostile/survivor.sh: a counter
 * every 50 ms) would have beaten `beats` times: a reference beating beside the test, so a busy
 * machine slows both alike. No fixed sleep. `dir` takes its files.
 */
export async function referenceBeats(dir: string, beats: number): Promise<void> {
  const file = join(dir, `reference-${randomBytes(3).toString('hex')}`);
  const ref = spawn('/bin/sh', [join(FIXTURES, 'hostile', 'survivor.sh'), file, `${file}.pid`], { stdio: 'ignore' });
  try {
    await until(async () => Number(await readText(file)) >= beats, 15_000, 'the reference heartbeat');
  } finally {
    ref.kill('SIGKILL');
    const pid = Number(await readText(`${file}.pid`));
    if (pid > 0) killQuietly(pid);
  }
}
