// The isolation levels (SPEC §7 "Isolation"): which this machine gives, the one a run takes, what
// each does not guarantee, and bubblewrap's arguments for each (docs/security.md).
//
// Levels, strongest first (docs/security.md says what each guarantees and what it does not):
// - `user+pidns`: the command runs as a dedicated unprivileged user (phuc-agent, phuc-check) with
//   no groups, no capabilities and no_new_privs, a fresh HOME and TMPDIR, in its own PID and mount
//   namespace with its own /proc. Needs root, or passwordless `sudo -n` (GitHub-hosted runners).
// - `pidns`: own user, PID and mount namespace, no capabilities, but the loop's own uid.
// - `none`: the command runs beside the loop; only the process-table sweep of process.ts contains it.
import { ROLE_USERS, usersExist } from './role-users.js';
import { findTools, firstLine, IsolationUnavailableError, missing, NAMESPACE_TOOLS, runTool, USER_TOOLS } from './sandbox-tools.js';

export { IsolationUnavailableError } from './sandbox-tools.js';

export const ISOLATION_LEVELS = ['user+pidns', 'pidns', 'none'] as const;

export type IsolationLevel = (typeof ISOLATION_LEVELS)[number];

export type IsolationRequest = IsolationLevel | 'auto';

/** How the loop acts as root for user+pidns. */
export type Privilege = 'root' | 'sudo';

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
    const r = await trialRun(privilege === 'sudo' && found.sudo ? [found.sudo, '-n', '--', ...trial] : trial);
    if (r.exitCode !== 0) userPidns = `a trial run in a new PID namespace failed: ${firstLine(r)}`;
  }

  // Root's uid stays 0 outside the namespace: the command would own every root-owned file of the
  // machine (a planted ~/.gitconfig run by the loop's own git, /etc). user+pidns is root's level.
  let pidns =
    privilege === 'root'
      ? 'the loop runs as root, and at pidns the command would keep uid 0 outside its namespace (use user+pidns)'
      : missing(found, NAMESPACE_TOOLS);
  if (pidns === null && t.bwrap && t.setpriv) {
    const r = await trialRun([t.bwrap, ...USER_NAMESPACE, ...NAMESPACES, '--', t.setpriv, ...DROP_CAPS, '--', 'true']);
    if (r.exitCode !== 0) pidns = `unprivileged user namespaces do not work here: ${firstLine(r)}`;
  }
  const lacking = BUILDERS.filter((b) => !t[b.tool]);
  return { privilege, userPidns, pidns, ...(lacking.length ? { needs: lacking.map((b) => b.needs).join(' and ') } : {}) };
}

/**
 * A level's trial, run a second time when the first fails: a machine busy for a moment (a timeout,
 * a fork refused) must not drop `auto` to a weaker level for the whole run.
 */
async function trialRun(command: [string, ...string[]]) {
  const first = await runTool(command, 10_000);
  return first.exitCode === 0 ? first : runTool(command, 20_000);
}

/** What builds every namespaced command: missing, no level above none runs (see resolveIsolation). */
const BUILDERS = [
  { tool: 'bwrap', needs: 'bubblewrap (the bwrap program), which is not installed: install the bubblewrap package (apt-get install bubblewrap)' },
  { tool: 'perl', needs: 'perl (it runs sandbox-init.pl), which is not installed: install the perl-base package' },
] as const;

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

/**
 * No capability can be kept or regained by the command (no_new_privs also voids setuid binaries): the
 * probe's trial of the switch that sandbox-init.pl's `become` makes for every command.
 */
export const DROP_CAPS = ['--no-new-privs', '--inh-caps=-all', '--bounding-set=-all'];

export const DROP_PRIVILEGES = ['--clear-groups', ...DROP_CAPS];

/** bwrap's namespaces for every wrapped command (the mount namespace comes with them; the network's where the policy closes it). */
export const NAMESPACES = ['--die-with-parent', '--unshare-pid', '--unshare-ipc', '--dev-bind', '/', '/', '--proc', '/proc'];

/**
 * pidns: uid 0 inside maps to the loop's uid outside, with the namespace's capabilities for
 * sandbox-init.pl's mounts; it then drops every one, so the command cannot unmount its private
 * /proc to look at the host's (and the loop's environment).
 */
export const USER_NAMESPACE = ['--unshare-user', '--uid', '0', '--gid', '0', '--cap-add', 'ALL'];

// What the sandbox of a run adds to its level's limits (Sandbox.limits).

export const sharedFolders = (folders: readonly string[]) =>
  `agent.writable opens ${folders.join(', ')} to the agent and the checks: a file one of them left there is seen by later checks and the final confirmation (not by verify --rerun), and code that depends on one passes here and fails in a clone.`;

export const SHARED_NETWORK =
  "The agent and the checks share the machine's network namespace: what the kernel keeps of a connection after a command ends (a socket in TIME_WAIT for a minute, the TCP metrics of an address for hours) a later check can read, so code that depends on it can pass here and fail in a clone.";

export const NO_SETFACL =
  'setfacl (the acl package) is not installed: an ACL the agent or the checks set on a file of the work tree stays when the loop takes the tree back.';
