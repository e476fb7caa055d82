import { Decimal } from '../../src/engine/common/decimal.js';
import { distance, isDrifting, measure, snapshot } from '../../src/engine/judge/northstar.js';
import { NorthstarError, parseNorthstar } from '../../src/engine/config/northstar.js';

const TABLE = `# Northstar

Some prose.

| id | metric | current | target | measure |
|---|---|---|---|---|
| residual | failing criteria | 2 | 0 | residual |
| tests | suite passes | 0 | 1 | criterion:tests |
| cov | coverage | 0.5 | 0.9 | \`node -e "console.log(0.75)"\` |
| stars | static | 10 | 20 | |
`;

describe('NORTHSTAR.md', () => {
  test('parses each kind of measure', () => {
    const m = parseNorthstar(TABLE, ['tests']);
    expect(m.map((x) => x.measure.kind)).toEqual(['residual', 'criterion', 'command', 'static']);
    expect(m[2].measure).toEqual({ kind: 'command', run: 'node -e "console.log(0.75)"' });
  });

  test.each([
    ['no table', '# nothing here\n', /no table with the header/],
    ['bad current', TABLE.replace('| 0.5 |', '| half |'), /current "half" is not a Decimal/],
    ['unknown criterion', TABLE, /criterion:tests names no acceptance criterion/],
    ['empty', '| id | metric | current | target | measure |\n|---|---|---|---|---|\n', /no rows/],
    ['cells', TABLE.replace('| stars | static | 10 | 20 | |', '| stars | static | 10 |'), /expected 5 cells/],
  ])('%s is refused with a reason', (_n, text, re) => {
    expect(() => parseNorthstar(text, _n === 'unknown criterion' ? ['lint'] : ['tests'])).toThrow(NorthstarError);
    expect(() => parseNorthstar(text, _n === 'unknown criterion' ? ['lint'] : ['tests'])).toThrow(re);
  });

  test('distance: |c − t| / |t|, and |c| / |baseline| for a zero target (0 when the baseline is 0)', () => {
    const d = (c: string, t: string, b: string) => distance(new Decimal(c), new Decimal(t), new Decimal(b)).toString();
    expect(d('0.75', '0.9', '0.5')).toBe(new Decimal('0.15').div('0.9').toString());
    expect(d('1', '0', '4')).toBe('0.25');
    expect(d('3', '0', '0')).toBe('0');
    expect(d('-2', '-4', '0')).toBe('0.5');
  });

  test('measures are taken from evidence and commands; the total is the Decimal mean', async () => {
    const metrics = parseNorthstar(TABLE, ['tests']);
    const ctx = {
      residual: new Decimal(1),
      criteriaMet: new Map([['tests', true]]),
      runCommand: () => Promise.resolve({ output: 'noise\n0.75\n' }),
    };
    const readings = await Promise.all(metrics.map((m) => measure(m, ctx)));
    expect(readings.map((r) => r.value)).toEqual(['1', '1', '0.75', '10']);
    const snap = snapshot(metrics, readings, new Map([['residual', '2']]));
    expect(snap.readings.map((r) => r.distance)).toEqual(['0.5', '0', new Decimal('0.15').div('0.9').toString(), '0.5']);
    expect(snap.total_distance).toBe(new Decimal('0.5').plus(0).plus(new Decimal('0.15').div('0.9')).plus('0.5').div(4).toString());
  });

  test('a measure command whose last line is not a Decimal is an error, never 0', async () => {
    const [m] = parseNorthstar(TABLE, ['tests']).slice(2);
    const r = await measure(m, { residual: new Decimal(0), criteriaMet: new Map(), runCommand: () => Promise.resolve({ output: '1,5\n' }) });
    expect(r.value).toBeNull();
    expect(r.error).toMatch(/not a Decimal/);
    const snap = snapshot([m], [r], new Map());
    expect(snap.total_distance).toBeNull();
  });

  test('null is not zero: a residual that could not be computed makes the total distance unknown, not a mean of the rest', async () => {
    const metrics = parseNorthstar(TABLE, ['tests']);
    const ctx = { residual: null, criteriaMet: new Map([['tests', true]]), runCommand: () => Promise.resolve({ output: '0.75\n' }) };
    const readings = await Promise.all(metrics.map((m) => measure(m, ctx)));
    expect(readings[0]).toEqual({ id: 'residual', value: null, error: 'the residual could not be computed' });
    const snap = snapshot(metrics, readings, new Map([['residual', '2']]));
    expect(snap.readings[0].distance).toBeNull();
    expect(snap.readings.slice(1).every((r) => r.distance !== null)).toBe(true);
    expect(snap.total_distance).toBeNull();
  });

  test('drift: three strictly rising total distances; an unknown distance breaks the run', () => {
    expect(isDrifting(['0.5', '0.6', '0.7'])).toBe(true);
    expect(isDrifting(['0.9', '0.5', '0.6', '0.7'])).toBe(true);
    expect(isDrifting(['0.5', '0.6'])).toBe(false);
    expect(isDrifting(['0.5', '0.6', '0.6'])).toBe(false);
    expect(isDrifting(['0.5', null, '0.7'])).toBe(false);
    expect(isDrifting([null, '0.5', '0.6'])).toBe(false);
  });
});
