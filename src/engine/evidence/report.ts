// The halting report (SPEC §4, §6): halting_report.json and its markdown rendering (the same
// text as the job summary). Built from evidence only, with no timestamps, so it is reproducible.
import { budgetMeasures } from '../config/measured.js';
import type { PhucTest, Triangle } from '../judge/audit.js';
import { z } from 'zod';
import { guardMode, type GuardMode } from '../agent/allow-list.js';
import { CERTIFICATE_TYPES } from '../config/config.js';
import { firedExitSchema, type Certificate } from '../judge/certificate.js';
import { type FiredExit, iterationsUsed } from '../run/decide.js';
import { Decimal, dstr, seedChecksum } from '../common/decimal.js';
import { costUse, num } from '../common/display.js';
import { roundFailuresSchema, type RoundFailures } from '../memory/failures.js';
import { decimalString } from '../common/document.js';
import { inert, inertCode } from '../common/markdown.js';
import { VERSION } from '../common/version.js';
import { HIGH_GLOW } from '../judge/glow.js';
import { BLOCKER_CLASSES } from '../run/dega.js';
import { pauseStep } from '../os/stops.js';
import { TERMINAL_STATES, type TerminalState } from '../run/fsm.js';
import { iterationRowSchema, lessonSchema, type LoopState } from './state.js';
import type { Plan } from '../config/plan.js';
import { phaseTable, stagePhasesSchema, type StagePhases } from './phases.js';
import { lessonsForNextRun } from './lessons.js';

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

/** Which run of its loop a report is about: iteration numbers and budgets go on across the runs of one loop. */
export interface RunInfo {
  /** The iteration this run started at (0 for the run that started the loop). */
  first: number;
  resumed: boolean;
  /** Why this run's progress windows started again from a new measurement of HEAD, or null. */
  rebaseline: string | null;
}

/** How iterations are numbered and budgets counted across runs (README "What happens in an iteration"). */
export const RUN_ACCOUNTING: Readonly<Record<'numbering' | 'budgets', string>> = {
  numbering:
    'Iterations are numbered on across the runs of one loop (one evidence tree): a run that continues the loop starts at the next number; `phuc-loop run --fresh` starts a new loop at iteration 0.',
  budgets:
    'max_iterations, max_total_seconds, max_total_cost_usd and max_total_tool_calls count every run of this loop (iterations recorded but for those a stop cut short before their checks ran, wall time, reported cost and tool calls, summed); max_seconds_per_iteration and max_tool_calls_per_iteration bound each iteration. A budget changed between runs applies from the next iteration (plan.json budget_revisions).',
};

const BUDGET_FIELDS: Record<string, string> = {
  MAX_ITERS: 'budget.max_iterations (or `phuc-loop run --max-iterations N`)',
  MAX_TOTAL_SECONDS: 'budget.max_total_seconds (or `phuc-loop run --max-total-seconds N`)',
  MAX_COST: 'budget.max_total_cost_usd (or `phuc-loop run --max-cost USD`)',
  MAX_TOOL_CALLS: 'budget.max_total_tool_calls',
};

/** The iterations a stop cut short before their checks ran, said beside a count of iterations used: not counted. */
export function notCounted(stoppedBeforeChecks: readonly number[]): string | null {
  const n = stoppedBeforeChecks;
  if (!n.length) return null;
  return n.length === 1
    ? `iteration ${n[0]} stopped before its checks ran, not counted`
    : `iterations ${n.join(', ')} stopped before their checks ran, not counted`;
}

/** The report's "used / max_iterations", naming the iterations not counted. */
function iterationUse(s: LoopState, max: number): string {
  const note = notCounted(s.stopped_before_checks);
  return `${iterationsUsed(s.next_iteration, s.stopped_before_checks)} / ${max}${note ? ` (${note})` : ''}`;
}

/**
 * What goes on after a run ended so, naming the command; `next` is the iteration a continuing run
 * starts at, `stoppedBeforeChecks` the iterations that used no budget (state.json).
 */
export function howToGoOn(
  status: TerminalState,
  stopReason: string,
  next: number,
  stoppedBeforeChecks: readonly number[] = [],
  pause: string | null = null,
): string {
  if (status === 'EXIT_BUDGET_EXCEEDED') {
    const note = stopReason === 'MAX_ITERS' ? notCounted(stoppedBeforeChecks) : null;
    return `raise ${BUDGET_FIELDS[stopReason] ?? 'the budget that ran out'} above what all runs of this loop used${note ? ` (${note})` : ''}: \`phuc-loop run\` then continues at iteration ${next}`;
  }
  if (stopReason === 'BACKPRESSURE_SIGNAL')
    return (
      `a pause: ${pauseStep(pause)}\`phuc-loop run\` continues at iteration ${next}` +
      (stoppedBeforeChecks.includes(next - 1) ? ` (iteration ${next - 1}, stopped before its checks ran, does not count against max_iterations)` : '')
    );
  if (status === 'EXIT_CONVERGED')
    return `commit a new change and \`phuc-loop run\` judges it (iterations go on from ${next}), or \`phuc-loop run --fresh\` starts a new loop at iteration 0`;
  if (status === 'EXIT_NEED_INFO') return `supply what is missing, then \`phuc-loop run\` judges HEAD again and continues at iteration ${next}`;
  if (stopReason === 'AGENT_FAILED')
    return `the agent failed before it changed anything (the detail gives its own words): fix the cause (its API key or service, the network, its installation), then \`phuc-loop run\` tries iteration ${next} again (no commit is needed)`;
  if (stopReason === 'RESIDUAL_UNAVAILABLE')
    return `fix what the residual needs (the detail says what: a runner, the JUnit files), then \`phuc-loop run\` judges HEAD again and continues at iteration ${next} (no commit is needed unless the fix is in the repository)`;
  if (stopReason === 'FOLDER_READ_ONLY')
    return `make the folder the detail names writable, then \`phuc-loop run\` goes on at iteration ${next} (nothing was written)`;
  if (stopReason === 'GIT_FAILURE')
    return (
      'fix what git failed at (the detail says what); what an interrupted agent step changed is left uncommitted in the work tree (`git status`): ' +
      `commit it to have it judged, or discard it; then \`phuc-loop run\` tries again (no commit is needed) and continues at iteration ${next}`
    );
  return `fix the cause and commit: \`phuc-loop run\` judges the new HEAD and continues at iteration ${next}; or \`phuc-loop run --fresh\` starts a new loop at iteration 0 (the old evidence is kept)`;
}

/** "iteration 3", "iterations 2–4", "iterations 0, 2" (a redone iteration keeps its number). */
export function iterationSpan(ns: readonly number[]): string {
  if (!ns.length) return 'no iteration';
  if (ns.length === 1) return `iteration ${ns[0]}`;
  const consecutive = ns.every((n, k) => k === 0 || n === ns[k - 1] + 1);
  return `iterations ${consecutive ? `${ns[0]}–${ns.at(-1)}` : ns.join(', ')}`;
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

/** The run section: which iterations this run made, how numbering and budgets carry across runs, what goes on. */
function runSection(
  run: RunInfo,
  iterations: number[],
  s: LoopState,
  plan: Plan,
  status: TerminalState | null,
  stopReason: string | null,
  pause: string | null,
) {
  return {
    resumed: run.resumed,
    first_iteration: run.first,
    iterations: iterations.filter((n) => n >= run.first),
    earlier_iterations: iterations.filter((n) => n < run.first),
    next_iteration: s.next_iteration,
    rebaselined: run.rebaseline,
    budget_revisions: (plan.budget_revisions ?? []).map((r) => ({ from_iteration: r.from_iteration, max_iterations: r.budget.max_iterations })),
    numbering: RUN_ACCOUNTING.numbering,
    budgets: RUN_ACCOUNTING.budgets,
    how_to_go_on: status && stopReason ? howToGoOn(status, stopReason, s.next_iteration, s.stopped_before_checks, pause) : null,
  };
}

/** The failing criteria and tests of the latest round: how many, and the first few by name. */
function failingLine(f: HaltingReport['last_round_failures']): string | null {
  if (!f || (!f.failing_criteria.length && !f.tests?.failing)) return null;
  const criteria = f.failing_criteria.length ? `criteria ${f.failing_criteria.map((c) => `\`${inertCode(c)}\``).join(', ')}` : null;
  const t = f.tests;
  const tests = t?.failing
    ? `${t.failing} of ${t.executed} tests fail: ${t.first.map((n) => inert(n)).join('; ')}${t.failing > t.first.length ? `; and ${t.failing - t.first.length} more` : ''}`
    : null;
  return `**Failing in the last round (${f.round}):** ${[criteria, tests].filter(Boolean).join(' — ')}`;
}

const yes = (b: boolean | undefined | null) => (b ? '✅' : '❌');
/** A table cell of text the loop may not have written: inert, and no `|` ends the cell early. */
const cell = (s: string) => inert(s).replace(/\|/g, '\\|');

/**
 * The halting report as markdown: the job summary and `phuc-loop report`. Its texts quote what the
 * loop did not write (the agent's report and log, check output, file names the agent chose, the
 * configuration of a pull request's head): each is made inert (common/markdown.ts), code spans and
 * the fenced AGENTS.md only protected from closing early.
 */
export function renderReportMarkdown(r: HaltingReport, agentsMd?: string): string {
  const c = r.halting_certificate;
  const out: string[] = [];
  out.push(`## phuc-loop: ${r.status}${r.stop_reason ? ` (${r.stop_reason})` : ''}`, '');
  if (r.goal) out.push(`**Goal:** ${inert(r.goal)}`, '');
  if (r.detail) out.push(`**Why:** ${inert(r.detail)}`, '');
  if (r.messages.length) out.push(...r.messages.map((m) => `- ${inert(m)}`), '');
  out.push(
    '| | |',
    '|---|---|',
    `| Certificate | ${c.type}${c.lane ? ` (Lane ${c.lane})` : ''}${c.iteration !== null ? ` at iteration ${c.iteration}` : ''} |`,
    `| Residual | ${num(c.final_residual_decimal_string)}${c.R_p_decimal_string ? ` (R_p ${c.R_p_decimal_string})` : ''} |`,
    ...(c.commit
      ? [
          `| Commit | ${c.commit.slice(0, 12)} (judged in a ${c.workspace ?? 'n/a'} workspace, isolation ${c.isolation ?? 'n/a'}${c.guard ? `, guard ${c.guard}` : ''}; re-check: \`phuc-loop verify --rerun\`) |`,
        ]
      : []),
    `| Iterations | ${r.iterations_completed} |`,
    `| Rung | ${r.verification_rung_achieved} of target ${r.verification_rung_target ?? 'n/a'} |`,
    `| Northstar | ${r.northstar_alignment_certificate ? `${r.northstar_alignment_certificate.status} (${num(r.northstar_alignment_certificate.northstar_distance_start)} → ${num(r.northstar_alignment_certificate.northstar_distance_end)})` : 'n/a'} |`,
    `| Seed checksum | ${r.seed_checksum.formula} = ${r.seed_checksum.product} ${yes(r.seed_checksum_verified)} |`,
    '',
  );
  const failed = failingLine(r.last_round_failures);
  if (failed) out.push(failed, '');
  if (r.exits_fired.length) {
    out.push('### Exits that fired', '');
    for (const e of r.exits_fired)
      out.push(`- ${e.iteration === null ? 'before iteration 0' : `iteration ${e.iteration}`}: **${e.kind}** — ${inert(e.reason)}`);
    out.push('');
  }
  if (r.iteration_rows.length) {
    out.push(
      '### GLOW and residual per iteration',
      '',
      '| iter | G | L | O | W | GLOW | residual | certificate | northstar |',
      '|---:|---:|---:|---:|---:|---:|---:|---|---:|',
    );
    for (const g of r.iteration_rows)
      out.push(
        `| ${g.iteration} | ${g.G} | ${g.L} | ${g.O} | ${g.W ?? 'unknown'} | ${g.total ?? 'unknown'} | ${num(g.residual)} | ${g.certificate} | ${num(g.northstar_distance)} |`,
      );
    out.push('');
  }
  if (c.acceptance_criteria_checklist.length) {
    out.push('### Acceptance criteria (final certificate)', '');
    for (const a of c.acceptance_criteria_checklist)
      out.push(`- ${yes(a.met)} \`${inertCode(a.criterion)}\` — ${inert(a.description)} (\`${inertCode(a.evidence_link.split('#')[0])}\`)`);
    out.push('');
  }
  if (r.phuc_test_result) {
    const p = r.phuc_test_result;
    out.push(
      '### Phuc Test',
      '',
      `${yes(p.condition_1_history)} remembers history · ${yes(p.condition_2_reflection)} reflects · ${yes(p.condition_3_care)} cares about context · ${yes(p.condition_4_adaptation)} adapts · ${yes(p.condition_5_growth)} chooses growth → **${p.pass ? 'PASS' : 'FAIL'}**`,
      ...p.failures.map((f) => `- ${inert(f)}`),
      '',
    );
  }
  if (r.triangle_law_vertices) {
    const t = r.triangle_law_vertices;
    out.push(
      '### Triangle Law',
      '',
      `${yes(t.REMIND_plan_json_present)} REMIND (plan.json) · ${yes(t.VERIFY_certificates_all_present)} VERIFY (certificates) · ${yes(t.ACKNOWLEDGE_agents_md_all_entries_present)} ACKNOWLEDGE (AGENTS.md)`,
      '',
    );
  }
  const rungs = Object.entries(r.rung_checks);
  if (rungs.length) {
    out.push('### Rungs', '');
    for (const [rung, checks] of rungs)
      out.push(
        `- **${rung}**: ${Object.entries(checks)
          .map(([k, v]) => `${yes(v)} ${k}`)
          .join(' · ')}`,
      );
    for (const rp of r.replays) out.push(`- replay ${rp.replay}: ${rp.type}, residual ${num(rp.residual)} ${rp.same ? '(same)' : '(DIFFERS)'}`);
    out.push('');
  }
  if (r.dega_cycles.length) {
    out.push('### Cycles (DEGA)', '', '| iter | agent | blocker class | improvement | critic | reused |', '|---:|---|---|---|---|---|');
    for (const c of r.dega_cycles)
      out.push(
        `| ${c.iteration} | ${cell(c.agent)} | ${c.blocker_class}${c.detour_next ? ' (detour next)' : ''} | ${cell(c.improvement)} | ${c.critic === null ? '—' : cell(c.critic)} | ${cell(c.reused_checks.join(', ')) || '—'} |`,
      );
    if (r.escalated_at_iteration !== null) out.push('', `Escalated to a stronger agent from iteration ${r.escalated_at_iteration}.`);
    out.push('');
  }
  if (r.run) {
    const run = r.run;
    out.push(
      '### Runs and budgets',
      '',
      `- This run: ${iterationSpan(run.iterations)}${run.iterations.length ? '' : ` recorded (it started at iteration ${run.first_iteration})`}; ` +
        (run.resumed ? `it continued the loop, whose earlier runs recorded ${iterationSpan(run.earlier_iterations)}.` : 'it started the loop.'),
      ...(run.rebaselined ? [`- ${inert(run.rebaselined)}.`] : []),
      ...run.budget_revisions.map((b) => `- The budget changed from iteration ${b.from_iteration} (max_iterations ${b.max_iterations}).`),
      `- ${run.numbering}`,
      `- ${run.budgets}`,
      ...(run.how_to_go_on ? [`- To go on: ${run.how_to_go_on}.`] : []),
      '',
    );
  }
  if (r.phases.length) out.push('### Time by phase (seconds, this run)', '', ...phaseTable(r.phases, cell), '');
  if (r.budget_use) {
    const b = r.budget_use;
    out.push(
      '### Budget use (all runs of this loop)',
      '',
      `iterations ${b.iterations} · seconds ${b.seconds} · cost ${costUse(b.cost_usd)} · tool calls ${b.tool_calls}` +
        (b.tool_calls_per_iteration ? ` · tool calls per iteration ${b.tool_calls_per_iteration}` : ''),
      '',
    );
  }
  if (r.missing_fields.length) out.push(`**Missing fields:** ${inert(r.missing_fields.join(', '))}`, '');
  if (r.high_glow_without_northstar.length)
    out.push(`**Warning:** high GLOW with W = 0 (no Northstar metric advanced) at iteration(s) ${r.high_glow_without_northstar.join(', ')}.`, '');
  const contract: [string, string | null][] = [
    ['Why it did not converge', r.reason_for_non_convergence],
    ['Diagnosis', r.diagnosis_attempt],
    ['Last state', r.last_known_state],
    ['What ran and failed', r.what_ran_and_failed],
    ['What can be done now', r.safe_partials],
  ];
  for (const [label, text] of contract) if (text) out.push(`**${label}:** ${inert(text)}`, '');
  if (r.evidence_pointers.length)
    out.push('### Evidence pointers', '', ...r.evidence_pointers.map((e) => `- \`${inertCode(e.path)}\` (sha256 ${inertCode(e.sha256.slice(0, 12))})`), '');
  if (r.isolation_limits.length)
    out.push(`### What isolation ${c.isolation ?? ''} does not guarantee`, '', ...r.isolation_limits.map((l) => `- ${inert(l)}`), '');
  if (r.next_actions.length) out.push('### Next actions', '', ...r.next_actions.map((a) => `- ${a}`), '');
  if (r.lessons_for_next_run.length)
    out.push(
      '### Lessons for the next run (shown to its agent)',
      '',
      ...r.lessons_for_next_run.map((l) => `- [${l.lane}] ${inert(l.text)}${l.evidence ? ` (\`${inertCode(l.evidence)}\`)` : ''}`),
      '',
    );
  if (agentsMd) out.push('<details><summary>AGENTS.md</summary>', '', '```markdown', agentsMd.replace(/```/g, '``\u200b`'), '```', '', '</details>', '');
  return out.join('\n');
}

const nullableDecimal = decimalString.nullable();

/** halting_report.json as read back (a resumed run that has nothing to do, `verify`, `phuc-loop report`). */
export const haltingReportSchema = z.object({
  schema_version: z.string(),
  skill: z.string(),
  version: z.string(),
  goal: z.string().nullable(),
  status: z.enum([...TERMINAL_STATES, 'RUNNING']),
  stop_reason: z.string().nullable(),
  detail: z.string().nullable(),
  missing_fields: z.array(z.string()),
  messages: z.array(z.string()),
  halting_certificate: z.object({
    type: z.enum([...CERTIFICATE_TYPES, 'NONE']),
    lane: z.enum(['A', 'B', 'C']).nullable(),
    iteration: z.number().int().nullable(),
    certificate_path: z.string().nullable(),
    final_residual_decimal_string: nullableDecimal,
    R_p_decimal_string: nullableDecimal,
    residual_history_decimal_strings: z.array(decimalString),
    acceptance_criteria_checklist: z.array(z.object({ criterion: z.string(), description: z.string(), met: z.boolean(), evidence_link: z.string() })),
    commit: z.string().nullable(),
    tree: z.string().nullable(),
    workspace: z.enum(['clean', 'live']).nullable(),
    isolation: z.string().nullable(),
    /** What judged the agent's changes (agent.may_change or the protected paths alone); absent in older reports. */
    guard: z.enum(['allow-list', 'protected-only']).optional(),
  }),
  exits_fired: z.array(firedExitSchema.extend({ iteration: z.number().int().nullable() })),
  glow_history: z.array(iterationRowSchema.pick({ iteration: true, total: true, G: true, L: true, O: true, W: true })),
  iteration_rows: z.array(iterationRowSchema),
  average_glow: nullableDecimal,
  northstar_metrics_before: z.array(z.object({ id: z.string(), metric: z.string(), value: decimalString, target: decimalString })),
  northstar_metrics_after: z.array(z.object({ id: z.string(), value: nullableDecimal, distance: nullableDecimal, error: z.string().optional() })),
  northstar_distance_delta: nullableDecimal,
  northstar_alignment_certificate: z
    .object({
      status: z.enum(['ALIGNED', 'NEUTRAL', 'DRIFTING']),
      metrics_advanced: z.array(z.string()),
      northstar_distance_start: nullableDecimal,
      northstar_distance_end: nullableDecimal,
      neutral_reason: z.string().nullable(),
    })
    .nullable(),
  phuc_test_result: z
    .object({
      condition_1_history: z.boolean(),
      condition_2_reflection: z.boolean(),
      condition_3_care: z.boolean(),
      condition_4_adaptation: z.boolean(),
      condition_5_growth: z.boolean(),
      failures: z.array(z.string()),
      pass: z.boolean(),
    })
    .nullable(),
  seed_checksum_verified: z.boolean(),
  seed_checksum: z.object({ formula: z.string(), product: z.string(), expected: z.string() }),
  triangle_law_vertices: z
    .object({ REMIND_plan_json_present: z.boolean(), VERIFY_certificates_all_present: z.boolean(), ACKNOWLEDGE_agents_md_all_entries_present: z.boolean() })
    .nullable(),
  triangle_vertex_missing: z.enum(['REMIND', 'VERIFY', 'ACKNOWLEDGE', 'none']).nullable(),
  iterations_completed: z.number().int().min(0),
  iterations: z.array(z.number().int().min(0)),
  total_seconds_elapsed: z.number().int().min(0),
  budget_use: z
    .object({ iterations: z.string(), seconds: z.string(), cost_usd: z.string(), tool_calls: z.string(), tool_calls_per_iteration: z.string().optional() })
    .nullable(),
  // Reports written before this section existed read back with none.
  run: z
    .object({
      resumed: z.boolean(),
      first_iteration: z.number().int().min(0),
      iterations: z.array(z.number().int().min(0)),
      earlier_iterations: z.array(z.number().int().min(0)),
      next_iteration: z.number().int().min(0),
      rebaselined: z.string().nullable(),
      budget_revisions: z.array(z.object({ from_iteration: z.number().int().min(0), max_iterations: z.number().int() })),
      numbering: z.string(),
      budgets: z.string(),
      how_to_go_on: z.string().nullable(),
    })
    .nullable()
    .default(null),
  verification_rung_target: z.number().int().nullable(),
  verification_rung_achieved: z.number().int(),
  rung_checks: z.record(z.string(), z.record(z.string(), z.boolean())),
  replays: z.array(z.object({ replay: z.number().int(), type: z.string(), residual: nullableDecimal, same: z.boolean() })),
  security: z
    .object({
      gate_exit_code: z.number().int().nullable(),
      api_surface_drift: z.boolean(),
      changed_symbols: z.array(z.string()),
      unexplained_symbols: z.array(z.string()),
      drift_explained: z.boolean(),
      api_surface_after: z.string(),
      paraphrase_type: z.string().nullable().optional(),
      behavioural_hash_before: z.string().optional(),
      behavioural_hash_after: z.string().optional(),
      unexplained_behaviour: z.array(z.string()).optional(),
    })
    .nullable(),
  high_glow_without_northstar: z.array(z.number().int()),
  reason_for_non_convergence: z.string().nullable(),
  diagnosis_attempt: z.string().nullable(),
  last_known_state: z.string().nullable(),
  what_ran_and_failed: z.string().nullable(),
  evidence_pointers: z.array(z.object({ path: z.string(), sha256: z.string() })),
  safe_partials: z.string().nullable(),
  dega_cycles: z.array(
    z.object({
      iteration: z.number().int(),
      agent: z.string(),
      blocker_class: z.enum(BLOCKER_CLASSES),
      improvement: z.string(),
      critic: z.string().nullable(),
      reused_checks: z.array(z.string()),
      detour_next: z.boolean(),
    }),
  ),
  escalated_at_iteration: z.number().int().nullable(),
  divergence_start_iteration: z.number().int().nullable(),
  last_known_good_iteration: z.number().int().nullable(),
  glow_at_last_good_iteration: z.number().int().nullable(),
  best_result_achieved: z.object({ iteration: z.number().int(), residual: decimalString, artifact_path: z.string() }).nullable(),
  glow_at_block: z.number().int().nullable(),
  next_actions: z.array(z.string()),
  isolation_limits: z.array(z.string()),
  // Reports written before phases were timed read back with none.
  phases: z.array(stagePhasesSchema).default([]),
  AGENTS_md_final_path: z.string().nullable(),
  loop_manifest_path: z.string(),
  // Reports written before it existed read back with none.
  last_round_failures: roundFailuresSchema.omit({ excerpt: true }).nullable().default(null),
  lessons_for_next_run: z.array(lessonSchema).default([]),
}) satisfies z.ZodType<HaltingReport>;
