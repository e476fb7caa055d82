// Where check workspaces live: outside `.git` (test runners skip files under a `.git` path) and
// under parents nobody else can write. Node looks for node_modules and package.json, pytest for
// pytest.ini and conftest.py, in every parent folder, so a workspace under the world-writable /tmp
// would pick up what another user (the agent) planted there. The loop's judging and
// `verify --rerun` both choose their folder here.
//
// Every run gets a folder of its own (`<name>-XXXXXX`), removed when it ends. Its owner file names
// the process that made it (pid, start time, host): a folder whose process is gone (a run that was
// killed) is removed by the next run on this machine; a live run's never is. The shared base is
// 0711 (nobody lists it) and each folder is closed to everyone but the check user by `confine`
// (see Sandbox.confine): whatever the checks do to the modes below it, the agent cannot enter.
import { execFile } from 'node:child_process';
import { chmod, lstat, mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { parseDocument } from '../common/document.js';
import { processRunning, readStartTime } from '../os/process.js';

export interface JudgeRoot {
  path: string;
  /** What the place leaves open when it is not a safe one (null when it is). */
  warning: string | null;
}

const SAFE_BASE = '/var/lib/phuc-loop';
/** The file in a judge folder that names the process it belongs to. */
const OWNER = 'owner.json';
/** A folder of an older version (no owner file) untouched for this long belongs to no live run. */
const LEGACY_AGE_MS = 3_600_000;

const ownerSchema = z.object({
  pid: z.number().int(),
  /** The process's start time (see readStartTime): a reused pid is not the owner. */
  start: z.string().nullable(),
  host: z.string(),
  /** Kept on purpose until then (epoch ms), e.g. the logs of a rerun that disagreed. */
  keep_until: z.number().optional(),
});
type Owner = z.infer<typeof ownerSchema>;

export interface JudgeRootOptions {
  /**
   * Closes the new folder to everyone but the check user (Sandbox.confine): called before anything
   * is written into it. Without it the folder is the loop's only (mode 0700).
   */
  confine?: (dir: string) => Promise<void>;
}

/**
 * A new folder for one run's check workspaces under `/var/lib/phuc-loop` (made by root, or through
 * `sudo -n`), named after `name`, with the owner file written and `confine` applied. Where neither
 * root nor sudo can make that place, a new folder in the temp folder, with a warning saying what
 * that leaves open. The caller removes it when the run ends (a killed run's: sweepJudgeRoots).
 */
export async function judgeRoot(name: string, opts: JudgeRootOptions = {}): Promise<JudgeRoot> {
  const base = await safeBase();
  let path = base ? await mkdtemp(join(base, `${name}-`)).catch(() => null) : null;
  // A base this user cannot write (root's, reached without root) leaves the temp folder.
  if (path && !(await ownedSafely(path))) path = null;
  const warning = path
    ? null
    : `the check workspace is under ${tmpdir()}, which other users can write: a test tool that searches parent folders (node_modules, pytest.ini, conftest.py) can find files planted there; run as root or with passwordless sudo for ${SAFE_BASE}`;
  path ??= await mkdtemp(join(tmpdir(), `phuc-loop-${name}-`));
  await chmod(path, 0o700);
  await writeOwner(path, {});
  await opts.confine?.(path);
  return { path, warning };
}

/** Keeps `path` (a folder judgeRoot made) for `ms` after its process ended, e.g. for logs the user is told to read. */
export async function keepJudgeRoot(path: string, ms: number): Promise<void> {
  await writeOwner(path, { keep_until: Date.now() + ms });
}

async function writeOwner(path: string, extra: Partial<Owner>): Promise<void> {
  const owner: Owner = { pid: process.pid, start: readStartTime(process.pid), host: hostname(), ...extra };
  await writeFile(join(path, OWNER), JSON.stringify(owner) + '\n', { mode: 0o600 });
}

/**
 * Removes the judge folders (under the base this user's runs use) that no live run owns: the
 * owner file names a process that is gone (or a pid now reused), or, for a folder of an older
 * version without one, nothing in it changed for an hour. `remove` removes a folder as root (the
 * check user's files are in it). Never throws: a folder that cannot be removed is left for later.
 */
export async function sweepJudgeRoots(remove: (dir: string) => Promise<void>, now = Date.now()): Promise<string[]> {
  const base = await safeBase().catch(() => null);
  const bases = [base, tmpdir()].filter((b): b is string => !!b);
  const removed: string[] = [];
  for (const b of bases) {
    const names = await readdir(b).catch(() => [] as string[]);
    for (const n of names) {
      const inTmp = b !== base;
      if (!(inTmp ? /^phuc-loop-(?:judge|rerun)-/ : /^(?:judge|rerun)-/).test(n)) continue;
      const dir = join(b, n);
      const st = await lstat(dir).catch(() => null);
      // Only the loop user's own folders (or root's): never another user's files in the temp folder.
      if (!st?.isDirectory() || (st.uid !== (process.getuid?.() ?? -1) && st.uid !== 0)) continue;
      if (!(await abandoned(dir, now, inTmp))) continue;
      try {
        await remove(dir);
        removed.push(dir);
      } catch {
        // Another run removes it at the same time, or it is not ours to remove: left as it is.
      }
    }
  }
  return removed;
}

async function abandoned(dir: string, now: number, inTmp: boolean): Promise<boolean> {
  const text = await readFile(join(dir, OWNER), 'utf8').catch(() => null);
  if (text !== null) {
    let o: Owner;
    try {
      o = parseDocument(OWNER, text, ownerSchema);
    } catch {
      return false;
    }
    if (typeof o.keep_until === 'number' && o.keep_until > now) return false;
    if (o.host !== hostname()) return newestChange(dir).then((t) => now - t > 24 * LEGACY_AGE_MS);
    return !ownerAlive(o);
  }
  // Older versions left no owner file (and in the temp folder a run may be just making it).
  if (inTmp) return false;
  return now - (await newestChange(dir)) > LEGACY_AGE_MS;
}

/** The newest change time of the folder and the ones a live run rewrites every round. */
async function newestChange(dir: string): Promise<number> {
  const paths = [dir, join(dir, 'ws'), join(dir, 'fresh'), join(dir, 'workspace'), join(dir, 'logs')];
  const times = await Promise.all(
    paths.map((p) =>
      lstat(p).then(
        (s) => Math.max(s.mtimeMs, s.ctimeMs),
        () => 0,
      ),
    ),
  );
  return Math.max(...times);
}

function ownerAlive(o: Owner): boolean {
  return o.pid === process.pid || processRunning(o.pid, o.start);
}

async function safeBase(): Promise<string | null> {
  const uid = process.getuid?.() ?? -1;
  const made = await mkdir(SAFE_BASE, { mode: 0o711 }).then(
    () => true,
    (e: unknown) => (e as NodeJS.ErrnoException).code === 'EEXIST',
  );
  // Under passwordless sudo (GitHub-hosted runners): a folder of root's, handed to this user.
  if (!made && uid !== 0) await sudoFolder(SAFE_BASE);
  if (!((await ownedSafely(SAFE_BASE)) && (await parentsSafe(SAFE_BASE)))) return null;
  const st = await lstat(SAFE_BASE);
  if (uid === 0 || st.uid === uid) {
    // Traversable, never listable: which runs and repositories there are is nobody else's business.
    if ((st.mode & 0o777) !== 0o711) await chmod(SAFE_BASE, 0o711).catch(() => undefined);
    return SAFE_BASE;
  }
  // Root's already (a loop ran as root on this machine): under sudo, a folder of this user's in it.
  const own = join(SAFE_BASE, `uid-${String(uid)}`);
  const ownSt = await lstat(own).catch(() => null);
  if (ownSt?.uid !== uid) await sudoFolder(own);
  else if ((ownSt.mode & 0o777) !== 0o711) await chmod(own, 0o711).catch(() => undefined);
  return (await ownedSafely(own)) && (await lstat(own)).uid === uid ? own : null;
}

/** `path` made (or handed over) by root through `sudo -n` as a 0711 folder of this user's; silent when that fails. */
function sudoFolder(path: string): Promise<void> {
  const [uid, gid] = [process.getuid?.() ?? -1, process.getgid?.() ?? -1];
  return new Promise<void>((resolve) =>
    execFile('sudo', ['-n', 'install', '-d', '-m', '0711', '-o', String(uid), '-g', String(gid), path], { timeout: 10_000 }, () => resolve()),
  );
}

/** A real folder of this user (or root's), writable by no one else. */
async function ownedSafely(path: string): Promise<boolean> {
  const st = await lstat(path).catch(() => null);
  const uid = process.getuid?.() ?? -1;
  return !!st && st.isDirectory() && (st.uid === uid || st.uid === 0) && (st.mode & 0o022) === 0;
}

/** Every parent folder belongs to root and is writable by no one else. */
async function parentsSafe(path: string): Promise<boolean> {
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    const st = await lstat(dir).catch(() => null);
    if (!st || !st.isDirectory() || st.uid !== 0 || (st.mode & 0o022) !== 0) return false;
    if (dir === dirname(dir)) return true;
  }
}
