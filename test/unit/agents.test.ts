import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { devNull, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  AGENT_STATE_EXCLUDES,
  agentInvocation,
  cliVersion,
  describeInvocation,
  ERROR_TEXT_MAX,
  isRateLimited,
  jsonObjectsIn,
  lastErrorLine,
  parseAgentOutcome,
  parseAgentUsage,
  REPORT_PATH,
} from '../../src/engine/agent/agents.js';
import { NodeProcessRunner } from '../../src/engine/os/process.js';

// Captured from the real CLIs (Claude Code 2.1.197, Codex 0.169.0, Gemini CLI 0.61.0) run against a
// local server that answers like the model APIs; only long lists were shortened. The outputs of the
// pinned versions with the presets' current command lines are in test/fixtures/presets/
// (test/presets/capture-fixtures.ts).
const CLAUDE_JSON =
  '{"type":"result","subtype":"success","is_error":false,"api_error_status":null,"duration_ms":173,"duration_api_ms":71,"ttft_ms":162,"ttft_stream_ms":161,"time_to_request_ms":150,"num_turns":1,"result":"Done: fixed the failing test.","stop_reason":"end_turn","session_id":"bfc1aee3-0bd0-4a9e-855f-5298cade83f0","total_cost_usd":0.035033999999999996,"usage":{"input_tokens":1234,"cache_creation_input_tokens":2000,"cache_read_input_tokens":5000,"output_tokens":321,"server_tool_use":{"web_search_requests":0,"web_fetch_requests":0},"service_tier":"standard","cache_creation":{"ephemeral_1h_input_tokens":0,"ephemeral_5m_input_tokens":0},"inference_geo":"","iterations":[],"speed":"standard"},"modelUsage":{"claude-sonnet-4-5":{"inputTokens":2468,"outputTokens":642,"cacheReadInputTokens":10000,"cacheCreationInputTokens":4000,"webSearchRequests":0,"costUSD":0.035033999999999996,"contextWindow":200000,"maxOutputTokens":32000}},"permission_denials":[],"terminal_reason":"completed","fast_mode_state":"off","uuid":"b6bd79d6-9908-4761-ab7d-dd51c567ed9c"}';
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
const CLAUDE_429 =
  '{"type":"result","subtype":"success","is_error":true,"api_error_status":429,"duration_ms":183245,"duration_api_ms":0,"num_turns":1,"result":"API Error: Request rejected (429) · This request would exceed the rate limit for your organization of 50 requests per minute.","stop_reason":"stop_sequence","session_id":"89ffe0d4-472d-47dd-b5b7-41c87fb5a0ee","total_cost_usd":0,"usage":{"input_tokens":0,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":0,"server_tool_use":{"web_search_requests":0,"web_fetch_requests":0},"service_tier":"standard","cache_creation":{"ephemeral_1h_input_tokens":0,"ephemeral_5m_input_tokens":0},"inference_geo":"","iterations":[],"speed":"standard"},"modelUsage":{},"permission_denials":[],"terminal_reason":"completed","fast_mode_state":"off","uuid":"894a8aa2-db55-40ea-8940-57cd108f6886"}';
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
  const claudeSettings = '{"claudeMdExcludes":["**/AGENTS.md"]}';

  test('claude: print mode, stream-json events, no permission prompts, turns, model, no AGENTS.md and no own memory', () => {
    expect(agentInvocation({ ...base, preset: 'claude', model: 'claude-sonnet-4-5', maxTurns: 40 })).toEqual({
      command: 'claude',
      args: [
        '-p',
        '--output-format',
        'stream-json',
        '--verbose',
        '--dangerously-skip-permissions',
        '--max-turns',
        '40',
        '--model',
        'claude-sonnet-4-5',
        '--settings',
        claudeSettings,
      ],
      promptOnStdin: true,
      env: { CLAUDE_CODE_DISABLE_AUTO_MEMORY: '1' },
    });
  });

  test('claude: a permission mode, output format or settings of the user replaces ours', () => {
    const inv = agentInvocation({ ...base, preset: 'claude', extraArgs: ['--permission-mode', 'acceptEdits', '--output-format=json', '--settings', '{}'] });
    expect(inv.args).toEqual(['-p', '--permission-mode', 'acceptEdits', '--output-format=json', '--settings', '{}']);
    // stream-json of the user still needs --verbose.
    expect(agentInvocation({ ...base, preset: 'claude', extraArgs: ['--output-format', 'stream-json'] }).args).toContain('--verbose');
  });

  test('codex: exec --json, workspace-write sandbox, no project docs, bounded reconnects, prompt from stdin after --', () => {
    expect(agentInvocation({ ...base, preset: 'codex', model: 'gpt-5.5', maxTurns: 40 })).toEqual({
      command: 'codex',
      args: [
        'exec',
        '--json',
        '--sandbox',
        'workspace-write',
        '--skip-git-repo-check',
        '-c',
        'project_doc_max_bytes=0',
        '-c',
        'features.unbounded_connection_retries=false',
        '--model',
        'gpt-5.5',
        '--',
        '-',
      ],
      promptOnStdin: true,
      env: {},
    });
    // Codex refuses a repeated flag, so the user's own sandbox, model or setting replaces ours.
    const own = agentInvocation({
      ...base,
      preset: 'codex',
      model: 'x',
      extraArgs: ['--dangerously-bypass-approvals-and-sandbox', '-m', 'o3', '-c', 'project_doc_max_bytes=4096'],
    });
    expect(own.args).toEqual([
      'exec',
      '--json',
      '--skip-git-repo-check',
      '-c',
      'features.unbounded_connection_retries=false',
      '--dangerously-bypass-approvals-and-sandbox',
      '-m',
      'o3',
      '-c',
      'project_doc_max_bytes=4096',
      '--',
      '-',
    ]);
  });

  test('gemini: headless with an empty -p (stdin is the prompt), stream-json, yolo, trusted folder', () => {
    expect(agentInvocation({ ...base, preset: 'gemini', model: 'gemini-2.5-pro' })).toEqual({
      command: 'gemini',
      args: ['--prompt', '', '--output-format', 'stream-json', '--yolo', '--skip-trust', '--model', 'gemini-2.5-pro'],
      promptOnStdin: true,
      env: {},
    });
    expect(agentInvocation({ ...base, preset: 'gemini', extraArgs: ['--approval-mode', 'auto_edit'] }).args).not.toContain('--yolo');
  });

  test('aider: message file, the report file to edit, always yes, and its own commits off even against the user args', () => {
    const inv = agentInvocation({ ...base, preset: 'aider', model: 'sonnet', reportFile: REPORT_PATH, extraArgs: ['--auto-commits'] });
    expect(inv.command).toBe('aider');
    expect(inv.promptOnStdin).toBe(false);
    const args = inv.args!;
    expect(args.slice(0, 4)).toEqual(['--message-file', '/ev/iter-1/prompt.md', '--file', '.phuc-loop/report.json']);
    expect(args).toEqual(expect.arrayContaining(['--yes-always', '--model', 'sonnet', '--no-check-update', '--no-gitignore', '--chat-history-file', devNull]));
    expect(args.slice(-3)).toEqual(['--auto-commits', '--no-auto-commits', '--no-dirty-commits']);
  });

  test('command: the run line through the shell, prompt on stdin, extra args quoted', () => {
    expect(agentInvocation({ ...base, preset: 'command', run: './my-agent.sh --fast' })).toEqual({
      command: './my-agent.sh --fast',
      promptOnStdin: true,
      env: {},
    });
    expect(agentInvocation({ ...base, preset: 'command', run: './a.sh', extraArgs: ["it's", 'x y', 'plain'] }).command).toBe(`./a.sh 'it'\\''s' 'x y' plain`);
    expect(() => agentInvocation({ ...base, preset: 'command' })).toThrow(/run/);
  });

  test('run replaces the executable of a preset (e.g. through npx)', () => {
    const inv = agentInvocation({ ...base, preset: 'gemini', run: 'npx -y @google/gemini-cli' });
    expect(inv).toEqual({ command: "npx -y @google/gemini-cli --prompt '' --output-format stream-json --yolo --skip-trust", promptOnStdin: true, env: {} });
  });

  test('the report path is outside the folders the prompt forbids, and no exclude hides it from aider', () => {
    expect(REPORT_PATH.startsWith('evidence/') || REPORT_PATH.startsWith('scratch/')).toBe(false);
    expect(AGENT_STATE_EXCLUDES).toEqual(['/.aider*', '/.claude/settings.local.json']);
    expect(AGENT_STATE_EXCLUDES.some((p) => REPORT_PATH.startsWith(p.replace(/^\//, '').replace(/\*.*$/, '')))).toBe(false);
  });

  test('the invocations actually run: a fake CLI on PATH sees the arguments and the prompt on stdin', async () => {
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
        const r = await runner.run({
          command: inv.command,
          args: inv.args,
          cwd: dir,
          env,
          stdin: inv.promptOnStdin ? 'the prompt' : undefined,
          timeoutMs: 5000,
        });
        expect(r.exitCode).toBe(0);
        expect(r.stdout).toBe(`${[preset, ...inv.args!].join('|')}|stdin=${inv.promptOnStdin ? 'the prompt' : ''}\n`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('describeInvocation and cliVersion', () => {
  test('the argv with secrets masked and repository paths relative; variable names only', () => {
    const inv = agentInvocation({
      preset: 'aider',
      model: 'sonnet',
      promptFile: '/work/repo/evidence/loop/iter_2/prompt.md',
      reportFile: REPORT_PATH,
      extraArgs: ['--api-key', 'anthropic=sk-ant-secret-123'],
    });
    const env = { PATH: '/usr/bin', ANTHROPIC_API_KEY: 'sk-ant-secret-123', HOME: '/home/u' };
    const record = describeInvocation(inv, { env, mask: (t) => t.split('sk-ant-secret-123').join('***'), root: '/work/repo', cliVersion: 'aider 0.86.1' });
    expect(record.argv!.slice(0, 3)).toEqual(['aider', '--message-file', './evidence/loop/iter_2/prompt.md']);
    expect(record.argv).toContain('anthropic=***');
    expect(JSON.stringify(record)).not.toContain('sk-ant-secret-123');
    expect(record).toMatchObject({
      shell: null,
      prompt_on_stdin: false,
      env_names: ['ANTHROPIC_API_KEY', 'HOME', 'PATH'],
      preset_env: [],
      cli_version: 'aider 0.86.1',
    });
    // A sibling folder whose name starts like the repository is not the repository.
    expect(
      describeInvocation(
        { command: 'x', args: ['/work/repo2/a', '/work/repo'], promptOnStdin: true, env: {} },
        { env: {}, mask: (t) => t, root: '/work/repo', cliVersion: null },
      ).argv,
    ).toEqual(['x', '/work/repo2/a', '.']);
  });

  test('a shell command line is recorded as such, with the preset variables named', () => {
    const inv = agentInvocation({ preset: 'claude', run: 'npx -y @anthropic-ai/claude-code@2.1.330', promptFile: 'p' });
    const record = describeInvocation(inv, { env: { B: '1', A: '2' }, mask: (t) => t, root: '/r', cliVersion: null });
    expect(record.argv).toBeNull();
    expect(record.shell).toMatch(/^npx -y @anthropic-ai\/claude-code@2\.1\.330 -p --output-format stream-json/);
    expect(record).toMatchObject({ env_names: ['A', 'B'], preset_env: ['CLAUDE_CODE_DISABLE_AUTO_MEMORY'] });
  });

  test('cliVersion: the first line of `--version`, null when the CLI is missing or fails; none for command', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'phuc-version-'));
    try {
      writeFileSync(join(dir, 'codex'), '#!/bin/sh\n[ "$1" = --version ] && printf "\\ncodex-cli 0.169.0\\nextra\\n"\n');
      writeFileSync(join(dir, 'gemini'), '#!/bin/sh\necho broken >&2; exit 3\n');
      chmodSync(join(dir, 'codex'), 0o755);
      chmodSync(join(dir, 'gemini'), 0o755);
      const runner = new NodeProcessRunner();
      // The stand-ins alone on the PATH: a real CLI installed on the machine (claude in /usr/bin) is not what this tests.
      const o = { env: { PATH: dir }, cwd: dir };
      expect(await cliVersion('codex', runner, o)).toBe('codex-cli 0.169.0');
      expect(await cliVersion('gemini', runner, o)).toBeNull();
      expect(await cliVersion('claude', runner, o)).toBeNull();
      expect(await cliVersion('codex', runner, { ...o, run: `${dir}/codex` })).toBe('codex-cli 0.169.0');
      expect(await cliVersion('command', runner, o)).toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

interface Fixture {
  cli: string;
  exitCode: number | null;
  stdout: string;
  stderr: string;
  served: { toolCalls: number; usage: { input: number; output: number; cache_read: number; cache_write: number } };
}
const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'presets');
const fixture = (name: string) => JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), 'utf8')) as Fixture;
const REFUSAL = 'The stand-in refuses this request (test error 7f3a).';

describe('parseAgentOutcome on the real outputs of the pinned CLIs (test/fixtures/presets)', () => {
  test.each([
    ['claude', 'claude-success', '0.01149', 3, 4],
    ['claude', 'claude-success-json', '0.01149', null, 4],
    ['codex', 'codex-success', null, 3, 1],
    ['gemini', 'gemini-success', null, 3, null],
    ['gemini', 'gemini-success-json', null, 3, 4],
  ] as const)('%s %s: the tokens and tool calls the stand-in served, the cost as printed', (preset, name, cost, toolCalls, turns) => {
    const f = fixture(name);
    expect(parseAgentOutcome(preset, f)).toEqual({
      costUsd: cost,
      tokens: f.served.usage,
      toolCalls,
      turns,
      errorText: null,
      failed: false,
      rateLimited: false,
      reported: { cost: cost !== null, tokens: true, toolCalls: toolCalls !== null },
    });
    if (toolCalls !== null) expect(toolCalls).toBe(f.served.toolCalls);
  });

  test.each([
    ['claude', 'claude-api-error', `API Error: 400 ${REFUSAL}`],
    ['codex', 'codex-api-error', REFUSAL],
    ['gemini', 'gemini-api-error', REFUSAL],
    ['gemini', 'gemini-auth-41', 'Invalid auth method selected.'],
    ['claude', 'claude-root-refusal', '--dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons'],
  ] as const)('%s %s: a failure with the CLI’s own message, not a rate limit', (preset, name, text) => {
    expect(parseAgentOutcome(preset, fixture(name))).toMatchObject({ failed: true, rateLimited: false, errorText: text });
  });

  test.each([
    ['claude', 'claude-rate-limit', /^API Error: Request rejected \(429\)/],
    ['codex', 'codex-rate-limit', /^exceeded retry limit, last status: 429 Too Many Requests$/],
    ['gemini', 'gemini-rate-limit', /Rate limit reached for requests/],
  ] as const)('%s %s: a rate limit, with the CLI’s message', (preset, name, text) => {
    const o = parseAgentOutcome(preset, fixture(name));
    expect(o).toMatchObject({ failed: true, rateLimited: true });
    expect(o.errorText).toMatch(text);
  });

  test('a cost is the JSON number’s source text, never rounded through a float', () => {
    const f = fixture('claude-success');
    const stdout = f.stdout.replace('"total_cost_usd":0.01149', '"total_cost_usd":0.1234567890123456789');
    expect(parseAgentOutcome('claude', { ...f, stdout }).costUsd).toBe('0.1234567890123456789');
    expect(String(Number('0.1234567890123456789'))).not.toBe('0.1234567890123456789');
    expect(parseAgentOutcome('command', { stdout: '{"total_cost_usd":1e-7}', stderr: '', exitCode: 0 }).costUsd).toBe('1e-7');
    expect(parseAgentOutcome('claude', { stdout: CLAUDE_JSON, stderr: '', exitCode: 0 }).costUsd).toBe('0.035033999999999996');
  });

  test('Claude killed before its result: the tool calls it made so far, and no usage (not zero)', () => {
    const f = fixture('claude-success');
    const cut = f.stdout
      .split('\n')
      .filter((l) => !l.startsWith('{"type":"result"') && !l.includes('"type":"result"'))
      .join('\n');
    expect(parseAgentOutcome('claude', { stdout: cut, stderr: '', exitCode: null })).toMatchObject({
      costUsd: null,
      tokens: null,
      toolCalls: 3,
      failed: true,
      reported: { cost: false, tokens: false, toolCalls: true },
    });
  });

  test('Codex: usage of every turn is summed, item tool calls counted once each; retries leave no error on success', () => {
    const twoTurns = `${CODEX_JSONL}\n{"type":"turn.started"}\n{"type":"item.started","item":{"id":"item_7","type":"command_execution","command":"ls","status":"in_progress"}}\n{"type":"item.completed","item":{"id":"item_7","type":"command_execution","command":"ls","status":"completed"}}\n{"type":"turn.completed","usage":{"input_tokens":100,"cached_input_tokens":40,"output_tokens":7,"reasoning_output_tokens":0}}`;
    expect(parseAgentOutcome('codex', { stdout: twoTurns, stderr: '', exitCode: 0 })).toMatchObject({
      tokens: { input: 15334, cache_read: 12072, cache_write: 0, output: 994 },
      toolCalls: 1,
      turns: 2,
    });
    const retried = `{"type":"thread.started","thread_id":"t"}\n{"type":"error","message":"Reconnecting... 1/5 (stream disconnected)"}\n${CODEX_JSONL}`;
    expect(parseAgentOutcome('codex', { stdout: retried, stderr: '', exitCode: 0 })).toMatchObject({ failed: false, errorText: null });
  });

  test('Codex gave up reconnecting: the failure names the connection error, not the retries', () => {
    const stdout = [
      '{"type":"thread.started","thread_id":"t"}',
      '{"type":"turn.started"}',
      '{"type":"error","message":"Reconnecting... 1/5 (Connection failed: error sending request)"}',
      '{"type":"error","message":"Reconnecting... 5/5 (Connection failed: error sending request)"}',
      '{"type":"error","message":"Connection failed: error sending request"}',
      '{"type":"turn.failed","error":{"message":"Connection failed: error sending request"}}',
    ].join('\n');
    expect(parseAgentOutcome('codex', { stdout, stderr: '', exitCode: 1 })).toMatchObject({
      failed: true,
      rateLimited: false,
      errorText: 'Connection failed: error sending request',
    });
  });

  test("the CLI's words never say the model service is down (the loop probes it: agent/downstream.ts)", () => {
    const refused = { stdout: '', stderr: 'Error: connect ECONNREFUSED 127.0.0.1:443 (api.example.com unreachable)\n', exitCode: 1 };
    const gateway = CLAUDE_JSON.replace('"is_error":false,"api_error_status":null', '"is_error":true,"api_error_status":503').replace(
      'Done: fixed the failing test.',
      'API Error: 503',
    );
    for (const [preset, out] of [
      ['command', refused],
      ['claude', { stdout: gateway, stderr: '', exitCode: 1 }],
    ] as const) {
      const got = parseAgentOutcome(preset, out);
      expect(got).toMatchObject({ failed: true, rateLimited: false });
      expect(got).not.toHaveProperty('unavailable');
    }
  });

  test('an is_error result with exit 0 is a failure (Claude Code reports API errors as results)', () => {
    const stdout = CLAUDE_JSON.replace('"is_error":false', '"is_error":true').replace('Done: fixed the failing test.', 'API Error: 500 Internal server error');
    expect(parseAgentOutcome('claude', { stdout, stderr: '', exitCode: 0 })).toMatchObject({ failed: true, errorText: 'API Error: 500 Internal server error' });
  });

  test('no structured output: the last error-looking line of stderr, stack frames and noise skipped', () => {
    const stderr =
      'YOLO mode is enabled. All tool calls will be automatically approved.\nError: connect ECONNREFUSED 127.0.0.1:9\n    at TCPConnectWrap.afterConnect (node:net:1611:16)\n  code: 404,\n}\n';
    expect(parseAgentOutcome('gemini', { stdout: '', stderr, exitCode: 1 }).errorText).toBe('Error: connect ECONNREFUSED 127.0.0.1:9');
    expect(lastErrorLine('just\nsome output\n')).toBe('some output');
    expect(lastErrorLine('\n  \n')).toBeNull();
    expect(parseAgentOutcome('command', { stdout: '', stderr: `x${'y'.repeat(2000)} failed`, exitCode: 2 }).errorText!.length).toBe(ERROR_TEXT_MAX);
  });

  test('a command that printed nothing: every figure unknown, never zero', () => {
    expect(parseAgentOutcome('command', { stdout: 'done\n', stderr: '', exitCode: 0 })).toEqual({
      costUsd: null,
      tokens: null,
      toolCalls: null,
      turns: null,
      errorText: null,
      failed: false,
      rateLimited: false,
      reported: { cost: false, tokens: false, toolCalls: false },
    });
  });
});

describe('aider output (its own text format: aider/coders/base_coder.py, aider/exceptions.py)', () => {
  const ok = [
    'Aider v0.86.1',
    'Model: anthropic/claude-sonnet-4-5 with diff edit format, prompt cache, infinite output',
    'Applied edit to src/sum.mjs',
    'Tokens: 4.4k sent, 1.2k cache write, 3k cache hit, 212 received.',
    'Cost: $0.02 message, $0.02 session.',
    'Applied edit to .phuc-loop/report.json',
    'Tokens: 12k sent, 950 received. Cost: $0.05 message, $0.07 session.',
  ].join('\n');

  test('tokens summed over its replies (its own rounding), the session cost as printed, no tool calls', () => {
    expect(parseAgentOutcome('aider', { stdout: ok, stderr: '', exitCode: 0 })).toEqual({
      costUsd: '0.07',
      tokens: { input: 16400, cache_write: 1200, cache_read: 3000, output: 1162 },
      toolCalls: null,
      turns: 2,
      errorText: null,
      failed: false,
      rateLimited: false,
      reported: { cost: true, tokens: true, toolCalls: false },
    });
  });

  test('an API error after which aider exits 0 is a failure with the litellm line', () => {
    const stdout = [
      'Aider v0.86.1',
      'litellm.AuthenticationError: AnthropicException - {"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}',
      'The API provider is not able to authenticate you. Check your API key.',
    ].join('\n');
    expect(parseAgentOutcome('aider', { stdout, stderr: '', exitCode: 0 })).toMatchObject({
      failed: true,
      rateLimited: false,
      errorText: expect.stringMatching(/^litellm\.AuthenticationError: AnthropicException - .*invalid x-api-key/),
    });
  });

  test('a rate limit it gave up on is backpressure; one it recovered from is not a failure', () => {
    const limited = [
      'litellm.RateLimitError: AnthropicException - rate_limit_error',
      'The API provider has rate limited you. Try again later or check your quotas.',
      'Retrying in 0.2 seconds...',
    ];
    expect(parseAgentOutcome('aider', { stdout: limited.join('\n'), stderr: '', exitCode: 0 })).toMatchObject({ failed: true, rateLimited: true });
    expect(parseAgentOutcome('aider', { stdout: [...limited, ok].join('\n'), stderr: '', exitCode: 0 })).toMatchObject({
      failed: false,
      rateLimited: false,
      errorText: null,
    });
  });
});

describe('parseAgentUsage (the shape spawnAgent reads today)', () => {
  test('cost, turns and tokens of any stdout', () => {
    expect(parseAgentUsage(CLAUDE_JSON)).toEqual({ costUsd: '0.035033999999999996', turns: 1, inputTokens: 1234 + 2000 + 5000, outputTokens: 321 });
    expect(parseAgentUsage('{"cost_usd": 0.1}\n{"total_cost_usd": 0.2}').costUsd).toBe('0.3');
    expect(parseAgentUsage('working...\n{"cost_usd": "2.5"}\ndone')).toEqual({ costUsd: '2.5', turns: null, inputTokens: null, outputTokens: null });
  });
});

describe('jsonObjectsIn', () => {
  test('nothing from junk, bad values or nested and indented costs', () => {
    const none = { costUsd: null, turns: null, inputTokens: null, outputTokens: null };
    expect(parseAgentUsage('plain text\n{ broken json\n[1, 2')).toEqual(none);
    expect(parseAgentUsage('{"cost_usd": "NaN"}\n{"cost_usd": -1}\n{"cost_usd": "1,5"}\n{"cost_usd": true}')).toEqual(none);
    expect(parseAgentUsage('{"data": {"cost_usd": 5}}')).toEqual(none);
    expect(parseAgentUsage('  {"cost_usd": 5} (indented JSON inside other text)')).toEqual(none);
  });

  test('a truncated stream still yields what precedes the cut; a JSON array of messages', () => {
    const cut = `${CODEX_JSONL.slice(0, CODEX_JSONL.length - 40)}\n[... 123 bytes omitted ...]\n`;
    expect(parseAgentUsage(`${CLAUDE_STREAM}\n[... 99 bytes omitted ...]\n${cut}`).costUsd).toBe('0.035033999999999996');
    expect(parseAgentUsage(`[${CLAUDE_STREAM.split('\n').join(',')}]`).costUsd).toBe('0.035033999999999996');
  });

  // Its speed on such an output is a figure of `npm run bench:scrubber`, not a timed test.
  test('a 4 MB output of broken lines still yields the cost after them', () => {
    const line = `{"type":"item.completed","item":{"text":"${'x'.repeat(200)}"}}\n`;
    const broken = `{"type":"item.completed","item":{"text":"${'y'.repeat(200)}\n`;
    const big = `${(line + broken).repeat(10_000)}{"cost_usd":1}`;
    expect(big.length).toBeGreaterThan(4_000_000);
    expect(parseAgentUsage(big).costUsd).toBe('1');
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
    [
      'OpenAI rate limit',
      'Error code: 429 - {"error": {"message": "Rate limit reached for gpt-5 in organization org-x on tokens per min (TPM)", "code": "rate_limit_exceeded"}}',
    ],
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
    expect(isRateLimited(CODEX_JSONL.replace('Done: fixed', 'Saw rate_limit_exceeded, retried; fixed'))).toBe(false);
    expect(isRateLimited(GEMINI_JSON.replace('Done: fixed the failing test.', 'the API returned 429 Too Many Requests'))).toBe(false);
    expect(isRateLimited(GEMINI_STREAM)).toBe(false);
  });

  test('a Claude error that is not a rate limit', () => {
    const maxTurns = CLAUDE_JSON.replace('"subtype":"success","is_error":false', '"subtype":"error_max_turns","is_error":true').replace(
      'Done: fixed the failing test.',
      'status: 429 in the test log',
    );
    expect(isRateLimited(maxTurns)).toBe(false);
  });
});
