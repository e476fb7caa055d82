// The Skeptic's other voices on an iteration's round (iteration.ts), beside the criteria: the
// failure signatures (a detour after a repeated failure, STUCK when it repeats after one), the
// critic's verdict, and the stall counter (escalation, STALLED). What they fire is decide()'s.
import type { Decimal } from '../common/decimal.js';
import { num } from '../common/display.js';
import type { CheckResult } from '../judge/checks.js';
import { critique, failingSignatures } from './skeptic.js';
import { type Ctx, describeAgent } from './context.js';
import type { FiredExit } from '../run/decide.js';
import { trackSignatures, trackStall } from '../run/progress.js';

export async function skepticVoices(
  ctx: Ctx,
  n: number,
  round: { checks: CheckResult[]; residual: Decimal | null; carried: string | null; judged: boolean; diff: PromiseLike<Parameters<typeof critique>[2]> },
) {
  const cfg = ctx.intake.config;
  const { state, o } = ctx;
  const { checks, residual, carried, judged } = round;
  const progress: FiredExit[] = [];
  const failing = await failingSignatures(ctx, checks);
  const progressed = residual !== null && carried !== null && residual.lt(carried);
  const sig = judged ? trackSignatures(state.progress, failing, cfg.detours, n, progressed) : { stuck: [], detour: null };
  const verdict = judged ? await critique(ctx, n, await round.diff, checks) : null;
  const stall =
    judged && residual !== null
      ? trackStall(state.progress, residual, { stallIterations: cfg.stall_iterations, canEscalate: !!cfg.agent.escalate, iteration: n })
      : null;
  if (verdict?.state.state === 'valid' && !verdict.state.verdict.can_further_iteration_help && checks.some((c) => !c.met))
    progress.push({
      kind: 'NO_VIABLE_FIX_PATH',
      reason: `the critic says no further iteration can help${verdict.state.verdict.reason ? `: ${verdict.state.verdict.reason}` : ''}`,
    });
  if (sig.stuck.length) progress.push({ kind: 'STUCK', reason: `the same failure after a detour: ${sig.stuck.map((x) => x.signature).join(', ')}` });
  if (stall?.stalledOut)
    progress.push({
      kind: 'STALLED',
      reason: `no residual below ${num(state.progress.best_residual)} for ${state.progress.stalled} iterations${state.progress.escalated_at !== null ? ' (after escalation)' : ''}`,
    });
  if (stall?.escalate) o.log.info(`iter ${n}: residual stalled for 2 iterations — escalating to ${describeAgent(ctx, n + 1)}`);
  if (sig.detour) o.log.info(`iter ${n}: repeated failure ${sig.detour.repeated.map((d) => d.signature).join(', ')} — detour next iteration`);
  return { progress, failing, sig, verdict, stall };
}
