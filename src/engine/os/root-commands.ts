// Root's commands around the roles' work (user+pidns): handing folders to a role and taking them
// back, removing what a role made, killing what is left of a command: through one long-lived root
// shell (`sudo -n sh -s` under sudo).
import { chmod, lstat, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
import { performance } from 'node:perf_hooks';
import { shellQuote } from '../common/shell-quote.js';
import { processDescendants, processRunning } from './process-tree.js';
import { ROOT_COMMAND_MS, type RoleUser, type SandboxRole } from './role-users.js';
import { DEFAULT_PATH, firstLine, type Tools } from './sandbox-tools.js';
import { ShellSession } from './shell-session.js';
import { readRegularSync, removeTree } from './tree-file.js';

/** Root's commands of one sandbox. */
export class RootCommands {
  /**
   * Root's commands (the find/chown around every agent step and check round): one long-lived shell
   * (under sudo, `sudo -n sh -s`), which forks each for a fraction of what a spawn of the loop costs.
   */
  private shell: ShellSession | null = null;

  constructor(
    private readonly tools: Tools,
    /** Set under sudo only: the loop is not root. */
    private readonly sudo: string | null,
    private readonly users: Readonly<Record<SandboxRole, RoleUser>> | null,
    /** Strips the roles' ACLs; null where the acl package is missing (then said in the limits). */
    private readonly setfacl: string | null,
    /** break-links.sh, in a folder only the loop writes. */
    private readonly breakLinks: string,
  ) {}

  async chmod(path: string, mode: number): Promise<void> {
    if (this.sudo) await this.asRoot([this.tools.chmod, mode.toString(8), path]);
    else await chmod(path, mode);
  }

  /**
   * Gives back to `owner` what the roles own under `root` (but the `skip` folders, and `root`
   * itself where it is the work tree's top). Before the chown, so that nothing of a role's survives
   * in what the loop keeps: a name in the tree for a role's file with other links (one outside the
   * tree, which the chown would hand over too) becomes a copy of its own; the role's ACLs go (a
   * default ACL would open what the loop makes there later); no group or other may write, and no
   * setuid, setgid or sticky bit stays.
   */
  async takeFromRoles(root: string, owner: { uid: number; gid: number }, skip: string[], keepTop: boolean): Promise<void> {
    if (!this.users) return;
    const t = this.tools;
    const theirs = ['(', '-uid', String(this.users.agent.uid), '-o', '-uid', String(this.users.check.uid), ')'];
    const over = (...test: string[]): [string, ...string[]] => [t.find, root, ...this.pruned(root, skip, keepTop), ...theirs, ...test];
    await this.asRoot([...over('!', '-type', 'd', '-links', '+1'), ...eachEntry([t.sh, this.breakLinks, t.mktemp, t.cp, t.mv, t.rm])]);
    // Before the chmod: without its ACL a file's group bits are the ACL's group entry again.
    if (this.setfacl) await this.asRoot([...over('!', '-type', 'l'), ...eachEntry([this.setfacl, '-b'])]);
    // No mode that outlives the hand-back (a setgid or sticky folder, a setuid file, one group or
    // others may write): what git checks out never has one. The user's own come back (restorePrivateModes).
    // One walk with the chown (`,` tests every entry on both sides, before either's batch runs): a chown by
    // root adds no mode bit, so the order of the two batches does not matter.
    await this.asRoot([
      t.find,
      root,
      ...this.pruned(root, skip, keepTop),
      '(',
      '(',
      ...theirs,
      '!',
      '-type',
      'l',
      '-perm',
      '/7022',
      ...eachEntry([t.chmod, 'ug-s,o-t,go-w']),
      ')',
      ',',
      ...this.owned(owner.uid, owner.gid),
      ')',
    ]);
  }

  /**
   * find's arguments from `root` on: past the `skip` folders (relative to root), below `root` itself
   * where `keepTop`. An entry gone between find's reading of its folder and its look at it is no
   * error (`-ignore_readdir_race`): taking the tree back must not fail on a file the loop's own
   * writes or a role's last act replaced meanwhile.
   */
  pruned(root: string, skip: string[], keepTop: boolean): string[] {
    const paths = skip.flatMap((p, i) => [...(i ? ['-o'] : []), '-path', join(root, p)]);
    return ['-ignore_readdir_race', ...(keepTop ? ['-mindepth', '1'] : []), ...(skip.length ? ['(', ...paths, ')', '-prune', '-o'] : [])];
  }

  /**
   * chown of every entry under `root` whose owner differs, but a file with several hard links
   * (changing it would change a file elsewhere; takeFromRoles has copied the roles' own). find -P
   * (its default) never follows a link; chown -h changes the link.
   */
  async chownTree(root: string, uid: number, gid: number, skip: string[], keepTop = false): Promise<void> {
    await this.asRoot([this.tools.find, root, ...this.pruned(root, skip, keepTop), ...this.owned(uid, gid)]);
  }

  /** find's expression that gives `uid`:`gid` each entry with another owner (chownTree's), in parentheses: one side of a `,`. */
  private owned(uid: number, gid: number): string[] {
    const differs = ['(', '!', '-uid', String(uid), '-o', '!', '-gid', String(gid), ')', '(', '-type', 'd', '-o', '-links', '1', ')'];
    return ['(', ...differs, ...eachEntry([this.tools.chown, '-h', `${String(uid)}:${String(gid)}`]), ')'];
  }

  async remove(path: string): Promise<void> {
    if (this.sudo) await this.asRoot([this.tools.rm, '-rf', '--', path]);
    else await removeTree(path);
  }

  async forceKill(pid: number): Promise<void> {
    const pids = [pid, ...processDescendants(pid)];
    if (this.sudo) await this.asRoot([this.tools.kill, '-s', 'KILL', '--', ...pids.map(String)]).catch(() => undefined);
    else
      for (const p of [-pid, ...pids])
        try {
          process.kill(p, 'SIGKILL');
        } catch {
          // gone
        }
    // SIGKILL takes effect as each process next runs, and the namespace's other members die after its
    // init: the run has ended once none of them runs (a second at most; zombies do not run).
    const until = performance.now() + 1000;
    while (pids.some((p) => processRunning(p)) && performance.now() < until) await new Promise((r) => setTimeout(r, 5));
  }

  /** Runs a command as root (through sudo -n unless the loop is root); throws on failure. */
  async asRoot(argv: [string, ...string[]]): Promise<void> {
    if (!this.shell || this.shell.ended)
      this.shell = await ShellSession.start('/', { PATH: DEFAULT_PATH }, ROOT_COMMAND_MS, this.sudo ? [this.sudo, '-n', '--', '/bin/sh', '-s'] : undefined);
    const r = await this.shell.run(argv.map(shellQuote).join(' '));
    if (r.exitCode !== 0) throw new Error(`${argv.slice(0, 2).join(' ')} failed: ${firstLine(r)}`);
  }

  /**
   * Gives the work tree (everything except .git) to the role's user (the agent for its step, the
   * checks for a live round), which may then write it; .git stays the loop's (readable). Fast when
   * nothing changed: only entries with another owner are touched. Under sudo the loop cannot write
   * the tree until `reclaimWorkTree`.
   */
  async lendWorkTree(cwd: string, keep: string[], u: RoleUser): Promise<void> {
    // The loop's own folders (the STOP file's): made if missing, never handed over. In the sticky top
    // folder the role can neither remove nor rename them, nor add to or delete from them.
    for (const k of keep) await mkdir(join(cwd, k), { mode: 0o755 }).catch(() => undefined);
    // The top folder keeps its owner (git refuses a checkout whose top folder another user owns,
    // "dubious ownership", which would also hit the user's own git after a crash); it is opened
    // with the sticky bit instead, so the role can add entries but not remove .git. Its mode is
    // kept in .git (which the agent cannot write) until reclaimWorkTree puts it back.
    const top = await lstat(cwd);
    const saved = join(cwd, '.git', 'phuc-loop', 'worktree-mode');
    if (!(await readFile(saved, 'utf8').catch(() => null))) {
      await mkdir(dirname(saved), { recursive: true, mode: 0o711 });
      await writeFile(saved, (top.mode & 0o7777).toString(8));
    }
    await this.chmod(cwd, 0o1777);
    // What group and others may not read (a 0600 file, a 0700 folder), which the role could open to
    // them (git keeps no such bit), and the user's own special or shared modes (a setgid folder, a
    // group-writable one), which the hand-back clears: their modes, kept beside the top folder's until reclaimWorkTree.
    // One walk lists them and hands the tree over (`,`: each entry's mode is printed when it is
    // tested, before the chown's batch runs; a chown by root adds no mode bit in any case).
    const skip = ['.git', ...keep];
    await this.asRoot([
      this.tools.find,
      cwd,
      ...this.pruned(cwd, skip, true),
      '(',
      '(',
      '!',
      '-type',
      'l',
      '(',
      '!',
      '-perm',
      '-044',
      '-o',
      '-perm',
      '/7022',
      ')',
      '-fprintf',
      join(dirname(saved), PRIVATE_MODES),
      '%m %P\\0',
      ')',
      ',',
      ...this.owned(u.uid, u.gid),
      ')',
    ]);
  }

  /**
   * Gives everything in the work tree back to the owner of `.git` (which the loop never hands over),
   * including what the roles created, and the top folder its mode. Stateless: a run that crashed is
   * repaired by the next one. Call it only when no wrapped command runs in the tree.
   */
  async takeBackWorkTree(cwd: string): Promise<void> {
    const saved = join(cwd, '.git', 'phuc-loop', 'worktree-mode');
    // Read on the loop's thread (after every step; never through a link, never waiting on a FIFO).
    const mode = readRegularSync(saved)?.toString('utf8') ?? null;
    if (!this.users && mode === null) return;
    // The top folder first: whatever fails below, the roles can no longer add to it.
    if (mode !== null && /^[0-7]{1,4}$/.test(mode.trim())) await this.chmod(cwd, parseInt(mode.trim(), 8));
    const owner = await lstat(join(cwd, '.git'));
    await this.takeFromRoles(cwd, owner, ['.git'], true);
    await restorePrivateModes(cwd, join(dirname(saved), PRIVATE_MODES));
    await rm(saved, { force: true });
  }

  async close(): Promise<void> {
    await this.shell?.close();
    this.shell = null;
  }
}

/**
 * A path of 3800 bytes or more, as find's -path pattern: in root's C locale each `?` takes one byte.
 * Not `-regex '.{3800,}'`: compiling that costs find some 8 ms of CPU, and the loop runs a few such
 * finds around every agent step and check round.
 */
const LONG_PATH = `${'?'.repeat(3800)}*`;

/**
 * find's action `command… {}` on each entry found, batched: by its full path, or, where that path is
 * too long for a system call (PATH_MAX, 4096 bytes: folders a role nested deep), from the entry's
 * own folder (-execdir, one batch per folder).
 */
function eachEntry(command: string[]): string[] {
  return ['(', '(', '-path', LONG_PATH, '-execdir', ...command, '{}', '+', ')', '-o', '-exec', ...command, '{}', '+', ')'];
}

/** The work tree's entries group and others could not read, or with special or shared modes, before a role held it (grantWorkTree). */
const PRIVATE_MODES = 'worktree-private-modes';

/**
 * Gives each entry listed in `file` ("<octal mode> <path>", NUL-ended) its group, other and special
 * bits back: what the role opened is closed again, the user's setgid folder is one again; the owner's
 * bits (the executable bit git keeps) stay the role's change. Never through a link; a path past
 * PATH_MAX or gone is left.
 */
async function restorePrivateModes(cwd: string, file: string): Promise<void> {
  const list = readRegularSync(file);
  if (!list) return;
  // Names are bytes (not always UTF-8): each path is built as bytes too.
  const top = Buffer.from(cwd.endsWith(sep) ? cwd : cwd + sep);
  for (let start = 0, end = list.indexOf(0); end >= 0; start = end + 1, end = list.indexOf(0, start)) {
    const record = list.subarray(start, end);
    const at = record.indexOf(0x20);
    if (at < 0) continue;
    const was = parseInt(record.subarray(0, at).toString('latin1'), 8) & 0o7077;
    const path = Buffer.concat([top, record.subarray(at + 1)]);
    const st = await lstat(path).catch(() => null);
    if (!st || st.isSymbolicLink() || (st.mode & 0o7077) === was) continue;
    await chmod(path, (st.mode & 0o700) | was).catch(() => undefined);
  }
  await rm(file, { force: true });
}
