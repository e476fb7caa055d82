// Acceptance criteria are commands the loop runs itself (exit 0 = met). Their logs and exit codes
// are Lane A evidence. DEGA command rails: a failure is retried up to `retries` times, a time-out
// never is (a time-out is deterministic, a transient failure may pass on retry), and the two are
// told apart in `failure_kind`. Freshness: a result holds for the git tree it ran on; a criterion
// with `inputs` reuses its last pass while the hash of those inputs is unchanged.
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import picomatch from 'picomatch';
import { sha256 } from '../common/canonical.js';
import type { Criterion } from '../config/config.js';
import type { EvidenceStore } from '../store/evidence.js';
import type { ProcessRunner, RunResult } from '../os/ports.js';
import { readAsGit } from '../os/tree-file.js';

export interface CheckResult {
  id: string;
  description: string;
  run: string;
  met: boolean;
  exit_code: number | null;
  timed_out: boolean;
  /** null when met at the first attempt; `transient` when a retry passed. */
  failure_kind: 'timeout' | 'transient' | 'failed' | null;
  attempts: number;
  duration_ms: number;
  /** Evidence link `path#sha256` of the log (for a reused pass: the log of the run it reuses). */
  evidence: string;
  /** The git tree the result was obtained on. */
  tree: string;
  inputs_hash: string | null;
  reused_from_iteration: number | null;
}

/** A pass that may be reused while its inputs are unchanged. */
export interface PassRecord {
  iteration: number | 'baseline';
  inputs_hash: string;
  evidence: string;
  tree: string;
}

export interface CheckContext {
  runner: ProcessRunner;
  cwd: string;
  env: Record<string, string>;
  evidence: EvidenceStore;
  /** Evidence folder for the logs, e.g. `iter_3/checks`. */
  dir: string;
  tree: string;
  signal?: AbortSignal;
  scrub: (text: string) => string;
  /** Tracked and untracked (not ignored) files of the checkout, for input globs. */
  files?: string[];
  /** Passes that may be reused, by criterion id (none for replays: they always run). */
  passes?: Readonly<Record<string, PassRecord>>;
  iteration?: number;
  /**
   * Called after each criterion that ran (not a reused pass), with the ids of the criteria that may
   * have changed the workspace since the last call (it, those that ended since and those still
   * running; config order): what they left is looked at before a criterion that waits for it starts.
   */
  afterRun?: (c: CheckResult, suspects: string[]) => void | Promise<void>;
}

const MAX_LOG_BYTES = 512 * 1024;

export function formatLog(command: string, attempts: RunResult[]): string {
  return attempts
    .map((r, i) => {
      const end = r.timedOut ? 'timed out' : r.aborted ? 'aborted' : r.exitCode === null ? `signal ${r.signal}` : `exit ${r.exitCode}`;
      return `$ ${command}${attempts.length > 1 ? `   (attempt ${i + 1})` : ''}\n--- stdout ---\n${r.stdout}\n--- stderr ---\n${r.stderr}\n--- ${end} ---\n`;
    })
    .join('\n');
}

/** sha256 over the sorted (path, content sha256) of the files matching `globs`. */
export async function inputsHash(cwd: string, globs: string[], files: string[]): Promise<string> {
  const match = picomatch(globs, { dot: true });
  const lines: string[] = [];
  for (const f of files.filter((p) => match(p)).sort()) {
    const data = await readAsGit(join(cwd, f));
    lines.push(`${f}\0${data === null ? 'missing' : sha256(data)}`);
  }
  return sha256(lines.join('\n'));
}

export async function runCheck(c: Criterion, ctx: CheckContext): Promise<CheckResult> {
  const hash = c.inputs && ctx.files ? await inputsHash(ctx.cwd, c.inputs, ctx.files) : null;
  const prior = ctx.passes?.[c.id];
  if (hash !== null && prior && prior.inputs_hash === hash) {
    return {
      id: c.id,
      description: c.description ?? c.run,
      run: c.run,
      met: true,
      exit_code: 0,
      timed_out: false,
      failure_kind: null,
      attempts: 0,
      duration_ms: 0,
      evidence: prior.evidence,
      tree: prior.tree,
      inputs_hash: hash,
      reused_from_iteration: prior.iteration === 'baseline' ? -1 : prior.iteration,
    };
  }
  const attempts: RunResult[] = [];
  for (let i = 0; i <= c.retries; i++) {
    const r = await ctx.runner.run({
      command: c.run,
      cwd: ctx.cwd,
      env: ctx.env,
      timeoutMs: c.timeout_seconds * 1000,
      signal: ctx.signal,
      maxOutputBytes: MAX_LOG_BYTES,
    });
    attempts.push(r);
    if (r.exitCode === 0 || r.timedOut || r.aborted) break;
  }
  const last = attempts[attempts.length - 1];
  const rel = `${ctx.dir}/${c.id}.log`;
  await ctx.evidence.write(rel, ctx.scrub(formatLog(c.run, attempts)));
  const met = last.exitCode === 0 && !last.timedOut;
  return {
    id: c.id,
    description: c.description ?? c.run,
    run: c.run,
    met,
    exit_code: last.exitCode,
    timed_out: last.timedOut,
    failure_kind: last.timedOut ? 'timeout' : !met ? 'failed' : attempts.length > 1 ? 'transient' : null,
    attempts: attempts.length,
    duration_ms: Math.round(attempts.reduce((s, r) => s + r.durationMs, 0)),
    evidence: ctx.evidence.link(rel),
    tree: ctx.tree,
    inputs_hash: hash,
    reused_from_iteration: null,
  };
}

/**
 * Runs the criteria, at most `concurrency` at a time (default: the machine's cores), each as soon as
 * the criteria it names in `after` have ended: independent criteria run side by side, each with its
 * own output. The results are in the config's order whatever order they end in, so the evidence is
 * the same however they were scheduled. After each criterion ends, `afterRun` is given the
 * criteria that could have changed the workspace since the last look (those that ended since and
 * those still running); a look that throws stops the others and is the round's error.
 */
export async function runChecks(criteria: Criterion[], ctx: CheckContext & { concurrency?: number }): Promise<CheckResult[]> {
  const stop = new AbortController();
  const abort = () => stop.abort();
  if (ctx.signal?.aborted) stop.abort();
  ctx.signal?.addEventListener('abort', abort, { once: true });
  const inner: CheckContext = { ...ctx, signal: stop.signal };
  const slots = new Slots(Math.max(1, ctx.concurrency ?? availableParallelism()));
  const running = new Set<string>();
  let unseen: string[] = [];
  const ended = new Map<string, Promise<CheckResult>>();
  for (const c of criteria) {
    // Validated by the config: each names a criterion listed before, so already scheduled.
    const deps = (c.after ?? []).flatMap((id) => ended.get(id) ?? []);
    ended.set(
      c.id,
      (async () => {
        await Promise.all(deps);
        const release = await slots.take();
        try {
          running.add(c.id);
          const r = await runCheck(c, inner).finally(() => running.delete(c.id));
          if (r.reused_from_iteration === null) {
            unseen.push(c.id);
            const suspects = criteria.filter((k) => unseen.includes(k.id) || running.has(k.id));
            unseen = [];
            await ctx.afterRun?.(
              r,
              suspects.map((k) => k.id),
            );
          }
          return r;
        } finally {
          release();
        }
      })(),
    );
  }
  const all = [...ended.values()];
  try {
    return await Promise.all(all);
  } catch (e) {
    // Nothing of a refused round goes on running: the others are stopped and waited for.
    stop.abort();
    await Promise.allSettled(all);
    throw e;
  } finally {
    ctx.signal?.removeEventListener('abort', abort);
  }
}

/** How a look after the checks names those that may have changed the workspace. */
export function checkStep(ids: readonly string[]): string {
  return ids.length === 1 ? `the check \`${ids[0]}\`` : `the checks ${ids.map((id) => `\`${id}\``).join(', ')} (run side by side)`;
}

/** A counting semaphore: take() resolves with the function that gives the slot back. */
class Slots {
  private readonly waiting: (() => void)[] = [];
  constructor(private free: number) {}

  async take(): Promise<() => void> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    let given = false;
    return () => {
      if (given) return;
      given = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    };
  }
}

/** The passes to remember after a round of checks: new passes recorded, failures forgotten. */
export function updatePasses(passes: Record<string, PassRecord>, checks: CheckResult[], iteration: number | 'baseline'): Record<string, PassRecord> {
  const next = new Map(Object.entries(passes));
  for (const c of checks) {
    if (!c.met || c.inputs_hash === null) next.delete(c.id);
    else if (c.reused_from_iteration === null) next.set(c.id, { iteration, inputs_hash: c.inputs_hash, evidence: c.evidence, tree: c.tree });
  }
  return Object.fromEntries(next);
}
