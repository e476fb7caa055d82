// Sealed setup outputs (SPEC §7, clean workspace): where the checks run as their own user, what
// `checks.setup` made beside the tree (node_modules, .venv) is given to the loop once, after the
// setup, with no group or other write (the sandbox's takeFromRoles). The check user, who runs every
// later round, can then read but never change them: the outputs stay as the setup left them by
// construction, and a round looks at each kept path's own entry (a few lstat calls) instead of
// walking 100,000 files to fingerprint them. Only the tools' caches inside installed dependencies
// are lent to the check user, empty, every round.
import { lstatSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { shellQuote } from '../common/shell-quote.js';
import { removeTree } from '../os/tree-file.js';

/** Caches tools write inside installed dependencies while the checks run (babel, nyc, eslint, vite/vitest). */
export const VOLATILE_NAMES = ['.cache', '.vite'] as const;

/** A kept path as a path under the workspace, without git's trailing `/` for folders. */
export const keptPath = (k: string) => k.replace(/\/$/, '');

/**
 * The shell command (run in the workspace, by the loop) that makes the sealed outputs readable by
 * the check user whatever modes the setup gave them (a 0600 file it owned): never through a link
 * (find -P; links themselves are left as they are), only what lacks the bits.
 */
export function readableCommand(keep: readonly string[]): string {
  const paths = keep.map((k) => shellQuote(`./${keptPath(k)}`)).join(' ');
  return `find -P ${paths} ! -type l \\( -type d ! -perm -0555 -o ! -type d ! -perm -0444 \\) -exec chmod a+rX -- {} +`;
}

/** The volatile cache folders of the kept outputs: inside each kept node_modules. */
export function volatileFolders(keep: readonly string[]): string[] {
  return keep
    .map(keptPath)
    .filter((k) => k === 'node_modules' || k.endsWith('/node_modules'))
    .flatMap((k) => VOLATILE_NAMES.map((v) => `${k}/${v}`));
}

/**
 * Each kept path's own entry: inode, owner and mode. Equal to the stamp taken when it was sealed,
 * the path is still the loop's sealed folder (or file) and nothing below it can have changed: the
 * check user can neither write there nor put another entry in its place with the same inode while
 * it exists. Null when one is missing or is writable by group or others.
 */
export function sealStamp(dir: string, keep: readonly string[]): string | null {
  const parts: string[] = [];
  for (const k of keep) {
    const st = lstatSync(join(dir, keptPath(k)), { bigint: true, throwIfNoEntry: false });
    if (!st || (st.mode & 0o022n) !== 0n) return null;
    parts.push(`${st.ino}:${st.uid}:${st.gid}:${st.mode}`);
  }
  return parts.join(' ');
}

/** How the workspace seals and lends (CheckWorkspaceOptions), and its shell (the loop's user). */
export interface SealHands {
  seal?: (path: string) => Promise<void>;
  handOver?: (dir: string) => Promise<void>;
  takeBack?: (dir: string) => Promise<void>;
}

/**
 * Seals the setup outputs `made` (paths in `dir`) and returns their stamp; null without `seal` (the
 * checks run as the loop's user) or when a sealed path is not as sealing leaves it.
 */
export async function sealOutputs(
  o: SealHands,
  dir: string,
  made: readonly string[],
  sh: (script: string) => Promise<{ exitCode: number | null; stderr: string }>,
): Promise<string | null> {
  if (!o.seal) return null;
  for (const k of made) await o.seal(join(dir, keptPath(k)));
  const r = await sh(`cd ${shellQuote(dir)} && ${readableCommand(made)}`);
  if (r.exitCode !== 0) throw new Error(`opening the sealed setup outputs to reading failed: ${r.stderr.trim()}`);
  const stamp = sealStamp(dir, made);
  if (stamp !== null) await lendVolatile(o, dir, made);
  return stamp;
}

/** The tools' caches inside sealed dependencies: made empty and lent to the check user for the round. */
export async function lendVolatile(o: SealHands, dir: string, keep: readonly string[]): Promise<void> {
  for (const v of volatileFolders(keep)) {
    const path = join(dir, v);
    await o.takeBack?.(path);
    await removeTree(path);
    await mkdir(path, { mode: 0o755 });
    await o.handOver?.(path);
  }
}

/**
 * Links the sealed outputs of another workspace's setup (`from`, whose record says `sealed`) into the
 * empty workspace `to` (same file system): folders copied, files hard-linked, never the volatile
 * caches (the other workspace's checks may be writing them). The files stay the loop's, closed to
 * the check user: a check in either workspace can change none of them. Returns the copy's seal
 * stamp, or null (what was linked removed) when the outputs were not as sealed before and after.
 */
export async function linkSealed(
  from: string,
  to: string,
  record: { keep: readonly string[]; sealed: string },
  sh: (script: string) => Promise<{ exitCode: number | null }>,
): Promise<string | null> {
  if (sealStamp(from, record.keep) !== record.sealed) return null;
  const volatile = new Set(volatileFolders(record.keep).map((v) => v.slice(v.lastIndexOf('/') + 1)));
  const skip = [...volatile].map((v) => `! -name ${shellQuote(v)}`).join(' ');
  const copy = record.keep.map(keptPath).map((k) => {
    const [src, dst] = [shellQuote(join(from, k)), shellQuote(join(to, k))];
    const into = `mkdir -p -- "$(dirname -- ${dst})"`;
    // A node_modules: its own folder made, its entries but the caches linked; anything else whole.
    return volatileFolders([k]).length
      ? `${into} && mkdir -- ${dst} && chmod --reference=${src} -- ${dst} && find ${src} -mindepth 1 -maxdepth 1 ${skip} -exec cp -al -t ${dst} -- {} +`
      : `${into} && cp -al -- ${src} ${dst}`;
  });
  const r = await sh(`umask 022 && ${copy.join(' && ')}`);
  const stamp = r.exitCode === 0 && sealStamp(from, record.keep) === record.sealed ? sealStamp(to, record.keep) : null;
  if (stamp === null) for (const k of record.keep) await removeTree(join(to, keptPath(k)));
  return stamp;
}
