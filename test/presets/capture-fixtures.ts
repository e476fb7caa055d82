// Re-captures test/fixtures/presets/*.json: what each pinned CLI prints, run with the preset's own
// command line against the StandIn, for the parser's unit tests. Run after a version bump:
//   npx tsx test/presets/capture-fixtures.ts [claude|codex|gemini ...]
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { agentInvocation } from '../../src/engine/agent/presets.js';
import { NodeProcessRunner } from '../../src/engine/os/process.js';
import { installCli, MODEL, NPM_PRESETS, type NpmPreset, openTempDir, PROVIDER, standInEnvironment } from './clis.js';
import { type Behaviour, StandIn } from './standin.js';
import { FIX_STEPS, PLANTED_BUG, REFUSAL } from './scenario.js';

const OUT = join(import.meta.dirname, '..', 'fixtures', 'presets');

interface Case {
  name: string;
  behaviour: Behaviour;
  extraArgs?: string[];
  env?: (env: Record<string, string>) => Record<string, string>;
  geminiAuth?: boolean;
}

const CASES: Record<NpmPreset, Case[]> = {
  claude: [
    { name: 'success', behaviour: { kind: 'script', steps: FIX_STEPS } },
    { name: 'success-json', behaviour: { kind: 'script', steps: FIX_STEPS }, extraArgs: ['--output-format', 'json'] },
    { name: 'api-error', behaviour: { kind: 'error', status: 400, message: REFUSAL } },
    { name: 'rate-limit', behaviour: { kind: 'rate-limit' } },
    // As root without IS_SANDBOX=1 the CLI refuses to skip permissions before any request.
    ...(process.getuid?.() === 0
      ? [{ name: 'root-refusal', behaviour: { kind: 'script', steps: FIX_STEPS }, env: ({ IS_SANDBOX: _, ...rest }: Record<string, string>) => rest } as Case]
      : []),
  ],
  codex: [
    { name: 'success', behaviour: { kind: 'script', steps: FIX_STEPS } },
    { name: 'api-error', behaviour: { kind: 'error', status: 400, message: REFUSAL } },
    { name: 'rate-limit', behaviour: { kind: 'rate-limit' } },
  ],
  gemini: [
    { name: 'success', behaviour: { kind: 'script', steps: FIX_STEPS } },
    { name: 'success-json', behaviour: { kind: 'script', steps: FIX_STEPS }, extraArgs: ['--output-format', 'json'] },
    { name: 'api-error', behaviour: { kind: 'error', status: 400, message: REFUSAL } },
    { name: 'rate-limit', behaviour: { kind: 'rate-limit' } },
    { name: 'auth-41', behaviour: { kind: 'script', steps: FIX_STEPS }, geminiAuth: false },
  ],
};

async function capture(preset: NpmPreset, c: Case): Promise<void> {
  const cli = await installCli(preset);
  const base = await openTempDir('phuc-capture-');
  const repo = join(base, 'repo');
  for (const [path, text] of Object.entries(PLANTED_BUG)) {
    await mkdir(join(repo, path, '..'), { recursive: true });
    await writeFile(join(repo, path), text);
  }
  const standIn = await StandIn.start({ provider: PROVIDER[preset], behaviour: c.behaviour, cwd: repo });
  try {
    const inv = agentInvocation({ preset, model: MODEL[preset], extraArgs: c.extraArgs, maxTurns: 20, promptFile: join(base, 'prompt.md') });
    let env = { PATH: `${join(cli.bin, '..')}:${process.env.PATH}`, PHUC_REPORT_FILE: join(repo, '.phuc-loop', 'report.json'), ...inv.env };
    env = { ...env, ...(await standInEnvironment(preset, standIn, join(base, 'home'), { geminiAuth: c.geminiAuth })) };
    if (c.env) env = c.env(env) as typeof env;
    await mkdir(join(repo, '.phuc-loop'), { recursive: true });
    const r = await new NodeProcessRunner().run({ command: inv.command, args: inv.args, cwd: repo, env, stdin: 'Fix the failing test.\n', timeoutMs: 120_000 });
    // Host paths and the stand-in's port are replaced, so a re-capture differs only where the CLI did.
    const norm = (s: string) => s.split(base).join('/work').split(standIn.url).join('http://127.0.0.1:PORT');
    const fixture = {
      cli: cli.spec,
      case: c.name,
      argv: [inv.command, ...(inv.args ?? [])],
      exitCode: r.exitCode,
      stdout: norm(r.stdout),
      stderr: norm(r.stderr),
      served: standIn.served,
    };
    await writeFile(join(OUT, `${preset}-${c.name}.json`), JSON.stringify(fixture, null, 1) + '\n');
    console.log(`${preset}-${c.name}: exit ${r.exitCode}, ${standIn.served.answers} answers, ${r.stdout.length} bytes`);
  } finally {
    await standIn.close();
    await rm(base, { recursive: true, force: true });
  }
}

await mkdir(OUT, { recursive: true });
const wanted = process.argv.slice(2).filter((p): p is NpmPreset => (NPM_PRESETS as string[]).includes(p));
for (const preset of wanted.length ? wanted : NPM_PRESETS) for (const c of CASES[preset]) await capture(preset, c);
