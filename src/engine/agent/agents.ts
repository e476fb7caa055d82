// The agent presets' surface in one import: how each CLI is run and recorded (presets.ts) and what
// its output says about cost, usage, errors and rate limits (usage.ts). Its environment: os/secrets.ts.
import { parseAgentOutcome } from './usage.js';

export {
  AGENT_STATE_EXCLUDES,
  agentInvocation,
  cliVersion,
  describeInvocation,
  PRESET_ENV,
  REPORT_PATH,
  type AgentInvocation,
  type AgentInvocationOptions,
  type AgentPreset,
  type InvocationRecord,
} from './presets.js';
export { isRateLimited, parseAgentOutcome, type AgentOutcome, type AgentOutput, type AgentTokens } from './usage.js';
export { jsonObjectsIn, RawNumber, type Json, type JsonObject } from './raw-json.js';
export { ERROR_TEXT_MAX, lastErrorLine } from './error-words.js';

export interface AgentUsage {
  costUsd: string | null;
  turns: number | null;
  inputTokens: number | null;
  outputTokens: number | null;
}

/** The cost and token figures of any agent's stdout (the shape spawnAgent reads until it takes AgentOutcome). */
export function parseAgentUsage(stdout: string): AgentUsage {
  const o = parseAgentOutcome('command', { stdout, stderr: '', exitCode: 0 });
  return { costUsd: o.costUsd, turns: o.turns, inputTokens: o.tokens?.input ?? null, outputTokens: o.tokens?.output ?? null };
}
