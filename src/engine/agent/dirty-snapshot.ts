// The work tree around an agent step: the dirty paths before it ran (with their content), what it
// changed since, and putting paths back as they were.
import { lstat, mkdir, rm, symlink, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { sha256 } from '../common/canonical.js';
import { atomicWrite } from '../os/atomic-write.js';
import type { Git } from '../os/git.js';
import { ancestorInTheWay, isLinkIn, lstatOrNull, readAsGitIn } from '../os/tree-file.js';
import { notUtf8, unquoteGitPath } from './path-names.js';

/**
 * The dirty paths before the agent ran, with their content: only what the agent changed is
 * attributed to it, and a user's uncommitted file the agent touched is put back as the user had it.
 */
export type DirtySnapshot = Map<string, { sha: string | null; data: Buffer | null; link: boolean; staged?: true }>;

export async function snapshotDirty(git: Git, cwd: string): Promise<DirtySnapshot> {
  const snap: DirtySnapshot = new Map();
  for (const c of await git.status())
    snap.set(c.path, { ...(await held(cwd, c.path)), link: isLinkIn(cwd, c.path), ...(isStaged(c.code) ? { staged: true as const } : {}) });
  return snap;
}

/** Whether a status code says the index differs from HEAD at the path (an unmerged path aside: git commits none). */
const isStaged = (code: string) => !' ?!U'.includes(code[0]) && code[1] !== 'U';

/**
 * The user's nested git repositories among the dirty paths (git lists one as `dir/`): git keeps none
 * of their files, so the loop could not put one back. The sandbox lends them to no role and mounts
 * them read-only for its commands (a mount point can be neither removed nor renamed).
 */
export function userRepos(dirty: Iterable<string>): string[] {
  return [...dirty].filter((p) => p.endsWith('/')).map((p) => p.slice(0, -1));
}

/** Files past this size are not read into memory (nor committed: GitHub refuses a file over 100 MB). */
export const MAX_HELD_BYTES = 100 * 1024 * 1024;

/**
 * A work-tree path as the loop holds it: its bytes as git sees them and their sha256; absent (or not
 * a file git keeps): nulls. Past MAX_HELD_BYTES, no bytes, and for a fingerprint the file's size,
 * inode and change time, which no write leaves as they were. Never read through a folder that is a link.
 */
export async function held(cwd: string, path: string): Promise<{ sha: string | null; data: Buffer | null }> {
  const st = ancestorInTheWay(cwd, path) ? null : lstatOrNull(join(cwd, path));
  if (st?.isFile() && st.size > MAX_HELD_BYTES) return { sha: `large:${String(st.size)}:${String(st.ino)}:${String(st.ctimeMs)}`, data: null };
  const data = await readAsGitIn(cwd, path);
  return { sha: data === null ? null : sha256(data), data };
}

/** Whether the dirty paths of `snap` still hold what it read (an edit made since to one of them says no). */
export async function unchangedSince(cwd: string, snap: DirtySnapshot): Promise<boolean> {
  for (const [path, { sha }] of snap) if ((await fingerprint(cwd, path)) !== sha) return false;
  return true;
}

/** A work-tree path's fingerprint as a DirtySnapshot holds it (see held). */
export async function fingerprint(cwd: string, path: string): Promise<string | null> {
  return (await held(cwd, path)).sha;
}

/** What restoreBefore did besides putting the paths back. */
export interface RestoreResult {
  /** Links (or files) the agent put in place of a folder on the way to a restored path: removed, never followed. */
  cleared: { path: string; what: string; for: string }[];
  /** Paths that could not be put back safely, with why (the user's version stays in refs/phuc-loop/user-work). */
  failed: { path: string; error: string }[];
  /** Names that are not UTF-8, put back by their bytes: each with git's quoted name (`"a\\377b"`). */
  byBytes: { path: string; quoted: string }[];
}

/**
 * Puts `paths` back as they were before the agent: the user's uncommitted version, else HEAD's.
 * Every folder on the way must be a real folder: one the agent replaced by a link (or a file) is its
 * change, removed first (never followed: through it the loop, root, would write or delete anywhere).
 * A path that cannot be put back is reported, never a crash.
 */
export async function restoreBefore(git: Git, cwd: string, before: DirtySnapshot, paths: string[]): Promise<RestoreResult> {
  const cleared: RestoreResult['cleared'] = [];
  const failed: RestoreResult['failed'] = [];
  const fail = (path: string, e: unknown) => failed.push({ path, error: e instanceof Error ? e.message : String(e) });
  const ready: string[] = [];
  for (const p of paths)
    try {
      for (let inWay = ancestorInTheWay(cwd, p); inWay; inWay = ancestorInTheWay(cwd, p)) {
        if (inWay.what === 'a step out of the tree' || cleared.length > paths.length * 64) throw new Error(`${inWay.path} is ${inWay.what}`);
        await unlink(join(cwd, inWay.path)); // its folders are real ones (checked from the root down): only it goes
        cleared.push({ path: inWay.path, what: inWay.what, for: p });
      }
      ready.push(p);
    } catch (e) {
      fail(p, e);
    }
  // A name that was a link the agent put in place of a folder is gone now: nothing of HEAD's to restore there.
  const gone = new Set(cleared.map((c) => c.path));
  const fromHead = ready.filter((p) => !before.has(p) && !gone.has(p));
  if (fromHead.length)
    await git.restoreFromHead(fromHead).catch(async () => {
      for (const p of fromHead) await git.restoreFromHead([p]).catch((e: unknown) => fail(p, e));
    });
  // A name that is not UTF-8 reads with U+FFFD in place of its bytes: git and the file system know it by its own bytes.
  const unreadable = fromHead.filter(notUtf8);
  const byBytes = unreadable.length ? await putBackByBytes(git, cwd, unreadable) : { done: [], failed: [] };
  for (const f of byBytes.failed) fail(f.path, f.error);
  for (const p of ready.filter((x) => before.has(x)))
    try {
      const { data: was, sha, link } = before.get(p)!;
      const inWay = ancestorInTheWay(cwd, p);
      if (inWay) throw new Error(`${inWay.path} is ${inWay.what}`);
      if (was === null && sha !== null) throw new Error(`it is larger than ${String(MAX_HELD_BYTES / 2 ** 20)} MiB, more than the loop holds in memory`);
      await rm(join(cwd, p), { recursive: true, force: true });
      if (was === null) continue;
      await mkdir(dirname(join(cwd, p)), { recursive: true });
      if (link) await symlink(was.toString(), join(cwd, p));
      else await atomicWrite(join(cwd, p), was);
    } catch (e) {
      fail(p, e);
    }
  return { cleared, failed, byBytes: byBytes.done };
}

/** Removes the work-tree file of name `raw` (bytes), never through a folder that is a link; whether none is there now. */
async function removeByBytes(cwd: string, raw: Buffer): Promise<boolean> {
  const parts = raw
    .toString('latin1')
    .split('/')
    .filter((x) => x !== '' && x !== '.');
  let at = Buffer.from(cwd);
  for (const [i, part] of parts.entries()) {
    if (part === '..') return false;
    at = Buffer.concat([at, Buffer.from('/'), Buffer.from(part, 'latin1')]);
    const st = await lstat(at).catch(() => null);
    if (!st) return true;
    if (i < parts.length - 1 && !st.isDirectory()) return false;
    if (i === parts.length - 1 && !st.isDirectory()) await unlink(at);
  }
  return !(await lstat(at).catch(() => null));
}

/**
 * Puts back `paths`, names git printed with U+FFFD for bytes that are not UTF-8, by their real names
 * (git's quoted status): a name HEAD holds is checked out again; any other (the agent's new file,
 * or one it staged itself) leaves the index and the work tree. Returns those still there, with why.
 */
async function putBackByBytes(git: Git, cwd: string, paths: string[]): Promise<{ done: RestoreResult['byBytes']; failed: RestoreResult['failed'] }> {
  const wanted = new Set(paths);
  const status = async () =>
    (await git.run(['-c', 'core.quotePath=true', 'status', '--porcelain=v1', '--untracked-files=all', '--no-renames', '--ignore-submodules=all']))
      .split('\n')
      .map((line) => line.slice(3))
      .filter((q) => q.startsWith('"') && wanted.has(unquoteGitPath(q).toString('utf8')));
  const found = await status();
  for (const quoted of found) {
    const stdin = `${quoted}\n`;
    const fromHead = await git.run(['checkout', 'HEAD', '--pathspec-from-file=-'], { stdin }).then(
      () => true,
      () => false,
    );
    if (fromHead) continue;
    await git.run(['rm', '-q', '--cached', '--ignore-unmatch', '--pathspec-from-file=-'], { stdin }).catch(() => undefined);
    await removeByBytes(cwd, unquoteGitPath(quoted)).catch(() => false);
  }
  const left = new Set(await status());
  const named = (q: string) => unquoteGitPath(q).toString('utf8');
  return {
    done: found.filter((q) => !left.has(q)).map((quoted) => ({ path: named(quoted), quoted })),
    failed: [...left].map((q) => ({ path: named(q), error: `${q} could not be put back by its name's bytes` })),
  };
}

/**
 * Paths whose content differs from the snapshot taken before the agent ran; with `ignored`, what git
 * lists as ignored (see Git.status) is put there, from the same call.
 */
export async function changedSince(git: Git, cwd: string, before: DirtySnapshot, ignored?: string[]): Promise<string[]> {
  const now = await git.status({ ignored: !!ignored });
  const out: string[] = [];
  const seen = new Set<string>();
  for (const c of now) {
    if (c.code === '!!') {
      ignored?.push(c.path);
      continue;
    }
    seen.add(c.path);
    if (!before.has(c.path) || before.get(c.path)!.sha !== (await fingerprint(cwd, c.path))) out.push(c.path);
  }
  // A path that was dirty before and is clean now was restored by the agent: also its change.
  for (const p of before.keys()) if (!seen.has(p)) out.push(p);
  return out.sort();
}
