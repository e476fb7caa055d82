// The record a run starts from: a new loop's plan (on record before its baseline runs), or a
// resumed loop's iterations and entries read back, its budget revised and its progress windows
// restarted when HEAD moved.
import { canonicalJson } from '../common/canonical.js';
import { BASELINE_PENDING, buildPlan, type Plan } from '../config/plan.js';
import { notCounted } from '../evidence/run-accounting.js';
import { iterDir } from '../store/evidence.js';
import { type Ctx } from './context.js';
import { type LoopState } from '../evidence/state.js';
import { iterationsUsed } from '../run/decide.js';
import { initialProgress } from '../run/progress.js';
import { saveState } from './records.js';

/** A resumed run: the budget may have changed; the recorded iterations and entries are read back. */
export async function continueRecord(ctx: Ctx): Promise<void> {
  const { ev, o, state } = ctx;
  state.terminal = null;
  const budget = ctx.intake.budget.budget;
  if (canonicalJson(ctx.plan.budget) !== canonicalJson(budget)) {
    o.log.info(`budget changed on resume: ${JSON.stringify(ctx.plan.budget)} → ${JSON.stringify(budget)}`);
    ctx.plan.budget = budget;
    ctx.plan.budget_revisions = [...(ctx.plan.budget_revisions ?? []), { from_iteration: state.next_iteration, budget }];
    await ev.writeJson('plan.json', ctx.plan);
  }
  ctx.iterations = Array.from({ length: state.next_iteration }, (_, n) => n).filter((n) => ev.entry(`${iterDir(n)}/certificate.json`));
  for (const n of ctx.iterations) {
    const text = (await ev.readText(`${iterDir(n)}/agents_md_entry.md`)) ?? '';
    ctx.entries.push({ iteration: n, text, link: ev.link(`${iterDir(n)}/agents_md_entry.md`) });
  }
  const head = await ctx.git.head();
  if (state.last_commit === null) {
    o.log.info('no iteration committed yet: HEAD is judged afresh');
    rebaseline(state);
  } else if (state.last_commit !== head) {
    const descends = head !== null && (await ctx.git.isAncestor(state.last_commit, head));
    ctx.run.rebaseline = descends
      ? `HEAD has new commits since the loop's last one (${state.last_commit.slice(0, 12)}): progress windows start again from a new measurement of HEAD`
      : `HEAD ${head?.slice(0, 12)} does not descend from the loop's last commit ${state.last_commit.slice(0, 12)}: HEAD is judged afresh and the progress windows start again`;
    o.log.info(ctx.run.rebaseline);
    rebaseline(state);
  }
  // The canary history: the tests that failed stay to be copied; a canary is known to run only on
  // the loop's own commit (the user's new commit may change what the command reaches).
  ctx.canaryFailing = new Map(Object.entries(state.canary?.failing ?? {}));
  if (state.last_commit === head) for (const id of state.canary?.reached ?? []) ctx.canaryReached.add(id);
  const skipped = notCounted(state.stopped_before_checks);
  o.log.info(
    `resuming from ${ctx.evRel}: ${ctx.iterations.length} iteration(s) on record, next is ${state.next_iteration}; budgets count every run of this loop ` +
      `(${iterationsUsed(state.next_iteration, state.stopped_before_checks)} of ${budget.max_iterations} iterations used${skipped ? `; ${skipped}` : ''})`,
  );
}

/** Progress state belongs to the HEAD it was measured on: a new HEAD starts new windows. */
function rebaseline(state: LoopState): void {
  state.progress = initialProgress(null);
  state.window = { residuals: state.residual_history.length, rows: state.rows.length };
}

/** DREAM_GOAL for a new loop: plan.json before iteration 0 (the baseline judgement follows). */
export async function newPlan(ctx: Ctx, configPath: string): Promise<Plan> {
  const { intake: i, ev, o } = ctx;
  await ev.clear();
  o.log.info(
    `plan: ${i.config.acceptance_criteria.length} criteria, certificates ${i.config.certificates.join('/')}, rung ${i.config.rung_target}, agent ${i.config.agent.use}`,
  );
  // On record before the baseline runs: a run that ends during it still has its plan (Triangle),
  // with a state and a manifest, so that a run killed during the baseline is recognised as an
  // unfinished start (home.ts) and started again, never refused.
  const plan = buildPlan(i, configPath, { residual: null, residual_detail: BASELINE_PENDING, criteria: [] }, {}, null, new Set(await ctx.git.listFiles()));
  await ev.writeJson('plan.json', plan);
  ctx.plan = plan;
  await saveState(ctx);
  return plan;
}
