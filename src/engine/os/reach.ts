// What a role can reach of the machine at user+pidns (SPEC §7 "Isolation"): its user sees only
// what every other user may reach; a folder it cannot traverse is covered by an empty one in its
// view (os/sandbox.ts#layout). A program the user configured there is missing to the role, and the
// loop says so before the run instead of letting the agent or a check fail on "No such file".
import { lstat, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';

/**
 * The first directory on the way to `path` (inclusive) that `who` cannot traverse, or null. `who`
 * absent: any other user (one that owns nothing there). ACLs are not read: a folder they open is
 * still reported (then covered, see sandbox.ts), never the other way round.
 */
export async function firstBlocked(path: string, who?: { uid: number; gid: number }): Promise<string | null> {
  let at: string = sep;
  for (const part of ['', ...path.split(sep).filter(Boolean)]) {
    at = join(at, part);
    const s = await stat(at).catch(() => null);
    const bit = !s ? 0 : s.uid === who?.uid ? 0o100 : s.gid === who?.gid ? 0o010 : 0o001;
    if (!s || (s.mode & bit) === 0) return at;
  }
  return null;
}

/**
 * For each of `paths` (absolute) that exists for the loop but lies under a folder `who` cannot
 * traverse: one sentence naming the file, that folder, its mode and the user. A path the loop
 * cannot see either is not the sandbox's doing and is left out.
 */
export async function outOfView(paths: readonly string[], who: { name: string; uid: number; gid: number }): Promise<string[]> {
  const found = await Promise.all(
    [...new Set(paths)].map(async (path) => {
      if (!path.startsWith(sep) || !(await lstat(path).catch(() => null))) return null;
      const blocked = await firstBlocked(path, who);
      if (blocked === null || blocked === path) return null;
      const mode = ((await stat(blocked)).mode & 0o777).toString(8).padStart(4, '0');
      return `${path} lies under ${blocked} (mode ${mode}), which ${who.name} cannot enter`;
    }),
  );
  return found.filter((f): f is string => f !== null);
}
