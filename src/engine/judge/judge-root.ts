// Where check workspaces live: outside `.git` (test runners skip files under a `.git` path) and
// under parents nobody else can write. Node looks for node_modules and package.json, pytest for
// pytest.ini and conftest.py, in every parent folder, so a workspace under the world-writable /tmp
// would pick up what another user (the agent) planted there. The loop's judging and
// `verify --rerun` both choose their folder here.
import { execFile } from 'node:child_process';
import { chmod, lstat, mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface JudgeRoot {
  path: string;
  /** What the place leaves open when it is not a safe one (null when it is). */
  warning: string | null;
}

const SAFE_BASE = '/var/lib/phuc-loop';

/**
 * A folder (mode 0711) for check workspaces under `/var/lib/phuc-loop`, made by root (or through
 * `sudo -n`): `name` itself, kept across runs so setup outputs are reused, or with `fresh` a new
 * folder named after it. Where neither root nor sudo can make that place, a new folder in the temp
 * folder, with a warning saying what that leaves open.
 */
export async function judgeRoot(name: string, opts: { fresh?: boolean } = {}): Promise<JudgeRoot> {
  const base = await safeBase();
  const path = base ? await folderIn(base, name, opts.fresh ?? false) : null;
  // A base this user cannot write (root's, reached without root) leaves the temp folder.
  if (path && (await ownedSafely(path))) return { path, warning: null };
  const own = await mkdtemp(join(tmpdir(), `phuc-loop-${name}-`));
  await chmod(own, 0o711);
  return {
    path: own,
    warning: `the check workspace is under ${tmpdir()}, which other users can write: a test tool that searches parent folders (node_modules, pytest.ini, conftest.py) can find files planted there; run as root or with passwordless sudo for ${SAFE_BASE}`,
  };
}

/** `name` under `base` (made if missing), or a new folder named after it; null when this user cannot make it there. */
async function folderIn(base: string, name: string, fresh: boolean): Promise<string | null> {
  try {
    if (fresh) {
      const path = await mkdtemp(join(base, `${name}-`));
      await chmod(path, 0o711);
      return path;
    }
    await mkdir(join(base, name), { mode: 0o711 });
  } catch (e) {
    if (fresh || (e as NodeJS.ErrnoException).code !== 'EEXIST') return null;
  }
  return join(base, name);
}

async function safeBase(): Promise<string | null> {
  const uid = process.getuid?.() ?? -1;
  const made = await mkdir(SAFE_BASE, { mode: 0o755 }).then(
    () => true,
    (e: unknown) => (e as NodeJS.ErrnoException).code === 'EEXIST',
  );
  // Under passwordless sudo (GitHub-hosted runners): a folder of root's, handed to this user.
  if (!made && uid !== 0) await sudoFolder(SAFE_BASE);
  if (!((await ownedSafely(SAFE_BASE)) && (await parentsSafe(SAFE_BASE)))) return null;
  if (uid === 0 || (await lstat(SAFE_BASE)).uid === uid) return SAFE_BASE;
  // Root's already (a loop ran as root on this machine): under sudo, a folder of this user's in it.
  const own = join(SAFE_BASE, `uid-${String(uid)}`);
  if ((await lstat(own).catch(() => null))?.uid !== uid) await sudoFolder(own);
  return (await ownedSafely(own)) && (await lstat(own)).uid === uid ? own : null;
}

/** `path` made (or handed over) by root through `sudo -n` as a 0755 folder of this user's; silent when that fails. */
function sudoFolder(path: string): Promise<void> {
  const [uid, gid] = [process.getuid?.() ?? -1, process.getgid?.() ?? -1];
  return new Promise<void>((resolve) =>
    execFile('sudo', ['-n', 'install', '-d', '-m', '0755', '-o', String(uid), '-g', String(gid), path], { timeout: 10_000 }, () => resolve()),
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
