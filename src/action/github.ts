// The REST client: @actions/github's octokit with @octokit/plugin-retry, so a transient 5xx or a
// dropped connection is retried (with back-off) instead of failing the loop. Every request is
// counted, so the action can report how many API calls an iteration cost.
import * as github from '@actions/github';
import { retry } from '@octokit/plugin-retry';

export type Octokit = ReturnType<typeof github.getOctokit>;

export interface ApiClient {
  octokit: Octokit;
  /** API calls made (a call retried after a 5xx counts once here; GitHub sees every attempt). */
  calls(): number;
}

/** Base of the retry back-off in ms (retry k waits k² × base). Tests shorten it. */
export function retryBaseMs(env: Record<string, string | undefined> = process.env): number {
  const v = Number(env['PHUC_LOOP_API_RETRY_BASE_MS']);
  return Number.isFinite(v) && v >= 0 ? v : 1000;
}

export function createClient(token: string): ApiClient {
  let count = 0;
  const octokit = github.getOctokit(token, { retry: { retries: 3, retryAfterBaseValue: retryBaseMs() } }, retry);
  octokit.hook.before('request', () => {
    count++;
  });
  return { octokit, calls: () => count };
}

/** A short description of an API error for logs and reports (status + message, no headers). */
export function apiError(e: unknown): string {
  const err = e as { status?: number; message?: string };
  return err.status ? `HTTP ${err.status}: ${err.message ?? ''}`.trim() : String(err?.message ?? e);
}
