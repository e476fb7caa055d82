// The rung a run reached: the certificate's checks, the confirmation on a fresh checkout and the
// replays scored against it, the Triangle, the rung self-tests, rung 65537's paraphrase and API drift.
import { dirname } from 'node:path';
import { Stopped } from '../common/errors.js';
import { roundStop } from './time-budget.js';
import { allDecimalStrings, changedApiSymbols, checkTriangle, rungLevel, selfTests, unexplainedSymbols } from '../evidence/audit.js';
import { iterDir } from '../store/evidence.js';
import { type Certificate, judgementOf } from '../judge/certificate.js';
import { artifactsSchema } from '../agent/collect.js';
import type { CheckResult } from '../judge/checks.js';
import { Decimal, dstr } from '../common/decimal.js';
import { num } from '../common/display.js';
import { checkRound, type Ctx, scrub } from './context.js';
import { snapshot } from '../judge/northstar.js';
import { Stage } from '../evidence/phases.js';
import { type RungResult } from '../evidence/report.js';
import { verifyTree } from '../evidence/verify.js';
import { readRegularIn } from '../os/tree-file.js';
import type { RunResult } from '../os/ports.js';
import type { TestRecord } from '../judge/junit.js';
import { paraphraseByAgent, paraphraseByCommand, type ParaphraseRun, rung65537Extra } from './rung65537.js';
import { PARAPHRASE_BY_AGENT } from '../evidence/paraphrase.js';

/**
 * The rung the run reached. `interrupted`: a stop (signal, STOP file, label) cut the confirmation
 * short; what ran is not scored (no replay result, no confirmation verdict, no rung above): a pause.
 */
export async function computeRung(
  ctx: Ctx,
  cert: Certificate | null,
  converged: boolean,
  certRel: string | null,
): Promise<RungResult & { interrupted: string | null }> {
  const { plan, state, ev, o } = ctx;
  const distanceStart = plan.northstar.metrics.length
    ? snapshot(
        plan.northstar.metrics,
        plan.northstar.metrics.map((m) => ({ id: m.id, value: plan.northstar.baseline[m.id] ?? m.current })),
        new Map(Object.entries(plan.northstar.baseline)),
      )
    : null;
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
  const alignment: RungResult['alignment'] = {
    status: advanced.length ? 'ALIGNED' : drifting ? 'DRIFTING' : 'NEUTRAL',
    metrics_advanced: advanced,
    northstar_distance_start: startD,
    northstar_distance_end: endD,
    neutral_reason: ctx.intake.config.northstar_neutral_reason ?? null,
  };
  const result: RungResult & { interrupted: string | null } = {
    achieved: 0,
    target: plan.rung_target,
    checks: {},
    replays: [],
    alignment,
    security: null,
    confirmation: null,
    interrupted: null,
  };
  if (!converged || !cert || !certRel) return result;
  const stopped = (when: string) => roundStop(ctx, `the loop was asked to stop (${when})`);
  // The claim is about the named commit checked out fresh: the first replay runs on a new checkout
  // of that commit's tree (AGENTS.md included), the others beside it in the run's workspace updated
  // to that tree; every one must agree.
  const dir = dirname(certRel);
  const replays = rungLevel(plan.rung_target) >= rungLevel(274177) ? plan.replays : 1;
  // The judge space is given back however the replays end (live: the work tree is the loop's again).
  const confirmed: { tests: TestRecord[] | null } = { tests: null };
  try {
    if (!(await replay(ctx, cert, dir, replays, result, stopped, confirmed))) return result;
  } finally {
    await ctx.judge.release();
  }
  await ev.flush();
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
  // Fed with what this run certified: its residual history, the residual and how it was read.
  const st = selfTests({ history: cert.residual_history, residual: cert.residual ?? cert.residual_history.at(-1) ?? '0', detail: cert.residual_detail });
  await ev.writeJson('self_tests.json', st.cases);
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

  const where = await ctx.judge.prepare(cert.tree);
  let gate: RunResult, after: RunResult, explanation: string;
  let para: ParaphraseRun | null = null;
  const byAgent = plan.security.paraphrase === PARAPHRASE_BY_AGENT;
  try {
    gate = await ctx.judge.runner.run({ command: plan.security.gate, cwd: where, env: ctx.judge.env, timeoutMs: 1_800_000, signal: o.signal });
    after = gate.aborted
      ? gate
      : await ctx.judge.runner.run({ command: plan.security.api_surface, cwd: where, env: ctx.judge.env, timeoutMs: 600_000, signal: o.signal });
    explanation = (await readRegularIn(where, plan.security.drift_explanation, 1024 * 1024))?.toString('utf8') ?? '';
    // The adversarial paraphrase's command form runs as the check user too: it reads the goal and criteria on stdin.
    if (!after.aborted && plan.security.paraphrase && !byAgent) para = await paraphraseByCommand(ctx, where, o.signal);
  } finally {
    await ctx.judge.release();
  }
  if (gate.aborted) {
    result.interrupted = await stopped('during the security gate');
    return result;
  }
  await ev.write('security_gate.log', scrub(ctx, `$ ${plan.security.gate}\n${gate.stdout}\n${gate.stderr}\n--- exit ${gate.exitCode} ---\n`));
  // Its agent form as the agent user, on the work tree the judge space has given back.
  if (!after.aborted && byAgent) para = await paraphraseByAgent(ctx, state.next_iteration);
  if (after.aborted || para?.result?.aborted) {
    result.interrupted = await stopped(after.aborted ? 'while the API surface was read' : 'during the paraphrase check');
    return result;
  }
  const afterEntry = await ev.write('api_surface_after.txt', scrub(ctx, after.stdout));
  const beforeSha = plan.security.api_surface_before?.split('#')[1] ?? null;
  const drift = beforeSha !== afterEntry.sha256;
  // An explanation counts when the loop wrote it and it names every API that changed, not any text.
  const changed = drift ? changedApiSymbols((await ev.readText('api_surface_before.txt')) ?? '', scrub(ctx, after.stdout)) : [];
  const unexplained = unexplainedSymbols(changed, explanation);
  const written = await changedInLoop(ctx, plan.security.drift_explanation);
  const explained = !drift || (explanation.trim().length > 0 && unexplained.length === 0 && written);
  const extra = await rung65537Extra(ctx, { cert, para, tests: confirmed.tests, explanation, written });
  result.security = {
    gate_exit_code: gate.exitCode,
    api_surface_drift: drift,
    changed_symbols: changed,
    unexplained_symbols: unexplained,
    drift_explained: explained,
    api_surface_after: ev.link(afterEntry.path),
    ...extra.report,
  };
  const r65537 = {
    security_gate_passed: gate.exitCode === 0 && after.exitCode === 0,
    api_surface_snapshots: plan.security.api_surface_before !== null,
    api_drift_explained: explained,
    northstar_aligned_or_neutral: alignment.status !== 'DRIFTING',
    paraphrase_same_certificate: extra.paraphrase_same_certificate,
    behavioural_drift_explained: extra.behavioural_drift_explained,
  };
  result.checks['65537'] = r65537;
  if (Object.values(r65537).every(Boolean)) result.achieved = 65537;
  return result;
}

/**
 * Replays the certified round `replays` times, each recorded in `result` (in order, however they
 * ended); false when a stop cut one short (`result.interrupted` says when). The first runs on a
 * brand-new checkout of the commit, set aside from the run's workspace, while the others run on
 * that workspace one after another: two places, side by side. With checks.workspace live there is
 * one place, the work tree, and they follow each other there.
 */
async function replay(
  ctx: Ctx,
  cert: Certificate,
  dir: string,
  replays: number,
  result: RungResult & { interrupted: string | null },
  stopped: (when: string) => Promise<string>,
  confirmed: { tests: TestRecord[] | null },
): Promise<boolean> {
  const { o } = ctx;
  const aside = ctx.judge.aside?.();
  const one = async (k: number) => {
    // A stop (signal, STOP file, label) during a replay cuts it short, as during any other round.
    const stage = new Stage(k === 1 ? 'confirmation' : `replay ${k}`, o.clock, 'end');
    const judge = k === 1 ? aside : undefined;
    const round = await checkRound(ctx, `${dir}/replay_${k}`, cert.tree, { signal: o.signal, judge, stage }).catch((e: unknown) => {
      if (e instanceof Stopped) return null;
      throw e;
    });
    // Timed to its own end, recorded in the replays' order with the others (a stage within the end has no time before it).
    return { k, round, timing: stage.record().record };
  };
  const rest = async () => {
    const out = [];
    for (let k = 2; k <= replays; k++) out.push(await one(k));
    return out;
  };
  const rounds = aside ? await settledBoth(one(1), rest()).then(([first, others]) => [first, ...others]) : [await one(1), ...(await rest())];
  for (const { k, round, timing } of rounds) {
    ctx.stages.push(timing);
    if (!round || round.aborted) {
      result.interrupted = await stopped(`during replay ${k}/${replays} of the certified commit`);
      o.log.info(`replay ${k}/${replays}: stopped before it ended — not scored; the next run confirms the commit again`);
      return false;
    }
    // The confirmation's JUnit tests: the behaviour of the certified commit (rung 65537).
    if (k === 1 && round.junit && 'tests' in round.junit) confirmed.tests = round.junit.tests;
    await score(ctx, cert, dir, { k, replays, round }, result);
  }
  return true;
}

/** Both results once both have settled: neither goes on in the background when the other fails (the first failure is thrown). */
async function settledBoth<A, B>(a: Promise<A>, b: Promise<B>): Promise<[A, B]> {
  const [x, y] = await Promise.allSettled([a, b]);
  if (x.status === 'rejected') throw x.reason;
  if (y.status === 'rejected') throw y.reason;
  return [x.value, y.value];
}

/** One replay's verdict against the certificate, recorded (`result`, replay_k/result.json, the log). */
async function score(
  ctx: Ctx,
  cert: Certificate,
  dir: string,
  { k, replays, round }: { k: number; replays: number; round: { checks: CheckResult[]; residual: { value: Decimal } | { error: string } } },
  result: RungResult,
): Promise<void> {
  const { plan, ev, o } = ctx;
  const r = 'error' in round.residual ? null : round.residual.value;
  const j = judgementOf(
    {
      declared: cert.declared_certificates,
      checks: round.checks,
      residual: r,
      residualError: 'error' in round.residual ? round.residual.error : null,
      R_p: plan.R_p ? new Decimal(plan.R_p) : null,
    },
    null,
  );
  const type = j.exact ? 'EXACT' : j.converged ? 'CONVERGED' : 'NONE';
  const residual = r === null ? null : dstr(r);
  const same = type === cert.type && residual === cert.residual && round.checks.every((c, i) => c.met === cert.checklist[i]?.met);
  result.replays.push({ replay: k, type, residual, same });
  await ev.writeJson(`${dir}/replay_${k}/result.json`, result.replays.at(-1));
  o.log.info(
    `replay ${k}/${replays}${k === 1 ? (ctx.judge.mode === 'live' ? ' (the work tree: checks.workspace live)' : ' (fresh checkout of the commit)') : ''}: certificate ${type}, residual ${num(residual)}${same ? '' : ' — DIFFERS (flaky check)'}`,
  );
  if (k === 1 && !same)
    result.confirmation = `the certified commit ${cert.commit?.slice(0, 12) ?? cert.tree.slice(0, 12)}, ${ctx.judge.mode === 'live' ? 'judged again in the work tree' : 'checked out fresh'}, gives ${type}${residual === null ? '' : ` (residual ${num(residual)})`}, not ${cert.type}: ${
      round.checks
        .filter((c) => !c.met)
        .map((c) => c.id)
        .join(', ') || 'see the replay logs'
    }`;
}

/** Whether the loop's commits changed `path` (the drift explanation must be written during the loop). */
export async function changedInLoop(ctx: Ctx, path: string): Promise<boolean> {
  for (const n of ctx.iterations) {
    const a = await ctx.ev.readJson(`${iterDir(n)}/artifacts.json`, artifactsSchema);
    if (a?.changed_paths.includes(path)) return true;
  }
  return false;
}
