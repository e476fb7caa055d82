// Every agent process the loop starts spends from the run's budgets (docs/glossary.md "Budget"):
// the iteration's agent step and the side agents beside it, the critic and rung 65537's paraphrase
// by the agent. What each reports (agent/usage.ts) is summed exactly into the run's totals, which
// the budget exits read; a side agent's share is kept by role too (state.side_agents), for the
// report's budget line and budget_log.json. A side agent the remaining budget cannot cover, as far
// as that is known before it starts (the budget spent, or its role's last run cost more than is
// left), is not started.
import type { AgentOutcome } from '../agent/usage.js';
import { Decimal, dstr } from '../common/decimal.js';
import type { LoopState, SideRole, SideUse } from '../evidence/state.js';
import { type Ctx, elapsedMs } from './context.js';

const plus = (a: string | null, b: string) => dstr(new Decimal(a ?? '0').plus(b));
const tokenSum = (out: AgentOutcome) => (out.tokens ? out.tokens.input + out.tokens.output : null);

/** Cost, tool calls and tokens as an agent process reported them, summed exactly; a figure never reported stays unknown. */
export function countUsage(state: LoopState, out: AgentOutcome, side?: SideRole): void {
  const reported = (state.reported ??= { cost: state.cost_reported, tokens: false, toolCalls: false });
  if (out.costUsd !== null) {
    state.total_cost_usd = plus(state.total_cost_usd, out.costUsd);
    state.cost_reported = reported.cost = true;
  }
  if (out.toolCalls !== null) {
    state.total_tool_calls += out.toolCalls;
    reported.toolCalls = true;
  }
  if (out.tokens) {
    const t = (state.total_tokens ??= { input: 0, output: 0, cache_read: 0, cache_write: 0 });
    for (const k of ['input', 'output', 'cache_read', 'cache_write'] as const) t[k] += out.tokens[k];
    reported.tokens = true;
  }
  if (!side) return;
  const use = sideUse(state, side);
  use.runs++;
  const tokens = tokenSum(out);
  if (out.costUsd !== null) use.cost_usd = plus(use.cost_usd, out.costUsd);
  if (out.toolCalls !== null) use.tool_calls = (use.tool_calls ?? 0) + out.toolCalls;
  if (tokens !== null) use.tokens = (use.tokens ?? 0) + tokens;
  use.last_cost_usd = out.costUsd;
  use.last_tool_calls = out.toolCalls;
}

function sideUse(state: LoopState, role: SideRole): SideUse {
  const all = (state.side_agents ??= {});
  return (all[role] ??= { runs: 0, refused: 0, cost_usd: null, tool_calls: null, tokens: null, last_cost_usd: null, last_tool_calls: null });
}

/** One side agent run's figures as evidence (critic_verdict.json, paraphrase.json): null where it reported none. */
export const usageRecord = (out: AgentOutcome) => ({ cost_usd: out.costUsd, tool_calls: out.toolCalls, tokens: tokenSum(out) });

export type SideAllowance = { refused: string } | { refused: null; maxTurns: number; timeoutMs: number };

/**
 * Whether a side agent of `role` may start on what is left of the budgets, and within which limits
 * (its turns at most the tool calls left, its time at most the seconds left). A refusal is counted
 * and says which budget cannot cover it.
 */
export function sideAgentAllowance(ctx: Ctx, role: SideRole, want: { maxTurns: number; timeoutMs: number }): SideAllowance {
  const b = ctx.plan.budget;
  const s = ctx.state;
  const last = s.side_agents?.[role];
  const msLeft = b.max_total_seconds * 1000 - elapsedMs(ctx);
  const callsLeft = b.max_total_tool_calls - s.total_tool_calls;
  const costLeft = b.max_total_cost_usd === null ? null : new Decimal(b.max_total_cost_usd).minus(s.total_cost_usd);
  const why =
    msLeft <= 0
      ? `max_total_seconds is used up (${b.max_total_seconds} s)`
      : costLeft?.lte(0)
        ? `max_total_cost_usd is spent ($${s.total_cost_usd} of $${b.max_total_cost_usd})`
        : costLeft && last?.last_cost_usd && costLeft.lt(last.last_cost_usd)
          ? `its last run cost $${last.last_cost_usd}, more than the $${dstr(costLeft)} left of max_total_cost_usd`
          : callsLeft <= 0
            ? `max_total_tool_calls is used up (${s.total_tool_calls} of ${b.max_total_tool_calls})`
            : last?.last_tool_calls && last.last_tool_calls > callsLeft
              ? `its last run made ${last.last_tool_calls} tool calls, more than the ${callsLeft} left of max_total_tool_calls`
              : null;
  if (why) {
    sideUse(s, role).refused++;
    return { refused: `the ${role} was not started: ${why}` };
  }
  return { refused: null, maxTurns: Math.min(want.maxTurns, callsLeft), timeoutMs: Math.min(want.timeoutMs, msLeft) };
}
