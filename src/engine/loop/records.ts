// What is persisted after each iteration: history.jsonl, state.json, the manifest — and the interim
// report the host (PR comment) sees; at the run's end, budget_log.json and next-prompt.md.
import { rm } from 'node:fs/promises';
import { z } from 'zod';
import { canonicalJsonOfRecords } from '../common/canonical.js';
import { iterDir } from '../store/evidence.js';
import { prepareCapsule } from './capsule-build.js';
import { adoptedMark } from './home.js';
import { certificateSchema } from '../judge/certificate.js';
import { type Ctx, elapsedMs } from './context.js';
import { iterationsUsed } from '../run/decide.js';
import { buildReport, type HaltingReport } from '../evidence/report.js';
import { type Stage } from '../evidence/phases.js';
import { PHASES_LOG } from '../store/evidence.js';
import { historyLineSchema } from '../evidence/state.js';
import { budgetMeasures } from '../config/measured.js';

/** Shared logs are written only with the manifest: a crash mid-iteration leaves only iter_N files. */
export async function flushPendingLogs(ctx: Ctx): Promise<void> {
  for (const [file, line] of ctx.pendingLogs.splice(0)) await ctx.ev.appendLine(file, line);
}

/**
 * A stage of the run has ended: kept for the report, and an iteration's written to its folder at
 * once (`file`). The run's other stages go to phases.jsonl as the run ends (writeRunPhases): before
 * the baseline is on record, a file beside the plan would hide an unfinished start (home.ts).
 */
export async function endStage(ctx: Ctx, stage: Stage, file?: string): Promise<void> {
  const { record, end } = stage.record(ctx.stagesEnd);
  if (record.within === undefined) ctx.stagesEnd = end;
  ctx.stages.push(record);
  if (file) await ctx.ev.writeJson(file, record);
}

/** The run's stages outside its iterations (start, baseline or resume, replays, end), one line each. */
export async function writeRunPhases(ctx: Ctx): Promise<void> {
  for (const s of ctx.stages)
    if (!/^iter_\d+$/.test(s.stage)) await ctx.ev.appendLine(PHASES_LOG, JSON.stringify({ run_first_iteration: ctx.run.first, ...s }));
}

export async function saveState(ctx: Ctx): Promise<void> {
  // max_total_seconds counts the run's wall time: baseline, agent, checks, replays, commits.
  ctx.state.total_ms = Math.round(elapsedMs(ctx));
  await ctx.ev.write('state.json', canonicalJsonOfRecords(ctx.state));
  await ctx.ev.saveManifest();
  // The state on record is this run's now: a verdict taken in from elsewhere no longer stands in it.
  await rm(adoptedMark(ctx.ev.root), { force: true });
}

export async function writeIterationRecords(ctx: Ctx, n: number, terminal?: { status: string; stop_reason: string }): Promise<void> {
  const { ev, state } = ctx;
  await flushPendingLogs(ctx);
  // The row holds the certificate's type and residual (not read back: the file may still be on its way to disk).
  const row = state.rows.findLast((r) => r.iteration === n);
  const cycle = state.cycles.findLast((c) => c.iteration === n);
  await ev.appendLine(
    'history.jsonl',
    JSON.stringify({
      iteration: n,
      fsm: ctx.fsm.drain(),
      certificate: row?.certificate ?? null,
      residual: row?.residual ?? null,
      glow: row ? row.total : null,
      northstar_distance: state.last_northstar?.total_distance ?? null,
      ...(cycle
        ? {
            agent: cycle.agent,
            blocker_class: cycle.blocker_class,
            improvement: cycle.improvement,
            failure_signatures: cycle.failure_signatures,
            critic: cycle.critic,
            reused_checks: cycle.reused_checks,
          }
        : {}),
      decision: terminal ? `${terminal.status}(${terminal.stop_reason})` : 'continue',
      certificate_link: ev.link(`${iterDir(n)}/certificate.json`),
    } satisfies z.input<typeof historyLineSchema>),
  );
  // DEGA: the constrained next prompt, prepared once and reused by the next iteration. Its file and
  // budget_log.json are written when the run ends (writeRunEndRecords): rewriting a file costs a
  // flush on ext4, and both derive from what state.json and the iteration's files already hold.
  // It is built while the state and the manifests go to the disk; both are done with before either's failure is thrown.
  const [saved, prepared] = await Promise.allSettled([saveState(ctx), prepareCapsule(ctx, state.next_iteration)]);
  if (saved.status === 'rejected') throw saved.reason;
  if (prepared.status === 'rejected') throw prepared.reason;
  ctx.next = { n: state.next_iteration, prepared: prepared.value };
}

/** The records of the run as it ends (also a pause): the budget log and the prompt a next iteration would get. */
export async function writeRunEndRecords(ctx: Ctx): Promise<void> {
  const next = ctx.next?.prepared;
  if (next) await ctx.ev.write('next-prompt.md', 'prompt' in next ? next.prompt : `The next capsule is refused (CONTEXT_BLEED): ${next.problems.join('; ')}\n`);
  await ctx.ev.writeJson('budget_log.json', budgetLog(ctx));
}

export function budgetLog(ctx: Ctx) {
  const s = ctx.state;
  const agent = ctx.intake.config.agent.use;
  return {
    limits: ctx.plan.budget,
    used: {
      iterations: iterationsUsed(s.next_iteration, s.stopped_before_checks),
      iterations_stopped_before_checks: s.stopped_before_checks,
      seconds: Math.floor(s.total_ms / 1000),
      cost_usd: s.total_cost_usd,
      cost_reported_by_agent: s.cost_reported,
      tool_calls: s.total_tool_calls,
      tool_calls_reported_by_agent: s.reported?.toolCalls ?? false,
      tokens: s.total_tokens ?? null,
      // The side agents' share of the figures above (loop/budget-use.ts).
      side_agents: s.side_agents ?? {},
    },
    // Each budget as far as it was measured: "not measured: why" where it could never fire.
    measured: budgetMeasures(agent, ctx.plan.budget, {
      iterations: `${iterationsUsed(s.next_iteration, s.stopped_before_checks)} / ${ctx.plan.budget.max_iterations}`,
      seconds: Math.floor(s.total_ms / 1000),
      cost: s.cost_reported ? s.total_cost_usd : null,
      toolCalls: s.reported?.toolCalls ? s.total_tool_calls : null,
      side: s.side_agents,
    }),
    not_reported: [
      ...(s.cost_reported ? [] : [`cost: not reported by ${agent}; the cost budget could not be applied`]),
      ...(s.reported?.toolCalls ? [] : [`tool calls: not reported by ${agent}; the tool-call budget could not be applied`]),
      ...(s.reported?.tokens ? [] : [`tokens: not reported by ${agent}`]),
    ],
  };
}

export async function interimReport(ctx: Ctx, n: number): Promise<HaltingReport> {
  return buildReport({
    plan: ctx.plan,
    state: ctx.state,
    status: null,
    stop_reason: null,
    iterations: ctx.iterations,
    evRel: ctx.evRel,
    certificate: await ctx.ev.readJson(`${iterDir(n)}/certificate.json`, certificateSchema),
    triangle: null,
    phuc: null,
    rung: null,
    extra: {},
  });
}
