// INTAKE_GOAL and NULL_CHECK: the config and NORTHSTAR.md are read and checked for nulls before
// anything runs (a missing input is EXIT_NEED_INFO, never a guessed default).
import { join } from 'node:path';
import { resolveBudget, type ResolvedBudget } from './budget.js';
import { sha256 } from '../common/canonical.js';
import { ConfigError } from '../common/errors.js';
import { loadConfig, type AgentPresetName, type BudgetOverrides, type LoopConfig } from './config.js';
import { canonicalJson } from '../common/canonical.js';
import { NorthstarError, parseNorthstar, type NorthstarMetric } from './northstar.js';
import { readRegular } from '../os/tree-file.js';

export interface NeedInfo {
  stop_reason: 'NULL_INPUT' | 'HALTING_CRITERIA_MISSING' | 'NORTHSTAR_MISSING' | 'CONFIG_INVALID';
  missing_fields: string[];
  messages: string[];
}

export interface Intake {
  config: LoopConfig;
  configText: string;
  /** See contractHash. */
  contract: string;
  northstar: NorthstarMetric[];
  budget: ResolvedBudget;
}

const HALTING_FIELDS = new Set(['certificates', 'R_p']);
const NULL_FIELDS = new Set(['goal', 'acceptance_criteria', 'version']);

/**
 * The contract a plan is made from: the parsed config without its budget and agent. A resumed loop
 * must have the same contract; a raised budget or another agent is a legitimate continuation.
 */
export function contractHash(config: LoopConfig): string {
  const { budget: _budget, agent, ...contract } = config;
  // What the agent may change is the contract's (a config without it hashes as before).
  return sha256(canonicalJson(agent.may_change ? { ...contract, may_change: agent.may_change } : contract));
}

/** Reads and null-checks the inputs; returns what is missing instead of guessing. */
export async function intake(
  cwd: string,
  configPath: string,
  agentOverride?: AgentPresetName,
  budgetOverrides: BudgetOverrides = {},
  modelOverride?: string,
): Promise<Intake | NeedInfo> {
  let config: LoopConfig;
  let configText: string;
  try {
    configText = (await readRegular(join(cwd, configPath)))?.toString('utf8') ?? '';
    config = await loadConfig(join(cwd, configPath), configPath);
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    const fields = e.problems.map((p) => p.field || configPath);
    const top = fields.map((f) => f.split('.')[0]);
    const stop_reason = top.some((f) => HALTING_FIELDS.has(f))
      ? 'HALTING_CRITERIA_MISSING'
      : top.some((f) => NULL_FIELDS.has(f) || f === configPath)
        ? 'NULL_INPUT'
        : 'CONFIG_INVALID';
    return {
      stop_reason,
      missing_fields: fields,
      messages: e.message
        .split('\n')
        .slice(1)
        .map((l) => l.replace(/^\s*- /, `${configPath}: `)),
    };
  }
  if (agentOverride) config = { ...config, agent: { ...config.agent, use: agentOverride } };
  if (modelOverride) config = { ...config, agent: { ...config.agent, model: modelOverride } };
  // A budget given on the command line (or as an action input) counts as written in the file.
  config = { ...config, budget: { ...config.budget, ...budgetOverrides } };
  if (config.agent.use === 'command' && !config.agent.run)
    return { stop_reason: 'CONFIG_INVALID', missing_fields: ['agent.run'], messages: [`${configPath}: agent.run: is required when agent.use is command`] };
  const northstarText = (await readRegular(join(cwd, config.northstar)))?.toString('utf8');
  if (northstarText === undefined) {
    return {
      stop_reason: 'NORTHSTAR_MISSING',
      missing_fields: ['northstar'],
      messages: [`${config.northstar}: not found; the loop cannot start without its Northstar (run \`phuc-loop init\` for a starting file)`],
    };
  }
  try {
    const northstar = parseNorthstar(
      northstarText,
      config.acceptance_criteria.map((c) => c.id),
    );
    return { config, configText, contract: contractHash(config), northstar, budget: resolveBudget(config) };
  } catch (e) {
    if (!(e instanceof NorthstarError)) throw e;
    return { stop_reason: 'NORTHSTAR_MISSING', missing_fields: ['northstar'], messages: [`${config.northstar}: ${e.message}`] };
  }
}
