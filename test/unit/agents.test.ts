import { devNull } from 'node:os';
import {
  agentEnvironment,
  agentInvocation,
  isRateLimited,
  jsonObjectsIn,
  loopSecretValues,
  parseAgentUsage,
  scrubSecrets,
} from '../../src/engine/agents.js';
import { NodeProcessRunner } from '../../src/engine/process.js';

// Captured from the real CLIs (Claude Code 2.1.197, Codex 0.169.0, Gemini CLI 0.61.0) run against a
// local server that answers like the model APIs; only long lists were shortened.
const CLAUDE_JSON = '{"type":"result","subtype":"success","is_error":false,"api_error_status":null,"duration_ms":173,"duration_api_ms":71,"ttft_ms":162,"ttft_stream_ms":161,"time_to_request_ms":150,"num_turns":1,"result":"Done: fixed the failing test.","stop_reason":"end_turn","session_id":"bfc1aee3-0bd0-4a9e-855f-5298cade83f0","total_cost_usd":0.035033999999999996,"usage":{"input_tokens":1234,"cache_creation_input_tokens":2000,"cache_read_input_tokens":5000,"output_tokens":321,"server_tool_use":{"web_search_requests":0,"web_fetch_requests":0},"service_tier":"standard","cache_creation":{"ephemeral_1h_input_tokens":0,"ephemeral_5m_input_tokens":0},"inference_geo":"","iterations":[],"speed":"standard"},"modelUsage":{"claude-sonnet-4-5":{"inputTokens":2468,"outputTokens":642,"cacheReadInputTokens":10000,"cacheCreationInputTokens":4000,"webSearchRequests":0,"costUSD":0.035033999999999996,"contextWindow":200000,"maxOutputTokens":32000}},"permission_denials":[],"terminal_reason":"completed","fast_mode_state":"off","uuid":"b6bd79d6-9908-4761-ab7d-dd51c567ed9c"}';
const CLAUDE_STREAM = [
  '{"type":"system","subtype":"init","cwd":"/tmp/mock/ws","session_id":"a8cd3e9a-5958-45b6-9eaf-cffd11b41f64","tools":["Task","Bash","CronCreate","CronDelete"],"mcp_servers":[],"model":"claude-sonnet-4-5","permissionMode":"bypassPermissions","slash_commands":["deep-research","design-sync","update-config","verify"],"apiKeySource":"ANTHROPIC_API_KEY","claude_code_version":"2.1.197","output_style":"default","agents":["claude","Explore","general-purpose","Plan"],"skills":["deep-research","design-sync","update-config","verify"],"plugins":[],"analytics_disabled":false,"product_feedback_disabled":false,"uuid":"91f37cab-a7e2-49f9-a527-b24e841dd0bd","memory_paths":{"auto":"/tmp/mock/home/.claude/projects/-tmp-mock-ws/memory/"},"fast_mode_state":"off"}',
  '{"type":"assistant","message":{"id":"msg_01","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":"Done: fixed the failing test."}],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":1234,"output_tokens":1,"cache_creation_input_tokens":2000,"cache_read_input_tokens":5000},"context_management":null},"parent_tool_use_id":null,"session_id":"a8cd3e9a-5958-45b6-9eaf-cffd11b41f64","uuid":"8ca81ee4-eb42-474e-a235-4ce3938d0a28"}',
  '{"type":"result","subtype":"success","is_error":false,"api_error_status":null,"duration_ms":146,"duration_api_ms":64,"ttft_ms":142,"ttft_stream_ms":142,"time_to_request_ms":136,"num_turns":1,"result":"Done: fixed the failing test.","stop_reason":"end_turn","session_id":"a8cd3e9a-5958-45b6-9eaf-cffd11b41f64","total_cost_usd":0.035033999999999996,"usage":{"input_tokens":1234,"cache_creation_input_tokens":2000,"cache_read_input_tokens":5000,"output_tokens":321,"server_tool_use":{"web_search_requests":0,"web_fetch_requests":0},"service_tier":"standard","cache_creation":{"ephemeral_1h_input_tokens":0,"ephemeral_5m_input_tokens":0},"inference_geo":"","iterations":[],"speed":"standard"},"modelUsage":{"claude-sonnet-4-5":{"inputTokens":2468,"outputTokens":642,"cacheReadInputTokens":10000,"cacheCreationInputTokens":4000,"webSearchRequests":0,"costUSD":0.035033999999999996,"contextWindow":200000,"maxOutputTokens":32000}},"permission_denials":[],"terminal_reason":"completed","fast_mode_state":"off","uuid":"e4a32e76-6a3b-4edd-a0d5-a98dac50c8d2"}',
].join('\n');
const CODEX_JSONL = [
  '{"type":"thread.started","thread_id":"01a20114-318f-78f3-afd8-229dd24a997b"}',
  '{"type":"item.completed","item":{"id":"item_0","type":"error","message":"Model metadata for `gpt-5.1-codex` not found. Defaulting to fallback metadata; this can degrade performance and cause issues."}}',
  '{"type":"turn.started"}',
  '{"type":"item.completed","item":{"id":"item_1","type":"agent_message","text":"Done: fixed the failing test."}}',
  '{"type":"turn.completed","usage":{"input_tokens":15234,"cached_input_tokens":12032,"cache_write_input_tokens":0,"output_tokens":987,"reasoning_output_tokens":640}}',
].join('\n');
const GEMINI_JSON = `{
  "session_id": "7d04305b-ce31-4262-a294-b24a4c803a99",
  "response": "Done: fixed the failing test.",
  "stats": {
    "models": {
      "gemini-2.5-pro": {
        "api": {
          "totalRequests": 1,
          "totalErrors": 0,
          "totalLatencyMs": 41,
          "errorsByType": {}
        },
        "tokens": {
          "input": 4123,
          "prompt": 8123,
          "candidates": 45,
          "total": 8300,
          "cached": 4000,
          "thoughts": 132,
          "tool": 0
        },
        "roles": {
          "main": {
            "totalRequests": 1,
            "totalErrors": 0,
            "totalLatencyMs": 41,
            "tokens": {
              "input": 4123,
              "prompt": 8123,
              "candidates": 45,
              "total": 8300,
              "cached": 4000,
              "thoughts": 132,
              "tool": 0
            }
          }
        }
      }
    },
    "tools": {
      "totalCalls": 0,
      "totalSuccess": 0,
      "totalFail": 0,
      "totalDurationMs": 0,
      "totalDecisions": {
        "accept": 0,
        "reject": 0,
        "modify": 0,
        "auto_accept": 0
      },
      "byName": {}
    },
    "files": {
      "totalLinesAdded": 0,
      "totalLinesRemoved": 0
    }
  }
}`;
const CLAUDE_429 = '{"type":"result","subtype":"success","is_error":true,"api_error_status":429,"duration_ms":183245,"duration_api_ms":0,"num_turns":1,"result":"API Error: Request rejected (429) · This request would exceed the rate limit for your organization of 50 requests per minute.","stop_reason":"stop_sequence","session_id":"89ffe0d4-472d-47dd-b5b7-41c87fb5a0ee","total_cost_usd":0,"usage":{"input_tokens":0,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":0,"server_tool_use":{"web_search_requests":0,"web_fetch_requests":0},"service_tier":"standard","cache_creation":{"ephemeral_1h_input_tokens":0,"ephemeral_5m_input_tokens":0},"inference_geo":"","iterations":[],"speed":"standard"},"modelUsage":{},"permission_denials":[],"terminal_reason":"completed","fast_mode_state":"off","uuid":"894a8aa2-db55-40ea-8940-57cd108f6886"}';
const CODEX_429 = [
  '{"type":"thread.started","thread_id":"01a20112-eee8-7d10-b76a-ff5963ec0c6f"}',
  '{"type":"item.completed","item":{"id":"item_0","type":"error","message":"Model metadata for `gpt-5` not found. Defaulting to fallback metadata; this can degrade performance and cause issues."}}',
  '{"type":"turn.started"}',
  '{"type":"error","message":"Reconnecting... 1/5 (exceeded retry limit, last status: 429 Too Many Requests)"}',
  '{"type":"error","message":"Reconnecting... 2/5 (exceeded retry limit, last status: 429 Too Many Requests)"}',
  '{"type":"error","message":"Reconnecting... 3/5 (exceeded retry limit, last status: 429 Too Many Requests)"}',
  '{"type":"error","message":"Reconnecting... 4/5 (exceeded retry limit, last status: 429 Too Many Requests)"}',
  '{"type":"error","message":"Reconnecting... 5/5 (exceeded retry limit, last status: 429 Too Many Requests)"}',
  '{"type":"error","message":"exceeded retry limit, last status: 429 Too Many Requests"}',
  '{"type":"turn.failed","error":{"message":"exceeded retry limit, last status: 429 Too Many Requests"}}',
].join('\n');
const GEMINI_QUOTA_STDERR = `{
  "session_id": "494bc549-8a1f-4b72-ab8b-7da9c108da92",
  "error": {
    "type": "Error",
    "message": "You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.\\n* Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_requests, limit: 0, model: gemini-2.5-pro",
    "code": 429
  }
}
`;

const GEMINI_STREAM = [
  '{"type":"init","timestamp":"2026-11-22T02:27:24.452Z","session_id":"42ce136e-dfb0-47f5-8eba-59eb038df537","model":"gemini-2.5-pro"}',
  '{"type":"message","timestamp":"2026-11-22T02:27:24.454Z","role":"user","content":"fix the test\\n"}',
  '{"type":"message","timestamp":"2026-11-22T02:27:24.490Z","role":"assistant","content":"Done: fixed the failing test.","delta":true}',
  '{"type":"result","timestamp":"2026-11-22T02:27:24.515Z","status":"success","stats":{"total_tokens":8300,"input_tokens":8123,"output_tokens":45,"cached":4000,"input":4123,"duration_ms":63,"tool_calls":0,"models":{"gemini-2.5-pro":{"total_tokens":8300,"input_tokens":8123,"output_tokens":45,"cached":4000,"input":4123}}}}',
].join('\n');

describe('agentInvocation', () => {
  const base = { promptFile: '/ev/iter-1/prompt.md' };

  test('claude: print mode, JSON result, no permission prompts, turns and model', () => {
    expect(agentInvocation({ ...base, preset: 'claude', model: 'claude-sonnet-4-5', maxTurns: 40 })).toEqual({
      command: 'claude',
      args: ['-p', '--output-format', 'json', '--dangerously-skip-permissions', '--max-turns', '40', '--model', 'claude-sonnet-4-5'],
      promptOnStdin: true,
    });
  });

  test('claude: a permission mode or output format of the user replaces ours', () => {
    const inv = agentInvocation({ ...base, preset: 'claude', extraArgs: ['--permission-mode', 'acceptEdits', '--output-format=stream-json', '--verbose'] });
    expect(inv.args).toEqual(['-p', '--permission-mode', 'acceptEdits', '--output-format=stream-json', '--verbose']);
  });

  test('codex: exec --json in the workspace-write sandbox, prompt from stdin after --', () => {
    expect(agentInvocation({ ...base, preset: 'codex', model: 'gpt-5.1-codex', maxTurns: 40 })).toEqual({
      command: 'codex',
      args: ['exec', '--json', '--sandbox', 'workspace-write', '--skip-git-repo-check', '--model', 'gpt-5.1-codex', '--', '-'],
      promptOnStdin: true,
    });
    // Codex refuses a repeated flag, so the user's own sandbox or model replaces ours.
    const own = agentInvocation({ ...base, preset: 'codex', model: 'x', extraArgs: ['--dangerously-bypass-approvals-and-sandbox', '-m', 'o3'] });
    expect(own.args).toEqual(['exec', '--json', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', '-m', 'o3', '--', '-']);
  });

  test('gemini: headless with an empty -p (stdin is the prompt), JSON, yolo, trusted folder', () => {
    expect(agentInvocation({ ...base, preset: 'gemini', model: 'gemini-2.5-pro' })).toEqual({
      command: 'gemini',
      args: ['--prompt', '', '--output-format', 'json', '--yolo', '--skip-trust', '--model', 'gemini-2.5-pro'],
      promptOnStdin: true,
    });
    expect(agentInvocation({ ...base, preset: 'gemini', extraArgs: ['--approval-mode', 'auto_edit'] }).args).not.toContain('--yolo');
  });

  test('aider: message file, always yes, and its own commits off even against the user args', () => {
    const inv = agentInvocation({ ...base, preset: 'aider', model: 'sonnet', extraArgs: ['--auto-commits'] });
    expect(inv.command).toBe('aider');
    expect(inv.promptOnStdin).toBe(false);
    const args = inv.args!;
    expect(args.slice(0, 2)).toEqual(['--message-file', '/ev/iter-1/prompt.md']);
    expect(args).toEqual(expect.arrayContaining(['--yes-always', '--model', 'sonnet', '--no-check-update', '--no-gitignore', '--chat-history-file', devNull]));
    expect(args.slice(-3)).toEqual(['--auto-commits', '--no-auto-commits', '--no-dirty-commits']);
  });

  test('command: the run line through the shell, prompt on stdin, extra args quoted', () => {
    expect(agentInvocation({ ...base, preset: 'command', run: './my-agent.sh --fast' })).toEqual({ command: './my-agent.sh --fast', promptOnStdin: true });
    expect(agentInvocation({ ...base, preset: 'command', run: './a.sh', extraArgs: ["it's", 'x y', 'plain'] }).command).toBe(`./a.sh 'it'\\''s' 'x y' plain`);
    expect(() => agentInvocation({ ...base, preset: 'command' })).toThrow(/run/);
  });

  test('run replaces the executable of a preset (e.g. through npx)', () => {
    const inv = agentInvocation({ ...base, preset: 'gemini', run: 'npx -y @google/gemini-cli' });
    expect(inv).toEqual({ command: "npx -y @google/gemini-cli --prompt '' --output-format json --yolo --skip-trust", promptOnStdin: true });
  });

  test('the invocations actually run: a fake CLI on PATH sees the arguments and the prompt on stdin', async () => {
    const { mkdtempSync, writeFileSync, chmodSync, rmSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'phuc-agents-'));
    try {
      for (const name of ['claude', 'codex', 'gemini', 'aider']) {
        const file = join(dir, name);
        writeFileSync(file, '#!/bin/sh\nprintf "%s|" "$(basename "$0")" "$@"; printf "stdin=%s\\n" "$(cat)"\n');
        chmodSync(file, 0o755);
      }
      const runner = new NodeProcessRunner();
      const env = { PATH: `${dir}:${process.env.PATH ?? '/usr/bin:/bin'}` };
      for (const preset of ['claude', 'codex', 'gemini', 'aider'] as const) {
        const inv = agentInvocation({ preset, promptFile: join(dir, 'prompt.md'), model: 'm' });
        const r = await runner.run({ command: inv.command, args: inv.args, cwd: dir, env, stdin: inv.promptOnStdin ? 'the prompt' : undefined, timeoutMs: 5000 });
        expect(r.exitCode).toBe(0);
        expect(r.stdout).toBe(`${[preset, ...inv.args!].join('|')}|stdin=${inv.promptOnStdin ? 'the prompt' : ''}\n`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('parseAgentUsage', () => {
  test('Claude JSON result: cost exactly as printed, turns, tokens with cache', () => {
    expect(parseAgentUsage(CLAUDE_JSON)).toEqual({ costUsd: '0.035033999999999996', turns: 1, inputTokens: 1234 + 2000 + 5000, outputTokens: 321 });
  });

  test('a cost is never rounded through a float', () => {
    const text = CLAUDE_JSON.replace('"total_cost_usd":0.035033999999999996', '"total_cost_usd":0.1234567890123456789');
    expect(parseAgentUsage(text).costUsd).toBe('0.1234567890123456789');
    expect(String(JSON.parse(text).total_cost_usd)).not.toBe('0.1234567890123456789');
    expect(parseAgentUsage('{"total_cost_usd":1e-7}').costUsd).toBe('1e-7');
  });

  test('Claude stream-json: the final result line counts, assistant usage lines do not', () => {
    expect(parseAgentUsage(CLAUDE_STREAM)).toEqual({ costUsd: '0.035033999999999996', turns: 1, inputTokens: 8234, outputTokens: 321 });
  });

  test('Claude JSON after other output on stdout', () => {
    const mixed = `npm warn something\n> build\n${CLAUDE_JSON}\ntrailing text {not json}\n`;
    expect(parseAgentUsage(mixed).costUsd).toBe('0.035033999999999996');
  });

  test('Codex JSONL: token usage of every completed turn is summed; no cost', () => {
    expect(parseAgentUsage(CODEX_JSONL)).toEqual({ costUsd: null, turns: 1, inputTokens: 15234, outputTokens: 987 });
    const twoTurns = `${CODEX_JSONL}\n{"type":"turn.started"}\n{"type":"turn.completed","usage":{"input_tokens":100,"cached_input_tokens":0,"output_tokens":7,"reasoning_output_tokens":0}}`;
    expect(parseAgentUsage(twoTurns)).toMatchObject({ turns: 2, inputTokens: 15334, outputTokens: 994 });
  });

  test('Gemini JSON (pretty-printed) and stream-json: token counts', () => {
    expect(parseAgentUsage(GEMINI_JSON)).toEqual({ costUsd: null, turns: null, inputTokens: 8123, outputTokens: 45 });
    expect(parseAgentUsage(GEMINI_STREAM)).toEqual({ costUsd: null, turns: null, inputTokens: 8123, outputTokens: 45 });
  });

  test('a generic cost_usd from any command, as a number or a Decimal string; several are summed exactly', () => {
    expect(parseAgentUsage('working...\n{"cost_usd": 0.10}\ndone').costUsd).toBe('0.10');
    expect(parseAgentUsage('{"cost_usd": "2.5"}').costUsd).toBe('2.5');
    expect(parseAgentUsage('{"cost_usd": 0.1}\n{"total_cost_usd": 0.2}').costUsd).toBe('0.3');
    expect(parseAgentUsage(`${CLAUDE_JSON}\n${CLAUDE_JSON.replace('0.035033999999999996', '0.000000000000000004')}`).costUsd).toBe('0.035034');
  });

  test('nothing reported: all null; junk, bad values and nested costs are ignored', () => {
    const none = { costUsd: null, turns: null, inputTokens: null, outputTokens: null };
    expect(parseAgentUsage('')).toEqual(none);
    expect(parseAgentUsage('plain text\n{ broken json\n[1, 2')).toEqual(none);
    expect(parseAgentUsage('{"cost_usd": "NaN"}\n{"cost_usd": -1}\n{"cost_usd": "1,5"}\n{"cost_usd": true}')).toEqual(none);
    expect(parseAgentUsage('{"data": {"cost_usd": 5}}')).toEqual(none);
    expect(parseAgentUsage('  {"cost_usd": 5} (indented JSON inside other text)')).toEqual(none);
  });

  test('a truncated stream still yields what precedes the cut', () => {
    const cut = `${CODEX_JSONL.slice(0, CODEX_JSONL.length - 40)}\n[... 123 bytes omitted ...]\n`;
    expect(parseAgentUsage(`${CLAUDE_STREAM}\n[... 99 bytes omitted ...]\n${cut}`).costUsd).toBe('0.035033999999999996');
  });

  test('a JSON array of messages (claude --output-format json --verbose)', () => {
    expect(parseAgentUsage(`[${CLAUDE_STREAM.split('\n').join(',')}]`).costUsd).toBe('0.035033999999999996');
  });

  test('the scanner stays fast on large outputs', () => {
    const line = `{"type":"item.completed","item":{"text":"${'x'.repeat(200)}"}}\n`;
    const broken = `{"type":"item.completed","item":{"text":"${'y'.repeat(200)}\n`;
    const big = `${(line + broken).repeat(10_000)}{"cost_usd":1}`;
    expect(big.length).toBeGreaterThan(4_000_000);
    const t = performance.now();
    expect(parseAgentUsage(big).costUsd).toBe('1');
    expect(performance.now() - t).toBeLessThan(2000);
  });

  test('a "__proto__" key is plain data', () => {
    const [obj] = jsonObjectsIn('{"__proto__": {"cost_usd": 1}}');
    expect(Object.getPrototypeOf(obj)).toBeNull();
    expect(parseAgentUsage('{"__proto__": {"cost_usd": 1}}').costUsd).toBeNull();
  });
});

describe('isRateLimited', () => {
  test('the real final outputs of the CLIs on a 429', () => {
    expect(isRateLimited(CLAUDE_429)).toBe(true);
    expect(isRateLimited(CODEX_429)).toBe(true);
    expect(isRateLimited(GEMINI_QUOTA_STDERR)).toBe(true);
  });

  test.each([
    ['Anthropic error body', '{"type":"error","error":{"type":"rate_limit_error","message":"This request would exceed the rate limit for your organization"}}'],
    ['Anthropic overloaded', 'API Error: Repeated 529 Overloaded errors'],
    ['Anthropic overloaded body', 'API Error: 529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}'],
    ['Claude Code 429', 'API Error: Request rejected (429) · This request would exceed the rate limit for your organization'],
    ['Claude plan limit', 'Claude AI usage limit reached|1767225600'],
    ['Claude plan limit (new)', "You've hit your limit · resets 3pm (UTC)"],
    ['OpenAI rate limit', 'Error code: 429 - {"error": {"message": "Rate limit reached for gpt-5 in organization org-x on tokens per min (TPM)", "code": "rate_limit_exceeded"}}'],
    ['OpenAI quota', 'You exceeded your current quota, please check your plan and billing details. (insufficient_quota)'],
    ['Codex quota', 'ERROR: Quota exceeded. Check your plan and billing details.'],
    ['Codex plan limit', "■ You've hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro), or try again in 2 days."],
    ['Codex retry limit', 'exceeded retry limit, last status: 429 Too Many Requests'],
    ['Codex capacity', 'Selected model is at capacity. Please try a different model.'],
    ['Gemini status', '{"error":{"code":429,"message":"Resource has been exhausted (e.g. check quota).","status":"RESOURCE_EXHAUSTED"}}'],
    ['Gemini retry', 'Attempt 2 failed with status 429. Retrying with backoff... _ApiError: {"error":{"code":429}}'],
    ['HTTP status line', 'HTTP/1.1 429 Too Many Requests'],
  ])('%s', (_name, text) => {
    expect(isRateLimited(text)).toBe(true);
  });

  test.each([
    ['ordinary text', 'Implemented the limiter; all 429 tests pass on line 429 of rate.ts'],
    ['code about rate limits', 'Added a rate limit middleware and documented the rate-limit headers.'],
    ['disk quota', 'write failed: Disk quota exceeded'],
    ['overloaded word', 'The function is overloaded for strings and numbers.'],
    ['numbers', 'Processed 1429 files in 4290 ms; exit code 1'],
    ['too many requests without 429', 'avoid sending too many requests to the cache'],
  ])('not: %s', (_name, text) => {
    expect(isRateLimited(text)).toBe(false);
  });

  test('a run that succeeded is not rate limited, whatever its transcript quotes', () => {
    const transcript = `${CLAUDE_STREAM.split('\n').slice(0, 2).join('\n')}\n{"type":"user","message":{"content":"HTTP/1.1 429 Too Many Requests rate_limit_error"}}\n${CLAUDE_STREAM.split('\n')[2]}`;
    expect(isRateLimited(transcript)).toBe(false);
    expect(isRateLimited(`${CODEX_JSONL.replace('Done: fixed', 'Saw rate_limit_exceeded, retried; fixed')}`)).toBe(false);
    expect(isRateLimited(GEMINI_JSON.replace('Done: fixed the failing test.', 'the API returned 429 Too Many Requests'))).toBe(false);
    expect(isRateLimited(GEMINI_STREAM)).toBe(false);
  });

  test('a Claude error that is not a rate limit', () => {
    const maxTurns = CLAUDE_JSON.replace('"subtype":"success","is_error":false', '"subtype":"error_max_turns","is_error":true').replace('Done: fixed the failing test.', 'status: 429 in the test log');
    expect(isRateLimited(maxTurns)).toBe(false);
  });
});

describe('agent environment', () => {
  const base = {
    PATH: '/usr/bin',
    HOME: '/home/runner',
    ANTHROPIC_API_KEY: 'sk-ant-agent',
    OPENAI_API_KEY: 'sk-openai-agent',
    GEMINI_API_KEY: 'gem-agent',
    GITHUB_TOKEN: 'ghs_loop_token',
    GH_TOKEN: 'gho_other',
    'INPUT_GITHUB-TOKEN': 'ghs_loop_token',
    INPUT_GITHUB_TOKEN: 'ghs_loop_token',
    INPUT_GOAL: 'Make the test suite pass',
    INPUT_MAX_ITERATIONS: '10',
    STATE_evidence: '/tmp/ev',
    ACTIONS_RUNTIME_TOKEN: 'runtime-jwt',
    ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'oidc-request-token',
    ACTIONS_ID_TOKEN_REQUEST_URL: 'https://token.actions/x',
    ACTIONS_RESULTS_URL: 'https://results/',
    ACTIONS_RUNTIME_URL: 'https://runtime/',
    ACTIONS_CACHE_URL: 'https://cache/',
    GITHUB_STATE: '/home/runner/work/_temp/_runner_file_commands/save_state_1',
    GITHUB_OUTPUT: '/f/out',
    GITHUB_ENV: '/f/env',
    GITHUB_PATH: '/f/path',
    GITHUB_STEP_SUMMARY: '/f/sum',
    GITHUB_REPOSITORY: 'o/r',
    DEPLOY_KEY: 'deploy-secret-value',
    NPM_TOKEN: 'npm_kept_unless_named',
    PHUC_LOOP_SECRET_VARS: ' DEPLOY_KEY , ,OTHER ',
    UNSET: undefined,
  };

  test('the loop secrets and handles are removed, agent keys pass, PHUC variables are added', () => {
    const env = agentEnvironment(base, { PHUC_ITERATION: '3', PHUC_PROMPT_FILE: '/ev/p.md', HOME: '/override' });
    expect(Object.keys(env).sort()).toEqual(
      ['ANTHROPIC_API_KEY', 'GEMINI_API_KEY', 'GITHUB_REPOSITORY', 'HOME', 'NPM_TOKEN', 'OPENAI_API_KEY', 'PATH', 'PHUC_ITERATION', 'PHUC_LOOP_SECRET_VARS', 'PHUC_PROMPT_FILE'].sort(),
    );
    expect(env.ANTHROPIC_API_KEY).toBe('sk-ant-agent');
    expect(env.HOME).toBe('/override');
    expect(JSON.stringify(env)).not.toContain('ghs_loop_token');
  });

  test('loopSecretValues: the token values (not ordinary inputs), each once, longest first', () => {
    expect(loopSecretValues(base)).toEqual(['deploy-secret-value', 'oidc-request-token', 'ghs_loop_token', 'runtime-jwt', 'gho_other']);
    expect(loopSecretValues({ GITHUB_TOKEN: 'abc', GH_TOKEN: '' })).toEqual([]);
    expect(loopSecretValues({ INPUT_API_KEY: 'k-123456', INPUT_GOAL: 'goal text' })).toEqual(['k-123456']);
  });

  test('scrubSecrets replaces every occurrence', () => {
    const secrets = loopSecretValues(base);
    expect(scrubSecrets('push https://x-access-token:ghs_loop_token@github.com, again ghs_loop_token; deploy-secret-value', secrets)).toBe(
      'push https://x-access-token:***@github.com, again ***; ***',
    );
    expect(scrubSecrets('abcdef', ['abcdef', 'bcd', ''])).toBe('***');
    expect(scrubSecrets('nothing here', [])).toBe('nothing here');
  });
});
