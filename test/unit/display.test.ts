import { costUse, num, usd } from '../../src/engine/common/display.js';

test('num: integers as they are, others to about four significant digits, never an exponent for everyday sizes', () => {
  expect(num('0.005571030640668523676880222841225626740947')).toBe('0.005571');
  expect(num('0.6666666666666666666666666666666666666667')).toBe('0.6667');
  expect(num('12.3456')).toBe('12.35');
  expect(num('123456.789')).toBe('123457');
  expect(num('3')).toBe('3');
  expect(num('0.25')).toBe('0.25');
  expect(num('1e-4')).toBe('0.0001');
  expect(num('1e-12')).toBe('1e-12');
  expect(num('-0.123456')).toBe('-0.1235');
  expect(num(null)).toBe('n/a');
  expect(num(undefined, 'unknown')).toBe('unknown');
  expect(num('not a number')).toBe('not a number');
});

test('usd: to the cent', () => {
  expect(usd('0.34328799999999999')).toBe('$0.34');
  expect(usd('0.345')).toBe('$0.35');
  expect(usd('25')).toBe('$25.00');
  expect(usd('0.001')).toBe('<$0.01');
  expect(usd('0')).toBe('$0.00');
  expect(costUse('0.34328799999999999 / unlimited')).toBe('$0.34 / unlimited');
  expect(costUse('not reported by the agent')).toBe('not reported by the agent');
});
