// Terminal bookkeeping: replays and rungs, the Triangle and the Phuc Test, the halting report.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { allDecimalStrings, checkTriangle, iterDir, phucTest, rungLevel, selfTests } from './audit.js';
import { type Certificate, issueCertificate } from './certificate.js';
import { Decimal } from './decimal.js';
import { EvidenceStore, listFiles, NOT_EVIDENCE } from './evidence.js';
import { EXIT_CODES, type TerminalState } from './fsm.js';
import { allInputsHash, checkRound, type Ctx, type LoopOptions, type LoopOutcome, scrub } from './loop-context.js';
import { snapshot } from './northstar.js';
import type { NeedInfo } from './plan.js';
import { budgetLog, saveState, writeIterationRecords } from './records.js';
import { buildReport, type ReportInput, type RungResult } from './report.js';
import { verifyTree } from './verify.js';

export interface FinishExtra {
  backpressure?: string;
  detail?: string;
}

/** Terminal bookkeeping: replays and rungs, the audits, the report, the manifest. */
export async function finish(ctx: Ctx, status: TerminalState, stopReason: string, extra: FinishExtra): Promise<LoopOutcome> {
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

export async function computeRung(ctx: Ctx, cert: Certificate | null, converged: boolean): Promise<RungResult> {
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
  if (rungLevel(plan.rung_target) < rungLevel(274177)) return result;

  // Replays of the final checks (seed §12): the same certificate every time, or the rung is not reached.
  const dir = iterDir(ctx.iterations.at(-1)!);
  for (let k = 1; k <= plan.replays; k++) {
    const { checks, residual: r } = await checkRound(ctx, `${dir}/replay_${k}`, cert.tree, { signal: o.signal });
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
    glow_history_all_present: state.rows.length === ctx.iterations.length && ctx.iterations.every((n, k) => state.rows[k].iteration === n),
    seed_checksum_verified: plan.seed_checksum.verified,
  };
  result.checks['274177'] = r274177;
  if (!Object.values(r274177).every(Boolean)) return result;
  result.achieved = 274177;
  if (rungLevel(plan.rung_target) < rungLevel(65537) || !plan.security) return result;

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
export async function changedInLoop(ctx: Ctx, path: string): Promise<boolean> {
  for (const n of ctx.iterations) {
    const a = await ctx.ev.readJson<{ changed_paths: string[] }>(`${iterDir(n)}/artifacts.json`);
    if (a?.changed_paths.includes(path)) return true;
  }
  return false;
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

export async function needInfo(ev: EvidenceStore, info: NeedInfo, o: LoopOptions): Promise<LoopOutcome> {
  for (const m of info.messages) o.log.error(m);
  const outcome = earlyOutcome('EXIT_NEED_INFO', info.stop_reason, { missing_fields: info.missing_fields, messages: info.messages });
  // The evidence of an earlier loop is never overwritten by a run that could not start.
  if (!(await ev.exists()) || (await listFiles(ev.root)).every((f) => NOT_EVIDENCE.has(f) || f === 'halting_report.json' || f === 'manifest.json')) {
    await ev.clear();
    await ev.writeJson('halting_report.json', outcome.report);
    await ev.saveManifest();
  }
  return outcome;
}

export function blockedEarly(stopReason: string, detail: string): LoopOutcome {
  return earlyOutcome('EXIT_BLOCKED', stopReason, { detail });
}
