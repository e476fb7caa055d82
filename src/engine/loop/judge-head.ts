// HEAD judged before any agent step: the baseline of a new loop or the start of a resumed run. No
// certificate is issued without checks this run ran on the commit it names.
import { dstr } from '../common/decimal.js';
import { num } from '../common/display.js';
import { buildPlan } from '../config/plan.js';
import { criteriaToWrite } from '../config/protected.js';
import { updatePasses } from '../judge/checks.js';
import { snapshot } from '../judge/northstar.js';
import { roundStop } from './time-budget.js';
import { checkRound, type Ctx, scrub, measureAll } from './context.js';
import { type LoopOutcome } from './options.js';
import { decideBeforeIteration, decideHead } from '../run/decide.js';
import { finish, startCertificate } from './halt.js';
import { crashPoint } from './crash-point.js';
import { junitMissing, runnersMissing } from './runner-missing.js';
import { initialProgress } from '../run/progress.js';
import { keepBaseline, reuseBaseline } from './baseline-reuse.js';
import { endStage, saveState } from './records.js';
import { Stage } from '../evidence/phases.js';
import { headFacts } from './learn.js';
import { recordFailures } from '../memory/failures.js';

/** The API surface of the baseline (security), read in the judge space; a link to its evidence file. */
async function apiSurfaceBefore(ctx: Ctx, cwd: string, command: string): Promise<string> {
  const r = await ctx.judge.runner.run({ command, cwd, env: ctx.judge.env, timeoutMs: 600_000 });
  return ctx.ev.link((await ctx.ev.write('api_surface_before.txt', scrub(ctx, r.stdout))).path);
}

/**
 * Judges HEAD's tree (the baseline of a new loop, or the start of a resumed run): criteria,
 * residual, Northstar. Returns the outcome when that already ends the run.
 */
export async function judgeHead(ctx: Ctx, dir: string): Promise<LoopOutcome | null> {
  const { ev, o, state, plan } = ctx;
  const stage = new Stage(dir, o.clock);
  const tree = await ctx.git.headTree();
  // A later round's canary that leaves no mark is probed on the baseline's tree (the user's code), reused or not.
  if (dir === 'baseline') ctx.canaryBaseline = { tree, reaches: new Map() };
  if (dir === 'baseline' && (await reuseBaseline(ctx, tree))) {
    stage.lap('record');
    await endStage(ctx, stage);
    await saveState(ctx);
    return null;
  }
  const round = await checkRound(ctx, dir, tree, { signal: o.signal, stage });
  crashPoint(ctx, 'head');
  if (round.aborted) await ctx.judge.release();
  if (round.aborted) await endStage(ctx, stage);
  if (round.aborted) return finish(ctx, decideBeforeIteration({ stop: await roundStop(ctx, 'the loop was asked to stop'), budget: null })!);
  const residual = 'value' in round.residual ? round.residual.value : null;
  const met = new Map(round.checks.map((c) => [c.id, c.met]));
  await recordFailures(ctx, dir, round);
  // The tests HEAD's suite runs: the count and ids no later round may fall below (SPEC §7). A new
  // HEAD (a human commit) sets a new baseline; a resumed run on the loop's own commit keeps the old one.
  if (round.junit && 'tests' in round.junit && (dir === 'baseline' || !state.suite_baseline || state.last_commit !== (await ctx.git.head())))
    state.suite_baseline = round.junit.tests.map((t) => ({ id: t.id, status: t.status }));
  stage.lap('checks');
  const readings = await measureAll(ctx, round.cwd, residual, met);
  stage.lap('northstar');
  const apiBefore = dir === 'baseline' && ctx.intake.config.security ? await apiSurfaceBefore(ctx, round.cwd, ctx.intake.config.security.api_surface) : null;
  await ctx.judge.release();
  stage.lap('hand-back');
  state.passes = updatePasses(state.passes, round.checks, dir === 'baseline' ? 'baseline' : state.next_iteration);
  state.criteria_met = Object.fromEntries(met);
  state.last_facts = headFacts(round.checks);
  const measured = {
    residual: residual ? dstr(residual) : null,
    residual_detail: 'value' in round.residual ? round.residual.detail : round.residual.error,
    criteria: round.checks.map((c) => ({ id: c.id, met: c.met, evidence: c.evidence })),
  };
  if (dir === 'baseline') {
    const values: Record<string, string> = {};
    readings.forEach((r, k) => (values[ctx.intake.northstar[k].id] = r.value ?? ctx.intake.northstar[k].current));
    ctx.plan = buildPlan(ctx.intake, plan.config_file, measured, values, apiBefore, new Set(await ctx.git.listFiles()));
    await ev.writeJson('plan.json', ctx.plan);
    crashPoint(ctx, 'head-plan');
    if (ctx.intake.budget.reductions.length) await ev.write('budget_reduction.log', ctx.intake.budget.reductions.join('\n') + '\n');
    state.progress = initialProgress(ctx.plan.baseline.residual);
    state.last_northstar = snapshot(ctx.intake.northstar, readings, new Map(Object.entries(values)));
  } else {
    await ev.writeJson(`${dir}/judgement.json`, measured);
    state.last_northstar = snapshot(ctx.intake.northstar, readings, new Map(Object.entries(ctx.plan.northstar.baseline)));
    if (state.progress.best_residual === null && residual) state.progress = initialProgress(dstr(residual));
    state.start_residual = residual ? dstr(residual) : null;
  }
  const failing = round.checks.filter((c) => !c.met);
  o.log.info(
    `${dir === 'baseline' ? 'baseline' : 'HEAD judged'}: ${round.checks.length - failing.length}/${round.checks.length} criteria met, residual ${residual ? num(dstr(residual)) : `unavailable (${measured.residual_detail})`}` +
      (failing.length ? ` — failing: ${failing.map((c) => `${c.id} (${c.timed_out ? 'timed out' : `exit ${c.exit_code}`})`).join(', ')}` : ''),
  );
  stage.lap('record');
  await endStage(ctx, stage);
  await saveState(ctx);
  crashPoint(ctx, 'head-state');
  // A runner missing where the checks run (a program, a Python module, the JUnit files), or a
  // criterion program the agent could write, stops the run before an agent step.
  const absent = await runnersMissing(ctx, round.checks);
  const unwritten = criteriaToWrite(ctx.intake.config.acceptance_criteria, new Set(await ctx.git.listFiles()));
  const missing = decideHead([...absent, ...unwritten]);
  const index = (id: string) => ctx.intake.config.acceptance_criteria.findIndex((c) => c.id === id);
  const fields = [...absent.map((m) => `acceptance_criteria.${index(m.id)}.run`), ...unwritten.map((m) => `acceptance_criteria.${index(m.id)}.agent_writes`)];
  if (missing) return finish(ctx, { ...missing, missing_fields: fields });
  const noJunit = decideHead(await junitMissing(ctx, 'error' in round.residual ? round.residual.error : null, round.checks), 'RESIDUAL_UNAVAILABLE');
  if (noJunit) return finish(ctx, { ...noJunit, missing_fields: ['residual.junit'] });
  // A HEAD that already satisfies the criteria is certified without spawning an agent.
  const cert = await startCertificate(ctx, dir, tree, round, residual);
  if (cert) return finish(ctx, cert.decision, { certificateRel: cert.rel });
  if (dir === 'baseline') await keepBaseline(ctx, tree);
  return null;
}
