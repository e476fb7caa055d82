// The work tree's git-ignored files, as the loop keeps the user's (user-files.ts): which names are
// regenerable (left out), how they are listed without descending into a dependency folder or
// following a link, and the removal of what the agent made where it may not leave anything.
import type { BigIntStats } from 'node:fs';
import { lstat, readdir, rmdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Git } from '../os/git.js';
import { ancestorInTheWay } from '../os/tree-file.js';

/** The folders above `paths` left empty by their removal, deepest first (rmdir: never a link, never a folder that holds anything). */
export async function removeEmptied(cwd: string, paths: readonly string[]): Promise<void> {
  const folders = new Set<string>();
  for (const p of paths) for (let d = dirname(p); d !== '.'; d = dirname(d)) folders.add(d);
  for (const d of [...folders].sort((a, b) => b.length - a.length)) await rmdir(join(cwd, d)).catch(() => undefined);
}

/** Runs `fn` over `items`, 64 at a time. */
export async function inChunks<T>(items: T[], fn: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += 64) await Promise.all(items.slice(i, i + 64).map(fn));
}

/**
 * The work tree's git-ignored regular files and links, outside what `leaveOut` names: git lists
 * ignored files and whole ignored folders (`--directory`, so it never descends into node_modules);
 * the folders are walked here without following links, leaving out regenerable names. With
 * `stats`, each file's lstat (the take); without, names only (the scan after a step: one readdir
 * per folder). `listed`: git's list when the caller has it already.
 */
export async function listIgnored(
  git: Git,
  cwd: string,
  leaveOut: (path: string) => boolean,
  o: { max: number; stats: boolean; listed?: string[] },
): Promise<{ entries: { path: string; st: BigIntStats | null }[]; truncated: boolean }> {
  const listed = o.listed ?? (await git.run(['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory'])).split('\0').filter(Boolean);
  const entries: { path: string; st: BigIntStats | null }[] = [];
  let truncated = false;
  const file = async (path: string): Promise<void> => {
    if (entries.length >= o.max) truncated = true;
    else entries.push({ path, st: o.stats ? await lstat(join(cwd, path), { bigint: true }).catch(() => null) : null });
  };
  // Below a real folder met here, entries are what readdir says they are (a link is never entered).
  const walk = async (dir: string): Promise<void> => {
    const found = await readdir(join(cwd, dir), { withFileTypes: true }).catch(() => []);
    const todo = found.filter((d) => !leaveOut(`${dir}/${d.name}`) && (d.isDirectory() || d.isFile() || d.isSymbolicLink()));
    for (let i = 0; i < todo.length; i += 64)
      await Promise.all(todo.slice(i, i + 64).map((d) => (d.isDirectory() ? walk(`${dir}/${d.name}`) : file(`${dir}/${d.name}`))));
  };
  for (const entry of listed) {
    const path = entry.replace(/\/$/, '');
    if (leaveOut(path) || ancestorInTheWay(cwd, path)) continue;
    const st = await lstat(join(cwd, path)).catch(() => null);
    if (st?.isDirectory()) await walk(path);
    else if (st?.isFile() || st?.isSymbolicLink()) await file(path);
  }
  return { entries: entries.filter((e) => !o.stats || e.st), truncated };
}

/**
 * The entries directly in `parents` (folders of the tree: the top, the folders on the way to the
 * published evidence) whose names `reserved` says are the loop's, as paths: an empty folder, a FIFO
 * or a file git lists nowhere. Never read through a link.
 */
export async function reservedEntries(cwd: string, parents: readonly string[], reserved: (path: string) => boolean): Promise<string[]> {
  const out: string[] = [];
  for (const parent of parents) {
    if (parent !== '.' && ancestorInTheWay(cwd, `${parent}/x`)) continue;
    for (const name of await readdir(join(cwd, parent)).catch(() => [] as string[])) {
      const path = parent === '.' ? name : `${parent}/${name}`;
      if (reserved(path)) out.push(path);
    }
  }
  return out;
}
