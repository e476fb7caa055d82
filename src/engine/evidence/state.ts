// The run's state between iterations, persisted as state.json in the evidence tree (DEGA
// snapshot): what one iteration hands the next, the per-iteration rows reports and PR comments
// show, and the lines of history.jsonl. Read back, it is parsed with these schemas, so a state written by another version or edited
// by hand is refused rather than half-used.
import { z } from 'zod';
import { decimalString } from '../common/document.js';
import { CERTIFICATE_TYPES } from '../config/config.js';
import { firedExitSchema, issuedTypeSchema } from '../judge/certificate.js';
import type { PassRecord } from '../judge/checks.js';
import type { Glow } from '../judge/glow.js';
import type { TestRecord } from '../judge/junit.js';
import type { NorthstarSnapshot } from '../judge/northstar.js';
import { BLOCKER_CLASSES } from '../run/dega.js';
import { STATES, TERMINAL_STATES } from '../run/fsm.js';
import { initialProgress, type ProgressState } from '../run/progress.js';
import type { Signature } from '../run/signature.js';

/** One thing the last halt taught (evidence/lessons.ts), with the evidence it comes from. */
export const lessonSchema = z.object({ lane: z.enum(['A', 'B', 'C']), text: z.string(), evidence: z.string().nullable() });
export type Lesson = z.infer<typeof lessonSchema>;

const signatureSchema = z.object({ criterion: z.string(), signature: z.string(), text: z.string() }) satisfies z.ZodType<Signature>;

const progressSchema = z.object({
  best_residual: decimalString.nullable(),
  stalled: z.number().int().min(0),
  escalated_at: z.number().int().min(0).nullable(),
  signatures: z.record(z.string(), signatureSchema),
  detour: z
    .object({
      /** The iteration whose capsule carries the detour. */
      iteration: z.number().int().min(0),
      repeated: z.array(signatureSchema.extend({ instruction: z.string().nullable() })),
    })
    .nullable(),
}) satisfies z.ZodType<ProgressState>;

const northstarSnapshotSchema = z.object({
  readings: z.array(z.object({ id: z.string(), value: decimalString.nullable(), distance: decimalString.nullable(), error: z.string().optional() })),
  total_distance: decimalString.nullable(),
}) satisfies z.ZodType<NorthstarSnapshot>;

const passSchema = z.object({
  iteration: z.union([z.number().int().min(0), z.literal('baseline')]),
  inputs_hash: z.string(),
  evidence: z.string(),
  tree: z.string(),
}) satisfies z.ZodType<PassRecord>;

const glowScore = z.number().int().min(0);

/** One row per iteration for reports and PR comments. */
export const iterationRowSchema = z.object({
  iteration: z.number().int().min(0),
  G: glowScore,
  L: glowScore,
  O: glowScore,
  // null when the residual could not be computed: unknown, never 0.
  W: glowScore.nullable(),
  total: glowScore.nullable(),
  certificate: issuedTypeSchema,
  residual: decimalString.nullable(),
  northstar_distance: decimalString.nullable(),
  /** What the agent reported for the iteration's step (null: nothing; absent in rows written before). */
  cost_usd: decimalString.nullable().optional(),
  /** Input (cached parts included) and output tokens the agent reported for the step. */
  tokens: z.number().int().min(0).nullable().optional(),
}) satisfies z.ZodType<Pick<Glow, 'iteration' | 'G' | 'L' | 'O' | 'W' | 'total'>>;
export type IterationRow = z.infer<typeof iterationRowSchema>;

/** DEGA cycle record per iteration: blocker class, improvement over the previous one, who ran. */
const cycleSchema = z.object({
  iteration: z.number().int().min(0),
  agent: z.string(),
  blocker_class: z.enum(BLOCKER_CLASSES),
  blocker_reason: z.string(),
  improvement: z.string(),
  fail_closed_signals: z.number().int().min(0),
  residual: decimalString.nullable(),
  failure_signatures: z.array(z.string()),
  detour_next: z.boolean(),
  critic: z.string().nullable(),
  reused_checks: z.array(z.string()),
});
export type Cycle = z.infer<typeof cycleSchema>;

const count = z.number().int().min(0);

/** The agent processes beside the iteration's step that spend from the same budgets (loop/budget-use.ts). */
export const SIDE_ROLES = ['critic', 'paraphrase'] as const;
export type SideRole = (typeof SIDE_ROLES)[number];
/** What one side role's runs reported, summed (null: never reported), and its last run's figures (the next run's estimate). */
const sideUseSchema = z.object({
  runs: count,
  /** Runs the remaining budget could not cover: not started. */
  refused: count,
  cost_usd: decimalString.nullable(),
  tool_calls: count.nullable(),
  tokens: count.nullable(),
  last_cost_usd: decimalString.nullable(),
  last_tool_calls: count.nullable(),
});
export type SideUse = z.infer<typeof sideUseSchema>;

/** What the loop carries from one iteration to the next; persisted as state.json (DEGA snapshot). */
export const stateSchema = z.object({
  schema_version: z.literal('2.0'),
  next_iteration: count,
  /**
   * Recorded iterations a stop cut short before their checks ran (a pause): they do not count
   * against budget.max_iterations (decide.ts countsAgainstBudget). Absent in state files written
   * before it existed: none.
   */
  stopped_before_checks: z.array(count).default([]),
  residual_history: z.array(decimalString),
  criteria_met: z.record(z.string(), z.boolean()),
  last_certificate_sha256: z.string().nullable(),
  last_facts: z.array(z.string()),
  last_northstar: northstarSnapshotSchema.nullable(),
  total_ms: count,
  total_cost_usd: decimalString,
  cost_reported: z.boolean(),
  total_tool_calls: count,
  /** Tokens the agent reported, summed (null: it reported none). */
  total_tokens: z.object({ input: count, output: count, cache_read: count, cache_write: count }).nullable().optional(),
  /** The side agents' share of the totals above, by role (absent: none ran). */
  side_agents: z.partialRecord(z.enum(SIDE_ROLES), sideUseSchema).optional(),
  /** Which figures the agent reported at least once (a budget on a figure never reported cannot apply). */
  reported: z.object({ cost: z.boolean(), tokens: z.boolean(), toolCalls: z.boolean() }).optional(),
  exits_fired: z.array(firedExitSchema.extend({ iteration: count })),
  /** Where the progress windows (divergence, W = 0) start: a new HEAD starts new ones. */
  window: z.object({ residuals: count, rows: count }).default({ residuals: 0, rows: 0 }),
  /** The residual HEAD was judged at when this run started, until this run records an iteration. */
  start_residual: decimalString.nullable(),
  /** The tests (id, status) the baseline ran, for the suite-integrity guard; null without JUnit. */
  suite_baseline: z
    .array(z.object({ id: z.string(), status: z.enum(['passed', 'failed', 'error', 'skipped']) }) satisfies z.ZodType<Pick<TestRecord, 'id' | 'status'>>)
    .nullable()
    .optional(),
  /**
   * The runner canary's history (judge/canary.ts): the criteria whose canary ran (from then on it must
   * run) and the tests each reported failing (copied into its run), for a resumed run; absent before.
   */
  canary: z.object({ reached: z.array(z.string()), failing: z.record(z.string(), z.array(z.string())) }).optional(),
  /** What the last halt taught (evidence/lessons.ts), shown to the next run's agent; absent before its first halt. */
  lessons_for_next_run: z.array(lessonSchema).optional(),
  /** The loop's last commit: a run continues this state only from it (or from a descendant, re-baselined). */
  last_commit: z.string().nullable().default(null),
  /** How the last run ended, on which commit, and (when every criterion declares inputs) on which inputs. */
  terminal: z.object({ status: z.enum(TERMINAL_STATES), stop_reason: z.string(), head: z.string().nullable(), inputs_hash: z.string().nullable() }).nullable(),
  section_witnessed: count,
  section_archived: count,
  /** Passes that may be reused while their inputs are unchanged. */
  passes: z.record(z.string(), passSchema),
  progress: progressSchema,
  cycles: z.array(cycleSchema),
  rows: z.array(iterationRowSchema),
});
export type LoopState = z.infer<typeof stateSchema>;

export function initialState(): LoopState {
  return {
    schema_version: '2.0',
    next_iteration: 0,
    stopped_before_checks: [],
    residual_history: [],
    criteria_met: {},
    last_certificate_sha256: null,
    last_facts: [],
    last_northstar: null,
    total_ms: 0,
    total_cost_usd: '0',
    cost_reported: false,
    total_tool_calls: 0,
    exits_fired: [],
    last_commit: null,
    window: { residuals: 0, rows: 0 },
    start_residual: null,
    terminal: null,
    section_witnessed: 0,
    section_archived: 0,
    passes: {},
    progress: initialProgress(null),
    cycles: [],
    rows: [],
  };
}

/** One line of history.jsonl per recorded iteration. */
export const historyLineSchema = z.object({
  iteration: z.number().int().min(0),
  fsm: z.array(z.enum(STATES)),
  certificate: z.enum([...CERTIFICATE_TYPES, 'NONE']).nullable(),
  residual: decimalString.nullable(),
  glow: z.number().int().min(0).nullable(),
  northstar_distance: decimalString.nullable(),
  agent: z.string().optional(),
  blocker_class: z.enum(BLOCKER_CLASSES).optional(),
  improvement: z.string().optional(),
  failure_signatures: z.array(z.string()).optional(),
  critic: z.string().nullable().optional(),
  reused_checks: z.array(z.string()).optional(),
  decision: z.string(),
  certificate_link: z.string(),
});
