// The loop's state between iterations and the context an iteration works in, with the small
// derivations every step shares (budgets left, the agent in use, the current residual).
import type { AgentSpec, DirtySnapshot } from '../agent/agent-step.js';
import type { Section } from '../memory/agents-md.js';
import { createScrubber, type Scrubber } from '../os/secrets.js';
import { sha256 } from '../common/canonical.js';
import type { PreparedCapsule } from '../memory/capsule.js';
import { type CheckResult, checkStep, inputsHash, runChecks } from '../judge/checks.js';
import { RunnerCompromised, Stopped } from '../common/errors.js';
import { compromised, probeCanary, runCanaries } from '../judge/canary.js';
import { withFailing } from '../judge/failing-tests.js';
import type { Criterion } from '../config/config.js';
import { computeResidual } from '../judge/residual.js';
import { prepareJunit, readJunit, suiteIntegrity, type JunitRead, type TestRecord } from '../judge/junit.js';
import { Decimal } from '../common/decimal.js';
import { iterationBudget, iterationsUsed } from '../run/decide.js';
import { EvidenceStore } from '../store/evidence.js';
import { Fsm } from '../run/fsm.js';
import { Git } from '../os/git.js';
import { measure } from '../judge/northstar.js';
import type { Plan } from '../config/plan.js';
import type { Intake } from '../config/intake.js';
import type { StopSource } from '../os/ports.js';
import type { UserFiles } from '../agent/user-files.js';
import type { Sandbox } from '../os/sandbox.js';
import type { KeyProxy } from '../agent/key-proxy.js';
import { modelApiDownstream } from '../agent/downstream.js';
import { watchStops } from '../os/stops.js';
import type { RunInfo } from '../evidence/run-accounting.js';
import type { Stage, StagePhases, TimePhase } from '../evidence/phases.js';
import { setupLine, type JudgeSpace } from './judge-space.js';
import type { LoopOptions } from './options.js';
import type { LoopState } from '../evidence/state.js';
import { elapsedMs, roundHeartbeat, timeBudgetStop } from './time-budget.js';

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
  /** The baseline's tree, where a canary that left no mark is probed (once per criterion: the answers). */
  canaryBaseline?: { tree: string; reaches: Map<string, Promise<boolean>> };
  /** The tests each criterion reported failing at a round of this run, by name: the canary run copies them (judge/shadow.ts). */
  canaryFailing?: ReadonlyMap<string, readonly string[]>;
  /** When the last of them not within another ended (on the loop's clock): what follows until the next is on record too. */
  stagesEnd?: number;
  section?: Section;
  /** The next iteration's capsule, prepared when the last one was recorded. */
  next?: { n: number; prepared: PreparedCapsule };
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
  opts: { signal?: AbortSignal; reuse?: boolean; judge?: JudgeSpace; watchStops?: boolean; stage?: Stage } = {},
) {
  // A STOP (file, label) during the checks pauses the round, as a signal does; the final replays
  // of a claim (watchStops false) finish, and the stop is honoured when they have.
  // The run's time budget ends a round as a stop does, the final replays' too (time-budget.ts).
  const stop = watchStops([...(opts.watchStops === false ? [] : ctx.stops), timeBudgetStop(ctx)], ctx.o.pollMs ?? 1000, opts.signal);
  const quiet = roundHeartbeat(ctx, dir);
  try {
    return await judgeRound(ctx, dir, tree, { ...opts, signal: stop.signal });
  } catch (e) {
    // checks.setup cut short by the stop: the round did not run, and says so as any aborted one.
    if (!(e instanceof Stopped)) throw e;
    const residual: { error: string } = { error: e.message };
    return { checks: [] as CheckResult[], residual, cwd: '', junit: undefined, canary: undefined, aborted: true as const };
  } finally {
    quiet();
    stop.close();
  }
}

async function judgeRound(ctx: Ctx, dir: string, tree: string, opts: { signal: AbortSignal; reuse?: boolean; judge?: JudgeSpace; stage?: Stage }) {
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
  const treeFiles = async () => judge.files?.(tree) ?? (await ctx.git.treeFiles(tree));
  const files = cfg.acceptance_criteria.some((c) => c.inputs) ? await treeFiles() : undefined;
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
  ctx.canaryFailing = await withFailing(ctx.canaryFailing, { checks, junit, cwd }, (c) => ctx.ev.readText(c.evidence.split('#')[0]));
  // The runner proves itself honest (clean workspace only: the canary is never written to the agent's tree).
  const canary =
    judge.mode === 'clean' && !opts.signal.aborted
      ? await time('canary', async () =>
          runCanaries(cfg.acceptance_criteria, checks, {
            runner: judge.runner,
            cwd,
            env: judge.env,
            files: files ?? (await treeFiles()),
            protectedGlobs: ctx.plan.protected,
            signal: opts.signal,
            after: (step) => judge.keepsTree(step, glob),
            log: (line) => ctx.o.log.info(`${dir}: ${line}`),
            reached: ctx.canaryReached,
            failing: ctx.canaryFailing,
            // Iteration rounds only: a replay's round may hold the fresh checkout the probe takes.
            baselineReaches: opts.reuse ? (k) => baselineReaches(ctx, k, glob, opts.signal) : undefined,
          }),
        )
      : undefined;
  // Kept in the state for a resumed run (sorted: the same history gives the same bytes).
  const failing = [...ctx.canaryFailing].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]): [string, string[]] => [k, [...v]]);
  ctx.state.canary = { reached: [...ctx.canaryReached].sort(), failing: Object.fromEntries(failing) };
  const lying = canary?.find(compromised);
  if (lying) throw new RunnerCompromised(dir, lying.criterion, lying.runner ?? 'unknown', lying.outcome === 'not_run', lying.lyingCopy);
  return { checks, residual, cwd, junit, canary: canary?.map(({ reachedBefore: _, lyingCopy: __, ...c }) => c), aborted: opts.signal.aborted };
}

/**
 * Whether the baseline's tree reaches the canary of `criterion`: a probe in a brand-new checkout of
 * it (its own setup), once per run and criterion. Unknown (no baseline this run, no second place
 * to judge in): false, and the silent canary says nothing of the runner, as one never reached.
 */
function baselineReaches(ctx: Ctx, criterion: Criterion, glob: string | undefined, signal: AbortSignal): Promise<boolean> {
  const base = ctx.canaryBaseline;
  const aside = ctx.judge.aside?.();
  if (!base || !aside) return Promise.resolve(false);
  const known = base.reaches.get(criterion.id);
  if (known) return known;
  const probe = (async () => {
    const cwd = await aside.prepare(base.tree, { signal });
    return probeCanary(criterion, {
      runner: aside.runner,
      cwd,
      env: aside.env,
      files: await ctx.git.treeFiles(base.tree),
      protectedGlobs: ctx.plan.protected,
      signal,
      after: (step) => aside.keepsTree(step, glob),
      log: (line) => ctx.o.log.info(`baseline: ${line}`),
    });
  })();
  base.reaches.set(criterion.id, probe);
  return probe;
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

export { elapsedMs };

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
    downstreams: ctx.keyProxy ? [modelApiDownstream(ctx.keyProxy.upstream)] : [],
    mask: scrubber(ctx.secrets),
    cliVersion: ctx.cliVersion,
  };
}
