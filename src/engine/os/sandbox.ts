// The OS sandbox of the agent and of the checks, which run the agent's code (SPEC §7 "Isolation").
//
// The levels are isolation.ts's.
//
// The process chain of a wrapped command (user+pidns; pidns adds a user namespace, drops the uid switch):
//
//   bwrap --die-with-parent --unshare-pid --unshare-ipc [--unshare-net] --dev-bind / / --proc /proc
//     bwrap (PID 1 of the namespace, root: the agent can neither signal nor trace it)
//       perl sandbox-init.pl … U G …              root: the command's view of the file system, no keyrings,
//         the command (exec'd)                    then user U, group G, no other group, no capability, no_new_privs
//
// bubblewrap (Debian/Ubuntu package `bubblewrap`) builds the namespaces; with --unshare-net it brings
// loopback up. When the command ends, bwrap's PID 1 exits and the kernel kills everything left in
// the namespace (setsid, env -i, double fork, SIGTERM ignored: all the same). To stop a run, the loop
// sends SIGTERM to the process group: bwrap ends at once and its --die-with-parent kills the
// namespace (no grace for the command: it may have started anything). If the loop dies, the
// parent-death signal does the same.
//
// Under sudo the loop may signal nothing but sudo, which relays SIGTERM to its command: there the
// chain is `sudo -n env -i sh sandbox-load.sh` → `timeout -k GRACE LIMIT` → bwrap …, and timeout turns the
// relayed SIGTERM into SIGTERM to the group. Its LIMIT (the run's time limit and some) ends the
// namespace if the loop itself dies.
import { chmod, chown, lstat, mkdir, mkdtemp, realpath, writeFile } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import type { ContainedRun, RunSpec } from './ports.js';
import { removeTree } from './tree-file.js';
import { outOfView } from './reach.js';
import { commandNetwork, hostSockets, networkLimit, networkRecord, openNetwork, type NetworkPolicy, type NetworkRecord, type RunNetwork } from './network.js';
import { installPrograms } from './programs.js';
import { NAMESPACES, NO_SETFACL, SHARED_NETWORK, sharedFolders, USER_NAMESPACE, type Isolation, type IsolationLevel } from './isolation.js';
import { ensureUsers, type RoleUser, type SandboxRole } from './role-users.js';
import { RootCommands } from './root-commands.js';
import { filterHex, initNumbers, KEY_SYSCALLS } from './sandbox-keys.js';
import { DEFAULT_PATH, findTools, IsolationUnavailableError, NAMESPACE_TOOLS, toolsFor, USER_TOOLS, type Tools } from './sandbox-tools.js';
import { baseParent, layout, type ViewOf } from './sandbox-view.js';
import { envFileText, ReachablePath, roleEnvironment, seconds, writeHome } from './role-env.js';

// The names the rest of the engine takes from here.
export {
  ISOLATION_LEVELS,
  isolationLimits,
  IsolationUnavailableError,
  probeIsolation,
  resolveIsolation,
  type Isolation,
  type IsolationFacts,
  type IsolationLevel,
  type IsolationRequest,
  type Privilege,
} from './isolation.js';
export { ROLE_USERS, type RoleUser, type SandboxRole } from './role-users.js';
export { withoutRoleVariables } from './role-env.js';

export interface WrapOptions {
  /** Files for the role's HOME (path relative to HOME → content): folders 0700, files 0600, the role's. */
  homeFiles?: Readonly<Record<string, string>>;
}

export interface SandboxOptions {
  /** The loop's environment: only PATH, LANG, LANGUAGE, LC_* and TZ are taken from it (default process.env). */
  env?: Record<string, string | undefined>;
  /** Between the SIGTERM that stops a run and the kill of its namespace (default 1500 ms). */
  killGraceMs?: number;
  /** Folders outside its own that every command may write (agent.writable); the rest of the machine is read-only to it. */
  writable?: readonly string[];
  /**
   * The agent's work tree: hidden from the checks (an empty folder at its path) unless they run in it
   * (checks.workspace: live). What the agent left there beside its commit (an ignored file) would
   * otherwise be read by absolute path, in every round and in the fresh confirmation.
   */
  workTree?: string;
  /** agent.network and checks.network (default: both open, the machine's network). */
  network?: NetworkPolicy;
  /** Told each host the agent asked for and was refused (the log says what to allow). */
  onRefused?: (host: string, how: string) => void;
}

/**
 * The sandbox of one loop run: the role users, a base folder (mode 0711 at user+pidns: the roles
 * traverse it but cannot list it) holding each run's fresh HOME and TMPDIR, and the wrapping.
 */
export class Sandbox {
  readonly level: IsolationLevel;
  readonly reason: string;
  readonly limits: readonly string[];
  /** The network policy as this machine applies it (recorded in every certificate). */
  readonly network: NetworkRecord;
  /** The key proxy's port, relayed into the agent's namespace (useKeyProxy). */
  private keyPort: number | null = null;
  private readonly writableReal: Promise<string | null>[];
  private runs = 0;
  /** Under sudo: folders of ended runs, removed by the next run's loader (or by dispose). */
  private ended: string[] = [];
  private readonly paths = new ReachablePath();
  private readonly loop = userInfo();
  /** The work tree a role holds (grantWorkTree to reclaimWorkTree), with the loop's own folders in it. */
  private held: { root: string; loopOwned: string[] } | null = null;
  /** Root's commands: the find/chown around every agent step and check round. */
  private readonly root: RootCommands;

  private constructor(
    iso: Isolation,
    readonly base: string,
    private readonly tools: Tools,
    /** Set under sudo only: the loop is not root. */
    private readonly sudo: string | null,
    private readonly users: Readonly<Record<SandboxRole, RoleUser>> | null,
    private readonly loopEnv: Record<string, string | undefined>,
    private readonly graceMs: number,
    private readonly extra: Extras,
    private readonly writable: readonly string[],
    /** SandboxOptions.workTree, real. */
    private readonly workTree: string | null,
    private readonly net: RunNetwork,
  ) {
    this.level = iso.level;
    this.root = new RootCommands(tools, sudo, users, extra.setfacl, extra.breakLinks);
    this.network = networkRecord(net.policy, net.why === null);
    this.reason = iso.reason;
    const ns = iso.level !== 'none';
    // Resolved once, before any command ran: a link a role puts in their place later leads nowhere new.
    this.writableReal = writable.map((w) => realpath(w).catch(() => null));
    this.limits = [
      ...iso.limits,
      ...(users && !extra.setfacl ? [NO_SETFACL] : []),
      ...(writable.length && ns ? [sharedFolders(writable)] : []),
      ...(net.why === null ? [] : [networkLimit(net.why)]),
      ...(net.gate && net.policy.checks !== 'open' ? [] : [SHARED_NETWORK]),
    ];
  }

  static async create(iso: Isolation, o: SandboxOptions = {}): Promise<Sandbox> {
    const found = findTools();
    const strong = iso.level === 'user+pidns';
    const tools = toolsFor(found, strong ? USER_TOOLS : iso.level === 'pidns' ? NAMESPACE_TOOLS : []);
    let sudo: string | null = null;
    if (strong && iso.privilege !== 'root') {
      if (iso.privilege !== 'sudo' || !found.sudo) throw new IsolationUnavailableError('agent.isolation: user+pidns needs root or passwordless sudo');
      sudo = found.sudo;
    }
    const users = strong ? await ensureUsers(sudo) : null;
    const base = await mkdtemp(join(await baseParent(strong), 'phuc-sandbox-'));
    await chmod(base, strong ? 0o711 : 0o700);
    const keys = KEY_SYSCALLS[process.arch];
    if (!keys && iso.level !== 'none')
      throw new IsolationUnavailableError(`agent.isolation: ${iso.level} runs on x86_64 and arm64 only (this machine is ${process.arch})`);
    const bin = keys ? await installPrograms(join(base, 'bin'), ['break-links.sh', 'sandbox-init.pl', 'sandbox-load.sh']) : null;
    const init = bin && keys ? [tools.perl, bin['sandbox-init.pl'], filterHex(keys), ...initNumbers(keys)] : [];
    const extra: Extras = { setfacl: found.setfacl, init, load: bin?.['sandbox-load.sh'] ?? '', breakLinks: bin?.['break-links.sh'] ?? '' };
    const workTree = o.workTree ? await realpath(o.workTree).catch(() => resolve(o.workTree!)) : null;
    const policy = o.network ?? { agent: 'open', checks: 'open' };
    const net = await openNetwork(policy, iso.level !== 'none', { dir: join(base, 'net'), perl: tools.perl }, o.onRefused ?? (() => undefined));
    return new Sandbox(iso, base, tools, sudo, users, o.env ?? process.env, o.killGraceMs ?? 1500, extra, o.writable ?? [], workTree, net);
  }

  /** The key proxy (listening on the loop's 127.0.0.1:port) becomes reachable at the same address in the agent's namespace. */
  async useKeyProxy(port: number): Promise<void> {
    if (!this.net.gate) return;
    await this.net.gate.relayKeyProxy(port);
    this.keyPort = port;
  }

  /** The role's user (user+pidns only). */
  user(role: SandboxRole): RoleUser | null {
    return this.users?.[role] ?? null;
  }

  /**
   * Why each of `paths` (files a command runs by absolute path) is out of the role's view, where it
   * is: at user+pidns a folder the role's user cannot traverse is an empty one to it.
   */
  async outOfView(paths: readonly string[], role: SandboxRole): Promise<string[]> {
    const user = this.users?.[role];
    return user ? outOfView(paths, user) : [];
  }

  /**
   * The spec that runs `spec` as `role`. Its environment: PATH (at user+pidns without the
   * directories the role cannot reach), LANG, LC_* and TZ of the loop, the role's HOME, TMPDIR,
   * USER and LOGNAME (fresh and empty for every run above `none`; the loop's own at `none`), then
   * `spec.env`, which wins (so pass only what the command needs: never the loop's environment).
   * Run it with NodeProcessRunner, which stops it and releases its folders (RunSpec.contained).
   * `o.homeFiles` are written into that HOME before the command starts, the role's own; at `none`
   * they get a fresh HOME and TMPDIR of the loop's (removed by dispose): the user's is never written.
   */
  async wrap(spec: RunSpec, role: SandboxRole, o: WrapOptions = {}): Promise<RunSpec> {
    const files = Object.entries(o.homeFiles ?? {});
    if (this.level === 'none' && files.length === 0) return { ...spec, env: this.environment(role, null, spec.env) };
    const dir = join(this.base, `${role}-${String(++this.runs)}`);
    const home = join(dir, 'home');
    const tmp = join(dir, 'tmp');
    await mkdir(dir, { mode: this.users ? 0o711 : 0o700 });
    await Promise.all([mkdir(home, { mode: 0o700 }), mkdir(tmp, { mode: 0o700 })]);
    const made = await writeHome(home, files);
    if (this.level === 'none') return { ...spec, env: this.environment(role, { home, tmp }, spec.env) };
    const release = async () => {
      if (this.sudo) this.ended.push(dir);
      else await removeTree(dir);
    };
    const contained: ContainedRun = { graceMs: this.graceMs, forceKill: (pid) => this.root.forceKill(pid), release };
    try {
      return await this.chain(spec, role, { dir, home, tmp, made }, contained);
    } catch (e) {
      await contained.release().catch(() => undefined);
      throw e;
    }
  }

  private async chain(
    spec: RunSpec,
    role: SandboxRole,
    d: { dir: string; home: string; tmp: string; made: string[] },
    contained: ContainedRun,
  ): Promise<RunSpec> {
    const t = this.tools;
    const net = commandNetwork(this.net, role, spec.network === 'open', this.keyPort);
    const env = { ...this.environment(role, d, spec.env), ...net?.env };
    const command = spec.args ? [spec.command, ...spec.args] : ['/bin/sh', '-c', spec.command];
    const user = this.users?.[role];
    // Its own network namespace (bwrap brings its loopback up); the forwarder, if any, runs as its root.
    const unshareNet = net ? ['--unshare-net'] : [];
    const forward = net?.argv ?? [];
    const seen = net?.dirs ?? [];
    const sockets = net ? await hostSockets() : [];
    if (!user) {
      const where = await this.layout({ cwd: spec.cwd, user: null, env, role, seen, sockets });
      // '-': the namespace's root, without a capability.
      const args = [...USER_NAMESPACE, ...NAMESPACES, ...unshareNet, '--', ...this.extra.init, '-', '-', ...where, '--', ...forward, ...command];
      return { ...spec, command: t.bwrap, args, env, contained };
    }
    env.PATH = await this.paths.of(env.PATH || DEFAULT_PATH, user);
    // The work tree belongs to the role while the loop's .git does not: git must not refuse it as
    // "dubious ownership" (only configuration given this way or globally counts for that).
    const n = Number(env.GIT_CONFIG_COUNT) || 0;
    Object.assign(env, { GIT_CONFIG_COUNT: String(n + 1), [`GIT_CONFIG_KEY_${String(n)}`]: 'safe.directory', [`GIT_CONFIG_VALUE_${String(n)}`]: '*' });
    const where = await this.layout({ cwd: spec.cwd, user, env, role, seen, sockets });
    const as = [String(user.uid), String(user.gid)];
    const ns = [t.bwrap, ...NAMESPACES, ...unshareNet, '--', ...this.extra.init, ...as, ...where, '--', ...forward, ...command];
    // The spawn itself starts in `/`: sandbox-init.pl enters the command's folder as root.
    if (!this.sudo) {
      await Promise.all([d.home, d.tmp, ...d.made].map((p) => chown(p, user.uid, user.gid)));
      return { ...spec, cwd: '/', command: t.bwrap, args: ns.slice(1), env, contained };
    }
    const envFile = join(d.dir, 'env');
    await writeFile(envFile, envFileText(env), { mode: 0o600 });
    const ended = this.ended.splice(0);
    const ids = `${String(user.uid)}:${String(user.gid)}`;
    const load = ['-n', '--', t.env, '-i', t.sh, this.extra.load, t.rm, t.chown, envFile, ids, d.home, d.tmp, String(ended.length), ...ended];
    const limit = spec.timeoutMs === undefined ? '0' : seconds(spec.timeoutMs + 2 * this.graceMs + 1000);
    const relay = [t.timeout, '-k', seconds(this.graceMs), limit];
    // timeout ends the namespace itself after the grace: the loop's own kill is the last resort.
    const late: ContainedRun = { ...contained, graceMs: this.graceMs + 1000 };
    return { ...spec, cwd: '/', command: this.sudo, args: [...load, ...relay, ...ns], env: { PATH: DEFAULT_PATH }, contained: late };
  }

  private environment(role: SandboxRole, dirs: { home: string; tmp: string } | null, given: Record<string, string>): Record<string, string> {
    return roleEnvironment(this.loopEnv, this.users?.[role].name ?? this.loop.username, dirs, given);
  }

  /** sandbox-init.pl's arguments for one command (sandbox-view.ts). */
  private layout(v: Pick<ViewOf, 'cwd' | 'user' | 'env' | 'role' | 'seen' | 'sockets'>): Promise<string[]> {
    return layout({ ...v, base: this.base, workTree: this.workTree, writable: this.writable, writableReal: this.writableReal, held: this.held });
  }

  /**
   * Gives the work tree (everything except .git) to the role's user (the agent for its step, the
   * checks for a live round), which may then write it; .git stays the loop's (readable). Under sudo
   * the loop cannot write the tree until `reclaimWorkTree`.
   */
  async grantWorkTree(cwd: string, keep: string[] = [], role: SandboxRole = 'agent'): Promise<void> {
    this.held = { root: await realpath(cwd), loopOwned: ['.git', ...keep] };
    const u = this.users?.[role];
    if (u) await this.root.lendWorkTree(cwd, keep, u);
  }

  /** Gives everything in the work tree back to the owner of `.git`. Call it only when no wrapped command runs in the tree. */
  async reclaimWorkTree(cwd: string): Promise<void> {
    this.held = null;
    await this.root.takeBackWorkTree(cwd);
  }

  /**
   * Gives `dir` and everything in it but the `skip` paths (relative to it) to the role (e.g. the
   * clean check workspace); `dir` itself becomes 0700, so no other user (the agent) can enter it.
   */
  async grant(role: SandboxRole, dir: string, skip: readonly string[] = []): Promise<void> {
    const u = this.users?.[role];
    if (!u) return;
    // Under sudo a folder granted before is the role's already, with that mode. There the loop reads
    // what the role wrote (logs, JUnit, git's stat refresh) through the top folder's group, its own.
    if ((await lstat(dir)).uid !== u.uid) await chmod(dir, this.sudo ? 0o750 : 0o700);
    await this.root.chownTree(dir, u.uid, u.gid, [...skip]);
    if (this.sudo) await this.root.asRoot([this.tools.chown, `${String(u.uid)}:${String(this.loop.gid)}`, dir]);
  }

  /**
   * Gives back a folder granted before, before the loop writes into it again or removes it: under
   * sudo the loop cannot touch the role's files otherwise (root can; there this does nothing).
   */
  async takeBack(dir: string): Promise<void> {
    if (this.sudo && (await lstat(dir).catch(() => null))) await this.reclaim(dir);
  }

  /** Gives `dir` and everything in it back to the loop's user (e.g. to read what the checks wrote). */
  async reclaim(dir: string): Promise<void> {
    await this.root.takeFromRoles(dir, this.loop, [], false);
  }

  /**
   * Closes `dir` (a folder of the loop's) to everyone but `role`: at user+pidns it stays the loop's,
   * with the role's group and mode 0710, so the role may traverse it (never list or write it) and
   * no other user (the agent) may enter it at all. Whatever the role does to the modes of what it
   * is given below (a check that chmods its workspace 0777), the other role cannot reach it: only
   * root or the loop could change this folder. Below user+pidns the roles are the loop's user: 0700.
   */
  async confine(role: SandboxRole, dir: string): Promise<void> {
    const u = this.users?.[role];
    if (!u) {
      await chmod(dir, 0o700);
      return;
    }
    if (this.sudo) await this.root.asRoot([this.tools.chown, `${String(this.loop.uid)}:${String(u.gid)}`, dir]);
    else await chown(dir, this.loop.uid, u.gid);
    await chmod(dir, 0o710);
  }

  /** Removes `dir` and everything in it, the roles' files included (as root). */
  async remove(dir: string): Promise<void> {
    await this.root.remove(dir);
  }

  /**
   * A fresh folder of the loop under the sandbox's base, for a workspace handed to a role piece by
   * piece (`grant`): the roles may traverse it (mode 0711) but neither list nor write it.
   */
  async privateDir(): Promise<string> {
    const dir = await mkdtemp(join(this.base, 'private-'));
    if (this.users) await chmod(dir, 0o711);
    return dir;
  }

  /**
   * A fresh folder the loop writes for the role to read (the prompt, the capsule): owned by the
   * role, group the loop's, setgid. The other role cannot enter it. The role's commands see it
   * read-only (or, under a scratch folder, with a private layer): nothing they write there stays.
   */
  async exchangeDir(role: SandboxRole): Promise<string> {
    const dir = await mkdtemp(join(this.base, `${role}-io-`));
    const u = this.users?.[role];
    if (!u) return dir;
    await chmod(dir, 0o2770);
    if (this.sudo) await this.root.asRoot([this.tools.chown, `${String(u.uid)}:${String(this.loop.gid)}`, dir]);
    else await chown(dir, u.uid, this.loop.gid);
    return dir;
  }

  /** Removes the base folder and everything in it. */
  async dispose(): Promise<void> {
    try {
      await this.net.gate?.close();
      await this.root.remove(this.base);
    } finally {
      await this.root.close();
    }
  }
}

interface Extras {
  /** Strips the roles' ACLs; null where the acl package is missing (then said in the limits). */
  setfacl: string | null;
  /** The first program inside each command's namespaces, before its arguments: sandbox-init.pl with this architecture's numbers. */
  init: string[];
  /** sandbox-load.sh, the root prelude under sudo. */
  load: string;
  /** break-links.sh, root's copy of a role's file with other links (RootCommands.takeFromRoles). */
  breakLinks: string;
}
