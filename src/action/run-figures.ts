// The run's cost and tokens for the action's outputs, read from the published budget_log.json (what
// the agent reported, summed across runs). Empty where the agent reported none: a 0 would read as free.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';

const count = z.number().int().min(0);
const budgetLog = z.object({
  used: z.object({
    cost_usd: z.string(),
    cost_reported_by_agent: z.boolean(),
    tokens: z.object({ input: count, output: count, cache_read: count, cache_write: count }).nullable(),
  }),
});

export interface RunFigures {
  'cost-usd': string;
  /** Input (cached parts included) and output tokens, summed. */
  tokens: string;
}

export async function runFigures(evidenceRoot: string): Promise<RunFigures> {
  const text = await readFile(join(evidenceRoot, 'budget_log.json'), 'utf8').catch(() => null);
  const r = text === null ? null : budgetLog.safeParse(JSON.parse(text));
  if (!r?.success) return { 'cost-usd': '', tokens: '' };
  const { cost_usd, cost_reported_by_agent, tokens } = r.data.used;
  return {
    'cost-usd': cost_reported_by_agent ? cost_usd : '',
    // input counts the cached parts already (cache_read and cache_write are shares of it).
    tokens: tokens ? String(tokens.input + tokens.output) : '',
  };
}
