// Conformance of the claude, codex and gemini presets with the real CLIs at pinned versions: each is
// installed from npm (cached), pointed at a scripted StandIn of its provider's API, and run by the
// built loop (`node dist/cli/index.js run`) on a repository with a planted bug.
//
// Two groups per preset: what the CLI does with the preset's command line (it converges, the argv it
// received, the usage it reports, no double memory, nothing of its own left in the repository), and
// what the loop makes of it (budget_log.json, the CLI's own error on the console, 429 → pause, a
// hang → the idle limit, the recorded invocation).
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Decimal } from '../../src/engine/common/decimal.js';
import { agentInvocation, cliVersion, parseAgentOutcome, type AgentOutcome } from '../../src/engine/agent/agents.js';
import { NodeProcessRunner } from '../../src/engine/os/process.js';
import { type IsolationLevel } from '../../src/engine/os/sandbox.js';
import { cli, git, makeRepo, NORTHSTAR, readJson, type CliResult } from '../helpers/repo.js';
import {
  argvShim,
  type InstalledCli,
  installCli,
  MODEL,
  NPM_PRESETS,
  type NpmPreset,
  openTempDir,
  PINNED,
  PROVIDER,
  readArgv,
  standInEnvironment,
} from './clis.js';
import { FIX_STEPS, MEMORY_MARKER, PLANTED_BUG, REFUSAL } from './scenario.js';
import { type Behaviour, StandIn } from './standin.js';
import { isolationFacts } from '../helpers/isolation.js';

const MAX_TOOL_CALLS = 25;
const EV = 'evidence/loop';
/** The levels the key proxy runs are checked at: `none` (the suite's level), and user+pidns where this machine has it. */
const KEY_PROXY_LEVELS: IsolationLevel[] = (await isolationFacts()).userPidns === null ? ['none', 'user+pidns'] : ['none'];
/** Where standInEnvironment puts each CLI's key: the real key the key proxy holds. */
const KEY_VAR: Record<NpmPreset, string> = { claude: 'ANTHROPIC_API_KEY', codex: 'OPENAI_API_KEY', gemini: 'GEMINI_API_KEY' };
/** Where the proxy puts its placeholder for the CLI (KeyProxy.env). */
const PLACEHOLDER_VAR: Record<NpmPreset, string> = { claude: 'ANTHROPIC_API_KEY', codex: 'CODEX_API_KEY', gemini: 'GEMINI_API_KEY' };

function loopConfig(preset: NpmPreset, o: { agentExtra?: string; secondsPerIteration?: number } = {}): string {
  return [
    'version: 2',
    'goal: Make test/sum.test.mjs pass without weakening it.',
    'acceptance_criteria:',
    '  - id: sum',
    '    run: "node test/sum.test.mjs"',
    '    timeout_seconds: 60',
    'certificates: [EXACT, CONVERGED, DIVERGED]',
    'R_p: "1e-4"',
    'rung_target: 641',
    'budget:',
    '  max_iterations: 2',
    `  max_seconds_per_iteration: ${o.secondsPerIteration ?? 90}`,
    `  max_tool_calls_per_iteration: ${MAX_TOOL_CALLS}`,
    'agent:',
    `  use: ${preset}`,
    `  model: ${MODEL[preset]}`,
    o.agentExtra ?? '',
    'protected: ["test/**"]',
  ].join('\n');
}

interface LoopRun {
  repo: string;
  result: CliResult;
  standIn: StandIn;
  argv: string[];
  /** The environment the CLI process saw (NAME=value lines). */
  cliEnv: Map<string, string>;
  /** Every file of the CLI's HOME as it started (`== <path>` and the content). */
  homeFiles: string;
  /** The environment the loop was started with. */
  loopEnv: Record<string, string>;
  outcome: AgentOutcome;
}

/** Runs the loop once with `preset` against a StandIn behaving as `behaviour`. */
async function runLoop(
  preset: NpmPreset,
  cliInstall: InstalledCli,
  behaviour: Behaviour,
  o: { config?: Parameters<typeof loopConfig>[1]; env?: Record<string, string>; geminiAuth?: boolean; isolation?: IsolationLevel; keyProxy?: boolean } = {},
): Promise<LoopRun> {
  const config = o.keyProxy ? { ...o.config, agentExtra: [o.config?.agentExtra, '  key_proxy: true'].filter(Boolean).join('\n') } : o.config;
  const repo = await makeRepo({ ...PLANTED_BUG, 'phuc-loop.yml': loopConfig(preset, config), 'NORTHSTAR.md': NORTHSTAR });
  const work = await openTempDir(`phuc-preset-${preset}-`);
  const standIn = await StandIn.start({ provider: PROVIDER[preset], behaviour, cwd: repo });
  try {
    const argvFile = join(work, 'argv');
    const envFile = join(work, 'env');
    const homeFile = join(work, 'home-files');
    // The shim records the argv, the environment and the HOME, then runs the real CLI.
    const shims = await argvShim(join(work, 'bin'), preset, cliInstall.bin, argvFile, envFile, homeFile);
    const env = {
      ...(await standInEnvironment(preset, standIn, join(work, 'home'), { geminiAuth: o.geminiAuth })),
      // Codex reaches the stand-in through a provider of its config; the key proxy's upstream is this variable.
      ...(o.keyProxy && preset === 'codex' ? { OPENAI_BASE_URL: `${standIn.url}/v1` } : {}),
      PATH: `${shims}:${process.env.PATH}`,
      ...o.env,
    };
    // The suite checks each preset's flags, parsing and failure handling at `none`; the sandbox
    // (which gives the agent a fresh HOME, not the CLI home made here) has its own hostile suite.
    const result = await cli(repo, ['run', '--isolation', o.isolation ?? 'none'], env);
    const log = await readFile(join(repo, EV, 'iter_0', 'agent.log'), 'utf8').catch(() => '');
    const argv = await readArgv(argvFile).catch(() => []);
    const cliEnv = new Map(
      (await readFile(envFile, 'utf8').catch(() => ''))
        .split('\0')
        .filter(Boolean)
        .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)] as [string, string]),
    );
    const homeFiles = await readFile(homeFile, 'utf8').catch(() => '');
    return { repo, result, standIn, argv, cliEnv, homeFiles, loopEnv: env, outcome: parseAgentOutcome(preset, agentLog(log)) };
  } finally {
    await standIn.close();
  }
}

/** The stdout, stderr and exit code of the agent, as agent.log records them. */
function agentLog(log: string): { stdout: string; stderr: string; exitCode: number | null } {
  const m = /^\$ agent \(exit (\w+)[^\n]*\n--- stdout ---\n([\s\S]*)\n--- stderr ---\n([\s\S]*)\n$/.exec(log);
  if (!m) return { stdout: '', stderr: '', exitCode: null };
  return { exitCode: /^\d+$/.test(m[1]) ? Number(m[1]) : null, stdout: m[2], stderr: m[3] };
}

/** Claude Code's list price of claude-sonnet-4-5 per million tokens: the cost it must report. */
function sonnetCost(u: StandIn['served']['usage']): string {
  const plain = u.input - u.cache_read - u.cache_write;
  return new Decimal(plain)
    .times(3)
    .plus(new Decimal(u.output).times(15))
    .plus(new Decimal(u.cache_write).times('3.75'))
    .plus(new Decimal(u.cache_read).times('0.3'))
    .div(1_000_000)
    .toString();
}

describe.each(NPM_PRESETS)('%s preset with the real CLI', (preset) => {
  let cliInstall: InstalledCli;

  beforeAll(async () => {
    cliInstall = await installCli(preset);
    if (cliInstall.installMs) console.log(`installed ${cliInstall.spec} in ${(cliInstall.installMs / 1000).toFixed(1)} s`);
  }, 600_000);

  describe('fixing the planted bug', () => {
    let run: LoopRun;
    beforeAll(async () => {
      run = await runLoop(preset, cliInstall, { kind: 'script', steps: FIX_STEPS });
    }, 300_000);

    test('the loop converges: the CLI edited the file with its own tools and wrote the report', async () => {
      expect(run.result.stdout).toMatch(/EXIT_CONVERGED\(EXACT\)/);
      expect(run.result.code).toBe(0);
      expect(await readFile(join(run.repo, 'src/sum.mjs'), 'utf8')).toBe('export const sum = (a, b) => a + b;\n');
      const artifacts = await readJson<{ report: { state: string } }>(join(run.repo, EV, 'iter_0', 'artifacts.json'));
      expect(artifacts.report.state).toBe('valid');
    });

    test('the CLI received exactly the preset argv', () => {
      const inv = agentInvocation({ preset, model: MODEL[preset], maxTurns: MAX_TOOL_CALLS, promptFile: 'unused by this preset' });
      expect(run.argv).toEqual(inv.args);
      expect(run.standIn.mainRequests.length).toBe(FIX_STEPS.length);
    });

    test('usage as the CLI reported it: tokens in/out/cache, tool calls (not turns), cost where it reports one', () => {
      const served = run.standIn.served;
      expect(run.outcome).toMatchObject({ failed: false, errorText: null, rateLimited: false, toolCalls: served.toolCalls, tokens: served.usage });
      // The stand-in's side answers (Claude Code's quota probe, Gemini's routing) count too, once.
      expect(served.toolCalls).toBe(FIX_STEPS.length - 1);
      if (preset === 'claude') expect(run.outcome.costUsd).toBe(sonnetCost(served.usage));
      else expect(run.outcome).toMatchObject({ costUsd: null, reported: { cost: false, tokens: true, toolCalls: true } });
    });

    test('no double memory: the CLI loaded no AGENTS.md of its own, while the prompt reached it', () => {
      const main = run.standIn.mainRequests;
      expect(main.some((r) => r.body.includes('Response contract'))).toBe(true);
      for (const r of run.standIn.requests) expect(r.body).not.toContain(MEMORY_MARKER);
    });

    test('nothing of the CLI is left in the repository or its commits', async () => {
      expect(await git(run.repo, 'status', '--porcelain', '--untracked-files=all')).toBe('');
      const tracked = (await git(run.repo, 'ls-files')).trim().split('\n');
      expect(tracked.filter((p) => /^\.(claude|codex|gemini|aider)/.test(p))).toEqual([]);
    });

    test('--version names the pinned version', async () => {
      const version = await cliVersion(preset, new NodeProcessRunner(), {
        env: { PATH: `${join(cliInstall.bin, '..')}:${process.env.PATH}`, HOME: run.repo },
        cwd: run.repo,
      });
      expect(version).toContain(PINNED[preset].split('@').at(-1));
    });

    // --- what the loop makes of it (wired by the loop: budget_log.json, evidence, environment) ---

    test('budget_log.json counts the tokens, the tool calls and the cost the CLI reported', async () => {
      const budget = await readJson<{ used: { tool_calls: number; cost_usd: string; tokens?: unknown } }>(join(run.repo, EV, 'budget_log.json'));
      expect(budget.used.tool_calls).toBe(run.standIn.served.toolCalls);
      expect(budget.used.tokens).toEqual(run.standIn.served.usage);
      if (preset === 'claude') expect(budget.used.cost_usd).toBe(sonnetCost(run.standIn.served.usage));
    });

    test('the preset environment reached the CLI, and the invocation is in the evidence without secrets', async () => {
      const inv = agentInvocation({ preset, model: MODEL[preset], maxTurns: MAX_TOOL_CALLS, promptFile: 'unused by this preset' });
      for (const [name, value] of Object.entries(inv.env)) expect(run.cliEnv.get(name)).toBe(value);
      const record = await readJson<{ argv: string[]; env_names: string[]; cli_version: string }>(join(run.repo, EV, 'iter_0', 'agent_invocation.json'));
      expect(record.argv).toEqual([preset, ...inv.args!]);
      // HOME, PATH and TMPDIR are the sandbox's to set for its user, never passed from the loop.
      expect(record.env_names).toEqual(expect.arrayContaining(Object.keys(inv.env)));
      expect(record.env_names).not.toContain('HOME');
      expect(record.cli_version).toContain(PINNED[preset].split('@').at(-1));
      const text = JSON.stringify(record);
      for (const [name, value] of run.cliEnv) if (/API_KEY/.test(name)) expect(text).not.toContain(value);
    });
  });

  test('an API error: the CLI fails and its own message is on the console', async () => {
    const run = await runLoop(preset, cliInstall, { kind: 'error', status: 400, message: REFUSAL });
    expect(run.outcome).toMatchObject({ failed: true, rateLimited: false });
    expect(run.outcome.errorText).toContain(REFUSAL);
    expect(run.result.stdout).not.toMatch(/EXIT_CONVERGED/);
    expect(run.result.stdout + run.result.stderr).toContain(REFUSAL);
  }, 300_000);

  test('a 429 is backpressure: the loop pauses, EXIT_BLOCKED(BACKPRESSURE_SIGNAL), with the CLI message', async () => {
    const run = await runLoop(preset, cliInstall, { kind: 'rate-limit' });
    expect(run.outcome).toMatchObject({ failed: true, rateLimited: true });
    expect(run.result.code).toBe(12);
    const report = await readJson<{ status: string; stop_reason: string }>(join(run.repo, EV, 'halting_report.json'));
    expect(report).toMatchObject({ status: 'EXIT_BLOCKED', stop_reason: 'BACKPRESSURE_SIGNAL' });
    expect(run.result.stdout).toContain(run.outcome.errorText!.slice(0, 60));
  }, 300_000);

  test('a hang ends at the idle limit, long before the time limit', async () => {
    // The idle limit must outlast the CLI's start before its first request (Gemini CLI: ~5 s on a busy 2-core machine).
    const run = await runLoop(preset, cliInstall, { kind: 'hang' }, { config: { agentExtra: '  idle_seconds: 10', secondsPerIteration: 45 } });
    expect(run.standIn.mainRequests.length).toBeGreaterThan(0);
    expect(run.result.stdout).toMatch(/iter 0: agent \d+\.\d s.*idle/);
    const seconds = Number(/iter 0: agent (\d+\.\d) s/.exec(run.result.stdout)?.[1]);
    expect(seconds).toBeLessThan(30);
  }, 300_000);

  describe.each(KEY_PROXY_LEVELS)('with agent.key_proxy: true at isolation %s', (level) => {
    let run: LoopRun;
    let realKey: string;
    beforeAll(async () => {
      // One more tool call before the last answer: the CLI's shell prints its environment to the model.
      const steps = [...FIX_STEPS.slice(0, -1), { shell: 'env | sort' }, ...FIX_STEPS.slice(-1)];
      run = await runLoop(preset, cliInstall, { kind: 'script', steps }, { keyProxy: true, isolation: level });
      realKey = run.loopEnv[KEY_VAR[preset]];
    }, 300_000);

    test('the loop converges through the proxy', async () => {
      expect(run.result.stdout).toMatch(/EXIT_CONVERGED\(EXACT\)/);
      expect(await readFile(join(run.repo, 'src/sum.mjs'), 'utf8')).toBe('export const sum = (a, b) => a + b;\n');
      expect(run.standIn.mainRequests.length).toBe(FIX_STEPS.length + 1);
    });

    test('the stand-in got the real key in every request, from the proxy', () => {
      const carried = run.standIn.requests.map((r) =>
        preset === 'claude'
          ? r.headers['x-api-key']
          : preset === 'codex'
            ? r.headers.authorization?.replace(/^Bearer /, '')
            : (r.headers['x-goog-api-key'] ?? new URL(r.path, 'http://x').searchParams.get('key')),
      );
      expect(carried.length).toBeGreaterThan(0);
      expect(new Set(carried)).toEqual(new Set([realKey]));
      // The CLI talked to the proxy, not to the stand-in the loop was pointed at: the proxy forwarded every request.
      if (preset === 'codex') expect(run.argv.join(' ')).toMatch(/model_providers\.phuc_key_proxy=.*base_url = "http:\/\/127\.0\.0\.1:\d+\/v1"/);
      else {
        const name = preset === 'claude' ? 'ANTHROPIC_BASE_URL' : 'GOOGLE_GEMINI_BASE_URL';
        expect(run.cliEnv.get(name)).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
        expect(run.cliEnv.get(name)).not.toBe(run.loopEnv[name]);
      }
    });

    test("the CLI's environment, HOME and shell held only the placeholder; no log or evidence holds the key", async () => {
      expect(run.cliEnv.get(PLACEHOLDER_VAR[preset])).toMatch(/^phuc-proxy-[0-9a-f]{48}$/);
      for (const [name, value] of run.cliEnv) expect({ name, holdsKey: value.includes(realKey) }).toEqual({ name, holdsKey: false });
      expect(run.homeFiles).not.toContain(realKey);
      // What the CLI's shell showed the model: the loop's iteration, no key.
      const bodies = run.standIn.requests.map((r) => r.body).join('\n');
      expect(bodies).toContain('PHUC_ITERATION=0');
      expect(bodies).not.toContain(realKey);
      expect(run.result.stdout + run.result.stderr).not.toContain(realKey);
      const evidence = join(run.repo, EV);
      for (const f of await readdir(evidence, { recursive: true, withFileTypes: true }))
        if (f.isFile())
          expect({ f: f.name, holdsKey: (await readFile(join(f.parentPath, f.name), 'utf8')).includes(realKey) }).toMatchObject({ holdsKey: false });
    });

    test('the agent ran in a HOME of its own, never the one the user gave the loop', () => {
      const home = run.cliEnv.get('HOME')!;
      // At `none` the agent shares the user's HOME, except when the proxy has files for it (Gemini's auth type).
      if (level === 'none' && preset !== 'gemini') expect(home).toBe(run.loopEnv.HOME);
      else expect(home).toMatch(/\/phuc-sandbox-[^/]+\/agent-\d+\/home$/);
      if (preset === 'gemini')
        expect(run.homeFiles).toBe(`== ${home}/.gemini/settings.json\n${JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } } })}\n`);
    });
  });

  if (preset === 'gemini')
    test('exit 41 (an auth method the CLI refuses): its message is on the console', async () => {
      const run = await runLoop(preset, cliInstall, { kind: 'script', steps: FIX_STEPS }, { geminiAuth: false });
      expect(run.outcome).toMatchObject({ failed: true, errorText: 'Invalid auth method selected.' });
      expect(run.result.stdout + run.result.stderr).toContain('Invalid auth method selected.');
    }, 300_000);

  if (preset === 'claude' && process.getuid?.() === 0)
    test('as root without IS_SANDBOX=1, Claude Code refuses to skip permissions: its message is on the console', async () => {
      const run = await runLoop(preset, cliInstall, { kind: 'script', steps: FIX_STEPS }, { env: { IS_SANDBOX: '' } });
      expect(run.outcome.errorText).toMatch(/--dangerously-skip-permissions cannot be used with root/);
      expect(run.result.stdout + run.result.stderr).toMatch(/--dangerously-skip-permissions cannot be used with root/);
    }, 300_000);
});
