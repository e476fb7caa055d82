// Pre-flight: a program the config names by absolute path (a user's agent script, a check's tool)
// that the agent or the check user cannot reach at user+pidns is the user's to fix before any
// iteration is spent, with the path and the rule named, not a "No such file" from inside the sandbox.
import { isAbsolute, relative } from 'node:path';
import type { LoopConfig } from '../config/config.js';
import { programsOf } from '../config/protected.js';
import type { Sandbox, SandboxRole } from '../os/sandbox.js';

/** The absolute paths a command line runs (its programs and their scripts) outside the work tree, which the roles are lent. */
function programPaths(command: string | undefined, workTree: string): string[] {
  if (!command) return [];
  return programsOf(command)
    .flatMap((p) => [p.program, p.script])
    .filter((w): w is string => w !== null && isAbsolute(w) && relative(workTree, w).startsWith('..'));
}

/** Each field naming such a program, with one message per program; empty when every one is in view. */
export async function programsOutOfView(config: LoopConfig, sandbox: Sandbox, workTree: string): Promise<{ fields: string[]; messages: string[] }> {
  const named: [field: string, role: SandboxRole, command: string | undefined][] = [
    ['agent.run', 'agent', config.agent.run],
    ...config.acceptance_criteria.map((c): [string, SandboxRole, string] => [`acceptance_criteria[${c.id}].run`, 'check', c.run]),
    ['checks.setup', 'check', config.checks.setup],
    ['residual.run', 'check', config.residual.run],
  ];
  const fields: string[] = [];
  const messages: string[] = [];
  for (const [field, role, command] of named) {
    const out = await sandbox.outOfView(programPaths(command, workTree), role);
    if (!out.length) continue;
    const who = sandbox.user(role)?.name ?? role;
    fields.push(field);
    messages.push(
      `${field}: ${out.join('; ')}. At isolation ${sandbox.level} the ${role === 'agent' ? 'agent' : 'checks'} run as ${who}, who sees only what every user may reach ` +
        `(a folder ${who} cannot enter is an empty one in its view): put the program where every user can read it (/usr/local/bin, /opt, the work tree) or let others enter its folders (chmod o+x)`,
    );
  }
  return { fields, messages };
}
