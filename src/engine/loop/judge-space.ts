// The judge space: where the criteria and everything else that executes the agent's code run.
// `clean` (the default) is a loop-owned checkout of exactly the judged tree, with a fresh HOME and
// no global git/npm configuration (SPEC §7); `live` is the agent's own work tree, weaker (what the
// agent left beside the tracked files counts) and said so in every certificate.
import { join } from 'node:path';
import { CheckWorkspace, type CheckWorkspaceOptions } from '../judge/workspace.js';
import { agentEnvironment } from '../os/secrets.js';
import { withoutRoleVariables, type Sandbox } from '../os/sandbox.js';
import { removeTree } from '../os/tree-file.js';
import { LOOP_SCRATCH_DIR } from '../config/plan.js';
import type { RunResult, RunSpec } from '../os/ports.js';
import { SetupFailed, Stopped } from '../common/errors.js';
import { formatLog } from '../judge/checks.js';
import type { LoopConfig } from '../config/config.js';
import type { JudgeSpace, LoopOptions } from './context.js';
import type { TimePhase } from '../evidence/phases.js';

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
  handOver?: (dir: string) => Promise<void>;
  takeBack?: (dir: string) => Promise<void>;
}

export async function cleanJudge(c: CleanJudgeOptions): Promise<JudgeSpace> {
  const base: CheckWorkspaceOptions = {
    root: join(c.root, 'ws'),
    repo: c.cwd,
    runner: c.o.runner,
    run: c.run,
    handOver: c.handOver,
    takeBack: c.takeBack,
    env: c.checks.env,
    baseEnv: c.o.env,
  };
  const ws = await CheckWorkspace.open(base);
  let current: CheckWorkspace = ws;
  let fresh: CheckWorkspace | null = null;
  const setupSpec = (signal?: AbortSignal) => ({
    command: c.checks.setup,
    inputs: c.checks.setup_inputs,
    timeoutMs: c.checks.setup_timeout_seconds * 1000,
    signal: signal ?? c.o.signal,
  });
  const check = (s: Awaited<ReturnType<CheckWorkspace['setup']>>) => {
    // A setup cut short by a stop failed nothing: the run pauses and the next one sets up again.
    if (s.state === 'failed' && s.result.aborted) throw new Stopped(`the loop was asked to stop (during checks.setup)`);
    if (s.state === 'failed') throw new SetupFailed(`checks.setup failed (${s.reason}):\n${formatLog(c.checks.setup ?? '', [s.result]).slice(-2000)}`);
  };
  return {
    mode: 'clean',
    async prepare(tree, opts) {
      const time: TimePhase = opts?.time ?? ((_, fn) => fn());
      if (opts?.fresh) {
        // The certified commit checked out anew, with its own setup: nothing of earlier rounds counts.
        const made = await time('workspace update', async () => {
          await fresh?.dispose();
          return CheckWorkspace.fresh({ ...base, root: join(c.root, 'fresh') }, tree);
        });
        fresh = current = made.workspace;
        check(await time('setup', () => made.workspace.setup(setupSpec(opts.signal))));
        return made.workspace.dir;
      }
      // Replays after a fresh checkout stay on it; any other round goes back to the persistent one.
      if (fresh && current === fresh && fresh.holds === tree) return fresh.dir;
      current = ws;
      await time('workspace update', () => ws.update(tree));
      check(await time('setup', () => ws.setup(setupSpec(opts?.signal))));
      return ws.dir;
    },
    get env() {
      return current.env();
    },
    runner: { run: c.run },
    // Replays on a fresh checkout follow each other without an update: only the persistent one is tidied.
    release: () => {
      if (current === ws) ws.tidy();
      return Promise.resolve();
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
