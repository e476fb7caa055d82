import { costUse, count, num, usd } from '../../src/engine/common/display.js';

test('num: integers as they are, others to about four significant digits, never an exponent for everyday sizes', () => {
  expect(num('0.005571030640668523676880222841225626740947')).toBe('0.005571');
  expect(num('0.6666666666666666666666666666666666666667')).toBe('0.6667');
  expect(num('12.3456')).toBe('12.35');
  expect(num('123456.789')).toBe('123457');
  expect(num('3')).toBe('3');
  expect(num('999999999')).toBe('999999999');
  expect(num('123456789012345678901234567890123456789012.5')).toBe('1.235e+41');
  expect(num('-98765432109876543210')).toBe('-9.877e+19');
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

test('count: as it is below 10,000, then thousands or millions for a narrow cell', () => {
  expect(count(1250)).toBe('1250');
  expect(count(12_345)).toBe('12.3k');
  expect(count(999_960)).toBe('1.00M');
  expect(count(1_234_567)).toBe('1.23M');
  expect(count(null, '—')).toBe('—');
});
