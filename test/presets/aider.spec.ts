// The aider preset. aider is a Python program (not on npm, and PyPI is not reachable from the CI
// machines), so by default its argv is checked against a stub that records it and parses it like
// aider's argparse (test/presets/aider-stub.mjs). With PHUC_PRESETS_AIDER set to a real aider
// executable, the same loop runs the real aider against the Anthropic stand-in (docs/presets.md).
import { chmod, copyFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { agentInvocation, parseAgentOutcome, REPORT_PATH } from '../../src/engine/agent/agents.js';
import { cli, git, makeRepo, NORTHSTAR, readJson } from '../helpers/repo.js';
import { argvShim, openTempDir, readArgv } from './clis.js';
import { aiderEdits, PLANTED_BUG } from './scenario.js';
import { StandIn } from './standin.js';

const EV = 'evidence/loop';
const REAL_AIDER = process.env.PHUC_PRESETS_AIDER;
const MODEL = REAL_AIDER ? 'anthropic/claude-sonnet-4-5' : 'sonnet';

const loopConfig = [
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
  '  max_seconds_per_iteration: 120',
  'agent:',
  '  use: aider',
  `  model: ${MODEL}`,
  'protected: ["test/**"]',
].join('\n');

function agentLog(log: string): { stdout: string; stderr: string; exitCode: number | null } {
  const m = /^\$ agent \(exit (\w+)[^\n]*\n--- stdout ---\n([\s\S]*)\n--- stderr ---\n([\s\S]*)\n$/.exec(log);
  return m ? { exitCode: /^\d+$/.test(m[1]) ? Number(m[1]) : null, stdout: m[2], stderr: m[3] } : { stdout: '', stderr: '', exitCode: null };
}

async function runAider(mode: 'fix' | 'auth-error') {
  const repo = await makeRepo({ ...PLANTED_BUG, 'phuc-loop.yml': loopConfig, 'NORTHSTAR.md': NORTHSTAR });
  const work = await openTempDir('phuc-preset-aider-');
  const standIn = await StandIn.start({
    provider: 'anthropic',
    main: 'all',
    cwd: repo,
    behaviour: mode === 'fix' ? { kind: 'script', steps: aiderEdits(REPORT_PATH) } : { kind: 'error', status: 401, message: 'invalid x-api-key' },
  });
  try {
    let target = REAL_AIDER;
    if (!target) {
      target = join(work, 'aider-stub.mjs');
      await copyFile(join(import.meta.dirname, 'aider-stub.mjs'), target);
      await chmod(target, 0o755);
    }
    const shims = await argvShim(join(work, 'bin'), 'aider', target, join(work, 'argv'), join(work, 'env'));
    const env: Record<string, string> = {
      PATH: `${shims}:${process.env.PATH}`,
      HOME: join(work, 'home'),
      ANTHROPIC_API_KEY: 'sk-ant-standin-4f1c9e2a7b',
      // litellm reads either name, depending on its version.
      ANTHROPIC_API_BASE: standIn.url,
      ANTHROPIC_BASE_URL: standIn.url,
      STUB_AIDER_MODE: mode,
    };
    // The suite checks each preset's flags, parsing and failure handling; the sandbox (which gives the agent a fresh HOME, not the CLI home made here) has its own hostile suite.
    const result = await cli(repo, ['run', '--isolation', 'none'], env);
    const log = await readFile(join(repo, EV, 'iter_0', 'agent.log'), 'utf8').catch(() => '');
    return { repo, result, standIn, argv: await readArgv(join(work, 'argv')).catch(() => []), outcome: parseAgentOutcome('aider', agentLog(log)) };
  } finally {
    await standIn.close();
  }
}

describe(`aider preset (${REAL_AIDER ? `real aider: ${REAL_AIDER}` : 'argv stub'})`, () => {
  describe('fixing the planted bug', () => {
    let run: Awaited<ReturnType<typeof runAider>>;
    beforeAll(async () => {
      run = await runAider('fix');
    }, 300_000);

    test('aider accepts the preset argv (message file from the exchange folder of the loop, the report file to edit)', () => {
      // The prompt is where the loop put it for the agent; the rest is the preset's, word for word.
      const promptFile = run.argv[1];
      expect(promptFile).toMatch(/\/agent-io-[^/]+\/prompt\.md$/); // the folder the loop shares with the agent user
      const inv = agentInvocation({ preset: 'aider', model: MODEL, promptFile, reportFile: REPORT_PATH, maxTurns: 25 });
      expect(run.argv).toEqual(inv.args);
      expect(run.argv.slice(-2)).toEqual(['--no-auto-commits', '--no-dirty-commits']);
    });

    test('the loop converges with the report aider wrote into the file it was given', async () => {
      expect(run.result.stdout).toMatch(/EXIT_CONVERGED\(EXACT\)/);
      expect(await readFile(join(run.repo, 'src/sum.mjs'), 'utf8')).toBe('export const sum = (a, b) => a + b;\n');
      expect((await readJson<{ report: { state: string } }>(join(run.repo, EV, 'iter_0', 'artifacts.json'))).report.state).toBe('valid');
    });

    test("aider's usage lines: tokens and cost as it printed them, tool calls not reported", () => {
      if (REAL_AIDER) expect(run.outcome.tokens?.output).toBeGreaterThan(0);
      else expect(run.outcome).toMatchObject({ costUsd: '0.0042', tokens: { input: 2400, cache_read: 1500, cache_write: 0, output: 95 }, turns: 1 });
      expect(run.outcome).toMatchObject({ failed: false, toolCalls: null, reported: { cost: true, tokens: true, toolCalls: false } });
    });

    test("aider's own files stay out of the repository's status and commits", async () => {
      expect(await git(run.repo, 'status', '--porcelain', '--untracked-files=all')).toBe('');
      expect((await git(run.repo, 'ls-files')).split('\n').filter((p) => p.startsWith('.aider') || p.startsWith('.phuc-loop'))).toEqual([]);
    });
  });

  test('an API error on exit 0 is an agent failure, with aider’s message on the console', async () => {
    const run = await runAider('auth-error');
    expect(run.outcome).toMatchObject({ failed: true, rateLimited: false });
    expect(run.outcome.errorText).toMatch(/AuthenticationError.*invalid x-api-key/);
    expect(run.result.stdout).not.toMatch(/EXIT_CONVERGED/);
    expect(run.result.stdout + run.result.stderr).toMatch(/invalid x-api-key/);
  }, 300_000);
});
