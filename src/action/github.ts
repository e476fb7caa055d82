// The REST client: @actions/github's octokit with @octokit/plugin-retry, so a transient 5xx or a
// dropped connection is retried (with back-off) instead of failing the loop, and every attempt has
// a time limit (a request GitHub never answers is a failed attempt, not a hung loop). Every request
// is counted, so the action can report how many API calls an iteration cost.
import * as github from '@actions/github';
import { defaults } from '@actions/github/lib/utils';
import { retry } from '@octokit/plugin-retry';

export type Octokit = ReturnType<typeof github.getOctokit>;

export interface ApiClient {
  octokit: Octokit;
  /** API calls made (a call retried after a 5xx counts once here; GitHub sees every attempt). */
  calls(): number;
}

/** A positive number of ms from the environment, or the default. */
function msFromEnv(env: Record<string, string | undefined>, name: string, fallback: number, min: number): number {
  const v = Number(env[name]);
  return env[name] !== undefined && env[name] !== '' && Number.isFinite(v) && v >= min ? v : fallback;
}

/** Base of the retry back-off in ms (retry k waits k² × base). Tests shorten it. */
export function retryBaseMs(env: Record<string, string | undefined> = process.env): number {
  return msFromEnv(env, 'PHUC_LOOP_API_RETRY_BASE_MS', 1000, 0);
}

/** Time limit of one request attempt in ms. Tests shorten it. */
export function requestTimeoutMs(env: Record<string, string | undefined> = process.env): number {
  return msFromEnv(env, 'PHUC_LOOP_API_TIMEOUT_MS', 30_000, 1);
}

export function createClient(token: string): ApiClient {
  let count = 0;
  const timeoutMs = requestTimeoutMs();
  // The toolkit's own fetch (it honours the runner's proxy settings), with a limit per attempt: the
  // retry plugin calls fetch again for each attempt, so each gets its own timer.
  const base = (defaults.request?.fetch ?? fetch) as typeof fetch;
  const timedFetch: typeof fetch = (url, init) => {
    const limit = AbortSignal.timeout(timeoutMs);
    return base(url, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, limit]) : limit });
  };
  const octokit = github.getOctokit(
    token,
    { retry: { retries: 3, retryAfterBaseValue: retryBaseMs() }, request: { ...defaults.request, fetch: timedFetch } },
    retry,
  );
  octokit.hook.before('request', () => {
    count++;
  });
  return { octokit, calls: () => count };
}

/** The HTTP status of an API error; undefined when no answer arrived. */
export function apiStatus(e: unknown): number | undefined {
  const s = typeof e === 'object' && e !== null ? (e as { status?: unknown }).status : undefined;
  return typeof s === 'number' ? s : undefined;
}

/**
 * A failure worth another attempt: a 5xx, a dropped connection, a timeout, a rate limit (other 4xx
 * are refusals). A 5xx, a dropped connection or a timeout may arrive after GitHub applied a write,
 * so a write that failed so is looked up before it is sent again.
 */
export function isTransient(e: unknown): boolean {
  const s = apiStatus(e);
  return s === undefined || s >= 500 || s === 408 || s === 429;
}

/** A thrown value's stack (or text), for crash messages. */
export function errorText(e: unknown): string {
  return e instanceof Error ? (e.stack ?? e.message) : String(e);
}

/** A short description of an API error for logs and reports (status + message, no headers). */
export function apiError(e: unknown): string {
  const status = apiStatus(e);
  const message = typeof e === 'object' && e !== null ? (e as { message?: unknown }).message : undefined;
  const text = typeof message === 'string' ? message : '';
  return status ? `HTTP ${status}: ${text}`.trim() : text || String(e);
}
