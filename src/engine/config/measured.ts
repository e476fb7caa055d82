// Which budgets the loop can measure for the chosen agent (docs/glossary.md "Budget"). A budget
// the loop cannot measure never fires: it is reported "not measured" (report, budget_log.json), and
// one the config sets is warned about at the start, never implied to bind.
import type { AgentPresetName } from './config.js';
import type { Budget } from './budget.js';

/** What each preset reports of its own run (agent/usage.ts) and whether it is given a turn limit (presets.ts). */
const REPORTS: Record<AgentPresetName, { cost: 'yes' | 'no' | 'if printed'; toolCalls: boolean; turnLimit: boolean }> = {
  claude: { cost: 'yes', toolCalls: true, turnLimit: true },
  codex: { cost: 'no', toolCalls: true, turnLimit: false },
  gemini: { cost: 'no', toolCalls: true, turnLimit: false },
  aider: { cost: 'yes', toolCalls: false, turnLimit: false },
  command: { cost: 'if printed', toolCalls: false, turnLimit: false },
};

export type UsageBudget = 'max_total_cost_usd' | 'max_tool_calls_per_iteration' | 'max_total_tool_calls';

/** Why each usage budget cannot bind for `preset`; a cost a command may print is known only once it has run. */
export function unmeasurable(preset: AgentPresetName): Partial<Record<UsageBudget, string>> {
  const r = REPORTS[preset];
  return {
    ...(r.cost === 'no' ? { max_total_cost_usd: `the ${preset} CLI reports no cost` } : {}),
    ...(r.toolCalls ? {} : { max_total_tool_calls: `${preset === 'command' ? 'a command agent' : `the ${preset} CLI`} reports no tool calls` }),
    ...(r.turnLimit ? {} : { max_tool_calls_per_iteration: `the ${preset} agent is given no limit within an iteration` }),
  };
}

/** The warnings of a start whose config sets a budget the agent cannot be measured against. */
export function unmeasuredWarnings(preset: AgentPresetName, explicit: readonly (keyof Budget)[]): string[] {
  return Object.entries(unmeasurable(preset))
    .filter(([field]) => explicit.includes(field as UsageBudget))
    .map(([field, why]) => `budget.${field} is set but not measured: ${why}, so it can never end the run`);
}

/**
 * How far each budget was measured, as the report and budget_log.json say it: `used / limit`, or
 * "not measured: why" (a cost a command never printed included).
 */
export function budgetMeasures(
  preset: AgentPresetName,
  b: Budget,
  used: { seconds: number; iterations: string; cost: string | null; toolCalls: number | null; side?: SideAgentsUse },
): { iterations: string; seconds: string; cost_usd: string; tool_calls: string; tool_calls_per_iteration?: string; side_agents?: string } {
  const not = unmeasurable(preset);
  const cost = not.max_total_cost_usd ?? (used.cost === null ? `the ${preset} agent reported no cost` : null);
  const calls = not.max_total_tool_calls ?? (used.toolCalls === null ? `the ${preset} agent reported no tool calls` : null);
  return {
    iterations: used.iterations,
    seconds: `${used.seconds} / ${b.max_total_seconds}`,
    cost_usd: cost ? `not measured: ${cost}` : `${used.cost} / ${b.max_total_cost_usd ?? 'unlimited'}`,
    tool_calls: calls ? `not measured: ${calls}` : `${used.toolCalls} / ${b.max_total_tool_calls}`,
    tool_calls_per_iteration: not.max_tool_calls_per_iteration
      ? `not measured: ${not.max_tool_calls_per_iteration}`
      : `at most ${b.max_tool_calls_per_iteration} turns, given to the agent`,
    ...(sideAgentsLine(used.side) ? { side_agents: sideAgentsLine(used.side)! } : {}),
  };
}

/** The side agents' use, by role (evidence/state.ts side_agents). */
type SideAgentsUse = Partial<Record<string, { runs: number; refused: number; cost_usd: string | null; tool_calls: number | null; tokens: number | null }>>;

/**
 * The side agents' share of the totals above (loop/budget-use.ts), one phrase per role
 * ("critic 2 run(s): $0.5, 3 tool calls"), or null when none was due.
 */
export function sideAgentsLine(side: SideAgentsUse | undefined): string | null {
  const parts = Object.entries(side ?? {}).flatMap(([role, u]) => {
    if (!u) return [];
    const figures = [
      u.cost_usd === null ? null : `$${u.cost_usd}`,
      u.tool_calls === null ? null : `${u.tool_calls} tool calls`,
      u.tokens === null ? null : `${u.tokens} tokens`,
    ];
    const said = figures.filter(Boolean).join(', ');
    return [`${role} ${u.runs} run(s)${said ? `: ${said}` : ', nothing reported'}${u.refused ? `, ${u.refused} not started (budget)` : ''}`];
  });
  return parts.length ? parts.join('; ') : null;
}
