// What git does not see cannot be the agent's to leave (SPEC §7: prior agent prose reaches the next
// agent only through AGENTS.md). The allow-list judges what git lists; an empty folder, a FIFO, a
// git-ignored file, a regenerable folder or a chain of folders deeper than git can open would
// otherwise carry a note from one step to the next and stay in the user's tree after the run.
//
// By construction rather than by a list of channels: the tree's entries (names and types) are
// listed before each agent step, and after its changes are collected every entry that was not
// there before and that holds nothing git keeps (no staged path of the step below it) is set aside:
// renamed, whole, into the loop's home (one rename, however deep the chain below it: no path past
// PATH_MAX is ever opened). Entries that stood there before the step are the user's and stay.
// Regenerable folders (config/regenerable.ts) are listed but never walked (no per-step walk of
// node_modules): one the agent made goes as a whole; what it adds inside one that was already
// there is the residual channel docs/security.md names.
import type { BigIntStats, Dirent } from 'node:fs';
import { lstatSync, readdirSync } from 'node:fs';
import { mkdir, rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { AllowList } from './allow-list.js';
import type { Reverted } from './revert.js';
import { runTool } from '../os/sandbox-tools.js';
import { systemTool } from '../os/spawner.js';

export type EntryKind = 'file' | 'dir' | 'link' | 'special';
/** An entry of the work tree as listed around a step: its kind, and the stamp that tells a metadata change. */
export interface TreeEntry {
  kind: EntryKind;
  /** lstat's times (ns) and mode; null where the path is too long to look at. */
  st: Pick<BigIntStats, 'mode' | 'mtimeNs' | 'atimeNs' | 'ctimeNs' | 'nlink' | 'ino'> | null;
}
export type TreeEntries = Map<string, TreeEntry>;

/** Paths past this length are not looked into (PATH_MAX is 4096 bytes with the tree's own path). */
const DEEP = 3800;

export function lstatOrUndefined(abs: string): BigIntStats | undefined {
  try {
    return lstatSync(abs, { bigint: true, throwIfNoEntry: false });
  } catch {
    return undefined; // out of reach: looked at as a folder git cannot open
  }
}

const kindOf = (st: BigIntStats): EntryKind => (st.isDirectory() ? 'dir' : st.isFile() ? 'file' : st.isSymbolicLink() ? 'link' : 'special');

/**
 * Every entry of the tree but .git and what `leaveOut` names (the loop's own paths), never through a
 * link; the folders named in `regenerable` are listed and not entered. One readdir per folder and
 * one lstat per entry; with `stats` false (the listing after a step, whose kinds alone are compared)
 * the kinds are read from the folder itself, no lstat where the file system gives them.
 */
export function listEntries(cwd: string, leaveOut: (path: string) => boolean, regenerable: ReadonlySet<string>, stats = true): TreeEntries {
  // Synchronous: a few thousand lstats take milliseconds, where each asynchronous one would wait for a pool thread.
  const out: TreeEntries = new Map();
  const folders = [''];
  for (let dir = folders.pop(); dir !== undefined; dir = folders.pop()) {
    let found: Dirent[];
    try {
      found = readdirSync(join(cwd, dir), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const d of found) {
      const path = dir ? `${dir}/${d.name}` : d.name;
      if ((!dir && d.name === '.git') || leaveOut(path)) continue;
      const abs = join(cwd, path);
      // Past DEEP, or gone since its folder was read: looked at as a folder git cannot open, not entered.
      const known = abs.length < DEEP && !stats ? direntKind(d) : undefined;
      const st = abs.length < DEEP && !known ? lstatOrUndefined(abs) : undefined;
      const kind = known ?? (st ? kindOf(st) : 'dir');
      out.set(path, { kind, st: st ?? null });
      if ((known || st) && kind === 'dir' && !regenerable.has(d.name)) folders.push(path);
    }
  }
  return out;
}

/** The kind readdir gave (undefined where the file system gives none: then lstat tells). */
function direntKind(d: Dirent): EntryKind | undefined {
  if (d.isDirectory()) return 'dir';
  if (d.isFile()) return 'file';
  if (d.isSymbolicLink()) return 'link';
  return d.isFIFO() || d.isSocket() || d.isBlockDevice() || d.isCharacterDevice() ? 'special' : undefined;
}

export interface SetAsideOptions {
  cwd: string;
  before: TreeEntries;
  /** The entries after the step (listEntries). */
  after: TreeEntries;
  /** The paths the step's collection staged (its kept changes). */
  kept: readonly string[];
  /** What git listed as ignored after the step. */
  ignored: readonly string[];
  regenerable: ReadonlySet<string>;
  isProtected: (path: string) => boolean;
  allowList: AllowList | null | undefined;
  /** The loop's folder the entries are moved to (created). */
  store: string;
}

export interface SetAside {
  /** Those outside agent.may_change or protected: the step's guardrail. */
  reverted: Reverted[];
  /** Every entry set aside. */
  paths: string[];
  /** Those that could not be moved nor removed (or made again), with why. */
  failed: { path: string; error: string }[];
  /** The user's entries whose metadata the step changed, made again as they were (entry-stamps.ts). */
  restamped?: string[];
}

const WHAT: Record<EntryKind, string> = {
  dir: 'a folder holding nothing git lists',
  special: 'a FIFO, socket or device',
  file: 'a file git does not list',
  link: 'a link git does not list',
};

/** Sets aside what the step made that holds nothing git keeps (see the top of this file). */
export async function setAsideUnseen(o: SetAsideOptions): Promise<SetAside> {
  const keptSet = new Set(o.kept);
  const keptDirs = new Set<string>();
  for (const p of o.kept) for (let i = p.indexOf('/'); i > 0; i = p.indexOf('/', i + 1)) keptDirs.add(p.slice(0, i));
  const ignored = new Set(o.ignored.map((p) => p.replace(/\/$/, '')));
  const underIgnored = (p: string) => p.split('/').some((_, i, parts) => ignored.has(parts.slice(0, i + 1).join('/')));
  const out: SetAside = { reverted: [], paths: [], failed: [] };
  const gone: string[] = [];
  let n = 0;
  for (const [path, { kind }] of [...o.after].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (o.before.has(path) || gone.some((g) => path.startsWith(`${g}/`))) continue;
    if (kind === 'dir' ? keptDirs.has(path) : kind !== 'special' && keptSet.has(path)) continue;
    gone.push(path);
    if (n === 0) await mkdir(o.store, { recursive: true, mode: 0o700 });
    const error = await moveOrRemove(join(o.cwd, path), join(o.store, String(n++)));
    if (error) out.failed.push({ path, error });
    out.paths.push(path);
    // A tool's output (a regenerable folder, what .gitignore names) carries nothing once gone: no guardrail.
    if (path.split('/').some((s) => o.regenerable.has(s)) || underIgnored(path)) continue;
    const detail = `${WHAT[kind]}${error ? `: could not be removed (${error})` : ', set aside'}`;
    if (o.isProtected(path)) out.reverted.push({ path, why: 'protected', detail });
    else if (o.allowList?.refusal(path, true)?.why === 'not-allowed') out.reverted.push({ path, why: 'not-allowed', detail });
  }
  return out;
}

/** One rename, whatever lies below; where it cannot be (another file system), `rm -rf`, which walks past PATH_MAX by opening each folder. */
async function moveOrRemove(from: string, to: string): Promise<string | null> {
  const moved = await rename(from, to).then(
    () => null,
    (e: unknown) => (e instanceof Error ? e.message : String(e)),
  );
  if (!moved) return null;
  const rm = systemTool('rm');
  if (!rm) return moved;
  const r = await runTool([rm, '-rf', '--', from]);
  return r.exitCode === 0 ? null : `${moved}; rm: ${r.stderr.trim().split('\n')[0]}`;
}
