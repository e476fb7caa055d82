// Baseline reuse: a new loop (`run --fresh`, a config change that starts over) whose baseline
// inputs are exactly those of an earlier run's baseline takes that judgement instead of running
// every criterion again, and names the evidence it came from. The inputs are hashed: HEAD's tree
// (the setup's lockfiles included), the contract (criteria, residual, checks and setup, protected
// paths; config/plan.ts#contractHash), the Northstar metrics, the folders the checks may write, the
// isolation, the network and judge space of the checks, the environment they take from the loop,
// and the loop itself (its version and the bytes of the code running). The baseline is never a
// certificate (SPEC §7): one that would certify HEAD, or stop the run before an agent step, is
// never kept, and a pass is never carried into an iteration (every criterion runs again there).
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { canonicalJson, sha256 } from '../common/canonical.js';
import { parseDocument } from '../common/document.js';
import { VERSION } from '../common/version.js';
import { buildPlan, planSchema } from '../config/plan.js';
import { atomicWrite } from '../os/atomic-write.js';
import { type Ctx } from './context.js';
import { stateSchema } from '../evidence/state.js';
import { initialProgress } from '../run/progress.js';

/** In the loop home (0700, the loop's own), beside the evidence tree: only the last baseline is kept. */
const RECORD = 'baseline-reuse.json';
/** The evidence a baseline leaves outside plan.json: its round (checks, logs, setup) and the API surface. */
const isBaselineEvidence = (path: string) => path.startsWith('baseline/') || path === 'api_surface_before.txt';

const recordSchema = z.object({
  key: z.string(),
  /** The earlier run's plan.json as its baseline wrote it: the evidence this one came from. */
  plan_sha256: z.string(),
  baseline: planSchema.shape.baseline,
  northstar_baseline: z.record(z.string(), z.string()),
  api_surface_before: z.string().nullable(),
  state: stateSchema.pick({ criteria_met: true, last_facts: true, last_northstar: true, suite_baseline: true }),
  files: z.array(z.object({ path: z.string(), sha256: z.string(), text: z.string() })),
});

let loopCode: Promise<string> | null = null;
/** The bytes of the loop that runs (the bundle in dist/): a rebuilt loop is another loop. */
const loopCodeHash = () => (loopCode ??= readFile(fileURLToPath(import.meta.url)).then((b) => sha256(b)));

const recordPath = (ctx: Ctx) => join(dirname(ctx.ev.root), RECORD);

async function baselineKey(ctx: Ctx, tree: string): Promise<string> {
  const env = ctx.o.env;
  return sha256(
    canonicalJson({
      loop: [VERSION, await loopCodeHash()],
      tree,
      contract: ctx.intake.contract,
      northstar: ctx.intake.northstar,
      writable: ctx.intake.config.agent.writable ?? [],
      isolation: ctx.isolation,
      network: ctx.sandbox.network,
      judge: ctx.judge.mode,
      env: { PATH: env.PATH ?? null, LANG: env.LANG ?? null, TZ: env.TZ ?? null },
    }),
  );
}

/**
 * Takes the earlier baseline when its inputs are this run's: its evidence files are written again
 * (byte for byte: the links in plan.json stay true), `baseline/reused.json` names where they came
 * from, the plan and state are made from it as the baseline round would. False: judge HEAD.
 */
export async function reuseBaseline(ctx: Ctx, tree: string): Promise<boolean> {
  // The clean workspace only: the live one judges what the agent left beside the tree too.
  if (ctx.judge.mode !== 'clean') return false;
  const text = await readFile(recordPath(ctx), 'utf8').catch(() => null);
  let record: z.infer<typeof recordSchema>;
  try {
    record = parseDocument(RECORD, text ?? '', recordSchema);
  } catch {
    return false;
  }
  const key = await baselineKey(ctx, tree);
  if (text === null || record.key !== key || record.files.some((f) => sha256(f.text) !== f.sha256)) return false;
  const { ev, state } = ctx;
  for (const f of record.files) await ev.write(f.path, f.text);
  ctx.plan = buildPlan(
    ctx.intake,
    ctx.plan.config_file,
    record.baseline,
    record.northstar_baseline,
    record.api_surface_before,
    new Set(await ctx.git.listFiles()),
  );
  await ev.writeJson('plan.json', ctx.plan);
  if (ctx.intake.budget.reductions.length) await ev.write('budget_reduction.log', ctx.intake.budget.reductions.join('\n') + '\n');
  await ev.writeJson('baseline/reused.json', {
    reused: true,
    inputs_hash: key,
    from: { plan_sha256: record.plan_sha256, files: record.files.map(({ path, sha256 }) => ({ path, sha256 })) },
  });
  Object.assign(state, record.state);
  // A pass counts only in the run that ran it: iteration 0 runs every criterion.
  state.passes = {};
  state.progress = initialProgress(ctx.plan.baseline.residual);
  const met = record.baseline.criteria.filter((c) => c.met).length;
  ctx.o.log.info(
    `baseline: reused (inputs ${key.slice(0, 12)} unchanged since the run whose plan.json is ${record.plan_sha256.slice(0, 12)}): ` +
      `${met}/${record.baseline.criteria.length} criteria met; every criterion runs again in iteration 0`,
  );
  return true;
}

/** Keeps this run's baseline for a later run with the same inputs (a baseline that did not end the run). */
export async function keepBaseline(ctx: Ctx, tree: string): Promise<void> {
  if (ctx.judge.mode !== 'clean') return;
  const { ev, plan, state } = ctx;
  const planEntry = ev.entry('plan.json');
  if (!planEntry) return;
  const files = [];
  for (const { path, sha256: hash } of ev.manifest().files.filter((f) => isBaselineEvidence(f.path))) {
    const text = await ev.readText(path);
    if (text === null || sha256(text) !== hash) return;
    files.push({ path, sha256: hash, text });
  }
  const record: z.infer<typeof recordSchema> = {
    key: await baselineKey(ctx, tree),
    plan_sha256: planEntry.sha256,
    baseline: plan.baseline,
    northstar_baseline: plan.northstar.baseline,
    api_surface_before: plan.security?.api_surface_before ?? null,
    state: { criteria_met: state.criteria_met, last_facts: state.last_facts, last_northstar: state.last_northstar, suite_baseline: state.suite_baseline },
    files,
  };
  await atomicWrite(recordPath(ctx), JSON.stringify(record));
}
