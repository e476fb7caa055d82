// The one scrubber every text that leaves the agent's side or the machine goes through (SPEC §7
// "Secrets"): each form of each secret (secret-forms.ts) is masked, also where it is interrupted by
// whitespace or invisible characters, or escaped.
import type { Logger } from './ports.js';
import { formsPattern, MASK, MIN_LOOP_SECRET, packedForms, secretForms, utf16Forms } from './secret-forms.js';

// A secret's form may reach a text interrupted or escaped: a line-wrapped base64 or hex dump, a URL
// encoder that escapes every character, a string literal of `\x74\x6f…`. The scrubber looks at a
// text as it is and at these views of it, each made in one pass (linear time, at most the text's
// size again), and maps what it finds there back to the text's own characters.

/** Whitespace that may interrupt an encoded text: spaces, tabs, CR, LF, vertical tab, form feed. */
const SPACES = /[\t\n\v\f\r ]+/g;
const HAS_SPACE = /[\t\n\v\f\r ]/;

/**
 * A text as seen another way: view character i comes from the original's characters
 * [from[i], to[i]) (no maps: only whether a form is there is asked).
 */
interface View {
  text: string;
  from?: Int32Array;
  to?: Int32Array;
}

/**
 * Characters that render as nothing (zero-width spaces and joiners, the soft hyphen, bidi marks,
 * variation selectors): one between a secret's characters hides it from a scan, not from a reader.
 * The loop itself puts a word joiner after `@` and `<` in agent text to make it inert.
 */
const INVISIBLE = /\p{Default_Ignorable_Code_Point}+/gu;
/** The same characters as UTF-8 bytes read as latin1 (a file's bytes): the ranges of Unicode's Default_Ignorable_Code_Point. */
const INVISIBLE_BYTES = (() => {
  const ranges = [
    [0xad, 0xad],
    [0x34f, 0x34f],
    [0x61c, 0x61c],
    [0x115f, 0x1160],
    [0x17b4, 0x17b5],
    [0x180b, 0x180f],
    [0x200b, 0x200f],
    [0x202a, 0x202e],
    [0x2060, 0x206f],
    [0x3164, 0x3164],
    [0xfe00, 0xfe0f],
    [0xfeff, 0xfeff],
    [0xffa0, 0xffa0],
    [0xfff0, 0xfff8],
    [0x1bca0, 0x1bca3],
    [0x1d173, 0x1d17a],
  ];
  const utf8 = ranges.flatMap(([a, b]) => Array.from({ length: b - a + 1 }, (_, i) => Buffer.from(String.fromCodePoint(a + i))));
  const alternatives = [
    ...utf8.map((bytes) => [...bytes].map((c) => `\\x${c.toString(16).padStart(2, '0')}`).join('')),
    '\\xf3\\xa0[\\x80-\\x83][\\x80-\\xbf]',
  ];
  return new RegExp(`(?:${alternatives.join('|')})+`, 'g');
})();

/** `text` without what `re` (global) matches, each character mapped to where it was. */
function without(text: string, re: RegExp, mapped: boolean): View {
  const out = text.replace(re, '');
  if (!mapped) return { text: out };
  const from = new Int32Array(out.length);
  let n = 0;
  let at = 0;
  for (const m of text.matchAll(re)) {
    while (at < m.index) from[n++] = at++;
    at = m.index + m[0].length;
  }
  while (at < text.length) from[n++] = at++;
  return { text: out, from, to: from.map((i) => i + 1) };
}

const spaceless = (text: string, mapped: boolean) => without(text, SPACES, mapped);

/**
 * The escapes a tool may write a character as: `%XX` (URL encoding, upper or lower hex, also among
 * plain characters), `\\xXX`, `\\uXXXX`, `\\u{X…}` and the one-letter escapes of a string literal,
 * HTML's `&#N;` and `&#xX;`.
 */
const HAS_ESCAPE = /%[0-9A-Fa-f]{2}|\\[xu0-9nrtfvb/"'\\]|&#/;
const ONE_LETTER: Record<string, number> = { n: 10, r: 13, t: 9, f: 12, v: 11, b: 8, '0': 0, '/': 47, '"': 34, "'": 39, '\\': 92 };

/** The value of `len` hex digits (or up to `len` before `stop`) of `text` at `at`, with how many were read; null when none. */
function hexAt(text: string, at: number, len: number, stop?: number): [number, number] | null {
  let v = 0;
  let i = 0;
  for (; i < len && at + i < text.length; i++) {
    const c = text.charCodeAt(at + i);
    const d = c >= 48 && c <= 57 ? c - 48 : c >= 65 && c <= 70 ? c - 55 : c >= 97 && c <= 102 ? c - 87 : -1;
    if (d < 0) break;
    v = v * 16 + d;
  }
  if (i === 0 || (stop === undefined ? i < len : text.charCodeAt(at + i) !== stop)) return null;
  return [v, i];
}

/** The decimal value of `&#N;` at `at` (the digits after `&#`), with how many were read; null when none. */
function decAt(text: string, at: number): [number, number] | null {
  let v = 0;
  let i = 0;
  for (; i < 7 && at + i < text.length; i++) {
    const c = text.charCodeAt(at + i);
    if (c < 48 || c > 57) break;
    v = v * 10 + c - 48;
  }
  return i > 0 && text.charCodeAt(at + i) === 59 ? [v, i] : null;
}

/**
 * The escape at `i` of `text` (see HAS_ESCAPE): its length and what it stands for, a byte (`%XX`,
 * `\\xXX`: negative, -1 - byte) or a code point; null when there is none.
 */
function escapeAt(text: string, i: number): [number, number] | null {
  const c = text.charCodeAt(i);
  if (c === 37) {
    const h = hexAt(text, i + 1, 2);
    return h && [3, -1 - h[0]];
  }
  if (c === 38) {
    if (text.charCodeAt(i + 1) !== 35) return null;
    const x = text.charCodeAt(i + 2);
    const h = x === 120 || x === 88 ? hexAt(text, i + 3, 6, 59) : null;
    if (h) return [h[1] + 4, h[0]];
    const d = decAt(text, i + 2);
    return d && [d[1] + 3, d[0]];
  }
  if (c !== 92) return null;
  const k = text.charAt(i + 1);
  if (k === 'x') {
    const h = hexAt(text, i + 2, 2);
    return h && [4, -1 - h[0]];
  }
  if (k === 'u') {
    const h = text.charCodeAt(i + 2) === 123 ? hexAt(text, i + 3, 6, 125) : hexAt(text, i + 2, 4);
    return h && (text.charCodeAt(i + 2) === 123 ? [h[1] + 4, h[0]] : [6, h[0]]);
  }
  const one = ONE_LETTER[k];
  return one === undefined ? null : [2, one];
}

/**
 * `text` with its escapes undone, in one pass. A byte escape is one character of that code; a code
 * point is its character in a text, its UTF-8 bytes in a byte view (latin1, one character per byte).
 * What an escape stands for is never longer than the escape: the output fits in the text's length.
 */
function unescaped(text: string, bytes: boolean, mapped: boolean): View {
  const out = bytes ? new Uint8Array(text.length) : new Uint16Array(text.length);
  const from = mapped ? new Int32Array(text.length) : null;
  const to = mapped ? new Int32Array(text.length) : null;
  let n = 0;
  const put = (unit: number, start: number, end: number) => {
    if (from && to) {
      from[n] = start;
      to[n] = end;
    }
    out[n++] = unit;
  };
  for (let i = 0; i < text.length;) {
    const esc = escapeAt(text, i);
    if (!esc || esc[1] > 0x10ffff) {
      put(text.charCodeAt(i), i, i + 1);
      i++;
      continue;
    }
    const [len, v] = esc;
    if (v < 0) put(-1 - v, i, i + len);
    else if (bytes ? v < 0x80 : v < 0x10000) put(v, i, i + len);
    else
      for (const u of bytes ? Buffer.from(String.fromCodePoint(v), 'utf8') : [0xd800 + ((v - 0x10000) >> 10), 0xdc00 + ((v - 0x10000) & 0x3ff)])
        put(u, i, i + len);
    i += len;
  }
  const units = out.subarray(0, n);
  const decoded = bytes ? Buffer.from(units.buffer, 0, n).toString('latin1') : UTF16.decode(units);
  return from && to ? { text: decoded, from: from.subarray(0, n), to: to.subarray(0, n) } : { text: decoded };
}
/** Keeps a leading U+FEFF (by default it would be dropped, and every position after it shifted). */
const UTF16 = new TextDecoder('utf-16le', { ignoreBOM: true });

/** `outer`, a view of `inner`'s text, as a view of the text `inner` was made of. */
function composed(inner: View, outer: View): View {
  if (!inner.from || !inner.to || !outer.from || !outer.to) return { text: outer.text };
  const [f, t] = [inner.from, inner.to];
  return { text: outer.text, from: outer.from.map((i) => f[i]), to: outer.to.map((i) => t[i - 1]) };
}

/** The patterns of a scrubber for texts, or for bytes (latin1). */
interface Patterns {
  /** Every form, looked for in the text as it is. */
  full: RegExp | null;
  /** The forms but hex and base64: in a text with whitespace, the packed ones are looked for in its spaceless view. */
  unpacked: RegExp | null;
  /** Hex and base64 forms, looked for with whitespace removed. */
  packed: RegExp | null;
  /** Every form, also as UTF-8 bytes (an escape `%XX` is a byte), looked for with escapes undone. */
  decoded: RegExp | null;
  bytes: boolean;
}

/** The views of a text to look at, each with its pattern; each view is made only when asked for (once). */
function views(text: string, p: Patterns, mapped: boolean): [RegExp | null, () => View | null][] {
  const spaced = HAS_SPACE.test(text);
  let u: View | null | undefined;
  const undone = () => (u === undefined ? (u = HAS_ESCAPE.test(text) ? unescaped(text, p.bytes, mapped) : null) : u);
  return [
    [spaced ? p.unpacked : p.full, () => ({ text })],
    [
      p.full,
      () => {
        const re = p.bytes ? INVISIBLE_BYTES : INVISIBLE;
        re.lastIndex = 0;
        return re.test(text) ? without(text, re, mapped) : null;
      },
    ],
    [p.packed, () => (spaced ? spaceless(text, mapped) : null)],
    [p.decoded, undone],
    [
      p.packed,
      () => {
        const v = undone();
        return v && HAS_SPACE.test(v.text) ? composed(v, spaceless(v.text, mapped)) : null;
      },
    ],
  ];
}

function found(re: RegExp, text: string): boolean {
  re.lastIndex = 0;
  return re.test(text);
}

/** Whether the view holds a form its pattern looks for. */
function hit([re, view]: [RegExp | null, () => View | null]): boolean {
  if (!re) return false;
  const v = view();
  return !!v && found(re, v.text);
}

/** Whether any form is in the text or one of its views. */
function holds(text: string, p: Patterns): boolean {
  return views(text, p, false).some(hit);
}

/**
 * Pushes (start, end) in the original text of every occurrence of `re` in `v`. Matches are searched
 * again from one character after each start, so a form that overlaps another is found too.
 */
function collect(re: RegExp, v: View, spans: number[]): void {
  re.lastIndex = 0;
  for (let m = re.exec(v.text); m; re.lastIndex = m.index + 1, m = re.exec(v.text)) {
    const [s, e] = [m.index, m.index + m[0].length];
    spans.push(v.from ? v.from[s] : s, v.to ? v.to[e - 1] : e);
  }
}

/** `text` with every span (overlapping or touching ones merged) replaced by one MASK. */
function masked(text: string, spans: number[]): string {
  if (spans.length === 0) return text;
  const order = Array.from({ length: spans.length / 2 }, (_, i) => i).sort((a, b) => spans[2 * a] - spans[2 * b]);
  let out = '';
  let pos = 0;
  let [start, end] = [spans[2 * order[0]], spans[2 * order[0] + 1]];
  for (const i of order.slice(1)) {
    const [s, e] = [spans[2 * i], spans[2 * i + 1]];
    if (s <= end) end = Math.max(end, e);
    else {
      out += text.slice(pos, start) + MASK;
      [pos, start, end] = [end, s, e];
    }
  }
  return out + text.slice(pos, start) + MASK + text.slice(end);
}

/** Every form in the text or one of its views masked; the text itself when none is there. */
function scrubText(text: string, p: Patterns): string {
  const hits = views(text, p, false).map(hit);
  if (!hits.some(Boolean)) return text;
  const spans: number[] = [];
  views(text, p, true).forEach(([re, view], i) => {
    if (hits[i]) collect(re!, view()!, spans);
  });
  return masked(text, spans);
}

/** The length of the longest end of `text` that begins some form (and may complete in the next chunk). */
function pendingTail(text: string, forms: readonly string[], firsts: ReadonlySet<string>, longest: number): number {
  for (let i = Math.max(0, text.length - longest + 1); i < text.length; i++) {
    if (!firsts.has(text.charAt(i))) continue;
    const tail = text.slice(i);
    if (forms.some((f) => f.length > tail.length && f.startsWith(tail))) return text.length - i;
  }
  return 0;
}

/** Scrubs a stream chunk by chunk: a secret split between chunks is masked too, and only a possible secret's start is held back. */
export interface ByteStreamScrubber {
  write(chunk: Buffer): Buffer;
  end(): Buffer;
}

export interface Scrubber {
  /** The secret values (not their forms), longest first. */
  readonly values: readonly string[];
  /** A function, not a method: it is passed around on its own (`scrub: scrubber.scrub`). */
  scrub: (text: string) => string;
  contains: (text: string | Buffer) => boolean;
  /** For bytes of any encoding (a proxied HTTP body): works on latin1, so no byte is altered except a secret's (forms as they are, not their views). */
  byteStream(): ByteStreamScrubber;
}

/**
 * The scrubber of a set of secret values (undefined, empty and too-short ones are ignored): every
 * form of each (see secretForms), also UTF-16, interrupted by whitespace (hex, base64) or written
 * with escapes (`%74%6F…`, `\x74…`), is masked as `***`. Precompiled regexes scan a text and at most
 * three views of it once each; a text without a secret is returned as it is.
 */
export function createScrubber(values: Iterable<string | undefined>): Scrubber {
  const vals = [...new Set([...values].filter((v): v is string => !!v && v.length >= MIN_LOOP_SECRET))].sort((a, b) => b.length - a.length);
  const forms = [...new Set(vals.flatMap((v) => [...secretForms(v), ...utf16Forms(v)]))].sort((a, b) => b.length - a.length);
  const byteForms = [...new Set(forms.map((f) => Buffer.from(f, 'utf8').toString('latin1')))];
  const packedSet = new Set(vals.flatMap(packedForms));
  const packed = formsPattern([...packedSet]);
  const unpacked = forms.filter((f) => !packedSet.has(f));
  const bytePattern = formsPattern(byteForms);
  const text: Patterns = { full: formsPattern(forms), unpacked: formsPattern(unpacked), packed, decoded: formsPattern([...forms, ...byteForms]), bytes: false };
  const byteUnpacked = formsPattern(unpacked.map((f) => Buffer.from(f, 'utf8').toString('latin1')));
  const bytes: Patterns = { full: bytePattern, unpacked: byteUnpacked, packed, decoded: bytePattern, bytes: true };
  const longest = byteForms.reduce((m, f) => Math.max(m, f.length), 0);
  const firsts = new Set(byteForms.map((f) => f.charAt(0)));
  return {
    values: vals,
    scrub: (t) => scrubText(t, text),
    contains: (t) => (typeof t === 'string' ? holds(t, text) : holds(t.toString('latin1'), bytes)),
    byteStream() {
      let held = '';
      return {
        write(chunk) {
          if (!bytePattern) return chunk;
          const spans: number[] = [];
          const all = held + chunk.toString('latin1');
          collect(bytePattern, { text: all }, spans);
          const t = masked(all, spans);
          const keep = pendingTail(t, byteForms, firsts, longest);
          held = t.slice(t.length - keep);
          return Buffer.from(t.slice(0, t.length - keep), 'latin1');
        },
        end() {
          const rest = held;
          held = '';
          return Buffer.from(rest, 'latin1');
        },
      };
    },
  };
}

/** A logger whose every message is scrubbed first (the console is a text that leaves the machine). */
export function scrubbingLogger(log: Logger, scrub: (text: string) => string): Logger {
  return {
    info: (m) => log.info(scrub(m)),
    warn: (m) => log.warn(scrub(m)),
    error: (m) => log.error(scrub(m)),
  };
}
