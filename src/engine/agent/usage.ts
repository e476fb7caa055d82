// What an agent CLI said about its own run, read from its real output format: cost, tokens, tool
// calls, turns, its own error message, and whether its model service rate limited it.
//
// Formats (each captured from the real CLI against a scripted local API; test/fixtures/presets/):
// - Claude Code 2.1 `-p --output-format stream-json --verbose` (or `json`): one `{"type":"result"}`
//   object at the end with total_cost_usd, num_turns, is_error, result (the reply or the CLI's error
//   message) and usage {input_tokens, cache_creation_input_tokens, cache_read_input_tokens,
//   output_tokens}; before it, `{"type":"assistant"}` events whose content holds the tool_use blocks.
// - Codex CLI 0.169 `exec --json`: JSONL events; `turn.completed` / `turn.failed` carry usage
//   {input_tokens (cached included), cached_input_tokens, cache_write_input_tokens, output_tokens
//   (reasoning included)}; `item.started` / `item.completed` items are tool calls unless they are
//   agent_message, reasoning or error; `error` events and `turn.failed.error.message` hold errors.
// - Gemini CLI 0.61 `--output-format stream-json`: a final `{"type":"result","status",…,"stats":
//   {input_tokens, total_tokens, cached, tool_calls}}` (output_tokens there leaves the thoughts out;
//   total − input counts them), `tool_use` events; `--output-format json`: `{"response"|"error",
//   "stats":{"models":{M:{"api":{totalRequests},"tokens":{prompt,candidates,thoughts,cached}}},
//   "tools":{"totalCalls"}}}`. Auth failures (exit 41) are plain text on stderr.
// - aider: "Tokens: 4.4k sent, 1.2k cache write, 3k cache hit, 212 received." and "Cost: $0.02
//   message, $0.05 session." lines (its own rounding); API errors as "litellm.<Name>Error: …" lines
//   and a plain sentence, after which aider exits 0.
// - any command: a top-level JSON `total_cost_usd` or `cost_usd` (number or Decimal string).
//
// Token counts are in one set of terms for every agent: `input` is every prompt token the model read
// (cached ones included), `cache_read` and `cache_write` are the parts of it served from or written
// to the provider's cache, `output` includes reasoning/thinking tokens (billed as output).
import { Decimal, dstr, parseDecimal } from '../common/decimal.js';
import type { AgentPreset } from './presets.js';
import { count, decimalText, isObject, type Json, type JsonObject, jsonObjectsIn, str } from './raw-json.js';
import { lastErrorLine, oneLine, textSaysRateLimited } from './error-words.js';

// ---------------------------------------------------------------------------------------------------
// The outcome of one agent run.

export interface AgentTokens {
  /** Every prompt token the model read, cached ones included. */
  input: number;
  /** Including reasoning / thinking tokens. */
  output: number;
  cache_read: number;
  cache_write: number;
}

export interface AgentOutcome {
  /** Decimal text exactly as the CLI printed it (the exact sum when it printed several results). */
  costUsd: string | null;
  tokens: AgentTokens | null;
  /** Tool calls the agent made (commands, edits, reads…), never its turns. */
  toolCalls: number | null;
  /** Model turns as the CLI counts them (Claude num_turns, Codex turns, Gemini API requests, aider replies). */
  turns: number | null;
  /** The CLI's own last error line or error result, one line, at most ERROR_TEXT_MAX characters. */
  errorText: string | null;
  /** A non-zero exit, an error result, or (aider) an API error that ended the run. */
  failed: boolean;
  /** The failure was a rate limit, quota or overload of the model service: backpressure, not a bug. */
  rateLimited: boolean;
  /** Which figures this output reported; a figure not reported is unknown, never 0. */
  reported: { cost: boolean; tokens: boolean; toolCalls: boolean };
}

export interface AgentOutput {
  stdout: string;
  stderr: string;
  exitCode: number | null;
}

class Tally {
  costs: string[] = [];
  tokens: AgentTokens | null = null;
  toolIds = new Set<string>();
  /** Tool calls a CLI counted itself (Gemini stats), which win over counting events. */
  toolCount: number | null = null;
  turns: number | null = null;
  error: string | null = null;
  failed = false;
  /** The structured final word on rate limiting, when the CLI gave one. */
  rateVerdict: boolean | null = null;

  addTokens(t: Partial<AgentTokens>): void {
    const cur = this.tokens ?? { input: 0, output: 0, cache_read: 0, cache_write: 0 };
    for (const k of ['input', 'output', 'cache_read', 'cache_write'] as const) cur[k] += t[k] ?? 0;
    this.tokens = cur;
  }

  addTurns(n: number | null): void {
    if (n !== null) this.turns = (this.turns ?? 0) + n;
  }
}

/** Parses what the agent printed into its cost, usage, error and rate-limit status. */
export function parseAgentOutcome(preset: AgentPreset, out: AgentOutput): AgentOutcome {
  const t = new Tally();
  for (const ev of jsonObjectsIn(out.stdout)) readEvent(ev, t, true);
  // Errors only from stderr: Gemini prints its JSON error there in some modes; usage never.
  for (const ev of jsonObjectsIn(out.stderr)) readEvent(ev, t, false);
  if (preset === 'aider' || preset === 'command') readAider(out.stdout + '\n' + out.stderr, t);

  const exitFailed = out.exitCode !== 0;
  const failed = exitFailed || t.failed;
  // A successful run has no error text, whatever retries it printed on the way.
  const raw = failed ? (t.error ?? lastErrorLine(out.stderr) ?? lastErrorLine(out.stdout)) : null;
  const errorText = raw === null ? null : oneLine(raw);
  const rateLimited = failed && (t.rateVerdict ?? textSaysRateLimited(`${out.stdout}\n${out.stderr}`));

  // Every cost was checked as decimal text: the sum of several is exact.
  const costUsd = t.costs.length > 1 ? dstr(t.costs.reduce((s, c) => s.plus(new Decimal(c)), new Decimal(0))) : (t.costs.at(0) ?? null);
  const toolCalls = t.toolCount ?? (t.toolIds.size > 0 || sawToolStream(preset, out.stdout) ? t.toolIds.size : null);
  return {
    costUsd,
    tokens: t.tokens,
    toolCalls,
    turns: t.turns,
    errorText,
    failed,
    rateLimited,
    reported: { cost: costUsd !== null, tokens: t.tokens !== null, toolCalls: toolCalls !== null },
  };
}

/** A stream that lists tool calls as they happen reports 0 when it lists none (Claude stream-json, Codex). */
function sawToolStream(preset: AgentPreset, stdout: string): boolean {
  if (preset === 'claude') return /^\{"type":"system","subtype":"init"/m.test(stdout);
  if (preset === 'codex') return /^\{"type":"thread\.started"/m.test(stdout);
  if (preset === 'gemini') return /^\{"type":"init"/m.test(stdout);
  return false;
}

function readEvent(ev: JsonObject, t: Tally, fromStdout: boolean): void {
  const type = str(ev.type);
  // Claude Code's result (json, or the last stream-json line).
  if (type === 'result' && ('total_cost_usd' in ev || 'num_turns' in ev || 'is_error' in ev)) {
    if (fromStdout) {
      const cost = decimalText(ev.total_cost_usd);
      if (cost !== null) t.costs.push(cost);
      t.addTurns(count(ev.num_turns));
      if (isObject(ev.usage)) {
        const u = ev.usage;
        const [plain, write, read, output] = [u.input_tokens, u.cache_creation_input_tokens, u.cache_read_input_tokens, u.output_tokens].map(
          (x) => count(x) ?? 0,
        );
        t.addTokens({ input: plain + write + read, cache_write: write, cache_read: read, output: output });
      }
    }
    if (ev.is_error === true) {
      t.failed = true;
      t.error =
        str(ev.result) ?? (Array.isArray(ev.errors) ? ev.errors.filter((e): e is string => typeof e === 'string').join('; ') || null : null) ?? str(ev.subtype);
      const status = count(ev.api_error_status);
      // error_max_turns, error_during_execution…: the loop's limits or a crash, not the API's.
      t.rateVerdict = status === 429 || status === 529 ? true : status !== null || (typeof ev.subtype === 'string' && ev.subtype !== 'success') ? false : null;
    } else if (ev.is_error === false) t.rateVerdict = false;
    return;
  }
  if (type === 'assistant' && isObject(ev.message) && Array.isArray(ev.message.content)) {
    for (const block of ev.message.content) if (isObject(block) && block.type === 'tool_use') t.toolIds.add(str(block.id) ?? `#${t.toolIds.size}`);
    return;
  }
  // Codex events.
  if (type === 'turn.completed' || type === 'turn.failed') {
    t.addTurns(1);
    if (fromStdout && isObject(ev.usage)) {
      const u = ev.usage;
      t.addTokens({
        input: count(u.input_tokens) ?? 0,
        cache_read: count(u.cached_input_tokens) ?? 0,
        cache_write: count(u.cache_write_input_tokens) ?? 0,
        output: count(u.output_tokens) ?? 0,
      });
    }
    if (type === 'turn.failed') {
      t.failed = true;
      t.error = unwrapApiError(errorMessage(ev.error)) ?? t.error;
      t.rateVerdict = textSaysRateLimited(errorMessage(ev.error) ?? '');
    } else t.rateVerdict = false;
    return;
  }
  if ((type === 'item.started' || type === 'item.completed') && isObject(ev.item)) {
    const kind = str(ev.item.type);
    if (kind && !['agent_message', 'reasoning', 'error'].includes(kind)) t.toolIds.add(str(ev.item.id) ?? `#${t.toolIds.size}`);
    return;
  }
  if (type === 'error' && typeof ev.message === 'string') {
    // Codex: "Reconnecting... n/5 (…)" lines are retries; the last other one is the error.
    if (!/^Reconnecting\.\.\./.test(ev.message) || t.error === null) t.error = unwrapApiError(ev.message);
    return;
  }
  // Gemini stream-json.
  if (type === 'tool_use') {
    t.toolIds.add(str(ev.tool_id) ?? `#${t.toolIds.size}`);
    return;
  }
  if (type === 'result' && typeof ev.status === 'string') {
    const s = ev.stats;
    if (fromStdout && isObject(s)) {
      const input = count(s.input_tokens);
      const total = count(s.total_tokens);
      if (input !== null || total !== null)
        t.addTokens({
          input: input ?? 0,
          cache_read: count(s.cached) ?? 0,
          output: total !== null && input !== null ? Math.max(0, total - input) : (count(s.output_tokens) ?? 0),
        });
      const calls = count(s.tool_calls);
      if (calls !== null) t.toolCount = (t.toolCount ?? 0) + calls;
    }
    if (ev.status !== 'success') {
      t.failed = true;
      t.error = unwrapApiError(errorMessage(ev.error)) ?? t.error ?? `status ${ev.status}`;
      t.rateVerdict = geminiRateLimited(ev.error);
    } else t.rateVerdict = false;
    return;
  }
  // Gemini json (one object: response or error, and stats).
  if (!type && 'session_id' in ev && ('response' in ev || 'error' in ev || 'stats' in ev)) {
    const s = ev.stats;
    if (fromStdout && isObject(s)) {
      if (isObject(s.models))
        for (const m of Object.values(s.models)) {
          if (!isObject(m)) continue;
          if (isObject(m.tokens))
            t.addTokens({
              input: count(m.tokens.prompt) ?? 0,
              cache_read: count(m.tokens.cached) ?? 0,
              output: (count(m.tokens.candidates) ?? 0) + (count(m.tokens.thoughts) ?? 0),
            });
          if (isObject(m.api)) t.addTurns(count(m.api.totalRequests));
        }
      if (isObject(s.tools)) {
        const calls = count(s.tools.totalCalls);
        if (calls !== null) t.toolCount = (t.toolCount ?? 0) + calls;
      }
    }
    if (isObject(ev.error)) {
      t.failed = true;
      t.error = unwrapApiError(errorMessage(ev.error)) ?? t.error;
      t.rateVerdict = geminiRateLimited(ev.error);
    } else if ('response' in ev) t.rateVerdict = false;
    return;
  }
  // Any command: a top-level cost.
  if (fromStdout) {
    const cost = decimalText(ev.total_cost_usd) ?? decimalText(ev.cost_usd);
    if (cost !== null) t.costs.push(cost);
  }
}

function errorMessage(e: Json | undefined): string | null {
  if (typeof e === 'string') return str(e);
  return isObject(e) ? str(e.message) : null;
}

function geminiRateLimited(e: Json | undefined): boolean {
  return (isObject(e) && count(e.code) === 429) || textSaysRateLimited(errorMessage(e) ?? '');
}

/** An API error body quoted whole in a message ('{"error":{"message":…}}'): its message. */
function unwrapApiError(text: string | null): string | null {
  if (text === null) return null;
  const m = /^\s*(\[API Error: )?(\{.*\})\]?\s*$/s.exec(text);
  if (!m) return text;
  const obj = jsonObjectsIn(m[2]).at(0);
  const inner = obj === undefined ? null : isObject(obj.error) ? str(obj.error.message) : str(obj.message);
  return inner ?? text;
}

// aider prints its figures as text; numbers like "4.4k" are its own rounding (aider/utils.py format_tokens).
const AIDER_TOKENS = /^Tokens: ([\d.,]+k?) sent(?:, ([\d.,]+k?) cache write)?(?:, ([\d.,]+k?) cache hit)?, ([\d.,]+k?) received\./;
const AIDER_COST = /Cost: \$([\d.]+) message, \$([\d.]+) session\./;
/** aider's API errors (aider/exceptions.py): the litellm exception line and its plain explanations. */
const AIDER_ERROR =
  /^(?:litellm\.[A-Za-z]+(?:Error|Exception)\b.*|The API provider (?:is not able to authenticate you|has rate limited you|has refused the request|timed out|'s servers are down).*|(?:Missing|Unable to find) (?:these environment variables|.*API key).*)$/;

function aiderTokens(text: string | undefined): number {
  if (!text) return 0;
  const k = text.endsWith('k');
  const n = parseDecimal(text.replace(/[,k]/g, ''));
  return n === null
    ? 0
    : n
        .times(k ? 1000 : 1)
        .round()
        .toNumber();
}

function readAider(text: string, t: Tally): void {
  let lastUsage = -1;
  let lastError = -1;
  let sessionCost: string | null = null;
  const lines = text.split('\n');
  for (const [i, raw] of lines.entries()) {
    const line = raw.trim();
    const tok = AIDER_TOKENS.exec(line);
    if (tok) {
      t.addTokens({ input: aiderTokens(tok[1]), cache_write: aiderTokens(tok[2]), cache_read: aiderTokens(tok[3]), output: aiderTokens(tok[4]) });
      t.addTurns(1);
      lastUsage = i;
    }
    const cost = AIDER_COST.exec(line);
    if (cost) sessionCost = cost[2]; // cumulative over the aider process, which is one iteration
    if (AIDER_ERROR.test(line)) {
      // The detailed litellm line names the API's own message; the plain sentence follows it.
      if (lastError !== i - 1 || !t.error?.startsWith('litellm.')) t.error = line;
      lastError = i;
    }
  }
  if (sessionCost !== null) t.costs.push(sessionCost);
  // An error after aider's last answer ended the run, whatever its exit code.
  if (lastError > lastUsage) {
    t.failed = true;
    t.rateVerdict = textSaysRateLimited(t.error ?? '');
  }
}

/** True when the output shows a rate-limit, quota or overload error of the agent's model service. */
export function isRateLimited(output: string): boolean {
  const t = new Tally();
  for (const ev of jsonObjectsIn(output)) readEvent(ev, t, false);
  return t.rateVerdict ?? textSaysRateLimited(output);
}
