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
export const BASE_AGENT_ENV: EnvAllowance = {
  names: ['PATH', 'LANG', 'LANGUAGE', 'TZ', 'TERM', 'COLORTERM', 'NO_COLOR', 'FORCE_COLOR', 'CI', 'NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE', 'SSL_CERT_DIR'],
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

const lowerHexEscapes = (s: string) => s.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());
const jsonAscii = (s: string) => s.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * The texts a tool may print a secret as: plain, base64 (three alignments, padded or not, base64url),
 * hex (lower or upper case), URL-encoded (upper/lower hex, form encoding), JSON-escaped (also with
 * `\/` and `\uXXXX`); and the plain text upper-cased, lower-cased or reversed. This catches a secret
 * a tool prints by accident, not one an agent hides on purpose (any other encoding passes): the key
 * proxy is what keeps the key from the agent. Empty for a value too short to be a secret.
 */
export function secretForms(secret: string): string[] {
  if (secret.length < MIN_LOOP_SECRET) return [];
  const bytes = Buffer.from(secret, 'utf8');
  const hex = bytes.toString('hex');
  const forms = new Set<string>([secret, hex, hex.toUpperCase(), secret.toUpperCase(), secret.toLowerCase(), Array.from(secret).reverse().join('')]);
  for (const f of base64Forms(bytes)) forms.add(f);
  const url = encodeURIComponent(secret);
  for (const f of [url, lowerHexEscapes(url), encodeURI(secret), new URLSearchParams({ v: secret }).toString().slice(2)]) forms.add(f);
  const json = JSON.stringify(secret).slice(1, -1);
  forms.add(json);
  forms.add(jsonAscii(json));
  for (const f of [...forms]) if (f.includes('/')) forms.add(f.replace(/\//g, '\\/'));
  return [...forms].sort((a, b) => b.length - a.length);
}

/** One regex of every form, longest first (so at any position the longest form matching there wins). */
function formsPattern(forms: readonly string[]): RegExp | null {
  if (forms.length === 0) return null;
  return new RegExp(
    [...forms]
      .sort((a, b) => b.length - a.length)
      .map((f) => f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('|'),
    'g',
  );
}

/** Every occurrence of every form, overlapping ones merged, replaced by one MASK each. */
function maskAll(text: string, pattern: RegExp | null): string {
  if (!pattern) return text;
  pattern.lastIndex = 0;
  let m = pattern.exec(text);
  if (!m) return text;
  let out = '';
  let pos = 0;
  let start = m.index;
  let end = m.index + m[0].length;
  // Matches are searched again from one character after each start, so a form that overlaps another is masked too.
  for (pattern.lastIndex = m.index + 1; (m = pattern.exec(text)); pattern.lastIndex = m.index + 1) {
    if (m.index <= end) end = Math.max(end, m.index + m[0].length);
    else {
      out += text.slice(pos, start) + MASK;
      pos = end;
      start = m.index;
      end = m.index + m[0].length;
    }
  }
  return out + text.slice(pos, start) + MASK + text.slice(end);
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
  /** For bytes of any encoding (a proxied HTTP body): works on latin1, so no byte is altered except a secret's. */
  byteStream(): ByteStreamScrubber;
}

/**
 * The scrubber of a set of secret values (undefined, empty and too-short ones are ignored): every
 * form of each (see secretForms) is masked as `***`. One precompiled regex scans a text once; a
 * text without a secret is returned as it is (about 50 µs per 100 KB with 10 secrets).
 */
export function createScrubber(values: Iterable<string | undefined>): Scrubber {
  const vals = [...new Set([...values].filter((v): v is string => !!v && v.length >= MIN_LOOP_SECRET))].sort((a, b) => b.length - a.length);
  const forms = [...new Set(vals.flatMap(secretForms))].sort((a, b) => b.length - a.length);
  const byteForms = [...new Set(forms.map((f) => Buffer.from(f, 'utf8').toString('latin1')))];
  const pattern = formsPattern(forms);
  const bytePattern = formsPattern(byteForms);
  const longest = byteForms.reduce((m, f) => Math.max(m, f.length), 0);
  const firsts = new Set(byteForms.map((f) => f.charAt(0)));
  return {
    values: vals,
    scrub: (text) => maskAll(text, pattern),
    contains: (text) => {
      const [re, t] = typeof text === 'string' ? [pattern, text] : [bytePattern, text.toString('latin1')];
      if (!re) return false;
      re.lastIndex = 0;
      return re.test(t);
    },
    byteStream() {
      let held = '';
      return {
        write(chunk) {
          if (byteForms.length === 0) return chunk;
          const text = maskAll(held + chunk.toString('latin1'), bytePattern);
          const keep = pendingTail(text, byteForms, firsts, longest);
          held = text.slice(text.length - keep);
          return Buffer.from(text.slice(0, text.length - keep), 'latin1');
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
