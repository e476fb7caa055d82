import { copyFile, mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { computeResidual, residualFromOutput } from '../../src/engine/judge/residual.js';
import { prepareJunit, readJunit } from '../../src/engine/judge/junit.js';
import { parseConfig } from '../../src/engine/config/config.js';
import { Decimal, parseDecimal } from '../../src/engine/common/decimal.js';
import { FIXTURES } from '../helpers/repo.js';

describe('residual', () => {
  test.each(['', '   ', 'NaN', '1,5', 'Infinity', '0x10', '1e', 'done', '-0.5'])('command output %p is an error, never 0', (text) => {
    expect(residualFromOutput(text.trim() ? `log line\n${text}\n` : text)).toHaveProperty('error');
  });
  test('the last non-empty line is the residual, exactly', () => {
    const r = residualFromOutput('score: ok\n0.1000000000000000000000000001\n\n');
    expect('value' in r && r.value.toString()).toBe('0.1000000000000000000000000001');
  });
  test('parseDecimal refuses anything but a decimal literal', () => {
    expect(parseDecimal('1e-4')?.toString()).toBe('0.0001');
    expect(parseDecimal('1_000')).toBeNull();
  });
  describe('failing_tests_fraction over the JUnit reader', () => {
    const config = parseConfig(
      'version: 2\ngoal: g\nacceptance_criteria: [{id: t, run: "true"}]\ncertificates: [EXACT]\nagent: {use: claude}\nresidual: {metric: failing_tests_fraction, junit: "reports/*.xml"}\n',
    );
    const runner = { run: () => Promise.reject(new Error('no command runs for this metric')) };

    /** A check round whose checks wrote `files` (fixture names) into reports/. */
    async function round(files: string[], extra: Record<string, string> = {}) {
      const cwd = await mkdtemp(join(tmpdir(), 'phuc-residual-'));
      const guard = await prepareJunit(cwd, 'reports/*.xml');
      await mkdir(join(cwd, 'reports'));
      for (const f of files) await copyFile(join(FIXTURES, 'junit', f), join(cwd, 'reports', f));
      for (const [f, text] of Object.entries(extra)) await writeFile(join(cwd, 'reports', f), text);
      return computeResidual(config, [], { runner, cwd, env: {}, junit: await readJunit(cwd, 'reports/*.xml', guard) });
    }

    test('node:test top-level <testcase>s count (they once counted as nothing): exactly 4 of 10', async () => {
      const r = await round(['node-test.xml']);
      expect('value' in r && [r.value.toString(), r.detail]).toEqual(['0.4', '4 of 10 tests failing (1 JUnit files)']);
      expect(await round([], { 'top.xml': '<testsuites><testcase name="a"/><testcase name="b"><failure/></testcase></testsuites>' })).toMatchObject({
        detail: '1 of 2 tests failing (1 JUnit files)',
      });
    });

    test.each([
      [['pytest-xunit2.xml'], '0.5', '4 of 8'],
      [['pytest-xunit1.xml'], '0.5', '4 of 8'],
      [['jest-junit.xml'], '0.5', '6 of 12'],
      [['mocha-junit-reporter.xml'], '0.4', '4 of 10'],
      [['go-junit-report.xml'], '0.625', '5 of 8'],
      [['TEST-com.example.MathTest.xml', 'TEST-com.example.MathTest_Deep.xml'], '0.4', '2 of 5'],
      [['vitest.xml'], new Decimal(5).div(11).toString(), '5 of 11'],
    ])('%j: failures and errors over the tests that ran (skipped excluded) = %s', async (files, value, counts) => {
      const r = await round(files);
      expect('value' in r && [r.value.toString(), r.detail]).toEqual([value, `${counts} tests failing (${files.length} JUnit files)`]);
    });

    test('the fraction is exact: 5/11 to the Decimal precision, never a float', async () => {
      const r = await round(['vitest.xml']);
      expect('value' in r && r.value.toString()).toBe('0.4545454545454545454545454545454545454545');
    });

    test('no report, a malformed report, or only skipped tests: an error, never 0', async () => {
      expect(await round([])).toEqual({ error: 'no JUnit XML file matches reports/*.xml; the checks must write them' });
      expect(await round(['node-test.xml'], { 'cut.xml': '<testsuites><testcase name="x">' })).toEqual({
        error: expect.stringMatching(/^reports\/cut\.xml is not well-formed XML/),
      });
      expect(await round([], { 's.xml': '<testsuite><testcase name="x"><skipped/></testcase></testsuite>' })).toEqual({
        error: 'the JUnit files (reports/s.xml) hold no test that ran',
      });
    });
  });
});
