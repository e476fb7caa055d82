// The real agent CLIs for the conformance suite: pinned versions installed once into a cache outside
// the repository, and the home directory and environment that point each one at a StandIn.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Provider, StandIn } from './standin.js';

/**
 * The CLI versions the suite runs: those the reusable workflow installs, read from the one file that
 * pins them (.github/agent-clis/package.json, bumped by Dependabot, whose pull request runs this suite).
 */
const PINS = (JSON.parse(readFileSync(new URL('../../.github/agent-clis/package.json', import.meta.url), 'utf8')) as { dependencies: Record<string, string> })
  .dependencies;
const pin = (name: string) => {
  const v = PINS[name];
  if (!v || !/^\d+\.\d+\.\d+$/.test(v)) throw new Error(`.github/agent-clis/package.json: ${name} must be pinned to an exact version, got ${v}`);
  return `${name}@${v}`;
};
export const PINNED = {
  claude: pin('@anthropic-ai/claude-code'),
  codex: pin('@openai/codex'),
  gemini: pin('@google/gemini-cli'),
};
export type NpmPreset = keyof typeof PINNED;
export const NPM_PRESETS = Object.keys(PINNED) as NpmPreset[];

export const PROVIDER: Record<NpmPreset, Provider> = { claude: 'anthropic', codex: 'openai', gemini: 'gemini' };

/** A model each CLI knows: Claude Code prices it (a cost), Codex has its metadata (apply_patch). */
export const MODEL: Record<NpmPreset, string> = { claude: 'claude-sonnet-4-5', codex: 'gpt-5.5', gemini: 'gemini-2.5-pro' };

/**
 * Where the CLIs are installed: $PHUC_PRESETS_CACHE, else /var/tmp/phuc-loop-presets (kept across
 * reboots, and traversable by the unprivileged user the agents will run as; root's ~/.cache is not).
 */
export function cacheRoot(): string {
  return process.env.PHUC_PRESETS_CACHE || join('/var/tmp', 'phuc-loop-presets');
}

function run(cmd: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('close', (code) => resolve({ code, out }));
    child.on('error', (e) => resolve({ code: null, out: String(e) }));
  });
}

export interface InstalledCli {
  preset: NpmPreset;
  spec: string;
  /** The CLI's executable. */
  bin: string;
  /** Milliseconds spent installing now (0 when it came from the cache). */
  installMs: number;
}

/** Installs the pinned CLI into the cache unless it is there already (a marker names the spec). */
export async function installCli(preset: NpmPreset): Promise<InstalledCli> {
  const spec = PINNED[preset];
  const root = cacheRoot();
  const dir = join(root, spec.replace(/^@/, '').replace(/[/@]/g, '-'));
  const bin = join(dir, 'node_modules', '.bin', preset);
  const marker = join(dir, '.phuc-installed');
  if ((await readFile(marker, 'utf8').catch(() => '')) === spec) return { preset, spec, bin, installMs: 0 };

  await mkdir(root, { recursive: true, mode: 0o755 });
  const owner = (await stat(root)).uid;
  if (process.getuid && owner !== process.getuid()) throw new Error(`${root} belongs to uid ${owner}, not to this user: set PHUC_PRESETS_CACHE`);
  const started = performance.now();
  // Installed beside the final place and renamed: a half-finished install is never taken for one.
  const staging = await mkdtemp(`${dir}.partial-`);
  const r = await run('npm', ['install', '--prefix', staging, '--no-audit', '--no-fund', '--no-save', '--loglevel=error', spec]);
  if (r.code !== 0) {
    await rm(staging, { recursive: true, force: true });
    throw new Error(`npm install ${spec} failed (exit ${r.code}):\n${r.out}`);
  }
  await chmod(staging, 0o755);
  await writeFile(join(staging, '.phuc-installed'), spec);
  await rm(dir, { recursive: true, force: true });
  await rename(staging, dir);
  return { preset, spec, bin, installMs: Math.round(performance.now() - started) };
}

/** A 0755 folder for homes, shims and repositories: the sandbox's agent user must reach them. */
export async function openTempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  await chmod(dir, 0o755);
  return dir;
}

/**
 * A home directory for the CLI and the variables that send it to the stand-in. Retries are turned
 * off through each CLI's own setting, so a 429 or an error ends the agent at once instead of after
 * minutes of back-off (the loop's handling of the failure is what the suite tests).
 */
export async function standInEnvironment(
  preset: NpmPreset,
  standIn: StandIn,
  home: string,
  opts: { geminiAuth?: boolean } = {},
): Promise<Record<string, string>> {
  await mkdir(home, { recursive: true, mode: 0o755 });
  switch (preset) {
    case 'claude':
      // IS_SANDBOX=1: Claude Code refuses --dangerously-skip-permissions as root without it.
      return { HOME: home, ANTHROPIC_BASE_URL: standIn.url, ANTHROPIC_API_KEY: 'sk-ant-standin-4f1c9e2a7b', CLAUDE_CODE_MAX_RETRIES: '0', IS_SANDBOX: '1' };
    case 'codex':
      await mkdir(join(home, '.codex'), { recursive: true });
      await writeFile(
        join(home, '.codex', 'config.toml'),
        [
          'model_provider = "standin"',
          '[model_providers.standin]',
          'name = "standin"',
          `base_url = "${standIn.url}/v1"`,
          'env_key = "OPENAI_API_KEY"',
          'wire_api = "responses"',
          'request_max_retries = 0',
          'stream_max_retries = 0',
          '',
        ].join('\n'),
      );
      return { HOME: home, OPENAI_API_KEY: 'sk-standin-9d2e61b0c4a7' };
    case 'gemini': {
      await mkdir(join(home, '.gemini'), { recursive: true });
      // Without selectedType, GOOGLE_GEMINI_BASE_URL selects the "gateway" auth type, which the CLI
      // then refuses with exit 41 "Invalid auth method selected." (one of the suite's failure cases).
      const settings = { ...(opts.geminiAuth === false ? {} : { security: { auth: { selectedType: 'gemini-api-key' } } }), general: { maxAttempts: 1 } };
      await writeFile(join(home, '.gemini', 'settings.json'), JSON.stringify(settings));
      return { HOME: home, GEMINI_API_KEY: 'standin-gemini-key-73a1', GOOGLE_GEMINI_BASE_URL: standIn.url };
    }
  }
}

/**
 * A folder with one executable named like the CLI that records the argv it was given and its
 * environment (NUL-separated records), then runs the real CLI: what the CLI received, asserted as is.
 * With `homeFile`, also every file of its HOME as it starts (`== <path>` and the content, each).
 */
export async function argvShim(dir: string, name: string, target: string, argvFile: string, envFile: string, homeFile?: string): Promise<string> {
  await mkdir(dir, { recursive: true, mode: 0o755 });
  const records = homeFile ? [argvFile, envFile, homeFile] : [argvFile, envFile];
  // Writable by the unprivileged user the sandbox runs agents as.
  for (const record of records) {
    await writeFile(record, '');
    await chmod(record, 0o666);
  }
  const home = homeFile ? `find "$HOME" -type f -exec sh -c 'for f; do printf "== %s\\n" "$f"; cat "$f"; done' sh {} + > ${shq(homeFile)}\n` : '';
  const file = join(dir, name);
  await writeFile(
    file,
    `#!/bin/sh\n: > ${shq(argvFile)}\nfor a in "$@"; do printf '%s\\0' "$a" >> ${shq(argvFile)}; done\nenv -0 > ${shq(envFile)}\n${home}exec ${shq(target)} "$@"\n`,
  );
  await chmod(file, 0o755);
  return dir;
}

export async function readArgv(argvFile: string): Promise<string[]> {
  const text = await readFile(argvFile, 'utf8');
  return text ? text.split('\0').slice(0, -1) : [];
}

const shq = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
