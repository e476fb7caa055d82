// The phases a host is told of (the PR comment's status line), read off the FSM's transitions so
// that no step of the loop carries a call for a view.
import type { Ctx } from './context.js';
import type { LoopPhase } from './options.js';
import type { State } from '../run/fsm.js';

const PHASES: Partial<Record<State, LoopPhase['phase']>> = { SPAWN_SUBAGENT: 'agent', CHECK_HALTING: 'checks' };

/** Tells the host of each phase the run enters from now on; `resumed`: HEAD is judged for a loop on record. */
export function announcePhases(ctx: Ctx, resumed: boolean): void {
  const host = ctx.o.host;
  if (!host?.phase) return;
  ctx.fsm.onEnter = (s) => {
    const phase = s === 'DREAM_GOAL' ? (resumed ? 'head' : 'baseline') : PHASES[s];
    if (!phase) return;
    try {
      host.phase!({ phase, iteration: ctx.state.next_iteration, goal: ctx.intake.config.goal, rows: [...ctx.state.rows], evidenceRoot: ctx.ev.root });
    } catch (e) {
      ctx.o.log.warn(`the host was not told of the ${phase} phase: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
}
