// Why a change of the agent's is put back as it was, and putting it back (the collect step's guard).
import { rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { AllowList } from './allow-list.js';
import type { Git } from '../os/git.js';
import { guardedParts, hasGuardedParts } from '../config/runner-config.js';
import { ancestorInTheWay, isLinkIn, linkLeavesTree, linkTarget, lstatOrNull, readRegularIn, removeTree } from '../os/tree-file.js';
import { held, MAX_HELD_BYTES, restoreBefore, type DirtySnapshot } from './dirty-snapshot.js';

/** What deciding on a change of the agent's and putting it back needs (the collect step's options hold it). */
export interface RevertContext {
  git: Git;
  cwd: string;
  before: DirtySnapshot;
  isProtected: (path: string) => boolean;
  /** Whether a file's bytes hold a secret the loop knows (in any encoding). */
  holdsSecret: (data: Buffer) => boolean;
  /** package.json scripts the criteria run: changing one weakens the suite (see runner-config.ts). */
  guardedScripts: string[];
  /** agent.may_change: what the agent may change at all (null: every path but the protected ones). */
  allowList?: AllowList | null;
  /** Why a path is one the loop keeps for itself (loop/own-paths.ts), never the agent's to change; null when it is not. */
  loopOwned?: (path: string) => string | null;
  /** Why a new path lies under a folder the loop keeps for itself (own-paths.ts whyReserved): the agent's file there is removed. */
  reserved?: (path: string) => string | null;
}

/** Whether the guarded parts of `path` (see runner-config.ts) differ from before the agent ran. */
async function runnerConfigChanged(git: Git, cwd: string, before: DirtySnapshot, path: string, scripts: string[]): Promise<boolean> {
  const was = before.has(path)
    ? (before.get(path)!.data?.toString('utf8') ?? null)
    : (await git.inHead([path])).has(path)
      ? await git.run(['show', `HEAD:${path}`])
      : null;
  const now = (await readRegularIn(cwd, path))?.toString('utf8') ?? null;
  return guardedParts(path, was, scripts) !== guardedParts(path, now, scripts);
}

/**
 * A change that reaches outside the tree: a link whose target, resolved as the kernel would from its
 * place in the tree (through other links, `..` after a link), is absolute, climbs out of the tree or
 * leads into .git: the checks would follow it to a file no clean checkout holds. A nested repository
 * (git lists it as `dir/`), whose own settings git would obey when it looks inside.
 */
function outsideTree(cwd: string, path: string): string | null {
  if (path.endsWith('/')) return 'a nested git repository';
  if (!isLinkIn(cwd, path)) return null;
  const why = linkLeavesTree(cwd, path);
  return why ? `a symbolic link out of the tree (-> ${linkTarget(join(cwd, path)) ?? '/'}: ${why})` : null;
}

/** Why a change of the agent was put back: see revertReason. */
export type RevertWhy = Reverted['why'];
export interface Reverted {
  path: string;
  why: 'protected' | 'loop-owned' | 'outside' | 'not-allowed' | 'shadow' | 'runner-config' | 'secret' | 'unstageable';
  detail: string;
}

/**
 * Why a change of the agent is put back as it was (null: it stays): a protected path; one of the
 * loop's own paths (a file or link in place of its evidence folder, anything git sees in a tree it
 * publishes: loop/own-paths.ts); a change that reaches outside the tree; one agent.may_change does
 * not allow, or a module that would shadow a library (allow-list.ts); the runner configuration of a
 * shared file (package.json's scripts the criteria run and runner keys, pyproject.toml's
 * [tool.pytest]…); a secret value it would publish.
 */
export async function revertReason(o: RevertContext, p: string, isNew: boolean): Promise<{ why: RevertWhy; detail: string } | null> {
  if (o.isProtected(p)) return { why: 'protected', detail: '' };
  const own = o.loopOwned?.(p) ?? (isNew ? o.reserved?.(p) : null);
  if (own) return { why: 'loop-owned', detail: own };
  const outside = outsideTree(o.cwd, p);
  if (outside) return { why: 'outside', detail: outside };
  const refused = o.allowList?.refusal(p, isNew);
  if (refused) return refused;
  if (hasGuardedParts(p) && (await runnerConfigChanged(o.git, o.cwd, o.before, p, o.guardedScripts))) return { why: 'runner-config', detail: '' };
  const { data, sha } = await held(o.cwd, p);
  if (data === null && sha !== null)
    return {
      why: 'unstageable',
      detail: `larger than ${String(MAX_HELD_BYTES / 2 ** 20)} MiB: the loop neither reads nor commits it (GitHub refuses files over 100 MB)`,
    };
  if (data && o.holdsSecret(data)) return { why: 'secret', detail: isLinkIn(o.cwd, p) ? 'in its link target' : '' };
  // A name is committed like a content (a deletion of such a name publishes nothing).
  return o.holdsSecret(Buffer.from(p)) && presentIn(o.cwd, p) ? { why: 'secret', detail: 'in its name' } : null;
}

/**
 * Puts `these` back (restoreBefore); a link the agent put in place of a folder on the way is removed
 * and joins `all` with the reason of the path it was in the way of; a path that cannot be put back
 * says why in its detail (and the link in its way is not staged).
 */
export async function putBack(o: RevertContext, these: Reverted[], all: Reverted[]): Promise<void> {
  if (!these.length) return;
  const { cleared, failed, byBytes } = await restoreBefore(
    o.git,
    o.cwd,
    o.before,
    these.map((r) => r.path),
  );
  const reasonOf = (path: string) => all.find((r) => r.path === path)!;
  for (const c of cleared)
    if (!all.some((r) => r.path === c.path))
      all.push({ path: c.path, why: reasonOf(c.for).why, detail: `${c.what} in place of the folder of ${c.for}, removed` });
  for (const b of byBytes) {
    const r = reasonOf(b.path);
    r.detail = `${r.detail ? `${r.detail}; ` : ''}its name is not UTF-8: ${b.quoted}`;
  }
  for (const f of failed) {
    const r = reasonOf(f.path);
    r.detail = `${r.detail ? `${r.detail}; ` : ''}could not be put back safely (${f.error}); the user's version is kept in refs/phuc-loop/user-work`;
    const inWay = ancestorInTheWay(o.cwd, f.path);
    if (inWay && !all.some((x) => x.path === inWay.path))
      all.push({ path: inWay.path, why: r.why, detail: `${inWay.what} in place of the folder of ${f.path}` });
  }
}

/**
 * Folders on the way to a path reverted for a secret whose names hold the secret: git commits no
 * empty folder, but the name is the agent's leak all the same. Removed once empty (deepest first),
 * never through a link.
 */
export async function removeSecretFolders(o: RevertContext, reverted: Reverted[]): Promise<void> {
  const folders = new Set<string>();
  for (const r of reverted.filter((x) => x.why === 'secret')) {
    const parts = r.path.split('/');
    for (let i = parts.length - 1; i > 0; i--) folders.add(parts.slice(0, i).join('/'));
  }
  for (const dir of [...folders].sort((a, b) => b.length - a.length))
    if (o.holdsSecret(Buffer.from(dir)) && !ancestorInTheWay(o.cwd, `${dir}/x`)) await rmdir(join(o.cwd, dir)).catch(() => undefined);
}

/**
 * A nested repository the agent made (reverted as reaching outside the tree) loses its .git: its own
 * settings (a filter, core.fsmonitor) would run as whoever runs git on the tree next, the user after
 * the run. Only its .git: the folder may hold the user's untracked files.
 */
export async function removeNestedGitFolders(o: RevertContext, reverted: Reverted[]): Promise<void> {
  for (const r of reverted)
    if (r.why === 'outside' && r.path.endsWith('/') && !o.before.has(r.path) && !ancestorInTheWay(o.cwd, `${r.path}.git`))
      await removeTree(join(o.cwd, r.path, '.git'));
}

/** The paths among `paths` that are links now. */
export function linksAmong(cwd: string, paths: string[]): string[] {
  return paths.filter((p) => isLinkIn(cwd, p));
}

/** The first link of the tree to judge (HEAD's links and the agent's) that now leads out of the tree. */
export async function firstLinkOut(o: RevertContext, keptLinks: string[]): Promise<{ path: string; why: string } | null> {
  const headLinks = (await o.git.run(['ls-tree', '-r', '-z', 'HEAD']))
    .split('\0')
    .filter((l) => l.startsWith('120000 '))
    .map((l) => l.slice(l.indexOf('\t') + 1));
  for (const path of linksAmong(o.cwd, [...new Set([...keptLinks, ...headLinks])])) {
    const why = linkLeavesTree(o.cwd, path);
    if (why) return { path, why };
  }
  return null;
}

/** Whether a name exists in the work tree (a file, link or folder), never looked up through a link. */
export function presentIn(cwd: string, path: string): boolean {
  return !!ancestorInTheWay(cwd, path) || lstatOrNull(join(cwd, path.replace(/\/$/, ''))) !== null;
}
