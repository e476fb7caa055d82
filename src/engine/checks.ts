// Acceptance criteria are commands the loop runs itself (exit 0 = met). Their logs and exit codes
// are Lane A evidence. A failure is retried up to `retries` times; a time-out never is (DEGA rail:
// a time-out is deterministic, a transient failure may pass on retry).
import type { Criterion } from './config.js';
import type { EvidenceStore } from './evidence.js';
import type { ProcessRunner, RunResult } from './ports.js';

export interface CheckResult {
  id: string;
  description: string;
  run: string;
  met: boolean;
  exit_code: number | null;
  timed_out: boolean;
  attempts: number;
  duration_ms: number;
  /** Evidence link `path#sha256` of the log. */
  evidence: string;
}

export interface CheckContext {
  runner: ProcessRunner;
  cwd: string;
  env: Record<string, string>;
  evidence: EvidenceStore;
  /** Evidence folder for the logs, e.g. `iter_3/checks`. */
  dir: string;
  signal?: AbortSignal;
  scrub: (text: string) => string;
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

export async function runCheck(c: Criterion, ctx: CheckContext): Promise<CheckResult> {
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
  return {
    id: c.id,
    description: c.description ?? c.run,
    run: c.run,
    met: last.exitCode === 0 && !last.timedOut,
    exit_code: last.exitCode,
    timed_out: last.timedOut,
    attempts: attempts.length,
    duration_ms: Math.round(attempts.reduce((s, r) => s + r.durationMs, 0)),
    evidence: ctx.evidence.link(rel),
  };
}

export async function runChecks(criteria: Criterion[], ctx: CheckContext): Promise<CheckResult[]> {
  const out: CheckResult[] = [];
  for (const c of criteria) out.push(await runCheck(c, ctx));
  return out;
}
