import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { junitFiles, residualFromOutput, tallyJunit } from '../../src/engine/residual.js';
import { parseDecimal } from '../../src/engine/decimal.js';

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
  test('JUnit: failures and errors over tests that ran (skipped excluded), nested suites', () => {
    const xml = `<?xml version="1.0"?><testsuites><testsuite name="a"><testcase name="1"/><testcase name="2"><failure message="x"/></testcase>
      <testcase name="3"><skipped/></testcase><testsuite name="inner"><testcase name="4"><error/></testcase></testsuite></testsuite></testsuites>`;
    expect(tallyJunit(xml)).toEqual({ tests: 3, failed: 2, skipped: 1 });
    expect(tallyJunit('<testsuite><testcase name="a"/></testsuite>')).toEqual({ tests: 1, failed: 0, skipped: 0 });
  });
  test('JUnit files are found by glob under its base folder', async () => {
    const d = await mkdtemp(join(tmpdir(), 'phuc-junit-'));
    await mkdir(join(d, 'reports/sub'), { recursive: true });
    await writeFile(join(d, 'reports/a.xml'), '<testsuite/>');
    await writeFile(join(d, 'reports/sub/b.xml'), '<testsuite/>');
    await writeFile(join(d, 'other.xml'), '<testsuite/>');
    expect(await junitFiles(d, 'reports/**/*.xml')).toEqual(['reports/a.xml', 'reports/sub/b.xml']);
  });
});
