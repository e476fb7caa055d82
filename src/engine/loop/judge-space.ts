// The judge space: where the criteria and everything else that executes the agent's code run.
// `clean` (the default) is a loop-owned checkout of exactly the judged tree, with a fresh HOME and
// no global git/npm configuration (SPEC §7); `live` is the agent's own work tree, weaker (what the
// agent left beside the tracked files counts) and said so in every certificate.
import { join } from 'node:path';
import { CheckWorkspace, type CheckWorkspaceOptions } from '../judge/workspace.js';
import type { SetupOutcome } from '../judge/setup-outputs.js';
import { agentEnvironment } from '../os/secrets.js';
import { withoutRoleVariables, type Sandbox } from '../os/sandbox.js';
import { removeTree } from '../os/tree-file.js';
import { LOOP_SCRATCH_DIR } from '../config/plan.js';
import type { RunResult, RunSpec } from '../os/ports.js';
import { SetupFailed, Stopped, TreeChanged } from '../common/errors.js';
import { formatLog } from '../judge/checks.js';
import type { LoopConfig } from '../config/config.js';
import type { LoopOptions } from './options.js';
import type { ProcessRunner } from '../os/ports.js';
import type { TimePhase } from '../evidence/phases.js';

/** Where and how the criteria, residual, Northstar measures, critic and security gate run. */
export interface JudgeSpace {
  readonly mode: 'clean' | 'live';
  /** Makes the space hold exactly `tree` (clean) and returns the folder the checks run in. */
  /** `signal`: a stop during checks.setup throws Stopped (a pause), never SetupFailed. `time`: times the workspace update and the setup. */
  prepare(tree: string, opts?: { signal?: AbortSignal; time?: TimePhase }): Promise<string>;
  readonly env: Record<string, string>;
  /** Runs a command of the checks (as the check user where the sandbox has one). */
  readonly runner: ProcessRunner;
  /** What checks.setup did for the last prepare() (null: none configured, or live). */
  readonly setup: SetupReport | null;
  /**
   * Throws TreeChanged when `step` left the tracked files other than the tree judged (clean; live has
   * the agent-step guard); paths matching `outputs` (the checks' JUnit glob) are the checks' output.
   */
  keepsTree(step: string, outputs?: string | null): void;
  /** The files of `tree` as the space listed them when it prepared it (null: not known here; ask git). */
  files?(tree: string): string[] | null;
  /**
   * The round's commands (checks, measures) are done with the space: it may be tidied for the next
   * prepare() meanwhile. Settles once the loop may write the space again (live: the tree is back).
   */
  release(): Promise<void>;
  dispose(): Promise<void>;
  /**
   * A second space beside this one, whose prepare() makes a brand-new checkout of the tree with its
   * own setup (the confirmation of a claim): its round may run while this one holds another. Absent
   * where there is no second place to judge in (live: the work tree).
   */
  aside?(): JudgeSpace;
}

/**
 * The agent's work tree. What runs there still runs the agent's code: as the check user, in its own
 * namespace (SPEC §7), who holds the tree from prepare() to release(); never as the loop.
 */
export function liveJudge(
  o: LoopOptions,
  cwd: string,
  sandbox: Sandbox,
  run: (spec: RunSpec) => Promise<RunResult>,
  /** The user's nested repositories in the tree (userRepos), lent to no role. */
  protect: () => readonly string[] = () => [],
): JudgeSpace {
  // The role's own HOME, TMPDIR, USER and PATH, not the loop's.
  const env = withoutRoleVariables(agentEnvironment(o.env, {}, { keepAgentKeys: false }));
  let held = false;
  return {
    mode: 'live',
    async prepare(_tree, opts) {
      held = true;
      const grant = () => sandbox.grantWorkTree(cwd, [LOOP_SCRATCH_DIR, ...protect()], 'check');
      await (opts?.time ? opts.time('workspace update', grant) : grant());
      return cwd;
    },
    env,
    runner: { run },
    setup: null,
    // Changes the checks make to the work tree are the agent-step guard's (iteration.ts).
    keepsTree: () => undefined,
    async release() {
      if (!held) return;
      held = false;
      await sandbox.reclaimWorkTree(cwd);
    },
    dispose: () => Promise.resolve(),
  };
}

export interface CleanJudgeOptions {
  o: LoopOptions;
  cwd: string;
  /** Loop-owned folder for the workspaces; its parents must be traversable by the check user. */
  root: string;
  checks: LoopConfig['checks'];
  /** Runs a command as the check user (the sandbox), or as the loop when there is none. */
  run: (spec: RunSpec) => Promise<RunResult>;
  handOver?: CheckWorkspaceOptions['handOver'];
  takeBack?: (dir: string) => Promise<void>;
  seal?: CheckWorkspaceOptions['seal'];
}

export async function cleanJudge(c: CleanJudgeOptions): Promise<JudgeSpace> {
  const base: CheckWorkspaceOptions = {
    root: join(c.root, 'ws'),
    repo: c.cwd,
    runner: c.o.runner,
    run: c.run,
    handOver: c.handOver,
    takeBack: c.takeBack,
    seal: c.seal,
    env: c.checks.env,
    baseEnv: c.o.env,
    log: c.o.log,
    clock: c.o.clock,
  };
  const ws = await CheckWorkspace.open(base);
  /** The last brand-new checkout (aside()), removed with the space. */
  let fresh: CheckWorkspace | null = null;
  const setupSpec = (signal?: AbortSignal) => ({
    command: c.checks.setup,
    inputs: c.checks.setup_inputs,
    timeoutMs: c.checks.setup_timeout_seconds * 1000,
    signal: signal ?? c.o.signal,
  });
  const check = (s: SetupOutcome): SetupReport | null => {
    // A setup cut short by a stop failed nothing: the run pauses and the next one sets up again.
    if (s.state === 'failed' && s.result.aborted) throw new Stopped(`the loop was asked to stop (during checks.setup)`);
    if (s.state === 'failed') throw new SetupFailed(`checks.setup failed (${s.reason}):\n${formatLog(c.checks.setup ?? '', [s.result]).slice(-2000)}`);
    if (s.state === 'ran' && s.changed.length) throw new TreeChanged(`checks.setup \`${c.checks.setup}\``, s.changed);
    return setupReport(c.checks.setup, s);
  };
  const keeps = (w: CheckWorkspace, step: string, outputs?: string | null) => {
    const changed = w.changedTracked(outputs);
    if (changed.length) throw new TreeChanged(step, changed);
  };
  let setup: SetupReport | null = null;
  return {
    mode: 'clean',
    async prepare(tree, opts) {
      const time: TimePhase = opts?.time ?? ((_, fn) => fn());
      setup = null;
      await time('workspace update', () => ws.update(tree));
      setup = check(await time('setup', () => ws.setup(setupSpec(opts?.signal))));
      return ws.dir;
    },
    get env() {
      return ws.env();
    },
    runner: { run: c.run },
    get setup() {
      return setup;
    },
    keepsTree: (step, outputs) => keeps(ws, step, outputs),
    files: (tree) => ws.files(tree),
    release: () => {
      ws.tidy();
      return Promise.resolve();
    },
    aside() {
      // The certified commit checked out anew: nothing of earlier rounds counts but the sealed setup
      // outputs of the same inputs, linked (read-only to the checks) instead of installed again.
      let mine: CheckWorkspace | null = null;
      let mySetup: SetupReport | null = null;
      const held = () => {
        if (!mine) throw new Error('the fresh checkout is used before it was prepared');
        return mine;
      };
      return {
        mode: 'clean',
        async prepare(tree, opts) {
          const time: TimePhase = opts?.time ?? ((_, fn) => fn());
          const made = await time('workspace update', async () => {
            await fresh?.dispose();
            fresh = null;
            return CheckWorkspace.fresh({ ...base, root: join(c.root, 'fresh') }, tree, undefined, ws);
          });
          fresh = mine = made.workspace;
          mySetup = check(await time('setup', () => made.workspace.setup(setupSpec(opts?.signal))));
          return made.workspace.dir;
        },
        get env() {
          return held().env();
        },
        runner: { run: c.run },
        get setup() {
          return mySetup;
        },
        keepsTree: (step, outputs) => keeps(held(), step, outputs),
        files: (tree) => held().files(tree),
        // Removed with the space it was set aside from.
        release: () => Promise.resolve(),
        dispose: () => Promise.resolve(),
      };
    },
    async dispose() {
      try {
        await fresh?.dispose();
      } finally {
        // Also when the fresh one could not be removed: a tidy still running must end before the folders go.
        await ws.close();
      }
      await c.takeBack?.(join(c.root, 'fresh'));
      await removeTree(join(c.root, 'fresh'));
    },
  };
}

/** What checks.setup did for a round, for the evidence (`<round>/setup.json`) and the console. */
export interface SetupReport {
  command: string;
  state: 'ran' | 'reused';
  inputs_hash: string;
  /** null when reused. */
  duration_ms: number | null;
  exit_code: number | null;
  /** The setup's output (when it ran), for the evidence. */
  log: string | null;
}

export function setupReport(command: string | undefined, s: SetupOutcome): SetupReport | null {
  if (!command || s.state === 'none' || s.state === 'failed') return null;
  if (s.state === 'reused') return { command, state: 'reused', inputs_hash: s.inputs_hash, duration_ms: null, exit_code: null, log: null };
  return {
    command,
    state: 'ran',
    inputs_hash: s.inputs_hash,
    duration_ms: Math.round(s.result.durationMs),
    exit_code: s.result.exitCode,
    log: formatLog(command, [s.result]),
  };
}

/** The console line of a round's setup. */
export function setupLine(s: SetupReport): string {
  const inputs = `inputs ${s.inputs_hash.slice(0, 12)}`;
  return s.state === 'reused'
    ? `checks.setup \`${s.command}\`: reused (${inputs} unchanged)`
    : `checks.setup \`${s.command}\`: ran in ${((s.duration_ms ?? 0) / 1000).toFixed(1)} s (exit ${s.exit_code}; ${inputs})`;
}
