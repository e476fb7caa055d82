// Where a loop keeps what the agent must not touch: `<git common dir>/phuc-loop/<evidence name>/`,
// mode 0700 and owned by the loop's user, outside the work tree. The evidence tree lives there
// while a run works and is published to `evidence/loop` (the folder users and the Action read)
// when it ends; a published tree without a private one (a restored artifact, another clone) is
// verified and taken in.
import { chmod, lstat, mkdir, open, readFile, rm, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { createHash } from 'node:crypto';
import { StorageError } from '../common/errors.js';
import { listFiles, NOT_EVIDENCE } from '../store/evidence.js';
import type { Git } from '../os/git.js';
import { processRunning } from '../os/process.js';

export interface LoopHome {
  root: string;
  evidence: string;
  /** The name of this loop's check workspace folders (see judge/judge-root.ts: one per run, removed when it ends). */
  judge: string;
}

/**
 * Beside the loop's evidence while the verdict it holds was taken in from elsewhere (a restored
 * artifact, a committed tree, another clone) and not yet judged again by a run of this home: such a
 * verdict is no reason to stop ("nothing to do"); the next run's checks are (SPEC §7 Resume).
 */
export const adoptedMark = (evidenceRoot: string) => `${evidenceRoot}.adopted`;

export const homeName = (evRel: string) => evRel.replace(/[^A-Za-z0-9._-]/g, '_');

/** The folders of the loop home, outermost first (made by loopHome). */
export async function homeFolders(git: Git, evRel: string): Promise<[top: string, root: string, evidence: string]> {
  const top = join(await git.commonDir(), 'phuc-loop');
  const root = join(top, homeName(evRel));
  return [top, root, join(root, 'evidence')];
}

export async function loopHome(git: Git, evRel: string): Promise<LoopHome> {
  const [top, root, evidence] = await homeFolders(git, evRel);
  // 0711: another user may pass through to the check workspace, never list or read what is here.
  for (const dir of [top, root]) {
    await mkdir(dir, { recursive: true, mode: 0o711 });
    await chmod(dir, 0o711);
  }
  await mkdir(evidence, { recursive: true, mode: 0o700 });
  await chmod(evidence, 0o700);
  const judge = `judge-${createHash('sha256').update(root).digest('hex').slice(0, 16)}`;
  return { root, evidence, judge };
}

/** One loop per evidence tree; a lock left by a dead loop (or a zombie) is taken over. */
export async function acquireLock(home: LoopHome, host: string): Promise<(() => Promise<void>) | string> {
  const path = join(home.root, 'run.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fh = await open(path, 'wx', 0o600);
      await fh.writeFile(`${process.pid}@${host}\n`);
      await fh.close();
      return () => rm(path, { force: true });
    } catch {
      const [pid, owner] = (await readFile(path, 'utf8').catch(() => '')).trim().split('@');
      if (owner === host && Number(pid) > 0 && processRunning(Number(pid)))
        return `another phuc-loop (pid ${pid}) is running on this evidence tree; the oldest loop keeps running: wait for it to end (or stop it: touch scratch/STOP), then \`phuc-loop run\` again`;
      await rm(path, { force: true });
    }
  }
  return 'could not take the evidence lock (another loop took it meanwhile): `phuc-loop run` again once it has ended';
}

export const hasFiles = async (root: string) =>
  (await stat(root).catch(() => null))?.isDirectory() && (await listFiles(root)).some((f) => !NOT_EVIDENCE.has(f));

/** Every folder from `within` down to `target` that exists is a real folder (not a link, FIFO or device). */
export async function assertRealFolders(within: string, target: string): Promise<void> {
  const rel = relative(within, target).split(sep).filter(Boolean);
  for (let k = 1; k <= rel.length; k++) {
    const p = join(within, ...rel.slice(0, k));
    const st = await lstat(p).catch(() => null);
    if (st && !st.isDirectory())
      throw new StorageError(
        `${relative(within, p)} is not a folder (${st.isSymbolicLink() ? 'a symbolic link' : 'a special file'}): move it away, then \`phuc-loop run\` again; the evidence stays in .git/phuc-loop until then`,
      );
  }
}
