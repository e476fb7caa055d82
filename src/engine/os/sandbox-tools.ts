// The system programs the sandbox runs (from the system's folders only, never a PATH the agent could
// have planted into), each level's list, and the quiet runner of root's one-off helper commands.
import { NodeProcessRunner } from './process.js';
import type { RunResult } from './ports.js';
import { SYSTEM_DIRS, systemTool } from './spawner.js';

/** An explicitly requested level that this machine cannot provide. */
export class IsolationUnavailableError extends Error {}

const SYSTEM_PATH = SYSTEM_DIRS.join(':');
/** The PATH of root's commands, and of a role's where the loop has none. */
export const DEFAULT_PATH = '/usr/local/bin:/usr/bin:/bin';

export const NAMESPACE_TOOLS = ['sh', 'bwrap', 'perl', 'setpriv'] as const;

export const USER_TOOLS = [...NAMESPACE_TOOLS, 'chown', 'chmod', 'find', 'rm', 'kill', 'env', 'timeout', 'cp', 'mv', 'mktemp'] as const;

/** The package that brings a tool, named where it is missing (Debian's and Ubuntu's names). */
const PACKAGE_OF: Partial<Record<Tool, string>> = { bwrap: 'bubblewrap', perl: 'perl-base', setpriv: 'util-linux', find: 'findutils' };

type Tool = (typeof USER_TOOLS)[number];

export type Tools = Record<Tool, string>;

export interface Found {
  tools: Partial<Tools>;
  sudo: string | null;
  useradd: string | null;
  /** Optional (the acl package): without it, ACLs a role sets in the work tree stay (a limit: NO_SETFACL). */
  setfacl: string | null;
}

export function findTools(): Found {
  const tools: Partial<Tools> = {};
  for (const name of USER_TOOLS) {
    const p = systemTool(name);
    if (p) tools[name] = p;
  }
  return { tools, sudo: systemTool('sudo'), useradd: systemTool('useradd'), setfacl: systemTool('setfacl') };
}

export function missing(found: Found, names: readonly Tool[]): string | null {
  const lacking = names.filter((n) => !found.tools[n]);
  const packages = [...new Set(lacking.map((n) => PACKAGE_OF[n] ?? 'coreutils'))];
  return lacking.length ? `${lacking.join(', ')} not found (install the package${packages.length > 1 ? 's' : ''} ${packages.join(', ')})` : null;
}

/** The tools a level needs (checked by the probe); the others keep their bare names, unused there. */
export function toolsFor(found: Found, names: readonly Tool[]): Tools {
  const why = missing(found, names);
  if (why) throw new IsolationUnavailableError(`agent.isolation: ${why}`);
  return Object.fromEntries(USER_TOOLS.map((n) => [n, found.tools[n] ?? n])) as Tools;
}

/** Quiet helper commands (probes, users, ownership): never swept, never sandboxed. */
const helperRunner = new NodeProcessRunner({ killGraceMs: 500 });

export function runTool([command, ...args]: [string, ...string[]], timeoutMs = 60_000): Promise<RunResult> {
  return helperRunner.run({ command, args, cwd: '/', env: { PATH: SYSTEM_PATH, LC_ALL: 'C' }, timeoutMs, reapLeftovers: false });
}

export const firstLine = (r: Pick<RunResult, 'stdout' | 'stderr' | 'exitCode'> & { signal?: string | null }) =>
  (r.stderr.trim() || r.stdout.trim() || `exit ${String(r.exitCode ?? r.signal)}`).split('\n')[0];
