// DREAM_GOAL: plan.json (the Triangle's REMIND vertex), the contract of a loop, written once at its
// start from the intake and read back when it resumes.
import { z } from 'zod';
import { budgetRecordSchema } from './budget.js';
import { AGENT_PRESETS, CERTIFICATE_TYPES, PROFILES, RESIDUAL_METRICS } from './config.js';
import { seedChecksum } from '../common/decimal.js';
import { decimalString } from '../common/document.js';
import { VERSION } from '../common/version.js';
import { type NorthstarMetric } from './northstar.js';
import { type Intake } from './intake.js';
import { protectedGlobs } from './protected.js';

export const LOOP_SCRATCH_DIR = 'scratch';

/** plan.baseline.residual_detail of a plan whose baseline is not on record yet. */
export const BASELINE_PENDING = 'not measured yet';

/** The baseline of this plan was never recorded (the run that made it was cut off or stopped during it). */
export const baselinePending = (plan: Pick<Plan, 'baseline'>) => plan.baseline.residual_detail === BASELINE_PENDING && plan.baseline.criteria.length === 0;

const agentRecord = z.object({ use: z.enum(AGENT_PRESETS), model: z.string().nullable() });

const measureSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('static') }),
  z.object({ kind: z.literal('command'), run: z.string() }),
  z.object({ kind: z.literal('residual') }),
  z.object({ kind: z.literal('criterion'), id: z.string() }),
]);

const northstarMetricSchema = z.object({
  id: z.string(),
  metric: z.string(),
  current: decimalString,
  target: decimalString,
  measure: measureSchema,
}) satisfies z.ZodType<NorthstarMetric>;

/** plan.json: the contract of a loop, written once at its start and read back when it resumes. */
export const planSchema = z.object({
  schema_version: z.literal('2.0'),
  skill: z.literal('phuc-loop'),
  version: z.string(),
  goal: z.string(),
  acceptance_criteria: z.array(
    z.object({
      id: z.string(),
      description: z.string(),
      run: z.string(),
      timeout_seconds: z.number().int().min(1),
      retries: z.number().int().min(0),
      inputs: z.array(z.string()).nullable(),
      /** The agent is to write what it runs (config agent_writes); absent: false. */
      agent_writes: z.literal(true).optional(),
    }),
  ),
  halting_certificates_applicable: z.array(z.enum(CERTIFICATE_TYPES)),
  R_p: decimalString.nullable(),
  rung_target: z.number().int(),
  residual: z.object({
    metric: z.enum(RESIDUAL_METRICS),
    junit: z.string().optional(),
    run: z.string().optional(),
    timeout_seconds: z.number().int().min(1),
  }),
  profile: z.enum(PROFILES),
  budget: budgetRecordSchema,
  /** Budgets changed when the loop was resumed: from which iteration, and what they became. */
  budget_revisions: z.array(z.object({ from_iteration: z.number().int().min(0), budget: budgetRecordSchema })),
  budget_explicit: z.array(z.string()),
  budget_reductions: z.array(z.string()),
  northstar: z.object({ file: z.string(), metrics: z.array(northstarMetricSchema), baseline: z.record(z.string(), decimalString) }),
  baseline: z.object({
    residual: decimalString.nullable(),
    residual_detail: z.string(),
    criteria: z.array(z.object({ id: z.string(), met: z.boolean(), evidence: z.string() })),
  }),
  protected: z.array(z.string()),
  /** agent.may_change: the allow-list that judged the agent's changes; absent: the protected paths alone. */
  may_change: z.array(z.string()).optional(),
  agent: agentRecord,
  replays: z.number().int().min(1),
  critic: agentRecord.nullable(),
  detours: z.array(z.object({ match: z.string(), instruction: z.string() })),
  stall_iterations: z.number().int().min(1),
  escalate: z.object({ use: z.enum(AGENT_PRESETS).nullable(), model: z.string().nullable() }).nullable(),
  mission_context: z.string().nullable(),
  non_goals: z.array(z.string()),
  stop_rules: z.array(z.string()),
  config_file: z.string(),
  config_sha256: z.string(),
  seed_checksum: z.object({ formula: z.string(), product: z.string(), verified: z.boolean() }),
  security: z
    .object({
      gate: z.string(),
      api_surface: z.string(),
      drift_explanation: z.string(),
      api_surface_before: z.string().nullable(),
      paraphrase: z.string().optional(),
    })
    .nullable(),
});
export type Plan = z.infer<typeof planSchema>;

export function buildPlan(
  i: Intake,
  configPath: string,
  baseline: Plan['baseline'],
  northstarBaseline: Record<string, string>,
  apiSurfaceBefore: string | null,
  files: ReadonlySet<string> = new Set(),
): Plan {
  const c = i.config;
  const seed = seedChecksum();
  const guarded = protectedGlobs(c, configPath, files);
  return {
    schema_version: '2.0',
    skill: 'phuc-loop',
    version: VERSION,
    goal: c.goal,
    acceptance_criteria: c.acceptance_criteria.map((a) => ({
      id: a.id,
      description: a.description ?? a.run,
      run: a.run,
      timeout_seconds: a.timeout_seconds,
      retries: a.retries,
      inputs: a.inputs ?? null,
      ...(a.agent_writes ? { agent_writes: true as const } : {}),
    })),
    halting_certificates_applicable: c.certificates,
    R_p: c.R_p ?? null,
    rung_target: c.rung_target,
    residual: c.residual,
    profile: c.profile,
    budget: i.budget.budget,
    budget_revisions: [],
    budget_explicit: i.budget.explicit,
    budget_reductions: i.budget.reductions,
    northstar: { file: c.northstar, metrics: i.northstar, baseline: northstarBaseline },
    baseline,
    protected: guarded,
    ...(c.agent.may_change ? { may_change: c.agent.may_change } : {}),
    agent: { use: c.agent.use, model: c.agent.model ?? null },
    replays: c.replays,
    critic: c.critic ? { use: c.critic.use, model: c.critic.model ?? null } : null,
    detours: c.detours,
    stall_iterations: c.stall_iterations,
    escalate: c.agent.escalate ? { use: c.agent.escalate.use ?? null, model: c.agent.escalate.model ?? null } : null,
    mission_context: c.mission_context ?? null,
    non_goals: [
      ...(c.agent.may_change ? [`no change outside ${c.agent.may_change.join(', ')}`] : []),
      `no change under ${guarded.join(', ')}`,
      'no weakened, skipped or deleted test or check',
      'no commit, push or history rewrite by the agent',
    ],
    stop_rules: [
      'invariant or guardrail violation → EXIT_BLOCKED',
      'EXACT or CONVERGED certificate → EXIT_CONVERGED',
      'three strictly increasing residuals → EXIT_DIVERGED',
      'critic: no further iteration can help while criteria fail → EXIT_BLOCKED(NO_VIABLE_FIX_PATH)',
      'the same failure signature after a detour → EXIT_BLOCKED(STUCK)',
      `no better residual for stall_iterations (after escalation, if configured) → EXIT_BLOCKED(STALLED)`,
      'backpressure (STOP label, scratch/STOP, signal, disk > 90%, rate limit) → EXIT_BLOCKED(BACKPRESSURE_SIGNAL)',
      'three iterations with W = 0 → EXIT_BLOCKED(NORTHSTAR_DRIFT)',
      'budget exhausted → EXIT_BUDGET_EXCEEDED',
    ],
    config_file: configPath,
    config_sha256: i.contract,
    seed_checksum: { formula: '641 × 274177 × 65537', product: seed.product, verified: seed.verified },
    security: c.security ? { ...c.security, api_surface_before: apiSurfaceBefore } : null,
  };
}
