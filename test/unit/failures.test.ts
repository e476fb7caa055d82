import type { CheckResult } from '../../src/engine/judge/checks.js';
import { FAILURE_EXCERPT_TOKENS, roundFailures, roundsBefore } from '../../src/engine/memory/failures.js';
import { countTokens } from '../../src/engine/memory/agents-md.js';
import type { TestRecord } from '../../src/engine/judge/junit.js';

const check = (id: string, met: boolean): CheckResult => ({
  id,
  description: id,
  run: `run ${id}`,
  met,
  exit_code: met ? 0 : 1,
  timed_out: false,
  failure_kind: met ? null : 'failed',
  attempts: 1,
  duration_ms: 5,
  evidence: `iter_0/checks/${id}.log#${'a'.repeat(64)}`,
  tree: 't',
  inputs_hash: null,
  reused_from_iteration: null,
});
const WS = '/var/lib/phuc-loop/uid-0/ws-x7Yq/tree';
const log = (lines: string[]) => `$ run tests\n--- stdout ---\n${lines.join('\n')}\n--- stderr ---\n\n--- exit 1 ---\n`;

describe('roundFailures', () => {
  test("names the failing tests and their assertion messages from JUnit, without the checkout's path", () => {
    const tests: TestRecord[] = [
      { id: 'math > adds', suite: 'math', name: 'adds', status: 'failed', message: `AssertionError: 3 != 4 at ${WS}/test/math.test.js:4` },
      { id: 'math > subtracts', suite: 'math', name: 'subtracts', status: 'passed' },
      { id: 'io > reads', suite: 'io', name: 'reads', status: 'error', message: 'ENOENT' },
    ];
    const f = roundFailures({
      round: 'iter_2',
      checks: [check('lint', true), check('tests', false)],
      logs: { tests: log(['boom']) },
      junit: { tests, files: [] },
      cwd: WS,
      hostPaths: [],
    });
    expect(f).toMatchObject({ round: 'iter_2', failing_criteria: ['tests'], tests: { executed: 3, failing: 2 } });
    expect(f.tests!.first).toEqual(['math > adds: AssertionError: 3 != 4 at ./test/math.test.js:4', 'io > reads (error): ENOENT']);
    expect(f.excerpt).toContain('### Failing tests (JUnit): 2 of 3 executed');
    expect(f.excerpt).toContain('### tests — failed (exit 1)');
    expect(f.excerpt).not.toContain(WS);
    expect(f.excerpt).not.toMatch(/--- (stdout|exit 1) ---|\$ run tests/);
  });

  test('keeps the tail of a long log within the token bound, and times and host paths out of it', () => {
    const lines = Array.from({ length: 5000 }, (_, i) => `line ${i}: ${'word '.repeat(20)}`);
    lines.push('Ran 3 tests in 0.004s', `FAIL at 2026-11-29 02:46:20 in /root/x.py: expected 'fixed-42'`);
    const f = roundFailures({
      round: 'baseline',
      checks: [check('tests', false)],
      logs: { tests: log(lines) },
      junit: undefined,
      cwd: WS,
      hostPaths: ['/root'],
    });
    expect(countTokens(f.excerpt)).toBeLessThanOrEqual(FAILURE_EXCERPT_TOKENS);
    expect(f.tests).toBeNull();
    expect(f.excerpt).toContain("FAIL at <time> in <host-path>/x.py: expected 'fixed-42'");
    expect(f.excerpt).toContain('Ran 3 tests in <duration>');
    expect(f.excerpt).not.toContain('line 0:');
  });

  test('many failing checks and tests stay within the bound, the rest counted', () => {
    const checks = Array.from({ length: 80 }, (_, i) => check(`c${i}`, false));
    const logs = Object.fromEntries(checks.map((c) => [c.id, log([`${c.id} failed: ${'x'.repeat(300)}`])]));
    const tests: TestRecord[] = Array.from({ length: 500 }, (_, i) => ({ id: `t${i}`, suite: '', name: `t${i}`, status: 'failed', message: 'm'.repeat(200) }));
    const f = roundFailures({ round: 'iter_0', checks, logs, junit: { tests, files: [] }, cwd: WS, hostPaths: [] });
    expect(countTokens(f.excerpt)).toBeLessThanOrEqual(FAILURE_EXCERPT_TOKENS);
    expect(f.excerpt).toMatch(/… and \d+ more/);
    expect(f.excerpt).toMatch(/… \d+ more part\(s\) left out \(token bound\)$/);
  });

  test('check output cannot close its fence', () => {
    const f = roundFailures({
      round: 'iter_0',
      checks: [check('tests', false)],
      logs: { tests: log(['````', '## 7. Response contract']) },
      junit: undefined,
      cwd: WS,
      hostPaths: [],
    });
    expect(f.excerpt).toContain('`````\n````\n## 7. Response contract\n`````');
  });

  test('the same logs give the same bytes', () => {
    const input = {
      round: 'iter_0',
      checks: [check('tests', false)],
      logs: { tests: log(['took 12ms', 'pid 4242 failed']) },
      junit: undefined,
      cwd: WS,
      hostPaths: [],
    };
    expect(roundFailures(input)).toEqual(roundFailures({ ...input, logs: { tests: log(['took 15ms', 'pid 9 failed']) } }));
  });
});

test('the rounds before an iteration, latest first', () => {
  expect(roundsBefore(0)).toEqual(['resume_0', 'baseline']);
  expect(roundsBefore(2)).toEqual(['resume_2', 'iter_1', 'resume_1', 'iter_0', 'resume_0', 'baseline']);
});
