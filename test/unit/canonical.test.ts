// Canonical JSON: the same value always gives the same bytes; the state's writer that reuses the text
// of frozen records gives exactly those bytes, whatever the records, and a frozen record stays frozen.
import { canonicalJson, canonicalJsonOfRecords, frozen } from '../../src/engine/common/canonical.js';

describe('canonicalJsonOfRecords', () => {
  const record = (i: number) => ({ z: i, a: { list: [i, `x${i}`, { b: null, a: [] }], empty: {} }, s: 'line\nbreak "quoted"', gone: undefined });

  test('the bytes of canonicalJson, with frozen, unfrozen, nested and empty members', () => {
    const value: Record<string, unknown> = {
      rows: [frozen(record(1)), record(2), frozen(record(3))],
      cycles: [],
      mixed: [frozen(record(4)), 'text', 7, null, [frozen(record(5))]],
      strings: ['1', '2'],
      nested: { deep: [frozen(record(6))] },
      n: 3,
      nothing: null,
      skipped: undefined,
    };
    const expected = canonicalJson(value);
    expect(canonicalJsonOfRecords(value)).toBe(expected);
    // Again (the frozen records' text now reused), and after the arrays grew.
    expect(canonicalJsonOfRecords(value)).toBe(expected);
    (value.rows as unknown[]).push(frozen(record(7)));
    (value.cycles as unknown[]).push(frozen(record(8)));
    expect(canonicalJsonOfRecords(value)).toBe(canonicalJson(value));
    expect(canonicalJsonOfRecords({})).toBe(canonicalJson({}));
  });

  test('a frozen record cannot change under its reused text; a fraction is refused as canonicalJson refuses it', () => {
    const r = frozen(record(1));
    expect(() => {
      (r.a.list as unknown[]).push(2);
    }).toThrow(TypeError);
    expect(() => canonicalJsonOfRecords({ rows: [frozen({ x: 0.5 })] })).toThrow(/non-integer number 0.5/);
  });
});
