import { Decimal } from '../../src/engine/common/decimal.js';
import { HIGH_GLOW, scoreGlow, trailingZeroW, type GlowInput } from '../../src/engine/judge/glow.js';

const input = (over: Partial<GlowInput>): GlowInput => ({
  iteration: 1,
  previouslyMet: new Map([
    ['a', false],
    ['b', false],
  ]),
  met: new Map([
    ['a', false],
    ['b', false],
  ]),
  previousResidual: new Decimal(2),
  residual: new Decimal(2),
  R_p: new Decimal('1e-4'),
  diffProduced: false,
  report: 'absent',
  newLaneA: false,
  newLaneB: false,
  laneC: false,
  previousDistance: new Decimal(1),
  distance: new Decimal(1),
  northstar: { residual: true, criteria: ['a', 'b'] },
  ...over,
});

describe('GLOW (seed §4.1 tables)', () => {
  test('nothing happened scores 0 everywhere', () => {
    expect(scoreGlow(input({}))).toMatchObject({ G: 0, L: 0, O: 0, W: 0, total: 0 });
  });
  test('G: 25 newly met > 15 residual −30% > 5 artifact', () => {
    expect(
      scoreGlow(
        input({
          met: new Map([
            ['a', true],
            ['b', false],
          ]),
          residual: new Decimal(1),
        }),
      ).G,
    ).toBe(25);
    expect(scoreGlow(input({ previousResidual: new Decimal(10), residual: new Decimal('6.9') })).G).toBe(15);
    expect(scoreGlow(input({ previousResidual: new Decimal(10), residual: new Decimal(7) })).G).toBe(0);
    expect(scoreGlow(input({ diffProduced: true })).G).toBe(5);
  });
  test('L: 25 new Lane A > 15 Lane B > 5 Lane C', () => {
    expect(scoreGlow(input({ newLaneA: true, newLaneB: true, laneC: true })).L).toBe(25);
    expect(scoreGlow(input({ newLaneB: true, laneC: true })).L).toBe(15);
    expect(scoreGlow(input({ laneC: true })).L).toBe(5);
  });
  test('O: 25 diff+report, 15 one, 5 malformed report only', () => {
    expect(scoreGlow(input({ diffProduced: true, report: 'valid' })).O).toBe(25);
    expect(scoreGlow(input({ diffProduced: true })).O).toBe(15);
    expect(scoreGlow(input({ report: 'valid' })).O).toBe(15);
    expect(scoreGlow(input({ report: 'malformed' })).O).toBe(5);
  });
  test('W: 25 below R_p > 20 northstar closer > 15 newly true > 5 residual fell', () => {
    expect(scoreGlow(input({ residual: new Decimal(0) })).W).toBe(25);
    expect(scoreGlow(input({ distance: new Decimal('0.5') })).W).toBe(20);
    expect(
      scoreGlow(
        input({
          met: new Map([
            ['a', true],
            ['b', false],
          ]),
        }),
      ).W,
    ).toBe(15);
    expect(scoreGlow(input({ residual: new Decimal('1.9') })).W).toBe(5);
    expect(scoreGlow(input({ R_p: null, residual: new Decimal(0) })).W).toBe(25);
  });
  test('trailing W = 0 count; an unknown W ends the run of zeros', () => {
    expect(trailingZeroW([{ W: 0 }, { W: 5 }, { W: 0 }, { W: 0 }])).toBe(2);
    expect(trailingZeroW([{ W: 0 }, { W: 0 }, { W: 0 }])).toBe(3);
    expect(trailingZeroW([{ W: 0 }, { W: null }, { W: 0 }])).toBe(1);
  });
  test('null is not zero: without a residual W and the total are unknown, whatever else moved', () => {
    const newlyMet = new Map([
      ['a', true],
      ['b', false],
    ]);
    for (const over of [{}, { met: newlyMet }, { distance: new Decimal('0.5') }]) {
      const g = scoreGlow(input({ ...over, residual: null }));
      expect(g).toMatchObject({ W: null, total: null, residual: null, warning: null });
      expect(g.reasons.W).toMatch(/^unknown/);
    }
  });
  test('W is kept apart from G: a criterion or residual move is a Northstar win only where a metric measures it', () => {
    const newly = new Map([
      ['a', true],
      ['b', false],
    ]);
    expect(scoreGlow(input({ met: newly, northstar: { residual: false, criteria: ['b'] } }))).toMatchObject({ G: 25, W: 0 });
    expect(scoreGlow(input({ residual: new Decimal('1.9'), northstar: { residual: false, criteria: [] } })).W).toBe(0);
  });
  test(`a known W = 0 with a total over ${HIGH_GLOW} is flagged (a warning, not a stop)`, () => {
    const newly = new Map([
      ['a', true],
      ['b', false],
    ]);
    const busy = { met: newly, newLaneA: true, diffProduced: true, report: 'valid' as const };
    const high = scoreGlow(input({ ...busy, northstar: { residual: false, criteria: [] } }));
    expect(high).toMatchObject({ G: 25, L: 25, O: 25, W: 0, total: 75 });
    expect(high.warning).toMatch(/^High GLOW without Northstar alignment \(GLOW 75, W = 0\)/);
    expect(scoreGlow(input({ newLaneA: true, diffProduced: true, report: 'valid' }))).toMatchObject({ W: 0, total: 55, warning: null });
    expect(scoreGlow(input(busy))).toMatchObject({ W: 15, warning: null });
    expect(scoreGlow(input({ ...busy, residual: null })).warning).toBeNull();
  });
});
