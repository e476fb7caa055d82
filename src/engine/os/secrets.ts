// Secrets: the one list of the loop's secret variable names, the one list of agent API key names,
// the agent's environment built from an allowlist (never the loop's secrets), and the one scrubber every text that
// leaves the agent's side or the machine goes through (SPEC §7 "Secrets").
import type { Logger } from './ports.js';

/**
 * The loop's private variables: never in the agent's (or the checks') environment. Names compare
 * case-insensitively (a runner or a user may pass `github_token`); the values of `secrets` are scrubbed
 * everywhere; prefixes cover every action input and saved state (`INPUT_GITHUB-TOKEN`, keeping the
 * dash of its input name, `STATE_*`), whose values are scrubbed when the name looks secret.
 */
export const LOOP_PRIVATE = {
  secrets: ['GITHUB_TOKEN', 'GH_TOKEN', 'GITHUB_PAT', 'ACTIONS_RUNTIME_TOKEN', 'ACTIONS_ID_TOKEN_REQUEST_TOKEN'],
  /** Not secret values, but handles to the runner's services, to the step's file commands, and the loop's own list. */
  handles: [
    'ACTIONS_ID_TOKEN_REQUEST_URL',
    'ACTIONS_RESULTS_URL',
    'ACTIONS_RUNTIME_URL',
    'ACTIONS_CACHE_URL',
    'GITHUB_STATE',
    'GITHUB_OUTPUT',
    'GITHUB_ENV',
    'GITHUB_PATH',
    'GITHUB_STEP_SUMMARY',
    'PHUC_LOOP_SECRET_VARS',
  ],
  prefixes: ['INPUT_', 'STATE_'],
  /** Comma-separated names of further loop secrets (withheld and scrubbed like the built-in ones). */
  extraNamesVar: 'PHUC_LOOP_SECRET_VARS',
} as const;

/** Agent API keys and tokens of the agent CLIs: passed to the agent unless a key proxy holds them; always scrubbed. */
export const AGENT_KEY_NAMES: readonly string[] = [
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_AUTH_TOKEN',
  'CLAUDE_CODE_OAUTH_TOKEN',
  'OPENAI_API_KEY',
  'CODEX_API_KEY',
  'CODEX_ACCESS_TOKEN',
  'AZURE_OPENAI_API_KEY',
  'GEMINI_API_KEY',
  'GOOGLE_API_KEY',
  'OPENROUTER_API_KEY',
  'DEEPSEEK_API_KEY',
  'MISTRAL_API_KEY',
  'GROQ_API_KEY',
  'XAI_API_KEY',
  'AWS_BEARER_TOKEN_BEDROCK',
];

/**
 * A name that says it holds a credential, as a whole segment (`NPM_TOKEN`, `DEPLOY_KEY`; not
 * `TOKENIZERS_PARALLELISM`), or a password at the end of a segment (`PGPASSWORD`, `DB_ROOTPASSWD`).
 */
const SECRET_LOOKING = /(?:^|[_-])(?:API[_-]?KEY|KEY|TOKEN|SECRET|PASSPHRASE|CREDENTIALS?|PAT)(?:[_-]|$)|PASS(?:WORD|WD)(?:[_-]|$)/i;
/** The password of a URL with credentials (`postgres://user:PASSWORD@host`, `redis://:PASSWORD@host`), whatever its variable's name. */
const URL_PASSWORD = /^[a-z][a-z0-9+.-]*:\/\/[^/?#@:]*:([^/?#@]+)@/i;
/** Shorter values are not credentials; masking them would garble ordinary text. */
const MIN_LOOP_SECRET = 4;
/** A variable whose name merely looks secret must hold more than a flag or a word (`FOO_TOKEN=true`). */
const MIN_LOOKING_SECRET = 8;

type Env = Record<string, string | undefined>;

const upper = (names: readonly string[]) => new Set(names.map((n) => n.toUpperCase()));
const LOOP_SECRET_SET = upper(LOOP_PRIVATE.secrets);
const LOOP_HANDLE_SET = upper(LOOP_PRIVATE.handles);
const AGENT_KEY_SET = upper(AGENT_KEY_NAMES);

function extraSecretNames(env: Env): Set<string> {
  const list = Object.entries(env).find(([k]) => k.toUpperCase() === LOOP_PRIVATE.extraNamesVar)?.[1] ?? '';
  return upper(
    list
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );
}

const hasPrivatePrefix = (upperName: string) => LOOP_PRIVATE.prefixes.some((p) => upperName.startsWith(p));

/** True when `name` is one of the loop's private variables (given the extra names of PHUC_LOOP_SECRET_VARS). */
function isLoopPrivate(name: string, extra: Set<string>): boolean {
  const u = name.toUpperCase();
  return LOOP_SECRET_SET.has(u) || LOOP_HANDLE_SET.has(u) || hasPrivatePrefix(u) || extra.has(u) || GIT_SETUP.test(u);
}

/**
 * The loop's own git setup in the environment: configuration injected by variables (a push URL
 * with a token, an extra auth header), credential helpers and the ssh agent. Never the agent's.
 */
const GIT_SETUP = /^(GIT_CONFIG_(COUNT|KEY_\d+|VALUE_\d+|PARAMETERS|GLOBAL|SYSTEM|NOSYSTEM)|GIT_ASKPASS|SSH_ASKPASS|SSH_AUTH_SOCK|GIT_SSH(_COMMAND)?)$/;

/** Variable names given as they are, and name prefixes (`LC_`). Compared case-insensitively. */
export interface EnvAllowance {
  names: readonly string[];
  prefixes: readonly string[];
}

/**
 * What every agent gets of the loop's environment, whatever its preset: the locale and time zone,
 * how to draw on a terminal, whether it runs in CI, where the machine's CA certificates are (a TLS
 * proxy of the network), and the loop's own PHUC_* variables. None of them holds a credential or
 * the address of a service; anything else comes from the preset's allowance or agent.pass_env.
 */
/**
 * Where the machine's CA certificates are, for each toolchain that reads its own variable: on a
 * network that inspects TLS, an agent or a `checks.setup: npm ci` without them hangs or fails.
 * Paths, never credentials; the agent and the checks both get them.
 */
export const CA_BUNDLE_VARS = [
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'REQUESTS_CA_BUNDLE',
  'CURL_CA_BUNDLE',
  'PIP_CERT',
  'NPM_CONFIG_CAFILE',
  'GIT_SSL_CAINFO',
  'CARGO_HTTP_CAINFO',
] as const;

export const BASE_AGENT_ENV: EnvAllowance = {
  names: ['PATH', 'LANG', 'LANGUAGE', 'TZ', 'TERM', 'COLORTERM', 'NO_COLOR', 'FORCE_COLOR', 'CI', ...CA_BUNDLE_VARS],
  prefixes: ['LC_', 'PHUC_'],
};

export interface AgentEnvironmentOptions {
  /** False when a key proxy holds the agent's key: every agent key name is withheld (the proxy's placeholder comes in `extra`). */
  keepAgentKeys?: boolean;
  /** The preset's own variables (PRESET_ENV of agent/presets.ts), besides BASE_AGENT_ENV. */
  allow?: EnvAllowance;
  /** `agent.pass_env`: names, or prefixes written `FOO_*`, given even when they look secret. */
  pass?: readonly string[];
}

/** The allowance of `agent.pass_env`: `FOO_*` is a prefix, anything else a name. */
export function passAllowance(pass: readonly string[]): EnvAllowance {
  return {
    names: pass.filter((p) => !p.endsWith('*')),
    prefixes: pass.filter((p) => p.endsWith('*')).map((p) => p.slice(0, -1)),
  };
}

function allows(a: EnvAllowance | undefined): (upperName: string) => boolean {
  if (!a) return () => false;
  const names = upper(a.names);
  const prefixes = a.prefixes.map((p) => p.toUpperCase()).filter(Boolean);
  return (u) => names.has(u) || prefixes.some((p) => u.startsWith(p));
}

/**
 * The agent's environment, from an allowlist of the loop's (SPEC §7): BASE_AGENT_ENV, the preset's
 * own variables (`allow`) and `pass` (agent.pass_env), never the loop's secrets and handles, plus
 * `extra` (the PHUC_* variables, a key proxy's variables). A name that looks secret is withheld
 * unless `pass` names it or it is an agent key of the preset's (kept unless a key proxy holds it).
 * Without a preset allowance (the live checks) it is the base alone.
 */
export function agentEnvironment(base: Env, extra: Record<string, string> = {}, opts: AgentEnvironmentOptions = {}): Record<string, string> {
  const names = extraSecretNames(base);
  const keepKeys = opts.keepAgentKeys ?? true;
  const inBase = allows(BASE_AGENT_ENV);
  const inPreset = allows(opts.allow);
  const passed = allows(passAllowance(opts.pass ?? []));
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined || isLoopPrivate(name, names)) continue;
    const u = name.toUpperCase();
    const given = AGENT_KEY_SET.has(u) ? keepKeys && (inPreset(u) || passed(u)) : passed(u) || ((inBase(u) || inPreset(u)) && !withheldAsSecret(u, value));
    if (given) env[name] = value;
  }
  return Object.assign(env, extra);
}

/**
 * A variable whose name says it holds a credential (NPM_TOKEN, AWS_SECRET_ACCESS_KEY) is not the
 * agent's unless the config passes it: scrubbing its value from what comes back does not stop an
 * agent that encodes it first.
 */
const withheldAsSecret = (upperName: string, value: string) => SECRET_LOOKING.test(upperName) && value.length >= MIN_LOOKING_SECRET;

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * Every value in `env` to scrub from what leaves the agent's side: the loop's secrets (and the names
 * in PHUC_LOOP_SECRET_VARS), inputs and saved state whose names look secret, the agent keys, any
 * variable whose name looks secret, and the password of any URL with credentials. Each once, longest first.
 */
export function secretValues(env: Env): string[] {
  const extra = extraSecretNames(env);
  const values = new Set<string>();
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || value.length < MIN_LOOP_SECRET) continue;
    const u = name.toUpperCase();
    if (LOOP_HANDLE_SET.has(u)) continue;
    const looksSecret = SECRET_LOOKING.test(u);
    // An input or saved state whose name only looks secret (INPUT_KEY-PROXY: "true") must be long
    // enough to be one: masking every "true" would corrupt the evidence JSON.
    if (LOOP_SECRET_SET.has(u) || extra.has(u) || (hasPrivatePrefix(u) && looksSecret && value.length >= MIN_LOOKING_SECRET)) values.add(value);
    else if (value.length >= MIN_LOOKING_SECRET && (AGENT_KEY_SET.has(u) || looksSecret)) values.add(value);
    // A URL that carries a password (DATABASE_URL, HTTPS_PROXY given by agent.pass_env): the password is a secret.
    const password = URL_PASSWORD.exec(value)?.[1];
    if (password && password.length >= MIN_LOOKING_SECRET) {
      values.add(password);
      const decoded = safeDecode(password);
      if (decoded.length >= MIN_LOOKING_SECRET) values.add(decoded);
    }
  }
  return [...values].sort((a, b) => b.length - a.length);
}

// ---------------------------------------------------------------------------------------------------
// The scrubber.

export const MASK = '***';
/** A base64 fragment shorter than this would match ordinary base64 text by chance. */
const MIN_FRAGMENT = 8;

const toBase64Url = (b64: string) => b64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/**
 * The base64 texts that carry `bytes` wherever they sit in an encoded stream: at each of the three
 * byte alignments, the characters fully determined by the secret (the ones sharing bits with its
 * neighbours are left out), and the tail to the end of the stream with and without padding.
 */
function base64Forms(bytes: Buffer): string[] {
  const forms: string[] = [];
  for (const shift of [0, 1, 2]) {
    const enc = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
    const start = Math.ceil((8 * shift) / 6);
    const end = Math.floor((8 * (shift + bytes.length)) / 6);
    const tail = enc.slice(start);
    for (const f of [enc.slice(start, end), tail, tail.replace(/=+$/, '')]) {
      if (f.length < MIN_FRAGMENT) continue;
      forms.push(f, toBase64Url(f));
    }
  }
  return forms;
}

/**
 * The packed forms of a secret: hex (lower or upper case) and base64 (see base64Forms). A tool wraps
 * these at any width (`base64` at 76, `xxd -p` at 60, `od` in groups), so they are also looked for
 * with whitespace removed.
 */
function packedForms(secret: string): string[] {
  if (secret.length < MIN_LOOP_SECRET) return [];
  const bytes = Buffer.from(secret, 'utf8');
  const hex = bytes.toString('hex');
  return [hex, hex.toUpperCase(), ...base64Forms(bytes)];
}

const lowerHexEscapes = (s: string) => s.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());
const jsonAscii = (s: string) => s.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * The texts a tool may print a secret as: plain, base64 (three alignments, padded or not, base64url),
 * hex (lower or upper case), URL-encoded (upper/lower hex, form encoding), JSON-escaped (also with
 * `\/` and `\uXXXX`); and the plain text upper-cased, lower-cased or reversed. The scrubber also
 * finds them interrupted by whitespace (hex and base64) or written with escapes (see escapeAt). This
 * catches a secret a tool prints by accident, not one an agent hides on purpose (any other encoding
 * passes): the key proxy is what keeps the key from the agent. Empty for a value too short to be a secret.
 */
export function secretForms(secret: string): string[] {
  if (secret.length < MIN_LOOP_SECRET) return [];
  const forms = new Set<string>([secret, ...packedForms(secret), secret.toUpperCase(), secret.toLowerCase(), Array.from(secret).reverse().join('')]);
  const url = encodeURIComponent(secret);
  for (const f of [url, lowerHexEscapes(url), encodeURI(secret), new URLSearchParams({ v: secret }).toString().slice(2)]) forms.add(f);
  const json = JSON.stringify(secret).slice(1, -1);
  forms.add(json);
  forms.add(jsonAscii(json));
  for (const f of [...forms]) if (f.includes('/')) forms.add(f.replace(/\//g, '\\/'));
  return [...forms].sort((a, b) => b.length - a.length);
}

/**
 * A secret of ASCII characters as UTF-16 (little and big endian: a Windows tool's output, PowerShell),
 * written as text of one character per byte. Not among secretForms: no log masks a NUL.
 */
function utf16Forms(secret: string): string[] {
  // eslint-disable-next-line no-control-regex -- ASCII is what this test looks for
  if (secret.length < MIN_LOOP_SECRET || !/^[\u0000-\u007f]+$/.test(secret)) return [];
  return [Array.from(secret, (c) => `${c}\0`).join(''), Array.from(secret, (c) => `\0${c}`).join('')];
}

/** One regex of every form, longest first (so at any position the longest form matching there wins). */
function formsPattern(forms: readonly string[]): RegExp | null {
  if (forms.length === 0) return null;
  return new RegExp(
    [...new Set(forms)]
      .sort((a, b) => b.length - a.length)
      .map((f) => f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('|'),
    'g',
  );
}

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
