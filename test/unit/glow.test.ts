import { Decimal } from '../../src/engine/common/decimal.js';
import { scoreGlow, trailingZeroW, type GlowInput } from '../../src/engine/judge/glow.js';

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
  test('trailing W = 0 count', () => {
    expect(trailingZeroW([{ W: 0 }, { W: 5 }, { W: 0 }, { W: 0 }])).toBe(2);
    expect(trailingZeroW([{ W: 0 }, { W: 0 }, { W: 0 }])).toBe(3);
  });
});
