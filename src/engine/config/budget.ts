// Budgets: hard limits (docs/glossary.md "Budget"). A profile scales the defaults and clamps bound
// how far the scaling may reduce them; a value written in the config is taken as written.
import { z } from 'zod';
import type { LoopConfig } from './config.js';
import { Decimal } from '../common/decimal.js';
import { decimalString } from '../common/document.js';

/** The limits a run works under, as plan.json records them. */
export const budgetRecordSchema = z.object({
  max_iterations: z.number().int().min(1),
  max_seconds_per_iteration: z.number().int().min(1),
  max_total_seconds: z.number().int().min(1),
  max_total_cost_usd: decimalString.nullable(),
  max_tool_calls_per_iteration: z.number().int().min(1),
  max_total_tool_calls: z.number().int().min(1),
});
export type Budget = z.infer<typeof budgetRecordSchema>;

export const DEFAULT_BUDGET: Budget = {
  max_iterations: 10,
  max_seconds_per_iteration: 1800,
  max_total_seconds: 14400,
  max_total_cost_usd: null,
  max_tool_calls_per_iteration: 80,
  max_total_tool_calls: 500,
};

type Scaled = Exclude<keyof Budget, 'max_total_cost_usd'>;
type Kind = 'iterations' | 'seconds' | 'tool_calls';
const KIND: Record<Scaled, Kind> = {
  max_iterations: 'iterations',
  max_seconds_per_iteration: 'seconds',
  max_total_seconds: 'seconds',
  max_tool_calls_per_iteration: 'tool_calls',
  max_total_tool_calls: 'tool_calls',
};
export const PROFILE_SCALES: Record<LoopConfig['profile'], Record<Kind, string>> = {
  strict: { iterations: '1', seconds: '1', tool_calls: '1' },
  fast: { iterations: '0.5', seconds: '0.5', tool_calls: '0.5' },
  benchmark_adapt: { iterations: '0.7', seconds: '0.7', tool_calls: '0.8' },
};
export const CLAMP_MIN: Record<Kind, number> = { iterations: 3, seconds: 600, tool_calls: 40 };

export interface ResolvedBudget {
  budget: Budget;
  /** Fields the user wrote (taken as written). */
  explicit: (keyof Budget)[];
  /** One line per budget the profile changed, for budget_reduction.log. */
  reductions: string[];
}

export function resolveBudget(config: LoopConfig): ResolvedBudget {
  const written = config.budget;
  const explicit = (Object.keys(written) as (keyof Budget)[]).filter((k) => written[k] !== undefined);
  const budget: Budget = { ...DEFAULT_BUDGET, max_total_cost_usd: written.max_total_cost_usd ?? null };
  const reductions: string[] = [];
  for (const key of Object.keys(KIND) as Scaled[]) {
    const value = written[key];
    if (value !== undefined) {
      budget[key] = value;
      continue;
    }
    const kind = KIND[key];
    const scale = PROFILE_SCALES[config.profile][kind];
    const scaled = new Decimal(DEFAULT_BUDGET[key]).mul(scale).ceil().toNumber();
    const clamped = Math.max(scaled, CLAMP_MIN[kind]);
    if (clamped !== DEFAULT_BUDGET[key])
      reductions.push(
        `${key}: ${DEFAULT_BUDGET[key]} → ${clamped} (profile ${config.profile}, scale ${scale}` +
          `${clamped !== scaled ? `, raised to clamp_min ${CLAMP_MIN[kind]}` : ''})`,
      );
    budget[key] = clamped;
  }
  return { budget, explicit, reductions };
}
