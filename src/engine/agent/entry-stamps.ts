// The metadata of the user's entries is no channel between steps either: a file's times, mode or
// extended attributes (`user.*`), a folder's, change no content git compares. Every such change
// moves the entry's ctime, which no unprivileged process can set back: the ctimes are read once the
// tree is lent to the agent and again before it is taken back (the hand-over's own chown moves them
// outside that window), and each entry whose ctime moved and whose content the step did not change
// is made again as it was before the step: a file as a fresh inode with its bytes, mode and times
// (no attribute survives), a folder as a fresh folder its entries are renamed into. One lstat per
// entry twice a step; the work is only for the entries that moved.
import { randomBytes } from 'node:crypto';
import { chmod, lstat, mkdir, readdir, readFile, rename, rmdir, utimes, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { lstatOrUndefined, type TreeEntries, type TreeEntry } from './unseen-entries.js';

export type Ctimes = Map<string, bigint | null>;

/** The ctime of each listed file and folder now (null: gone or out of reach). */
export function ctimesOf(cwd: string, entries: TreeEntries): Ctimes {
  const out: Ctimes = new Map();
  for (const [path, e] of entries)
    if (e.st && (e.kind === 'file' || e.kind === 'dir')) {
      out.set(path, lstatOrUndefined(join(cwd, path))?.ctimeNs ?? null);
    }
  return out;
}

const seconds = (ns: bigint) => Number(ns / 1_000_000n) / 1000;

/**
 * Makes again, as listed in `before`, each entry whose ctime moved between `lent` and `ending` and
 * that `changed` (the step's content changes, put back or staged by the collection) does not name;
 * deepest first, so that a folder's own times are set last. Returns the paths made again, and those
 * that could not be, with why.
 */
export async function restoreStamps(
  cwd: string,
  before: TreeEntries,
  lent: Ctimes,
  ending: Ctimes,
  changed: ReadonlySet<string>,
): Promise<{ restamped: string[]; failed: { path: string; error: string }[] }> {
  const moved = [...lent]
    .filter(([p, t]) => t !== null && ending.get(p) !== t && !changed.has(p))
    .map(([p]) => p)
    .sort((a, b) => b.split('/').length - a.split('/').length || (a < b ? -1 : 1));
  const restamped: string[] = [];
  const failed: { path: string; error: string }[] = [];
  for (const path of moved) {
    const was = before.get(path)!;
    const now = await lstat(join(cwd, path), { bigint: true }).catch(() => null);
    // Only the same kind is made again (a replaced entry is a content change, the collection's).
    if (!now || (was.kind === 'dir') !== now.isDirectory() || (was.kind === 'file') !== now.isFile() || now.nlink > (was.kind === 'file' ? 1n : now.nlink))
      continue;
    try {
      await (was.kind === 'dir' ? freshFolder(cwd, path, was) : freshFile(cwd, path, was));
      restamped.push(path);
    } catch (e) {
      failed.push({ path, error: e instanceof Error ? e.message : String(e) });
    }
  }
  // Making them again moved their folders' times: those that did not move in the step get theirs back.
  for (const dir of new Set(restamped.map((p) => dirname(p)).filter((d) => d !== '.' && !restamped.includes(d)))) {
    const st = before.get(dir)?.st;
    if (st) await utimes(join(cwd, dir), seconds(st.atimeNs), seconds(st.mtimeNs)).catch(() => undefined);
  }
  return { restamped: restamped.sort(), failed };
}

async function freshFile(cwd: string, path: string, was: TreeEntry): Promise<void> {
  const abs = join(cwd, path);
  const tmp = join(dirname(abs), `.phuc-loop-${randomBytes(4).toString('hex')}`);
  await writeFile(tmp, await readFile(abs), { flag: 'wx', mode: 0o600 });
  await chmod(tmp, Number(was.st!.mode) & 0o7777);
  await utimes(tmp, seconds(was.st!.atimeNs), seconds(was.st!.mtimeNs));
  await rename(tmp, abs);
}

async function freshFolder(cwd: string, path: string, was: TreeEntry): Promise<void> {
  const abs = join(cwd, path);
  const tmp = join(dirname(abs), `.phuc-loop-${randomBytes(4).toString('hex')}`);
  const names = await readdir(abs);
  // A nested repository's folder is never moved about (the user's, mounted read-only for the agent).
  if (names.includes('.git')) return;
  await mkdir(tmp, { mode: 0o700 });
  for (const name of names) await rename(join(abs, name), join(tmp, name));
  await rmdir(abs);
  await rename(tmp, abs);
  await chmod(abs, Number(was.st!.mode) & 0o7777);
  await utimes(abs, seconds(was.st!.atimeNs), seconds(was.st!.mtimeNs));
}
