// A sandboxed command's view of the file system (sandbox-init.pl's arguments): the machine
// read-only, its own folders writable, private scratch folders, covers over what its role cannot
// traverse (and, for the checks, the agent's work tree), the loop's folders in a work tree read-only,
// and the machine's unix sockets masked where it has a network of its own.
import { lstatSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { readFile, realpath, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { firstBlocked } from './reach.js';
import type { RoleUser, SandboxRole } from './role-users.js';

/** What a command's view is made of. */
export interface ViewOf {
  /** The command's folder. */
  cwd: string;
  /** The role's user (user+pidns), null at pidns. */
  user: RoleUser | null;
  /** The command's environment: its HOME and TMPDIR are kept writable. */
  env: Record<string, string>;
  role: SandboxRole;
  /** Folders of the loop's its view must hold (the network gate's). */
  seen: string[];
  /** The machine's unix sockets to mask (where it has a network of its own). */
  sockets: readonly string[];
  /** The sandbox's base folder, which the roles must traverse. */
  base: string;
  /** The agent's work tree (hidden from the checks that do not run in it). */
  workTree: string | null;
  /** agent.writable, and each as it resolved when the run began. */
  writable: readonly string[];
  writableReal: readonly Promise<string | null>[];
  /** The work tree a role holds, with the loop's own folders in it. */
  held: { root: string; loopOwned: string[] } | null;
}

const SHM = '/dev/shm';

interface Scratch {
  mode: string;
  path: string;
  /** /dev/shm: made empty, it holds the other folders' private layers. */
  shm: boolean;
}

/**
 * Folders every user may write (the FHS's): each wrapped command gets its own (see sandbox-init.pl).
 * Any other such folder of the machine is read-only to it.
 */
const SCRATCH = ['/tmp', '/var/tmp', SHM, '/run/lock'];

/** The kernel's interfaces: not made read-only (their own permissions hold; /proc is the command's own). */
const KERNEL_FS = new Set([
  'proc',
  'sysfs',
  'cgroup',
  'cgroup2',
  'devpts',
  'securityfs',
  'debugfs',
  'tracefs',
  'pstore',
  'bpf',
  'configfs',
  'fusectl',
  'binfmt_misc',
  'autofs',
  'efivarfs',
  'rpc_pipefs',
  'nsfs',
]);

/** `p` is `f` or lies under it. */
export const under = (p: string, f: string) => p === f || p.startsWith(f === sep ? f : f + sep);

/** The writable mounts of the loop's mount namespace (which the command's starts as a copy of), but the kernel's interfaces. */
/**
 * A folder the loop made for a command (its HOME, its TMPDIR), resolved, unless its last part is
 * no longer a folder but a link (a role owns what is inside its HOME, not the folder HOME lies in):
 * sandbox-init.pl would bind whatever the link names writable, above the read-only machine and the
 * covers. Such a folder is not kept (null).
 */
async function ownFolder(p: string | undefined): Promise<string | null> {
  if (!p) return null;
  const [real, parent] = await Promise.all([realpath(p).catch(() => null), realpath(dirname(p)).catch(() => null)]);
  return real !== null && parent !== null && real === join(parent, basename(p)) ? real : null;
}

/** A configured folder resolved now, kept only where it still resolves to where it did when the run began. */
async function same(folder: string, then: string | null): Promise<string | null> {
  const now = await realpath(folder).catch(() => null);
  return now !== null && now === then ? now : null;
}

async function mountPoints(): Promise<string[]> {
  const points = new Set<string>();
  for (const line of (await readFile('/proc/self/mountinfo', 'utf8')).split('\n')) {
    // id parent major:minor root point options [optional…] - type source super-options
    const f = line.split(' ');
    const dash = f.indexOf('-', 6);
    if (dash < 0) continue;
    const point = f[4].replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));
    if (KERNEL_FS.has(f[dash + 1]) || f[5].split(',').includes('ro') || under(point, '/proc') || under(point, '/sys')) continue;
    points.add(point);
  }
  return [...points];
}

let scratchKnown: Promise<Scratch[]> | null = null;

/** This machine's scratch folders: those of SCRATCH that exist as real folders every user may write. */
function scratchFolders(): Promise<Scratch[]> {
  return (scratchKnown ??= Promise.all(
    SCRATCH.map(async (f): Promise<Scratch | null> => {
      const real = await realpath(f).catch(() => null);
      const st = real === null ? null : await stat(real).catch(() => null);
      return real && st?.isDirectory() && st.mode & 0o002 ? { mode: (st.mode & 0o7777).toString(8), path: real, shm: f === SHM } : null;
    }),
  ).then((all) => {
    const found = all.filter((e): e is Scratch => e !== null);
    const paths = found.map((e) => e.path);
    // Once each (/var/lock is /run/lock), and none inside another (it comes with it).
    return found.filter((e, i) => paths.indexOf(e.path) === i && !paths.some((g) => g !== e.path && under(e.path, g)));
  }));
}

/**
 * sandbox-init.pl's arguments (see that file). Covered: the first ancestor of the folder that the
 * role cannot traverse, so that the role sees nothing else under it (another user's HOME, the
 * runner's temporary files). Read-only: every mount of the machine but the kernel's interfaces, so
 * the only places the command can leave something are its own folders and the private scratch
 * folders, and a later command of either role finds only what a clean checkout would hold.
 */
export async function layout(v: ViewOf): Promise<string[]> {
  const { cwd, user, env, role, seen, sockets } = v;
  const real = await realpath(cwd).catch(() => resolve(cwd));
  const blocked = user && real !== sep ? await firstBlocked(dirname(real), user) : null;
  if (blocked !== null && under(v.base, blocked))
    throw new Error(`the sandbox folder ${v.base} lies under ${blocked}, which the role users cannot traverse; set TMPDIR to a traversable folder`);
  const [mounts, scratch, wanted] = await Promise.all([
    mountPoints(),
    scratchFolders(),
    Promise.all([
      Promise.resolve(real),
      ...[env.HOME, env.TMPDIR].map(ownFolder),
      ...seen.map((p) => Promise.resolve(p)),
      ...v.writable.map((w, i) => v.writableReal[i].then((r) => same(w, r))),
    ]),
  ]);
  // Where a cover or a scratch folder hides a folder, what lies under it needs nothing of its own.
  // The checks never see the agent's work tree unless they run in it; nor what lies under a cover.
  const tree = role === 'check' && v.workTree && !under(real, v.workTree) ? v.workTree : null;
  const covers = [blocked, tree].filter((c): c is string => c !== null);
  const outer = covers.filter((c) => !covers.some((d) => d !== c && under(c, d)));
  const shared = scratch.filter((f) => !outer.some((c) => under(f.path, c)));
  const hidden = [...shared.map((f) => f.path), ...outer];
  const readOnly = mounts.filter((m) => !hidden.some((h) => under(m, h)));
  const writable = [...new Set(wanted)].filter((p): p is string => p !== null && p !== sep);
  // One kept inside another comes with it.
  const keep = writable.filter((p) => !writable.some((q) => q !== p && under(p, q)));
  // The loop's folders in a work tree a role holds: read-only at every level (at user+pidns their
  // owner keeps them too; at pidns the role is the loop's own user).
  const held = v.held && under(real, v.held.root) ? v.held : null;
  const loops = held
    ? held.loopOwned.map((f) => join(held.root, f)).filter((f) => under(f, real) && lstatSync(f, { throwIfNoEntry: false })?.isDirectory())
    : [];
  if (keep.length > 7) throw new Error(`agent.writable: a command can be given at most 7 folders to write, its own three included (got ${keep.join(', ')})`);
  // /dev/shm holds the layers; sandbox-init.pl splits its path unquoted: plain characters only, else
  // it is covered like the others, and those get empty folders.
  // The machine's sockets it could reach: not those under a cover or scratch, nor in its own folders (the network gate's).
  const masked = sockets.filter((p) => !hidden.some((h) => under(p, h)) && !keep.some((k) => under(p, k)));
  const shm = shared.find((f) => f.shm && /^[A-Za-z0-9/._-]+$/.test(f.path));
  const layered = shared.filter((f) => f !== shm);
  return [
    real,
    String(keep.length),
    ...keep,
    String(readOnly.length),
    ...readOnly,
    user ? '' : ',userxattr',
    shm?.path ?? '',
    String(layered.length),
    ...layered.flatMap((f) => [f.mode, f.path]),
    String(outer.length),
    ...outer.flatMap((c) => ['0755,size=1m', c]),
    String(loops.length),
    ...loops,
    String(masked.length),
    ...masked,
  ];
}

/** Where the base folder goes: the temp folder, or /tmp when the roles could not reach the former. */
export async function baseParent(strong: boolean): Promise<string> {
  const t = tmpdir();
  if (!strong || (await firstBlocked(await realpath(t))) === null) return t;
  return '/tmp';
}
