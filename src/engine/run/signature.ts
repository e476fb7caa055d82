// Failure signatures (docs/glossary.md): a normalized fingerprint of a failing check — paths, line
// numbers, timings, dates, pids and hex ids stripped — so "the same failure again" is detected even when the
// incidental details change. Two in a row → a detour; still the same after it → STUCK.
import { sha256 } from '../common/canonical.js';
import { normalizeVolatile } from '../common/volatile.js';

// eslint-disable-next-line no-control-regex -- an ANSI colour sequence starts with ESC
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g;
/** Ids and paths first: a temporary path is a path like any other here, with its line numbers. */
const IDS_AND_PATHS: [RegExp, string][] = [
  [/\b(?:0x)?[0-9a-f]{7,}\b/gi, '<hex>'],
  [/(?:[A-Za-z]:)?(?:[\w.@~+-]*[\\/])+[\w.@~+-]+/g, '<path>'],
];
/** After the volatile text (so a clock time is one <time>, not an hour and a line number). */
const POSITIONS: [RegExp, string][] = [
  [/:\d+(?::\d+)?\b/g, ':<n>'],
  [/\b(line|ln|col|column)\s*\d+/gi, '$1 <n>'],
  [/\b\d+(?:\.\d+)?\s*(?:ms|s|sec|secs|seconds|µs|us|ns|m|min|minutes)\b/gi, '<time>'],
  [/\(\s*<time>\s*\)/g, '(<time>)'],
  [/[ \t]+/g, ' '],
];

const rewrite = (line: string, rules: [RegExp, string][]) => rules.reduce((s, [re, to]) => s.replace(re, to), line);

/**
 * The normalized failure text: the last lines of the failing run's output, incidental details
 * removed — ids, paths, line numbers, and the volatile text (clock times, dates, durations, pids)
 * of the same normaliser that agent-written learnings go through, so a timestamp in a check's
 * output never makes the same failure look new.
 */
export function normalizeFailure(output: string, maxLines = 30): string {
  const lines = output
    .replace(ANSI, '')
    .split(/\r?\n/)
    .map((l) => rewrite(normalizeVolatile(rewrite(l, IDS_AND_PATHS)), POSITIONS).trim())
    .filter((l) => l && !/^--- (stdout|stderr|exit .*|timed out|aborted|signal .*) ---$/.test(l) && !l.startsWith('$ '));
  return lines.slice(-maxLines).join('\n');
}

export interface Signature {
  criterion: string;
  /** `<criterion>:<12 hex>`, stable across runs for the same failure. */
  signature: string;
  text: string;
}

export function failureSignature(criterion: string, output: string): Signature {
  const text = normalizeFailure(output);
  return { criterion, signature: `${criterion}:${sha256(text).slice(0, 12)}`, text: text.slice(-600) };
}

/** The known-fix instruction of the first detour whose `match` (substring or /regex/flags) fits. */
export function detourFor(detours: { match: string; instruction: string }[], sig: Signature): string | null {
  for (const d of detours) {
    const re = /^\/(.*)\/([a-z]*)$/.exec(d.match);
    const hit = re
      ? new RegExp(re[1], re[2]).test(sig.signature) || new RegExp(re[1], re[2]).test(sig.text)
      : sig.signature.includes(d.match) || sig.text.includes(d.match);
    if (hit) return d.instruction;
  }
  return null;
}
