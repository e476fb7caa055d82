// NORTHSTAR.md (SPEC §3): one markdown table of metrics (id, metric, current, target, measure),
// read at intake; judge/northstar.ts measures them.
import { dstr, parseDecimal } from '../common/decimal.js';

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
