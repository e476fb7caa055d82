// Runs agent and check processes with async spawn only. Every child gets its own session and process
// group (so a Ctrl-C at the terminal reaches the loop, never its children directly), and everything
// it started is killed when it is done, timed out or aborted: no orphan of an iteration may outlive
// it (an orphan could keep editing the repository during the next one). A child wrapped by the
// sandbox (RunSpec.contained) lives in its own PID namespace, whose end kills everything in it;
// every other child is contained by a sweep of the process table.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { Readable, Writable } from 'node:stream';
import { shellQuote } from '../agent/agents.js';
import type { ContainedRun, ProcessRunner, RunResult, RunSpec } from './ports.js';
import { trackProcessGroup } from './signals.js';
import { startChild, type Started } from './spawner.js';

/**
 * Set in every child's environment with a value unique to the run. A descendant that called setsid
 * and whose parent already exited has lost both its process group and its ppid link to the child;
 * /proc/<pid>/environ still carries this tag, so it is found and killed all the same.
 */
export const RUN_TAG_VAR = 'PHUC_RUN_TAG';

/** setTimeout fires at once for longer delays. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface NodeProcessRunnerOptions {
  /** Between SIGTERM and SIGKILL. */
  killGraceMs?: number;
  /** After the child exits (and its leftovers are killed), how long to wait for the pipes to close. */
  drainMs?: number;
}

export class NodeProcessRunner implements ProcessRunner {
  private readonly killGraceMs: number;
  private readonly drainMs: number;

  constructor(options: NodeProcessRunnerOptions = {}) {
    this.killGraceMs = options.killGraceMs ?? 1500;
    this.drainMs = options.drainMs ?? 250;
  }

  run(spec: RunSpec): Promise<RunResult> {
    const result = this.runOnce(spec);
    const c = spec.contained;
    return c ? result.then(async (r) => (await c.release().catch(() => undefined), r)) : result;
  }

  private async runOnce(spec: RunSpec): Promise<RunResult> {
    const started = performance.now();
    const elapsed = () => performance.now() - started;
    if (spec.signal?.aborted) return { exitCode: null, signal: null, timedOut: false, aborted: true, stdout: '', stderr: '', durationMs: elapsed() };

    const tag = randomUUID();
    let child: Started;
    try {
      // A contained child's environment is exactly the role's: it needs no tag to be found.
      const env = spec.contained ? spec.env : { ...spec.env, [RUN_TAG_VAR]: tag };
      const [command, args] = spec.args ? [spec.command, spec.args] : ['/bin/sh', ['-c', spec.command]];
      child = await startChild(command, args, { cwd: spec.cwd, env, stdin: spec.stdin });
    } catch (e) {
      return spawnFailure(e, spec, elapsed());
    }

    return new Promise<RunResult>((resolve) => {
      const out = new OutputCapture(spec.maxOutputBytes);
      const err = new OutputCapture(spec.maxOutputBytes);
      let exited = false;
      let timedOut = false;
      let aborted = false;
      let killing: Promise<void> | null = null;
      const pid = child.pid;
      const contained = spec.contained;
      const rootStart = contained ? null : readStartTime(pid);
      const since = contained ? null : forksSince(pid);
      const untrack = trackProcessGroup(pid);
      const exitedP = child.exit.then(() => undefined);

      const killTree = () => {
        if (killing) return;
        killing = contained ? stopContained(pid, exitedP, contained) : terminateTree(pid, true, tag, rootStart, since, this.killGraceMs);
      };
      const timer =
        spec.timeoutMs === undefined
          ? undefined
          : setTimeout(
              () => {
                if (exited) return;
                timedOut = true;
                killTree();
              },
              Math.min(Math.max(0, spec.timeoutMs), MAX_TIMER_MS),
            );
      let idle = false;
      let idleTimer: NodeJS.Timeout | undefined;
      const quiet = () => {
        if (spec.idleMs === undefined || exited) return;
        clearTimeout(idleTimer);
        idleTimer = setTimeout(
          () => {
            if (exited || timedOut || aborted) return;
            idle = true;
            killTree();
          },
          Math.min(Math.max(0, spec.idleMs), MAX_TIMER_MS),
        );
      };
      quiet();
      const onAbort = () => {
        if (exited) return;
        aborted = true;
        killTree();
      };
      spec.signal?.addEventListener('abort', onAbort, { once: true });
      // An abort that came while the child was being started.
      if (spec.signal?.aborted) onAbort();
      const cleanup = () => {
        if (timer) clearTimeout(timer);
        clearTimeout(idleTimer);
        spec.signal?.removeEventListener('abort', onAbort);
      };

      child.stdout.on('data', (c: Buffer) => {
        out.push(c);
        quiet();
      });
      child.stderr.on('data', (c: Buffer) => {
        err.push(c);
        quiet();
      });
      const closed = Promise.all([streamClosed(child.stdout), streamClosed(child.stderr)]);

      void child.exit.then(async ({ code, signal }) => {
        exited = true;
        cleanup();
        untrack();
        try {
          await killing;
          // Anything the child left running (its group, its session, its tagged descendants). A
          // contained child has ended only once its namespace was empty.
          if (!contained && (spec.reapLeftovers !== false || killing)) await terminateTree(pid, false, tag, rootStart, since, this.killGraceMs);
        } catch {
          // Killing is best effort; the result must still be reported.
        }
        // A pipe held open by a process that could not be killed must not hang the loop.
        let drainTimer: NodeJS.Timeout | undefined;
        const drained = await Promise.race([closed.then(() => true), new Promise<boolean>((r) => (drainTimer = setTimeout(() => r(false), this.drainMs)))]);
        clearTimeout(drainTimer);
        if (!drained) {
          child.stdout.destroy();
          child.stderr.destroy();
        }
        resolve({
          exitCode: signal ? null : code,
          signal: signal ?? null,
          timedOut,
          ...(idle ? { idle } : {}),
          aborted,
          stdout: out.text(),
          stderr: err.text(),
          durationMs: elapsed(),
        });
      });
    });
  }
}

/** SIGTERM to the group (the command may finish its work), the namespace's end after the grace. */
async function stopContained(pid: number, exited: Promise<void>, c: ContainedRun): Promise<void> {
  signalPid(-pid, 'SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const ended = await Promise.race([exited.then(() => true), new Promise<boolean>((r) => (timer = setTimeout(() => r(false), c.graceMs)))]);
  clearTimeout(timer);
  if (!ended) await c.forceKill(pid);
}

function spawnFailure(e: unknown, spec: RunSpec, durationMs: number): RunResult {
  const code = (e as NodeJS.ErrnoException).code;
  const message = e instanceof Error ? e.message : String(e);
  return {
    // Shell conventions: 126 found but not executable, 127 not found.
    exitCode: code === 'EACCES' || code === 'ENOEXEC' ? 126 : 127,
    signal: null,
    timedOut: false,
    aborted: false,
    stdout: '',
    stderr: `${message} (command: ${spec.command}, cwd: ${spec.cwd})\n`,
    durationMs,
  };
}

function streamClosed(s: NodeJS.ReadableStream | null | undefined): Promise<void> {
  if (!s) return Promise.resolve();
  return new Promise((resolve) => {
    s.once('close', () => resolve());
    s.once('error', () => resolve());
  });
}

const delay = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Keeps the head and the tail of a stream when it exceeds `max` bytes. */
export class OutputCapture {
  private readonly headLimit: number;
  private readonly tailLimit: number;
  private head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private total = 0;

  constructor(private readonly max?: number) {
    const m = max === undefined ? Infinity : Math.max(0, Math.floor(max));
    this.headLimit = Math.floor(m / 2);
    this.tailLimit = m - this.headLimit;
  }

  push(chunk: Buffer): void {
    this.total += chunk.length;
    if (this.max === undefined) {
      this.head.push(chunk);
      return;
    }
    const room = this.headLimit - this.headBytes;
    if (room > 0) {
      const part = chunk.length <= room ? chunk : chunk.subarray(0, room);
      this.head.push(part);
      this.headBytes += part.length;
      chunk = chunk.subarray(part.length);
    }
    if (chunk.length === 0) return;
    this.tail.push(chunk);
    this.tailBytes += chunk.length;
    // Drop whole chunks that lie entirely before the last tailLimit bytes.
    while (this.tail.length > 1 && this.tailBytes - this.tail[0].length >= this.tailLimit) this.tailBytes -= this.tail.shift()?.length ?? 0;
  }

  text(): string {
    const head = Buffer.concat(this.head);
    if (this.max === undefined || this.total <= this.headLimit + this.tailLimit) return Buffer.concat([head, ...this.tail]).toString('utf8');
    let tail = Buffer.concat(this.tail);
    tail = tail.subarray(Math.max(0, tail.length - this.tailLimit));
    // Cut on character boundaries so neither half ends in a broken UTF-8 sequence.
    let h = head.length;
    if (h > 0 && h < this.total) h = utf8Start(head, h);
    let t = 0;
    while (t < tail.length && (tail[t] & 0xc0) === 0x80) t++;
    const keptHead = head.subarray(0, h);
    const keptTail = tail.subarray(t);
    const omitted = this.total - keptHead.length - keptTail.length;
    return `${keptHead.toString('utf8')}\n[... ${omitted} bytes omitted ...]\n${keptTail.toString('utf8')}`;
  }
}

/** The largest cut ≤ end that does not split a UTF-8 sequence of buf[0..end). */
function utf8Start(buf: Buffer, end: number): number {
  let i = end - 1;
  let back = 0;
  while (i >= 0 && back < 4 && (buf[i] & 0xc0) === 0x80) {
    i--;
    back++;
  }
  if (i < 0) return end;
  const lead = buf[i];
  const len = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return i + len > end ? i : end;
}

// ---------------------------------------------------------------------------------------------------
// Process tree discovery through /proc (Linux). Elsewhere only the process group is signalled.

interface ProcInfo {
  pid: number;
  ppid: number;
  pgrp: number;
  sid: number;
  state: string;
  start: string;
}

function parseStat(text: string): ProcInfo | null {
  const close = text.lastIndexOf(')');
  if (close < 0) return null;
  const pid = Number.parseInt(text, 10);
  // Fields after "(comm)": state ppid pgrp session tty_nr tpgid flags ... starttime is field 22.
  const f = text.slice(close + 2).split(' ');
  if (f.length < 20 || !Number.isFinite(pid)) return null;
  return { pid, state: f[0], ppid: Number(f[1]), pgrp: Number(f[2]), sid: Number(f[3]), start: f[19] };
}

// /proc is read synchronously: its files are made in memory when read, a few microseconds each,
// where each asynchronous read costs four round trips through the thread pool (a sweep after every
// child made them a large part of a check's cost).
function readProc(pid: number): ProcInfo | null {
  try {
    return parseStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return null;
  }
}

/** When `pid` started (clock ticks since boot, /proc/<pid>/stat field 22): with the pid, it names one process. */
export function readStartTime(pid: number): string | null {
  return readProc(pid)?.start ?? null;
}

/**
 * Whether `pid` runs (a zombie left by a killed process, waiting to be reaped, does not) and, given
 * its start time, is still that process rather than a reused pid.
 */
export function processRunning(pid: number, start: string | null = null): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const info = readProc(pid);
  if (!info) return start === null;
  return info.state !== 'Z' && (start === null || info.start === start);
}

/** Where a sweep may start: the root's pid and the kernel's count of forks when it was started. */
interface Since {
  pid: number;
  forks: number;
}

const readNumber = (file: string, pattern = /^(\d+)/m): number | null => {
  try {
    const m = pattern.exec(readFileSync(file, 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
};
const forkCount = () => readNumber('/proc/stat', /^processes (\d+)$/m);
let pidMax: number | null | undefined;

function forksSince(pid: number): Since | null {
  const forks = forkCount();
  return forks === null ? null : { pid, forks };
}

/**
 * The pids that can belong to something started after `since.pid`: pids are handed out in cyclic
 * order, so everything started since lies in (since.pid, last], unless the counter went once round
 * (checked by the number of forks since). A sweep then reads a handful of stat files instead of the
 * whole table (the /proc sweep after every check was the largest cost of an iteration at `none`).
 */
function startedSince(since: Since | null): { first: number; last: number; max: number } | null {
  if (!since) return null;
  const [last, forks, max] = [readNumber('/proc/sys/kernel/ns_last_pid'), forkCount(), (pidMax ??= readNumber('/proc/sys/kernel/pid_max'))];
  if (last === null || forks === null || max === null || forks - since.forks >= max / 2) return null;
  return { first: since.pid, last, max };
}

/** A window this small is read pid by pid (a missing one costs a failed open), not through a listing of /proc. */
const PROBE_WINDOW = 1024;

function readProcTable(since: Since | null = null): Map<number, ProcInfo> | null {
  const window = startedSince(since);
  const size = window ? (window.first <= window.last ? window.last - window.first : window.max - window.first + window.last) + 1 : Infinity;
  let pids: number[];
  if (window && size <= PROBE_WINDOW) pids = Array.from({ length: size }, (_, i) => ((window.first + i - 1) % window.max) + 1);
  else {
    try {
      pids = readdirSync('/proc')
        .filter((n) => /^\d+$/.test(n))
        .map(Number);
    } catch {
      return null;
    }
    if (pids.length === 0) return null;
    if (window) {
      const { first, last } = window;
      pids = pids.filter((p) => (first <= last ? p >= first && p <= last : p >= first || p <= last));
    }
  }
  const table = new Map<number, ProcInfo>();
  for (const pid of pids) {
    const p = readProc(pid);
    if (p) table.set(p.pid, p);
  }
  // What started while the table was read lies past the window's end: read on until no pid is new
  // (a few rounds), so a fast-forking tree is not always a step ahead of its sweep.
  for (let round = 0, last = window?.last; window && last !== undefined && round < 8; round++) {
    const now = readNumber('/proc/sys/kernel/ns_last_pid');
    if (now === null || now === last) break;
    const count = Math.min(PROBE_WINDOW, now > last ? now - last : window.max - last + now);
    // The newest `count` pids, up to `now` (past a burst larger than that, the newest matter).
    for (let i = count - 1; i >= 0; i--) {
      const p = readProc(((now - i - 1 + window.max) % window.max) + 1);
      if (p) table.set(p.pid, p);
    }
    last = now;
  }
  return table;
}

/** Every live process whose chain of parents leads to `pid` (not `pid` itself). */
export function processDescendants(pid: number): number[] {
  const table = readProcTable();
  if (!table) return [];
  const found = new Set<number>([pid]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const p of table.values())
      if (!found.has(p.pid) && found.has(p.ppid)) {
        found.add(p.pid);
        grew = true;
      }
  }
  found.delete(pid);
  return [...found];
}

function hasTag(pid: number, needle: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/environ`).includes(needle);
  } catch {
    return false; // gone, or another user's process: not ours either way
  }
}

/**
 * Every live process of the tree: the root (while it runs), members of its process group or
 * session, processes carrying the run tag, and all their descendants by ppid links. Start times are
 * kept so a pid reused by an unrelated process is never signalled.
 */
function collectTree(
  root: number,
  rootAlive: boolean,
  tag: string,
  rootStart: string | null,
  table: Map<number, ProcInfo>,
  seeds: Map<number, string> = new Map(),
): Map<number, string> {
  const found = new Map<number, string>();
  for (const [pid, start] of seeds) if (table.get(pid)?.start === start) found.set(pid, start);
  const candidates: ProcInfo[] = [];
  for (const p of table.values()) {
    if (p.pid === process.pid || p.pid === 1 || p.state === 'Z') continue;
    if (p.pid === root) {
      if (rootAlive && (rootStart === null || p.start === rootStart)) found.set(p.pid, p.start);
      continue;
    }
    if (p.pgrp === root || p.sid === root) found.set(p.pid, p.start);
    // Descendants cannot have started before the root.
    else if (rootStart === null || Number(p.start) >= Number(rootStart)) candidates.push(p);
  }
  const needle = `${RUN_TAG_VAR}=${tag}`;
  // Newest first: the last pids read are the likeliest still to run (a fork-and-exit chain's one
  // live generation is its newest), and each read of a gone one costs the next its time.
  for (let i = candidates.length - 1; i >= 0; i--) if (hasTag(candidates[i].pid, needle)) found.set(candidates[i].pid, candidates[i].start);
  // Close over ppid links (a setsid'd descendant whose parent is still alive).
  let grew = true;
  while (grew) {
    grew = false;
    for (const p of table.values()) {
      if (found.has(p.pid) || p.pid === process.pid || p.pid === 1 || p.state === 'Z') continue;
      if (found.has(p.ppid)) {
        found.set(p.pid, p.start);
        grew = true;
      }
    }
  }
  return found;
}

function stillAlive(targets: Map<number, string>): Map<number, string> {
  const alive = new Map<number, string>();
  for (const [pid, start] of targets) {
    const p = readProc(pid);
    // A zombie is dead, only not yet reaped (by us or by init).
    if (p && p.start === start && p.state !== 'Z') alive.set(pid, start);
  }
  return alive;
}

function signalPid(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // already gone
  }
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor(done: () => boolean, timeoutMs: number, stepMs: number): Promise<void> {
  const until = performance.now() + timeoutMs;
  while (!done() && performance.now() < until) await delay(stepMs);
}

/**
 * SIGTERM to the process group and every process of the tree (collected before signalling, while
 * the ppid links still lead to them), then SIGKILL to whatever survives the grace period.
 */
async function terminateTree(root: number, rootAlive: boolean, tag: string, rootStart: string | null, since: Since | null, graceMs: number): Promise<void> {
  const table = readProcTable(since);
  if (!table) {
    if (!rootAlive && !groupAlive(root)) return;
    signalPid(-root, 'SIGTERM');
    await waitFor(() => !groupAlive(root), graceMs, 50);
    signalPid(-root, 'SIGKILL');
    return;
  }
  let targets = collectTree(root, rootAlive, tag, rootStart, table);
  if (targets.size === 0) return;
  // Every process group a member was seen in: a group is killed whole and at once (a fork under
  // way gets the signal too), so a chain of short-lived generations that one sweep misses, each
  // gone before its environment is read, is still ended through the group they share.
  const own = readProc(process.pid)?.pgrp;
  const groups = new Set<number>();
  const noteGroups = (found: Map<number, string>, from: Map<number, ProcInfo> | null) => {
    for (const pid of found.keys()) {
      const group = from?.get(pid)?.pgrp;
      if (group !== undefined && group > 1 && group !== own) groups.add(group);
    }
  };
  noteGroups(targets, table);
  signalPid(-root, 'SIGTERM');
  for (const pid of targets.keys()) signalPid(pid, 'SIGTERM');
  await waitFor(() => stillAlive(targets).size === 0, graceMs, 50);
  // Processes started while the tree was dying (a trap handler, a respawn) are caught here too.
  let swept = readProcTable(since);
  targets = swept ? collectTree(root, false, tag, rootStart, swept, stillAlive(targets)) : stillAlive(targets);
  noteGroups(targets, swept);
  // A member left, even a zombie, keeps a group's id from reuse: such a group is killed once more.
  if (targets.size === 0 && !groupAlive(root) && ![...groups].some(groupAlive)) return;
  // A process that forks and exits at once is a generation ahead of each sweep (gone when it is
  // signalled, its child not yet seen): each group seen is killed whole, and the sweeps go on until
  // one finds nothing of the tree (a chain whose every generation makes a group of its own, forking
  // past the deadline, can still outrun them).
  const deadline = performance.now() + LAST_SWEEPS_MS;
  for (;;) {
    signalPid(-root, 'SIGKILL');
    for (const group of groups) if (groupAlive(group)) signalPid(-group, 'SIGKILL');
    for (const pid of targets.keys()) signalPid(pid, 'SIGKILL');
    const killed = targets;
    await waitFor(() => stillAlive(killed).size === 0, 1000, 20);
    swept = performance.now() < deadline ? readProcTable(since) : null;
    targets = swept ? collectTree(root, false, tag, rootStart, swept) : new Map<number, string>();
    noteGroups(targets, swept);
    if (targets.size === 0) return;
  }
}

/** How long the last sweeps of a killed tree go on finding what it forked meanwhile. */
const LAST_SWEEPS_MS = 3000;

/**
 * A long-lived /bin/sh that runs short commands (the loop's own git calls) one at a time. A large
 * Node process pays several milliseconds of fork per spawn; the shell forks git for a fraction of
 * that. Each command's output comes through the shell's own pipes, ended by a marker the command
 * cannot forge (random, new for each command, never written anywhere else); its input, when it has
 * one, from the shell's builtin printf through a pipe (a file written per call cost the loop's
 * thread a create on disk; printf writes the NUL bytes a shell word cannot hold).
 */
export class ShellSession {
  private seq = 0;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  private readonly streams = [new MarkedStream(), new MarkedStream()];
  private onEnd: (() => void) | null = null;

  private constructor(
    private readonly child: ChildProcessByStdio<Writable, Readable, Readable>,
    private readonly timeoutMs: number,
  ) {
    child.stdout.on('data', (d: Buffer) => this.streams[0].push(d));
    child.stderr.on('data', (d: Buffer) => this.streams[1].push(d));
    const end = () => {
      this.closed = true;
      this.onEnd?.();
    };
    child.on('exit', end);
    // A shell that died (killed by an agent of the same user, say) must fail the call, not the process.
    child.stdin.on('error', end);
  }

  /**
   * The shell gets its own session: a Ctrl-C at the terminal (SIGINT to the foreground process
   * group) reaches the loop, which then stops in order, and not the shell. It still ends with the
   * loop: when the loop's process is gone, its end of the shell's stdin closes and `sh -s` exits.
   */
  static start(cwd: string, env: Record<string, string>, timeoutMs = 300_000, shell: readonly string[] = ['/bin/sh', '-s']): Promise<ShellSession> {
    const [command, ...args] = shell;
    const child = spawn(command, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    return Promise.resolve(new ShellSession(child, timeoutMs));
  }

  /** Whether the shell is gone (ended, killed, or stopped at a timeout): a new one is needed. */
  get ended(): boolean {
    return this.closed;
  }

  /** Runs one shell command line, with `stdin` as its input. */
  run(script: string, stdin = ''): Promise<{ exitCode: number; stdout: string; stderr: string }> {
    const next = this.queue.then(async () => {
      if (this.closed) throw new Error('the git shell session has ended');
      const mark = `__phuc_${randomUUID().replaceAll('-', '')}_${++this.seq}`;
      const [out, err] = this.streams.map((s) => s.until(mark));
      let timer: NodeJS.Timeout | undefined;
      const ended = new Promise<number>((resolve) => {
        this.onEnd = () => resolve(255);
        // A git call that hangs (a lock, a credential prompt) ends the session rather than the loop's budgets.
        timer = setTimeout(() => {
          this.closed = true;
          // The whole group: the hanging git too, not only the shell waiting for it.
          if (this.child.pid !== undefined) signalPid(-this.child.pid, 'SIGKILL');
          resolve(124);
        }, this.timeoutMs);
      });
      // A group, not a subshell: one fork fewer per call (scripts only set throwaway variables).
      const input = stdin ? `${printed(stdin)} | ` : '';
      this.child.stdin.write(`${input}{ ${script}\n}${stdin ? '' : ' </dev/null'}; printf '${mark} %d\\n' $?; printf '${mark}\\n' >&2\n`);
      const done = await Promise.race([Promise.all([out, err]), ended]);
      clearTimeout(timer);
      this.onEnd = null;
      if (typeof done === 'number') {
        this.closed = true;
        for (const s of this.streams) s.reset();
        return { exitCode: done, stdout: '', stderr: '' };
      }
      const [o, e] = done;
      const m = /^ (\d+)\n$/.exec(o.after);
      return { exitCode: m ? Number(m[1]) : 255, stdout: o.before, stderr: e.before };
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  close(): Promise<void> {
    if (!this.closed) this.child.stdin.end();
    return Promise.resolve();
  }
}

/** A shell command that writes `text` exactly: its NUL-separated parts as printf arguments. */
function printed(text: string): string {
  const parts = text.split('\0');
  const last = parts.pop()!;
  return `{ ${parts.length ? `printf '%s\\0' ${parts.map(shellQuote).join(' ')}; ` : ''}printf %s ${shellQuote(last)}; }`;
}

/** A stream of command outputs, each ended by its marker line. */
class MarkedStream {
  private chunks: Buffer[] = [];
  private bytes = 0;
  private want: { mark: Buffer; resolve: (x: { before: string; after: string }) => void } | null = null;

  push(d: Buffer): void {
    this.chunks.push(d);
    this.bytes += d.length;
    this.look(d.length);
  }

  /** What comes before `mark`, and the rest of its line. */
  until(mark: string): Promise<{ before: string; after: string }> {
    return new Promise((resolve) => {
      this.want = { mark: Buffer.from(mark), resolve };
      this.look(this.bytes);
    });
  }

  reset(): void {
    this.chunks = [];
    this.bytes = 0;
    this.want = null;
  }

  /** Searches only the `fresh` bytes that came last (and a marker's length before them): a large output stays linear. */
  private look(fresh: number): void {
    if (!this.want) return;
    const { mark, resolve } = this.want;
    const span = Math.min(this.bytes, fresh + mark.length + 32);
    const tail: Buffer[] = [];
    for (let i = this.chunks.length - 1, got = 0; i >= 0 && got < span; i--) {
      tail.unshift(this.chunks[i]);
      got += this.chunks[i].length;
    }
    const window = tail.length === 1 ? tail[0] : Buffer.concat(tail);
    const from = Math.max(0, window.length - span);
    const w = window.indexOf(mark, from);
    if (w < 0 || window.indexOf(10, w) < 0) return;
    const all = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.bytes);
    const at = all.length - window.length + w;
    const eol = all.indexOf(10, at);
    this.want = null;
    const rest = all.subarray(eol + 1);
    this.chunks = rest.length ? [rest] : [];
    this.bytes = rest.length;
    resolve({ before: all.subarray(0, at).toString('utf8'), after: all.subarray(at + mark.length, eol + 1).toString('utf8') });
  }
}
