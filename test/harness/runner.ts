// A stand-in for the GitHub Actions runner, enough to run a bundled node action step the way
// the runner does: INPUT_* from `with:` plus action.yml defaults, fresh file-command files per
// step, an event payload file, `node <runs.main|runs.post>` as an async child process in the
// workspace, outputs/state parsed from the heredoc file format, STATE_* handed to the post step,
// and cancellation as the runner does it (SIGINT, 7.5 s, SIGTERM, 2.5 s, kill).
// Never use spawnSync here: the GitHub emulator usually lives in the same process.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import YAML from 'yaml';
import { traversableTempDir } from './git-origin.js';

export type StepEntry = 'pre' | 'main' | 'post';

export interface ActionStepOptions {
  /** Directory holding action.yml (or action.yaml) and the bundle it points at. */
  actionDir: string;
  entry: StepEntry;
  /** `with:` values; names as written in action.yml. Defaults fill the rest. */
  inputs?: Record<string, string | number | boolean>;
  /** Step environment on top of the runner's (usually `run.env()` from the emulator, plus git env). */
  env?: Record<string, string>;
  /** Written to GITHUB_EVENT_PATH. */
  eventPayload?: unknown;
  /** Node used for `runs.using: node24`; default PHUC_ACTION_NODE or the current node. */
  nodeBinary?: string;
  /** GITHUB_WORKSPACE and the step's working directory (default: a fresh temp dir). */
  workspace?: string;
  /** Working directory when it should differ from the workspace. */
  cwd?: string;
  /** RUNNER_TEMP (default: a fresh temp dir); file-command files go below it. */
  runnerTemp?: string;
  /** State saved by the main step (`result.state`); passed as STATE_<name> to post. */
  stateFromMain?: Record<string, string>;
  /** Value of `${{ github.token }}` in action.yml defaults. */
  token?: string;
  /** Also pass the whole test-process environment through (default: only PATH, HOME, locale, TZ, TMPDIR). */
  inheritEnv?: boolean;
  /** Called with each chunk of the step's output as it arrives. */
  onOutput?: (chunk: string, stream: 'stdout' | 'stderr') => void;
  /** Cancel (runner-style) after this long. */
  timeoutMs?: number;
}

export interface Annotation {
  level: 'error' | 'warning' | 'notice' | 'debug';
  message: string;
  properties: Record<string, string>;
}

export interface StepFiles {
  output: string;
  state: string;
  env: string;
  path: string;
  summary: string;
  event: string;
}

export interface StepResult {
  /** null when the step ended by a signal. */
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** True when cancel() (or timeoutMs) ended the step. */
  cancelled: boolean;
  outputs: Record<string, string>;
  state: Record<string, string>;
  /** Variables the step exported through GITHUB_ENV. */
  env: Record<string, string>;
  /** Directories the step added through GITHUB_PATH. */
  path: string[];
  summary: string;
  stdout: string;
  stderr: string;
  /** `::error ...::`, `::warning::`, `::notice::`, `::debug::` commands from stdout. */
  annotations: Annotation[];
  /** Values registered with `::add-mask::`. */
  masks: string[];
  /** Whether processes of the step's process group were still alive after it ended (then killed). */
  leftoverProcesses: boolean;
  durationMs: number;
  files: StepFiles;
  /** The exact environment the step got (for debugging tests). */
  stepEnv: Record<string, string>;
  /** What the runner would warn about, e.g. `Unexpected input(s) 'x'` for `with:` keys action.yml lacks. */
  warnings: string[];
}

export interface StepHandle {
  pid: number;
  done: Promise<StepResult>;
  /** Sends a signal to the step's node process only (as the runner does). */
  kill(signal?: NodeJS.Signals): boolean;
  /** Runner-style cancellation: SIGINT, after sigintMs SIGTERM, after sigtermMs SIGKILL to the group. */
  cancel(opts?: { sigintMs?: number; sigtermMs?: number }): Promise<StepResult>;
  /** Resolves when stdout+stderr so far match (rejects after timeoutMs or when the step ends first). */
  waitForOutput(pattern: RegExp | string, timeoutMs?: number): Promise<void>;
}

interface ActionYaml {
  name?: string;
  inputs?: Record<string, { default?: string | number | boolean | null; required?: boolean; description?: string }>;
  outputs?: Record<string, unknown>;
  runs: { using: string; main?: string; pre?: string; post?: string; 'pre-if'?: string; 'post-if'?: string };
}

const PASS_THROUGH = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TZ', 'TMPDIR', 'USER', 'SHELL'];
/** Dropped even from an inherited environment. */
const NEVER_PASSED = ['HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy', 'NODE_OPTIONS'];

export async function readActionYaml(actionDir: string): Promise<ActionYaml> {
  const file = ['action.yml', 'action.yaml'].map((f) => join(actionDir, f)).find((f) => existsSync(f));
  if (!file) throw new Error(`no action.yml in ${actionDir}`);
  const doc = YAML.parse(await readFile(file, 'utf8')) as ActionYaml;
  if (!doc?.runs?.using) throw new Error(`${file}: runs.using is missing`);
  return doc;
}

/** `INPUT_<NAME>`: upper-cased, spaces to `_`, hyphens kept (as @actions/core reads it). */
export function inputEnvName(name: string): string {
  return `INPUT_${name.replace(/ /g, '_').toUpperCase()}`;
}

/**
 * Parses a GITHUB_OUTPUT / GITHUB_STATE / GITHUB_ENV file: `name<<DELIM` … `DELIM` blocks and
 * `name=value` lines, later values winning, as the runner does.
 */
export function parseFileCommands(content: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = content.split('\n').map((l) => l.replace(/\r$/, ''));
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line === '') continue;
    const eq = line.indexOf('=');
    const hd = line.indexOf('<<');
    if (eq >= 0 && (hd < 0 || eq < hd)) {
      out[line.slice(0, eq)] = line.slice(eq + 1);
      continue;
    }
    if (hd <= 0) throw new Error(`invalid file command line: ${JSON.stringify(line)}`);
    const name = line.slice(0, hd);
    const delim = line.slice(hd + 2);
    if (!delim) throw new Error(`empty heredoc delimiter for ${name}`);
    const value: string[] = [];
    let closed = false;
    for (i++; i < lines.length; i++) {
      if (lines[i] === delim) {
        closed = true;
        break;
      }
      value.push(lines[i]);
    }
    if (!closed) throw new Error(`unterminated heredoc for ${name} (delimiter ${delim})`);
    out[name] = value.join('\n');
  }
  return out;
}

function unescapeCommand(s: string, property = false): string {
  let r = s.replace(/%0D/gi, '\r').replace(/%0A/gi, '\n');
  if (property) r = r.replace(/%3A/gi, ':').replace(/%2C/gi, ',');
  return r.replace(/%25/g, '%');
}

/** Workflow commands (`::error file=a::msg`, `::add-mask::x`) from a step's stdout. */
export function parseWorkflowCommands(stdout: string): { annotations: Annotation[]; masks: string[] } {
  const annotations: Annotation[] = [];
  const masks: string[] = [];
  for (const line of stdout.split('\n')) {
    const m = /^::([a-z-]+)( [^:]*)?::(.*)$/.exec(line.replace(/\r$/, ''));
    if (!m) continue;
    const [, cmd, props, msg] = m;
    if (cmd === 'add-mask') {
      masks.push(unescapeCommand(msg));
      continue;
    }
    if (cmd !== 'error' && cmd !== 'warning' && cmd !== 'notice' && cmd !== 'debug') continue;
    const properties: Record<string, string> = {};
    for (const kv of (props ?? '').trim().split(',').filter(Boolean)) {
      const i = kv.indexOf('=');
      if (i > 0) properties[kv.slice(0, i).trim()] = unescapeCommand(kv.slice(i + 1), true);
    }
    annotations.push({ level: cmd, message: unescapeCommand(msg), properties });
  }
  return { annotations, masks };
}

/** `${{ a.b.c }}` against a small context (github.*, runner.*, env.*); unknown names throw. */
function evaluate(template: string, context: Record<string, unknown>): string {
  return template.replace(/\$\{\{\s*([^}]*?)\s*\}\}/g, (_, expr: string) => {
    if (!/^[A-Za-z_][\w-]*(\.[\w-]+)*$/.test(expr)) throw new Error(`runner stand-in cannot evaluate expression \${{ ${expr} }} in action.yml`);
    let v: unknown = context;
    for (const part of expr.split('.')) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[part] : undefined;
    if (v === undefined) throw new Error(`expression \${{ ${expr} }} has no value in the runner stand-in (pass token/env/eventPayload)`);
    return typeof v === 'string' ? v : JSON.stringify(v);
  });
}

async function readIfExists(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch {
    return '';
  }
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Starts one step and returns at once; await `.done` for the result. */
export function startActionStep(opts: ActionStepOptions): StepHandle {
  let resolveStarted!: (h: { pid: number; kill: (s?: NodeJS.Signals) => boolean }) => void;
  let rejectStarted!: (e: unknown) => void;
  const started = new Promise<{ pid: number; kill: (s?: NodeJS.Signals) => boolean }>((res, rej) => {
    resolveStarted = res;
    rejectStarted = rej;
  });
  started.catch(() => undefined); // a failure surfaces through `done`
  let output = '';
  const waiters: { test: (s: string) => boolean; resolve: () => void; reject: (e: Error) => void; timer?: NodeJS.Timeout }[] = [];
  let cancelled = false;
  let finished = false;
  let childPid = 0;

  const done = (async (): Promise<StepResult> => {
    const action = await readActionYaml(opts.actionDir);
    if (!/^node(16|20|24)$/.test(action.runs.using)) throw new Error(`runner stand-in runs node actions only, got runs.using: ${action.runs.using}`);
    const script = action.runs[opts.entry];
    if (!script) throw new Error(`action.yml has no runs.${opts.entry}`);
    const workspace = opts.workspace ?? opts.env?.['GITHUB_WORKSPACE'] ?? (await traversableTempDir('phuc-harness-ws-'));
    const runnerTemp = opts.runnerTemp ?? (await traversableTempDir('phuc-harness-rt-'));
    const cmdDir = join(runnerTemp, '_runner_file_commands');
    await mkdir(cmdDir, { recursive: true });
    await mkdir(join(runnerTemp, '_github_workflow'), { recursive: true });
    const id = randomUUID();
    const files: StepFiles = {
      output: join(cmdDir, `set_output_${id}`),
      state: join(cmdDir, `save_state_${id}`),
      env: join(cmdDir, `set_env_${id}`),
      path: join(cmdDir, `add_path_${id}`),
      summary: join(cmdDir, `step_summary_${id}`),
      event: join(runnerTemp, '_github_workflow', `event_${id}.json`),
    };
    for (const f of [files.output, files.state, files.env, files.path, files.summary]) await writeFile(f, '');
    await writeFile(files.event, JSON.stringify(opts.eventPayload ?? {}, null, 2));

    const base: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env))
      if (v !== undefined && (opts.inheritEnv ? !NEVER_PASSED.includes(k) : PASS_THROUGH.includes(k))) base[k] = v;

    const stepEnv: Record<string, string> = {
      ...base,
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_SERVER_URL: 'https://github.com',
      RUNNER_OS: 'Linux',
      RUNNER_ARCH: 'X64',
      RUNNER_NAME: 'emulated-runner',
      RUNNER_ENVIRONMENT: 'github-hosted',
      RUNNER_TOOL_CACHE: join(runnerTemp, '_tool'),
      GITHUB_ACTION: '__phuc_loop',
      GITHUB_ACTION_PATH: resolve(opts.actionDir),
      GITHUB_ACTION_REPOSITORY: '',
      GITHUB_ACTION_REF: '',
      NO_PROXY: '127.0.0.1,localhost',
      no_proxy: '127.0.0.1,localhost',
      ...opts.env,
      GITHUB_WORKSPACE: workspace,
      RUNNER_TEMP: runnerTemp,
      GITHUB_EVENT_PATH: files.event,
      GITHUB_OUTPUT: files.output,
      GITHUB_STATE: files.state,
      GITHUB_ENV: files.env,
      GITHUB_PATH: files.path,
      GITHUB_STEP_SUMMARY: files.summary,
    };
    const context = {
      github: {
        token: opts.token,
        repository: stepEnv['GITHUB_REPOSITORY'],
        repository_owner: stepEnv['GITHUB_REPOSITORY_OWNER'],
        run_id: stepEnv['GITHUB_RUN_ID'],
        run_attempt: stepEnv['GITHUB_RUN_ATTEMPT'],
        server_url: stepEnv['GITHUB_SERVER_URL'],
        api_url: stepEnv['GITHUB_API_URL'],
        workspace,
        sha: stepEnv['GITHUB_SHA'],
        ref: stepEnv['GITHUB_REF'],
        head_ref: stepEnv['GITHUB_HEAD_REF'],
        base_ref: stepEnv['GITHUB_BASE_REF'],
        event_name: stepEnv['GITHUB_EVENT_NAME'],
        actor: stepEnv['GITHUB_ACTOR'],
        event: opts.eventPayload ?? {},
      },
      runner: { temp: runnerTemp, os: 'Linux', arch: 'X64' },
      env: stepEnv,
    };
    const given = new Map(Object.entries(opts.inputs ?? {}).map(([k, v]) => [k, String(v)]));
    for (const [name, spec] of Object.entries(action.inputs ?? {})) {
      const value = given.has(name) ? given.get(name)! : spec?.default !== undefined && spec.default !== null ? evaluate(String(spec.default), context) : '';
      stepEnv[inputEnvName(name)] = value;
      given.delete(name);
    }
    // Unknown `with:` keys: the runner warns and still sets them.
    const warnings: string[] = [];
    if (given.size > 0)
      warnings.push(
        `Unexpected input(s) ${[...given.keys()].map((k) => `'${k}'`).join(', ')}, valid inputs are [${Object.keys(action.inputs ?? {})
          .map((k) => `'${k}'`)
          .join(', ')}]`,
      );
    for (const [name, value] of given) stepEnv[inputEnvName(name)] = value;
    if (opts.entry === 'post') for (const [k, v] of Object.entries(opts.stateFromMain ?? {})) stepEnv[`STATE_${k}`] = v;

    const node = opts.nodeBinary ?? process.env['PHUC_ACTION_NODE'] ?? process.execPath;
    const t0 = Date.now();
    const child = spawn(node, [resolve(opts.actionDir, script)], {
      cwd: opts.cwd ?? workspace,
      env: stepEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    const onData = (stream: 'stdout' | 'stderr') => (chunk: Buffer) => {
      const s = chunk.toString('utf8');
      if (stream === 'stdout') stdout += s;
      else stderr += s;
      output += s;
      opts.onOutput?.(s, stream);
      for (const w of [...waiters])
        if (w.test(output)) {
          waiters.splice(waiters.indexOf(w), 1);
          clearTimeout(w.timer);
          w.resolve();
        }
    };
    child.stdout.on('data', onData('stdout'));
    child.stderr.on('data', onData('stderr'));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((res, rej) => {
      child.on('error', rej);
      child.on('close', (code, signal) => res({ code, signal }));
    });
    childPid = child.pid!;
    resolveStarted({ pid: child.pid!, kill: (s?: NodeJS.Signals) => child.kill(s ?? 'SIGTERM') });
    let timeout: NodeJS.Timeout | undefined;
    if (opts.timeoutMs) timeout = setTimeout(() => void handle.cancel(), opts.timeoutMs);
    const { code, signal } = await exited;
    clearTimeout(timeout);
    finished = true;
    const leftoverProcesses = groupAlive(child.pid!);
    if (leftoverProcesses) {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        /* gone meanwhile */
      }
    }
    for (const w of waiters.splice(0)) {
      clearTimeout(w.timer);
      w.reject(new Error(`step ended (exit ${code ?? signal}) before its output matched`));
    }
    const { annotations, masks } = parseWorkflowCommands(stdout);
    return {
      exitCode: code,
      signal,
      cancelled,
      outputs: parseFileCommands(await readIfExists(files.output)),
      state: parseFileCommands(await readIfExists(files.state)),
      env: parseFileCommands(await readIfExists(files.env)),
      path: (await readIfExists(files.path))
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean),
      summary: await readIfExists(files.summary),
      stdout,
      stderr,
      annotations,
      masks,
      leftoverProcesses,
      durationMs: Date.now() - t0,
      files,
      stepEnv,
      warnings,
    };
  })();
  done.catch((e: unknown) => rejectStarted(e));

  const handle: StepHandle = {
    get pid() {
      return childPid;
    },
    done,
    kill(signal: NodeJS.Signals = 'SIGTERM') {
      if (!childPid || finished) return false;
      try {
        process.kill(childPid, signal);
        return true;
      } catch {
        return false;
      }
    },
    async cancel({ sigintMs = 7500, sigtermMs = 2500 } = {}) {
      await started;
      cancelled = true;
      const ended = done.then(
        () => true,
        () => true,
      );
      const waitFor = (ms: number) => Promise.race([ended, new Promise<false>((r) => setTimeout(() => r(false), ms).unref())]);
      handle.kill('SIGINT');
      if (!(await waitFor(sigintMs))) {
        handle.kill('SIGTERM');
        if (!(await waitFor(sigtermMs))) {
          try {
            process.kill(-childPid, 'SIGKILL');
          } catch {
            /* already gone */
          }
        }
      }
      return done;
    },
    waitForOutput(pattern: RegExp | string, timeoutMs = 30_000) {
      const test = (s: string) => (typeof pattern === 'string' ? s.includes(pattern) : pattern.test(s));
      if (test(output)) return Promise.resolve();
      if (finished) return Promise.reject(new Error('step already ended'));
      return new Promise<void>((res, rej) => {
        const w = { test, resolve: res, reject: rej, timer: undefined as NodeJS.Timeout | undefined };
        w.timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(w), 1);
          rej(new Error(`output did not match ${String(pattern)} within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.push(w);
      });
    },
  };
  return handle;
}

/** Runs one step to completion. */
export function runActionStep(opts: ActionStepOptions): Promise<StepResult> {
  return startActionStep(opts).done;
}

/** Evaluates runs.post-if / pre-if the way the runner does for the common forms. */
function statusCondition(cond: string | undefined, mainOk: boolean, mainCancelled: boolean): boolean {
  const c = (cond ?? 'always()').replace(/^\$\{\{\s*|\s*\}\}$/g, '').trim();
  if (c === 'always()') return true;
  if (c === 'success()') return mainOk && !mainCancelled;
  if (c === 'failure()') return !mainOk && !mainCancelled;
  if (c === 'cancelled()') return mainCancelled;
  if (c === '!cancelled()') return !mainCancelled;
  throw new Error(`runner stand-in cannot evaluate post-if: ${cond}`);
}

export interface JobResult {
  main: StepResult;
  /** undefined when the action has no post entry or post-if was false. */
  post?: StepResult;
}

/**
 * main then (per runs.post-if, default always()) post with main's state, sharing workspace and
 * RUNNER_TEMP. `onMainStarted` gets the main step's handle (e.g. to cancel it mid-run).
 */
export async function runActionJob(
  opts: Omit<ActionStepOptions, 'entry' | 'stateFromMain'> & { onMainStarted?: (h: StepHandle) => void | Promise<void> },
): Promise<JobResult> {
  const action = await readActionYaml(opts.actionDir);
  const workspace = opts.workspace ?? opts.env?.['GITHUB_WORKSPACE'] ?? (await traversableTempDir('phuc-harness-ws-'));
  const runnerTemp = opts.runnerTemp ?? (await traversableTempDir('phuc-harness-rt-'));
  const h = startActionStep({ ...opts, entry: 'main', workspace, runnerTemp });
  if (opts.onMainStarted) await opts.onMainStarted(h);
  const main = await h.done;
  if (!action.runs.post) return { main };
  const ok = main.exitCode === 0;
  if (!statusCondition(action.runs['post-if'], ok, main.cancelled)) return { main };
  const post = await runActionStep({
    ...opts,
    entry: 'post',
    workspace,
    runnerTemp,
    stateFromMain: main.state,
    timeoutMs: undefined,
    env: { ...opts.env, ...main.env },
  });
  return { main, post };
}
