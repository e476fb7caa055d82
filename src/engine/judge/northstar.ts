// NORTHSTAR.md (SPEC §3): one markdown table of metrics, re-measured every iteration.
// distance_i = |current − target| / |target|; for a zero target, |current| / |baseline| (0 when the
// baseline is 0). The total distance is the mean; all of it in Decimal.
import { Decimal, dstr, parseDecimal } from '../common/decimal.js';
import { isDiverging } from './certificate.js';

export type Measure = { kind: 'static' } | { kind: 'command'; run: string } | { kind: 'residual' } | { kind: 'criterion'; id: string };

export interface NorthstarMetric {
  id: string;
  metric: string;
  current: string;
  target: string;
  measure: Measure;
}

export class NorthstarError extends Error {}

const HEADER = ['id', 'metric', 'current', 'target', 'measure'];

function cells(line: string): string[] {
  const body = line.trim().replace(/^\|/, '').replace(/\|$/, '');
  return body.split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, '|'));
}

function parseMeasure(text: string, row: number): Measure {
  const m = text.replace(/^`(.*)`$/, '$1').trim();
  if (m === '') return { kind: 'static' };
  if (m === 'residual') return { kind: 'residual' };
  const crit = /^criterion:([A-Za-z0-9][A-Za-z0-9_.-]*)$/.exec(m);
  if (crit) return { kind: 'criterion', id: crit[1] };
  if (m.startsWith('criterion:')) throw new NorthstarError(`row ${row}: measure "${m}" names no valid criterion id`);
  return { kind: 'command', run: m };
}

/** Parses the first table whose header is `| id | metric | current | target | measure |`. */
export function parseNorthstar(text: string, criterionIds: readonly string[] = []): NorthstarMetric[] {
  const lines = text.split(/\r?\n/);
  const start = lines.findIndex(
    (l) =>
      l.trim().startsWith('|') &&
      cells(l)
        .map((c) => c.toLowerCase())
        .join(',') === HEADER.join(','),
  );
  if (start < 0) throw new NorthstarError('no table with the header | id | metric | current | target | measure |');
  if (!/^\s*\|?\s*:?-{3,}/.test(lines[start + 1] ?? '')) throw new NorthstarError('the table header is not followed by a |---| separator row');
  const metrics: NorthstarMetric[] = [];
  for (let i = start + 2; i < lines.length && lines[i].trim().startsWith('|'); i++) {
    const row = i + 1;
    const c = cells(lines[i]);
    if (c.length !== 5) throw new NorthstarError(`line ${row}: expected 5 cells, found ${c.length}`);
    const [id, metric, current, target, measure] = c;
    if (!/^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(id)) throw new NorthstarError(`line ${row}: id "${id}" must be letters, digits, "_", "." or "-"`);
    if (metrics.some((m) => m.id === id)) throw new NorthstarError(`line ${row}: duplicate id "${id}"`);
    for (const [name, value] of [
      ['current', current],
      ['target', target],
    ] as const)
      if (parseDecimal(value) === null) throw new NorthstarError(`line ${row}: ${name} "${value}" is not a Decimal`);
    const m = parseMeasure(measure, row);
    if (m.kind === 'criterion' && criterionIds.length && !criterionIds.includes(m.id))
      throw new NorthstarError(`line ${row}: measure criterion:${m.id} names no acceptance criterion (known: ${criterionIds.join(', ')})`);
    metrics.push({ id, metric, current: dstr(parseDecimal(current)!), target: dstr(parseDecimal(target)!), measure: m });
  }
  if (metrics.length === 0) throw new NorthstarError('the metrics table has no rows');
  return metrics;
}

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
