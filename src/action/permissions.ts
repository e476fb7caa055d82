// Who may start a loop. A label or a comment can come from anyone who can label or comment; the
// loop commits to the branch and spends the agent's budget, so only an actor with write access
// (asked of the API, never guessed from the payload) starts it, and bots only when allow-listed.
import type { Octokit } from './github.js';
import type { RepoRef, Trigger } from './pull-request.js';

const WRITE = new Set(['admin', 'maintain', 'write']);

export type Decision = { allowed: true; why: string } | { allowed: false; why: string };

export async function mayStart(o: { octokit: Octokit; repo: RepoRef; trigger: Trigger; allowedBots: string[] }): Promise<Decision> {
  const { trigger: t } = o;
  if (t.kind === 'other') return { allowed: true, why: `${t.eventName} event (not a label or comment trigger)` };
  if (t.actorIsBot) {
    return o.allowedBots.includes(t.actor.toLowerCase())
      ? { allowed: true, why: `${t.actor} is in allowed-bots` }
      : { allowed: false, why: `${t.actor} is a bot and not in allowed-bots; bots start phuc-loop only when listed there` };
  }
  const { data } = await o.octokit.rest.repos.getCollaboratorPermissionLevel({ ...o.repo, username: t.actor });
  // role_name carries maintain (and custom roles); the legacy `permission` folds maintain into write.
  const d = data as { permission?: string; role_name?: string; user?: { permissions?: { push?: boolean } } | null };
  const role = d.role_name || d.permission || 'none';
  const ok = WRITE.has(d.permission ?? '') || WRITE.has(d.role_name ?? '') || d.user?.permissions?.push === true;
  return ok
    ? { allowed: true, why: `${t.actor} has ${role} access` }
    : { allowed: false, why: `${t.actor} has ${role} access; a ${t.kind} starts phuc-loop only for actors with write, maintain or admin access` };
}
