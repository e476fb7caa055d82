// Reading what the agent could have planted. The loop reads the work tree as root: a path there may
// be a link to any file of the machine, a FIFO that blocks an open() for ever, or a device. Every
// read of such a path goes through here: never through a link, never blocking, never more than asked.
// And removing it: a folder nested past PATH_MAX.
import { execFile } from 'node:child_process';
import { closeSync, constants, existsSync, fstatSync, lstatSync, openSync, readFileSync, readlinkSync, readSync, type Stats } from 'node:fs';
import { open, readlink, rm } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';

export type Opened = { data: Buffer; stat: Stats } | { refused: string };

/** lstat, or null when there is nothing at `path` (or it cannot be looked at: ENOTDIR, EACCES...). */
export function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}

/** A link's target text, or null when `path` is not a link that can be read. */
export function linkTarget(path: string): string | null {
  try {
    return readlinkSync(path);
  } catch {
    return null;
  }
}

/**
 * A regular file's bytes (at most `maxBytes`), opened with O_NOFOLLOW (a link at the final name is
 * refused) and O_NONBLOCK (a FIFO does not hang the open); anything else is refused with why.
 */
export async function openRegular(path: string, maxBytes = Infinity): Promise<Opened> {
  let fh;
  try {
    fh = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return { refused: code === 'ELOOP' ? 'it is a symbolic link' : code === 'ENOENT' ? 'it does not exist' : `it cannot be opened (${code})` };
  }
  try {
    const stat = await fh.stat();
    if (!stat.isFile()) return { refused: 'it is not a regular file' };
    if (stat.size > maxBytes) return { refused: `it is larger than ${maxBytes} bytes` };
    return { data: await fh.readFile(), stat };
  } finally {
    await fh.close();
  }
}

/** A regular file's bytes, or null for anything else (absent, a link, a FIFO, too large). */
export async function readRegular(path: string, maxBytes = Infinity): Promise<Buffer | null> {
  const r = await openRegular(path, maxBytes);
  return 'data' in r ? r.data : null;
}

/**
 * readRegular from the loop's thread, for git's small files (HEAD, refs, the index, a new object):
 * a FIFO planted there must not block the open (nor, read synchronously, the whole loop).
 */
export function readRegularSync(path: string, maxBytes = Infinity): Buffer | null {
  return withRegularSync(path, (fd, size) => (size <= maxBytes ? readFileSync(fd) : null));
}

/** At most the first `bytes` bytes of a regular file, read as readRegularSync reads (a small file the agent left: its report). */
export function readHeadSync(path: string, bytes: number): Buffer | null {
  return withRegularSync(path, (fd, size) => {
    const buf = Buffer.alloc(Math.min(size, bytes));
    return buf.subarray(0, readSync(fd, buf, 0, buf.length, 0));
  });
}

function withRegularSync(path: string, read: (fd: number, size: number) => Buffer | null): Buffer | null {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    const stat = fstatSync(fd);
    return stat.isFile() ? read(fd, stat.size) : null;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/**
 * A work-tree path as git sees it: a link's target text (what git commits for it, never what it
 * points to), a regular file's bytes; null when absent or neither (git ignores FIFOs and devices).
 */
export async function readAsGit(path: string): Promise<Buffer | null> {
  const st = lstatOrNull(path);
  if (st?.isSymbolicLink()) return Buffer.from(await readlink(path).catch(() => ''));
  return st?.isFile() ? readRegular(path) : null;
}

// Work-tree paths are names the agent chose, under folders the agent could have replaced by links.
// The loop (root) reads, writes and deletes only where every folder on the way is a real folder:
// each ancestor is looked at with lstat, from the tree's root down (the agent has stopped by then).
// lstat and readlink never block (a FIFO is not opened) and cost microseconds synchronously, where
// each asynchronous call costs round trips through the thread pool, several per changed path.

/** The first folder on the way to `rel` (relative to `root`) that exists but is not a real folder; null when none. */
export function ancestorInTheWay(root: string, rel: string): { path: string; what: string } | null {
  const parts = rel.split('/').filter((p) => p !== '' && p !== '.');
  for (let i = 1; i < parts.length; i++) {
    const path = parts.slice(0, i).join('/');
    if (parts[i - 1] === '..') return { path, what: 'a step out of the tree' };
    const st = lstatOrNull(join(root, path));
    if (!st) return null; // missing: nothing below it exists either; a write creates real folders
    if (!st.isDirectory()) return { path, what: st.isSymbolicLink() ? 'a symbolic link' : 'not a folder' };
  }
  return null;
}

/** readAsGit for a work-tree path, never through a folder that is a link (then: null, as git sees it). */
export async function readAsGitIn(root: string, rel: string): Promise<Buffer | null> {
  return ancestorInTheWay(root, rel) ? null : readAsGit(join(root, rel));
}

/** readRegular for a work-tree path, never through a folder that is a link. */
export async function readRegularIn(root: string, rel: string, maxBytes = Infinity): Promise<Buffer | null> {
  return ancestorInTheWay(root, rel) ? null : readRegular(join(root, rel), maxBytes);
}

/** Whether a work-tree path is a link itself (never looked at through a folder that is a link). */
export function isLinkIn(root: string, rel: string): boolean {
  if (ancestorInTheWay(root, rel)) return false;
  return !!lstatOrNull(join(root, rel))?.isSymbolicLink();
}

/** At most this many links on the way, as the kernel allows (ELOOP beyond). */
const MAX_LINKS = 40;

/**
 * Where the link at `rel` leads, resolved as the kernel would from its place in the tree: every link
 * on the way followed (links to links, any depth, `..` after a link climbs from where that link
 * led). Returns why it leaves the tree (an absolute target, a climb above the root, into .git, more
 * links than the kernel follows, a link it cannot read), or null when it ends inside the tree. A
 * missing step is taken as a plain folder (a clean checkout may create it), so `..` after it is judged
 * lexically, never more leniently.
 */
export function linkLeavesTree(root: string, rel: string): string | null {
  const pending = rel.split('/');
  const at: string[] = [];
  let links = 0;
  let missing = false;
  while (pending.length) {
    const c = pending.shift()!;
    if (c === '' || c === '.') continue;
    if (c === '..') {
      if (!at.length) return 'it climbs out of the tree';
      at.pop();
      continue;
    }
    at.push(c);
    if (at.length === 1 && c.toLowerCase() === '.git') return 'it leads into .git';
    if (missing) continue;
    const here = join(root, ...at);
    const st = lstatOrNull(here);
    if (!st) {
      missing = true;
      continue;
    }
    if (st.isSymbolicLink()) {
      if (++links > MAX_LINKS) return `more than ${MAX_LINKS} links on the way`;
      const target = linkTarget(here);
      if (target === null) return 'a link on the way cannot be read';
      if (isAbsolute(target)) return `a link on the way is absolute (${at.join('/')} -> ${target})`;
      at.pop();
      pending.unshift(...target.split('/'));
    } else if (!st.isDirectory()) missing = pending.some((p) => p !== '' && p !== '.'); // ENOTDIR for the kernel
  }
  return null;
}

const RM = ['/usr/bin/rm', '/bin/rm'].find((p) => existsSync(p)) ?? 'rm';

/**
 * Removes `path` and everything in it, where a role may have written. Node's rm names each entry by
 * its full path and gives up past PATH_MAX (folders nested 4 KiB deep): coreutils' rm, which works
 * from each folder in turn, removes what it left.
 */
export async function removeTree(path: string): Promise<void> {
  try {
    await rm(path, { recursive: true, force: true });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENAMETOOLONG') throw e;
    await new Promise<void>((resolve, reject) => {
      execFile(RM, ['-rf', '--', path], { env: { LC_ALL: 'C' }, timeout: 300_000, killSignal: 'SIGKILL' }, (err, _out, stderr) =>
        err ? reject(new Error(`rm -rf ${path} failed: ${stderr.trim() || err.message}`)) : resolve(),
      );
    });
  }
}

/** `read()`, or `fallback` when it throws. */
export function readOr<T, F>(read: () => T, fallback: F): T | F {
  try {
    return read();
  } catch {
    return fallback;
  }
}
