// Pushing each iteration's commit to the PR head branch. Never forced: a rejected push means someone
// else pushed meanwhile and the loop stops EXIT_BLOCKED(BRANCH_MOVED). Transient failures (network,
// 5xx) are retried. The token reaches git only through this process's environment, never the agent's:
// credentials that actions/checkout persisted in .git/config are taken out while the loop runs, and
// a push is refused when the agent changed the git config that decides where credentials go.
import { Buffer } from 'node:buffer';
import { readFile, unlink, writeFile } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import type { ProcessRunner } from '../engine/os/ports.js';

/** Said in the job summary when the loop's commits were pushed without a push-token. */
export const GITHUB_TOKEN_PUSH_WARNING =
  'The iteration commits were pushed with `github-token` (by default `github.token`): GitHub starts no workflow for pushes made with `github.token`, ' +
  "so the pull request's checks did not run on them. Pass a GitHub App installation token or a fine-grained PAT (contents: write) as `push-token` " +
  '(the reusable workflow: the `PUSH_TOKEN` secret) to have them run.';

export type PushOutcome = { ok: true; attempts: number } | { ok: false; reason: string; attempts: number };

const REJECTED =
  /\[rejected\]|\[remote rejected\][^\n]*(?:stale|fetch first|non-fast-forward)|non-fast-forward|fetch first|\(stale info\)|Updates were rejected/i;
const TRANSIENT =
  /Could not resolve host|Connection (?:timed out|reset|refused)|Operation timed out|Failed to connect|RPC failed|early EOF|unexpected disconnect|remote end hung up|The requested URL returned error: (?:5\d\d|429)|HTTP\/2 stream \d+ was not closed|gnutls_handshake|SSL_(?:read|connect|ERROR)|TLS connection|Empty reply from server|transfer closed|Internal Server Error|Bad Gateway|Service Unavailable|Gateway Time-?out/i;

export function classifyPushFailure(output: string): 'rejected' | 'transient' | 'fatal' {
  if (REJECTED.test(output)) return 'rejected';
  if (TRANSIENT.test(output)) return 'transient';
  return 'fatal';
}

/** Local config keys that decide where a push goes and what runs with the credentials. */
const SENSITIVE_KEYS =
  '^(url\\..*|http\\..*|credential.*|core\\.hookspath|core\\.sshcommand|core\\.askpass|core\\.gitproxy|remote\\..*|include\\..*|includeif\\..*|protocol\\..*)$';

export interface PusherOptions {
  runner: ProcessRunner;
  cwd: string;
  env: Record<string, string | undefined>;
  /** e.g. https://github.com */
  serverUrl: string;
  /** owner/name of the PR head repository (the base repository: forks are refused earlier). */
  repository: string;
  branch: string;
  token: string;
  retries?: number;
  retryBaseMs?: number;
  sleep?: (ms: number) => Promise<void>;
  log: (m: string) => void;
  scrub: (s: string) => string;
}

export class BranchPusher {
  /** Credential settings taken out of .git/config (put back by restore()). */
  private removedHeaders: { key: string; value: string }[] = [];
  private removedFiles: { file: string; text: string }[] = [];
  private configSnapshot = '';
  pushes = 0;

  constructor(private readonly o: PusherOptions) {}

  get remoteUrl(): string {
    return `${this.o.serverUrl.replace(/\/$/, '')}/${this.o.repository}`;
  }

  private async git(args: string[], auth = false, raw = false): Promise<{ code: number | null; out: string }> {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(this.o.env)) if (v !== undefined) env[k] = v;
    env['GIT_TERMINAL_PROMPT'] = '0';
    if (auth) {
      // Appended after any GIT_CONFIG_* the runner (or a test harness) already set.
      // An empty value first clears any header from config files (no duplicate Authorization).
      const n = Number(env['GIT_CONFIG_COUNT'] ?? '0') || 0;
      const key = `http.${this.o.serverUrl.replace(/\/$/, '')}/.extraheader`;
      env[`GIT_CONFIG_KEY_${n}`] = key;
      env[`GIT_CONFIG_VALUE_${n}`] = '';
      env[`GIT_CONFIG_KEY_${n + 1}`] = key;
      env[`GIT_CONFIG_VALUE_${n + 1}`] = `AUTHORIZATION: basic ${Buffer.from(`x-access-token:${this.o.token}`).toString('base64')}`;
      env['GIT_CONFIG_COUNT'] = String(n + 2);
    }
    const r = await this.o.runner.run({ command: 'git', args, cwd: this.o.cwd, env, timeoutMs: 300_000 });
    // `raw` only for reading back config values this process will write again (never logged).
    return { code: r.exitCode, out: raw ? r.stdout : this.o.scrub(`${r.stdout}\n${r.stderr}`.trim()) };
  }

  private async sensitiveConfig(): Promise<string> {
    const r = await this.git(['config', '--local', '--null', '--get-regexp', SENSITIVE_KEYS]);
    return r.code === 0 ? r.out : '';
  }

  /**
   * Takes persisted credentials out of .git/config (the agent must not read them), and checks that
   * the checkout is the tip of the PR head branch, so that pushing the iteration commits is a
   * fast-forward of that branch. Returns a reason to refuse, or null.
   */
  async prepare(): Promise<string | null> {
    // actions/checkout ≤ v5 writes the header into .git/config; v6 into a file of RUNNER_TEMP that
    // .git/config includes (includeIf.gitdir:…path). Both are taken out while the agent runs.
    const local = async (pattern: string) => {
      const r = await this.git(['config', '--local', '--null', '--get-regexp', pattern], false, true);
      if (r.code !== 0) return [];
      return r.out
        .split('\0')
        .filter(Boolean)
        .map((rec) => {
          const i = rec.indexOf('\n');
          return { key: i < 0 ? rec : rec.slice(0, i), value: i < 0 ? '' : rec.slice(i + 1) };
        });
    };
    const headers = await local('^http\\..*\\.extraheader$');
    const includes: { key: string; value: string }[] = [];
    for (const inc of await local('^include(if\\..*)?\\.path$')) {
      const file = isAbsolute(inc.value) ? inc.value : join(this.o.cwd, '.git', inc.value);
      const text = await readFile(file, 'utf8').catch(() => '');
      if (/extraheader|credential/i.test(text)) {
        includes.push(inc);
        // The included file (actions/checkout v6 keeps it in RUNNER_TEMP, which the agent can read)
        // is removed too while the agent runs; its content is kept in memory and written back after.
        this.removedFiles.push({ file, text });
        await unlink(file).catch(() => undefined);
      }
    }
    this.removedHeaders = [...headers, ...includes];
    for (const key of new Set(this.removedHeaders.map((h) => h.key))) await this.git(['config', '--local', '--unset-all', key]);
    if (this.removedHeaders.length) this.o.log(`took ${this.removedHeaders.length} persisted credential setting(s) out of .git/config while the agent runs`);
    this.configSnapshot = await this.sensitiveConfig();
    const head = (await this.git(['rev-parse', 'HEAD'])).out.trim();
    const remote = await this.withRetries('git ls-remote', () => this.git(['ls-remote', '--heads', this.remoteUrl, `refs/heads/${this.o.branch}`], true));
    if (!remote.ok) return `CHECKOUT_NOT_PR_HEAD: cannot read ${this.o.branch} from ${this.remoteUrl}: ${remote.out}`;
    const tip = remote.out
      .split('\n')
      .find((l) => l.endsWith(`\trefs/heads/${this.o.branch}`))
      ?.split('\t')[0];
    if (!tip) return `CHECKOUT_NOT_PR_HEAD: the branch ${this.o.branch} does not exist in ${this.o.repository}`;
    if (tip !== head)
      return (
        `CHECKOUT_NOT_PR_HEAD: the checkout is at ${head.slice(0, 12)} but ${this.o.branch} is at ${tip.slice(0, 12)}; ` +
        `check out the pull request's head branch (actions/checkout with ref: the PR head ref) so the loop's commits can be pushed to it`
      );
    return null;
  }

  private async withRetries(
    what: string,
    f: () => Promise<{ code: number | null; out: string }>,
  ): Promise<{ ok: boolean; out: string; attempts: number; kind?: ReturnType<typeof classifyPushFailure> }> {
    const retries = this.o.retries ?? 3;
    const base = this.o.retryBaseMs ?? 1000;
    const sleep = this.o.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
    for (let attempt = 1; ; attempt++) {
      const r = await f();
      if (r.code === 0) return { ok: true, out: r.out, attempts: attempt };
      const kind = classifyPushFailure(r.out);
      if (kind !== 'transient' || attempt > retries) return { ok: false, out: r.out, attempts: attempt, kind };
      const wait = base * 2 ** (attempt - 1);
      this.o.log(`${what} failed transiently (attempt ${attempt}): ${r.out.split('\n').at(-1)}; retrying in ${wait} ms`);
      await sleep(wait);
    }
  }

  /** Pushes `commit` to the branch; a refusal string (for LoopHost) or null when pushed. */
  async push(commit: string): Promise<PushOutcome> {
    const now = await this.sensitiveConfig();
    if (now !== this.configSnapshot)
      return {
        ok: false,
        attempts: 0,
        reason:
          'PUSH_REFUSED: the git configuration of the checkout (remotes, url rewrites, http or credential settings, hooks) changed during the iteration; the loop does not push with credentials into a configuration the agent could have changed',
      };
    this.pushes++;
    const r = await this.withRetries('git push', () =>
      this.git(['-c', 'core.hooksPath=/dev/null', 'push', '--no-verify', '--porcelain', this.remoteUrl, `${commit}:refs/heads/${this.o.branch}`], true),
    );
    if (r.ok) return { ok: true, attempts: r.attempts };
    if (r.kind === 'rejected')
      return {
        ok: false,
        attempts: r.attempts,
        reason: `BRANCH_MOVED: someone else pushed to ${this.o.branch} while the loop ran; its commit ${commit.slice(0, 12)} was not pushed and nothing was forced (the evidence artifact keeps the iteration)`,
      };
    return {
      ok: false,
      attempts: r.attempts,
      reason: `PUSH_FAILED: git push to ${this.o.branch} failed after ${r.attempts} attempt(s): ${r.out.split('\n').slice(-3).join(' ')}`,
    };
  }

  /** Puts the persisted credentials back (later steps of the job may rely on them). */
  async restore(): Promise<void> {
    for (const f of this.removedFiles) await writeFile(f.file, f.text, { mode: 0o600 });
    this.removedFiles = [];
    for (const h of this.removedHeaders) await this.git(['config', '--local', '--add', h.key, h.value]);
    this.removedHeaders = [];
  }
}
