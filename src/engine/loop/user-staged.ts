// What the index holds when an agent step starts is nobody's change to commit: the step's commit is
// the index after the agent's changes are staged, so a user's `git add` before the run (or an
// agent's, left by a step a kill cut off) would be committed as the agent's work. It is kept, as
// the user's uncommitted work is (SPEC §7: the loop never deletes a user's file): the index as it
// was goes to a commit under USER_STAGED_REF, then the index is set back to HEAD; the work tree is
// untouched, so what was staged stays as an uncommitted change of the user's.
import { listSome } from '../common/markdown.js';
import type { Git } from '../os/git.js';
import type { Logger } from '../os/ports.js';

/** Where the index as it was is kept (local only: the loop pushes its branch, never this ref). */
export const USER_STAGED_REF = 'refs/phuc-loop/user-staged';

/**
 * Keeps the index under USER_STAGED_REF and unstages `paths` (the snapshot's staged ones); the
 * commit that holds it, or null when nothing is staged or git cannot write the index as a tree.
 */
export async function unstageUserIndex(git: Git, paths: string[], log: Logger, iteration: number): Promise<string | null> {
  if (!paths.length) return null;
  const head = await git.head();
  const tree = head ? await git.run(['write-tree']).catch(() => null) : null;
  if (!head || !tree) return null;
  const message = `phuc-loop: the index as it was before iteration ${iteration}`;
  const commit = (await git.run(['commit-tree', tree.trim(), '-p', head, '-m', message])).trim();
  await git.run(['update-ref', USER_STAGED_REF, commit]);
  await git.run(['reset', '-q']);
  log.info(
    `staged changes (${listSome(paths)}) unstaged, so that the step's commit holds only what the agent changes: ` +
      `they stay in the work tree as uncommitted changes, and the index as it was is kept in ${USER_STAGED_REF} (${commit.slice(0, 12)}): ` +
      `\`git restore --staged --source=${commit.slice(0, 12)} -- <path>\` stages a path again as it was`,
  );
  return commit;
}
