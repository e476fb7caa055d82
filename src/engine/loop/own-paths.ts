// The paths of the work tree the loop keeps for itself. Two kinds, told apart by construction from
// the published evidence path, never from a list of names an agent might use:
// - the folders on the way to the published tree (`evidence`) and scratch/: they must stay real
//   folders; a file or link the agent puts at one of those names is never committed (and never
//   published through: home.ts publishRun);
// - the published tree and its siblings (`<published>.previous.N`, and the temporary and moved-aside
//   names the loop makes beside it): their content is only ever a copy of what the loop keeps in its
//   home, so nothing there is the agent's to commit nor the user's to keep (the loop publishes it).
// Everything else under those names — the user's notes in evidence/, the agent CLIs' state files of
// the user's — is the user's, kept and put back like any git-ignored file (user-files.ts). What the
// agent makes under the folders on the way (evidence/notes/x, evidence/loop.other/) is neither the
// loop's nor the user's: git does not see it there, so it would stay in the tree for the next step
// to read outside the capsule. It is removed after the step, a guardrail naming it (whyReserved).
import { basename, dirname, relative, sep } from 'node:path';
import { LOOP_SCRATCH_DIR } from '../config/plan.js';

export interface OwnPaths {
  /** Why `path` (relative to the tree, `/`-separated) is the loop's: one of its folders, or at or under a tree it publishes; null when it is not. */
  whyOwn: (path: string) => string | null;
  /** Whether `path` is at or under a tree the loop publishes (the current one, an earlier one, a temporary one). */
  isPublished: (path: string) => boolean;
  /** Why `path` is under a folder on the way to the published tree but outside the trees it publishes (nothing the agent makes there is kept); null when it is not. */
  whyReserved: (path: string) => string | null;
}

/** The names the loop makes beside the published tree: earlier trees, temporary copies, what it moved aside. */
export const SIBLING_SUFFIXES = ['.previous.', '.tmp-', '.old-', '.not-loop-evidence-'] as const;

export function ownPaths(cwd: string, published: string): OwnPaths {
  const rel = relative(cwd, published).split(sep).join('/');
  const parent = dirname(rel) === '.' ? '' : `${dirname(rel)}/`;
  const base = basename(rel);
  const parts = rel.split('/');
  const folders = new Set([LOOP_SCRATCH_DIR, ...parts.slice(0, -1).map((_, i) => parts.slice(0, i + 1).join('/'))]);
  const isPublished = (path: string): boolean => {
    if (path === rel || path.startsWith(`${rel}/`)) return true;
    if (!path.startsWith(parent)) return false;
    const name = path.slice(parent.length).split('/')[0];
    return SIBLING_SUFFIXES.some((s) => name.startsWith(`${base}${s}`));
  };
  const whyOwn = (path: string): string | null =>
    folders.has(path.replace(/\/$/, '')) ? 'a folder the loop keeps: it stays a folder' : isPublished(path) ? 'in an evidence tree the loop publishes' : null;
  const onTheWay = parts.slice(0, -1).map((_, i) => `${parts.slice(0, i + 1).join('/')}/`);
  const whyReserved = (path: string): string | null => {
    const folder = onTheWay.find((f) => path.startsWith(f) && path.length > f.length);
    return folder && !isPublished(path) ? `made under ${folder}, which the loop keeps for itself: removed` : null;
  };
  return { isPublished, whyOwn, whyReserved };
}
