// Real temporary git repositories and the built CLI run as a child process (async, never sync).
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { EXIT_CODES } from '../../src/engine/run/fsm.js';
import { reachableCopy } from './reachable.js';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CLI = join(ROOT, 'dist', 'cli', 'index.js');
/** The fixtures, through a copy every user can read: the sandboxed agent and checks run them. */
export const FIXTURES = reachableCopy(join(ROOT, 'test', 'fixtures'), 'fixtures');
const exec = promisify(execFile);

export async function git(cwd: string, ...args: string[]): Promise<string> {
  const { stdout } = await exec('git', args, { cwd });
  return stdout;
}

/**
 * A folder (0777) where the checks, run as another user, keep state the test reads (a counter, a
 * start mark). The rest of the machine is read-only to them and /tmp their own: the config must list
 * it in agent.writable (config's `writable`).
 */
export async function checkStateDir(): Promise<string> {
  const dir = await mkdtemp(join(process.getuid?.() === 0 ? '/var/lib' : homedir(), 'phuc-test-state-'));
  await chmod(dir, 0o777);
  return dir;
}

/** A fresh git repository holding `files`, committed once on branch main. */
export async function makeRepo(files: Record<string, string>, name = 'repo'): Promise<string> {
  // mkdtemp makes a 0700 folder: the sandbox's unprivileged agent user could not reach the repo.
  const base = await mkdtemp(join(tmpdir(), 'phuc-it-'));
  await chmod(base, 0o755);
  const dir = join(base, name);
  await mkdir(dir, { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  await git(dir, 'init', '-q', '-b', 'main');
  await git(dir, 'config', 'user.email', 'test@example.com');
  await git(dir, 'config', 'user.name', 'test');
  await git(dir, 'add', '-A');
  await git(dir, 'commit', '-q', '-m', 'initial');
  return dir;
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliRun {
  child: ChildProcess;
  done: Promise<CliResult>;
  /** Resolves once stdout has printed a line matching `re`. */
  waitFor(re: RegExp): Promise<void>;
}

export function startCli(cwd: string, args: string[], env: Record<string, string> = {}): CliRun {
  const child = spawn(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const waiters: { re: RegExp; resolve: () => void }[] = [];
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
    for (const w of waiters.splice(0)) (w.re.test(stdout) ? w.resolve : () => waiters.push(w))();
  });
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<CliResult>((resolve) =>
    child.on('close', (code) => {
      // A crash (exit 1) is never what a test expects: its stack goes to the test log, where a rare
      // one (seen under two suites at once) can be read.
      if (code === EXIT_CODES.CRASH) process.stderr.write(`phuc-loop crashed in ${cwd} (${args.join(' ')}):\n${stderr.slice(-4000)}\n`);
      resolve({ code, stdout, stderr });
    }),
  );
  return {
    child,
    done,
    waitFor: (re) => new Promise<void>((resolve) => (re.test(stdout) ? resolve() : waiters.push({ re, resolve }))),
  };
}

export function cli(cwd: string, args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return startCli(cwd, args, env).done;
}

export async function readJson<T = Record<string, unknown>>(path: string): Promise<T> {
  return JSON.parse(await readFile(path, 'utf8')) as T;
}

export const agent = (name: string) => `node ${JSON.stringify(join(FIXTURES, 'agents', name))}`;

/** A config for tests: quick checks, small budgets; `over` is appended YAML. */
export function config(opts: {
  criteria: { id: string; run: string; agent_writes?: boolean; after?: string[] }[];
  agent: string;
  extra?: string;
  certificates?: string;
  rung?: number;
  /** agent.writable: folders the agent and the checks may write (a checkStateDir). */
  writable?: string[];
  /** agent.may_change: the allow-list. */
  mayChange?: string[];
}): string {
  return [
    'version: 2',
    'goal: Make the checks pass without weakening them.',
    'acceptance_criteria:',
    ...opts.criteria.flatMap((c) => [
      `  - id: ${c.id}`,
      `    run: ${JSON.stringify(c.run)}`,
      '    timeout_seconds: 60',
      ...(c.agent_writes ? ['    agent_writes: true'] : []),
      ...(c.after ? [`    after: ${JSON.stringify(c.after)}`] : []),
    ]),
    `certificates: ${opts.certificates ?? '[EXACT, CONVERGED, DIVERGED]'}`,
    'R_p: "1e-4"',
    `rung_target: ${opts.rung ?? 641}`,
    'agent:',
    '  use: command',
    `  run: ${JSON.stringify(opts.agent)}`,
    ...(opts.writable ? [`  writable: ${JSON.stringify(opts.writable)}`] : []),
    ...(opts.mayChange ? [`  may_change: ${JSON.stringify(opts.mayChange)}`] : []),
    'protected: ["test/**"]',
    opts.extra ?? '',
  ].join('\n');
}

/** A repository with two bugs (criteria `one` and `two`: fixed-1 and fixed-2 in src/status.txt) and `agentName` (a fixture) as its agent. */
export function twoBugRepo(agentName: string): Promise<string> {
  return makeRepo({
    'phuc-loop.yml': config({
      criteria: [
        { id: 'one', run: 'grep -q fixed-1 src/status.txt' },
        { id: 'two', run: 'grep -q fixed-2 src/status.txt' },
      ],
      agent: agent(agentName),
    }),
    'NORTHSTAR.md': NORTHSTAR,
    'src/status.txt': 'start\n',
  });
}

/**
 * A shell function `deep DIR`: 25 folders of 200 characters below DIR (a path past PATH_MAX, which no
 * single system call can name), the deepest one open to all, with a file in it.
 */
export const DEEP_SH = `deep() { ( cd "$1" && n=$(printf 'd%.0s' $(seq 200)) && i=0 && while [ $i -lt 25 ]; do mkdir -p $n && cd -P $n || exit 1; i=$((i + 1)); done && echo deep > f && chmod 777 . ); }`;

export const NORTHSTAR = `| id | metric | current | target | measure |
|---|---|---|---|---|
| residual | failing criteria | 1 | 0 | residual |
`;

/** Polls until `cond` holds, failing after `timeoutMs` with what was awaited: an event, never a fixed sleep. */
export async function until(cond: () => boolean | Promise<boolean>, timeoutMs = 20_000, what = 'condition'): Promise<void> {
  const t0 = Date.now();
  while (!(await cond())) {
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The agent of a sleepy repo has written its partial work and is now working (to be stopped). */
export const agentStarted = (repo: string) => until(() => existsSync(join(repo, 'src/partial.txt')), 30_000, 'the agent to write src/partial.txt');
