// Agent presets: how each coding-agent CLI is run non-interactively, what it reports about cost and
// usage, how it says it was rate limited, and which environment it gets.
//
// Sources checked for every flag (2026-11; CLIs change, re-check on upgrades):
// - Claude Code 2.1.197 (`@anthropic-ai/claude-code`): `claude --help` of the installed CLI, and a
//   real run against a local Anthropic-compatible server: `-p/--print` reads the prompt from stdin;
//   `--output-format json` prints one `{"type":"result",...,"total_cost_usd":…,"num_turns":…,
//   "usage":{…}}` object (stream-json ends with the same object as its last line);
//   `--dangerously-skip-permissions`, `--permission-mode`, `--model` from --help; `--max-turns` is
//   accepted though hidden from --help (docs.claude.com "Headless mode"/CLI reference). As root,
//   bypassing permissions is refused unless IS_SANDBOX=1 is set (seen in the CLI's own check).
//   A 429 ends as `"is_error":true,"api_error_status":429,"result":"API Error: Request rejected
//   (429) · …"`.
// - Codex CLI 0.169.0 (`@openai/codex`): `codex exec --help` and real runs against a local
//   Responses-API server: `--json` prints JSONL events, usage on `{"type":"turn.completed",
//   "usage":{"input_tokens","cached_input_tokens","output_tokens","reasoning_output_tokens"}}`;
//   prompt `-` (or none) is read from stdin; `-s/--sandbox workspace-write` lets it edit files
//   (`--full-auto` is rejected by 0.169, developers.openai.com/codex/noninteractive calls it
//   deprecated); `-m/--model`; `--skip-git-repo-check`. Repeating a flag is an error (clap), so a
//   flag the user passes in `args` replaces ours. A 429 ends as `{"type":"turn.failed","error":
//   {"message":"exceeded retry limit, last status: 429 Too Many Requests"}}`.
// - Gemini CLI 0.61.0 (`@google/gemini-cli`): `gemini --help`, its bundled source and real runs:
//   `-p/--prompt` selects headless mode and is appended to stdin, so `-p ""` runs the stdin prompt;
//   `-o/--output-format json` prints `{"response","stats":{"models":{M:{"tokens":{"prompt",
//   "candidates",…}}}}}` (geminicli.com/docs/cli/headless); `-y/--yolo`; `-m/--model`;
//   `--skip-trust` (headless runs in an untrusted folder fail without it). Quota errors end as
//   `{"error":{"message":"You exceeded your current quota…","code":429}}` on stderr.
// - aider (Python, not on npm): aider.chat/docs/config/options.html and Aider-AI/aider args.py:
//   `--message-file F`, `--yes-always`, `--model`, `--no-auto-commits`, `--no-dirty-commits`
//   (the loop makes the commits), `--no-check-update` (with --yes-always it would upgrade itself),
//   `--no-show-release-notes`, `--no-analytics`, `--no-pretty`, `--no-gitignore` and history files
//   sent to the null device (no side effects in the repository or the evidence tree).
import { devNull } from 'node:os';
import { Decimal, dstr, isDecimalString, parseDecimal } from './decimal.js';

export type AgentPreset = 'claude' | 'codex' | 'gemini' | 'aider' | 'command';

export interface AgentInvocationOptions {
  preset: AgentPreset;
  /** For `command`: the shell command line. For a CLI preset: replaces its executable (e.g. `npx -y @openai/codex`). */
  run?: string;
  model?: string;
  extraArgs?: string[];
  maxTurns?: number;
  promptFile: string;
}

export interface AgentInvocation {
  command: string;
  args?: string[];
  promptOnStdin: boolean;
}

/** True when `args` already sets one of `flags` (as `--flag value` or `--flag=value`). */
function passes(args: readonly string[], flags: readonly string[]): boolean {
  return args.some((a) => flags.some((f) => a === f || a.startsWith(`${f}=`)));
}

const SAFE_WORD = /^[A-Za-z0-9_\/.,:=@%+-]+$/;

export function shellQuote(word: string): string {
  return SAFE_WORD.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

export function agentInvocation(opts: AgentInvocationOptions): AgentInvocation {
  const extra = opts.extraArgs ?? [];
  const model = opts.model?.trim() || undefined;
  const args: string[] = [];
  // Our default is added only when the user's args do not set the same thing.
  const flag = (aliases: readonly string[], ...value: string[]) => {
    if (!passes(extra, aliases)) args.push(aliases[0]!, ...value);
  };
  let executable: string;
  let promptOnStdin = true;

  switch (opts.preset) {
    case 'command': {
      if (!opts.run?.trim()) throw new Error('agent.run is required for the command preset');
      return { command: [opts.run, ...extra.map(shellQuote)].join(' '), promptOnStdin: true };
    }
    case 'claude': {
      executable = 'claude';
      flag(['-p', '--print']);
      flag(['--output-format'], 'json');
      if (!passes(extra, ['--permission-mode', '--dangerously-skip-permissions'])) args.push('--dangerously-skip-permissions');
      if (opts.maxTurns !== undefined && opts.maxTurns > 0) flag(['--max-turns'], String(Math.floor(opts.maxTurns)));
      if (model) flag(['--model'], model);
      args.push(...extra);
      break;
    }
    case 'codex': {
      executable = 'codex';
      args.push('exec');
      flag(['--json']);
      if (!passes(extra, ['--sandbox', '-s', '--dangerously-bypass-approvals-and-sandbox', '--yolo', '--full-auto'])) args.push('--sandbox', 'workspace-write');
      flag(['--skip-git-repo-check']);
      if (model) flag(['--model', '-m'], model);
      // `--` ends any variadic option of the user's (e.g. --image) before the stdin marker.
      args.push(...extra, '--', '-');
      break;
    }
    case 'gemini': {
      executable = 'gemini';
      // An empty -p selects headless mode; the CLI prepends stdin to it.
      flag(['--prompt', '-p'], '');
      flag(['--output-format', '-o'], 'json');
      if (!passes(extra, ['--yolo', '-y', '--approval-mode'])) args.push('--yolo');
      flag(['--skip-trust']);
      if (model) flag(['--model', '-m'], model);
      args.push(...extra);
      break;
    }
    case 'aider': {
      executable = 'aider';
      promptOnStdin = false;
      args.push('--message-file', opts.promptFile);
      flag(['--yes-always']);
      if (model) flag(['--model'], model);
      args.push('--no-check-update', '--no-show-release-notes', '--no-analytics', '--no-pretty', '--no-gitignore');
      args.push('--input-history-file', devNull, '--chat-history-file', devNull);
      args.push(...extra);
      // Last, so that no user argument turns aider's own commits back on (argparse: last wins).
      args.push('--no-auto-commits', '--no-dirty-commits');
      break;
    }
    default: {
      const never: never = opts.preset;
      throw new Error(`unknown agent preset ${String(never)}`);
    }
  }
  if (opts.run?.trim()) return { command: [opts.run.trim(), ...args.map(shellQuote)].join(' '), promptOnStdin };
  return { command: executable, args, promptOnStdin };
}

// ---------------------------------------------------------------------------------------------------
// JSON scanning that keeps numbers as their source text, so a cost is never rounded through a float.

export class RawNumber {
  constructor(readonly raw: string) {}
}
export type Json = null | boolean | string | RawNumber | Json[] | JsonObject;
export interface JsonObject {
  [key: string]: Json;
}

class JsonSyntax extends Error {}
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const MAX_DEPTH = 256;

function parseJsonAt(text: string, start: number): { value: Json; end: number } | null {
  let i = start;
  const ws = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const str = (): string => {
    // JSON strings hold no raw control characters, so a truncated line fails at its end.
    let j = i + 1;
    while (j < text.length) {
      const c = text.charCodeAt(j);
      if (c === 0x22) break;
      if (c < 0x20) throw new JsonSyntax();
      j += c === 0x5c ? 2 : 1;
    }
    if (j >= text.length) throw new JsonSyntax();
    const s = JSON.parse(text.slice(i, j + 1)) as string;
    i = j + 1;
    return s;
  };
  const value = (depth: number): Json => {
    if (depth > MAX_DEPTH) throw new JsonSyntax();
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const obj = Object.create(null) as JsonObject;
      ws();
      if (text[i] === '}') {
        i++;
        return obj;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') throw new JsonSyntax();
        const key = str();
        ws();
        if (text[i] !== ':') throw new JsonSyntax();
        i++;
        obj[key] = value(depth + 1);
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') {
          i++;
          return obj;
        } else throw new JsonSyntax();
      }
    }
    if (c === '[') {
      i++;
      const arr: Json[] = [];
      ws();
      if (text[i] === ']') {
        i++;
        return arr;
      }
      for (;;) {
        arr.push(value(depth + 1));
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') {
          i++;
          return arr;
        } else throw new JsonSyntax();
      }
    }
    if (c === '"') return str();
    if (text.startsWith('true', i)) return (i += 4), true;
    if (text.startsWith('false', i)) return (i += 5), false;
    if (text.startsWith('null', i)) return (i += 4), null;
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (!m) throw new JsonSyntax();
    i += m[0].length;
    return new RawNumber(m[0]);
  };
  try {
    const v = value(0);
    return { value: v, end: i };
  } catch (e) {
    if (e instanceof JsonSyntax || e instanceof SyntaxError) return null;
    throw e;
  }
}

const isObject = (v: Json | undefined): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof RawNumber);

/**
 * Every JSON object in mixed output: a whole-output object, JSON lines, a pretty-printed object or
 * an array of objects. Only values that start a line (column 0) are tried, which keeps a long log
 * linear and skips JSON quoted inside other text.
 */
export function jsonObjectsIn(text: string): JsonObject[] {
  const found: JsonObject[] = [];
  let pos = 0;
  if (text.charCodeAt(0) === 0xfeff) pos = 1;
  while (pos < text.length) {
    const c = text[pos];
    if (c === '{' || c === '[') {
      const r = parseJsonAt(text, pos);
      if (r) {
        if (isObject(r.value)) found.push(r.value);
        else if (Array.isArray(r.value)) for (const v of r.value) if (isObject(v)) found.push(v);
        pos = r.end;
      }
    }
    const nl = text.indexOf('\n', pos);
    if (nl < 0) break;
    pos = nl + 1;
  }
  return found;
}

function decimalText(v: Json | undefined): string | null {
  const raw = v instanceof RawNumber ? v.raw : typeof v === 'string' ? v.trim() : null;
  if (raw === null || !isDecimalString(raw) || raw.startsWith('-')) return null;
  return raw;
}

function count(v: Json | undefined): number | null {
  if (!(v instanceof RawNumber) || !/^\d+$/.test(v.raw)) return null;
  const n = Number(v.raw);
  return Number.isSafeInteger(n) ? n : null;
}

export interface AgentUsage {
  /** Decimal text exactly as reported (the exact sum when several runs reported a cost). */
  costUsd: string | null;
  turns: number | null;
  inputTokens: number | null;
  outputTokens: number | null;
}

/**
 * What the agent reported about its cost and usage:
 * - Claude Code result (json, or the last stream-json line): total_cost_usd, num_turns, usage
 *   (input = input_tokens + cache_creation_input_tokens + cache_read_input_tokens, since Anthropic
 *   counts cached input apart);
 * - Codex `--json`: every turn.completed usage, summed (input_tokens already include cached ones;
 *   output_tokens include reasoning); turns = completed turns;
 * - Gemini json: stats.models.*.tokens prompt/candidates, summed over models; stream-json result stats;
 * - any command: a top-level `total_cost_usd` or `cost_usd` (number or Decimal string).
 * Several reports (several runs in one output) are summed exactly.
 */
export function parseAgentUsage(stdout: string): AgentUsage {
  const costs: string[] = [];
  let turns: number | null = null;
  let input: number | null = null;
  let output: number | null = null;
  const add = (cur: number | null, n: number | null) => (n === null ? cur : (cur ?? 0) + n);

  for (const ev of jsonObjectsIn(stdout)) {
    const type = typeof ev.type === 'string' ? ev.type : null;
    const cost = decimalText(ev.total_cost_usd) ?? decimalText(ev.cost_usd);
    if (cost !== null) costs.push(cost);

    if (type === 'result' && ('total_cost_usd' in ev || 'num_turns' in ev)) {
      turns = add(turns, count(ev.num_turns));
      const u = ev.usage;
      if (isObject(u)) {
        const parts = [u.input_tokens, u.cache_creation_input_tokens, u.cache_read_input_tokens].map(count);
        if (parts.some((p) => p !== null)) input = add(input, parts.reduce<number>((s, p) => s + (p ?? 0), 0));
        output = add(output, count(u.output_tokens));
      }
    } else if (type === 'turn.completed' && isObject(ev.usage)) {
      turns = add(turns, 1);
      input = add(input, count(ev.usage.input_tokens));
      output = add(output, count(ev.usage.output_tokens));
    } else if (type === 'result' && isObject(ev.stats)) {
      input = add(input, count(ev.stats.input_tokens));
      output = add(output, count(ev.stats.output_tokens));
    } else if (isObject(ev.stats) && isObject(ev.stats.models)) {
      for (const m of Object.values(ev.stats.models)) {
        if (!isObject(m) || !isObject(m.tokens)) continue;
        input = add(input, count(m.tokens.prompt));
        output = add(output, count(m.tokens.candidates));
      }
    }
  }

  let costUsd: string | null = null;
  if (costs.length === 1) costUsd = costs[0]!;
  else if (costs.length > 1) costUsd = dstr(costs.reduce((s, c) => s.plus(parseDecimal(c)!), new Decimal(0)));
  return { costUsd, turns, inputTokens: input, outputTokens: output };
}

// ---------------------------------------------------------------------------------------------------
// Rate limits. Messages seen in the CLIs themselves (runs against a local server answering 429,
// and the strings in their builds) and in the provider APIs' documented error bodies.

const RATE_LIMIT_PATTERNS: readonly RegExp[] = [
  /\brate_limit_(?:error|exceeded)\b/i, // Anthropic error type; OpenAI error code
  /\b(?:usage_limit_reached|insufficient_quota)\b/i, // Codex / OpenAI error codes
  /\bRESOURCE_EXHAUSTED\b/, // Google RPC status (Gemini)
  /\b(?:Terminal|Retryable)QuotaError\b/, // Gemini CLI error classes
  /\boverloaded_error\b|\b529 Overloaded\b/i, // Anthropic 529 ("Repeated 529 Overloaded errors")
  /\b(?:status(?: code)?|http|error|code)["']?\s*[:=]?\s*["']?429\b/i, // "last status: 429", "code": 429
  /\bHTTP\/\d(?:\.\d)?\s+429\b/i,
  /\b(?:rejected|failed)\s*\(429\)/i, // Claude Code "API Error: Request rejected (429)"
  /\b429\b[^\n]{0,40}\btoo many requests\b|\btoo many requests\b[^\n]{0,40}\b429\b/i,
  /\brate[ -]?limits?\s+(?:reached|exceeded)\b/i, // "Rate limit reached for gpt-…", "rate limit exceeded"
  /\bexceed(?:ed|s)?\s+(?:the\s+|your\s+)?rate[ -]?limit/i, // "would exceed the rate limit for your organization"
  /(?<!disk\s)\bquota\s+exceeded\b/i, // not errno EDQUOT "Disk quota exceeded"
  /\bexceeded your current quota\b/i, // OpenAI and Gemini API
  /\byou(?:'|’)?ve (?:hit|reached) your (?:[\w-]+ ){0,2}limit\b/i, // Codex / Claude plan limits
  /\b(?:usage|5-hour|weekly|daily|session) limit reached\b/i,
  /\bselected model is at capacity\b/i, // Codex
];

function textSaysRateLimited(text: string): boolean {
  return RATE_LIMIT_PATTERNS.some((re) => re.test(text));
}

/**
 * The verdict of the agent's own structured final report, when there is one: a successful run is
 * not rate limited whatever its transcript quotes (tests of a rate limiter print 429 too).
 */
function structuredVerdict(output: string): boolean | null {
  let verdict: boolean | null = null;
  for (const ev of jsonObjectsIn(output)) {
    const type = typeof ev.type === 'string' ? ev.type : null;
    if (type === 'result' && 'is_error' in ev) {
      // Claude Code
      const status = count(ev.api_error_status);
      if (status === 429 || status === 529) verdict = true;
      else if (status !== null || ev.is_error === false) verdict = false;
      // error_max_turns, error_during_execution, …: the loop's limits or a crash, not the API's.
      else if (typeof ev.subtype === 'string' && ev.subtype !== 'success') verdict = false;
      // An API error is reported as a "successful" result whose text is the error message.
      else verdict = typeof ev.result === 'string' && textSaysRateLimited(ev.result);
    } else if (type === 'turn.completed') verdict = false;
    else if (type === 'turn.failed') verdict = textSaysRateLimited(errorText(ev.error));
    else if (type === 'result' && typeof ev.status === 'string') {
      // Gemini stream-json
      verdict = ev.status === 'success' ? false : errorCode(ev.error) === 429 || textSaysRateLimited(errorText(ev.error));
    } else if ('session_id' in ev && ('response' in ev || 'error' in ev) && !type) {
      // Gemini json
      verdict = isObject(ev.error) ? errorCode(ev.error) === 429 || textSaysRateLimited(errorText(ev.error)) : false;
    }
  }
  return verdict;
}

function errorText(e: Json | undefined): string {
  if (typeof e === 'string') return e;
  if (isObject(e)) return [e.message, e.type, e.status].filter((x): x is string => typeof x === 'string').join(' ');
  return '';
}

function errorCode(e: Json | undefined): number | null {
  return isObject(e) ? count(e.code) : null;
}

/** True when the output shows a rate-limit, quota or overload error of the agent's model service. */
export function isRateLimited(output: string): boolean {
  return structuredVerdict(output) ?? textSaysRateLimited(output);
}

// ---------------------------------------------------------------------------------------------------
// Environment: the agent never sees the loop's own credentials (SPEC §3).

const LOOP_SECRET_NAMES = new Set([
  'GITHUB_TOKEN',
  'GH_TOKEN',
  'INPUT_GITHUB-TOKEN',
  'INPUT_GITHUB_TOKEN',
  'ACTIONS_RUNTIME_TOKEN',
  'ACTIONS_ID_TOKEN_REQUEST_TOKEN',
]);
/** Not secret values, but handles to the runner's services and to the step's file commands. */
const LOOP_PRIVATE_NAMES = new Set([
  'ACTIONS_ID_TOKEN_REQUEST_URL',
  'ACTIONS_RESULTS_URL',
  'ACTIONS_RUNTIME_URL',
  'ACTIONS_CACHE_URL',
  'GITHUB_STATE',
  'GITHUB_OUTPUT',
  'GITHUB_ENV',
  'GITHUB_PATH',
  'GITHUB_STEP_SUMMARY',
]);
const PRIVATE_PREFIXES = ['INPUT_', 'STATE_'];
/** Inputs and saved state whose names say they hold a credential; their values are scrubbed from logs. */
const SECRET_LOOKING = /TOKEN|SECRET|PASSWORD|PASSWD|PRIVATE|CREDENTIAL|API[-_]?KEY/i;

function extraSecretNames(env: Record<string, string | undefined>): Set<string> {
  return new Set(
    (env.PHUC_LOOP_SECRET_VARS ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );
}

function isLoopPrivate(name: string, extra: Set<string>): boolean {
  return LOOP_SECRET_NAMES.has(name) || LOOP_PRIVATE_NAMES.has(name) || PRIVATE_PREFIXES.some((p) => name.startsWith(p)) || extra.has(name);
}

/** The base environment without the loop's secrets and handles, plus the PHUC_* variables. */
export function agentEnvironment(base: Record<string, string | undefined>, phuc: Record<string, string>): Record<string, string> {
  const extra = extraSecretNames(base);
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(base)) if (value !== undefined && !isLoopPrivate(name, extra)) env[name] = value;
  return Object.assign(env, phuc);
}

/** Values of the loop's secrets present in `env` (non-empty, ≥ 4 characters), longest first, for scrubbing. */
export function loopSecretValues(env: Record<string, string | undefined>): string[] {
  const extra = extraSecretNames(env);
  const values = new Set<string>();
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || value.length < 4) continue;
    const secret =
      LOOP_SECRET_NAMES.has(name) || extra.has(name) || (PRIVATE_PREFIXES.some((p) => name.startsWith(p)) && SECRET_LOOKING.test(name));
    if (secret) values.add(value);
  }
  return [...values].sort((a, b) => b.length - a.length);
}

/** Replaces every occurrence of each secret with `***` (longest first, so no fragment of one survives). */
export function scrubSecrets(text: string, secrets: string[]): string {
  let out = text;
  for (const s of [...secrets].filter((s) => s.length > 0).sort((a, b) => b.length - a.length)) out = out.split(s).join('***');
  return out;
}

/**
 * Every value to scrub from logs, evidence and comments: the loop's secrets, and any variable whose
 * name looks secret (agent API keys are passed to the agent, but must not be echoed into evidence).
 */
export function scrubbableValues(env: Record<string, string | undefined>): string[] {
  const values = new Set(loopSecretValues(env));
  for (const [name, value] of Object.entries(env)) if (value && value.length >= 8 && SECRET_LOOKING.test(name)) values.add(value);
  return [...values].sort((a, b) => b.length - a.length);
}
