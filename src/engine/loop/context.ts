// The loop's state between iterations and the context an iteration works in, with the small
// derivations every step shares (budgets left, the agent in use, the current residual).
import { z } from 'zod';
import type { AgentSpec, DirtySnapshot } from '../agent/agent-step.js';
import type { Section } from '../memory/agents-md.js';
import { createScrubber, type Scrubber } from '../os/secrets.js';
import { sha256 } from '../common/canonical.js';
import type { prepareCapsule } from '../memory/capsule-build.js';
import { type CheckResult, checkStep, inputsHash, runChecks, type PassRecord } from '../judge/checks.js';
import { RunnerCompromised, Stopped } from '../common/errors.js';
import { compromised, runCanaries } from '../judge/canary.js';
import { computeResidual } from '../judge/residual.js';
import { prepareJunit, readJunit, suiteIntegrity, type JunitRead, type TestRecord } from '../judge/junit.js';
import type { AgentPresetName, BudgetOverrides } from '../config/config.js';
import { Decimal } from '../common/decimal.js';
import { decimalString } from '../common/document.js';
import { firedExitSchema, issuedTypeSchema } from '../judge/certificate.js';
import type { Signature } from '../judge/signature.js';
import { BLOCKER_CLASSES } from './dega.js';
import { iterationBudget, iterationsUsed } from './decide.js';
import { EvidenceStore } from '../evidence/evidence.js';
import { Fsm, TERMINAL_STATES, type TerminalState } from './fsm.js';
import { Git } from '../os/git.js';
import type { Glow } from '../judge/glow.js';
import { measure, type NorthstarSnapshot } from '../judge/northstar.js';
import type { Intake, Plan } from '../config/plan.js';
import type { Clock, Logger, ProcessRunner, StopSource } from '../os/ports.js';
import type { UserFiles } from './user-files.js';
import type { Sandbox } from '../os/sandbox.js';
import type { KeyProxy } from '../agent/key-proxy.js';
import { initialProgress, type ProgressState } from './progress.js';
import { lessonSchema } from '../evidence/lessons.js';
import { watchStops } from './backpressure.js';
import type { HaltingReport, RunInfo } from '../evidence/report.js';
import type { Stage, StagePhases, TimePhase } from '../evidence/phases.js';
import { setupLine, type SetupReport } from './judge-space.js';

export interface LoopHost {
  /** After each iteration's commit (push it, update the PR comment); a string ends the loop blocked. */
  afterIteration?(i: { iteration: number; commit: string; report: HaltingReport }): Promise<string | null>;
  /** As the loop enters a phase (the PR comment's status line): never awaited, a failure is only logged. */
  phase?(p: LoopPhase): void;
}

/**
 * A phase of the run: HEAD judged before any agent (`baseline` for a new loop, `head` when a run
 * resumes one), then per iteration the agent's step and the checks of its change. `rows`: the
 * iterations on record so far (earlier runs' included).
 */
export interface LoopPhase {
  phase: 'baseline' | 'head' | 'agent' | 'checks';
  /** The iteration the phase belongs to (for baseline and head: the next one to run). */
  iteration: number;
  goal: string;
  rows: readonly IterationRow[];
  /** The evidence tree as it is written (the loop home's; published to the work tree at the end): the host may read it. */
  evidenceRoot: string;
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
  /** agent.model given outside the config (the action's model input). */
  modelOverride?: string;
  /** agent.isolation and agent.key_proxy given outside the config (CLI flags, action inputs). */
  isolation?: 'auto' | 'user+pidns' | 'pidns' | 'none';
  keyProxy?: boolean;
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

const signatureSchema = z.object({ criterion: z.string(), signature: z.string(), text: z.string() }) satisfies z.ZodType<Signature>;

const progressSchema = z.object({
  best_residual: decimalString.nullable(),
  stalled: z.number().int().min(0),
  escalated_at: z.number().int().min(0).nullable(),
  signatures: z.record(z.string(), signatureSchema),
  detour: z
    .object({
      /** The iteration whose capsule carries the detour. */
      iteration: z.number().int().min(0),
      repeated: z.array(signatureSchema.extend({ instruction: z.string().nullable() })),
    })
    .nullable(),
}) satisfies z.ZodType<ProgressState>;

const northstarSnapshotSchema = z.object({
  readings: z.array(z.object({ id: z.string(), value: decimalString.nullable(), distance: decimalString.nullable(), error: z.string().optional() })),
  total_distance: decimalString.nullable(),
}) satisfies z.ZodType<NorthstarSnapshot>;

const passSchema = z.object({
  iteration: z.union([z.number().int().min(0), z.literal('baseline')]),
  inputs_hash: z.string(),
  evidence: z.string(),
  tree: z.string(),
}) satisfies z.ZodType<PassRecord>;

const glowScore = z.number().int().min(0);

/** One row per iteration for reports and PR comments. */
export const iterationRowSchema = z.object({
  iteration: z.number().int().min(0),
  G: glowScore,
  L: glowScore,
  O: glowScore,
  // null when the residual could not be computed: unknown, never 0.
  W: glowScore.nullable(),
  total: glowScore.nullable(),
  certificate: issuedTypeSchema,
  residual: decimalString.nullable(),
  northstar_distance: decimalString.nullable(),
  /** What the agent reported for the iteration's step (null: nothing; absent in rows written before). */
  cost_usd: decimalString.nullable().optional(),
  /** Input (cached parts included) and output tokens the agent reported for the step. */
  tokens: z.number().int().min(0).nullable().optional(),
}) satisfies z.ZodType<Pick<Glow, 'iteration' | 'G' | 'L' | 'O' | 'W' | 'total'>>;
export type IterationRow = z.infer<typeof iterationRowSchema>;

/** DEGA cycle record per iteration: blocker class, improvement over the previous one, who ran. */
const cycleSchema = z.object({
  iteration: z.number().int().min(0),
  agent: z.string(),
  blocker_class: z.enum(BLOCKER_CLASSES),
  blocker_reason: z.string(),
  improvement: z.string(),
  fail_closed_signals: z.number().int().min(0),
  residual: decimalString.nullable(),
  failure_signatures: z.array(z.string()),
  detour_next: z.boolean(),
  critic: z.string().nullable(),
  reused_checks: z.array(z.string()),
});
export type Cycle = z.infer<typeof cycleSchema>;

const count = z.number().int().min(0);

/** What the loop carries from one iteration to the next; persisted as state.json (DEGA snapshot). */
export const stateSchema = z.object({
  schema_version: z.literal('2.0'),
  next_iteration: count,
  /**
   * Recorded iterations a stop cut short before their checks ran (a pause): they do not count
   * against budget.max_iterations (decide.ts countsAgainstBudget). Absent in state files written
   * before it existed: none.
   */
  stopped_before_checks: z.array(count).default([]),
  residual_history: z.array(decimalString),
  criteria_met: z.record(z.string(), z.boolean()),
  last_certificate_sha256: z.string().nullable(),
  last_facts: z.array(z.string()),
  last_northstar: northstarSnapshotSchema.nullable(),
  total_ms: count,
  total_cost_usd: decimalString,
  cost_reported: z.boolean(),
  total_tool_calls: count,
  /** Tokens the agent reported, summed (null: it reported none). */
  total_tokens: z.object({ input: count, output: count, cache_read: count, cache_write: count }).nullable().optional(),
  /** Which figures the agent reported at least once (a budget on a figure never reported cannot apply). */
  reported: z.object({ cost: z.boolean(), tokens: z.boolean(), toolCalls: z.boolean() }).optional(),
  exits_fired: z.array(firedExitSchema.extend({ iteration: count })),
  /** Where the progress windows (divergence, W = 0) start: a new HEAD starts new ones. */
  window: z.object({ residuals: count, rows: count }).default({ residuals: 0, rows: 0 }),
  /** The residual HEAD was judged at when this run started, until this run records an iteration. */
  start_residual: decimalString.nullable(),
  /** The tests (id, status) the baseline ran, for the suite-integrity guard; null without JUnit. */
  suite_baseline: z
    .array(z.object({ id: z.string(), status: z.enum(['passed', 'failed', 'error', 'skipped']) }) satisfies z.ZodType<Pick<TestRecord, 'id' | 'status'>>)
    .nullable()
    .optional(),
  /** What the last halt taught (evidence/lessons.ts), shown to the next run's agent; absent before its first halt. */
  lessons_for_next_run: z.array(lessonSchema).optional(),
  /** The loop's last commit: a run continues this state only from it (or from a descendant, re-baselined). */
  last_commit: z.string().nullable().default(null),
  /** How the last run ended, on which commit, and (when every criterion declares inputs) on which inputs. */
  terminal: z.object({ status: z.enum(TERMINAL_STATES), stop_reason: z.string(), head: z.string().nullable(), inputs_hash: z.string().nullable() }).nullable(),
  section_witnessed: count,
  section_archived: count,
  /** Passes that may be reused while their inputs are unchanged. */
  passes: z.record(z.string(), passSchema),
  progress: progressSchema,
  cycles: z.array(cycleSchema),
  rows: z.array(iterationRowSchema),
});
export type LoopState = z.infer<typeof stateSchema>;

export const DEFAULT_EVIDENCE_DIR = 'evidence/loop';

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
  judge: JudgeSpace;
  /** The isolation level the agent and the checks run at (recorded in every certificate). */
  isolation: string;
  sandbox: Sandbox;
  /** Where the agent user reads its prompt and capsule. */
  exchangeDir: string;
  keyProxy: KeyProxy | null;
  /** The agent CLI's `--version` line, read once per run (pre-flight). */
  cliVersion: string | null;
  iterations: number[];
  /** This run's place in its loop (the report's run section). */
  run: RunInfo;
  startMs: number;
  previousTotalMs: number;
  pendingLogs: [string, string][];
  /** Where this run's time went, stage by stage as each ended (evidence/phases.ts; Lane B). */
  stages: StagePhases[];
  /** The criteria whose runner canary ran at a round of this run: from then on it must run (judge/canary.ts). */
  canaryReached: Set<string>;
  /** When the last of them not within another ended (on the loop's clock): what follows until the next is on record too. */
  stagesEnd?: number;
  section?: Section;
  /** The next iteration's capsule, prepared when the last one was recorded. */
  next?: { n: number; prepared: Awaited<ReturnType<typeof prepareCapsule>> };
  /** The user's git-ignored files, kept before the run's first agent step (user-files.ts). */
  userFiles?: UserFiles;
  /** The uncommitted paths the iteration's commit left (read while it was recorded), for the next step's start. */
  dirtyAfter?: { head: string; snapshot: Promise<DirtySnapshot> };
  /** The user's nested repositories in the work tree before this iteration's step (see userRepos): no role may change them. */
  userRepos?: readonly string[];
}

const scrubbers = new WeakMap<readonly string[], Scrubber>();
/** The scrub function of a run's secret values, built once per list (its forms are precomputed). */
export function scrubber(secrets: readonly string[]): (text: string) => string {
  return secretScrubber(secrets).scrub;
}

export function secretScrubber(secrets: readonly string[]): Scrubber {
  let s = scrubbers.get(secrets);
  if (!s) scrubbers.set(secrets, (s = createScrubber(secrets)));
  return s;
}

export function initialState(): LoopState {
  return {
    schema_version: '2.0',
    next_iteration: 0,
    stopped_before_checks: [],
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
    last_commit: null,
    window: { residuals: 0, rows: 0 },
    start_residual: null,
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
  return scrubber(ctx.secrets)(text);
}

/**
 * One round of the Skeptic's checks on `tree`, in the judge space (a clean checkout of the tree, or
 * the work tree when `checks.workspace: live`): JUnit reports left from earlier rounds are removed
 * first (a stale or planted one must not count), then every criterion runs (or reuses a pass), then
 * the residual. `aborted` when a stop cut the round short: such a round certifies nothing.
 */
export async function checkRound(
  ctx: Ctx,
  dir: string,
  tree: string,
  opts: { signal?: AbortSignal; reuse?: boolean; judge?: JudgeSpace; watchStops?: boolean; stage?: Stage; probeCanary?: boolean } = {},
) {
  // A STOP (file, label) during the checks pauses the round, as a signal does; the final replays
  // of a claim (watchStops false) finish, and the stop is honoured when they have.
  const stop = watchStops(opts.watchStops === false ? [] : ctx.stops, ctx.o.pollMs ?? 1000, opts.signal);
  try {
    return await judgeRound(ctx, dir, tree, { ...opts, signal: stop.signal });
  } catch (e) {
    // checks.setup cut short by the stop: the round did not run, and says so as any aborted one.
    if (!(e instanceof Stopped)) throw e;
    const residual: { error: string } = { error: e.message };
    return { checks: [] as CheckResult[], residual, cwd: '', junit: undefined, canary: undefined, aborted: true as const };
  } finally {
    stop.close();
  }
}

async function judgeRound(
  ctx: Ctx,
  dir: string,
  tree: string,
  opts: { signal: AbortSignal; reuse?: boolean; judge?: JudgeSpace; stage?: Stage; probeCanary?: boolean },
) {
  const cfg = ctx.intake.config;
  // The run's judge space, or another beside it (a replay's brand-new checkout).
  const judge = opts.judge ?? ctx.judge;
  const time: TimePhase = opts.stage?.timer ?? ((_, fn) => fn());
  const cwd = await judge.prepare(tree, { signal: opts.signal, time });
  const setup = judge.setup;
  if (setup) {
    ctx.o.log.info(setupLine(setup));
    const { log, ...record } = setup;
    const logLink = log === null ? null : ctx.ev.link((await ctx.ev.write(`${dir}/setup.log`, scrubber(ctx.secrets)(log))).path);
    await ctx.ev.writeJson(`${dir}/setup.json`, { ...record, log: logLink });
  }
  // Reports from before the round (stale, planted, or undeletable) are never counted.
  const glob = cfg.checks.junit ?? cfg.residual.junit;
  const guard = glob ? await prepareJunit(cwd, glob) : null;
  const files = cfg.acceptance_criteria.some((c) => c.inputs) ? await ctx.git.treeFiles(tree) : undefined;
  const checks = await time('checks', () =>
    runChecks(cfg.acceptance_criteria, {
      runner: judge.runner,
      cwd,
      env: judge.env,
      evidence: ctx.ev,
      dir: `${dir}/checks`,
      tree,
      signal: opts.signal,
      scrub: scrubber(ctx.secrets),
      files,
      passes: opts.reuse ? ctx.state.passes : undefined,
      afterRun: (_, suspects) => judge.keepsTree(checkStep(suspects), glob),
    }),
  );
  // Each criterion's own time, beside the round's (they may run side by side).
  for (const c of checks) opts.stage?.add(c.id, c.duration_ms, 'checks');
  const junit = glob && guard ? await readJunit(cwd, glob, guard) : undefined;
  const residualJunit = cfg.residual.junit && cfg.residual.junit !== glob ? await readJunit(cwd, cfg.residual.junit, null) : junit;
  const residual = await time('residual', () =>
    computeResidual(cfg, checks, { runner: judge.runner, cwd, env: judge.env, signal: opts.signal, junit: residualJunit }),
  );
  if (cfg.residual.metric === 'command') judge.keepsTree('the residual command', glob);
  // The runner proves itself honest (clean workspace only: the canary is never written to the agent's tree).
  const canary =
    judge.mode === 'clean' && !opts.signal.aborted
      ? await time('canary', async () =>
          runCanaries(cfg.acceptance_criteria, checks, {
            runner: judge.runner,
            cwd,
            env: judge.env,
            files: files ?? (await ctx.git.treeFiles(tree)),
            protectedGlobs: ctx.plan.protected,
            signal: opts.signal,
            after: (step) => judge.keepsTree(step, glob),
            log: (line) => ctx.o.log.info(`${dir}: ${line}`),
            reached: ctx.canaryReached,
            probe: opts.probeCanary,
          }),
        )
      : undefined;
  const lying = canary?.find(compromised);
  if (lying) throw new RunnerCompromised(dir, lying.criterion, lying.runner ?? 'unknown', lying.outcome === 'not_run');
  return { checks, residual, cwd, junit, canary: canary?.map(({ reachedBefore: _, ...c }) => c), aborted: opts.signal.aborted };
}

/** The suite-integrity verdict of a round against the tests the baseline ran (null: nothing to say). */
export function suiteVerdict(ctx: Ctx, junit: JunitRead | undefined): string | null {
  if (!junit) return null;
  if ('error' in junit) return `the JUnit reports could not be read: ${junit.error}`;
  const baseline = ctx.state.suite_baseline;
  if (!baseline) return null;
  const v = suiteIntegrity(baseline as TestRecord[], junit.tests, ctx.intake.config.checks.allow_fewer_tests);
  return v.ok ? null : v.reason;
}

/** The hash of every criterion's inputs, when every criterion declares them (else null). */
export async function allInputsHash(cwd: string, criteria: Intake['config']['acceptance_criteria'], files: string[]): Promise<string | null> {
  if (!criteria.every((c) => c.inputs)) return null;
  const hashes = await Promise.all(criteria.map((c) => inputsHash(cwd, c.inputs!, files)));
  return sha256(criteria.map((c, i) => `${c.id}\0${hashes[i]}`).join('\n'));
}

/** Northstar readings; command measures run in the judge space holding `cwd` (the judged tree). */
export async function measureAll(ctx: Ctx, cwd: string, residual: Decimal | null, met: ReadonlyMap<string, boolean>) {
  return Promise.all(
    ctx.intake.northstar.map((m) =>
      measure(m, {
        residual,
        criteriaMet: met,
        runCommand: async (command) => {
          const r = await ctx.judge.runner.run({ command, cwd, env: ctx.judge.env, timeoutMs: 300_000 });
          return r.exitCode === 0 ? { output: r.stdout } : { error: `exit ${r.exitCode ?? r.signal}: ${r.stderr.trim().split('\n').pop() ?? ''}` };
        },
      }),
    ),
  );
}

export function elapsedMs(ctx: Ctx): number {
  return ctx.previousTotalMs + (ctx.o.clock.monotonicMs() - ctx.startMs);
}

/** `extraIterations`: 1 after an iteration that counts (decide.ts countsAgainstBudget), not yet in the state. */
export function budgetExhausted(ctx: Ctx, extraIterations: 0 | 1): { code: string; reason: string } | null {
  const b = ctx.plan.budget;
  const iterations = iterationBudget(iterationsUsed(ctx.state.next_iteration, ctx.state.stopped_before_checks) + extraIterations, b.max_iterations);
  if (iterations) return iterations;
  if (elapsedMs(ctx) >= b.max_total_seconds * 1000)
    return { code: 'MAX_TOTAL_SECONDS', reason: `${Math.floor(elapsedMs(ctx) / 1000)} s of ${b.max_total_seconds} s used` };
  if (b.max_total_cost_usd !== null && new Decimal(ctx.state.total_cost_usd).gte(b.max_total_cost_usd))
    return { code: 'MAX_COST', reason: `$${ctx.state.total_cost_usd} of $${b.max_total_cost_usd} spent` };
  if (ctx.state.total_tool_calls >= b.max_total_tool_calls)
    return { code: 'MAX_TOOL_CALLS', reason: `${ctx.state.total_tool_calls} of ${b.max_total_tool_calls} tool calls used` };
  return null;
}

/** The last measured residual: the judgement this run started from until an iteration is recorded, then the latest. */
export function currentResidual(ctx: Ctx): string | null {
  const s = ctx.state;
  return s.start_residual ?? (s.residual_history.length > s.window.residuals ? s.residual_history.at(-1)! : ctx.plan.baseline.residual);
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
  return {
    goal: p.goal,
    R_p: p.R_p,
    max_iterations: p.budget.max_iterations,
    rung_target: p.rung_target,
    northstar: p.northstar.metrics.map((m) => ({ id: m.id, target: m.target })),
  };
}

/** What every agent process of the run shares (the agent, the critic): sandbox, key proxy, stops. */
export function agentRunContext(ctx: Ctx) {
  return {
    runner: ctx.o.runner,
    cwd: ctx.cwd,
    baseEnv: ctx.o.env,
    passEnv: ctx.intake.config.agent.pass_env,
    stopSources: ctx.stops,
    pollMs: ctx.o.pollMs ?? 1000,
    signal: ctx.o.signal,
    sandbox: ctx.sandbox,
    exchangeDir: ctx.exchangeDir,
    keyProxy: ctx.keyProxy,
    mask: scrubber(ctx.secrets),
    cliVersion: ctx.cliVersion,
  };
}
