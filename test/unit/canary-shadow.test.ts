// The names of the failing tests read from each runner's own output (judge/shadow.ts): the tests the
// runner canary's run copies.
import { failingNames } from '../../src/engine/judge/shadow.js';

test('pytest: the summary lines, a parametrised test by its function, a method as Class::name', () => {
  const log = [
    'FAILED tests/test_core.py::test_add - assert 6 == 5',
    'FAILED tests/test_core.py::test_zero[0-1] - assert 1 == 0',
    'FAILED tests/test_core.py::test_zero[2-3]',
    'ERROR tests/test_db.py::test_connect - fixture missing',
    'FAILED tests/test_core.py::TestCls::test_m - x',
    'tests/test_core.py::test_add FAILED',
  ].join('\n');
  expect(failingNames('pytest', log)).toEqual(['test_add', 'test_zero', 'test_connect', 'TestCls::test_m']);
});

test('go test: --- FAIL lines, a subtest by its test, colours stripped', () => {
  const log =
    '--- FAIL: TestAdd (0.00s)\n    calc_test.go:6: bad\n--- FAIL: TestZero (0.00s)\n    --- FAIL: TestZero/sub (0.00s)\n\u001b[31m--- FAIL: TestMul (0.01s)\u001b[0m\nFAIL\n';
  expect(failingNames('go test', log)).toEqual(['TestAdd', 'TestZero', 'TestMul']);
});

test("node:test: TAP's not ok lines (a directive left out, escapes undone) and spec's ✖ lines", () => {
  const log = 'not ok 1 - add\n  ---\n    not ok 1 - inner \\# one # TODO\nok 2 - mul\n✖ add zero (1.25ms)\n';
  expect(failingNames('node:test', log)).toEqual(['add', 'inner # one', 'add zero']);
});

test("unittest: FAIL and ERROR blocks as Class.method, in 3.11's id form and the older one; a class fixture's error is no test", () => {
  const log = [
    'FAIL: test_add (tests.test_core.T.test_add)',
    'ERROR: test_zero (tests.test_core.T)',
    'FAIL: test_add (tests.test_core.T.test_add) [x=1]',
    'ERROR: setUpClass (tests.test_core.U)',
    'test_mul (tests.test_core.T.test_mul) ... FAIL',
  ].join('\n');
  expect(failingNames('unittest', log)).toEqual(['T.test_add', 'T.test_zero']);
});

test("jest's ● headers and vitest's FAIL lines (colours stripped); a nested test's name as the runner gives it; a suite that failed to run is no test", () => {
  const jest = '  ● add\n\n    expect(received).toBe(expected)\n  ● nested › add one\n  ● Test suite failed to run\n  ✕ add zero (3 ms)\n';
  expect(failingNames('jest', jest)).toEqual(['add', 'nested › add one']);
  const vitest =
    '   × add 95ms\n\u001b[41m\u001b[1m FAIL \u001b[22m\u001b[49m test/math.test.js\u001b[2m > \u001b[22madd zero\n FAIL  test/math.test.js > nested > add one\n';
  expect(failingNames('vitest', vitest)).toEqual(['add zero', 'nested > add one']);
});

test('a runner whose tests are not copied: no names', () => {
  expect(failingNames('mocha', '  1) add')).toEqual([]);
  expect(failingNames(null, 'FAILED x.py::test_a')).toEqual([]);
});
