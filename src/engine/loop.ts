// The loop (seed §2–§3): restore from evidence, build the capsule, run a fresh agent, collect and
// hash, check, certify, learn, score, commit, decide — until a terminal state with a certificate.
import { mkdir, open, readFile, rename, rm, unlink } from 'node:fs/promises';
import { hostname, homedir, tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { agentEnvironment, scrubbableValues, scrubSecrets } from './agents.js';
import { changedSince, collectArtifacts, protectedMatcher, snapshotDirty, spawnAgent, type AgentSpec, type Collected } from './agent-step.js';
import { extractSection, mergeSection, openQuestionsOf, renderEntry, renderSection, sanitizeList, witness, type Direction, type Entry, type Fact, type Section } from './agents-md.js';
import { allDecimalStrings, checkTriangle, iterDir, phucTest, selfTests } from './audit.js';
import { DiskUsage, firstStop, StopFile } from './backpressure.js';
import { capsuleProblems, renderPrompt, SKILL_PACK, SUBAGENT_ROLE, type ArtifactLink, type Capsule } from './capsule.js';
import { sanitizeAgentText } from './agents-md.js';
import { canonicalJson, sha256 } from './canonical.js';
import { convergenceClaimProblem, EXIT_PRECEDENCE, issueCertificate, type Certificate, type FiredExit } from './certificate.js';
import { inputsHash, runChecks, updatePasses, type CheckResult, type PassRecord } from './checks.js';
import { parseVerdict, renderCriticPrompt, type VerdictState } from './critic.js';
import { initialProgress, improvement, trackSignatures, trackStall, type ProgressState } from './progress.js';
import { failureSignature, type Signature } from './signature.js';
import type { AgentPresetName, BudgetOverrides } from './config.js';
import { blockerClass, type BlockerClass } from './dega.js';
import { Decimal, dstr } from './decimal.js';
import { atomicWrite, EvidenceStore, listFiles, NOT_EVIDENCE } from './evidence.js';
import { EXIT_CODES, Fsm, InvariantViolation, type TerminalState } from './fsm.js';
import { Git } from './git.js';
import { scoreGlow, trailingZeroW, type Glow } from './glow.js';
import { measure, snapshot, type NorthstarSnapshot } from './northstar.js';
import { buildPlan, intake, LOOP_SCRATCH_DIR, type Intake, type NeedInfo, type Plan } from './plan.js';
import type { Clock, Logger, ProcessRunner, StopSource } from './ports.js';
import { buildReport, type HaltingReport, type RungResult } from './report.js';
import { computeResidual } from './residual.js';
import { verifyTree } from './verify.js';

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
  glow_history: Glow[];
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

export interface IterationRow {
  iteration: number;
  G: number;
  L: number;
  O: number;
  W: number;
  total: number;
  certificate: string;
  residual: string | null;
  northstar_distance: string | null;
}

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

interface Ctx {
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

const scrubber = (secrets: string[]) => (t: string) => scrubSecrets(t, secrets);

export async function runLoop(o: LoopOptions): Promise<LoopOutcome> {
  const fsm = new Fsm();
  const git = new Git(o.runner, o.cwd, o.env);
  const cwd = await git.toplevel().catch(() => null);
  const evRel = o.evidenceDir ?? DEFAULT_EVIDENCE_DIR;
  const ev = new EvidenceStore(resolve(cwd ?? o.cwd, evRel));
  const configPath = o.configPath ?? 'phuc-loop.yml';
  fsm.to('INTAKE_GOAL');
  if (!cwd || !(await git.head())) {
    fsm.to('EXIT_NEED_INFO');
    return needInfo(ev, { stop_reason: 'NULL_INPUT', missing_fields: ['repository'], messages: [`${o.cwd} is not a git checkout with at least one commit`] }, o);
  }
  fsm.to('NULL_CHECK');
  const got = await intake(cwd, configPath, o.agentOverride, o.budgetOverrides);
  if ('stop_reason' in got) {
    fsm.to('EXIT_NEED_INFO');
    return needInfo(ev, got, o);
  }
  const lock = await acquireLock(ev);
  if (typeof lock === 'string') {
    o.log.error(lock);
    fsm.to('DREAM_GOAL');
    fsm.to('EXIT_BLOCKED');
    return blockedEarly('STACKED_SPECULATIVE_ITERATIONS', lock);
  }
  try {
    await git.openSession();
    return await runLocked(o, { fsm, git, cwd, ev, evRel, intake: got, configPath });
  } finally {
    await git.close();
    await lock();
  }
}

async function acquireLock(ev: EvidenceStore): Promise<(() => Promise<void>) | string> {
  const path = ev.path('run.lock');
  await mkdir(dirname(path), { recursive: true });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fh = await open(path, 'wx');
      await fh.writeFile(`${process.pid}@${hostname()}\n`);
      await fh.close();
      return () => unlink(path).catch(() => undefined);
    } catch {
      const [pid, host] = (await readFile(path, 'utf8').catch(() => '')).trim().split('@');
      let alive = false;
      if (host === hostname() && Number(pid) > 0) {
        try {
          process.kill(Number(pid), 0);
          alive = true;
        } catch {
          alive = false;
        }
      }
      if (alive) return `another phuc-loop (pid ${pid}) is running on this evidence tree; the oldest loop keeps running`;
      await rm(path, { force: true }); // stale lock of a crashed loop
    }
  }
  return 'could not take the evidence lock';
}

async function runLocked(
  o: LoopOptions,
  base: { fsm: Fsm; git: Git; cwd: string; ev: EvidenceStore; evRel: string; intake: Intake; configPath: string },
): Promise<LoopOutcome> {
  const { fsm, git, cwd, ev, evRel, intake: got, configPath } = base;
  const secrets = scrubbableValues(o.env);
  const hostPaths = [cwd, ev.root, homedir(), tmpdir()].filter((p) => p.length > 1);
  const checkEnv = agentEnvironment(o.env, {});
  await git.ensureIdentity();
  const evTop = relative(cwd, ev.root).split('/')[0];
  await git.exclude([`/${evTop}/`, `/${LOOP_SCRATCH_DIR}/`]);
  const stops: StopSource[] = [
    ...(o.stopSources ?? []),
    new StopFile(join(cwd, LOOP_SCRATCH_DIR, 'STOP'), `${LOOP_SCRATCH_DIR}/STOP`),
    new DiskUsage(cwd),
  ];

  // Restore: a previous tree is verified first; a tree that does not verify is never replaced silently.
  let resumed: { plan: Plan; state: LoopState } | null = null;
  if (o.fresh && (await ev.exists())) {
    const archive = `${ev.root}.previous`;
    await rm(archive, { recursive: true, force: true });
    await rename(ev.root, archive);
    o.log.info(`fresh start: the previous evidence tree was moved to ${relative(cwd, archive)}`);
    await mkdir(ev.root, { recursive: true });
    await acquireLockFile(ev);
  }
  if ((await ev.readText('manifest.json')) !== null) {
    const check = await verifyTree(ev.root, { allowOpenTail: true });
    const plan = await ev.readJson<Plan>('plan.json');
    const state = await ev.readJson<LoopState>('state.json');
    const problem = !check.ok
      ? `the evidence tree in ${evRel} does not verify: ${check.problems.slice(0, 5).join('; ')}`
      : !plan || !state
        ? `the evidence tree in ${evRel} has no plan.json/state.json to resume from`
        : plan.config_sha256 !== got.contract
          ? `${configPath} changed since the plan in ${evRel} was made (beyond its budget and agent); run with --fresh to start a new loop (the old tree is kept)`
          : plan.halting_certificates_applicable.length === 0
            ? 'HALTING_CRITERIA_MISSING: the plan declares no certificate'
            : null;
    if (problem) {
      fsm.to('DREAM_GOAL');
      fsm.to('EXIT_BLOCKED');
      o.log.error(problem);
      return blockedEarly(problem.startsWith('HALTING') ? 'HALTING_CRITERIA_MISSING' : 'EVIDENCE_UNVERIFIABLE', problem);
    }
    await ev.loadManifest();
    for (const stray of check.openTail) await rm(ev.path(stray), { force: true });
    resumed = { plan: plan!, state: state! };
    const head = await git.head();
    const t = state!.terminal;
    const sameInputs = !!t?.inputs_hash && t.inputs_hash === (await allInputsHash(cwd, got.config.acceptance_criteria, await git.listFiles()));
    // A backpressure stop (STOP, cancellation, rate limit) is a pause, and a budget exit continues
    // with a changed budget: the next run goes on. Otherwise an unchanged checkout has nothing to do.
    const paused = t?.stop_reason === 'BACKPRESSURE_SIGNAL' || (t?.status === 'EXIT_BUDGET_EXCEEDED' && canonicalJson(plan!.budget) !== canonicalJson(got.budget.budget));
    if (t && !paused && (t.head === head || sameInputs)) {
      const why =
        `nothing to do: the last run ended ${t.status}(${t.stop_reason}) at ${t.head?.slice(0, 12)} and ` +
        (t.head === head ? 'the checkout has not changed since' : 'the inputs of every criterion are unchanged since');
      o.log.info(why);
      const report = (await ev.readJson<HaltingReport>('halting_report.json'))!;
      return { status: t.status, stop_reason: t.stop_reason, exitCode: EXIT_CODES[t.status], report, nothingToDo: why };
    }
  }

  fsm.to('DREAM_GOAL');
  const ctx: Ctx = {
    o,
    cwd,
    git,
    ev,
    evRel,
    fsm,
    intake: got,
    plan: resumed?.plan ?? (null as unknown as Plan),
    state: resumed?.state ?? initialState(),
    entries: [],
    stops,
    secrets,
    hostPaths,
    checkEnv,
    iterations: [],
    startMs: o.clock.monotonicMs(),
    previousTotalMs: resumed?.state.total_ms ?? 0,
    pendingLogs: [],
  };
  if (resumed) {
    ctx.state.terminal = null;
    if (canonicalJson(ctx.plan.budget) !== canonicalJson(got.budget.budget)) {
      o.log.info(`budget changed on resume: ${JSON.stringify(ctx.plan.budget)} → ${JSON.stringify(got.budget.budget)}`);
      ctx.plan.budget = got.budget.budget;
      ctx.plan.budget_revisions = [...(ctx.plan.budget_revisions ?? []), { from_iteration: ctx.state.next_iteration, budget: got.budget.budget }];
      await ev.writeJson('plan.json', ctx.plan);
    }
    ctx.iterations = range(0, ctx.state.next_iteration).filter((n) => ev.entry(`${iterDir(n)}/certificate.json`));
    for (const n of ctx.iterations) {
      const text = (await ev.readText(`${iterDir(n)}/agents_md_entry.md`)) ?? '';
      ctx.entries.push({ iteration: n, text, link: ev.link(`${iterDir(n)}/agents_md_entry.md`) });
    }
    o.log.info(`resuming from ${evRel}: ${ctx.iterations.length} iteration(s) on record, next is ${ctx.state.next_iteration}`);
  } else {
    ctx.plan = await dream(ctx, configPath);
  }

  // Backpressure before any agent starts ends the loop without spawning one.
  const early = await firstStop(stops);
  if (early) return finish(ctx, 'EXIT_BLOCKED', 'BACKPRESSURE_SIGNAL', { backpressure: early });

  for (;;) {
    const n = ctx.state.next_iteration;
    // BUDGET_IGNORE (seed §3.6): never start an iteration past the budget.
    const over = budgetExhausted(ctx, 0);
    if (over) {
      fsm.to('EXIT_BUDGET_EXCEEDED');
      return finish(ctx, 'EXIT_BUDGET_EXCEEDED', over.code, {});
    }
    fsm.to('SPAWN_SUBAGENT');
    const decision = await iterate(ctx, n);
    if (decision) return decision;
  }
}

async function acquireLockFile(ev: EvidenceStore): Promise<void> {
  const fh = await open(ev.path('run.lock'), 'w');
  await fh.writeFile(`${process.pid}@${hostname()}\n`);
  await fh.close();
}

function initialState(): LoopState {
  return {
    schema_version: '2.0',
    next_iteration: 0,
    residual_history: [],
    glow_history: [],
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

const range = (a: number, b: number) => Array.from({ length: Math.max(0, b - a) }, (_, i) => a + i);

/** DREAM_GOAL: baseline checks and Northstar readings, then plan.json before iteration 0. */
async function dream(ctx: Ctx, configPath: string): Promise<Plan> {
  const { intake: i, ev, o } = ctx;
  await ev.clear();
  o.log.info(`plan: ${i.config.acceptance_criteria.length} criteria, certificates ${i.config.certificates.join('/')}, rung ${i.config.rung_target}, agent ${i.config.agent.use}`);
  const { tree } = await ctx.git.stage([]);
  const files = await ctx.git.listFiles();
  const checks = await runChecks(i.config.acceptance_criteria, checkCtx(ctx, 'baseline', tree, { files }));
  ctx.state.passes = updatePasses({}, checks, 'baseline');
  const residual = await computeResidual(i.config, checks, { runner: o.runner, cwd: ctx.cwd, env: ctx.checkEnv });
  const met = new Map(checks.map((c) => [c.id, c.met]));
  const readings = await measureAll(ctx, 'value' in residual ? residual.value : new Decimal(0), met);
  const baselineValues: Record<string, string> = {};
  readings.forEach((r, k) => (baselineValues[i.northstar[k].id] = r.value ?? i.northstar[k].current));
  let apiBefore: string | null = null;
  if (i.config.security) {
    const r = await o.runner.run({ command: i.config.security.api_surface, cwd: ctx.cwd, env: ctx.checkEnv, timeoutMs: 600_000 });
    apiBefore = ev.link((await ev.write('api_surface_before.txt', scrub(ctx, r.stdout))).path);
  }
  const plan = buildPlan(
    i,
    configPath,
    {
      residual: 'value' in residual ? dstr(residual.value) : null,
      residual_detail: 'value' in residual ? residual.detail : residual.error,
      criteria: checks.map((c) => ({ id: c.id, met: c.met, evidence: c.evidence })),
    },
    baselineValues,
    apiBefore,
  );
  await ev.writeJson('plan.json', plan);
  if (i.budget.reductions.length) await ev.write('budget_reduction.log', i.budget.reductions.join('\n') + '\n');
  ctx.state.criteria_met = Object.fromEntries(met);
  ctx.state.progress = initialProgress(plan.baseline.residual);
  ctx.state.last_northstar = snapshot(i.northstar, readings, new Map(Object.entries(baselineValues)));
  o.log.info(
    `baseline: ${checks.filter((c) => c.met).length}/${checks.length} criteria met, residual ${plan.baseline.residual ?? `unavailable (${plan.baseline.residual_detail})`}`,
  );
  await saveState(ctx);
  return plan;
}

function scrub(ctx: Ctx, text: string): string {
  return scrubSecrets(text, ctx.secrets);
}

function checkCtx(ctx: Ctx, dir: string, tree: string, opts: { signal?: AbortSignal; files?: string[]; reuse?: boolean } = {}) {
  return {
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
  };
}

/** The hash of every criterion's inputs, when every criterion declares them (else null). */
async function allInputsHash(cwd: string, criteria: Intake['config']['acceptance_criteria'], files: string[]): Promise<string | null> {
  if (!criteria.every((c) => c.inputs)) return null;
  const hashes = await Promise.all(criteria.map((c) => inputsHash(cwd, c.inputs!, files)));
  return sha256(criteria.map((c, i) => `${c.id}\0${hashes[i]}`).join('\n'));
}

async function measureAll(ctx: Ctx, residual: Decimal, met: ReadonlyMap<string, boolean>) {
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

function elapsedMs(ctx: Ctx): number {
  return ctx.previousTotalMs + (ctx.o.clock.monotonicMs() - ctx.startMs);
}

function budgetExhausted(ctx: Ctx, extraIterations: number): { code: string; reason: string } | null {
  const b = ctx.plan.budget;
  const done = ctx.state.next_iteration + extraIterations;
  if (done >= b.max_iterations) return { code: 'MAX_ITERS', reason: `${done} of ${b.max_iterations} iterations used` };
  if (elapsedMs(ctx) >= b.max_total_seconds * 1000) return { code: 'MAX_TOTAL_SECONDS', reason: `${Math.floor(elapsedMs(ctx) / 1000)} s of ${b.max_total_seconds} s used` };
  if (b.max_total_cost_usd !== null && new Decimal(ctx.state.total_cost_usd).gte(b.max_total_cost_usd))
    return { code: 'MAX_COST', reason: `$${ctx.state.total_cost_usd} of $${b.max_total_cost_usd} spent` };
  if (ctx.state.total_tool_calls >= b.max_total_tool_calls) return { code: 'MAX_TOOL_CALLS', reason: `${ctx.state.total_tool_calls} of ${b.max_total_tool_calls} tool calls used` };
  return null;
}

function currentResidual(ctx: Ctx): string | null {
  return ctx.state.residual_history.at(-1) ?? ctx.plan.baseline.residual;
}

function buildCapsule(ctx: Ctx, n: number, withAgentText: boolean): { capsule: Capsule; section: Section } {
  const { plan, state } = ctx;
  const lastEntry = ctx.entries.at(-1)?.text ?? null;
  // The section as the last iteration wrote it (rendered once per iteration).
  const section = withAgentText ? (ctx.section ??= renderSection({ meta: sectionMeta(ctx), entries: ctx.entries })) : renderSection({ meta: sectionMeta(ctx), entries: [] });
  const criteria = plan.acceptance_criteria.map((c) => ({ id: c.id, met: !!state.criteria_met[c.id] }));
  const rp = plan.R_p ? new Decimal(plan.R_p) : null;
  const residual = currentResidual(ctx);
  const lastCert = ctx.iterations.length ? `${iterDir(ctx.iterations.at(-1)!)}` : null;
  const blocker = blockerClass({
    criteria,
    residualAvailable: residual !== null,
    residualBelowRp: residual === null ? null : rp ? new Decimal(residual).lt(rp) : new Decimal(residual).isZero(),
    guardrail: false,
  });
  const links: ArtifactLink[] = [{ path: `${ctx.evRel}/plan.json`, sha256: ctx.ev.entry('plan.json')!.sha256, role: 'plan' }];
  const roles: [string, ArtifactLink['role']][] = lastCert
    ? [
        [`${lastCert}/certificate.json`, 'proof'],
        [`${lastCert}/diff.patch`, 'artifact'],
        ...plan.acceptance_criteria.map((c): [string, ArtifactLink['role']] => [`${lastCert}/checks/${c.id}.log`, 'test']),
      ]
    : plan.acceptance_criteria.map((c): [string, ArtifactLink['role']] => [`baseline/checks/${c.id}.log`, 'test']);
  for (const [rel, role] of roles) {
    const e = ctx.ev.entry(rel);
    if (e) links.push({ path: `${ctx.evRel}/${rel}`, sha256: e.sha256, role });
  }
  const b = plan.budget;
  const glow = state.glow_history.at(-1);
  const capsule: Capsule = {
    version: '2.0',
    goal_statement: plan.goal,
    acceptance_criteria: plan.acceptance_criteria.map((c) => `${c.id}: ${c.description} (the loop runs \`${c.run}\`; exit 0 = met)`),
    halting_certificates_applicable: plan.halting_certificates_applicable,
    northstar_metrics: plan.northstar.metrics.map((m) => ({
      id: m.id,
      metric: m.metric,
      current: state.last_northstar?.readings.find((r) => r.id === m.id)?.value ?? m.current,
      target: m.target,
    })),
    current_state_summary: {
      iteration_number: n,
      residual_current: residual,
      glow_previous_iteration: glow ? { total: glow.total, G: glow.G, L: glow.L, O: glow.O, W: glow.W } : null,
      northstar_distance_current: state.last_northstar?.total_distance ?? null,
      criteria_met_so_far: criteria.filter((c) => c.met).map((c) => c.id),
      criteria_still_open: criteria.filter((c) => !c.met).map((c) => c.id),
      open_questions_from_last_iteration: withAgentText && lastEntry ? openQuestionsOf(lastEntry) : [],
      blocker_class: blocker.class,
      blocker_reason: blocker.reason,
      objective: blocker.objective,
      detour:
        withAgentText && state.progress.detour?.iteration === n
          ? state.progress.detour.repeated.map((d) => ({ criterion: d.criterion, signature: d.signature, failure: d.text, known_fix: d.instruction }))
          : [],
      reusable_passes: Object.entries(state.passes)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([id, p]) => ({ criterion: id, from: p.iteration === 'baseline' ? 'baseline' : `iteration ${p.iteration}`, evidence: p.evidence })),
      agent: describeAgent(ctx, n),
      escalated: isEscalated(ctx, n),
    },
    accumulated_learnings: section.text,
    remaining_budget: {
      iterations_remaining: b.max_iterations - n,
      tool_calls_remaining: Math.max(0, b.max_total_tool_calls - state.total_tool_calls),
      // Whole seconds of recorded iterations only, so the capsule is a function of the evidence.
      seconds_remaining: Math.max(0, b.max_total_seconds - Math.floor(state.total_ms / 1000)),
      cost_remaining_usd: b.max_total_cost_usd === null ? null : dstr(Decimal.max(0, new Decimal(b.max_total_cost_usd).minus(state.total_cost_usd))),
    },
    artifact_links: links,
    skill_pack: SKILL_PACK,
    subagent_role: SUBAGENT_ROLE,
    rung_target: plan.rung_target,
  };
  return { capsule, section };
}

/** The agent for iteration n: the configured one, or the escalation once the loop has stalled. */
function agentSpec(ctx: Ctx, n: number): AgentSpec {
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

function isEscalated(ctx: Ctx, n: number): boolean {
  const at = ctx.state.progress.escalated_at;
  return !!ctx.intake.config.agent.escalate && at !== null && n >= at;
}

/** How the capsule and report name the agent of iteration n (never its command line: it may hold host paths). */
function describeAgent(ctx: Ctx, n: number): string {
  const a = agentSpec(ctx, n);
  return `${a.preset}${a.model ? ` (model ${a.model})` : ''}${isEscalated(ctx, n) ? ' [escalated]' : ''}`;
}

async function missionText(ctx: Ctx): Promise<string | undefined> {
  const file = ctx.intake.config.mission_context;
  if (!file) return undefined;
  const text = await readFile(join(ctx.cwd, file), 'utf8').catch(() => null);
  // Motivation and framing only (DEGA ideology rule), and data like every repository text.
  return text === null ? `(${file} could not be read)` : sanitizeAgentText(text, ctx.hostPaths, 4000);
}

/**
 * The capsule and prompt of iteration n, validated (CONTEXT_BLEED): a capsule with forbidden content
 * is rebuilt from artifacts only (no agent-written text); if that is refused too, the problems.
 */
async function prepareCapsule(ctx: Ctx, n: number): Promise<{ capsule: Capsule; prompt: string } | { problems: string[] }> {
  let capsule = buildCapsule(ctx, n, true).capsule;
  let problems = capsuleProblems(capsule, ctx.hostPaths);
  if (problems.length) {
    ctx.o.log.warn(`capsule refused (${problems.join('; ')}); rebuilding from artifacts only`);
    capsule = buildCapsule(ctx, n, false).capsule;
    problems = capsuleProblems(capsule, ctx.hostPaths);
    if (problems.length) return { problems };
  }
  const plan = ctx.plan;
  const prompt = renderPrompt(capsule, {
    criteria: plan.acceptance_criteria,
    protectedPaths: plan.protected,
    R_p: plan.R_p,
    residualMetric: plan.residual.metric,
    evidenceDir: ctx.evRel,
    mission: await missionText(ctx),
  });
  return { capsule, prompt };
}

function sectionMeta(ctx: Ctx) {
  const p = ctx.plan;
  return { goal: p.goal, R_p: p.R_p, max_iterations: p.budget.max_iterations, rung_target: p.rung_target, northstar: p.northstar.metrics.map((m) => ({ id: m.id, target: m.target })) };
}

/** One iteration, SPAWN_SUBAGENT through BUDGET_CHECK; returns the outcome when the loop halts. */
async function iterate(ctx: Ctx, n: number): Promise<LoopOutcome | null> {
  const { o, ev, git, fsm, plan, state } = ctx;
  const dir = iterDir(n);
  const iterStart = o.clock.monotonicMs();

  // Capsule: rebuilt from evidence (prepared at the end of the last iteration as next-prompt.md).
  const prepared = ctx.next?.n === n ? ctx.next.prepared : await prepareCapsule(ctx, n);
  ctx.next = undefined;
  if ('problems' in prepared) {
    fsm.to('EXIT_BLOCKED');
    return finish(ctx, 'EXIT_BLOCKED', 'CONTEXT_BLEED_BETWEEN_ITERATIONS', { detail: prepared.problems.join('; ') });
  }
  const { capsule, prompt } = prepared;
  await ev.writeJson(`${dir}/cnf_capsule.json`, capsule);
  await ev.write(`${dir}/prompt.md`, prompt);

  const before = await snapshotDirty(git, ctx.cwd);
  const { head: startHead, branch } = await git.position();
  const remainingMs = plan.budget.max_total_seconds * 1000 - elapsedMs(ctx);
  const reportFile = join(ctx.cwd, LOOP_SCRATCH_DIR, 'phuc-loop', 'report.json');
  const agent = await spawnAgent({
    runner: o.runner,
    cwd: ctx.cwd,
    spec: agentSpec(ctx, n),
    prompt,
    promptFile: ev.path(`${dir}/prompt.md`),
    capsuleFile: ev.path(`${dir}/cnf_capsule.json`),
    reportFile,
    iteration: n,
    baseEnv: o.env,
    timeoutMs: Math.max(1000, Math.min(plan.budget.max_seconds_per_iteration * 1000, remainingMs)),
    stopSources: ctx.stops,
    pollMs: o.pollMs ?? 1000,
    signal: o.signal,
  });
  const ar = agent.result;
  o.log.info(
    `iter ${n}: agent ${(ar.durationMs / 1000).toFixed(1)} s, ${ar.timedOut ? 'killed at the time limit' : ar.aborted ? 'stopped' : `exit ${ar.exitCode ?? ar.signal}`}` +
      `${agent.costUsd ? `, $${agent.costUsd}` : ''}${agent.backpressure ? ` — backpressure: ${agent.backpressure}` : ''}`,
  );

  fsm.to('COLLECT_ARTIFACTS');
  const after = await git.position();
  if (branch !== after.branch) {
    fsm.to('EXIT_BLOCKED');
    return finish(ctx, 'EXIT_BLOCKED', 'INVARIANT_VIOLATION', { detail: `the agent switched the branch from ${branch} to ${after.branch}` });
  }
  const collected = await collectArtifacts({
    git,
    cwd: ctx.cwd,
    evidence: ev,
    dir,
    before,
    startHead: startHead!,
    isProtected: protectedMatcher(plan.protected),
    agent,
    reportFile,
    scrub: scrubber(ctx.secrets),
  });
  if (agent.costUsd) {
    state.total_cost_usd = dstr(new Decimal(state.total_cost_usd).plus(agent.costUsd));
    state.cost_reported = true;
  }
  state.total_tool_calls += agent.turns ?? 0;
  const guardrail = collected.reverted.length ? `protected paths changed and reverted: ${collected.reverted.join(', ')}` : null;
  const empty = !collected.diff && collected.report.state === 'absent' && !guardrail;
  o.log.info(
    `iter ${n}: ${collected.diffFiles} file(s) changed, report ${collected.report.state}` +
      `${guardrail ? ` — GUARDRAIL: ${guardrail}` : ''}${collected.agentCommitsFolded ? `, ${collected.agentCommitsFolded} agent commit(s) folded in` : ''}`,
  );

  // CHECK_HALTING (VERIFY vertex). A stopped agent's iteration skips the checks and carries the residual.
  if (!empty) fsm.to('CHECK_HALTING');
  const stopped = ar.aborted && agent.backpressure !== null;
  const tree = collected.tree;
  let checks: CheckResult[] = [];
  let files: string[] = [];
  let residual: Decimal | null = null;
  let residualDetail: string;
  let residualError: string | null = null;
  const carried = currentResidual(ctx);
  if (stopped || empty) {
    residual = carried === null ? null : new Decimal(carried);
    residualDetail = `carried from the previous measurement (checks not run: ${stopped ? 'backpressure' : 'no artifact'})`;
  } else {
    files = await git.listFiles();
    checks = await runChecks(ctx.intake.config.acceptance_criteria, checkCtx(ctx, dir, tree, { signal: o.signal, files, reuse: true }));
    state.passes = updatePasses(state.passes, checks, n);
    const r = await computeResidual(ctx.intake.config, checks, { runner: o.runner, cwd: ctx.cwd, env: ctx.checkEnv, signal: o.signal });
    if ('error' in r) {
      residualError = r.error;
      residualDetail = r.error;
    } else {
      residual = r.value;
      residualDetail = r.detail;
    }
  }
  const met = new Map(checks.length ? checks.map((c) => [c.id, c.met]) : Object.entries(state.criteria_met));

  // The Skeptic's other voices: failure signatures (detour, STUCK), the critic, the stall counter.
  const cfg = ctx.intake.config;
  const progressExits: FiredExit[] = [];
  const failing = await failingSignatures(ctx, checks);
  const progressed = residual !== null && carried !== null && residual.lt(carried);
  const sig = checks.length ? trackSignatures(state.progress, failing, cfg.detours, n, progressed) : { stuck: [], detour: null };
  const verdict = checks.length ? await critique(ctx, n, collected.diff, checks) : null;
  const stall = checks.length && residual !== null ? trackStall(state.progress, residual, { stallIterations: cfg.stall_iterations, canEscalate: !!cfg.agent.escalate, iteration: n }) : null;
  if (verdict?.state.state === 'valid' && !verdict.state.verdict.can_further_iteration_help && checks.some((c) => !c.met))
    progressExits.push({ kind: 'NO_VIABLE_FIX_PATH', reason: `the critic says no further iteration can help${verdict.state.verdict.reason ? `: ${verdict.state.verdict.reason}` : ''}` });
  if (sig.stuck.length) progressExits.push({ kind: 'STUCK', reason: `the same failure after a detour: ${sig.stuck.map((x) => x.signature).join(', ')}` });
  if (stall?.stalledOut)
    progressExits.push({ kind: 'STALLED', reason: `no residual below ${state.progress.best_residual} for ${state.progress.stalled} iterations${state.progress.escalated_at !== null ? ' (after escalation)' : ''}` });
  if (stall?.escalate) o.log.info(`iter ${n}: residual stalled for 2 iterations — escalating to ${describeAgent(ctx, n + 1)}`);
  if (sig.detour) o.log.info(`iter ${n}: repeated failure ${sig.detour.repeated.map((d) => d.signature).join(', ')} — detour next iteration`);
  const readings = await measureAll(ctx, residual ?? new Decimal(carried ?? 0), met);
  const ns = snapshot(ctx.intake.northstar, readings, new Map(Object.entries(plan.northstar.baseline)));
  if (checks.length) await ev.writeJson(`${dir}/checks.json`, { checks, residual: residual ? dstr(residual) : null, residual_detail: residualDetail, northstar: ns });
  const lateStop = agent.backpressure ?? (await firstStop(ctx.stops));
  const budgetAfter = budgetExhausted(ctx, 1);
  const cert: Certificate =
    residual === null
      ? nullResidualCertificate(ctx, n, tree, residualDetail)
      : issueCertificate({
          iteration: n,
          declared: plan.halting_certificates_applicable as Certificate['declared_certificates'],
          residualMetric: plan.residual.metric,
          residual,
          residualDetail,
          R_p: plan.R_p ? new Decimal(plan.R_p) : null,
          history: state.residual_history,
          checks,
          tree,
          previousSha256: state.last_certificate_sha256,
          guardrail,
          backpressure: lateStop,
          budget: budgetAfter ? `${budgetAfter.code}: ${budgetAfter.reason}` : null,
          progress: progressExits,
        });
  if (empty) cert.exits_fired.unshift({ kind: 'INVARIANT', reason: 'EVIDENCE_INCOMPLETE: the agent changed nothing and wrote no report' });
  const certEntry = await ev.writeJson(`${dir}/certificate.json`, cert);
  // VERIFY_SKIPPED (seed §3.6): the certificate must be on disk before ACCUMULATE_LEARNINGS.
  if ((await ev.readText(`${dir}/certificate.json`)) === null) throw new InvariantViolation(`VERIFY_SKIPPED: ${dir}/certificate.json missing`);
  o.log.info(
    `iter ${n}: checks ${checks.filter((c) => c.met).length}/${plan.acceptance_criteria.length}${checks.length ? '' : ' (not run)'} · residual ${cert.residual ?? 'unavailable'} · certificate ${cert.type}`,
  );

  // ACCUMULATE_LEARNINGS (ACKNOWLEDGE vertex) and GLOW.
  if (fsm.state === 'CHECK_HALTING') fsm.to('ACCUMULATE_LEARNINGS');
  const previousResidual = carried === null ? null : new Decimal(carried);
  const prevMet = new Map(Object.entries(state.criteria_met));
  const { entry, facts } = learn(ctx, n, {
    agent,
    collected,
    checks,
    cert,
    guardrail,
    residual,
    previousResidual,
    ns,
    certLink: ev.link(`${dir}/certificate.json`),
    stopped,
    empty,
    residualError,
    verdict: verdict?.state ?? null,
    criticReverted: verdict?.reverted ?? [],
    detour: sig.detour,
    escalated: stall?.escalate ? describeAgent(ctx, n + 1) : null,
  });
  const newA = facts.filter((f) => f.startsWith('A:') && !state.last_facts.includes(f)).length > 0;
  const newB = facts.some((f) => f.startsWith('B:'));
  const glow = scoreGlow({
    iteration: n,
    previouslyMet: prevMet,
    met,
    previousResidual,
    residual: residual ?? previousResidual ?? new Decimal(0),
    R_p: plan.R_p ? new Decimal(plan.R_p) : null,
    diffProduced: !!collected.diff,
    report: collected.report.state,
    newLaneA: newA,
    newLaneB: newB,
    laneC: collected.report.state === 'valid',
    previousDistance: state.last_northstar?.total_distance ? new Decimal(state.last_northstar.total_distance) : null,
    distance: ns.total_distance ? new Decimal(ns.total_distance) : null,
  });
  const previousGlow = state.glow_history.at(-1);
  entry.glow = { total: glow.total, G: glow.G, L: glow.L, O: glow.O, W: glow.W };
  entry.glow_delta = previousGlow ? glow.total - previousGlow.total : null;
  const previousLines = (ctx.section ?? renderSection({ meta: sectionMeta(ctx), entries: ctx.entries })).text.split('\n').length;
  const entryText = renderEntry(entry);
  const entryFile = await ev.write(`${dir}/agents_md_entry.md`, entryText);
  ctx.entries.push({ iteration: n, text: entryText, link: ev.link(entryFile.path) });
  const section = (ctx.section = renderSection({ meta: sectionMeta(ctx), entries: ctx.entries }));
  const gbbGc = section.text.split('\n').length - previousLines;
  await ev.writeJson(`${dir}/glow.json`, { ...glow, agents_md_size_delta_lines: gbbGc });
  await writeAgentsMd(ctx, section);
  if (section.compaction && (section.witnessed.length !== state.section_witnessed || section.archived.length !== state.section_archived)) {
    // Each archived iteration's witness lines go to the log once, when it leaves AGENTS.md.
    const newlyArchived = new Set(section.archived.slice(state.section_archived));
    const archivedLines = ctx.entries.filter((e) => newlyArchived.has(e.iteration)).flatMap((e) => witness(e.iteration, e.text, e.link));
    ctx.pendingLogs.push(['compaction.log', `iteration ${n}: ${section.compaction}${archivedLines.map((l) => `\n  ${l}`).join('')}`]);
    state.section_witnessed = section.witnessed.length;
    state.section_archived = section.archived.length;
  }
  const commit = await commitIteration(ctx, n, cert, glow, certEntry.sha256);

  // GLOW_CHECK: three W = 0 in a row is Northstar drift.
  // COLLECT_ARTIFACTS → EXIT_BLOCKED when nothing was produced (seed §3.4); the entry above records why.
  if (empty) fsm.to('EXIT_BLOCKED');
  state.glow_history.push(glow);
  state.rows.push({ iteration: n, G: glow.G, L: glow.L, O: glow.O, W: glow.W, total: glow.total, certificate: cert.type, residual: cert.residual, northstar_distance: ns.total_distance });
  if (residual !== null) state.residual_history.push(dstr(residual));
  if (checks.length) state.criteria_met = Object.fromEntries(met);
  state.last_facts = facts;
  state.last_northstar = ns;
  state.last_certificate_sha256 = certEntry.sha256;
  state.next_iteration = n + 1;
  state.total_ms += Math.round(o.clock.monotonicMs() - iterStart);
  ctx.iterations.push(n);
  recordCycle(ctx, n, { checks, residual, guardrail, empty, residualError, failing, detourNext: !!sig.detour, verdict: verdict?.state ?? null });
  const fired: FiredExit[] = [...cert.exits_fired];
  if (!empty) fsm.to('GLOW_CHECK');
  if (trailingZeroW(state.glow_history) >= 3) {
    fired.push({ kind: 'NORTHSTAR_DRIFT', reason: `W = 0 for ${trailingZeroW(state.glow_history)} iterations in a row` });
    ctx.pendingLogs.push(['northstar_drift.log', `iteration ${n}: W = 0 for ${trailingZeroW(state.glow_history)} consecutive iterations; northstar distance ${ns.total_distance ?? 'n/a'}`]);
  }
  state.exits_fired.push(...fired.map((f) => ({ ...f, iteration: n })));
  o.log.info(`iter ${n}: GLOW ${glow.total} (G${glow.G} L${glow.L} O${glow.O} W${glow.W}) · northstar ${ns.total_distance ?? 'n/a'} · commit ${commit.slice(0, 12)}`);

  // The iteration is on record before the host pushes its commit: a crash after the push resumes after it.
  await flushPendingLogs(ctx);
  await saveState(ctx);
  // BUDGET_CHECK: the first exit in SPEC §3's precedence wins; every one that fired is reported.
  const hostBlock = ctx.o.host?.afterIteration
    ? await ctx.o.host.afterIteration({ iteration: n, commit, report: await interimReport(ctx, n) })
    : null;
  if (empty) return finish(ctx, 'EXIT_BLOCKED', 'EVIDENCE_INCOMPLETE', { detail: 'the agent changed nothing and wrote no report' });
  if (residualError !== null) {
    fsm.to('BUDGET_CHECK');
    fsm.to('EXIT_BLOCKED');
    return finish(ctx, 'EXIT_BLOCKED', 'RESIDUAL_UNAVAILABLE', { detail: residualError });
  }
  if (hostBlock) {
    fired.push({ kind: 'INVARIANT', reason: hostBlock });
    state.exits_fired.push({ kind: 'INVARIANT', reason: hostBlock, iteration: n });
  }
  const rank = (f: FiredExit) => (f.kind === 'INVARIANT' ? -1 : EXIT_PRECEDENCE.indexOf(f.kind));
  const top = [...fired].sort((x, y) => rank(x) - rank(y))[0]?.kind;
  if (top === 'NORTHSTAR_DRIFT') {
    // GLOW_CHECK → EXIT_BLOCKED (seed §3.4): only when nothing of higher precedence fired.
    fsm.to('EXIT_BLOCKED');
    return finish(ctx, 'EXIT_BLOCKED', 'NORTHSTAR_DRIFT', {});
  }
  fsm.to('BUDGET_CHECK');
  switch (top) {
    case 'GUARDRAIL':
      fsm.to('EXIT_BLOCKED');
      return finish(ctx, 'EXIT_BLOCKED', 'GUARDRAIL_VIOLATION', { detail: guardrail! });
    case 'INVARIANT':
      fsm.to('EXIT_BLOCKED');
      return finish(ctx, 'EXIT_BLOCKED', hostBlock!.split(':')[0], { detail: hostBlock! });
    case 'CONVERGED': {
      const claim = convergenceClaimProblem(await ev.readJson<Certificate>(`${dir}/certificate.json`));
      if (claim) {
        fsm.to('EXIT_BLOCKED');
        return finish(ctx, 'EXIT_BLOCKED', 'CONVERGENCE_CLAIM_WITHOUT_R_P_CERTIFICATE', { detail: claim });
      }
      fsm.to('EXIT_CONVERGED');
      return finish(ctx, 'EXIT_CONVERGED', cert.type, {});
    }
    case 'DIVERGED':
      fsm.to('EXIT_DIVERGED');
      return finish(ctx, 'EXIT_DIVERGED', 'SILENT_DIVERGENCE_DETECTED', {});
    case 'NO_VIABLE_FIX_PATH':
    case 'STUCK':
    case 'STALLED':
      fsm.to('EXIT_BLOCKED');
      return finish(ctx, 'EXIT_BLOCKED', top, { detail: fired.find((f) => f.kind === top)!.reason });
    case 'BACKPRESSURE':
      fsm.to('EXIT_BLOCKED');
      return finish(ctx, 'EXIT_BLOCKED', 'BACKPRESSURE_SIGNAL', { backpressure: lateStop ?? undefined });
    case 'BUDGET':
      fsm.to('EXIT_BUDGET_EXCEEDED');
      return finish(ctx, 'EXIT_BUDGET_EXCEEDED', budgetAfter!.code, {});
  }
  await writeIterationRecords(ctx, n);
  return null;
}

function nullResidualCertificate(ctx: Ctx, n: number, tree: string, detail: string): Certificate {
  // Seed §13: a null residual is never compared with R_p and never becomes 0.
  return {
    schema_version: '2.0',
    iteration: n,
    type: 'NONE',
    lane: null,
    declared_certificates: ctx.plan.halting_certificates_applicable as Certificate['declared_certificates'],
    residual_metric: ctx.plan.residual.metric,
    residual: null as unknown as string,
    residual_detail: detail,
    R_p: ctx.plan.R_p,
    residual_history: ctx.state.residual_history,
    checklist: [],
    tree,
    previous_certificate_sha256: ctx.state.last_certificate_sha256,
    exits_fired: [{ kind: 'INVARIANT', reason: `RESIDUAL_UNAVAILABLE: ${detail}` }],
  };
}

/** Signatures of the checks that failed this iteration (read back from their logs). */
async function failingSignatures(ctx: Ctx, checks: CheckResult[]): Promise<Signature[]> {
  const out: Signature[] = [];
  for (const c of checks.filter((k) => !k.met)) out.push(failureSignature(c.id, (await ctx.ev.readText(c.evidence.split('#')[0])) ?? ''));
  return out;
}

/**
 * The critic (microloop seed): a process after the checks that reads the diff and the results and
 * answers a verdict (Lane C). It must not fix the code: whatever it changes is put back.
 */
async function critique(ctx: Ctx, n: number, diff: string, checks: CheckResult[]): Promise<{ state: VerdictState; reverted: string[] } | null> {
  const c = ctx.intake.config.critic;
  if (!c) return null;
  const dir = iterDir(n);
  const logs: Record<string, string> = {};
  for (const k of checks) logs[k.id] = (await ctx.ev.readText(k.evidence.split('#')[0])) ?? '';
  const prompt = renderCriticPrompt(ctx.plan.goal, diff, checks, logs);
  await ctx.ev.write(`${dir}/critic_prompt.md`, prompt);
  const before = await snapshotDirty(ctx.git, ctx.cwd);
  const reportFile = join(ctx.cwd, LOOP_SCRATCH_DIR, 'phuc-loop', 'verdict.json');
  const run = await spawnAgent({
    runner: ctx.o.runner,
    cwd: ctx.cwd,
    spec: { preset: c.use, run: c.run, model: c.model, args: c.args, maxTurns: ctx.plan.budget.max_tool_calls_per_iteration },
    prompt,
    promptFile: ctx.ev.path(`${dir}/critic_prompt.md`),
    capsuleFile: ctx.ev.path(`${dir}/cnf_capsule.json`),
    reportFile,
    iteration: n,
    baseEnv: ctx.o.env,
    timeoutMs: c.timeout_seconds * 1000,
    stopSources: ctx.stops,
    pollMs: ctx.o.pollMs ?? 1000,
    signal: ctx.o.signal,
    role: 'Skeptic (critic)',
  });
  const reverted = await changedSince(ctx.git, ctx.cwd, before);
  if (reverted.length) await ctx.git.restoreFromIndex(reverted);
  const r = run.result;
  await ctx.ev.write(`${dir}/critic.log`, scrub(ctx, `$ critic (exit ${r.exitCode ?? r.signal}${r.timedOut ? ', timed out' : ''})\n--- stdout ---\n${r.stdout}\n--- stderr ---\n${r.stderr}\n`));
  const state = parseVerdict(await readFile(reportFile, 'utf8').catch(() => null), r.stdout);
  await ctx.ev.writeJson(`${dir}/critic_verdict.json`, { ...state, lane: 'C', reverted_paths: reverted });
  ctx.o.log.info(
    `iter ${n}: critic ${state.state === 'valid' ? `${state.verdict.status}, further iteration can help: ${state.verdict.can_further_iteration_help}, ${state.verdict.concerns.length} concern(s)` : state.state === 'malformed' ? `verdict malformed (${state.error})` : 'gave no verdict'}` +
      `${reverted.length ? ` — its edits were reverted: ${reverted.join(', ')}` : ''}`,
  );
  return { state, reverted };
}

/** The DEGA cycle record of iteration n: blocker class, improvement, signatures, critic, agent. */
function recordCycle(
  ctx: Ctx,
  n: number,
  x: { checks: CheckResult[]; residual: Decimal | null; guardrail: string | null; empty: boolean; residualError: string | null; failing: Signature[]; detourNext: boolean; verdict: VerdictState | null },
): void {
  const rp = ctx.plan.R_p;
  const b = blockerClass({
    criteria: x.checks.length ? x.checks : ctx.plan.acceptance_criteria.map((c) => ({ id: c.id, met: !!ctx.state.criteria_met[c.id] })),
    residualAvailable: x.residual !== null,
    residualBelowRp: x.residual === null ? null : rp ? x.residual.lt(rp) : x.residual.isZero(),
    guardrail: !!x.guardrail,
  });
  const failClosed = x.checks.filter((c) => c.timed_out).length + (x.guardrail ? 1 : 0) + (x.empty ? 1 : 0) + (x.residualError ? 1 : 0);
  const prev = ctx.state.cycles.at(-1);
  const residual = x.residual === null ? null : dstr(x.residual);
  ctx.state.cycles.push({
    iteration: n,
    agent: describeAgent(ctx, n),
    blocker_class: b.class,
    blocker_reason: b.reason,
    improvement: improvement(prev ? { class: prev.blocker_class, residual: prev.residual, failClosed: prev.fail_closed_signals } : null, { class: b.class, residual, failClosed }),
    fail_closed_signals: failClosed,
    residual,
    failure_signatures: x.failing.map((f) => f.signature),
    detour_next: x.detourNext,
    critic: x.verdict === null ? null : x.verdict.state === 'valid' ? x.verdict.verdict.status : x.verdict.state,
    reused_checks: x.checks.filter((c) => c.reused_from_iteration !== null).map((c) => c.id),
  });
}

interface LearnInput {
  agent: Awaited<ReturnType<typeof spawnAgent>>;
  collected: Collected;
  checks: CheckResult[];
  cert: Certificate;
  guardrail: string | null;
  residual: Decimal | null;
  previousResidual: Decimal | null;
  ns: NorthstarSnapshot;
  certLink: string;
  stopped: boolean;
  empty: boolean;
  residualError: string | null;
  verdict: VerdictState | null;
  criticReverted: string[];
  detour: ProgressState['detour'];
  escalated: string | null;
}

/** The iteration's lane-typed AGENTS.md entry (seed §8.1–8.2) and its facts (for "new learning"). */
function learn(ctx: Ctx, n: number, x: LearnInput): { entry: Entry; facts: string[] } {
  const { plan, state } = ctx;
  const report = x.collected.report;
  const r = report.state === 'valid' ? report.report : {};
  const succeeded: Fact[] = [];
  const failed: Fact[] = [];
  const facts: string[] = [];
  const fact = (list: Fact[], lane: Fact['lane'], key: string, text: string) => {
    list.push({ lane, text });
    facts.push(`${lane}:${key}`);
  };
  for (const c of x.checks) {
    if (c.met) fact(succeeded, 'A', `met:${c.id}`, `criterion ${c.id} passed (exit 0) — ${c.evidence}`);
    else fact(failed, 'A', `failed:${c.id}:${c.timed_out ? 'timeout' : c.exit_code}`, `criterion ${c.id} ${c.timed_out ? 'timed out' : `failed (exit ${c.exit_code})`} — ${c.evidence}`);
  }
  if (x.collected.diff) fact(succeeded, 'A', 'diff', `${x.collected.diffFiles} file(s) changed — ${ctx.ev.link(`${iterDir(n)}/diff.patch`)}`);
  if (x.residual && x.previousResidual && !x.residual.eq(x.previousResidual))
    fact(succeeded, 'B', 'residual', `residual ${dstr(x.previousResidual)} → ${dstr(x.residual)} (${plan.residual.metric})`);
  const prevDist = state.last_northstar?.total_distance ?? null;
  if (x.ns.total_distance && prevDist && x.ns.total_distance !== prevDist)
    fact(succeeded, 'B', 'northstar', `northstar distance ${prevDist} → ${x.ns.total_distance}`);
  if (x.guardrail) fact(failed, 'A', 'guardrail', `GUARDRAIL: ${x.guardrail}`);
  if (x.empty) fact(failed, 'A', 'empty', 'Iteration produced no artifacts (no change, no report): EVIDENCE_INCOMPLETE');
  const ar = x.agent.result;
  if (ar.timedOut) fact(failed, 'A', 'agent-timeout', `agent killed at the ${plan.budget.max_seconds_per_iteration} s limit — ${ctx.ev.link(`${iterDir(n)}/agent.log`)}`);
  else if (x.stopped) fact(failed, 'A', 'agent-stopped', `agent stopped by backpressure: ${x.agent.backpressure}`);
  else if (ar.exitCode !== 0) fact(failed, 'A', `agent-exit:${ar.exitCode}`, `agent exited ${ar.exitCode ?? ar.signal} — ${ctx.ev.link(`${iterDir(n)}/agent.log`)}`);
  if (x.residualError) fact(failed, 'A', 'residual-error', `residual unavailable: ${x.residualError}`);
  if (report.state === 'malformed') fact(failed, 'A', 'report-malformed', `agent report malformed (${report.error})`);
  for (const t of sanitizeList(r.failures, ctx.hostPaths)) fact(failed, 'C', `c:${t}`, t);
  for (const c of x.checks.filter((k) => k.reused_from_iteration !== null))
    fact(succeeded, 'A', `reused:${c.id}`, `criterion ${c.id} passed before on unchanged inputs (reused, not re-run) — ${c.evidence}`);
  for (const c of x.checks.filter((k) => k.failure_kind === 'transient')) fact(succeeded, 'B', `transient:${c.id}`, `criterion ${c.id} passed on attempt ${c.attempts} (a transient failure)`);
  for (const d of x.detour?.repeated ?? [])
    fact(failed, 'A', `repeated:${d.signature}`, `the same failure twice in a row: ${d.signature}${d.instruction ? ' (a known fix is given next iteration)' : ''}`);
  if (x.escalated) fact(failed, 'A', 'escalation', `no better residual for 2 iterations: switching the agent to ${x.escalated}`);
  const v = x.verdict;
  const concerns = v?.state === 'valid' ? v.verdict.concerns : [];
  if (v?.state === 'malformed') fact(failed, 'A', 'critic-malformed', `critic verdict malformed (${sanitizeAgentText(v.error, ctx.hostPaths)})`);
  if (v?.state === 'valid')
    fact(v.verdict.status === 'VERIFIED' ? succeeded : failed, 'C', `critic:${v.verdict.status}`, `critic: ${v.verdict.status}, further iteration can help: ${v.verdict.can_further_iteration_help}`);
  for (const c of concerns.slice(0, 10))
    fact(failed, 'C', `concern:${c.file}:${c.line}`, sanitizeAgentText(`critic concern ${c.file}${c.line !== undefined ? `:${c.line}` : ''} [${c.severity}] ${c.recommendation}`, ctx.hostPaths));
  if (x.criticReverted.length) fact(failed, 'A', 'critic-edits', `the critic changed files (reverted): ${x.criticReverted.join(', ')}`);
  const open = [
    ...sanitizeList(r.open_questions, ctx.hostPaths),
    ...concerns.slice(0, 5).map((c) => sanitizeAgentText(`critic: ${c.file}${c.line !== undefined ? `:${c.line}` : ''} — ${c.recommendation}`, ctx.hostPaths)),
    ...x.checks.filter((c) => !c.met).map((c) => `What makes criterion ${c.id} fail? Its log: ${c.evidence}`),
  ];
  const prev = x.previousResidual;
  const direction: Direction = !x.residual || !prev || x.residual.eq(prev) ? 'STABLE' : x.residual.lt(prev) ? 'IMPROVING' : 'DIVERGING';
  const nsDelta = x.ns.total_distance && prevDist ? dstr(new Decimal(x.ns.total_distance).minus(prevDist)) : null;
  const rp = plan.R_p;
  const artifacts = x.collected.artifacts;
  const entry: Entry = {
    iteration: n,
    tried: sanitizeList(r.tried, ctx.hostPaths),
    succeeded,
    failed,
    residual_metric: plan.residual.metric,
    residual_value: x.residual ? dstr(x.residual) : 'null (not computed)',
    residual_direction: direction,
    certificate: x.cert.type,
    glow: { total: 0, G: 0, L: 0, O: 0, W: 0 },
    glow_delta: null,
    northstar_distance: x.ns.total_distance ?? 'n/a',
    northstar_direction: nsDelta === null || new Decimal(nsDelta).isZero() ? 'STABLE' : new Decimal(nsDelta).isNeg() ? 'IMPROVING' : 'DRIFTING',
    northstar_distance_delta: nsDelta,
    open_questions: open,
    gbb: {
      Z: `${iterDir(n)}/cnf_capsule.json#${ctx.ev.entry(`${iterDir(n)}/cnf_capsule.json`)!.sha256}`,
      Sigma: x.guardrail ? `false (${x.guardrail})` : direction === 'DIVERGING' ? 'true (residual rose: divergence watch)' : 'true',
      tau: [...artifacts.map((a) => a.path), `${iterDir(n)}/certificate.json`].join(', '),
      Gc: 'see glow.json agents_md_size_delta_lines',
      iota: String((x.collected.diff ? 1 : 0) + (report.state !== 'absent' ? 1 : 0)),
      Rp: x.residual === null ? 'residual not computed (never compared)' : rp ? `${dstr(x.residual)} ${x.residual.lt(rp) ? '<' : '>='} ${rp}` : `${dstr(x.residual)} ${x.residual.isZero() ? '= 0 (EXACT)' : '> 0'}`,
    },
  };
  return { entry, facts };
}

async function writeAgentsMd(ctx: Ctx, section: Section): Promise<void> {
  const path = join(ctx.cwd, 'AGENTS.md');
  const existing = await readFile(path, 'utf8').catch(() => null);
  await atomicWrite(path, mergeSection(existing, section.text));
  // LEARNINGS_NOT_ACCUMULATED (seed §3.6): read back before BUDGET_CHECK.
  const back = extractSection(await readFile(path, 'utf8'));
  if (back === null || back.trim() !== section.text.trim()) throw new InvariantViolation('LEARNINGS_NOT_ACCUMULATED: AGENTS.md does not hold this iteration\'s section');
}

async function commitIteration(ctx: Ctx, n: number, cert: Certificate, glow: Glow, certSha: string): Promise<string> {
  const message =
    `phuc-loop: iteration ${n} — residual ${cert.residual ?? 'n/a'}, certificate ${cert.type}, GLOW ${glow.total} (G${glow.G} L${glow.L} O${glow.O} W${glow.W})\n\n` +
    `Certificate: ${ctx.evRel}/${iterDir(n)}/certificate.json#${certSha}\n`;
  return ctx.git.commit(message, ['AGENTS.md']);
}

/** Shared logs are written only with the manifest: a crash mid-iteration leaves only iter_N files. */
async function flushPendingLogs(ctx: Ctx): Promise<void> {
  for (const [file, line] of ctx.pendingLogs.splice(0)) await ctx.ev.appendLine(file, line);
}

async function saveState(ctx: Ctx): Promise<void> {
  await ctx.ev.writeJson('state.json', ctx.state);
  await ctx.ev.saveManifest();
}

async function writeIterationRecords(ctx: Ctx, n: number, terminal?: { status: string; stop_reason: string }): Promise<void> {
  const { ev, state } = ctx;
  await flushPendingLogs(ctx);
  const glow = state.glow_history.at(-1);
  const cert = await ev.readJson<Certificate>(`${iterDir(n)}/certificate.json`);
  const cycle = state.cycles.find((c) => c.iteration === n);
  await ev.appendLine(
    'history.jsonl',
    JSON.stringify({
      iteration: n,
      fsm: ctx.fsm.drain(),
      certificate: cert?.type ?? null,
      residual: cert?.residual ?? null,
      glow: glow ? glow.total : null,
      northstar_distance: state.last_northstar?.total_distance ?? null,
      ...(cycle ? { agent: cycle.agent, blocker_class: cycle.blocker_class, improvement: cycle.improvement, failure_signatures: cycle.failure_signatures, critic: cycle.critic, reused_checks: cycle.reused_checks } : {}),
      decision: terminal ? `${terminal.status}(${terminal.stop_reason})` : 'continue',
      certificate_link: ev.link(`${iterDir(n)}/certificate.json`),
    }),
  );
  // DEGA: the constrained next prompt beside the history, prepared once and reused by the next iteration.
  const next = await prepareCapsule(ctx, state.next_iteration);
  ctx.next = { n: state.next_iteration, prepared: next };
  await ev.write('next-prompt.md', 'prompt' in next ? next.prompt : `The next capsule is refused (CONTEXT_BLEED): ${next.problems.join('; ')}\n`);
  await ev.writeJson('budget_log.json', budgetLog(ctx));
  await saveState(ctx);
}

function budgetLog(ctx: Ctx) {
  const s = ctx.state;
  return {
    limits: ctx.plan.budget,
    used: {
      iterations: s.next_iteration,
      seconds: Math.floor(s.total_ms / 1000),
      cost_usd: s.total_cost_usd,
      cost_reported_by_agent: s.cost_reported,
      tool_calls: s.total_tool_calls,
    },
    note: s.cost_reported ? null : 'the agent reported no cost; the cost budget could not be applied',
  };
}

async function interimReport(ctx: Ctx, n: number): Promise<HaltingReport> {
  return buildReport({
    plan: ctx.plan,
    state: ctx.state,
    status: null,
    stop_reason: null,
    iterations: ctx.iterations,
    evRel: ctx.evRel,
    certificate: await ctx.ev.readJson<Certificate>(`${iterDir(n)}/certificate.json`),
    triangle: null,
    phuc: null,
    rung: null,
    extra: {},
  });
}

interface FinishExtra {
  backpressure?: string;
  detail?: string;
}

/** Terminal bookkeeping: replays and rungs, the audits, the report, the manifest. */
async function finish(ctx: Ctx, status: TerminalState, stopReason: string, extra: FinishExtra): Promise<LoopOutcome> {
  const { ev, state, o } = ctx;
  const last = ctx.iterations.at(-1);
  let certificate = last === undefined ? null : await ev.readJson<Certificate>(`${iterDir(last)}/certificate.json`);
  const converged = status === 'EXIT_CONVERGED';
  const rung = await computeRung(ctx, certificate, converged);
  const triangle = await checkTriangle(ev, ctx.iterations);
  const phuc = await phucTest(ev, ctx.iterations, { hostPaths: ctx.hostPaths, converged, rungTarget: ctx.plan.rung_target, rungAchieved: rung.achieved });
  let finalStatus = status;
  let finalReason = stopReason;
  let withheld: string | null = null;
  if (triangle.triangle_vertex_missing !== 'none') {
    finalReason = triangle.triangle_vertex_missing === 'VERIFY' ? 'VERIFY_SKIPPED' : 'INVARIANT_VIOLATION';
    withheld = `Triangle Law: the ${triangle.triangle_vertex_missing} vertex is missing`;
  } else if (!phuc.pass && status !== 'EXIT_NEED_INFO') {
    finalReason = phuc.failures[0].split(':')[0];
    withheld = phuc.failures.join('; ');
  } else if (converged && rung.alignment.status === 'DRIFTING') {
    finalReason = 'NORTHSTAR_DRIFT';
    withheld = `the Northstar distance grew over the loop (${rung.alignment.northstar_distance_start} → ${rung.alignment.northstar_distance_end})`;
  } else if (converged && rung.alignment.status === 'NEUTRAL' && !ctx.intake.config.northstar_neutral_reason) {
    finalReason = 'GLOW_WITHOUT_NORTHSTAR_ALIGNMENT';
    withheld = 'no Northstar metric moved (NEUTRAL); measure one that this loop advances, or set northstar_neutral_reason in the config to accept it';
  }
  if (withheld) {
    finalStatus = 'EXIT_BLOCKED';
    extra = { ...extra, detail: `${status} withheld: ${withheld}${extra.detail ? ` (${extra.detail})` : ''}` };
  }
  if (withheld) o.log.warn(extra.detail!);
  const head = await ctx.git.head();
  state.terminal = { status: finalStatus, stop_reason: finalReason, head, inputs_hash: await allInputsHash(ctx.cwd, ctx.intake.config.acceptance_criteria, await ctx.git.listFiles()) };
  if (last !== undefined) await writeIterationRecords(ctx, last, { status: finalStatus, stop_reason: finalReason });
  const agentsMd = await readFile(join(ctx.cwd, 'AGENTS.md'), 'utf8').catch(() => '');
  await ev.write('agents_md_final.md', agentsMd);
  certificate = last === undefined ? null : await ev.readJson<Certificate>(`${iterDir(last)}/certificate.json`);
  const report = buildReport({
    plan: ctx.plan,
    state,
    status: finalStatus,
    stop_reason: finalReason,
    iterations: ctx.iterations,
    evRel: ctx.evRel,
    certificate,
    triangle,
    phuc,
    rung,
    extra: { ...extra, backpressureOnly: last === undefined && !!extra.backpressure },
  });
  await ev.writeJson('halting_report.json', report);
  await ev.writeJson('budget_log.json', budgetLog(ctx));
  await saveState(ctx);
  o.log.info(`halt: ${finalStatus}(${finalReason}) after ${ctx.iterations.length} iteration(s)${certificate ? `, certificate ${certificate.type}` : ''}`);
  return { status: finalStatus, stop_reason: finalReason, exitCode: EXIT_CODES[finalStatus], report };
}

async function computeRung(ctx: Ctx, cert: Certificate | null, converged: boolean): Promise<RungResult> {
  const { plan, state, ev, o } = ctx;
  const distanceStart = plan.northstar.metrics.length ? snapshot(plan.northstar.metrics, plan.northstar.metrics.map((m) => ({ id: m.id, value: plan.northstar.baseline[m.id] ?? m.current })), new Map(Object.entries(plan.northstar.baseline))) : null;
  const end = state.last_northstar;
  const advanced = (end?.readings ?? [])
    .filter((r) => {
      const s = distanceStart?.readings.find((x) => x.id === r.id);
      return r.distance !== null && s?.distance && new Decimal(r.distance).lt(s.distance);
    })
    .map((r) => r.id);
  const startD = distanceStart?.total_distance ?? null;
  const endD = end?.total_distance ?? null;
  const drifting = startD !== null && endD !== null && new Decimal(endD).gt(startD);
  const alignment = {
    status: (advanced.length ? 'ALIGNED' : drifting ? 'DRIFTING' : 'NEUTRAL') as 'ALIGNED' | 'NEUTRAL' | 'DRIFTING',
    metrics_advanced: advanced,
    northstar_distance_start: startD,
    northstar_distance_end: endD,
    neutral_reason: ctx.intake.config.northstar_neutral_reason ?? null,
  };
  const result: RungResult = { achieved: 0, target: plan.rung_target, checks: {}, replays: [], alignment, security: null };
  if (!converged || !cert) return result;
  const evidenceComplete = (await verifyTree(ev.root, { allowOpenTail: true, manifest: ctx.ev.manifest() })).ok;
  const triangle = await checkTriangle(ev, ctx.iterations);
  const r641 = {
    certificate_present: true,
    checks_green: cert.checklist.length > 0 && cert.checklist.every((c) => c.met),
    evidence_complete: evidenceComplete,
    triangle: triangle.triangle_vertex_missing === 'none',
  };
  result.checks['641'] = r641;
  if (!Object.values(r641).every(Boolean)) return result;
  result.achieved = 641;
  if (plan.rung_target < 274177) return result;

  // Replays of the final checks (seed §12): the same certificate every time, or the rung is not reached.
  const dir = iterDir(ctx.iterations.at(-1)!);
  for (let k = 1; k <= plan.replays; k++) {
    const checks = await runChecks(ctx.intake.config.acceptance_criteria, checkCtx(ctx, `${dir}/replay_${k}`, cert.tree, { signal: o.signal }));
    const r = await computeResidual(ctx.intake.config, checks, { runner: o.runner, cwd: ctx.cwd, env: ctx.checkEnv, signal: o.signal });
    const replayCert = 'error' in r ? null : issueCertificate({
      iteration: cert.iteration,
      declared: cert.declared_certificates,
      residualMetric: cert.residual_metric,
      residual: r.value,
      residualDetail: r.detail,
      R_p: plan.R_p ? new Decimal(plan.R_p) : null,
      history: cert.residual_history.slice(0, -1),
      checks,
      tree: cert.tree,
      previousSha256: cert.previous_certificate_sha256,
      guardrail: null,
      backpressure: null,
      budget: null,
    });
    const same = !!replayCert && replayCert.type === cert.type && replayCert.residual === cert.residual && replayCert.checklist.every((c, i) => c.met === cert.checklist[i]?.met);
    result.replays.push({ replay: k, type: replayCert?.type ?? 'NONE', residual: replayCert?.residual ?? null, same });
    await ev.writeJson(`${dir}/replay_${k}/result.json`, result.replays.at(-1));
    o.log.info(`replay ${k}/${plan.replays}: certificate ${replayCert?.type ?? 'NONE'}, residual ${replayCert?.residual ?? 'n/a'}${same ? '' : ' — DIFFERS (flaky check)'}`);
  }
  const st = selfTests();
  const r274177 = {
    replays_same_certificate: result.replays.length >= 2 && result.replays.every((r) => r.same),
    residual_history_all_decimal_strings: allDecimalStrings(state.residual_history),
    divergence_detector_self_test: st.divergence_detector,
    null_edge_case_sweep: st.null_edge_sweep,
    glow_history_all_present: state.glow_history.length === ctx.iterations.length,
    seed_checksum_verified: plan.seed_checksum.verified,
  };
  result.checks['274177'] = r274177;
  if (!Object.values(r274177).every(Boolean)) return result;
  result.achieved = 274177;
  if (plan.rung_target < 65537 || !plan.security) return result;

  const gate = await o.runner.run({ command: plan.security.gate, cwd: ctx.cwd, env: ctx.checkEnv, timeoutMs: 1_800_000 });
  await ev.write('security_gate.log', scrub(ctx, `$ ${plan.security.gate}\n${gate.stdout}\n${gate.stderr}\n--- exit ${gate.exitCode} ---\n`));
  const after = await o.runner.run({ command: plan.security.api_surface, cwd: ctx.cwd, env: ctx.checkEnv, timeoutMs: 600_000 });
  const afterEntry = await ev.write('api_surface_after.txt', scrub(ctx, after.stdout));
  const beforeSha = plan.security.api_surface_before?.split('#')[1] ?? null;
  const drift = beforeSha !== afterEntry.sha256;
  const explanation = await readFile(join(ctx.cwd, plan.security.drift_explanation), 'utf8').catch(() => '');
  const explained = !drift || (explanation.trim().length > 0 && (await changedInLoop(ctx, plan.security.drift_explanation)));
  result.security = { gate_exit_code: gate.exitCode, api_surface_drift: drift, drift_explained: explained, api_surface_after: ev.link(afterEntry.path) };
  const r65537 = {
    security_gate_passed: gate.exitCode === 0 && after.exitCode === 0,
    api_surface_snapshots: plan.security.api_surface_before !== null,
    api_drift_explained: explained,
    northstar_aligned_or_neutral: alignment.status !== 'DRIFTING',
  };
  result.checks['65537'] = r65537;
  if (Object.values(r65537).every(Boolean)) result.achieved = 65537;
  return result;
}

/** Whether the loop's commits changed `path` (the drift explanation must be written during the loop). */
async function changedInLoop(ctx: Ctx, path: string): Promise<boolean> {
  for (const n of ctx.iterations) {
    const a = await ctx.ev.readJson<{ changed_paths: string[] }>(`${iterDir(n)}/artifacts.json`);
    if (a?.changed_paths.includes(path)) return true;
  }
  return false;
}

async function needInfo(ev: EvidenceStore, info: NeedInfo, o: LoopOptions): Promise<LoopOutcome> {
  for (const m of info.messages) o.log.error(m);
  const report = buildReport({
    plan: null,
    state: null,
    status: 'EXIT_NEED_INFO',
    stop_reason: info.stop_reason,
    iterations: [],
    evRel: '',
    certificate: null,
    triangle: null,
    phuc: null,
    rung: null,
    extra: { missing_fields: info.missing_fields, messages: info.messages },
  });
  // The evidence of an earlier loop is never overwritten by a run that could not start.
  if (!(await ev.exists()) || (await listFiles(ev.root)).every((f) => NOT_EVIDENCE.has(f) || f === 'halting_report.json' || f === 'manifest.json')) {
    await ev.clear();
    await ev.writeJson('halting_report.json', report);
    await ev.saveManifest();
  }
  return { status: 'EXIT_NEED_INFO', stop_reason: info.stop_reason, exitCode: EXIT_CODES.EXIT_NEED_INFO, report };
}

function blockedEarly(stopReason: string, detail: string): LoopOutcome {
  const report = buildReport({
    plan: null,
    state: null,
    status: 'EXIT_BLOCKED',
    stop_reason: stopReason,
    iterations: [],
    evRel: '',
    certificate: null,
    triangle: null,
    phuc: null,
    rung: null,
    extra: { detail },
  });
  return { status: 'EXIT_BLOCKED', stop_reason: stopReason, exitCode: EXIT_CODES.EXIT_BLOCKED, report };
}
