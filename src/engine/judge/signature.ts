// Failure signatures (docs/glossary.md): a normalized fingerprint of a failing check — paths, line
// numbers, timings and hex ids stripped — so "the same failure again" is detected even when the
// incidental details change. Two in a row → a detour; still the same after it → STUCK.
import { sha256 } from '../common/canonical.js';

// eslint-disable-next-line no-control-regex -- an ANSI colour sequence starts with ESC
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g;
const RULES: [RegExp, string][] = [
  [/\b(?:0x)?[0-9a-f]{7,}\b/gi, '<hex>'],
  [/(?:[A-Za-z]:)?(?:[\w.@~+-]*[\\/])+[\w.@~+-]+/g, '<path>'],
  [/:\d+(?::\d+)?\b/g, ':<n>'],
  [/\b(line|ln|col|column)\s*\d+/gi, '$1 <n>'],
  [/\b\d+(?:\.\d+)?\s*(?:ms|s|sec|secs|seconds|µs|us|ns|m|min|minutes)\b/gi, '<time>'],
  [/\(\s*<time>\s*\)/g, '(<time>)'],
  [/[ \t]+/g, ' '],
];

/** The normalized failure text: the last lines of the failing run's output, incidental details removed. */
export function normalizeFailure(output: string, maxLines = 30): string {
  const lines = output
    .replace(ANSI, '')
    .split(/\r?\n/)
    .map((l) => RULES.reduce((s, [re, to]) => s.replace(re, to), l).trim())
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
