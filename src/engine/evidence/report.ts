// The halting report (SPEC §4, §6): halting_report.json, built from evidence only, with no
// timestamps, so it is reproducible; its markdown is report-markdown.ts, its read-back schema
// report-schema.ts, how runs go on from each other run-accounting.ts.
import { budgetMeasures } from '../config/measured.js';
import type { PhucTest, Triangle } from './audit.js';
import { guardMode, type GuardMode } from '../agent/allow-list.js';
import type { Certificate } from '../judge/certificate.js';
import type { FiredExit } from '../run/decide.js';
import { Decimal, dstr, seedChecksum } from '../common/decimal.js';
import { num } from '../common/display.js';
import type { RoundFailures } from '../memory/failures.js';
import { VERSION } from '../common/version.js';
import { HIGH_GLOW } from '../judge/glow.js';
import type { TerminalState } from '../run/fsm.js';
import type { LoopState } from './state.js';
import type { Plan } from '../config/plan.js';
import type { StagePhases } from './phases.js';
import { lessonsForNextRun } from './lessons.js';
import { iterationUse, type RunInfo, runSection } from './run-accounting.js';

export interface RungResult {
  achieved: number;
  target: number;
  checks: Record<string, Record<string, boolean>>;
  replays: { replay: number; type: string; residual: string | null; same: boolean }[];
  alignment: {
    status: 'ALIGNED' | 'NEUTRAL' | 'DRIFTING';
    metrics_advanced: string[];
    northstar_distance_start: string | null;
    northstar_distance_end: string | null;
    neutral_reason: string | null;
  };
  security: {
    gate_exit_code: number | null;
    api_surface_drift: boolean;
    /** The API symbols whose snapshot line changed, and those the drift explanation does not name. */
    changed_symbols: string[];
    unexplained_symbols: string[];
    drift_explained: boolean;
    api_surface_after: string;
    /** judge/rung65537.ts (paraphrase.json, behaviour.json); absent in reports written before them. */
    paraphrase_type?: string | null;
    behavioural_hash_before?: string;
    behavioural_hash_after?: string;
    unexplained_behaviour?: string[];
  } | null;
  /** Why the fresh checkout of the certified commit did not confirm the certificate (null when it did). */
  confirmation: string | null;
}

export interface ReportInput {
  plan: Plan | null;
  state: LoopState | null;
  status: TerminalState | null;
  stop_reason: string | null;
  iterations: number[];
  evRel: string;
  certificate: Certificate | null;
  /** Where the certificate is in the evidence tree (an iteration's, or the judgement HEAD started from). */
  certificateRel?: string | null;
  /** The isolation level and judge space of the run (SPEC §7), and what the level does not guarantee. */
  isolation?: string;
  isolationLimits?: readonly string[];
  workspace?: 'clean' | 'live';
  triangle: Triangle | null;
  phuc: PhucTest | null;
  rung: RungResult | null;
  /** This run's place in its loop (absent for a run that stopped before its plan, and interim reports). */
  run?: RunInfo;
  /** The FSM state the run was in when it halted. */
  lastState?: string;
  /** What failed in the latest round of checks (memory/failures.ts): the report names the failing tests. */
  failures?: RoundFailures | null;
  /** The evidence files that show why a blocked run stopped (paths relative to the evidence root). */
  evidencePointers?: { path: string; sha256: string }[];
  /** Where this run's time went, stage by stage (Lane B measurements, from the evidence's phases files). */
  phases?: readonly StagePhases[];
  extra: { missing_fields?: string[]; messages?: string[]; detail?: string; backpressure?: string; backpressureOnly?: boolean };
  /** The last AGENTS.md entry's open questions (Lane C), for lessons_for_next_run. */
  openQuestions?: readonly string[];
}

export type HaltingReport = ReturnType<typeof buildReport>;

/** halting_certificate.guard where it is known (a report without a plan or certificate has none). */
const guardOf = (guard: GuardMode | null | undefined): { guard?: GuardMode } => (guard ? { guard } : {});

const NEXT_ACTIONS: Record<string, string[]> = {
  EXIT_CONVERGED: ['Review the iteration commits and merge when satisfied.'],
  EXIT_DIVERGED: [
    'Review Lane C learnings for the divergence cause.',
    'Restart with a different approach based on the AGENTS.md failure modes.',
    'Consider a smaller step or a different residual metric.',
  ],
  EXIT_BUDGET_EXCEEDED: [
    'Increase the budget if the residual trend is positive.',
    'Accept the partial result if the residual is acceptable.',
    'Switch to a CONVERGED certificate with a relaxed R_p.',
  ],
  EXIT_BLOCKED: ['Read the stop reason and the evidence pointers; fix the cause, then run again.'],
  EXIT_NEED_INFO: ['Supply the missing fields named above, then run again.'],
};

export function buildReport(i: ReportInput) {
  const seed = seedChecksum();
  const s = i.state;
  const glow = s?.rows ?? [];
  const history = s?.residual_history ?? [];
  const cert = i.certificate;
  const certType = i.extra.backpressureOnly ? 'BACKPRESSURE' : (cert?.type ?? 'NONE');
  const prefix = i.evRel ? `${i.evRel}/` : '';
  // The mean of the known totals: an unknown GLOW is left out, never counted as 0.
  const known = glow.flatMap((g) => (g.total === null ? [] : [g.total]));
  const average = known.length ? dstr(known.reduce((a, t) => a.plus(t), new Decimal(0)).div(known.length)) : null;
  const fired: (FiredExit & { iteration: number | null })[] = [...(s?.exits_fired ?? [])];
  if (!s && i.extra.backpressure) fired.push({ kind: 'BACKPRESSURE', reason: i.extra.backpressure, iteration: null });
  const bestIndex = history.length ? history.reduce((best, r, k) => (new Decimal(r).lt(history[best]) ? k : best), 0) : null;
  const divergedAt = i.status === 'EXIT_DIVERGED' ? Math.max(0, history.length - 3) : null;
  const open = i.status !== null && i.status !== 'EXIT_CONVERGED';
  const failing = (cert?.checklist ?? []).filter((c) => !c.met);
  const finalResidual = cert?.residual ?? history.at(-1) ?? null;
  const lastIteration = i.iterations.at(-1);
  // The exits of the halting attempt: the last iteration's, or an unrecorded attempt after it.
  const lastFired = fired.filter((f) => lastIteration === undefined || (f.iteration !== null && f.iteration >= lastIteration));
  const notMet = failing.length
    ? `criteria not met: ${failing.map((c) => `${c.id} (exit ${c.exit_code ?? 'none'}, ${prefix}${c.evidence.split('#')[0]})`).join(', ')}`
    : null;
  return {
    schema_version: '2.0',
    skill: 'phuc-loop',
    version: VERSION,
    goal: i.plan?.goal ?? null,
    status: i.status ?? 'RUNNING',
    stop_reason: i.stop_reason,
    detail: i.extra.detail ?? i.extra.backpressure ?? null,
    missing_fields: i.extra.missing_fields ?? [],
    messages: i.extra.messages ?? [],
    halting_certificate: {
      type: certType,
      lane: certType === 'BACKPRESSURE' ? 'A' : (cert?.lane ?? null),
      iteration: cert?.iteration ?? null,
      certificate_path: cert ? `${prefix}${i.certificateRel ?? `iter_${cert.iteration}/certificate.json`}` : null,
      final_residual_decimal_string: cert?.residual ?? history.at(-1) ?? null,
      R_p_decimal_string: i.plan?.R_p ?? null,
      residual_history_decimal_strings: history,
      acceptance_criteria_checklist: (cert?.checklist ?? []).map((c) => ({
        criterion: c.id,
        description: c.description,
        met: c.met,
        evidence_link: c.evidence,
      })),
      commit: cert?.commit ?? null,
      tree: cert?.tree ?? null,
      workspace: i.workspace ?? cert?.workspace ?? null,
      isolation: i.isolation ?? cert?.isolation ?? null,
      ...guardOf(cert?.guard ?? (i.plan ? guardMode(i.plan.may_change) : null)),
    },
    exits_fired: fired,
    glow_history: glow.map((g) => ({ iteration: g.iteration, total: g.total, G: g.G, L: g.L, O: g.O, W: g.W })),
    /** Iterations scoring a known W = 0 with a GLOW total over 60 (busy without advancing the Northstar). */
    high_glow_without_northstar: glow.filter((g) => g.W === 0 && g.total !== null && g.total > HIGH_GLOW).map((g) => g.iteration),
    iteration_rows: s?.rows ?? [],
    average_glow: average,
    northstar_metrics_before: i.plan
      ? i.plan.northstar.metrics.map((m) => ({ id: m.id, metric: m.metric, value: i.plan!.northstar.baseline[m.id] ?? m.current, target: m.target }))
      : [],
    northstar_metrics_after: s?.last_northstar?.readings ?? [],
    northstar_distance_delta:
      i.rung?.alignment.northstar_distance_start && i.rung.alignment.northstar_distance_end
        ? dstr(new Decimal(i.rung.alignment.northstar_distance_end).minus(i.rung.alignment.northstar_distance_start))
        : null,
    northstar_alignment_certificate: i.rung?.alignment ?? null,
    phuc_test_result: i.phuc,
    seed_checksum_verified: seed.verified,
    seed_checksum: { formula: '641n * 274177n * 65537n', product: seed.product, expected: '11517961089409' },
    triangle_law_vertices: i.triangle
      ? {
          REMIND_plan_json_present: i.triangle.REMIND_plan_json_present,
          VERIFY_certificates_all_present: i.triangle.VERIFY_certificates_all_present,
          ACKNOWLEDGE_agents_md_all_entries_present: i.triangle.ACKNOWLEDGE_agents_md_all_entries_present,
        }
      : null,
    triangle_vertex_missing: i.triangle?.triangle_vertex_missing ?? null,
    iterations_completed: i.iterations.length,
    iterations: i.iterations,
    total_seconds_elapsed: s ? Math.floor(s.total_ms / 1000) : 0,
    budget_use:
      i.plan && s
        ? budgetMeasures(i.plan.agent.use, i.plan.budget, {
            iterations: iterationUse(s, i.plan.budget.max_iterations),
            seconds: Math.floor(s.total_ms / 1000),
            cost: s.cost_reported ? s.total_cost_usd : null,
            toolCalls: s.reported?.toolCalls ? s.total_tool_calls : null,
            side: s.side_agents,
          })
        : null,
    run: i.plan && s && i.run ? runSection(i.run, i.iterations, s, i.plan, i.status, i.stop_reason, i.extra.backpressure ?? null) : null,
    verification_rung_target: i.plan?.rung_target ?? null,
    verification_rung_achieved: i.rung?.achieved ?? 0,
    rung_checks: i.rung?.checks ?? {},
    replays: i.rung?.replays ?? [],
    security: i.rung?.security ?? null,
    dega_cycles: (s?.cycles ?? []).map((c) => ({
      iteration: c.iteration,
      agent: c.agent,
      blocker_class: c.blocker_class,
      improvement: c.improvement,
      critic: c.critic,
      reused_checks: c.reused_checks,
      detour_next: c.detour_next,
    })),
    escalated_at_iteration: s?.progress.escalated_at ?? null,
    divergence_start_iteration: divergedAt === null ? null : (i.iterations[divergedAt] ?? null),
    last_known_good_iteration: bestIndex === null ? null : (i.iterations[bestIndex] ?? null),
    glow_at_last_good_iteration: bestIndex === null ? null : (glow[bestIndex]?.total ?? null),
    best_result_achieved:
      bestIndex === null
        ? null
        : {
            iteration: i.iterations[bestIndex] ?? null,
            residual: history[bestIndex],
            artifact_path: `${prefix}iter_${i.iterations[bestIndex]}/certificate.json`,
          },
    glow_at_block: i.status === 'EXIT_BLOCKED' ? (glow.at(-1)?.total ?? null) : null,
    // The output contract of the exits that did not converge (README "Halting report"), from evidence only.
    reason_for_non_convergence: open
      ? [
          `${i.status}(${i.stop_reason})${i.extra.detail ? `: ${i.extra.detail}` : ''}`,
          `final residual ${num(finalResidual, 'unknown')}${i.plan?.R_p ? `, R_p ${i.plan.R_p}` : ''}`,
          ...(notMet ? [notMet] : []),
        ].join('; ')
      : null,
    diagnosis_attempt:
      i.status === 'EXIT_DIVERGED' && divergedAt !== null
        ? [
            `residuals rose ${history
              .slice(divergedAt)
              .map((r) => num(r))
              .join(' → ')} from iteration ${i.iterations[divergedAt] ?? divergedAt}`,
            bestIndex === null
              ? 'no residual was below the others'
              : `the best residual ${num(history[bestIndex])} was at iteration ${i.iterations[bestIndex]}`,
            `blocker classes since: ${(s?.cycles ?? [])
              .filter((c) => c.iteration >= (i.iterations[divergedAt] ?? 0))
              .map((c) => `${c.iteration} ${c.blocker_class}`)
              .join(', ')}`,
            ...(notMet ? [notMet] : []),
          ].join('; ')
        : null,
    last_known_state: i.status === 'EXIT_BLOCKED' ? (i.lastState ?? null) : null,
    what_ran_and_failed:
      i.status === 'EXIT_BLOCKED'
        ? [
            lastIteration === undefined
              ? 'no iteration was recorded'
              : `iteration ${lastIteration} ran ${s?.cycles.at(-1)?.agent ?? 'the agent'} and the criteria`,
            ...lastFired.map((f) => `${f.kind}: ${f.reason}`),
            ...(notMet ? [notMet] : []),
          ].join('; ')
        : null,
    evidence_pointers: i.status === 'EXIT_BLOCKED' ? (i.evidencePointers ?? []).map((e) => ({ path: `${prefix}${e.path}`, sha256: e.sha256 })) : [],
    safe_partials:
      i.status === 'EXIT_NEED_INFO'
        ? i.stop_reason === 'CRITERION_COMMAND_MISSING'
          ? 'HEAD was judged and no agent step ran; install the program the detail names where the checks run (or fix the criterion) and run again: HEAD is judged again.'
          : `Nothing ran and no earlier evidence was changed. ${
              i.stop_reason === 'NORTHSTAR_MISSING'
                ? '`phuc-loop init` writes a NORTHSTAR.md to start from'
                : '`phuc-loop init` writes a commented phuc-loop.yml to start from'
            }; supply ${(i.extra.missing_fields ?? []).join(', ') || 'the missing fields'} and run again.`
        : null,
    next_actions: i.status ? NEXT_ACTIONS[i.status] : [],
    isolation_limits: [...(i.isolationLimits ?? [])],
    phases: [...(i.phases ?? [])],
    AGENTS_md_final_path: i.plan ? `${prefix}agents_md_final.md` : null,
    loop_manifest_path: `${prefix}manifest.json`,
    last_round_failures: i.failures ? { round: i.failures.round, failing_criteria: i.failures.failing_criteria, tests: i.failures.tests } : null,
    lessons_for_next_run:
      i.status && i.stop_reason
        ? lessonsForNextRun({
            status: i.status,
            stopReason: i.stop_reason,
            detail: i.extra.detail ?? i.extra.backpressure ?? (i.extra.missing_fields?.length ? `missing ${i.extra.missing_fields.join(', ')}` : null),
            state: s,
            certificate: cert,
            certificatePath: cert ? `${prefix}${i.certificateRel ?? `iter_${cert.iteration}/certificate.json`}` : null,
            prefix,
            openQuestions: i.openQuestions ?? [],
          })
        : [],
  };
}
