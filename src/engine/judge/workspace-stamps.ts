// Stamps of the check workspace (judge/workspace.ts): what a round left of HOME and of ws/, read
// from the folders' own entries (inode, mode, owner, change time, names) without opening a file,
// so that a round that touched nothing costs no removal and no rewrite.
import { type Dirent, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { sha256 } from '../common/canonical.js';

/**
 * HOME as it is: its folder, tmp/ and .config/ (inode, mode, owner, links, change time), or null
 * when it holds anything else (a file, a link, another entry) or cannot be read. Two equal stamps
 * mean nothing was made, removed or renamed in them and their modes and owners are the same: a
 * change time moves with each of those and cannot be set back by the check user.
 */
export function homeStamp(home: string): string | null {
  const parts: string[] = [];
  for (const [dir, entries] of [
    [home, ['.config', 'tmp']],
    [join(home, 'tmp'), []],
    [join(home, '.config'), []],
  ] as const) {
    const st = lstatSync(dir, { bigint: true, throwIfNoEntry: false });
    if (!st?.isDirectory()) return null;
    const names = listSync(dir)
      ?.map((e) => e.name)
      .sort();
    if (names?.join('/') !== entries.join('/')) return null;
    parts.push([st.ino, st.mode, st.uid, st.gid, st.nlink, st.ctimeNs, st.mtimeNs].join(':'));
  }
  return parts.join(' ');
}

/**
 * A folder's entries, or null when it cannot be read. Synchronous, as the stamps' lstat: a few
 * microseconds each, where each asynchronous call costs round trips through the thread pool on the
 * round's path; nothing there blocks (no file is opened: a FIFO is only named).
 */
function listSync(dir: string): Dirent[] | null {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return null;
  }
}

/** Past this many folders, ws/ is not stamped (the walk would cost what it saves); once seen, for the run. */
const MAX_STAMPED_FOLDERS = 64;

/**
 * ws/ as it is, folder by folder: inode, mode, owner, change time and the exact entries (name and
 * kind). Two equal stamps mean nothing was made, removed, renamed or retyped anywhere in it and no
 * folder's mode or owner changed: what clear() would remove or repair. The files' content is git's
 * to compare (read-tree). Exact, not by time: a change within the clock tick of the last one shows
 * in the entries. Null past MAX_STAMPED_FOLDERS folders, or when a folder cannot be read.
 */
export function treeStamp(root: string): string | null {
  const parts: string[] = [];
  const folders = [root];
  for (let i = 0; i < folders.length; i++) {
    if (folders.length > MAX_STAMPED_FOLDERS) return null;
    const dir = folders[i];
    const st = lstatSync(dir, { bigint: true, throwIfNoEntry: false });
    const entries = st?.isDirectory() ? listSync(dir) : null;
    if (!st || !entries) return null;
    const kinds = entries.map((e) => `${e.isDirectory() ? 'd' : e.isFile() ? 'f' : e.isSymbolicLink() ? 'l' : 'o'}${e.name}`).sort();
    parts.push([st.ino, st.mode, st.uid, st.gid, st.ctimeNs, ...kinds].join('\0'));
    for (const e of entries) if (e.isDirectory()) folders.push(join(dir, e.name));
  }
  return sha256(parts.join('\n'));
}
