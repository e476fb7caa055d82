// The loop (seed §2–§3): restore from evidence, build the capsule, run a fresh agent, collect and
// hash, check, certify, learn, score, commit, decide — until a terminal state with a certificate.
import { mkdir, open, readFile, rename, rm, unlink } from 'node:fs/promises';
import { homedir, hostname, tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { collectArtifacts, protectedMatcher, snapshotDirty, spawnAgent } from './agent-step.js';
import { renderEntry, renderSection, witness } from './agents-md.js';
import { agentEnvironment, scrubbableValues } from './agents.js';
import { iterDir } from './audit.js';
import { DiskUsage, firstStop, StopFile } from './backpressure.js';
import { canonicalJson } from './canonical.js';
import { prepareCapsule } from './capsule-build.js';
import { type Certificate, convergenceClaimProblem, EXIT_PRECEDENCE, type FiredExit, issueCertificate } from './certificate.js';
import { type CheckResult, updatePasses } from './checks.js';
import { Decimal, dstr } from './decimal.js';
import { EvidenceStore, listFiles, NOT_EVIDENCE } from './evidence.js';
import { EXIT_CODES, Fsm, InvariantViolation } from './fsm.js';
import { Git } from './git.js';
import { type Glow, scoreGlow, trailingZeroW } from './glow.js';
import { blockedEarly, finish, needInfo } from './halt.js';
import { learn, writeAgentsMd } from './learn.js';
import { agentSpec, allInputsHash, budgetExhausted, checkRound, type Ctx, currentResidual, DEFAULT_EVIDENCE_DIR, describeAgent, elapsedMs, initialState, type LoopOptions, type LoopOutcome, type LoopState, measureAll, scrub, scrubber, sectionMeta } from './loop-context.js';
import { snapshot } from './northstar.js';
import { buildPlan, intake, type Intake, LOOP_SCRATCH_DIR, type Plan } from './plan.js';
import type { StopSource } from './ports.js';
import { initialProgress, trackSignatures, trackStall } from './progress.js';
import { flushPendingLogs, interimReport, saveState, writeIterationRecords } from './records.js';
import type { HaltingReport } from './report.js';
import { critique, failingSignatures, recordCycle } from './skeptic.js';
import { verifyTree } from './verify.js';

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
      const alive = host === hostname() && Number(pid) > 0 && (await processAlive(Number(pid)));
      if (alive) return `another phuc-loop (pid ${pid}) is running on this evidence tree; the oldest loop keeps running`;
      await rm(path, { force: true }); // stale lock of a crashed loop
    }
  }
  return 'could not take the evidence lock';
}

/** Running (a zombie left by a killed loop, waiting for a container's init to reap it, is not). */
async function processAlive(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  return stat === null || stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
}

async function runLocked(
  o: LoopOptions,
  base: { fsm: Fsm; git: Git; cwd: string; ev: EvidenceStore; evRel: string; intake: Intake; configPath: string },
): Promise<LoopOutcome> {
  const { fsm, git, cwd, ev, evRel, intake: got, configPath } = base;
  const secrets = scrubbableValues(o.env);
  // Host paths the capsule must not carry; a path the user wrote in the config is the user's choice.
  const hostPaths = [cwd, ev.root, homedir(), tmpdir()].filter((p) => p.length > 1 && !got.configText.includes(p));
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
  // What is in the evidence folder decides: nothing (or only the report of a run that could not
  // start) → a new loop; a loop's tree → verify and resume; anything else → refuse, never wipe it.
  const present = (await ev.exists()) ? (await listFiles(ev.root)).filter((f) => !NOT_EVIDENCE.has(f)) : [];
  const priorReport = await ev.readJson<{ status?: string }>('halting_report.json').catch(() => null);
  const neverStarted = present.every((f) => f === 'halting_report.json' || f === 'manifest.json') && (present.length === 0 || priorReport?.status === 'EXIT_NEED_INFO');
  if (!neverStarted && (await ev.readText('manifest.json')) === null) {
    const problem = `${evRel} holds evidence (${present.slice(0, 3).join(', ')}${present.length > 3 ? ', …' : ''}) but no manifest.json: it cannot be verified; run with --fresh to keep it aside and start over`;
    fsm.to('DREAM_GOAL');
    fsm.to('EXIT_BLOCKED');
    o.log.error(problem);
    return blockedEarly('EVIDENCE_UNVERIFIABLE', problem);
  }
  if (!neverStarted) {
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
    // A loop cut off mid-iteration may have left an agent's edit to a protected path in the work tree:
    // it would be taken for the starting state and never reverted. Refuse until it is cleaned up.
    await git.clearIndexFlags();
    const isProtected = protectedMatcher(plan!.protected);
    const dirtyProtected = (await git.status()).map((c) => c.path).filter(isProtected);
    if (dirtyProtected.length) {
      const problem = `protected paths have uncommitted changes (${dirtyProtected.join(', ')}); restore or commit them before the loop resumes`;
      fsm.to('DREAM_GOAL');
      fsm.to('EXIT_BLOCKED');
      o.log.error(problem);
      return blockedEarly('GUARDRAIL_VIOLATION', problem);
    }
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
    try {
      fsm.to('SPAWN_SUBAGENT');
      const decision = await iterate(ctx, n);
      if (decision) return decision;
    } catch (e) {
      // A forbidden state detected mid-iteration (seed §3.6) ends the loop blocked, with its report.
      if (!(e instanceof InvariantViolation)) throw e;
      o.log.error(e.message);
      const code = /^([A-Z_]+):/.exec(e.message)?.[1] ?? 'INVARIANT_VIOLATION';
      ctx.state.exits_fired.push({ kind: 'INVARIANT', reason: e.message, iteration: n });
      return finish(ctx, 'EXIT_BLOCKED', code, { detail: e.message });
    }
  }
}

async function acquireLockFile(ev: EvidenceStore): Promise<void> {
  const fh = await open(ev.path('run.lock'), 'w');
  await fh.writeFile(`${process.pid}@${hostname()}\n`);
  await fh.close();
}

const range = (a: number, b: number) => Array.from({ length: Math.max(0, b - a) }, (_, i) => a + i);

/** DREAM_GOAL: baseline checks and Northstar readings, then plan.json before iteration 0. */
async function dream(ctx: Ctx, configPath: string): Promise<Plan> {
  const { intake: i, ev, o } = ctx;
  await ev.clear();
  o.log.info(`plan: ${i.config.acceptance_criteria.length} criteria, certificates ${i.config.certificates.join('/')}, rung ${i.config.rung_target}, agent ${i.config.agent.use}`);
  const { tree } = await ctx.git.stage([]);
  const files = await inputFiles(ctx);
  const { checks, residual } = await checkRound(ctx, 'baseline', tree, { files });
  ctx.state.passes = updatePasses({}, checks, 'baseline');
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
  const settings = await git.snapshotSettings();
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
    settings,
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
  const guardrail =
    [
      collected.reverted.length ? `protected paths changed and reverted: ${collected.reverted.join(', ')}` : '',
      collected.settingsChanged.length ? `git settings changed and restored: ${collected.settingsChanged.join(', ')}` : '',
    ]
      .filter(Boolean)
      .join('; ') || null;
  const empty = !collected.diff && collected.report.state === 'absent' && !guardrail;
  o.log.info(
    `iter ${n}: ${collected.diffFiles} file(s) changed, report ${collected.report.state}` +
      `${guardrail ? ` — GUARDRAIL: ${guardrail}` : ''}${collected.agentCommitsFolded ? `, ${collected.agentCommitsFolded} agent commit(s) folded in` : ''}`,
  );

  // CHECK_HALTING (VERIFY vertex). A stopped agent's iteration skips the checks and carries the residual.
  if (!empty) fsm.to('CHECK_HALTING');
  let stopped = ar.aborted && agent.backpressure !== null;
  const tree = collected.tree;
  let checks: CheckResult[] = [];
  let files: string[] | undefined;
  let residual: Decimal | null = null;
  let residualDetail = '';
  let residualError: string | null = null;
  const carried = currentResidual(ctx);
  if (!stopped && !empty) {
    files = await inputFiles(ctx);
    const round = await checkRound(ctx, dir, tree, { signal: o.signal, files, reuse: true });
    // A stop during the checks is a pause like a stop during the agent: the round certifies nothing.
    if (round.aborted) stopped = true;
    else {
      checks = round.checks;
      state.passes = updatePasses(state.passes, checks, n);
      if ('error' in round.residual) residualError = round.residual.error;
      else residual = round.residual.value;
      residualDetail = 'error' in round.residual ? round.residual.error : round.residual.detail;
    }
  }
  if (stopped || empty) {
    residual = carried === null ? null : new Decimal(carried);
    residualDetail = `carried from the previous measurement (checks not run: ${stopped ? 'backpressure' : 'no artifact'})`;
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
  // Say why nothing came: an agent CLI that is not installed is the usual first-run cause.
  const emptyWhy =
    'the agent changed nothing and wrote no report' +
    (ar.exitCode === 127 ? ` (exit 127: the agent command was not found — install the ${agentSpec(ctx, n).preset} CLI or set agent.run)` : ar.exitCode ? ` (it exited ${ar.exitCode}; see ${dir}/agent.log)` : '');
  if (empty) cert.exits_fired.unshift({ kind: 'INVARIANT', reason: `EVIDENCE_INCOMPLETE: ${emptyWhy}` });
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
  const previousGlow = state.rows.at(-1);
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
  const zeroW = trailingZeroW(state.rows);
  if (zeroW >= 3) {
    fired.push({ kind: 'NORTHSTAR_DRIFT', reason: `W = 0 for ${zeroW} iterations in a row` });
    ctx.pendingLogs.push(['northstar_drift.log', `iteration ${n}: W = 0 for ${zeroW} consecutive iterations; northstar distance ${ns.total_distance ?? 'n/a'}`]);
  }
  state.exits_fired.push(...fired.map((f) => ({ ...f, iteration: n })));
  o.log.info(`iter ${n}: GLOW ${glow.total} (G${glow.G} L${glow.L} O${glow.O} W${glow.W}) · northstar ${ns.total_distance ?? 'n/a'} · commit ${commit.slice(0, 12)}`);

  // The iteration is on record before the host pushes its commit: a crash after the push resumes after it.
  if (ctx.o.host?.afterIteration) {
    await flushPendingLogs(ctx);
    await saveState(ctx);
  }
  // BUDGET_CHECK: the first exit in SPEC §3's precedence wins; every one that fired is reported.
  const hostBlock = ctx.o.host?.afterIteration
    ? await ctx.o.host.afterIteration({ iteration: n, commit, report: await interimReport(ctx, n) })
    : null;
  if (empty) return finish(ctx, 'EXIT_BLOCKED', 'EVIDENCE_INCOMPLETE', { detail: emptyWhy });
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

/** The checkout's files, listed only when a criterion declares inputs (they are hashed from it). */
async function inputFiles(ctx: Ctx): Promise<string[] | undefined> {
  return ctx.intake.config.acceptance_criteria.some((c) => c.inputs) ? ctx.git.listFiles() : undefined;
}

async function commitIteration(ctx: Ctx, n: number, cert: Certificate, glow: Glow, certSha: string): Promise<string> {
  const message =
    `phuc-loop: iteration ${n} — residual ${cert.residual ?? 'n/a'}, certificate ${cert.type}, GLOW ${glow.total} (G${glow.G} L${glow.L} O${glow.O} W${glow.W})\n\n` +
    `Certificate: ${ctx.evRel}/${iterDir(n)}/certificate.json#${certSha}\n`;
  return ctx.git.commit(message, ['AGENTS.md']);
}
export { DEFAULT_EVIDENCE_DIR, type IterationRow, type LoopHost, type LoopOptions, type LoopOutcome, type LoopState } from './loop-context.js';
