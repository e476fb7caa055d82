// The paths of the work tree the loop keeps for itself, told apart by construction from the
// published evidence path and the names the loop keeps out of commits (.git/info/exclude), never from
// a list of names an agent might use:
// - the folders on the way to the published tree (`evidence`) and scratch/: they must stay real
//   folders; a file or link the agent puts at one of those names is never committed (and never
//   published through: home.ts publishRun);
// - the published tree and its siblings (`<published>.previous.N`, and the temporary and moved-aside
//   names the loop makes beside it): their content is only ever a copy of what the loop keeps in its
//   home, so nothing there is the agent's to commit, change or add to (the loop publishes it);
// - the agent CLIs' state files (AGENT_STATE_EXCLUDES: `.claude/settings.local.json`, `.aider*`):
//   excluded from commits, so nothing the agent writes there can be its work; left in the tree they
//   would run as the user's next session of that CLI (a hook) or carry a note to the next step.
// What stands under those names before a step (the user's notes in evidence/, the published trees,
// the user's own CLI settings) is kept and put back after it like any git-ignored file (user-files.ts);
// what the agent makes there is neither the loop's nor the user's: git does not see it, so it would
// stay in the tree for the next step to read outside the capsule. It is removed after the step, a
// guardrail naming it (whyReserved). Only scratch/, the user's stop channel during the run, is left
// out (at user+pidns it is never lent to the agent). A regenerable name (a cache its CLI rebuilds,
// `.aider.tags.cache.v4`) is the CLI's own, left to it as node_modules is to npm.
import { basename, dirname, relative, sep } from 'node:path';
import picomatch from 'picomatch';
import { AGENT_STATE_EXCLUDES } from '../agent/presets.js';
import { LOOP_SCRATCH_DIR } from '../config/plan.js';

export interface OwnPaths {
  /** Why `path` (relative to the tree, `/`-separated) is the loop's: one of its folders, at or under a tree it publishes, an agent CLI's state; null when it is not. */
  whyOwn: (path: string) => string | null;
  /** Whether `path` is at or under a tree the loop publishes (the current one, an earlier one, a temporary one). */
  isPublished: (path: string) => boolean;
  /** Why `path`, made during a step, is not the agent's to leave (under a folder on the way, in a published tree, an agent CLI's state): removed; null when it is not. */
  whyReserved: (path: string) => string | null;
  /** The folders whose own entries may bear a reserved name: the top and the folders on the way to the published tree. */
  reservedIn: string[];
}

/** The names the loop makes beside the published tree: earlier trees, temporary copies, what it moved aside. */
export const SIBLING_SUFFIXES = ['.previous.', '.tmp-', '.old-', '.not-loop-evidence-'] as const;

/** The patterns the loop adds to .git/info/exclude: the evidence folder's top, scratch/, the agent CLIs' state. */
export function loopExcludes(cwd: string, published: string): string[] {
  return [`/${relative(cwd, published).split(sep)[0]}/`, `/${LOOP_SCRATCH_DIR}/`, ...AGENT_STATE_EXCLUDES];
}

/** The agent-state exclude `path` is at or under (anchored gitignore patterns, a folder's content included), or null. */
function agentStateOf(path: string, regenerable: ReadonlySet<string>): string | null {
  const parts = path.replace(/\/$/, '').split('/');
  if (parts.some((p) => regenerable.has(p))) return null;
  for (const pattern of AGENT_STATE_EXCLUDES) {
    const glob = pattern.replace(/^\//, '').replace(/\/$/, '');
    const depth = glob.split('/').length;
    if (parts.length >= depth && picomatch.isMatch(parts.slice(0, depth).join('/'), glob, { dot: true })) return pattern;
  }
  return null;
}

/** `regenerable`: the names a tool rebuilds (user_files.regenerable), never an agent CLI's state to remove. */
export function ownPaths(cwd: string, published: string, regenerable: readonly string[] = []): OwnPaths {
  const rel = relative(cwd, published).split(sep).join('/');
  const parent = dirname(rel) === '.' ? '' : `${dirname(rel)}/`;
  const base = basename(rel);
  const parts = rel.split('/');
  const folders = new Set([LOOP_SCRATCH_DIR, ...parts.slice(0, -1).map((_, i) => parts.slice(0, i + 1).join('/'))]);
  const caches = new Set(regenerable);
  const isPublished = (path: string): boolean => {
    if (path === rel || path.startsWith(`${rel}/`)) return true;
    if (!path.startsWith(parent)) return false;
    const name = path.slice(parent.length).split('/')[0];
    return SIBLING_SUFFIXES.some((s) => name.startsWith(`${base}${s}`));
  };
  const agentState = (path: string): string | null => {
    const pattern = agentStateOf(path, caches);
    return pattern && `an agent CLI's state (${pattern}), which the loop keeps out of commits`;
  };
  const whyOwn = (path: string): string | null =>
    folders.has(path.replace(/\/$/, ''))
      ? 'a folder the loop keeps: it stays a folder'
      : isPublished(path)
        ? 'in an evidence tree the loop publishes'
        : agentState(path);
  const onTheWay = parts.slice(0, -1).map((_, i) => `${parts.slice(0, i + 1).join('/')}/`);
  const whyReserved = (path: string): string | null => {
    if (isPublished(path)) return `made in ${parent}${path.slice(parent.length).split('/')[0]}, an evidence tree only the loop writes: removed`;
    const folder = onTheWay.find((f) => path.startsWith(f) && path.length > f.length);
    if (folder) return `made under ${folder}, which the loop keeps for itself: removed`;
    const state = agentState(path);
    return state && `${state}: removed`;
  };
  return { isPublished, whyOwn, whyReserved, reservedIn: ['.', ...onTheWay.map((f) => f.slice(0, -1))] };
}
