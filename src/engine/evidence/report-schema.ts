// halting_report.json as read back: the schema every reader of a written report parses it with.
import { z } from 'zod';
import { CERTIFICATE_TYPES } from '../config/config.js';
import { firedExitSchema } from '../judge/certificate.js';
import { roundFailuresSchema } from '../memory/failures.js';
import { decimalString } from '../common/document.js';
import { BLOCKER_CLASSES } from '../run/dega.js';
import { TERMINAL_STATES } from '../run/fsm.js';
import { iterationRowSchema } from './state.js';
import { stagePhasesSchema } from './phases.js';
import { lessonSchema } from './state.js';
import type { HaltingReport } from './report.js';

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
    .object({
      iterations: z.string(),
      seconds: z.string(),
      cost_usd: z.string(),
      tool_calls: z.string(),
      tool_calls_per_iteration: z.string().optional(),
      side_agents: z.string().optional(),
    })
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
