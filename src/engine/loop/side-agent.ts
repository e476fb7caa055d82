// An agent run for a side task beside the loop's own steps (the critic, rung 65537's paraphrase):
// the configured CLI as the agent user, in the agent step's sandbox, network policy and key proxy
// (agent-step.ts#spawnAgent). It answers through the report channel or its output, both untrusted
// data; it must not change the work tree, so whatever it changes (files, git settings) is put back.
// It spends from the run's budgets like the agent step (loop/budget-use.ts): not started when what
// is left cannot cover it, its turns and time cut to what is left, what it reports counted.
import { type AgentRun, type AgentSpec, changedSince, snapshotDirty, spawnAgent, userRepos } from '../agent/agent-step.js';
import { takeReport } from '../agent/agent-report.js';
import type { SideRole } from '../evidence/state.js';
import { countUsage, sideAgentAllowance } from '../loop/budget-use.js';
import { agentRunContext, type Ctx } from '../loop/context.js';

export interface SideAgentRun {
  run: AgentRun;
  /** What it wrote to PHUC_REPORT_FILE (null when nothing), read before its edits were put back. */
  report: string | null;
  /** The paths and git settings it changed, put back. */
  reverted: string[];
}

export async function runSideAgent(
  ctx: Ctx,
  o: { spec: AgentSpec; prompt: string; capsule: string; iteration: number; timeoutMs: number; role: string; budget: SideRole },
): Promise<SideAgentRun | { refused: string }> {
  const { budget, ...step } = o;
  const allowed = sideAgentAllowance(ctx, budget, { maxTurns: o.spec.maxTurns, timeoutMs: o.timeoutMs });
  if (allowed.refused !== null) return { refused: allowed.refused };
  const before = await snapshotDirty(ctx.git, ctx.cwd);
  const settings = await ctx.git.snapshotSettings();
  const run = await spawnAgent({
    ...agentRunContext(ctx),
    ...step,
    spec: { ...o.spec, maxTurns: allowed.maxTurns },
    timeoutMs: allowed.timeoutMs,
    protect: userRepos(before.keys()),
  });
  countUsage(ctx.state, run.outcome, budget);
  // Read (never through a link) before its edits are reverted.
  const report = takeReport(ctx.cwd, true);
  const reverted = [...(await ctx.git.restoreSettings(settings)), ...(await changedSince(ctx.git, ctx.cwd, before))];
  if (reverted.length) await ctx.git.restoreFromIndex(reverted.filter((p) => !p.startsWith('.git')));
  return { run, report, reverted };
}
