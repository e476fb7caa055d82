// The OS sandbox of the agent and of the checks, which run the agent's code (SPEC §7 "Isolation").
//
// Levels, strongest first (docs/security.md says what each guarantees and what it does not):
// - `user+pidns`: the command runs as a dedicated unprivileged user (phuc-agent, phuc-check) with
//   no groups, no capabilities and no_new_privs, a fresh HOME and TMPDIR, in its own PID and mount
//   namespace with its own /proc. Needs root, or passwordless `sudo -n` (GitHub-hosted runners).
// - `pidns`: own user, PID and mount namespace, no capabilities, but the loop's own uid.
// - `none`: the command runs beside the loop; only the process-table sweep of process.ts contains it.
//
// The process chain of a wrapped command (user+pidns; pidns adds a user namespace, drops the uid switch):
//
//   bwrap --die-with-parent --unshare-pid --unshare-ipc [--unshare-net] --dev-bind / / --proc /proc
//     bwrap (PID 1 of the namespace, root: the agent can neither signal nor trace it)
//       perl sandbox-init.pl …                    root: the command's view of the file system, no keyrings
//         setpriv --reuid U --regid G --clear-groups --no-new-privs …   the command (exec'd)
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
import { lstatSync } from 'node:fs';
import { chmod, chown, lstat, mkdir, mkdtemp, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { basename, dirname, join, resolve, sep } from 'node:path';
import type { ContainedRun, RunResult, RunSpec } from './ports.js';
import { shellQuote } from '../agent/agents.js';
import { readRegularSync, removeTree } from './tree-file.js';
import { NodeProcessRunner, processDescendants, processRunning, ShellSession } from './process.js';
import { SYSTEM_DIRS, systemTool } from './spawner.js';
import { firstBlocked, outOfView } from './reach.js';
import { hostSockets, NetworkGate, networkLimit, networkRecord, type NetworkPolicy, type NetworkRecord } from './network.js';
import { installPrograms, programText } from './programs.js';

export const ISOLATION_LEVELS = ['user+pidns', 'pidns', 'none'] as const;
export type IsolationLevel = (typeof ISOLATION_LEVELS)[number];
export type IsolationRequest = IsolationLevel | 'auto';
export type SandboxRole = 'agent' | 'check';
/** How the loop acts as root for user+pidns. */
export type Privilege = 'root' | 'sudo';

/** Variables the sandbox sets for its role (a fresh HOME and TMPDIR, a PATH the role can reach). */
const ROLE_OWNED_ENV = new Set(['HOME', 'TMPDIR', 'USER', 'LOGNAME', 'PATH', 'PWD', 'OLDPWD']);

/** `env` without the variables the sandbox sets for the role: given, they would replace the role's own (see wrap). */
export function withoutRoleVariables(env: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter(([k]) => !ROLE_OWNED_ENV.has(k)));
}

/** The dedicated users: system users with no login shell, no sudo rights and no other groups. */
export const ROLE_USERS: Readonly<Record<SandboxRole, string>> = { agent: 'phuc-agent', check: 'phuc-check' };

const SYSTEM_PATH = SYSTEM_DIRS.join(':');
const DEFAULT_PATH = '/usr/local/bin:/usr/bin:/bin';
/** The only variables taken from the loop's environment (besides PATH); the caller adds the rest. */
const LOCALE_VARS = /^(LANG|LANGUAGE|LC_[A-Z_]+|TZ)$/;
const SHELL_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** What the probe found; tests pass their own. A string says why the level cannot run here. */
export interface IsolationFacts {
  privilege: Privilege | null;
  userPidns: string | null;
  pidns: string | null;
  /** Set where a program both levels above `none` are built with (bwrap, perl) is missing: what, and how to install it. */
  needs?: string;
}

export interface Isolation {
  level: IsolationLevel;
  /** One sentence: why this level (for the report). */
  reason: string;
  /** Plain sentences: what this level does not guarantee (for the report and the job summary). */
  limits: string[];
  privilege: Privilege | null;
}

/** An explicitly requested level that this machine cannot provide. */
export class IsolationUnavailableError extends Error {}

const NAMESPACE_TOOLS = ['sh', 'bwrap', 'perl', 'setpriv'] as const;
const USER_TOOLS = [...NAMESPACE_TOOLS, 'chown', 'chmod', 'find', 'rm', 'kill', 'env', 'timeout', 'cp', 'mv', 'mktemp'] as const;
/** The package that brings a tool, named where it is missing (Debian's and Ubuntu's names). */
const PACKAGE_OF: Partial<Record<Tool, string>> = { bwrap: 'bubblewrap', perl: 'perl-base', setpriv: 'util-linux', find: 'findutils' };
type Tool = (typeof USER_TOOLS)[number];
type Tools = Record<Tool, string>;
interface Found {
  tools: Partial<Tools>;
  sudo: string | null;
  useradd: string | null;
  /** Optional (the acl package): without it, ACLs a role sets in the work tree stay (a limit: NO_SETFACL). */
  setfacl: string | null;
}

function findTools(): Found {
  const tools: Partial<Tools> = {};
  for (const name of USER_TOOLS) {
    const p = systemTool(name);
    if (p) tools[name] = p;
  }
  return { tools, sudo: systemTool('sudo'), useradd: systemTool('useradd'), setfacl: systemTool('setfacl') };
}

function missing(found: Found, names: readonly Tool[]): string | null {
  const lacking = names.filter((n) => !found.tools[n]);
  const packages = [...new Set(lacking.map((n) => PACKAGE_OF[n] ?? 'coreutils'))];
  return lacking.length ? `${lacking.join(', ')} not found (install the package${packages.length > 1 ? 's' : ''} ${packages.join(', ')})` : null;
}

/** The tools a level needs (checked by the probe); the others keep their bare names, unused there. */
function toolsFor(found: Found, names: readonly Tool[]): Tools {
  const why = missing(found, names);
  if (why) throw new IsolationUnavailableError(`agent.isolation: ${why}`);
  return Object.fromEntries(USER_TOOLS.map((n) => [n, found.tools[n] ?? n])) as Tools;
}

/** Quiet helper commands (probes, users, ownership): never swept, never sandboxed. */
const helperRunner = new NodeProcessRunner({ killGraceMs: 500 });

function runTool([command, ...args]: [string, ...string[]], timeoutMs = 60_000): Promise<RunResult> {
  return helperRunner.run({ command, args, cwd: '/', env: { PATH: SYSTEM_PATH, LC_ALL: 'C' }, timeoutMs, reapLeftovers: false });
}

const firstLine = (r: Pick<RunResult, 'stdout' | 'stderr' | 'exitCode'> & { signal?: string | null }) =>
  (r.stderr.trim() || r.stdout.trim() || `exit ${String(r.exitCode ?? r.signal)}`).split('\n')[0];

/**
 * Finds out which levels work here by running each one's real chain once with `true` (uid 65534
 * for the trial, so no user is created by a probe). About 10 ms per level.
 */
export async function probeIsolation(): Promise<IsolationFacts> {
  const found = findTools();
  const t = found.tools;
  let privilege: Privilege | null = null;
  let noPrivilege = '';
  if (process.getuid?.() === 0) privilege = 'root';
  else if (!found.sudo) noPrivilege = 'the loop is not root and sudo is not installed';
  else {
    const r = await runTool([found.sudo, '-n', 'true'], 10_000);
    if (r.exitCode === 0) privilege = 'sudo';
    else noPrivilege = `the loop is not root and has no passwordless sudo (sudo -n: ${firstLine(r)})`;
  }

  let userPidns = privilege ? missing(found, USER_TOOLS) : noPrivilege;
  if (userPidns === null && !found.useradd && !(await usersExist())) userPidns = `useradd not found to create ${Object.values(ROLE_USERS).join(' and ')}`;
  if (userPidns === null && t.bwrap && t.setpriv) {
    const trial: [string, ...string[]] = [t.bwrap, ...NAMESPACES, '--', t.setpriv, '--reuid', '65534', '--regid', '65534', ...DROP_PRIVILEGES, '--', 'true'];
    const r = await runTool(privilege === 'sudo' && found.sudo ? [found.sudo, '-n', '--', ...trial] : trial, 10_000);
    if (r.exitCode !== 0) userPidns = `a trial run in a new PID namespace failed: ${firstLine(r)}`;
  }

  // Root's uid stays 0 outside the namespace: the command would own every root-owned file of the
  // machine (a planted ~/.gitconfig run by the loop's own git, /etc). user+pidns is root's level.
  let pidns =
    privilege === 'root'
      ? 'the loop runs as root, and at pidns the command would keep uid 0 outside its namespace (use user+pidns)'
      : missing(found, NAMESPACE_TOOLS);
  if (pidns === null && t.bwrap && t.setpriv) {
    const r = await runTool([t.bwrap, ...USER_NAMESPACE, ...NAMESPACES, '--', t.setpriv, ...DROP_CAPS, '--', 'true'], 10_000);
    if (r.exitCode !== 0) pidns = `unprivileged user namespaces do not work here: ${firstLine(r)}`;
  }
  const lacking = BUILDERS.filter((b) => !t[b.tool]);
  return { privilege, userPidns, pidns, ...(lacking.length ? { needs: lacking.map((b) => b.needs).join(' and ') } : {}) };
}

/** What builds every namespaced command: missing, no level above none runs (see resolveIsolation). */
const BUILDERS = [
  { tool: 'bwrap', needs: 'bubblewrap (the bwrap program), which is not installed: install the bubblewrap package (apt-get install bubblewrap)' },
  { tool: 'perl', needs: 'perl (it runs sandbox-init.pl), which is not installed: install the perl-base package' },
] as const;

async function usersExist(): Promise<boolean> {
  const lines = (await readFile('/etc/passwd', 'utf8').catch(() => '')).split('\n');
  return Object.values(ROLE_USERS).every((u) => lines.some((l) => l.startsWith(`${u}:`)));
}

/**
 * The level to run at. `auto` takes the strongest that works; an explicit level that does not work
 * is an error that says why and what is available.
 */
export async function resolveIsolation(requested: IsolationRequest, facts?: IsolationFacts | Promise<IsolationFacts>): Promise<Isolation> {
  // The weakest level is always there: nothing to probe for it.
  const f = requested === 'none' && facts === undefined ? { privilege: null, userPidns: 'not probed', pidns: 'not probed' } : await (facts ?? probeIsolation());
  const why: Record<IsolationLevel, string | null> = { 'user+pidns': f.userPidns, pidns: f.pidns, none: null };
  // Without them no level but `none` runs, and `auto` does not fall to it: a loop that had a sandbox must not lose it silently.
  if (f.needs && requested !== 'none')
    throw new IsolationUnavailableError(
      `agent.isolation: ${requested} needs ${f.needs}, or set agent.isolation: none to run the agent and the checks beside the loop.`,
    );
  const available = ISOLATION_LEVELS.filter((l) => why[l] === null);
  const privilege = f.userPidns === null ? f.privilege : null;
  const made = (level: IsolationLevel, reason: string): Isolation => {
    const p = level === 'user+pidns' ? privilege : null;
    return { level, reason, limits: isolationLimits(level, p), privilege: p };
  };
  if (requested !== 'auto') {
    const blocked = why[requested];
    if (blocked !== null)
      throw new IsolationUnavailableError(
        `agent.isolation: ${requested} is not available on this machine: ${blocked}. Available here: ${available.join(', ')} (or auto, which picks the strongest).`,
      );
    return made(requested, `agent.isolation asks for ${requested}`);
  }
  const level = available.includes('user+pidns') ? 'user+pidns' : available.includes('pidns') ? 'pidns' : 'none';
  const skipped = ISOLATION_LEVELS.slice(0, ISOLATION_LEVELS.indexOf(level)).map((l) => `${l} is not available (${why[l] ?? ''})`);
  const because = level === 'user+pidns' ? (privilege === 'root' ? 'the loop runs as root' : 'the loop has passwordless sudo') : skipped.join('; ');
  return made(level, `auto chose ${level}: ${because}`);
}

/** What a level does not guarantee, in plain sentences for the report. */
export function isolationLimits(level: IsolationLevel, privilege: Privilege | null): string[] {
  const common = [
    'The agent holds its own API key unless the key proxy holds it.',
    'The agent can read every world-readable file of the machine.',
    'CPU time, memory and disk use are not limited, only wall time.',
  ];
  if (level === 'user+pidns')
    return [
      'The agent can read .git, including its config: a credential stored there (actions/checkout persist-credentials) is readable unless the loop removes it.',
      "Toolchains installed only in the loop user's home (e.g. /root/.cargo, /home/runner/.cargo) are not visible to the agent or the checks.",
      ...(privilege === 'sudo' ? ['If the loop process itself is killed, a running step ends at its own time limit rather than at once.'] : []),
      ...common,
    ];
  if (level === 'pidns')
    return [
      "The agent runs as the loop's own OS user: it can read every file the loop can (the loop's HOME, the check workspace) and write its work tree but for .git and scratch/.",
      "It cannot see the loop's processes or their environment, holds no capabilities, and nothing it starts outlives its step.",
      "It can change the modes of the user's files in the work tree (open a private file to other users): git keeps no such bit, and the loop does not put them back at this level.",
      ...common,
    ];
  return [
    "The agent runs as the loop's own OS user beside the loop: it can read the loop's environment (its tokens) through /proc, and every file the loop can.",
    'The folders every user may write (/tmp, /var/tmp, /dev/shm and any other) are shared: a file the agent or an earlier round of checks left there is seen by later checks, the final confirmation and verify --rerun, and code that depends on one passes here and fails in a clone.',
    "The agent and the checks can delete a nested git repository of the user's in the work tree: git keeps none of its files, so the loop cannot put it back (the report says so).",
    'Processes it starts are found through their process group, session and a run tag; one that leaves all three (env -i, setsid, a double fork) can outlive its step.',
    ...common,
  ];
}

// ---------------------------------------------------------------------------------------------------

/** No capability can be kept or regained by the command (no_new_privs also voids setuid binaries). */
const DROP_CAPS = ['--no-new-privs', '--inh-caps=-all', '--bounding-set=-all'];
const DROP_PRIVILEGES = ['--clear-groups', ...DROP_CAPS];
/** bwrap's namespaces for every wrapped command (the mount namespace comes with them; the network's where the policy closes it). */
const NAMESPACES = ['--die-with-parent', '--unshare-pid', '--unshare-ipc', '--dev-bind', '/', '/', '--proc', '/proc'];
/**
 * pidns: uid 0 inside maps to the loop's uid outside, with the namespace's capabilities for
 * sandbox-init.pl's mounts; setpriv then drops every one, so the command cannot unmount its private
 * /proc to look at the host's (and the loop's environment).
 */
const USER_NAMESPACE = ['--unshare-user', '--uid', '0', '--gid', '0', '--cap-add', 'ALL'];

export interface RoleUser {
  name: string;
  uid: number;
  gid: number;
}

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
  /** Per PATH string; PATH filtering is the same for both roles (neither owns a PATH folder). */
  private readonly pathCache = new Map<string, Promise<string>>();
  private readonly loop = userInfo();
  /**
   * Root's commands (the find/chown around every agent step and check round): one long-lived shell
   * (under sudo, `sudo -n sh -s`), which forks each for a fraction of what a spawn of the loop costs.
   */
  private rootShell: ShellSession | null = null;
  /** The work tree a role holds (grantWorkTree to reclaimWorkTree), with the loop's own folders in it. */
  private held: { root: string; loopOwned: string[] } | null = null;

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
    private readonly net: { policy: NetworkPolicy; gate: NetworkGate | null; why: string | null },
  ) {
    this.level = iso.level;
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
    const bin = keys ? await installPrograms(join(base, 'bin'), ['sandbox-init.pl', 'sandbox-load.sh']) : null;
    const init = bin && keys ? [tools.perl, bin['sandbox-init.pl'], filterHex(keys), ...[keys.mount, keys.keyctl, keys.prctl].map(String)] : [];
    const extra: Extras = { setfacl: found.setfacl, init, load: bin?.['sandbox-load.sh'] ?? '' };
    const workTree = o.workTree ? await realpath(o.workTree).catch(() => resolve(o.workTree!)) : null;
    const policy = o.network ?? { agent: 'open', checks: 'open' };
    const closed = policy.agent !== 'open' || policy.checks !== 'open';
    const why = iso.level === 'none' ? "at isolation none the commands run in the loop's own namespaces" : null;
    // The gate relays the agent's way out; a command with loopback only needs nothing but bwrap's --unshare-net.
    const gate = policy.agent !== 'open' && why === null ? await NetworkGate.open(join(base, 'net'), policy.agent, o.onRefused ?? (() => undefined)) : null;
    const net = { policy, gate, why: closed ? why : null };
    return new Sandbox(iso, base, tools, sudo, users, o.env ?? process.env, o.killGraceMs ?? 1500, extra, o.writable ?? [], workTree, net);
  }

  /** The key proxy (listening on the loop's 127.0.0.1:port) becomes reachable at the same address in the agent's namespace. */
  async useKeyProxy(port: number): Promise<void> {
    if (!this.net.gate) return;
    await this.net.gate.relayKeyProxy(port);
    this.keyPort = port;
  }

  /**
   * The network namespace of a command of `role`: null where it shares the machine's; else the
   * forwarder's arguments (up to its `--`; none for loopback only), the folders its view must hold,
   * and variables to add.
   */
  private netView(role: SandboxRole, open: boolean): { argv: string[]; dirs: string[]; env: Record<string, string> } | null {
    const { gate, policy, why } = this.net;
    if (why !== null || open || (role === 'agent' ? policy.agent === 'open' : policy.checks === 'open')) return null;
    if (role === 'check' || !gate) return { argv: [], dirs: [], env: {} };
    const view = gate.agentView(this.keyPort);
    return { argv: [process.execPath, gate.forwarder, ...view.maps, '--'], dirs: [gate.dir], env: view.env };
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
    const contained: ContainedRun = { graceMs: this.graceMs, forceKill: (pid) => this.forceKill(pid), release };
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
    const net = this.netView(role, spec.network === 'open');
    const env = { ...this.environment(role, d, spec.env), ...net?.env };
    const command = spec.args ? [spec.command, ...spec.args] : ['/bin/sh', '-c', spec.command];
    const user = this.users?.[role];
    // Its own network namespace (bwrap brings its loopback up); the forwarder, if any, runs as its root.
    const unshareNet = net ? ['--unshare-net'] : [];
    const forward = net?.argv ?? [];
    const seen = net?.dirs ?? [];
    const sockets = net ? await hostSockets() : [];
    if (!user) {
      const where = await this.layout(spec.cwd, null, env, role, seen, sockets);
      const args = [
        ...USER_NAMESPACE,
        ...NAMESPACES,
        ...unshareNet,
        '--',
        ...this.extra.init,
        ...where,
        '--',
        ...forward,
        t.setpriv,
        ...DROP_CAPS,
        '--',
        ...command,
      ];
      return { ...spec, command: t.bwrap, args, env, contained };
    }
    env.PATH = await this.reachablePath(env.PATH || DEFAULT_PATH, user);
    // The work tree belongs to the role while the loop's .git does not: git must not refuse it as
    // "dubious ownership" (only configuration given this way or globally counts for that).
    const n = Number(env.GIT_CONFIG_COUNT) || 0;
    Object.assign(env, { GIT_CONFIG_COUNT: String(n + 1), [`GIT_CONFIG_KEY_${String(n)}`]: 'safe.directory', [`GIT_CONFIG_VALUE_${String(n)}`]: '*' });
    const where = await this.layout(spec.cwd, user, env, role, seen, sockets);
    const switched = [t.setpriv, '--reuid', String(user.uid), '--regid', String(user.gid), ...DROP_PRIVILEGES, '--'];
    const ns = [t.bwrap, ...NAMESPACES, ...unshareNet, '--', ...this.extra.init, ...where, '--', ...forward, ...switched, ...command];
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
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(this.loopEnv)) if (v !== undefined && LOCALE_VARS.test(k)) env[k] = v;
    env.PATH = this.loopEnv.PATH ?? DEFAULT_PATH;
    const name = this.users?.[role].name ?? this.loop.username;
    const identity: Record<string, string | undefined> = dirs
      ? { HOME: dirs.home, TMPDIR: dirs.tmp, USER: name, LOGNAME: name }
      : { HOME: this.loopEnv.HOME, TMPDIR: this.loopEnv.TMPDIR, USER: this.loopEnv.USER, LOGNAME: this.loopEnv.LOGNAME };
    for (const [k, v] of Object.entries(identity)) if (v !== undefined) env[k] = v;
    return Object.assign(env, given);
  }

  /** PATH without the directories the role cannot reach (toolchains under /root, another user's HOME). */
  private reachablePath(path: string, user: RoleUser): Promise<string> {
    let p = this.pathCache.get(path);
    if (!p) {
      p = (async () => {
        const dirs = path.split(':').filter(Boolean);
        const blocked = await Promise.all(
          dirs.map((d) =>
            realpath(d).then(
              (r) => firstBlocked(r, user),
              () => d,
            ),
          ),
        );
        return dirs.filter((_, i) => blocked[i] === null).join(':');
      })();
      this.pathCache.set(path, p);
    }
    return p;
  }

  /**
   * sandbox-init.pl's arguments (see that file). Covered: the first ancestor of the folder that the
   * role cannot traverse, so that the role sees nothing else under it (another user's HOME, the
   * runner's temporary files). Read-only: every mount of the machine but the kernel's interfaces, so
   * the only places the command can leave something are its own folders and the private scratch
   * folders, and a later command of either role finds only what a clean checkout would hold.
   */
  private async layout(
    cwd: string,
    user: RoleUser | null,
    env: Record<string, string>,
    role: SandboxRole,
    seen: string[],
    sockets: readonly string[],
  ): Promise<string[]> {
    const real = await realpath(cwd).catch(() => resolve(cwd));
    const blocked = user && real !== sep ? await firstBlocked(dirname(real), user) : null;
    if (blocked !== null && under(this.base, blocked))
      throw new Error(`the sandbox folder ${this.base} lies under ${blocked}, which the role users cannot traverse; set TMPDIR to a traversable folder`);
    const [mounts, scratch, wanted] = await Promise.all([
      mountPoints(),
      this.scratch(),
      Promise.all([
        Promise.resolve(real),
        ...[env.HOME, env.TMPDIR].map(ownFolder),
        ...seen.map((p) => Promise.resolve(p)),
        ...this.writable.map((w, i) => this.writableReal[i].then((r) => same(w, r))),
      ]),
    ]);
    // Where a cover or a scratch folder hides a folder, what lies under it needs nothing of its own.
    // The checks never see the agent's work tree unless they run in it; nor what lies under a cover.
    const tree = role === 'check' && this.workTree && !under(real, this.workTree) ? this.workTree : null;
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
    const held = this.held && under(real, this.held.root) ? this.held : null;
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

  private scratchFolders: Promise<Scratch[]> | null = null;

  /** This machine's scratch folders: those of SCRATCH that exist as real folders every user may write. */
  private scratch(): Promise<Scratch[]> {
    return (this.scratchFolders ??= Promise.all(
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
   * Gives the work tree (everything except .git) to the role's user (the agent for its step, the
   * checks for a live round), which may then write it; .git stays the loop's (readable). Fast when
   * nothing changed: only entries with another owner are touched. Under sudo the loop cannot write
   * the tree until `reclaimWorkTree`.
   */
  async grantWorkTree(cwd: string, keep: string[] = [], role: SandboxRole = 'agent'): Promise<void> {
    this.held = { root: await realpath(cwd), loopOwned: ['.git', ...keep] };
    const u = this.users?.[role];
    if (!u) return;
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
    await this.chmodAsRoot(cwd, 0o1777);
    // What group and others may not read (a 0600 file, a 0700 folder), which the role could open to
    // them (git keeps no such bit): its modes, kept beside the top folder's until reclaimWorkTree.
    const t = this.tools;
    const skip = ['.git', ...keep];
    await this.asRoot([
      t.find,
      cwd,
      ...this.pruned(cwd, skip, true),
      '!',
      '-type',
      'l',
      '!',
      '-perm',
      '-044',
      '-fprintf',
      join(dirname(saved), PRIVATE_MODES),
      '%m %P\\0',
    ]);
    await this.chownTree(cwd, u.uid, u.gid, skip, true);
  }

  /**
   * Gives everything in the work tree back to the owner of `.git` (which the loop never hands over),
   * including what the roles created, and the top folder its mode. Stateless: a run that crashed is
   * repaired by the next one. Call it only when no wrapped command runs in the tree.
   */
  async reclaimWorkTree(cwd: string): Promise<void> {
    this.held = null;
    const saved = join(cwd, '.git', 'phuc-loop', 'worktree-mode');
    // Read on the loop's thread (after every step; never through a link, never waiting on a FIFO).
    const mode = readRegularSync(saved)?.toString('utf8') ?? null;
    if (!this.users && mode === null) return;
    // The top folder first: whatever fails below, the roles can no longer add to it.
    if (mode !== null && /^[0-7]{1,4}$/.test(mode.trim())) await this.chmodAsRoot(cwd, parseInt(mode.trim(), 8));
    const owner = await lstat(join(cwd, '.git'));
    await this.takeFromRoles(cwd, owner, ['.git'], true);
    await restorePrivateModes(cwd, join(dirname(saved), PRIVATE_MODES));
    await rm(saved, { force: true });
  }

  private async chmodAsRoot(path: string, mode: number): Promise<void> {
    if (this.sudo) await this.asRoot([this.tools.chmod, mode.toString(8), path]);
    else await chmod(path, mode);
  }

  /**
   * Gives `dir` and everything in it to the role (e.g. the clean check workspace); `dir` itself
   * becomes 0700, so no other user (the agent) can enter it.
   */
  async grant(role: SandboxRole, dir: string): Promise<void> {
    const u = this.users?.[role];
    if (!u) return;
    // Under sudo a folder granted before is the role's already, with that mode. There the loop reads
    // what the role wrote (logs, JUnit, git's stat refresh) through the top folder's group, its own.
    if ((await lstat(dir)).uid !== u.uid) await chmod(dir, this.sudo ? 0o750 : 0o700);
    await this.chownTree(dir, u.uid, u.gid, []);
    if (this.sudo) await this.asRoot([this.tools.chown, `${String(u.uid)}:${String(this.loop.gid)}`, dir]);
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
    await this.takeFromRoles(dir, this.loop, [], false);
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
    if (this.sudo) await this.asRoot([this.tools.chown, `${String(this.loop.uid)}:${String(u.gid)}`, dir]);
    else await chown(dir, this.loop.uid, u.gid);
    await chmod(dir, 0o710);
  }

  /** Removes `dir` and everything in it, the roles' files included (as root). */
  async remove(dir: string): Promise<void> {
    await this.removeAsRoot(dir);
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
    if (this.sudo) await this.asRoot([this.tools.chown, `${String(u.uid)}:${String(this.loop.gid)}`, dir]);
    else await chown(dir, u.uid, this.loop.gid);
    return dir;
  }

  /** Removes the base folder and everything in it. */
  async dispose(): Promise<void> {
    try {
      await this.net.gate?.close();
      await this.removeAsRoot(this.base);
    } finally {
      await this.rootShell?.close();
      this.rootShell = null;
    }
  }

  /**
   * Gives back to `owner` what the roles own under `root` (but the `skip` folders, and `root`
   * itself where it is the work tree's top). Before the chown, so that nothing of a role's survives
   * in what the loop keeps: a name in the tree for a role's file with other links (one outside the
   * tree, which the chown would hand over too) becomes a copy of its own; the role's ACLs go (a
   * default ACL would open what the loop makes there later); no group or other may write.
   */
  private async takeFromRoles(root: string, owner: { uid: number; gid: number }, skip: string[], keepTop: boolean): Promise<void> {
    if (!this.users) return;
    const t = this.tools;
    const theirs = ['(', '-uid', String(this.users.agent.uid), '-o', '-uid', String(this.users.check.uid), ')'];
    const over = (...test: string[]): [string, ...string[]] => [t.find, root, ...this.pruned(root, skip, keepTop), ...theirs, ...test];
    const copy =
      `for f; do t=$(${t.mktemp} "\${f%/*}/.phuc-unlinked.XXXXXX") || exit 1; ` +
      `${t.cp} -a --remove-destination -- "$f" "$t" && ${t.mv} -f -- "$t" "$f" || ${t.rm} -f -- "$t" "$f" || exit 1; done`;
    await this.asRoot([...over('!', '-type', 'd', '-links', '+1'), ...eachEntry([t.sh, '-c', copy, 'sh'])]);
    if (this.extra.setfacl) await this.asRoot([...over('!', '-type', 'l'), ...eachEntry([this.extra.setfacl, '-b'])]);
    await this.asRoot([...over('!', '-type', 'l', '-perm', '/022'), ...eachEntry([t.chmod, 'go-w'])]);
    await this.chownTree(root, owner.uid, owner.gid, skip, keepTop);
  }

  /**
   * find's arguments from `root` on: past the `skip` folders (relative to root), below `root` itself
   * where `keepTop`. An entry gone between find's reading of its folder and its look at it is no
   * error (`-ignore_readdir_race`): taking the tree back must not fail on a file the loop's own
   * writes or a role's last act replaced meanwhile.
   */
  private pruned(root: string, skip: string[], keepTop: boolean): string[] {
    const paths = skip.flatMap((p, i) => [...(i ? ['-o'] : []), '-path', join(root, p)]);
    return [
      '-ignore_readdir_race',
      '-regextype',
      'posix-extended',
      ...(keepTop ? ['-mindepth', '1'] : []),
      ...(skip.length ? ['(', ...paths, ')', '-prune', '-o'] : []),
    ];
  }

  /**
   * chown of every entry under `root` whose owner differs, but a file with several hard links
   * (changing it would change a file elsewhere; takeFromRoles has copied the roles' own). find -P
   * (its default) never follows a link; chown -h changes the link.
   */
  private async chownTree(root: string, uid: number, gid: number, skip: string[], keepTop = false): Promise<void> {
    const t = this.tools;
    const differs = ['(', '!', '-uid', String(uid), '-o', '!', '-gid', String(gid), ')', '(', '-type', 'd', '-o', '-links', '1', ')'];
    await this.asRoot([t.find, root, ...this.pruned(root, skip, keepTop), ...differs, ...eachEntry([t.chown, '-h', `${String(uid)}:${String(gid)}`])]);
  }

  private async removeAsRoot(path: string): Promise<void> {
    if (this.sudo) await this.asRoot([this.tools.rm, '-rf', '--', path]);
    else await removeTree(path);
  }

  private async forceKill(pid: number): Promise<void> {
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
  private async asRoot(argv: [string, ...string[]]): Promise<void> {
    if (!this.rootShell || this.rootShell.ended)
      this.rootShell = await ShellSession.start('/', { PATH: DEFAULT_PATH }, ROOT_COMMAND_MS, this.sudo ? [this.sudo, '-n', '--', '/bin/sh', '-s'] : undefined);
    const r = await this.rootShell.run(argv.map(shellQuote).join(' '));
    if (r.exitCode !== 0) throw new Error(`${argv.slice(0, 2).join(' ')} failed: ${firstLine(r)}`);
  }
}

/**
 * find's action `command… {}` on each entry found, batched: by its full path, or, where that path is
 * too long for a system call (PATH_MAX, 4096 bytes: folders a role nested deep), from the entry's
 * own folder (-execdir, one batch per folder). With -regextype posix-extended ('.' takes any byte).
 */
function eachEntry(command: string[]): string[] {
  return ['(', '(', '-regex', '.{3800,}', '-execdir', ...command, '{}', '+', ')', '-o', '-exec', ...command, '{}', '+', ')'];
}

const sharedFolders = (folders: readonly string[]) =>
  `agent.writable opens ${folders.join(', ')} to the agent and the checks: a file one of them left there is seen by later checks and the final confirmation (not by verify --rerun), and code that depends on one passes here and fails in a clone.`;

interface KeySyscalls {
  /** AUDIT_ARCH_* and the first of add_key, request_key, keyctl (consecutive), natively and for 32-bit programs. */
  arch: number;
  first: number;
  compatArch: number;
  compatFirst: number;
  keyctl: number;
  prctl: number;
  mount: number;
}
/** The little-endian architectures Node runs on (the filter is packed little-endian). */
const KEY_SYSCALLS: Partial<Record<string, KeySyscalls>> = {
  x64: { arch: 0xc000003e, first: 248, compatArch: 0x40000003, compatFirst: 286, keyctl: 250, prctl: 157, mount: 165 },
  arm64: { arch: 0xc00000b7, first: 217, compatArch: 0x40000028, compatFirst: 309, keyctl: 219, prctl: 167, mount: 40 },
};

/**
 * The classic-BPF seccomp program: for the native and the 32-bit ABI, the three key syscalls return
 * ENOSYS, everything else is allowed. x32's numbers carry bit 30, masked off to match x86_64's.
 */
function filterHex(k: KeySyscalls): string {
  const LD_ABS = 0x20,
    AND = 0x54,
    JEQ = 0x15,
    JGE = 0x35,
    JGT = 0x25,
    RET = 0x06;
  const ENOSYS = 0x00050000 | 38,
    ALLOW = 0x7fff0000;
  const program: [number, number, number, number][] = [
    [LD_ABS, 0, 0, 4], // arch
    [JEQ, 0, 4, k.arch], // native: on; else to 6
    [LD_ABS, 0, 0, 0], // nr
    [AND, 0, 0, 0xbfffffff],
    [JGE, 0, 6, k.first], // below: allow
    [JGT, 5, 4, k.first + 2], // above: allow; else refuse
    [JEQ, 0, 4, k.compatArch], // 32-bit: on; else allow
    [LD_ABS, 0, 0, 0],
    [JGE, 0, 2, k.compatFirst],
    [JGT, 1, 0, k.compatFirst + 2],
    [RET, 0, 0, ENOSYS],
    [RET, 0, 0, ALLOW],
  ];
  const b = Buffer.alloc(program.length * 8);
  program.forEach(([code, jt, jf, v], i) => {
    b.writeUInt16LE(code, i * 8);
    b.writeUInt8(jt, i * 8 + 2);
    b.writeUInt8(jf, i * 8 + 3);
    b.writeUInt32LE(v >>> 0, i * 8 + 4);
  });
  return b.toString('hex');
}

interface Extras {
  /** Strips the roles' ACLs; null where the acl package is missing (then said in the limits). */
  setfacl: string | null;
  /** The first program inside each command's namespaces, before its arguments: sandbox-init.pl with this architecture's numbers. */
  init: string[];
  /** sandbox-load.sh, the root prelude under sudo. */
  load: string;
}

/** The work tree's entries group and others could not read before a role held it (grantWorkTree). */
const PRIVATE_MODES = 'worktree-private-modes';

/**
 * Gives each entry listed in `file` ("<octal mode> <path>", NUL-ended) its group and other bits back:
 * what the role opened is closed again; the owner's bits (the executable bit git keeps) stay the
 * role's change. Never through a link; a path past PATH_MAX or gone is left.
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
    const was = parseInt(record.subarray(0, at).toString('latin1'), 8) & 0o077;
    const path = Buffer.concat([top, record.subarray(at + 1)]);
    const st = await lstat(path).catch(() => null);
    if (!st || st.isSymbolicLink() || (st.mode & 0o077) === was) continue;
    await chmod(path, (st.mode & 0o7700) | was).catch(() => undefined);
  }
  await rm(file, { force: true });
}

const SHARED_NETWORK =
  "The agent and the checks share the machine's network namespace: what the kernel keeps of a connection after a command ends (a socket in TIME_WAIT for a minute, the TCP metrics of an address for hours) a later check can read, so code that depends on it can pass here and fail in a clone.";

const NO_SETFACL =
  'setfacl (the acl package) is not installed: an ACL the agent or the checks set on a file of the work tree stays when the loop takes the tree back.';

/** How long one of root's commands may take (a chown of a large tree), as for the loop's git calls. */
const ROOT_COMMAND_MS = 300_000;

async function asRoot(sudo: string | null, argv: [string, ...string[]]): Promise<string> {
  const r = await runTool(sudo ? [sudo, '-n', '--', ...argv] : argv);
  if (r.exitCode !== 0) throw new Error(`${argv.slice(0, 2).join(' ')} failed: ${firstLine(r)}`);
  return r.stdout;
}

/** Creates the role users once per machine, or reads them back. */
async function ensureUsers(sudo: string | null): Promise<Record<SandboxRole, RoleUser>> {
  const names = Object.values(ROLE_USERS);
  const out = await asRoot(sudo, ['/bin/sh', '-c', programText('sandbox-users.sh'), 'sandbox-users.sh', ...names]);
  const byName = new Map<string, RoleUser>();
  for (const line of out.trim().split('\n')) {
    const [name = '', uid, gid, ...groups] = line.trim().split(/\s+/);
    const u = { name, uid: Number(uid), gid: Number(gid) };
    // A user of that name made by someone else must still be an unprivileged one.
    if (!(u.uid > 0 && u.gid > 0) || groups.some((g) => Number(g) !== u.gid))
      throw new IsolationUnavailableError(
        `agent.isolation: user+pidns needs ${name} to be an unprivileged user with no other groups (found uid ${uid}, groups ${groups.join(',')})`,
      );
    byName.set(u.name, u);
  }
  const agent = byName.get(ROLE_USERS.agent);
  const check = byName.get(ROLE_USERS.check);
  if (!agent || !check) throw new Error(`could not create ${names.join(' and ')}: ${out}`);
  return { agent, check };
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
const under = (p: string, f: string) => p === f || p.startsWith(f === sep ? f : f + sep);

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

/** Where the base folder goes: the temp folder, or /tmp when the roles could not reach the former. */
async function baseParent(strong: boolean): Promise<string> {
  const t = tmpdir();
  if (!strong || (await firstBlocked(await realpath(t))) === null) return t;
  return '/tmp';
}

/** Writes `files` into the fresh folder `home`; returns every path it made, parents first. */
async function writeHome(home: string, files: [string, string][]): Promise<string[]> {
  const made: string[] = [];
  for (const [rel, text] of files) {
    const parts = rel.split('/');
    if (parts.some((p) => p === '' || p === '.' || p === '..')) throw new Error(`a HOME file must be a plain relative path, not ${JSON.stringify(rel)}`);
    for (let k = 1; k <= parts.length; k++) {
      const path = join(home, ...parts.slice(0, k));
      if (made.includes(path)) continue;
      if (k < parts.length) await mkdir(path, { mode: 0o700 });
      else await writeFile(path, text, { flag: 'wx', mode: 0o600 });
      made.push(path);
    }
  }
  return made;
}

function seconds(ms: number): string {
  return (Math.max(0, ms) / 1000).toFixed(3);
}

function envFileText(env: Record<string, string>): string {
  let text = '';
  for (const [k, v] of Object.entries(env)) {
    if (!SHELL_NAME.test(k)) throw new Error(`the variable name ${JSON.stringify(k)} cannot be passed to a sandboxed command under sudo`);
    text += `export ${k}='${v.replace(/'/g, `'\\''`)}'\n`;
  }
  return text;
}
