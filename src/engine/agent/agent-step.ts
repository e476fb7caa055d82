// SPAWN_SUBAGENT: one fresh agent process per iteration, stopped by its time limit or by
// backpressure. Its changes are then collected (collect.ts): the names below that other modules
// take from here live in the modules of their own concept.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { agentInvocation, describeInvocation, type InvocationRecord, parseAgentOutcome, PRESET_ENV, REPORT_PATH, type AgentOutcome } from './agents.js';
import type { KeyProxy } from './key-proxy.js';
import { type Downstream, firstUnreachable } from './downstream.js';
import { withoutRoleVariables, type Sandbox } from '../os/sandbox.js';
import { agentEnvironment } from '../os/secrets.js';
import type { AgentPresetName } from '../config/config.js';
import { LOOP_SCRATCH_DIR } from '../config/plan.js';
import type { ProcessRunner, RunResult, StopSource } from '../os/ports.js';
import { watchStops } from '../os/stops.js';
import { agentBackpressure } from '../run/decide.js';
import { InvariantViolation } from '../common/errors.js';
import { evidenceViewDir } from './evidence-view.js';
import { takeReport } from './agent-report.js';

export {
  changedSince,
  fingerprint,
  MAX_HELD_BYTES,
  restoreBefore,
  snapshotDirty,
  unchangedSince,
  userRepos,
  type DirtySnapshot,
  type RestoreResult,
} from './dirty-snapshot.js';

export interface AgentSpec {
  preset: AgentPresetName;
  run?: string;
  model?: string;
  args: string[];
  maxTurns: number;
}

export interface AgentRun {
  result: RunResult;
  backpressure: string | null;
  /** What the CLI's own output says: cost, tokens, tool calls, its error text, a rate limit. */
  outcome: AgentOutcome;
  /** How it was started (argv, variable names, CLI version): evidence, secrets masked. */
  invocation: InvocationRecord;
}

export interface SpawnOptions {
  runner: ProcessRunner;
  cwd: string;
  spec: AgentSpec;
  prompt: string;
  capsule: string;
  iteration: number;
  baseEnv: Record<string, string | undefined>;
  /** `agent.pass_env`: secret-looking variables the agent is given all the same. */
  passEnv?: readonly string[];
  timeoutMs: number;
  /** No output for this long stops the agent (agent.idle_seconds): an agent failure. */
  idleMs?: number;
  stopSources: readonly StopSource[];
  pollMs: number;
  /** Aborted when the process itself is asked to stop (signals). */
  signal?: AbortSignal;
  /** PHUC_ROLE of the process (the agent, or the critic). */
  role?: string;
  /** Folders of the work tree the agent may read, never change (userRepos). */
  protect?: readonly string[];
  sandbox: Sandbox;
  /** A folder the loop and the agent user both reach: the prompt and capsule go there. */
  exchangeDir: string;
  /** Holds the agent's API key when agent.key_proxy is on and the preset takes a base URL. */
  keyProxy: KeyProxy | null;
  /** What the step depends on that the loop can probe: re-probed when the step fails (downstream.ts). */
  downstreams?: readonly Downstream[];
  mask: (text: string) => string;
  cliVersion: string | null;
  /** Called once the work tree is lent to the agent, and once its step has ended, before the tree is taken back (entry-stamps.ts). */
  holding?: { lent: () => void; ending: () => void };
  /** A line every 30 s while the agent works (it may print nothing for minutes). */
  heartbeat?: (elapsedS: number) => void;
}

let activeAgents = 0;

/**
 * Runs the agent as a fresh process, as the sandbox's agent user: the work tree is its while it
 * runs and the loop's again afterwards; STOP sources are polled while it runs.
 */
export async function spawnAgent(o: SpawnOptions): Promise<AgentRun> {
  // STACKED_SPECULATIVE_ITERATIONS: never more than one agent at a time (its edits would mix with the next one's).
  if (activeAgents > 0) throw new InvariantViolation('STACKED_SPECULATIVE_ITERATIONS', 'an agent is already running');
  const reportFile = join(o.cwd, REPORT_PATH);
  takeReport(o.cwd, true); // a stale one (a crashed run's) is not this agent's
  // Synchronous: a few small writes, each of which would otherwise wait for a pool thread, at the start of every step.
  mkdirSync(dirname(reportFile), { recursive: true });
  const promptFile = join(o.exchangeDir, 'prompt.md');
  const capsuleFile = join(o.exchangeDir, 'cnf_capsule.json');
  writeFresh(promptFile, o.prompt);
  writeFresh(capsuleFile, o.capsule);
  const preset = o.spec.preset;
  const proxy = o.keyProxy;
  const inv = agentInvocation({
    preset,
    run: o.spec.run,
    model: o.spec.model,
    // The key proxy's arguments (Codex's provider) are the preset's to place (before Codex's `-- -`,
    // also after agent.run), last so that they win over the user's.
    extraArgs: [...o.spec.args, ...(proxy?.args(preset) ?? [])],
    maxTurns: o.spec.maxTurns,
    promptFile,
    reportFile: REPORT_PATH,
  });
  const stop = watchStops(o.stopSources, o.pollMs, o.signal);
  const started = Date.now();
  const beat = o.heartbeat ? setInterval(() => o.heartbeat!(Math.round((Date.now() - started) / 1000)), 30_000) : undefined;
  // The key proxy forwards for this step alone, with a placeholder of its own: closed in the finally
  // below (time limit, STOP, a crash), once every process of the step is gone and before any check runs.
  const proxyStep = proxy?.openStep() ?? null;
  activeAgents++;
  let env: Record<string, string> = {};
  let result: RunResult;
  try {
    // An allowlist (SPEC §7): the locale and terminal, the preset's own variables, agent.pass_env, and ours.
    const given = agentEnvironment(
      o.baseEnv,
      {
        ...inv.env,
        ...(proxyStep?.env(preset) ?? {}),
        PHUC_PROMPT_FILE: promptFile,
        PHUC_CAPSULE_FILE: capsuleFile,
        PHUC_EVIDENCE_DIR: evidenceViewDir(o.exchangeDir),
        PHUC_REPORT_FILE: reportFile,
        PHUC_ITERATION: String(o.iteration),
        PHUC_ROLE: o.role ?? 'Scout→Solver',
      },
      { keepAgentKeys: !proxy, allow: PRESET_ENV[preset], pass: o.passEnv },
    );
    env = withoutRoleVariables(given);
    await o.sandbox.grantWorkTree(o.cwd, [LOOP_SCRATCH_DIR, ...(o.protect ?? [])]);
    o.holding?.lent();
    const spec = await o.sandbox.wrap(
      {
        command: inv.command,
        args: inv.args,
        cwd: o.cwd,
        env,
        stdin: inv.promptOnStdin ? o.prompt : undefined,
        timeoutMs: o.timeoutMs,
        idleMs: o.idleMs,
        signal: stop.signal,
        maxOutputBytes: 4 * 1024 * 1024,
      },
      'agent',
      // The key proxy's settings (Gemini CLI's auth type): in the agent's own HOME, never the user's.
      { homeFiles: proxy?.homeFiles(preset) },
    );
    result = await o.runner.run(spec);
  } finally {
    proxyStep?.close();
    activeAgents--;
    stop.close();
    clearInterval(beat);
    try {
      o.holding?.ending();
    } finally {
      await o.sandbox.reclaimWorkTree(o.cwd);
    }
  }
  const outcome = parseAgentOutcome(preset, result);
  const stopped = stop.reason();
  // A step that failed by itself: is a downstream it depends on down? Asked of the downstream, never of the agent's words.
  const unreachable = !stopped && !result.aborted && outcome.failed && !outcome.rateLimited ? await firstUnreachable(o.downstreams ?? []) : null;
  const backpressure = agentBackpressure({
    stop: stopped,
    aborted: result.aborted,
    rateLimited: outcome.rateLimited,
    errorText: outcome.errorText,
    unreachable,
  });
  const invocation = describeInvocation(inv, { env, mask: o.mask, root: o.cwd, cliVersion: o.cliVersion });
  return { result, backpressure, outcome, invocation };
}

/** A new file, never through a link the other side may have planted. */
function writeFresh(path: string, text: string): void {
  rmSync(path, { force: true });
  writeFileSync(path, text, { flag: 'wx', mode: 0o644 });
}
