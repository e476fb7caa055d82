// Which pull request the run is about, how it was triggered, and by whom — from the event payload,
// asking the API only when the payload does not say (an issue comment, a workflow_dispatch).
import type { Octokit } from './github.js';

export interface RepoRef {
  owner: string;
  repo: string;
}

export interface PullRequestInfo {
  number: number;
  headRef: string;
  headSha: string;
  /** owner/name of the repository the head branch lives in; null when the fork was deleted. */
  headRepo: string | null;
  baseRepo: string;
  htmlUrl: string | null;
}

export type TriggerKind = 'label' | 'comment' | 'other';

export interface Trigger {
  kind: TriggerKind;
  eventName: string;
  actor: string;
  /** The sender is an app or bot account (type Bot, or a login ending in [bot]). */
  actorIsBot: boolean;
}

export interface Payload {
  action?: string;
  sender?: { login?: string; type?: string };
  pull_request?: RawPull;
  issue?: { number?: number; pull_request?: unknown };
  label?: { name?: string };
}

interface RawPull {
  number: number;
  html_url?: string;
  head: { ref: string; sha: string; repo: { full_name: string } | null };
  base: { repo: { full_name: string } };
}

export function triggerOf(eventName: string, payload: Payload, fallbackActor: string): Trigger {
  const actor = payload.sender?.login ?? fallbackActor;
  const actorIsBot = payload.sender?.type === 'Bot' || /\[bot\]$/i.test(actor);
  const kind: TriggerKind =
    (eventName === 'pull_request' || eventName === 'pull_request_target') && payload.action === 'labeled'
      ? 'label'
      : eventName === 'issue_comment' || eventName === 'pull_request_review_comment' || eventName === 'pull_request_review'
        ? 'comment'
        : 'other';
  return { kind, eventName, actor, actorIsBot };
}

function fromRaw(p: RawPull): PullRequestInfo {
  return {
    number: p.number,
    headRef: p.head.ref,
    headSha: p.head.sha,
    headRepo: p.head.repo?.full_name ?? null,
    baseRepo: p.base.repo.full_name,
    htmlUrl: p.html_url ?? null,
  };
}

export class NoPullRequest extends Error {}

/**
 * The pull request: the `pull-request` input wins; then a pull_request* payload (no API call);
 * then an issue comment on a PR (one call, pulls.get).
 */
export async function resolvePullRequest(o: {
  octokit: Octokit;
  repo: RepoRef;
  eventName: string;
  payload: Payload;
  input?: number;
}): Promise<PullRequestInfo> {
  const fetch = async (n: number) => fromRaw((await o.octokit.rest.pulls.get({ ...o.repo, pull_number: n })).data);
  if (o.input !== undefined) return fetch(o.input);
  if (o.payload.pull_request) return fromRaw(o.payload.pull_request);
  if (o.payload.issue) {
    if (!o.payload.issue.pull_request || !o.payload.issue.number)
      throw new NoPullRequest(`issue #${o.payload.issue.number ?? '?'} is not a pull request: phuc-loop runs on pull requests only`);
    return fetch(o.payload.issue.number);
  }
  throw new NoPullRequest(
    `the ${o.eventName} event names no pull request: trigger phuc-loop from pull_request (e.g. labeled) or issue_comment, or give the pull-request input`,
  );
}

/** A PR whose head branch lives in another repository (or in a deleted one). */
export function isFork(pr: PullRequestInfo): boolean {
  return pr.headRepo === null || pr.headRepo.toLowerCase() !== pr.baseRepo.toLowerCase();
}
