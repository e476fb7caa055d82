// The role users of user+pidns (phuc-agent, phuc-check): system users with no login shell, no HOME
// and no other group, made once per machine by sandbox-users.sh.
import { readFile } from 'node:fs/promises';
import { programText } from './programs.js';
import { firstLine, IsolationUnavailableError, runTool } from './sandbox-tools.js';

export type SandboxRole = 'agent' | 'check';

/** The dedicated users: system users with no login shell, no sudo rights and no other groups. */
export const ROLE_USERS: Readonly<Record<SandboxRole, string>> = { agent: 'phuc-agent', check: 'phuc-check' };

export interface RoleUser {
  name: string;
  uid: number;
  gid: number;
}

export async function usersExist(): Promise<boolean> {
  const lines = (await readFile('/etc/passwd', 'utf8').catch(() => '')).split('\n');
  return Object.values(ROLE_USERS).every((u) => lines.some((l) => l.startsWith(`${u}:`)));
}

/** How long one of root's commands may take (a chown of a large tree), as for the loop's git calls. */
export const ROOT_COMMAND_MS = 300_000;

async function asRoot(sudo: string | null, argv: [string, ...string[]]): Promise<string> {
  const r = await runTool(sudo ? [sudo, '-n', '--', ...argv] : argv);
  if (r.exitCode !== 0) throw new Error(`${argv.slice(0, 2).join(' ')} failed: ${firstLine(r)}`);
  return r.stdout;
}

/** Creates the role users once per machine, or reads them back. */
export async function ensureUsers(sudo: string | null): Promise<Record<SandboxRole, RoleUser>> {
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
