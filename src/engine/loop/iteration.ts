// One iteration: capsule → agent → collect → judge → decide → record. Each step's effects are
// here; what they mean for the run is decide()'s. An attempt that left nothing to judge (paused or
// failed before any change) is not an iteration: nothing is committed and the next run starts it
// again. Otherwise the iteration is recorded in this order, so that a kill at any point leaves the
// previous or the next consistent state: evidence files → AGENTS.md → one commit → the certificate
// naming that commit → state and manifest.
import type { CanaryOutcome } from '../judge/canary.js';
import { dirname, resolve } from 'node:path';
import { canonicalJson, frozen } from '../common/canonical.js';
import {
  collectArtifacts,
  type DirtySnapshot,
  fingerprint,
  restoreBefore,
  printablePath,
  protectedMatcher,
  snapshotDirty,
  spawnAgent,
  unchangedSince,
  unstageable,
  userRepos,
} from '../agent/agent-step.js';
import { renderEntry, renderSection, witness } from '../memory/agents-md.js';
import { Decimal, dstr } from '../common/decimal.js';
import { num, usd } from '../common/display.js';
import { listSome } from '../common/markdown.js';
import { allowList, guardMode, shadowNames } from '../agent/allow-list.js';
import { type AgentOutcome, lastErrorLine, REPORT_PATH } from '../agent/agents.js';
import { endStage, flushPendingLogs, interimReport, saveState, writeIterationRecords } from '../evidence/records.js';
import { Stage } from '../evidence/phases.js';
import { LOOP_SCRATCH_DIR, scriptsRunBy, judgesToWrite } from '../config/plan.js';
import { iterDir, phucConditions, phucResult } from '../judge/audit.js';
import { isDiverging, issueCertificate, judgementOf } from '../judge/certificate.js';
import { type CheckResult, updatePasses } from '../judge/checks.js';
import { scoreGlow, trailingZeroW } from '../judge/glow.js';
import { isDrifting, snapshot } from '../judge/northstar.js';
import { critique, failingSignatures, recordCycle } from '../judge/skeptic.js';
import { evidenceFolder, prepareCapsule } from '../memory/capsule-build.js';
import { exposeEvidence } from '../agent/evidence-view.js';
import { checkRecompressibility, learn, writeAgentsMd } from '../memory/learn.js';
import { recordFailures } from '../memory/failures.js';
import { firstStop } from './backpressure.js';
import {
  agentRunContext,
  agentSpec,
  budgetExhausted,
  checkRound,
  type Ctx,
  currentResidual,
  describeAgent,
  elapsedMs,
  measureAll,
  scrubber,
  secretScrubber,
  sectionMeta,
  suiteVerdict,
} from './context.js';
import { countsAgainstBudget, type Decision, decide, type FiredExit, unjudged } from './decide.js';
import { passStopped, trackSignatures, trackStall } from './progress.js';
import { ownPaths } from './own-paths.js';
import { clearStepStart, cutOffStepStart, saveStepStart, stepStartFile } from './step-start.js';
import { type PutBack, UserFiles, userFilesStore } from './user-files.js';
import { DEFAULT_REGENERABLE } from './ignored-files.js';

export async function iterate(ctx: Ctx, n: number): Promise<Decision> {
  const { o, ev, git, fsm, plan, state } = ctx;
  const dir = iterDir(n);
  // Each phase's end is marked (lap) as the iteration goes: iter_N/phases.json (Lane B).
  const stage = new Stage(dir, o.clock);

  // Capsule: rebuilt from evidence (prepared at the end of the last iteration as next-prompt.md).
  const prepared = ctx.next?.n === n ? ctx.next.prepared : await prepareCapsule(ctx, n);
  if ('problems' in prepared) return unrecorded('CONTEXT_BLEED_BETWEEN_ITERATIONS', prepared.problems.join('; '));
  await ev.write(`${dir}/cnf_capsule.json`, prepared.text);
  await ev.write(`${dir}/prompt.md`, prepared.prompt);
  crashPoint(ctx, 'capsule');
  stage.lap('capsule');

  // The agent. Its start is kept until the iteration is committed: a run killed meanwhile leaves
  // the agent's partial work, which the next run attributes to this iteration's step, not the user.
  const marker = stepStartFile(ev.root);
  const { head: startHead, branch } = await git.position();
  const prefetched = ctx.dirtyAfter?.head === startHead ? await ctx.dirtyAfter.snapshot.catch(() => null) : null;
  ctx.dirtyAfter = undefined;
  const now = prefetched && (await unchangedSince(ctx.cwd, prefetched)) ? prefetched : await snapshotDirty(git, ctx.cwd);
  const work = await keepUserWork(ctx, now);
  const userFiles = await keepUserFiles(ctx);
  // A step cut off by a kill can only be this run's first: a later one's start is this run's own.
  const cut = n === ctx.run.first ? await cutOffStepStart(git, marker, n, startHead) : null;
  if (cut) o.log.info(`iter ${n}: the previous run was killed during this iteration's agent step: its changes since that step began are the agent's`);
  // AGENTS.md is the loop's own (rewritten every iteration), whatever a cut-off iteration left of it.
  const before: DirtySnapshot = cut ? new Map([...cut].filter(([p]) => p !== 'AGENTS.md')) : now;
  if (cut && now.has('AGENTS.md')) before.set('AGENTS.md', now.get('AGENTS.md')!);
  if (!cut) await saveStepStart(marker, n, startHead, before, work);
  ctx.userRepos = userRepos(before.keys());
  const settings = await git.snapshotSettings();
  userFiles.stepStarts();
  const remainingMs = plan.budget.max_total_seconds * 1000 - elapsedMs(ctx);
  const idleS = ctx.intake.config.agent.idle_seconds;
  await exposeEvidence(ctx.exchangeDir, prepared.capsule.artifact_links, evidenceFolder(ctx), (rel) => ev.readText(rel));
  stage.lap('step start');
  const agent = await spawnAgent({
    ...agentRunContext(ctx),
    spec: agentSpec(ctx, n),
    prompt: prepared.prompt,
    capsule: prepared.text,
    iteration: n,
    timeoutMs: Math.max(1000, Math.min(plan.budget.max_seconds_per_iteration * 1000, remainingMs)),
    idleMs: idleS === undefined ? undefined : idleS * 1000,
    heartbeat: (s) => o.log.info(`iter ${n}: agent working, ${s} s`),
    protect: ctx.userRepos,
  });
  const ar = agent.result;
  const out = agent.outcome;
  // The agent's own process, and around it the work tree lent to the agent user and taken back.
  stage.lap('work tree hand-over', { phase: 'agent', ms: ar.durationMs });
  crashPoint(ctx, 'agent');
  const agentFailure = ar.idle
    ? `the agent printed nothing for ${idleS} s (agent.idle_seconds) and was stopped`
    : ar.timedOut
      ? `the agent was killed at the ${Math.round(Math.min(plan.budget.max_seconds_per_iteration * 1000, remainingMs) / 1000)} s limit`
      : !ar.aborted && (ar.exitCode !== 0 || out.failed)
        ? failureText(ar, out.errorText, agentSpec(ctx, n).preset)
        : null;
  o.log.info(
    `iter ${n}: agent ${(ar.durationMs / 1000).toFixed(1)} s, ${ar.timedOut ? 'killed at the time limit' : ar.aborted ? 'stopped' : `exit ${ar.exitCode ?? ar.signal}`}` +
      `${out.costUsd ? `, ${usd(out.costUsd)}` : ''}${out.tokens ? `, ${out.tokens.input + out.tokens.output} tokens` : ''}${out.toolCalls !== null ? `, ${out.toolCalls} tool call(s)` : ''}${agent.backpressure ? ` — backpressure: ${agent.backpressure}` : ''}${agentFailure ? ` — ${agentFailure}` : ''}`,
  );

  // Collect: only what the agent changed is its; protected paths are put back.
  fsm.to('COLLECT_ARTIFACTS');
  const after = await git.position();
  if (branch !== after.branch) return unrecorded('INVARIANT_VIOLATION', `the agent switched the branch from ${branch} to ${after.branch}`);
  // A criterion's program the agent was to write is protected from the iteration after it was committed.
  const toWrite = judgesToWrite(plan.acceptance_criteria);
  const judges = toWrite.length ? [...(await git.inHead(toWrite))] : [];
  const isProtected = protectedMatcher(judges.length ? [...plan.protected, ...judges] : plan.protected);
  const own = ownPaths(ctx.cwd, resolve(ctx.cwd, ctx.evRel));
  const collected = await collectArtifacts({
    git,
    cwd: ctx.cwd,
    evidence: ev,
    dir,
    before,
    startHead: startHead!,
    settings,
    // A user's ignored file the agent made part of its change (its .gitignore line removed) would be
    // committed and pushed: reverted as a protected path.
    isProtected: (p) => isProtected(p) || userFiles.has(p),
    userFiles: (ignored) => userFiles.putBack(isProtected, ignored),
    agent,
    scrub: scrubber(ctx.secrets),
    holdsSecret: (data) => secretScrubber(ctx.secrets).contains(data),
    guardedScripts: scriptsRunBy(plan.acceptance_criteria.map((c) => c.run)),
    allowList: plan.may_change ? allowList(plan.may_change, ctx.cwd, await shadowNames(ctx.cwd, ctx.o.runner)) : null,
    loopOwned: own.whyOwn,
    reserved: own.whyReserved,
  });
  countUsage(state, out);
  let guardrail =
    [
      ...(
        [
          ['protected', 'protected paths changed and reverted'],
          ['loop-owned', "the loop's own paths changed and reverted"],
          ['not-allowed', 'changes outside agent.may_change reverted'],
          ['shadow', 'modules that would run in place of a library or at interpreter start reverted'],
          ['runner-config', 'runner configuration changed and reverted (suite integrity)'],
          ['outside', 'changes reaching outside the tree reverted'],
          ['secret', 'changes holding a secret value reverted'],
        ] as const
      ).map(([why, what]) => {
        const paths = collected.reverted.filter((r) => r.why === why).map((r) => (r.detail ? `${printablePath(r.path)} (${r.detail})` : printablePath(r.path)));
        return paths.length ? `${what}: ${listSome(paths)}` : '';
      }),
      collected.settingsChanged.length ? `git settings changed and restored: ${collected.settingsChanged.join(', ')}` : '',
    ]
      .filter(Boolean)
      .join('; ') || null;
  o.log.info(
    `iter ${n}: ${collected.diffFiles} file(s) changed, report ${collected.report.state}` +
      `${guardrail ? ` — GUARDRAIL: ${guardrail}` : ''}${collected.agentCommitsFolded ? `, ${collected.agentCommitsFolded} agent commit(s) folded in` : ''}`,
  );
  // Not a guardrail: an ordinary change git cannot stage (its attributes ask for a conversion that
  // fails) is put back and said, and the loop goes on (AGENTS.md tells the next agent why).
  const unstaged = unstageable(collected);
  if (unstaged) o.log.info(`iter ${n}: ${unstaged}`);
  if (collected.untrackedDeleted.length)
    o.log.info(
      `iter ${n}: the agent deleted ${collected.untrackedDeleted.map(printablePath).join(', ')} (uncommitted, never tracked): nothing to stage; ` +
        `the user's version is kept in ${USER_WORK_REF} (\`git checkout ${work ? work.slice(0, 12) : USER_WORK_REF} -- <path>\` brings it back)`,
    );
  logUserFiles(o, n, collected.userFiles);
  crashPoint(ctx, 'collect');
  stage.lap('collect');
  const changed = collected.produced;
  const reported = collected.report.state !== 'absent';
  let interrupted = agent.backpressure;
  const base = { changed, reported, agentFailure, guardrail, invariant: null };
  const early = decide({ ...base, interrupted, ...unjudged() });
  if (early.halt && !early.record) {
    // The step is settled (it left nothing of the agent's): what the work tree holds from here on,
    // an edit the user makes during the pause included, is the user's, not a cut-off step's.
    clearStepStart(marker);
    await ev.saveManifest();
    return early;
  }

  // Judge the tree the agent left (staged), unless a stop came first: then it is partial work,
  // committed and judged by the next run.
  const tree = collected.tree;
  const carried = currentResidual(ctx);
  let checks: CheckResult[] = [];
  let residual: Decimal | null = carried === null ? null : new Decimal(carried);
  let residualDetail = `carried from the previous measurement (checks not run: ${interrupted ? 'paused' : 'guardrail'})`;
  let residualError: string | null = null;
  let judgedIn: string | null = null;
  let suiteWeakened: string | null = null;
  let canary: CanaryOutcome[] | undefined;
  fsm.to('CHECK_HALTING');
  if (!interrupted) {
    const round = await checkRound(ctx, dir, tree, { signal: o.signal, reuse: true, stage });
    if (round.aborted) interrupted = (await firstStop(ctx.stops)) ?? 'the loop was asked to stop (during the checks)';
    else {
      checks = round.checks;
      canary = round.canary;
      judgedIn = round.cwd;
      suiteWeakened = suiteVerdict(ctx, round.junit);
      if (suiteWeakened) o.log.warn(`iter ${n}: suite integrity: ${suiteWeakened}`);
      state.passes = updatePasses(state.passes, checks, n);
      residual = 'value' in round.residual ? round.residual.value : null;
      residualError = 'error' in round.residual ? round.residual.error : null;
      residualDetail = 'value' in round.residual ? round.residual.detail : round.residual.error;
      await recordFailures(ctx, dir, round);
    }
  }
  crashPoint(ctx, 'checks');
  await collected.recorded;
  stage.lap('checks');
  const judged = checks.length > 0;
  const met = new Map(judged ? checks.map((c) => [c.id, c.met]) : Object.entries(state.criteria_met));
  if (judged) logFailures(ctx, n, checks);

  // The Skeptic's other voices: failure signatures (detour, STUCK), the critic, the stall counter.
  const cfg = ctx.intake.config;
  const progress: FiredExit[] = [];
  const failing = await failingSignatures(ctx, checks);
  const progressed = residual !== null && carried !== null && residual.lt(carried);
  const sig = judged ? trackSignatures(state.progress, failing, cfg.detours, n, progressed) : { stuck: [], detour: null };
  const verdict = judged ? await critique(ctx, n, await collected.diff, checks) : null;
  const stall =
    judged && residual !== null
      ? trackStall(state.progress, residual, { stallIterations: cfg.stall_iterations, canEscalate: !!cfg.agent.escalate, iteration: n })
      : null;
  if (verdict?.state.state === 'valid' && !verdict.state.verdict.can_further_iteration_help && checks.some((c) => !c.met))
    progress.push({
      kind: 'NO_VIABLE_FIX_PATH',
      reason: `the critic says no further iteration can help${verdict.state.verdict.reason ? `: ${verdict.state.verdict.reason}` : ''}`,
    });
  if (sig.stuck.length) progress.push({ kind: 'STUCK', reason: `the same failure after a detour: ${sig.stuck.map((x) => x.signature).join(', ')}` });
  if (stall?.stalledOut)
    progress.push({
      kind: 'STALLED',
      reason: `no residual below ${num(state.progress.best_residual)} for ${state.progress.stalled} iterations${state.progress.escalated_at !== null ? ' (after escalation)' : ''}`,
    });
  if (stall?.escalate) o.log.info(`iter ${n}: residual stalled for 2 iterations — escalating to ${describeAgent(ctx, n + 1)}`);
  if (sig.detour) o.log.info(`iter ${n}: repeated failure ${sig.detour.repeated.map((d) => d.signature).join(', ')} — detour next iteration`);
  stage.lap('skeptic');
  const readings = judgedIn ? await measureAll(ctx, judgedIn, residual, met) : null;
  stage.lap('northstar');
  await ctx.judge.release();
  // Live checks ran the agent's code in the work tree: a protected path they changed would pass for
  // the user's own edit from the next iteration on (and be judged). Put back, and a guardrail.
  const byChecks = judgedIn && ctx.judge.mode === 'live' ? await protectedChangedByChecks(ctx, before, isProtected) : null;
  if (byChecks) {
    guardrail = [guardrail, byChecks].filter(Boolean).join('; ');
    o.log.info(`iter ${n}: GUARDRAIL: ${byChecks}`);
  }
  stage.lap('hand-back');
  const ns = readings
    ? snapshot(ctx.intake.northstar, readings, new Map(Object.entries(plan.northstar.baseline)))
    : (state.last_northstar ?? { readings: [], total_distance: null });
  const checksEntry = judged
    ? await ev.writeJson(`${dir}/checks.json`, { checks, residual: residual ? dstr(residual) : null, residual_detail: residualDetail, northstar: ns })
    : null;

  // GLOW, from evidence only.
  const previousResidual = carried === null ? null : new Decimal(carried);
  const prevMet = new Map(Object.entries(state.criteria_met));
  const R_p = plan.R_p ? new Decimal(plan.R_p) : null;
  const history = state.residual_history.slice(state.window.residuals);
  const declared = plan.halting_certificates_applicable;
  const judgement = judged ? judgementOf({ declared, checks, residual, residualError, R_p }, suiteWeakened) : null;
  const diverging =
    judged && residual !== null && isDiverging([...history, dstr(residual)])
      ? `residuals ${[...history, dstr(residual)]
          .slice(-3)
          .map((r) => num(r))
          .join(' < ')}`
      : null;

  // Decide. The learnings name the certificate type, so the decision comes before the record.
  const lateStop = interrupted ?? (await firstStop(ctx.stops));
  // A stop before any check ran makes this iteration a pause that uses no iteration up (decide.ts).
  const counted = countsAgainstBudget({ interrupted, judgement });
  const budget = budgetExhausted(ctx, counted ? 1 : 0);
  const facts = { ...base, guardrail, interrupted, judgement, diverging, progress, backpressure: lateStop, budget };
  const provisional = decide({ ...facts, northstarDrift: null, northstarRising: null });
  const { entry, facts: learned } = learn(ctx, n, {
    agent,
    collected,
    checks,
    certificate: provisional.certificate,
    guardrail,
    residual: judged ? residual : null,
    previousResidual,
    ns,
    stopped: !!interrupted,
    empty: false,
    residualError,
    diverging,
    verdict: verdict?.state ?? null,
    criticReverted: verdict?.reverted ?? [],
    detour: sig.detour,
    escalated: stall?.escalate ? describeAgent(ctx, n + 1) : null,
  });
  const glow = scoreGlow({
    iteration: n,
    previouslyMet: prevMet,
    met,
    previousResidual,
    residual: judged ? residual : null,
    R_p,
    diffProduced: changed,
    report: collected.report.state,
    newLaneA: learned.filter((f) => f.startsWith('A:') && !state.last_facts.includes(f)).length > 0,
    newLaneB: learned.some((f) => f.startsWith('B:')),
    laneC: collected.report.state === 'valid',
    previousDistance: state.last_northstar?.total_distance ? new Decimal(state.last_northstar.total_distance) : null,
    distance: ns.total_distance ? new Decimal(ns.total_distance) : null,
    northstar: {
      residual: ctx.intake.northstar.some((m) => m.measure.kind === 'residual'),
      criteria: ctx.intake.northstar.flatMap((m) => (m.measure.kind === 'criterion' ? [m.measure.id] : [])),
    },
  });
  // The Northstar windows skip the iterations a stop cut short before their checks: unmeasured,
  // they neither continue a drift nor break one (and such an iteration fires none).
  const measured = state.rows.slice(state.window.rows).filter((r) => !state.stopped_before_checks.includes(r.iteration));
  const zeroW = counted ? trailingZeroW([...measured, glow]) : 0;
  const drift = zeroW >= 3 ? `W = 0 for ${zeroW} iterations in a row` : null;
  const distances = [...measured.map((r) => r.northstar_distance), ns.total_distance];
  const rising =
    counted && isDrifting(distances)
      ? `northstar distance rose three iterations in a row: ${distances
          .slice(-3)
          .map((d) => num(d))
          .join(' < ')}`
      : null;
  for (const why of [drift, rising])
    if (why) ctx.pendingLogs.push(['northstar_drift.log', `iteration ${n}: ${why}; northstar distance ${num(ns.total_distance, 'unknown')}`]);
  if (glow.warning) entry.failed.push({ lane: 'A', text: `WARNING: ${glow.warning}` });
  entry.glow = { total: glow.total, G: glow.G, L: glow.L, O: glow.O, W: glow.W };
  const previousGlow = state.rows.at(-1);
  entry.glow_delta = previousGlow?.total != null && glow.total !== null ? glow.total - previousGlow.total : null;

  // The Phuc Test of this iteration (docs/glossary.md "Phuc Test"), before the decision: a failure is
  // an invariant violation that ends the run now, not only at the end.
  const phuc = phucResult(
    phucConditions({
      iteration: n,
      capsule: prepared.capsule,
      capsuleText: prepared.text,
      entry: renderEntry(entry),
      previousEntry: ctx.entries.at(-1)?.text ?? null,
      hostPaths: ctx.hostPaths,
      planText: canonicalJson(plan),
      evidenceEntry: (rel) => ev.entry(rel)?.sha256,
    }),
  );
  const phucFailure = phuc.failures[0];
  const decision = decide({
    ...facts,
    invariant: phucFailure ? { code: phucFailure.split(':')[0], detail: phuc.failures.join('; ') } : null,
    northstarDrift: drift,
    northstarRising: rising,
  });
  fsm.to('ACCUMULATE_LEARNINGS');

  // Record: evidence → AGENTS.md → commit → certificate naming the commit → state.
  entry.certificate = decision.certificate;
  await ev.writeJson(`${dir}/phuc_test.json`, { iteration: n, ...phuc });
  const sectionBefore = ctx.section ?? renderSection({ meta: sectionMeta(ctx), entries: ctx.entries });
  // N.6 Gc is the section's measured change: the entry's own Gc line holds no newline, so the section
  // rendered with a stand-in there has the line count of the final one.
  const sectionAfter = renderSection({ meta: sectionMeta(ctx), entries: [...ctx.entries, { iteration: n, text: renderEntry(entry), link: '' }] });
  const lines = (t: string) => t.split('\n').length;
  const sizeDelta = lines(sectionAfter.text) - lines(sectionBefore.text);
  entry.gbb.Gc = `${sizeDelta >= 0 ? '+' : ''}${sizeDelta} lines (${lines(sectionBefore.text)} → ${lines(sectionAfter.text)}${sectionAfter.compaction ? ', compacted' : ''})`;
  const entryText = renderEntry(entry);
  const entryFile = await ev.write(`${dir}/agents_md_entry.md`, entryText);
  ctx.entries.push({ iteration: n, text: entryText, link: ev.link(entryFile.path) });
  const section = (ctx.section = renderSection({ meta: sectionMeta(ctx), entries: ctx.entries }));
  if (section.compaction) await checkRecompressibility(ctx, n, section);
  await ev.writeJson(`${dir}/glow.json`, { ...glow, agents_md_size_delta_lines: lines(section.text) - lines(sectionBefore.text) });
  await writeAgentsMd(ctx, section, sectionBefore);
  crashPoint(ctx, 'agents-md');
  if (section.compaction && (section.witnessed.length !== state.section_witnessed || section.archived.length !== state.section_archived)) {
    // Each archived iteration's witness lines go to the log once, when it leaves AGENTS.md.
    const newlyArchived = new Set(section.archived.slice(state.section_archived));
    const archivedLines = ctx.entries.filter((e) => newlyArchived.has(e.iteration)).flatMap((e) => witness(e.iteration, e.text, e.link));
    ctx.pendingLogs.push(['compaction.log', `iteration ${n}: ${section.compaction}${archivedLines.map((l) => `\n  ${l}`).join('')}`]);
    state.section_witnessed = section.witnessed.length;
    state.section_archived = section.archived.length;
  }
  stage.lap('learn');
  const message =
    `phuc-loop: iteration ${n} — residual ${judged && residual ? num(dstr(residual)) : 'n/a'}, certificate ${decision.certificate}, GLOW ${glow.total ?? 'unknown'} (G${glow.G} L${glow.L} O${glow.O} W${glow.W ?? '?'})\n\n` +
    `Evidence: ${ctx.evRel}/${dir}/${checksEntry ? `checks.json#${checksEntry.sha256}` : 'certificate.json'}\n`;
  // AGENTS.md is in the index as the step's starting commit holds it when it was there and neither
  // the user (dirty before the step) nor the agent (a change, a revert) touched it: the commit then
  // stages the new text itself, one git process fewer.
  const touched =
    before.has('AGENTS.md') || [...collected.changed, ...collected.untrackedDeleted, ...collected.reverted.map((r) => r.path)].includes('AGENTS.md');
  const tracked = !touched && !!startHead && !!(await git.topLevelNames(await git.commitTree(startHead)))?.has('AGENTS.md');
  const commit = await git.commit(message, ['AGENTS.md'], tracked);
  clearStepStart(marker);
  // Where the next step starts, read by the git shell while this iteration is recorded: nothing
  // writes the work tree in between (the records are in the loop home, the agent's processes are gone).
  const dirtyAfter = snapshotDirty(git, ctx.cwd);
  dirtyAfter.catch(() => undefined);
  ctx.dirtyAfter = { head: commit.commit, snapshot: dirtyAfter };
  crashPoint(ctx, 'commit');
  stage.lap('commit');
  await endStage(ctx, stage, `${dir}/phases.json`);
  const cert = issueCertificate({
    iteration: n,
    type: decision.certificate,
    fired: decision.fired,
    declared,
    residualMetric: plan.residual.metric,
    residual,
    residualDetail,
    R_p,
    history: state.residual_history,
    checks,
    commit: commit.commit,
    tree: commit.tree,
    judgedTree: tree,
    workspace: ctx.judge.mode,
    isolation: ctx.isolation,
    network: ctx.sandbox.network,
    guard: guardMode(plan.may_change),
    previousSha256: state.last_certificate_sha256,
    canary,
  });
  // On disk before the state that follows it (the writer keeps the order; the state's save waits for both).
  const certEntry = await ev.writeJson(`${dir}/certificate.json`, cert);
  crashPoint(ctx, 'certificate');
  o.log.info(
    `iter ${n}: checks ${checks.filter((c) => c.met).length}/${plan.acceptance_criteria.length}${judged ? '' : ' (not run)'} · residual ${cert.residual === null ? 'unavailable' : num(cert.residual)} · certificate ${cert.type}`,
  );
  fsm.to('GLOW_CHECK');
  state.rows.push(
    frozen({
      iteration: n,
      G: glow.G,
      L: glow.L,
      O: glow.O,
      W: glow.W,
      total: glow.total,
      certificate: cert.type,
      residual: cert.residual,
      northstar_distance: ns.total_distance,
      cost_usd: out.costUsd,
      tokens: out.tokens ? out.tokens.input + out.tokens.output : null,
    }),
  );
  if (cert.residual !== null && judged) state.residual_history.push(cert.residual);
  if (judged) state.criteria_met = Object.fromEntries(met);
  state.start_residual = null;
  state.last_facts = learned;
  state.last_northstar = ns;
  state.last_certificate_sha256 = certEntry.sha256;
  state.last_commit = commit.commit;
  state.next_iteration = n + 1;
  if (!counted) {
    state.stopped_before_checks.push(n);
    passStopped(state.progress, n);
  }
  ctx.iterations.push(n);
  recordCycle(ctx, n, {
    checks,
    residual: judged ? residual : null,
    guardrail,
    empty: false,
    residualError,
    failing,
    detourNext: !!sig.detour,
    verdict: verdict?.state ?? null,
  });
  state.exits_fired.push(...decision.fired.map((f) => ({ ...f, iteration: n })));
  o.log.info(
    `iter ${n}: GLOW ${glow.total ?? 'unknown'} (G${glow.G} L${glow.L} O${glow.O} W${glow.W ?? '?'}) · northstar ${num(ns.total_distance)} · commit ${commit.commit.slice(0, 12)}`,
  );

  // The iteration is on record before the host pushes its commit: a crash after the push resumes after it.
  // Without a host, a run that goes on records it once, with the history line and the next prompt.
  fsm.to('BUDGET_CHECK');
  if (!o.host?.afterIteration && !decision.halt) {
    await writeIterationRecords(ctx, n);
    crashPoint(ctx, 'state');
    return decision;
  }
  await flushPendingLogs(ctx);
  await saveState(ctx);
  crashPoint(ctx, 'state');
  const hostBlock = o.host?.afterIteration ? await o.host.afterIteration({ iteration: n, commit: commit.commit, report: await interimReport(ctx, n) }) : null;
  if (hostBlock && !decision.halt) {
    const fired: FiredExit[] = [{ kind: 'INVARIANT', code: hostBlock.split(':')[0], reason: hostBlock }];
    state.exits_fired.push({ ...fired[0], iteration: n });
    return { halt: true, record: true, certificate: cert.type, status: 'EXIT_BLOCKED', stop_reason: fired[0].code!, detail: hostBlock, fired };
  }
  if (!decision.halt) await writeIterationRecords(ctx, n);
  return decision;

  function unrecorded(code: string, detail: string): Decision {
    return {
      halt: true,
      record: false,
      certificate: 'NONE',
      status: 'EXIT_BLOCKED',
      stop_reason: code,
      detail,
      fired: [{ kind: 'INVARIANT', code, reason: detail }],
    };
  }
}

/**
 * The protected paths the live checks changed: dirty now other than as before the agent's step (the
 * agent's own changes to them were put back to that), put back in turn; null when none. One sentence.
 */
async function protectedChangedByChecks(ctx: Ctx, before: DirtySnapshot, isProtected: (path: string) => boolean): Promise<string | null> {
  const now = (await ctx.git.status()).map((c) => c.path).filter(isProtected);
  const changed: string[] = [];
  for (const p of new Set([...now, ...[...before.keys()].filter(isProtected)]))
    if (!now.includes(p) || !before.has(p) || (await fingerprint(ctx.cwd, p)) !== before.get(p)!.sha) changed.push(p);
  if (!changed.length) return null;
  const { failed } = await restoreBefore(ctx.git, ctx.cwd, before, changed);
  const paths = changed.map((p) => printablePath(p) + (failed.some((f) => f.path === p) ? ' (could not be put back)' : ''));
  return `protected paths changed by the checks (checks.workspace: live) and put back: ${listSome(paths)}`;
}

/**
 * Crash injection for the crash-consistency test: with PHUC_TEST_CRASH_AT=<point>:<iteration> the
 * loop kills itself (SIGKILL: no cleanup, like an OOM kill or a power loss) at that point.
 */
export function crashPoint(ctx: Ctx, point: string): void {
  if (ctx.o.env.PHUC_TEST_CRASH_AT === `${point}:${ctx.state.next_iteration}`) process.kill(process.pid, 'SIGKILL');
}

/** The CLI's own words for why it failed: its error result or last error line, not only "exit 1". */
function failureText(r: { exitCode: number | null; signal: string | null; stdout: string; stderr: string }, errorText: string | null, preset: string): string {
  if (r.exitCode === 127) return `exit 127: the agent command was not found — install the ${preset} CLI or set agent.run`;
  const last = errorText ?? lastErrorLine(`${r.stdout}\n${r.stderr}`);
  return `exit ${r.exitCode ?? r.signal}${last ? `: ${last}` : ''}`;
}

/** Cost, tool calls and tokens as the agent reported them, summed exactly; a figure never reported stays unknown. */
function countUsage(state: Ctx['state'], out: AgentOutcome): void {
  const reported = (state.reported ??= { cost: state.cost_reported, tokens: false, toolCalls: false });
  if (out.costUsd !== null) {
    state.total_cost_usd = dstr(new Decimal(state.total_cost_usd).plus(out.costUsd));
    state.cost_reported = reported.cost = true;
  }
  if (out.toolCalls !== null) {
    state.total_tool_calls += out.toolCalls;
    reported.toolCalls = true;
  }
  if (out.tokens) {
    const t = (state.total_tokens ??= { input: 0, output: 0, cache_read: 0, cache_write: 0 });
    for (const k of ['input', 'output', 'cache_read', 'cache_write'] as const) t[k] += out.tokens[k];
    reported.tokens = true;
  }
}

/** Which criterion fails and why, at the moment it happens. */
function logFailures(ctx: Ctx, n: number, checks: CheckResult[]): void {
  for (const c of checks.filter((k) => !k.met))
    ctx.o.log.info(`iter ${n}: criterion ${c.id} ${c.timed_out ? 'timed out' : `failed (exit ${c.exit_code})`} — ${ctx.evRel}/${c.evidence.split('#')[0]}`);
}

/** Where the user's uncommitted work is kept (local only: the loop pushes its branch, never this ref). */
export const USER_WORK_REF = 'refs/phuc-loop/user-work';

/**
 * Whatever the agent then does to the user's uncommitted files (edit, delete, overwrite), the
 * user's version stays in git: kept before every agent step in which there is any.
 */
async function keepUserWork(ctx: Ctx, before: DirtySnapshot): Promise<string | null> {
  const paths = [...before.keys()].filter((p) => !p.endsWith('/'));
  if (!paths.length) return null;
  const kept = await ctx.git.keepWork(paths, USER_WORK_REF, `phuc-loop: uncommitted work before iteration ${ctx.state.next_iteration}`);
  if (kept.made)
    ctx.o.log.info(
      // The commit, not the ref: a later step's keep moves the ref (this commit stays its parent).
      `uncommitted work (${paths.length} path(s)) kept in ${USER_WORK_REF} (${kept.commit.slice(0, 12)}): \`git checkout ${kept.commit.slice(0, 12)} -- <path>\` brings a file back`,
    );
  return kept.commit;
}

/**
 * The user's git-ignored files, kept once per run before its first agent step and put back after
 * each one (user-files.ts); the loop's own folders and the regenerable ones are left out.
 */
async function keepUserFiles(ctx: Ctx): Promise<UserFiles> {
  if (ctx.userFiles) return ctx.userFiles;
  // What the loop itself writes there (its published trees, scratch/STOP, the report channel); the
  // user's own files under the names it keeps out of git's view (evidence/, the agent CLIs' state) are kept.
  const own = [LOOP_SCRATCH_DIR, dirname(REPORT_PATH)];
  const { isPublished: published, whyReserved } = ownPaths(ctx.cwd, resolve(ctx.cwd, ctx.evRel));
  const regenerable = ctx.intake.config.user_files?.regenerable ?? DEFAULT_REGENERABLE;
  const copyAll = ctx.isolation !== 'user+pidns';
  const started = ctx.o.clock.monotonicMs();
  const files = await UserFiles.take({
    git: ctx.git,
    cwd: ctx.cwd,
    store: userFilesStore(ctx.ev.root),
    regenerable,
    loopOwned: (p) => own.some((l) => p === l || p.startsWith(`${l}/`)) || published(p),
    reserved: (p) => whyReserved(p) !== null,
    copyAll,
  });
  ctx.userFiles = files;
  if (files.count)
    ctx.o.log.info(
      `git-ignored files of the user's: ${files.count} kept in .git/phuc-loop (hard links${copyAll ? ', and copies of the small ones' : ''}; ` +
        `${Math.round(ctx.o.clock.monotonicMs() - started)} ms), put back after every agent step; folders named ${regenerable.join(', ') || '(none)'} are left out (user_files.regenerable)`,
    );
  for (const note of files.notes) ctx.o.log.warn(note);
  return files;
}

/** What the loop did about the user's ignored files after a step, in the log (artifacts.json has the full lists). */
export function logUserFiles(o: Pick<Ctx['o'], 'log'>, n: number | null, done: PutBack | null | undefined): void {
  if (!done) return;
  const at = n === null ? '' : `iter ${n}: `;
  const few = (paths: string[]) => `${paths.slice(0, 5).join(', ')}${paths.length > 5 ? `, and ${paths.length - 5} more` : ''}`;
  if (done.restored.length)
    o.log.info(
      `${at}the agent deleted, replaced or changed ${done.restored.length} git-ignored file(s) of the user's: put back as they were (${few(done.restored)})`,
    );
  if (done.protectedRemoved.length) o.log.info(`${at}git-ignored file(s) the agent made under protected paths removed: ${few(done.protectedRemoved)}`);
  if (done.reservedRemoved.length) o.log.info(`${at}file(s) the agent made under the folders the loop keeps for itself removed: ${few(done.reservedRemoved)}`);
  for (const f of done.failed) o.log.warn(`${at}the user's git-ignored file ${f.path} could not be put back: ${f.error}`);
}
