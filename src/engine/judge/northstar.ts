// NORTHSTAR.md's metrics (SPEC §3), re-measured every iteration.
// distance_i = |current − target| / |target|; for a zero target, |current| / |baseline| (0 when the
// baseline is 0). The total distance is the mean; all of it in Decimal.
import { Decimal, dstr, parseDecimal } from '../common/decimal.js';
import { isDiverging } from './certificate.js';
import type { NorthstarMetric } from '../config/northstar.js';

export interface MeasureContext {
  /** null when the residual could not be computed: the metric is then unknown, never 0. */
  residual: Decimal | null;
  criteriaMet: ReadonlyMap<string, boolean>;
  /** Runs a measure command; resolves to its output or null when it failed. */
  runCommand(command: string): Promise<{ output: string } | { error: string }>;
}

export interface MetricReading {
  id: string;
  value: string | null;
  error?: string;
}

export async function measure(metric: NorthstarMetric, ctx: MeasureContext): Promise<MetricReading> {
  const m = metric.measure;
  switch (m.kind) {
    case 'static':
      return { id: metric.id, value: metric.current };
    case 'residual':
      return ctx.residual === null ? { id: metric.id, value: null, error: 'the residual could not be computed' } : { id: metric.id, value: dstr(ctx.residual) };
    case 'criterion':
      return { id: metric.id, value: ctx.criteriaMet.get(m.id) ? '1' : '0' };
    case 'command': {
      const r = await ctx.runCommand(m.run);
      if ('error' in r) return { id: metric.id, value: null, error: r.error };
      const last =
        r.output
          .split(/\r?\n/)
          .map((l) => l.trim())
          .filter(Boolean)
          .pop() ?? '';
      const d = parseDecimal(last);
      return d ? { id: metric.id, value: dstr(d) } : { id: metric.id, value: null, error: `last output line ${JSON.stringify(last)} is not a Decimal` };
    }
  }
}

export function distance(current: Decimal, target: Decimal, baseline: Decimal): Decimal {
  if (!target.isZero()) return current.minus(target).abs().div(target.abs());
  if (baseline.isZero()) return new Decimal(0);
  return current.abs().div(baseline.abs());
}

export interface NorthstarSnapshot {
  readings: { id: string; value: string | null; distance: string | null; error?: string }[];
  /**
   * Mean distance over every metric; null (unknown) when any metric could not be measured: a mean
   * over fewer metrics is not comparable with the last one, and an unknown metric is never a 0.
   */
  total_distance: string | null;
}

export function snapshot(metrics: NorthstarMetric[], readings: MetricReading[], baselines: ReadonlyMap<string, string>): NorthstarSnapshot {
  const rows = metrics.map((metric, i) => {
    const r = readings[i];
    if (r.value === null) return { id: metric.id, value: null, distance: null, error: r.error };
    const base = new Decimal(baselines.get(metric.id) ?? metric.current);
    return { id: metric.id, value: r.value, distance: dstr(distance(new Decimal(r.value), new Decimal(metric.target), base)) };
  });
  const known = rows.every((r) => r.distance !== null);
  const total = known && rows.length ? dstr(rows.reduce((acc, r) => acc.plus(r.distance), new Decimal(0)).div(rows.length)) : null;
  return { readings: rows, total_distance: total };
}

/**
 * Northstar drift by distance: the total distance rose strictly over the last three iterations, as
 * residual divergence is read from the residuals. An unknown distance breaks the run (never a 0).
 */
export function isDrifting(distances: readonly (string | null)[]): boolean {
  const last = distances.slice(-3);
  return last.length === 3 && last.every((d) => d !== null) && isDiverging(last);
}
