// The process table (/proc): whether a process still runs, the descendants of one, and the kill of
// everything a child started (its process group, its descendants, and whatever carries the run's
// tag), found again and again while it forks.
import { readdirSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

/**
 * Set in every child's environment with a value unique to the run. A descendant that called setsid
 * and whose parent already exited has lost both its process group and its ppid link to the child;
 * /proc/<pid>/environ still carries this tag, so it is found and killed all the same.
 */
export const RUN_TAG_VAR = 'PHUC_RUN_TAG';

const delay = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

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

export function forksSince(pid: number): Since | null {
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

export function signalPid(pid: number, sig: NodeJS.Signals): void {
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
export async function terminateTree(
  root: number,
  rootAlive: boolean,
  tag: string,
  rootStart: string | null,
  since: Since | null,
  graceMs: number,
): Promise<void> {
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
