// Crash injection for the crash-consistency test (test/integration/crash.test.ts).
import type { Ctx } from './context.js';

/**
 * With PHUC_TEST_CRASH_AT=<point>:<iteration> the loop kills itself (SIGKILL: no cleanup, like an
 * OOM kill or a power loss) at that point.
 */
export function crashPoint(ctx: Ctx, point: string): void {
  if (ctx.o.env.PHUC_TEST_CRASH_AT === `${point}:${ctx.state.next_iteration}`) process.kill(process.pid, 'SIGKILL');
}
