// The loop's state between iterations and the context an iteration works in, with the small
// derivations every step shares (budgets left, the agent in use, the current residual).
import type { AgentSpec } from './agent-step.js';
import type { Section } from './agents-md.js';
import { scrubSecrets } from './agents.js';
import { sha256 } from './canonical.js';
import type { prepareCapsule } from './capsule-build.js';
import type { FiredExit } from './certificate.js';
import { inputsHash, runChecks, type PassRecord } from './checks.js';
import { computeResidual, removeJunit } from './residual.js';
import type { AgentPresetName, BudgetOverrides } from './config.js';
import { Decimal } from './decimal.js';
import type { BlockerClass } from './dega.js';
import { EvidenceStore } from './evidence.js';
import { Fsm, type TerminalState } from './fsm.js';
import { Git } from './git.js';
import type { Glow } from './glow.js';
import { measure, type NorthstarSnapshot } from './northstar.js';
import type { Intake, Plan } from './plan.js';
import type { Clock, Logger, ProcessRunner, StopSource } from './ports.js';
import { initialProgress, type ProgressState } from './progress.js';
import type { HaltingReport } from './report.js';

export interface LoopHost {
  /** After each iteration's commit (push it, update the PR comment); a string ends the loop blocked. */
  afterIteration?(i: { iteration: number; commit: string; report: HaltingReport }): Promise<string | null>;
}

export interface LoopOptions {
  cwd: string;
  configPath?: string;
  evidenceDir?: string;
  runner: ProcessRunner;
  clock: Clock;
  log: Logger;
  env: Record<string, string | undefined>;
  /** Extra stop sources (signals, the STOP label); the STOP file and disk use are always watched. */
  stopSources?: StopSource[];
  /** Aborted when the process is asked to stop: the agent is killed at once. */
  signal?: AbortSignal;
  host?: LoopHost;
  agentOverride?: AgentPresetName;
  /** Budgets given outside the config (CLI flags, action inputs): taken as written, part of the contract. */
  budgetOverrides?: BudgetOverrides;
  /** Archive an existing evidence tree and start over (never done silently). */
  fresh?: boolean;
  pollMs?: number;
}

export interface LoopOutcome {
  status: TerminalState;
  stop_reason: string;
  exitCode: number;
  report: HaltingReport;
  /** Set when nothing ran because nothing changed since the last terminal exit. */
  nothingToDo?: string;
}

/** What the loop carries from one iteration to the next; persisted as state.json (DEGA snapshot). */
export interface LoopState {
  schema_version: '2.0';
  next_iteration: number;
  residual_history: string[];
  criteria_met: Record<string, boolean>;
  last_certificate_sha256: string | null;
  last_facts: string[];
  last_northstar: NorthstarSnapshot | null;
  total_ms: number;
  total_cost_usd: string;
  cost_reported: boolean;
  total_tool_calls: number;
  exits_fired: (FiredExit & { iteration: number })[];
  /** How the last run ended, on which commit, and (when every criterion declares inputs) on which inputs. */
  terminal: { status: TerminalState; stop_reason: string; head: string | null; inputs_hash: string | null } | null;
  section_witnessed: number;
  section_archived: number;
  /** Passes that may be reused while their inputs are unchanged. */
  passes: Record<string, PassRecord>;
  progress: ProgressState;
  /** DEGA cycle record per iteration: blocker class, improvement over the previous one, who ran. */
  cycles: Cycle[];
  /** One row per iteration for reports and PR comments. */
  rows: IterationRow[];
}

export type IterationRow = Pick<Glow, 'iteration' | 'G' | 'L' | 'O' | 'W' | 'total'> & {
  certificate: string;
  residual: string | null;
  northstar_distance: string | null;
};

export const DEFAULT_EVIDENCE_DIR = 'evidence/loop';

export interface Cycle {
  iteration: number;
  agent: string;
  blocker_class: BlockerClass;
  blocker_reason: string;
  improvement: string;
  fail_closed_signals: number;
  residual: string | null;
  failure_signatures: string[];
  detour_next: boolean;
  critic: string | null;
  reused_checks: string[];
}

export interface Ctx {
  o: LoopOptions;
  cwd: string;
  git: Git;
  ev: EvidenceStore;
  evRel: string;
  fsm: Fsm;
  intake: Intake;
  plan: Plan;
  state: LoopState;
  entries: { iteration: number; text: string; link: string }[];
  stops: StopSource[];
  secrets: string[];
  hostPaths: string[];
  checkEnv: Record<string, string>;
  iterations: number[];
  startMs: number;
  previousTotalMs: number;
  pendingLogs: [string, string][];
  section?: Section;
  /** The next iteration's capsule, prepared when the last one was recorded. */
  next?: { n: number; prepared: Awaited<ReturnType<typeof prepareCapsule>> };
}

export const scrubber = (secrets: string[]) => (t: string) => scrubSecrets(t, secrets);

export function initialState(): LoopState {
  return {
    schema_version: '2.0',
    next_iteration: 0,
    residual_history: [],
    criteria_met: {},
    last_certificate_sha256: null,
    last_facts: [],
    last_northstar: null,
    total_ms: 0,
    total_cost_usd: '0',
    cost_reported: false,
    total_tool_calls: 0,
    exits_fired: [],
    terminal: null,
    section_witnessed: 0,
    section_archived: 0,
    passes: {},
    progress: initialProgress(null),
    cycles: [],
    rows: [],
  };
}

export function scrub(ctx: Ctx, text: string): string {
  return scrubSecrets(text, ctx.secrets);
}

/**
 * One round of the Skeptic's checks on `tree`: JUnit reports left from earlier rounds are removed
 * first (they are the checks' output, and a stale or planted one must not count), then every
 * criterion runs (or reuses a pass), then the residual. `aborted` when a stop cut the round short:
 * such a round certifies nothing.
 */
export async function checkRound(ctx: Ctx, dir: string, tree: string, opts: { signal?: AbortSignal; files?: string[]; reuse?: boolean } = {}) {
  const cfg = ctx.intake.config;
  if (cfg.residual.metric === 'failing_tests_fraction') await removeJunit(ctx.cwd, cfg.residual.junit!);
  const checks = await runChecks(cfg.acceptance_criteria, {
    runner: ctx.o.runner,
    cwd: ctx.cwd,
    env: ctx.checkEnv,
    evidence: ctx.ev,
    dir: `${dir}/checks`,
    tree,
    signal: opts.signal,
    scrub: scrubber(ctx.secrets),
    files: opts.files,
    passes: opts.reuse ? ctx.state.passes : undefined,
  });
  const residual = await computeResidual(cfg, checks, { runner: ctx.o.runner, cwd: ctx.cwd, env: ctx.checkEnv, signal: opts.signal });
  return { checks, residual, aborted: !!opts.signal?.aborted };
}

/** The hash of every criterion's inputs, when every criterion declares them (else null). */
export async function allInputsHash(cwd: string, criteria: Intake['config']['acceptance_criteria'], files: string[]): Promise<string | null> {
  if (!criteria.every((c) => c.inputs)) return null;
  const hashes = await Promise.all(criteria.map((c) => inputsHash(cwd, c.inputs!, files)));
  return sha256(criteria.map((c, i) => `${c.id}\0${hashes[i]}`).join('\n'));
}

export async function measureAll(ctx: Ctx, residual: Decimal, met: ReadonlyMap<string, boolean>) {
  return Promise.all(
    ctx.intake.northstar.map((m) =>
      measure(m, {
        residual,
        criteriaMet: met,
        runCommand: async (command) => {
          const r = await ctx.o.runner.run({ command, cwd: ctx.cwd, env: ctx.checkEnv, timeoutMs: 300_000 });
          return r.exitCode === 0 ? { output: r.stdout } : { error: `exit ${r.exitCode ?? r.signal}: ${r.stderr.trim().split('\n').pop() ?? ''}` };
        },
      }),
    ),
  );
}

export function elapsedMs(ctx: Ctx): number {
  return ctx.previousTotalMs + (ctx.o.clock.monotonicMs() - ctx.startMs);
}

export function budgetExhausted(ctx: Ctx, extraIterations: number): { code: string; reason: string } | null {
  const b = ctx.plan.budget;
  const done = ctx.state.next_iteration + extraIterations;
  if (done >= b.max_iterations) return { code: 'MAX_ITERS', reason: `${done} of ${b.max_iterations} iterations used` };
  if (elapsedMs(ctx) >= b.max_total_seconds * 1000) return { code: 'MAX_TOTAL_SECONDS', reason: `${Math.floor(elapsedMs(ctx) / 1000)} s of ${b.max_total_seconds} s used` };
  if (b.max_total_cost_usd !== null && new Decimal(ctx.state.total_cost_usd).gte(b.max_total_cost_usd))
    return { code: 'MAX_COST', reason: `$${ctx.state.total_cost_usd} of $${b.max_total_cost_usd} spent` };
  if (ctx.state.total_tool_calls >= b.max_total_tool_calls) return { code: 'MAX_TOOL_CALLS', reason: `${ctx.state.total_tool_calls} of ${b.max_total_tool_calls} tool calls used` };
  return null;
}

export function currentResidual(ctx: Ctx): string | null {
  return ctx.state.residual_history.at(-1) ?? ctx.plan.baseline.residual;
}

/** The agent for iteration n: the configured one, or the escalation once the loop has stalled. */
export function agentSpec(ctx: Ctx, n: number): AgentSpec {
  const a = ctx.intake.config.agent;
  const e = isEscalated(ctx, n) ? a.escalate! : undefined;
  const use = e?.use ?? a.use;
  return {
    preset: use,
    run: e?.run ?? (use === a.use ? a.run : undefined),
    model: e?.model ?? a.model,
    args: e?.args ?? a.args,
    maxTurns: ctx.plan.budget.max_tool_calls_per_iteration,
  };
}

export function isEscalated(ctx: Ctx, n: number): boolean {
  const at = ctx.state.progress.escalated_at;
  return !!ctx.intake.config.agent.escalate && at !== null && n >= at;
}

/** How the capsule and report name the agent of iteration n (never its command line: it may hold host paths). */
export function describeAgent(ctx: Ctx, n: number): string {
  const a = agentSpec(ctx, n);
  return `${a.preset}${a.model ? ` (model ${a.model})` : ''}${isEscalated(ctx, n) ? ' [escalated]' : ''}`;
}

export function sectionMeta(ctx: Ctx) {
  const p = ctx.plan;
  return { goal: p.goal, R_p: p.R_p, max_iterations: p.budget.max_iterations, rung_target: p.rung_target, northstar: p.northstar.metrics.map((m) => ({ id: m.id, target: m.target })) };
}
