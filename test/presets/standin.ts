// A scripted stand-in for a model provider's API on 127.0.0.1, so the real agent CLIs (Claude Code,
// Codex, Gemini CLI) can be run end to end without a model service: the Anthropic Messages API
// (SSE streaming and plain JSON), the OpenAI Responses API (SSE) and the Gemini API
// (generateContent, streamGenerateContent?alt=sse, countTokens).
//
// Each answer to the agent's main conversation is the next step of a script, chosen by how many tool
// results the conversation already holds: step k is answered once the agent has run k tool calls.
// Requests that are not the main conversation (Claude Code's side calls, Gemini's routing and
// next-speaker checks) get a short text answer. Every answer reports usage; the totals served are
// kept so a test can compare them with what the CLI printed.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { isAbsolute, join } from 'node:path';

export type Provider = 'anthropic' | 'openai' | 'gemini';

/** One answer of the model in the main conversation. Paths are relative to `cwd`. */
export type Step = { read: string } | { edit: { path: string; old: string; new: string } } | { shell: string } | { text: string };

export type Behaviour =
  | { kind: 'script'; steps: Step[] }
  /** Every main request fails with this HTTP status and message, in the provider's error format. */
  | { kind: 'error'; status: number; message: string }
  | { kind: 'rate-limit'; message?: string }
  /** Every main request is accepted and never answered. */
  | { kind: 'hang' };

export interface StandInOptions {
  provider: Provider;
  behaviour: Behaviour;
  /** The agent's working directory: tool paths are made absolute against it. */
  cwd: string;
  /** Answers beyond this many are refused with a 400, so a CLI that loops ends (default 40). */
  maxAnswers?: number;
  /**
   * Which requests are the agent's main conversation: those offering the CLI's tools (default), or
   * every one (aider sends no tools: it edits through SEARCH/REPLACE blocks in the answer's text).
   */
  main?: 'tools' | 'all';
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  main: boolean;
}

/** Token usage of one answer, in the provider-neutral terms of AgentTokens (input includes cached). */
export interface ServedUsage {
  input: number;
  output: number;
  cache_read: number;
  cache_write: number;
}

export interface Served {
  answers: number;
  toolCalls: number;
  usage: ServedUsage;
}

const SIDE_USAGE: ServedUsage = { input: 40, output: 3, cache_read: 0, cache_write: 0 };

/** The usage of the k-th main answer: distinct per answer, so a dropped or doubled answer shows. */
function mainUsage(provider: Provider, k: number): ServedUsage {
  // Only Anthropic has a separately billed cache write; Gemini's implicit cache has none.
  return { input: 1200 + 100 * k, output: 40 + 7 * k, cache_read: 800, cache_write: provider === 'anthropic' ? 300 : 0 };
}

export class StandIn {
  readonly requests: RecordedRequest[] = [];
  readonly served: Served = { answers: 0, toolCalls: 0, usage: { input: 0, output: 0, cache_read: 0, cache_write: 0 } };
  private readonly hanging = new Set<http.ServerResponse>();
  private waiters: { pred: () => boolean; resolve: () => void }[] = [];

  private readonly server: http.Server;

  private constructor(private readonly opts: StandInOptions) {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => this.handle(req, Buffer.concat(chunks).toString('utf8'), res));
    });
  }

  static async start(opts: StandInOptions): Promise<StandIn> {
    const self = new StandIn(opts);
    await new Promise<void>((resolve) => self.server.listen(0, '127.0.0.1', resolve));
    return self;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get mainRequests(): RecordedRequest[] {
    return this.requests.filter((r) => r.main);
  }

  /** Resolves when a main request has arrived (e.g. the one a hang test leaves unanswered). */
  waitForMainRequest(): Promise<void> {
    return this.waitFor(() => this.mainRequests.length > 0);
  }

  async close(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private waitFor(pred: () => boolean): Promise<void> {
    return new Promise((resolve) => (pred() ? resolve() : this.waiters.push({ pred, resolve })));
  }

  private handle(req: http.IncomingMessage, body: string, res: http.ServerResponse): void {
    const path = req.url ?? '/';
    let json: Record<string, unknown> = {};
    try {
      json = body ? (JSON.parse(body) as Record<string, unknown>) : {};
    } catch {
      // not JSON: answered as a side request
    }
    const main = req.method === 'POST' && this.isMain(path, json);
    this.requests.push({ method: req.method ?? '', path, headers: req.headers, body, main });
    this.waiters = this.waiters.filter((w) => (w.pred() ? (w.resolve(), false) : true));

    if (req.method !== 'POST') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    if (this.served.answers >= (this.opts.maxAnswers ?? 40)) return this.sendError(res, 400, 'stand-in: too many requests in one test');
    if (this.opts.provider === 'gemini' && path.includes(':countTokens')) return sendJson(res, 200, { totalTokens: 100 });
    if (main) {
      const b = this.opts.behaviour;
      if (b.kind === 'hang') {
        this.hanging.add(res);
        res.on('close', () => this.hanging.delete(res));
        return;
      }
      if (b.kind === 'error') return this.sendError(res, b.status, b.message);
      if (b.kind === 'rate-limit') return this.sendError(res, 429, b.message ?? 'Rate limit reached for requests: too many requests in the last minute.');
    }
    const k = this.toolResults(json);
    const step: Step = main && this.opts.behaviour.kind === 'script' ? (this.opts.behaviour.steps[k] ?? { text: 'Done.' }) : { text: 'OK' };
    const usage = main ? mainUsage(this.opts.provider, this.served.answers) : SIDE_USAGE;
    this.count(step, usage);
    const streaming = json.stream === true || path.includes('streamGenerateContent');
    if (this.opts.provider === 'anthropic') return this.anthropic(res, step, usage, streaming, typeof json.model === 'string' ? json.model : 'claude');
    if (this.opts.provider === 'openai') return this.openai(res, step, usage, typeof json.model === 'string' ? json.model : 'gpt');
    return this.gemini(res, step, usage, streaming);
  }

  private count(step: Step, usage: ServedUsage): void {
    this.served.answers++;
    if (!('text' in step)) this.served.toolCalls++;
    for (const k of Object.keys(usage) as (keyof ServedUsage)[]) this.served.usage[k] += usage[k];
  }

  /** The agent's main conversation offers the tools that edit files and run commands. */
  private isMain(path: string, json: Record<string, unknown>): boolean {
    if (this.opts.main === 'all') return true;
    const tools = JSON.stringify(json.tools ?? '');
    if (this.opts.provider === 'anthropic') return path.startsWith('/v1/messages') && !path.includes('count_tokens') && tools.includes('"Bash"');
    if (this.opts.provider === 'openai') return path.endsWith('/responses') && tools.includes('exec_command');
    return /:(?:streamG|g)enerateContent/.test(path) && tools.includes('run_shell_command');
  }

  /** How many tool results the conversation holds: the index of the step to answer. */
  private toolResults(json: Record<string, unknown>): number {
    // Without tools, each answer is one step: aider sends one request per reply.
    if (this.opts.main === 'all') return this.served.answers;
    const text = JSON.stringify(json);
    const re = { anthropic: /"type":"tool_result"/g, openai: /"type":"(?:function_call|custom_tool_call)_output"/g, gemini: /"functionResponse":/g }[
      this.opts.provider
    ];
    return (text.match(re) ?? []).length;
  }

  private abs(p: string): string {
    return isAbsolute(p) ? p : join(this.opts.cwd, p);
  }

  private sendError(res: http.ServerResponse, status: number, message: string): void {
    const p = this.opts.provider;
    const headers: Record<string, string> = status === 429 ? { 'retry-after': '0' } : {};
    if (p === 'anthropic') {
      const type = status === 429 ? 'rate_limit_error' : status === 401 ? 'authentication_error' : status >= 500 ? 'api_error' : 'invalid_request_error';
      return sendJson(res, status, { type: 'error', error: { type, message } }, headers);
    }
    if (p === 'openai') {
      const type = status === 429 ? 'rate_limit_exceeded' : 'invalid_request_error';
      return sendJson(res, status, { error: { message, type, code: type, param: null } }, headers);
    }
    const gstatus =
      status === 429 ? 'RESOURCE_EXHAUSTED' : status === 401 || status === 403 ? 'PERMISSION_DENIED' : status >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT';
    return sendJson(res, status, { error: { code: status, message, status: gstatus } }, headers);
  }

  // --- Anthropic Messages API ---------------------------------------------------------------------
  private anthropic(res: http.ServerResponse, step: Step, usage: ServedUsage, streaming: boolean, model: string): void {
    const id = `msg_standin_${this.served.answers}`;
    let block: Record<string, unknown>;
    if ('text' in step) block = { type: 'text', text: step.text };
    else {
      const toolId = `toolu_standin_${this.served.answers}`;
      if ('read' in step) block = { type: 'tool_use', id: toolId, name: 'Read', input: { file_path: this.abs(step.read) } };
      else if ('edit' in step)
        block = {
          type: 'tool_use',
          id: toolId,
          name: 'Edit',
          input: { file_path: this.abs(step.edit.path), old_string: step.edit.old, new_string: step.edit.new },
        };
      else block = { type: 'tool_use', id: toolId, name: 'Bash', input: { command: step.shell, description: 'Run a command' } };
    }
    const stop = block.type === 'tool_use' ? 'tool_use' : 'end_turn';
    // Anthropic counts input apart from the cached parts.
    const u = {
      input_tokens: usage.input - usage.cache_read - usage.cache_write,
      cache_creation_input_tokens: usage.cache_write,
      cache_read_input_tokens: usage.cache_read,
    };
    if (!streaming)
      return sendJson(res, 200, {
        id,
        type: 'message',
        role: 'assistant',
        model,
        content: [block],
        stop_reason: stop,
        stop_sequence: null,
        usage: { ...u, output_tokens: usage.output },
      });
    const sse = startSse(res);
    sse(
      {
        type: 'message_start',
        message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { ...u, output_tokens: 1 } },
      },
      'message_start',
    );
    if (block.type === 'text') {
      sse({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }, 'content_block_start');
      sse({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: block.text } }, 'content_block_delta');
    } else {
      sse({ type: 'content_block_start', index: 0, content_block: { ...block, input: {} } }, 'content_block_start');
      sse({ type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } }, 'content_block_delta');
    }
    sse({ type: 'content_block_stop', index: 0 }, 'content_block_stop');
    sse({ type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: usage.output } }, 'message_delta');
    sse({ type: 'message_stop' }, 'message_stop');
    res.end();
  }

  // --- OpenAI Responses API (Codex) ---------------------------------------------------------------
  private openai(res: http.ServerResponse, step: Step, usage: ServedUsage, model: string): void {
    const id = `resp_standin_${this.served.answers}`;
    const callId = `call_standin_${this.served.answers}`;
    let item: Record<string, unknown>;
    if ('text' in step)
      item = { type: 'message', id: `msg_${id}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: step.text, annotations: [] }] };
    else if ('edit' in step) {
      // A patch hunk names whole lines: the lines of the file that hold the old text.
      const { path, old, new: replacement } = step.edit;
      const lines = readFileSync(this.abs(path), 'utf8').split('\n');
      const hit = lines.filter((l) => l.includes(old));
      const patch = [
        '*** Begin Patch',
        `*** Update File: ${this.abs(path)}`,
        '@@',
        ...hit.map((l) => `-${l}`),
        ...hit.map((l) => `+${l.split(old).join(replacement)}`),
        '*** End Patch',
        '',
      ].join('\n');
      item = { type: 'custom_tool_call', id: `ctc_${id}`, status: 'completed', call_id: callId, name: 'apply_patch', input: patch };
    } else {
      const cmd = 'read' in step ? `cat ${JSON.stringify(this.abs(step.read))}` : step.shell;
      item = { type: 'function_call', id: `fc_${id}`, status: 'completed', call_id: callId, name: 'exec_command', arguments: JSON.stringify({ cmd }) };
    }
    const sse = startSse(res);
    const response = { id, object: 'response', created_at: 1, status: 'in_progress', model, output: [] as unknown[] };
    sse({ type: 'response.created', response }, 'response.created');
    sse({ type: 'response.output_item.added', output_index: 0, item }, 'response.output_item.added');
    sse({ type: 'response.output_item.done', output_index: 0, item }, 'response.output_item.done');
    const u = {
      input_tokens: usage.input,
      input_tokens_details: { cached_tokens: usage.cache_read },
      output_tokens: usage.output,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: usage.input + usage.output,
    };
    sse({ type: 'response.completed', response: { ...response, status: 'completed', output: [item], usage: u } }, 'response.completed');
    res.end();
  }

  // --- Gemini API ---------------------------------------------------------------------------------
  private gemini(res: http.ServerResponse, step: Step, usage: ServedUsage, streaming: boolean): void {
    let part: Record<string, unknown>;
    if ('text' in step) part = { text: step.text };
    else if ('read' in step) part = { functionCall: { name: 'read_file', args: { file_path: this.abs(step.read) } } };
    else if ('edit' in step)
      part = {
        functionCall: {
          name: 'replace',
          args: { file_path: this.abs(step.edit.path), instruction: 'Fix the bug.', old_string: step.edit.old, new_string: step.edit.new },
        },
      };
    else part = { functionCall: { name: 'run_shell_command', args: { command: step.shell, description: 'Run a command' } } };
    // Gemini bills thoughts as output but reports them apart from the candidates.
    const thoughts = Math.floor(usage.output / 2);
    const body = {
      candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: {
        promptTokenCount: usage.input,
        cachedContentTokenCount: usage.cache_read,
        candidatesTokenCount: usage.output - thoughts,
        thoughtsTokenCount: thoughts,
        totalTokenCount: usage.input + usage.output,
      },
      modelVersion: 'gemini-standin',
    };
    if (!streaming) return sendJson(res, 200, body);
    const sse = startSse(res);
    sse(body);
    res.end();
  }
}

function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function startSse(res: http.ServerResponse): (data: unknown, event?: string) => void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  return (data, event) => res.write(`${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`);
}
