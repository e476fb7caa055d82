// Terminal bookkeeping: the confirmation and replays of the certified commit, rungs, the Triangle
// and the Phuc Test, the halting report. Which exit wins was decided before (decide.ts).
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { checkTriangle, phucTest } from '../evidence/audit.js';
import { iterDir } from '../store/evidence.js';
import { type Certificate, certificateSchema, convergenceClaimProblem, issueCertificate, judgementOf } from '../judge/certificate.js';
import { guardMode } from '../agent/allow-list.js';
import type { CheckResult } from '../judge/checks.js';
import type { CanaryOutcome } from '../judge/canary.js';
import { Decimal } from '../common/decimal.js';
import { num } from '../common/display.js';
import { lastRoundFailures } from '../memory/failures.js';
import { openQuestionsOf } from '../memory/agents-md.js';
import { decideFinal, decideJudgement, type FiredExit } from '../run/decide.js';
import { EvidenceStore, LATEST_RUN_REPORT, listFiles, NOT_EVIDENCE } from '../store/evidence.js';
import { atomicWrite } from '../os/atomic-write.js';
import { canonicalJson } from '../common/canonical.js';
import { EXIT_CODES, type TerminalState } from '../run/fsm.js';
import { allInputsHash, type Ctx } from './context.js';
import { type LoopOptions, type LoopOutcome } from './options.js';
import type { NeedInfo } from '../config/intake.js';
import { endStage, saveState, writeIterationRecords, writeRunEndRecords, writeRunPhases } from './records.js';
import { phaseSummary, Stage } from '../evidence/phases.js';
import { buildReport, type ReportInput } from '../evidence/report.js';
import { readRegular } from '../os/tree-file.js';
import { computeRung } from './rung.js';
import { timeBudgetFinal, timeBudgetHalt } from './time-budget.js';

/** How a run ends: decide()'s verdict (or a refusal before the plan) with what fired. */
export interface Halt {
  status: TerminalState;
  stop_reason: string;
  detail: string;
  fired: FiredExit[];
  /** Whether the halting iteration was recorded; an unrecorded one's exits are reported here only. */
  record: boolean;
  /** EXIT_NEED_INFO: the fields the user must supply (the report's missing_fields). */
  missing_fields?: string[];
}

/** Terminal bookkeeping: confirmation and replays, rungs, the audits, the report, the manifest. */
export async function finish(ctx: Ctx, halt: Halt, opts: { certificateRel?: string } = {}): Promise<LoopOutcome> {
  const { ev, state, o } = ctx;
  // The run's end: confirmation and replays are stages of their own within it (evidence/phases.ts).
  const stage = new Stage('end', o.clock);
  const last = ctx.iterations.at(-1);
  const certRel = opts.certificateRel ?? (last === undefined ? null : `${iterDir(last)}/certificate.json`);
  const certificate = certRel === null ? null : await ev.readJson(certRel, certificateSchema);
  halt = timeBudgetHalt(halt);
  const converged = halt.status === 'EXIT_CONVERGED';
  if (converged) {
    const claim = convergenceClaimProblem(certificate);
    if (claim) halt = { ...halt, status: 'EXIT_BLOCKED', stop_reason: 'CONVERGENCE_CLAIM_WITHOUT_R_P_CERTIFICATE', detail: claim };
  }
  const { interrupted, ...rung } = await computeRung(ctx, certificate, halt.status === 'EXIT_CONVERGED', certRel);
  // The replays are stages of their own, within this one (evidence/phases.ts).
  stage.lap('rungs', { ms: ctx.stages.filter((s) => s.within === stage.name).reduce((a, s) => a + s.wall_ms, 0) });
  const triangle = await checkTriangle(ev, ctx.iterations);
  const phuc = await phucTest(ev, ctx.iterations, {
    hostPaths: ctx.hostPaths,
    converged: halt.status === 'EXIT_CONVERGED',
    rungTarget: ctx.plan.rung_target,
    rungAchieved: rung.achieved,
  });
  const final = timeBudgetFinal(
    decideFinal(halt.status, halt.stop_reason, {
      triangleMissing: triangle.triangle_vertex_missing,
      phucFailures: phuc.failures,
      confirmation: rung.confirmation,
      interrupted,
      alignment: rung.alignment.status,
      neutralAccepted: !!ctx.intake.config.northstar_neutral_reason,
      alignmentDetail: `${num(rung.alignment.northstar_distance_start)} → ${num(rung.alignment.northstar_distance_end)}`,
    }),
    interrupted,
  );
  const detail = final.withheld ? `${final.withheld}${halt.detail ? ` (${halt.detail})` : ''}` : halt.detail;
  if (final.withheld) o.log.warn(detail);
  if (!halt.record) state.exits_fired.push(...halt.fired.map((f) => ({ ...f, iteration: state.next_iteration })));
  const head = await ctx.git.head();
  state.terminal = {
    status: final.status,
    stop_reason: final.stop_reason,
    head,
    inputs_hash: await allInputsHash(ctx.cwd, ctx.intake.config.acceptance_criteria, await ctx.git.listFiles()),
  };
  if (last !== undefined) await writeIterationRecords(ctx, last, { status: final.status, stop_reason: final.stop_reason });
  const agentsMd = (await readRegular(join(ctx.cwd, 'AGENTS.md')))?.toString('utf8') ?? '';
  await ev.write('agents_md_final.md', agentsMd);
  stage.lap('audits and records');
  await endStage(ctx, stage);
  await writeRunPhases(ctx);
  const backpressure = halt.stop_reason === 'BACKPRESSURE_SIGNAL' ? halt.detail : (interrupted ?? undefined);
  const report = buildReport({
    plan: ctx.plan,
    state,
    status: final.status,
    stop_reason: final.stop_reason,
    iterations: ctx.iterations,
    evRel: ctx.evRel,
    certificate,
    certificateRel: certRel,
    triangle,
    phuc,
    rung,
    run: ctx.run,
    isolation: ctx.isolation,
    isolationLimits: ctx.sandbox.limits,
    workspace: ctx.judge.mode,
    lastState: ctx.fsm.state,
    failures: await lastRoundFailures(ctx, state.next_iteration),
    evidencePointers: evidencePointers(ctx, certRel, last, certificate),
    phases: ctx.stages,
    extra: { detail, backpressure, backpressureOnly: !halt.record && !!backpressure, missing_fields: halt.missing_fields },
    openQuestions: openQuestionsOf(ctx.entries.at(-1)?.text ?? ''),
  });
  await ev.writeJson('halting_report.json', report);
  // The next run's agent is shown them (memory/capsule-build.ts).
  state.lessons_for_next_run = report.lessons_for_next_run;
  await writeRunEndRecords(ctx);
  await saveState(ctx);
  ctx.fsm.finish(final.status);
  // The iterations this run made; a resumed run also says how many the loop has on record.
  const made = ctx.iterations.filter((n) => n >= ctx.run.first).length;
  const onRecord = ctx.run.resumed ? ` in this run (${ctx.iterations.length} on record)` : '';
  o.log.info(`halt: ${final.status}(${final.stop_reason}) after ${made} iteration(s)${onRecord}${certificate ? `, certificate ${certificate.type}` : ''}`);
  // What paused the run, in its source's words (a leftover scratch/STOP is named here).
  if (backpressure && final.stop_reason === 'BACKPRESSURE_SIGNAL') o.log.warn(`paused: ${backpressure}`);
  const time = phaseSummary(ctx.stages);
  if (time) o.log.info(`time by phase: ${time} (the halting report has the table)`);
  // What the user must supply is said where they look, not only in the report.
  if (final.status === 'EXIT_NEED_INFO') o.log.error(halt.detail);
  if (report.run?.how_to_go_on) o.log.info(`to go on: ${report.run.how_to_go_on}`);
  return { status: final.status, stop_reason: final.stop_reason, exitCode: EXIT_CODES[final.status], report };
}

/**
 * The judgement HEAD started from already satisfies the criteria: its certificate (named for
 * HEAD) ends the run without an agent.
 */
export async function startCertificate(
  ctx: Ctx,
  dir: string,
  tree: string,
  round: { checks: CheckResult[]; residual: { value: Decimal; detail: string } | { error: string }; canary?: CanaryOutcome[] },
  residual: Decimal | null,
): Promise<{ decision: Halt; rel: string } | null> {
  const { plan } = ctx;
  const R_p = plan.R_p ? new Decimal(plan.R_p) : null;
  const declared = plan.halting_certificates_applicable;
  const j = judgementOf({ declared, checks: round.checks, residual, residualError: 'error' in round.residual ? round.residual.error : null, R_p }, null);
  if (!j.exact && !j.converged) return null;
  const decision = decideJudgement(j);
  if (!decision.halt) return null;
  const cert = issueCertificate({
    iteration: ctx.state.next_iteration,
    type: decision.certificate,
    fired: decision.fired,
    declared,
    residualMetric: plan.residual.metric,
    residual,
    residualDetail: 'value' in round.residual ? round.residual.detail : round.residual.error,
    R_p,
    history: [],
    checks: round.checks,
    canary: round.canary,
    commit: await ctx.git.head(),
    tree,
    judgedTree: tree,
    workspace: ctx.judge.mode,
    isolation: ctx.isolation,
    network: ctx.sandbox.network,
    guard: guardMode(plan.may_change),
    previousSha256: ctx.state.last_certificate_sha256,
  });
  const rel = `${dir}/certificate.json`;
  await ctx.ev.writeJson(rel, cert);
  ctx.o.log.info(`${dir === 'baseline' ? 'baseline' : 'HEAD'} already meets the criteria: certificate ${cert.type} without an agent step`);
  return { decision, rel };
}

/** The evidence a blocked run points to: its plan, the last iteration's record and the logs of the criteria it failed. */
function evidencePointers(ctx: Ctx, certRel: string | null, last: number | undefined, cert: Certificate | null): { path: string; sha256: string }[] {
  const iteration = last === undefined ? [] : ['agents_md_entry.md', 'artifacts.json', 'checks.json', 'phuc_test.json'].map((f) => `${iterDir(last)}/${f}`);
  const logs = (cert?.checklist ?? []).filter((c) => !c.met).map((c) => c.evidence.split('#')[0]);
  return ['plan.json', ...(certRel ? [certRel] : []), ...iteration, ...logs, 'northstar_drift.log'].flatMap((path) => {
    const e = ctx.ev.entry(path);
    return e ? [{ path, sha256: e.sha256 }] : [];
  });
}

/** The outcome of a loop that stopped before its plan existed (nothing ran, no certificate). */
export function earlyOutcome(status: 'EXIT_NEED_INFO' | 'EXIT_BLOCKED', stopReason: string, extra: ReportInput['extra']): LoopOutcome {
  const report = buildReport({
    plan: null,
    state: null,
    status,
    stop_reason: stopReason,
    iterations: [],
    evRel: '',
    certificate: null,
    triangle: null,
    phuc: null,
    rung: null,
    extra,
  });
  return { status, stop_reason: stopReason, exitCode: EXIT_CODES[status], report };
}

/** The outcome of a run that cannot go on for want of input; what is missing is said where the user looks. */
export function needInfo(info: NeedInfo, o: LoopOptions): LoopOutcome {
  for (const m of info.messages) o.log.error(m);
  return earlyOutcome('EXIT_NEED_INFO', info.stop_reason, { missing_fields: info.missing_fields, messages: info.messages });
}

/**
 * Leaves a NEED_INFO run's report (missing_fields, safe_partials) where `phuc-loop report` reads
 * it: as the tree's halting report where no earlier loop left evidence, else beside that evidence
 * (LATEST_RUN_REPORT), which is never overwritten by a run that could not start.
 */
export async function recordNeedInfo(ev: EvidenceStore, outcome: LoopOutcome): Promise<LoopOutcome> {
  const files = (await ev.exists()) ? await listFiles(ev.root) : [];
  if (files.every((f) => NOT_EVIDENCE.has(f) || f === 'halting_report.json' || f === 'manifest.json')) {
    await ev.clear();
    await rm(join(ev.root, LATEST_RUN_REPORT), { force: true });
    await ev.writeJson('halting_report.json', outcome.report);
    await ev.saveManifest();
  } else await atomicWrite(join(ev.root, LATEST_RUN_REPORT), canonicalJson(outcome.report));
  return outcome;
}

export function blockedEarly(stopReason: string, detail: string): LoopOutcome {
  return earlyOutcome('EXIT_BLOCKED', stopReason, { detail });
}

/** A pause before anything ran (a downstream unavailable): a BACKPRESSURE certificate, as a stop before an iteration. */
export function pausedEarly(detail: string): LoopOutcome {
  return earlyOutcome('EXIT_BLOCKED', 'BACKPRESSURE_SIGNAL', { backpressure: detail, backpressureOnly: true });
}
