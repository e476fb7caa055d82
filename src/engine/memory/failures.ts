// What failed in a round of checks, for the next agent (SPEC §7 "What the agent sees") and for the
// report: the failing criteria, the failing tests and their assertion messages (JUnit where the
// checks write it), else the tail of each failing check's log — within a fixed token bound.
// Recorded per round as `<round>/failures.json` (hashed in the manifest); the capsule carries the
// latest round's excerpt. A function of the logs and reports only: machine paths, times and
// durations are replaced, so the same failure gives the same bytes in every run.
import { z } from 'zod';
import type { CheckResult } from '../judge/checks.js';
import { executedTests, failingTests, type JunitRead } from '../judge/junit.js';
import { normalizeVolatile } from '../common/volatile.js';
import { countTokens } from './agents-md.js';
import { iterDir } from '../store/evidence.js';
import type { EvidenceStore } from '../store/evidence.js';

/** The bound of an excerpt (cl100k tokens, counted as the AGENTS.md bound is). */
export const FAILURE_EXCERPT_TOKENS = 1500;
/** Failing tests named in full; the rest are counted. */
const TESTS_LISTED = 20;
/** Lines of a failing check's log considered before the token bound trims them. */
const TAIL_LINES = 60;
const LINE_MAX = 400;
export const FAILURES_FILE = 'failures.json';

export const roundFailuresSchema = z.strictObject({
  round: z.string(),
  failing_criteria: z.array(z.string()),
  /** null where the checks write no JUnit report (or it could not be read). */
  tests: z.strictObject({ executed: z.number().int().min(0), failing: z.number().int().min(0), first: z.array(z.string()) }).nullable(),
  excerpt: z.string(),
});
export type RoundFailures = z.infer<typeof roundFailuresSchema>;

export interface RoundInput {
  round: string;
  checks: CheckResult[];
  /** Each failing check's log, by criterion id. */
  logs: Record<string, string>;
  junit: JunitRead | undefined;
  /** Folders the text must not name: the judged checkout (becomes "."), then the host's own. */
  cwd: string;
  hostPaths: readonly string[];
}

// eslint-disable-next-line no-control-regex -- an ANSI colour sequence starts with ESC
export const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;
// formatLog's frame: the command line and the stream and end markers (the heading says how it ended).
export const LOG_FRAME = /^--- (stdout|stderr|exit .*|timed out|aborted|signal .*) ---$|^\$ /;

/** Output as the agent may read it: no colour codes, no machine paths, no clock times or durations. */
function clean(text: string, cwd: string, hostPaths: readonly string[]): string {
  let s = text.replace(ANSI, '').replace(/\r\n?/g, '\n');
  if (cwd.length > 1) s = s.split(cwd).join('.');
  for (const p of [...hostPaths].sort((a, b) => b.length - a.length)) if (p.length > 1) s = s.split(p).join('<host-path>');
  return normalizeVolatile(s)
    .split('\n')
    .map((l) => (l.length > LINE_MAX ? `${l.slice(0, LINE_MAX - 1)}…` : l))
    .join('\n');
}

/** A fence no line of `text` can close. */
function fenced(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}\n${text}\n${fence}`;
}

/** The last lines of `lines` that fit in `tokens` (at least the last one, cut). */
function tailWithin(lines: string[], tokens: number): string[] {
  let lo = 0;
  let hi = lines.length;
  // The smallest start whose suffix fits: suffixes shrink as the start grows.
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (countTokens(lines.slice(mid).join('\n')) <= tokens) hi = mid;
    else lo = mid + 1;
  }
  return lo < lines.length ? lines.slice(lo) : lines.slice(-1).map((l) => l.slice(-tokens));
}

function checkHead(c: CheckResult): string {
  const how = c.timed_out ? 'timed out' : c.exit_code === null ? 'killed' : `exit ${c.exit_code}`;
  return `### ${c.id} — failed (${how}${c.attempts > 1 ? `, ${c.attempts} attempts` : ''})`;
}

/** The failures of one round and their bounded excerpt (markdown; check output in fenced blocks). */
export function roundFailures(r: RoundInput): RoundFailures {
  const failing = r.checks.filter((c) => !c.met);
  const tests = r.junit && 'tests' in r.junit ? r.junit.tests : null;
  const failingT = tests ? failingTests(tests) : [];
  const named = failingT.map((t) => clean(`${t.id}${t.status === 'error' ? ' (error)' : ''}${t.message ? `: ${t.message}` : ''}`, r.cwd, r.hostPaths));
  const parts: string[] = [];
  if (!failing.length && !failingT.length) parts.push('Every criterion passed in this round.');
  if (tests) {
    // At most half the bound: the logs of the failing checks keep the other half.
    let shown = named.slice(0, TESTS_LISTED);
    while (shown.length > 1 && countTokens(shown.join('\n')) > FAILURE_EXCERPT_TOKENS / 2) shown = shown.slice(0, -1);
    parts.push(
      `### Failing tests (JUnit): ${failingT.length} of ${executedTests(tests).length} executed\n` +
        (shown.length ? fenced(shown.join('\n') + (named.length > shown.length ? `\n… and ${named.length - shown.length} more` : '')) : ''),
    );
  } else if (r.junit && 'error' in r.junit) parts.push(`(The JUnit reports could not be read: ${clean(r.junit.error, r.cwd, r.hostPaths)})`);
  const heads = failing.map(checkHead);
  // The log tails share what the test list and the headings leave of the bound, equally.
  const left = FAILURE_EXCERPT_TOKENS - countTokens([...parts, ...heads].join('\n\n')) - 20 * failing.length;
  const share = Math.max(20, Math.floor(left / Math.max(1, failing.length)));
  failing.forEach((c, i) => {
    const lines = clean(r.logs[c.id] ?? '', r.cwd, r.hostPaths)
      .split('\n')
      .filter((l) => l.trim() !== '' && !LOG_FRAME.test(l))
      .slice(-TAIL_LINES);
    const tail = tailWithin(lines, share);
    parts.push(`${heads[i]}\n${tail.length ? `last lines of its output:\n${fenced(tail.join('\n'))}` : '(no output)'}`);
  });
  // A hard bound whatever the number of failing checks: whole parts go from the end, counted.
  let kept = parts.length;
  const text = (k: number) => parts.slice(0, k).join('\n\n') + (k < parts.length ? `\n\n… ${parts.length - k} more part(s) left out (token bound)` : '');
  while (kept > 1 && countTokens(text(kept)) > FAILURE_EXCERPT_TOKENS) kept--;
  return {
    round: r.round,
    failing_criteria: failing.map((c) => c.id),
    tests: tests ? { executed: executedTests(tests).length, failing: failingT.length, first: named.slice(0, 5) } : null,
    excerpt: text(kept),
  };
}

/** What recording and reading failures needs of a run: its evidence, and the host paths to hide. */
export interface FailureStore {
  ev: EvidenceStore;
  hostPaths: readonly string[];
}

/** The rounds before iteration n, latest first: resume_k (judged before iteration k), iter_(k-1), …, baseline. */
export function roundsBefore(n: number): string[] {
  const out: string[] = [];
  for (let k = n; k >= 0; k--) out.push(`resume_${k}`, ...(k > 0 ? [iterDir(k - 1)] : []));
  return [...out, 'baseline'];
}

/** Records the round's failures as `<dir>/failures.json` (read back by the next capsule and the report). */
export async function recordFailures(
  ctx: FailureStore,
  dir: string,
  round: { checks: CheckResult[]; junit: JunitRead | undefined; cwd: string },
): Promise<RoundFailures> {
  const logs: Record<string, string> = {};
  for (const c of round.checks.filter((k) => !k.met)) logs[c.id] = (await ctx.ev.readText(c.evidence.split('#')[0])) ?? '';
  const failures = roundFailures({ round: dir, checks: round.checks, logs, junit: round.junit, cwd: round.cwd, hostPaths: ctx.hostPaths });
  await ctx.ev.writeJson(`${dir}/${FAILURES_FILE}`, failures);
  return failures;
}

/** The failures of the latest round on record before iteration n (null: none recorded, as in evidence from before this file). */
export async function lastRoundFailures(ctx: FailureStore, n: number): Promise<RoundFailures | null> {
  const dir = roundsBefore(n).find((d) => ctx.ev.entry(`${d}/${FAILURES_FILE}`));
  return dir === undefined ? null : ctx.ev.readJson(`${dir}/${FAILURES_FILE}`, roundFailuresSchema);
}
