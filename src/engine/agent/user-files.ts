// The user's git-ignored files (`.env`, a local dataset, notes, a local config): git holds none of
// them, so neither HEAD nor refs/phuc-loop/user-work can bring one back once the agent deletes or
// overwrites it. The loop keeps them itself (SPEC §7: nothing of the user's is deleted).
//
// How, and what it costs. Once per run, before the first agent step, every ignored file outside
// the regenerable folders gets a hard link in `<loop home>/user-files/` (.git/phuc-loop/…, 0700,
// out of the agent's reach at user+pidns): no bytes are copied, a few thousand files take tens of
// milliseconds, and the link keeps the inode whatever the agent does to the name (rm -rf, mv, a
// file or link put in its place, its folder replaced by a link). A file with a second link is
// never handed to the agent (Sandbox.grantWorkTree leaves such files alone), so at user+pidns the
// user's ignored files stay the user's during the step: the agent can read them (as their mode
// says) and replace or delete them, not write them in place. Where it could write one in place —
// at pidns and none, where it runs as the loop's user, or a file whose mode lets others write —
// the shared inode would change with it, so the loop also keeps a copy of the bytes, for files up
// to COPY_MAX_BYTES each and COPY_TOTAL_BYTES in all; a larger one changed in place is reported,
// not put back. After every step each kept file is looked at (lstat: inode, size, mtime, ctime,
// mode; its folders must be real folders): an intact one costs one lstat, a changed one is put
// back (a fresh link or a copy, renamed into place) and named in the iteration's artifacts.json
// and the log. A step the loop never saw end (a crash) is put back by the next run.
//
// Regenerable folders are left out, by name at any depth (`user_files.regenerable`, default
// DEFAULT_REGENERABLE in config/regenerable.ts): dependencies, virtual environments, build output and caches may hold
// 100,000 files, the agent's builds must write them, and their content comes back from a build.
// What the loop itself writes during the run is left out too: scratch/, the report channel. What
// stands under the names the loop keeps for itself (loop/own-paths.ts: notes in evidence/, the trees
// it publishes there, the agent CLIs' state files such as .claude/settings.local.json) is kept, and
// what the agent makes there is removed after its step.
import { closeSync, constants, openSync, rmSync } from 'node:fs';
import { chmod, copyFile, lchown, link, lstat, mkdir, readFile, readlink, rename, rm, symlink, unlink, utimes } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { parseDocument } from '../common/document.js';
import { atomicWrite } from '../os/atomic-write.js';
import type { Git } from '../os/git.js';
import { ancestorInTheWay } from '../os/tree-file.js';
import { inChunks, listIgnored, removeEmptied, reservedEntries } from './ignored-files.js';
import { type Kept, keptSchema, record, sameStamp, stamp } from './kept-file.js';

/** A copy of the bytes is kept for files up to this size where the agent could write the file in place. */
export const COPY_MAX_BYTES = 1024 * 1024;
export const COPY_TOTAL_BYTES = 256 * 1024 * 1024;
/** Beyond this many ignored files, the rest is not kept (the log says so and how to leave folders out). */
export const MAX_KEPT = 100_000;

/** What putBack found and did. */
export interface PutBack {
  /** The user's ignored files the agent had deleted, replaced or changed: put back as they were. */
  restored: string[];
  /** Those that could not be put back, with why. */
  failed: { path: string; error: string }[];
  /** Restored ones a `protected` glob matches (a guardrail, as for a tracked protected path). */
  protectedChanged: string[];
  /** Ignored files the agent made under a `protected` glob: removed. */
  protectedRemoved: string[];
  /** Files the agent made under a name the loop keeps for itself (own-paths.ts whyReserved): removed. */
  reservedRemoved: string[];
}

const INDEX = 'index.json';
const STEP = 'step';
/** The entries under the loop's names the take found (the user's): `watched.found`. */
const FOUND = 'reserved.json';

/** What the take leaves out: the regenerable folders (unless under a reserved name) and what the loop writes during the run. */
const leaveOutOf =
  (o: Pick<TakeOptions, 'regenerable' | 'loopOwned' | 'reserved'>) =>
  (p: string): boolean =>
    (!o.reserved(p) && p.split('/').some((s) => o.regenerable.includes(s))) || o.loopOwned(p);

/** Where a loop keeps the user's ignored files: beside its evidence in the loop home. */
export const userFilesStore = (evidenceRoot: string) => join(dirname(evidenceRoot), 'user-files');

export interface TakeOptions {
  git: Git;
  cwd: string;
  store: string;
  /** Folder names left out (regenerable). */
  regenerable: readonly string[];
  /** What the loop itself writes during the run (scratch/, the report channel): left out. */
  loopOwned: (path: string) => boolean;
  /**
   * Under a name the loop keeps for itself (own-paths.ts whyReserved: evidence/, its published trees,
   * the agent CLIs' state): the user's files there are kept whatever their names, and what the agent makes there is removed.
   */
  reserved: (path: string) => boolean;
  /** The folders whose own entries may bear a reserved name (the top, the folders on the way to the published evidence: own-paths.ts). */
  reservedIn: readonly string[];
  /** Keep a copy of every (small enough) file: the agent could write the files in place (pidns, none). */
  copyAll: boolean;
}

export class UserFiles {
  private constructor(
    private readonly store: string,
    private readonly cwd: string,
    private readonly kept: Map<string, Kept>,
    private readonly leaveOut: (path: string) => boolean,
    private readonly reserved: (path: string) => boolean,
    private readonly git: Git | null,
    /** What the take left out or could not keep, for the log. */
    readonly notes: string[],
    /** The folders whose reserved entries are watched, and those entries as the take found them (the user's). */
    private readonly watched: { in: readonly string[]; found: ReadonlySet<string> } = { in: [], found: new Set() },
  ) {}

  get count(): number {
    return this.kept.size;
  }

  /** Whether `path` is one of the user's ignored files the loop keeps. */
  has(path: string): boolean {
    return this.kept.has(path);
  }

  /** Keeps every ignored file of the user's (see the top of this file); a store left by another run is replaced. */
  static async take(o: TakeOptions): Promise<UserFiles> {
    await rm(o.store, { recursive: true, force: true });
    await mkdir(join(o.store, 'l'), { recursive: true, mode: 0o700 });
    await mkdir(join(o.store, 'c'), { recursive: true, mode: 0o700 });
    await chmod(o.store, 0o700);
    const leaveOut = leaveOutOf(o);
    const { entries, truncated } = await listIgnored(o.git, o.cwd, leaveOut, { max: MAX_KEPT, stats: true });
    const notes: string[] = [];
    if (truncated)
      notes.push(
        `more than ${MAX_KEPT} git-ignored files outside the regenerable folders: only the first ${MAX_KEPT} are kept; name the folders a build makes in user_files.regenerable`,
      );
    const kept = new Map<string, Kept>();
    let copiedBytes = 0;
    let n = 0;
    await inChunks(entries, async ({ path, st }) => {
      const k = record(path, n++, st!);
      kept.set(path, k);
      const abs = join(o.cwd, path);
      if (k.kind === 'link') {
        k.target = await readlink(abs);
        return;
      }
      const linked = await link(abs, join(o.store, 'l', String(k.n))).then(
        () => true,
        (e: unknown) => (e as NodeJS.ErrnoException).code ?? 'error',
      );
      k.linked = linked === true;
      const writable = o.copyAll || (k.mode & 0o002) !== 0 || !k.linked;
      const size = Number(st!.size);
      if (writable && size <= COPY_MAX_BYTES && copiedBytes + size <= COPY_TOTAL_BYTES) {
        copiedBytes += size;
        k.copied = await copyFile(abs, join(o.store, 'c', String(k.n)), constants.COPYFILE_EXCL).then(
          () => true,
          () => false,
        );
      }
      if (!k.linked && !k.copied)
        k.unkept = `neither a hard link (${String(linked)}) nor a copy (over ${COPY_MAX_BYTES} bytes, or the copies' ${COPY_TOTAL_BYTES} in all)`;
      // The link changed the file's ctime: the record is the state after it.
      if (k.linked) Object.assign(k, stamp(await lstat(abs, { bigint: true })));
    });
    const unkept = [...kept.values()].filter((k) => k.unkept);
    if (unkept.length) notes.push(`${unkept.length} git-ignored file(s) could not be kept (${unkept[0].path}: ${unkept[0].unkept})`);
    const found = await reservedEntries(o.cwd, o.reservedIn, o.reserved);
    // Kept with the files: a run killed during a step leaves the next one to tell the agent's from these.
    await atomicWrite(join(o.store, FOUND), JSON.stringify(found));
    const files = new UserFiles(o.store, o.cwd, kept, leaveOut, o.reserved, o.git, notes, { in: o.reservedIn, found: new Set(found) });
    await files.save();
    return files;
  }

  /**
   * The store a run left (killed during an agent step): its files put back, and what the agent made
   * under the names the loop keeps for itself removed, as after any step (`scope`: the take's); then
   * the store removed. Null when there was none.
   */
  static async recover(store: string, cwd: string, scope: Omit<TakeOptions, 'cwd' | 'store' | 'copyAll'>): Promise<PutBack | null> {
    const text = await readFile(join(store, INDEX), 'utf8').catch(() => null);
    const inStep = await lstat(join(store, STEP)).then(
      () => true,
      () => false,
    );
    let out: PutBack | null = null;
    if (text !== null && inStep) {
      const list = parseDocument(`${INDEX} of the kept git-ignored files`, text, z.array(keptSchema));
      const found = await readFile(join(store, FOUND), 'utf8').then(
        (t) => parseDocument(`${FOUND} of the entries under the loop's names`, t, z.array(z.string())),
        () => null,
      );
      // A store without that record (an older loop's) removes nothing: what it cannot tell apart stays.
      const reserved = found ? scope.reserved : () => false;
      const watched = { in: found ? scope.reservedIn : [], found: new Set(found) };
      const files = new UserFiles(store, cwd, new Map(list.map((k) => [k.path, k])), leaveOutOf(scope), reserved, scope.git, [], watched);
      out = await files.putBack(() => false);
    }
    await rm(store, { recursive: true, force: true });
    return out;
  }

  /** An agent step starts: until putBack, a run that dies leaves the files to the next run to put back. */
  // Made and removed synchronously (an empty file in the loop's own folder, twice an iteration):
  // never through a link, and a FIFO planted there fails the open instead of blocking it.
  stepStarts(): void {
    closeSync(openSync(join(this.store, STEP), constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK, 0o600));
  }

  /**
   * After the agent's step (the agent user holds nothing of the tree any more): every kept file that
   * is not as it was is put back; ignored files the agent made under a protected glob are removed.
   * `ignored`: what git listed as ignored after the step, when the caller has it (Git.status).
   */
  async putBack(isProtected: (path: string) => boolean, ignored?: string[]): Promise<PutBack> {
    const out: PutBack = { restored: [], failed: [], protectedChanged: [], protectedRemoved: [], reservedRemoved: [] };
    const folders = new Map<string, Promise<boolean>>();
    const realFolders = (dir: string): Promise<boolean> => {
      if (dir === '.' || dir === '') return Promise.resolve(true);
      let p = folders.get(dir);
      if (!p) {
        p = realFolders(dirname(dir)).then(async (up) => up && !!(await lstat(join(this.cwd, dir)).catch(() => null))?.isDirectory());
        folders.set(dir, p);
      }
      return p;
    };
    // Looked at in parallel (lstat only, a folder once); those to put back are put back in parallel too.
    const todo: [Kept, 'replace' | 'inplace'][] = [];
    await inChunks([...this.kept.values()], async (k) => {
      const verdict = (await realFolders(dirname(k.path))) ? await this.state(k) : 'replace';
      if (verdict !== 'intact') todo.push([k, verdict]);
    });
    const done = new Set<string>();
    await inChunks(todo, async ([k, verdict]) => {
      try {
        if (verdict === 'inplace' ? await this.inPlace(k) : (await this.restore(k), true)) done.add(k.path);
      } catch (e) {
        out.failed.push({ path: k.path, error: e instanceof Error ? e.message : String(e) });
      }
    });
    for (const [k] of todo.sort((a, b) => a[0].n - b[0].n))
      if (done.has(k.path)) {
        out.restored.push(k.path);
        if (isProtected(k.path)) out.protectedChanged.push(k.path);
      }
    out.failed.sort((a, b) => (a.path < b.path ? -1 : 1));
    if (this.git) {
      const { entries } = await listIgnored(this.git, this.cwd, this.leaveOut, { max: Infinity, stats: false, listed: ignored });
      for (const { path } of entries) {
        const removed =
          this.kept.has(path) || ancestorInTheWay(this.cwd, path)
            ? null
            : isProtected(path)
              ? out.protectedRemoved
              : this.reserved(path)
                ? out.reservedRemoved
                : null;
        if (!removed) continue;
        await rm(join(this.cwd, path), { force: true });
        removed.push(path);
      }
      await removeEmptied(this.cwd, out.reservedRemoved);
      // What is left under a reserved name the take did not find holds no file git lists (an empty
      // folder, a FIFO): the agent's all the same, a name the next step could read.
      for (const path of await reservedEntries(this.cwd, this.watched.in, this.reserved))
        if (!this.watched.found.has(path)) {
          await rm(join(this.cwd, path), { recursive: true, force: true });
          out.reservedRemoved.push(path);
        }
    }
    if (todo.length) await this.save();
    rmSync(join(this.store, STEP), { force: true });
    return out;
  }

  /** The end of the run: a step that was not put back is (an iteration cut short), then the store goes. */
  async close(): Promise<PutBack | null> {
    const inStep = await lstat(join(this.store, STEP)).then(
      () => true,
      () => false,
    );
    const out = inStep ? await this.putBack(() => false) : null;
    await rm(this.store, { recursive: true, force: true });
    return out;
  }

  private async save(): Promise<void> {
    // Atomic: a run killed while writing it leaves the index the next run reads, whole.
    await atomicWrite(join(this.store, INDEX), JSON.stringify([...this.kept.values()]));
  }

  /** Intact, replaced (deleted, renamed, another file or a link in its place) or changed in place. */
  private async state(k: Kept): Promise<'intact' | 'replace' | 'inplace'> {
    const abs = join(this.cwd, k.path);
    const st = await lstat(abs, { bigint: true }).catch(() => null);
    if (!st) return 'replace';
    if (k.kind === 'link') return st.isSymbolicLink() && (await readlink(abs).catch(() => null)) === k.target ? 'intact' : 'replace';
    if (!st.isFile() || String(st.ino) !== k.ino || String(st.dev) !== k.dev) return 'replace';
    const now = stamp(st);
    return sameStamp(now, k) ? 'intact' : 'inplace';
  }

  /** The same inode, its stamp changed: put back from the copy when the bytes differ; returns whether anything was put back. */
  private async inPlace(k: Kept): Promise<boolean> {
    const abs = join(this.cwd, k.path);
    if (k.copied) {
      const [now, was] = await Promise.all([readFile(abs), readFile(this.copyOf(k))]);
      if (!now.equals(was)) {
        await this.restore(k);
        return true;
      }
    } else {
      const st = stamp(await lstat(abs, { bigint: true }));
      if (st.size !== k.size || st.mtimeNs !== k.mtimeNs)
        throw new Error(
          `changed in place, and the loop kept no copy of it (${k.unkept ?? `over ${COPY_MAX_BYTES} bytes, or the copies' ${COPY_TOTAL_BYTES} in all`})`,
        );
    }
    // Same bytes (a link made to it, its mode changed): the mode goes back, the record follows.
    const modeChanged = stamp(await lstat(abs, { bigint: true })).mode !== k.mode;
    if (modeChanged) await chmod(abs, k.mode & 0o7777);
    Object.assign(k, stamp(await lstat(abs, { bigint: true })));
    return modeChanged;
  }

  private copyOf(k: Kept): string {
    return join(this.store, 'c', String(k.n));
  }

  /**
   * Puts the file back at its path: what the agent put in the way (a link or a file in place of a
   * folder: removed, never followed; a folder in place of the file: removed) goes, the folders are
   * made, and a fresh link (or a copy) is renamed into place.
   */
  private async restore(k: Kept): Promise<void> {
    if (k.unkept) throw new Error(`the loop could not keep it: ${k.unkept}`);
    for (let inWay = ancestorInTheWay(this.cwd, k.path), guard = 0; inWay; inWay = ancestorInTheWay(this.cwd, k.path)) {
      if (inWay.what === 'a step out of the tree' || guard++ > 64) throw new Error(`${inWay.path} is ${inWay.what}`);
      // Another file of the same folder may have removed it meanwhile.
      await unlink(join(this.cwd, inWay.path)).catch((e: unknown) => {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      });
    }
    const abs = join(this.cwd, k.path);
    await mkdir(dirname(abs), { recursive: true });
    if ((await lstat(abs).catch(() => null))?.isDirectory()) await rm(abs, { recursive: true, force: true });
    const tmp = `${abs}.phuc-loop-${randomBytes(4).toString('hex')}`;
    const held = join(this.store, 'l', String(k.n));
    // The held link is the file as it was unless the agent wrote it in place before it went.
    // (Its ctime changed when the agent removed the name: size, mtime and mode tell.)
    const heldIntact =
      k.linked &&
      (await lstat(held, { bigint: true }).then(
        (st) => sameStamp({ ...stamp(st), ctimeNs: k.ctimeNs }, k),
        () => false,
      ));
    if (k.kind === 'link') await symlink(k.target!, tmp);
    else if (k.copied && !heldIntact) {
      await copyFile(this.copyOf(k), tmp, constants.COPYFILE_EXCL);
      await lchown(tmp, k.uid, k.gid).catch(() => undefined);
      await chmod(tmp, k.mode & 0o7777);
      const t = Number(BigInt(k.mtimeNs) / 1_000_000n) / 1000;
      await utimes(tmp, t, t);
    } else await link(held, tmp);
    await rename(tmp, abs);
    if (k.kind === 'file' && k.copied && k.linked && !heldIntact) {
      // The held link may be the inode the agent wrote: it follows the file put back.
      const next = `${held}.next`;
      await rm(next, { force: true });
      await link(abs, next);
      await rename(next, held);
    }
    Object.assign(k, stamp(await lstat(abs, { bigint: true })));
  }
}
