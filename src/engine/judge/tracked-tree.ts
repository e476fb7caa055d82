// The judged tree is the committed tree (SPEC §7): the check workspace's tracked files, read after
// checks.setup and after every check, compared with what the checkout wrote — by content, never by
// stat. git's own refresh trusts a file whose size, inode and times (to the second) are unchanged:
// a check that rewrites a test in the second it was checked out and puts its mtime back passes it.
// Only tracked paths are read (and the folders above them): node_modules and other untracked
// folders are never walked.
import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync, readlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface TrackedEntry {
  /** git's mode: 100644, 100755, 120000 (a link), 160000 (a submodule). */
  mode: string;
  path: string;
}

/** The entries of `git ls-files -s -z` ("<mode> <object> <stage>\t<path>\0"). */
export function parseStaged(out: string): TrackedEntry[] {
  return out
    .split('\0')
    .filter(Boolean)
    .map((l) => ({ mode: l.slice(0, l.indexOf(' ')), path: l.slice(l.indexOf('\t') + 1) }));
}

/**
 * Each tracked path's state, and each folder above one: kind and a hash of the bytes. Modes are left
 * out (a check that opens its workspace with `chmod -R 0777` changes no byte a test reads; the next
 * update puts the modes back).
 */
export type TrackedState = Map<string, string>;

/**
 * Reads every tracked path under `dir` as it is now (synchronously: thousands of small reads cost
 * far less than as many round trips through the thread pool, and nothing here blocks — a FIFO is
 * opened non-blocking and refused, a link is never followed). A path that cannot be read has a
 * state that names why, which differs from any content.
 */
export function readTracked(dir: string, entries: readonly TrackedEntry[]): TrackedState {
  const state: TrackedState = new Map();
  const folders = new Set<string>();
  for (const { mode, path } of entries) {
    for (let d = dirname(path); d !== '.' && !folders.has(d); d = dirname(d)) folders.add(d);
    state.set(path, mode === '160000' ? kindOf(join(dir, path)) : contentOf(join(dir, path)));
  }
  // A folder swapped for a link would have the files under it read through the link.
  for (const d of folders) state.set(`${d}/`, kindOf(join(dir, d)));
  return state;
}

/** The paths whose state differs between two readings, sorted (a folder ends with `/`). */
export function changedPaths(before: TrackedState, after: TrackedState): string[] {
  const out = new Set<string>();
  for (const [p, s] of before) if (after.get(p) !== s) out.add(p);
  for (const p of after.keys()) if (!before.has(p)) out.add(p);
  return [...out].sort();
}

function kindOf(path: string): string {
  try {
    const st = lstatSync(path);
    return st.isDirectory() ? 'dir' : st.isSymbolicLink() ? 'link' : 'other';
  } catch (e) {
    return `unreadable:${(e as NodeJS.ErrnoException).code}`;
  }
}

function contentOf(path: string): string {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ELOOP') return `unreadable:${code}`;
    try {
      return `link:${digest(readlinkSync(path, { encoding: 'buffer' }))}`;
    } catch (e2) {
      return `unreadable:${(e2 as NodeJS.ErrnoException).code}`;
    }
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return 'other';
    return `file:${digest(readFileSync(fd))}`;
  } catch (e) {
    return `unreadable:${(e as NodeJS.ErrnoException).code}`;
  } finally {
    closeSync(fd);
  }
}

const digest = (data: Buffer) => createHash('sha256').update(data).digest('hex');
