// An iteration's GLOW (judge/glow.ts), scored from evidence only, and the Northstar windows it
// closes: W = 0 three times in a row, or the Northstar distance rising three times (a drift exit
// for decide()). The entry of AGENTS.md gets the scores.
import { Decimal } from '../common/decimal.js';
import { num } from '../common/display.js';
import { scoreGlow, trailingZeroW } from '../judge/glow.js';
import { isDrifting, type snapshot } from '../judge/northstar.js';
import type { learn } from './learn.js';
import type { Ctx } from './context.js';

export function glowOf(
  ctx: Ctx,
  n: number,
  x: {
    prevMet: Map<string, boolean>;
    met: Map<string, boolean>;
    previousResidual: Decimal | null;
    /** null when the round was not judged. */
    residual: Decimal | null;
    R_p: Decimal | null;
    changed: boolean;
    report: Parameters<typeof scoreGlow>[0]['report'];
    learned: string[];
    ns: ReturnType<typeof snapshot>;
    /** The iteration counts against the budget (decide.ts countsAgainstBudget). */
    counted: boolean;
    entry: ReturnType<typeof learn>['entry'];
  },
) {
  const { state } = ctx;
  const { prevMet, met, previousResidual, residual, R_p, changed, report, learned, ns, counted, entry } = x;
  const glow = scoreGlow({
    iteration: n,
    previouslyMet: prevMet,
    met,
    previousResidual,
    residual,
    R_p,
    diffProduced: changed,
    report,
    newLaneA: learned.filter((f) => f.startsWith('A:') && !state.last_facts.includes(f)).length > 0,
    newLaneB: learned.some((f) => f.startsWith('B:')),
    laneC: report === 'valid',
    previousDistance: state.last_northstar?.total_distance ? new Decimal(state.last_northstar.total_distance) : null,
    distance: ns.total_distance ? new Decimal(ns.total_distance) : null,
    northstar: {
      residual: ctx.intake.northstar.some((m) => m.measure.kind === 'residual'),
      criteria: ctx.intake.northstar.flatMap((m) => (m.measure.kind === 'criterion' ? [m.measure.id] : [])),
    },
  });
  // The Northstar windows skip the iterations a stop cut short before their checks: unmeasured,
  // they neither continue a drift nor break one (and such an iteration fires none).
  const measured = state.rows.slice(state.window.rows).filter((r) => !state.stopped_before_checks.includes(r.iteration));
  const zeroW = counted ? trailingZeroW([...measured, glow]) : 0;
  const drift = zeroW >= 3 ? `W = 0 for ${zeroW} iterations in a row` : null;
  const distances = [...measured.map((r) => r.northstar_distance), ns.total_distance];
  const rising =
    counted && isDrifting(distances)
      ? `northstar distance rose three iterations in a row: ${distances
          .slice(-3)
          .map((d) => num(d))
          .join(' < ')}`
      : null;
  for (const why of [drift, rising])
    if (why) ctx.pendingLogs.push(['northstar_drift.log', `iteration ${n}: ${why}; northstar distance ${num(ns.total_distance, 'unknown')}`]);
  if (glow.warning) entry.failed.push({ lane: 'A', text: `WARNING: ${glow.warning}` });
  entry.glow = { total: glow.total, G: glow.G, L: glow.L, O: glow.O, W: glow.W };
  const previousGlow = state.rows.at(-1);
  entry.glow_delta = previousGlow?.total != null && glow.total !== null ? glow.total - previousGlow.total : null;
  return { glow, drift, rising };
}
