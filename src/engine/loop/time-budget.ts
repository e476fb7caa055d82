// budget.max_total_seconds bounds every phase of a run, not only the agent's turn: a check round
// (setup, criteria, canary, residual, replays) is watched by the run's time budget as by any stop
// source, so a check that hangs ends where the budget ends, never at its own (longer) time-out. A
// round cut short that way is a pause (the next run judges that tree again, nothing it ran counts)
// that ends the run EXIT_BUDGET_EXCEEDED(MAX_TOTAL_SECONDS); a long round says it still runs.
import { firstStop } from '../os/stops.js';
import type { FiredExit } from '../run/decide.js';
import type { TerminalState } from '../run/fsm.js';
import type { Clock, Logger, StopSource } from '../os/ports.js';

/** What the time budget reads of a run (a narrow view of the loop's Ctx). */
interface Timed {
  o: { clock: Clock; log: Logger; pollMs?: number };
  plan: { budget: { max_total_seconds: number } };
  previousTotalMs: number;
  startMs: number;
  stops: readonly StopSource[];
}

/** The loop's wall time so far: the earlier runs' and this one's. */
export function elapsedMs(ctx: Timed): number {
  return ctx.previousTotalMs + (ctx.o.clock.monotonicMs() - ctx.startMs);
}

const USED_UP = "the run's time budget is used up";

/** Milliseconds left of budget.max_total_seconds (every run of this loop counts). */
export function timeLeftMs(ctx: Timed): number {
  return ctx.plan.budget.max_total_seconds * 1000 - elapsedMs(ctx);
}

/** The budget's words once it is used up, else null. */
export function timeUsedUp(ctx: Timed): string | null {
  if (timeLeftMs(ctx) > 0) return null;
  return `${USED_UP} (${Math.floor(elapsedMs(ctx) / 1000)} s of ${ctx.plan.budget.max_total_seconds} s, budget.max_total_seconds)`;
}

/** A stop source that asks once the run's time is up (watched by every check round). */
export function timeBudgetStop(ctx: Timed): StopSource {
  return { name: 'max_total_seconds', check: () => Promise.resolve(timeUsedUp(ctx)) };
}

/** Why a round was cut short: the stop source asking, else the time budget, else `fallback`. */
export async function roundStop(ctx: Timed, fallback: string): Promise<string> {
  return (await firstStop(ctx.stops)) ?? timeUsedUp(ctx) ?? fallback;
}

const isTimeUp = (reason: string | null | undefined) => !!reason?.startsWith(USED_UP);

/**
 * A halt that paused for the time budget is the budget's exit: EXIT_BUDGET_EXCEEDED(MAX_TOTAL_SECONDS)
 * with a TIMEOUT certificate, never a BACKPRESSURE pause the user is told to wait out.
 */
export function timeBudgetHalt<T extends { status: TerminalState; stop_reason: string; detail: string; fired: FiredExit[]; certificate?: string }>(h: T): T {
  if (h.stop_reason !== 'BACKPRESSURE_SIGNAL' || !isTimeUp(h.detail)) return h;
  const fired = h.fired.map((f): FiredExit =>
    f.kind === 'BACKPRESSURE' && isTimeUp(f.reason) ? { kind: 'BUDGET', reason: `MAX_TOTAL_SECONDS: ${f.reason}` } : f,
  );
  return {
    ...h,
    status: 'EXIT_BUDGET_EXCEEDED',
    stop_reason: 'MAX_TOTAL_SECONDS',
    fired,
    ...(h.certificate === undefined ? {} : { certificate: 'TIMEOUT' }),
  };
}

/** The final status when the replays were cut short by the time budget (decideFinal paused the run). */
export function timeBudgetFinal<T extends { status: TerminalState; stop_reason: string }>(final: T, interrupted: string | null): T {
  return final.stop_reason === 'BACKPRESSURE_SIGNAL' && isTimeUp(interrupted)
    ? { ...final, status: 'EXIT_BUDGET_EXCEEDED', stop_reason: 'MAX_TOTAL_SECONDS' }
    : final;
}

/**
 * Says every 30 polls (30 s by default, as the agent's turn does) that a round still runs and how
 * much of the time budget is left, so a long check never leaves the console silent. Returns the stop.
 */
export function roundHeartbeat(ctx: Timed, dir: string): () => void {
  const started = ctx.o.clock.monotonicMs();
  const beat = setInterval(
    () => {
      const s = Math.round((ctx.o.clock.monotonicMs() - started) / 1000);
      ctx.o.log.info(`${dir}: checks still running, ${s} s (time budget left: ${Math.max(0, Math.floor(timeLeftMs(ctx) / 1000))} s)`);
    },
    (ctx.o.pollMs ?? 1000) * 30,
  );
  beat.unref();
  return () => clearInterval(beat);
}
