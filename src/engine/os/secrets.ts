// Secrets: the one list of the loop's secret variable names, the one list of agent API key names,
// the agent's environment built from an allowlist (never the loop's secrets), and the values the
// one scrubber (scrubber.ts) hides in every text that leaves the agent's side or the machine
// (SPEC §7 "Secrets"). The scrubber's names are exported from here too: the hosts take everything
// about secrets from this module.
import { MIN_LOOP_SECRET } from './secret-forms.js';

export { MASK, secretForms } from './secret-forms.js';
export { createScrubber, scrubbingLogger, type ByteStreamScrubber, type Scrubber } from './scrubber.js';

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
