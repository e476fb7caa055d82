// One iteration: capsule → agent → collect → judge → decide → record. Each step's effects are
// here; what they mean for the run is decide()'s. An attempt that left nothing to judge (paused or
// failed before any change) is not an iteration: nothing is committed and the next run starts it
// again. Otherwise the iteration is recorded in this order, so that a kill at any point leaves the
// previous or the next consistent state: evidence files → AGENTS.md → one commit → the certificate
// naming that commit → state and manifest.
import type { CanaryOutcome } from '../judge/canary.js';
import { canonicalJson, frozen } from '../common/canonical.js';
import { type DirtySnapshot, fingerprint, restoreBefore, snapshotDirty } from '../agent/agent-step.js';
import { printablePath } from '../agent/path-names.js';
import { renderEntry, renderSection, witness } from '../memory/agents-md.js';
import { Decimal, dstr } from '../common/decimal.js';
import { num } from '../common/display.js';
import { listSome } from '../common/markdown.js';
import { guardMode } from '../agent/allow-list.js';
import { endStage, flushPendingLogs, interimReport, saveState, writeIterationRecords } from './records.js';
import { Stage } from '../evidence/phases.js';
import { phucConditions, phucResult } from '../evidence/audit.js';
import { iterDir } from '../store/evidence.js';
import { isDiverging, issueCertificate, judgementOf } from '../judge/certificate.js';
import { type CheckResult, updatePasses } from '../judge/checks.js';
import { snapshot } from '../judge/northstar.js';
import { recordCycle } from './skeptic.js';
import { prepareCapsule } from './capsule-build.js';
import { checkRecompressibility, learn, writeAgentsMd } from './learn.js';
import { recordFailures } from '../memory/failures.js';
import { firstStop } from '../os/stops.js';
import { roundStop, timeBudgetHalt } from './time-budget.js';
import { budgetExhausted, checkRound, type Ctx, currentResidual, describeAgent, measureAll, sectionMeta, suiteVerdict } from './context.js';
import { countsAgainstBudget, type Decision, decide, type FiredExit, unjudged } from '../run/decide.js';
import { passStopped } from '../run/progress.js';
import { clearStepStart } from './step-start.js';
import { agentTurn } from './agent-turn.js';
import { crashPoint } from './crash-point.js';
import { glowOf } from './iteration-glow.js';
import { skepticVoices } from './skeptic-voices.js';

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

  const turn = await agentTurn(ctx, n, stage, prepared);
  if ('invariant' in turn) return unrecorded('INVARIANT_VIOLATION', turn.invariant);
  const { marker, startHead, before, isProtected, collected, agent, agentFailure } = turn;
  const out = agent.outcome;
  let guardrail = turn.guardrail;
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
    if (round.aborted) interrupted = await roundStop(ctx, 'the loop was asked to stop (during the checks)');
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
  const { progress, failing, sig, verdict, stall } = await skepticVoices(ctx, n, { checks, residual, carried, judged, diff: collected.diff });
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
  const { glow, drift, rising } = glowOf(ctx, n, {
    prevMet,
    met,
    previousResidual,
    residual: judged ? residual : null,
    R_p,
    changed,
    report: collected.report.state,
    learned,
    ns,
    counted,
    entry,
  });

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
  const decided = decide({
    ...facts,
    invariant: phucFailure ? { code: phucFailure.split(':')[0], detail: phuc.failures.join('; ') } : null,
    northstarDrift: drift,
    northstarRising: rising,
  });
  const decision = decided.halt ? timeBudgetHalt(decided) : decided;
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

/** Which criterion fails and why, at the moment it happens. */
function logFailures(ctx: Ctx, n: number, checks: CheckResult[]): void {
  for (const c of checks.filter((k) => !k.met))
    ctx.o.log.info(`iter ${n}: criterion ${c.id} ${c.timed_out ? 'timed out' : `failed (exit ${c.exit_code})`} — ${ctx.evRel}/${c.evidence.split('#')[0]}`);
}
