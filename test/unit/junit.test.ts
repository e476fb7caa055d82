import { execFile } from 'node:child_process';
import { copyFile, link, mkdir, mkdtemp, readFile, readdir, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  describeFailures,
  junitFiles,
  parseJunit,
  prepareJunit,
  readJunit,
  suiteIntegrity,
  type TestRecord,
  type TestStatus,
} from '../../src/engine/judge/junit.js';
import { FIXTURES } from '../helpers/repo.js';

const exec = promisify(execFile);
const DIR = join(FIXTURES, 'junit');

async function fixture(name: string): Promise<TestRecord[]> {
  const r = parseJunit(await readFile(join(DIR, name), 'utf8'), name);
  if ('error' in r) throw new Error(r.error);
  return r.tests;
}

function parsed(text: string, file = 'r.xml'): TestRecord[] {
  const r = parseJunit(text, file);
  if ('error' in r) throw new Error(r.error);
  return r.tests;
}

const brief = (tests: TestRecord[]) => tests.map((t) => [t.status, t.id]);

async function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'phuc-junit-'));
}

// Every test of every fixture, in reading order, with its status: the reporters' own outcomes.
const EXPECTED: [string, [TestStatus, string][]][] = [
  ['TEST-com.example.MathTest.xml', []],
  [
    'TEST-com.example.MathTest_Deep.xml',
    [
      ['passed', 'com.example.MathTest > quotes'],
      ['passed', 'com.example.MathTest > adds'],
      ['failed', 'com.example.MathTest > subtracts'],
      ['skipped', 'com.example.MathTest > multiplies'],
      ['error', 'com.example.MathTest > divides'],
      ['passed', 'com.example.MathTest$Deep > deepPasses'],
    ],
  ],
  [
    'go-junit-report.xml',
    [
      ['passed', 'example.com/calc > TestAdd'],
      ['failed', 'example.com/calc > TestSubtract'],
      ['skipped', 'example.com/calc > TestMultiply'],
      ['failed', 'example.com/calc > TestTable'],
      ['passed', 'example.com/calc > TestTable/small'],
      ['failed', 'example.com/calc > TestTable/large'],
      ['passed', 'example.com/calc > TestQuote'],
      ['error', 'example.com/calc/broken > [build failed]'],
      ['error', 'example.com/calc/panics > Failure'],
    ],
  ],
  [
    'jest-junit.xml',
    [
      ['passed', 'top level passes'],
      ['failed', 'top level fails'],
      ['passed', 'math adds'],
      ['failed', 'math subtracts'],
      ['failed', 'math divides'],
      ['skipped', 'math multiplies'],
      ['passed', 'math handles "quotes" & <angles>'],
      ['passed', 'math twice'],
      ['passed', 'math twice #2'],
      ['passed', 'math nested deep passes'],
      ['failed', 'broken setup never runs'],
      ['error', 'Test suite failed to run > broken.test.cjs'],
      ['failed', 'Test suite failed to run > broken.test.cjs #2'],
    ],
  ],
  [
    'mocha-junit-reporter.xml',
    [
      ['passed', 'top level passes'],
      ['failed', 'top level fails'],
      ['passed', 'math adds'],
      ['failed', 'math subtracts'],
      ['failed', 'math divides'],
      ['skipped', 'math multiplies'],
      ['passed', 'math handles "quotes" & <angles>'],
      ['passed', 'math twice'],
      ['passed', 'math twice #2'],
      ['passed', 'math nested deep passes'],
      ['failed', 'broken setup "before all" hook for "never runs"'],
    ],
  ],
  [
    'node-test.xml',
    [
      ['passed', 'top level passes'],
      ['failed', 'top level fails'],
      ['passed', 'math > adds'],
      ['failed', 'math > subtracts'],
      ['failed', 'math > divides'],
      ['skipped', 'math > multiplies'],
      ['passed', 'math > handles &quot;quotes&quot; & <angles>'],
      ['passed', 'math > twice'],
      ['passed', 'math > twice #2'],
      ['passed', 'math > nested > deep passes'],
      ['failed', 'broken setup > never runs'],
    ],
  ],
  [
    'pytest-k.xml',
    [
      ['passed', 'test_math.TestMath > test_adds'],
      ['failed', 'test_math.TestMath > test_subtracts'],
      ['failed', 'test_math.TestMath > test_divides'],
      ['skipped', 'test_math.TestMath > test_multiplies'],
      ['passed', 'test_math.TestMath > test_handles["quotes" & <angles>]'],
      ['passed', 'test_math.TestMath > test_handles[plain]'],
      ['error', 'test_math.TestMath > test_never_runs'],
      ['skipped', 'test_math.TestMath > test_known_bug'],
    ],
  ],
  [
    'pytest-xunit1.xml',
    [
      ['passed', 'test_math > test_top_level_passes'],
      ['failed', 'test_math > test_top_level_fails'],
      ['passed', 'test_math.TestMath > test_adds'],
      ['failed', 'test_math.TestMath > test_subtracts'],
      ['failed', 'test_math.TestMath > test_divides'],
      ['skipped', 'test_math.TestMath > test_multiplies'],
      ['passed', 'test_math.TestMath > test_handles["quotes" & <angles>]'],
      ['passed', 'test_math.TestMath > test_handles[plain]'],
      ['error', 'test_math.TestMath > test_never_runs'],
      ['skipped', 'test_math.TestMath > test_known_bug'],
    ],
  ],
  [
    'pytest-xunit2.xml',
    [
      ['passed', 'test_math > test_top_level_passes'],
      ['failed', 'test_math > test_top_level_fails'],
      ['passed', 'test_math.TestMath > test_adds'],
      ['failed', 'test_math.TestMath > test_subtracts'],
      ['failed', 'test_math.TestMath > test_divides'],
      ['skipped', 'test_math.TestMath > test_multiplies'],
      ['passed', 'test_math.TestMath > test_handles["quotes" & <angles>]'],
      ['passed', 'test_math.TestMath > test_handles[plain]'],
      ['error', 'test_math.TestMath > test_never_runs'],
      ['skipped', 'test_math.TestMath > test_known_bug'],
    ],
  ],
  [
    'vitest-only.xml',
    [
      ['failed', 'broken.test.cjs'],
      ['skipped', 'math.test.cjs > top level passes'],
      ['skipped', 'math.test.cjs > top level fails'],
      ['passed', 'math.test.cjs > math > adds'],
      ['failed', 'math.test.cjs > math > subtracts'],
      ['failed', 'math.test.cjs > math > divides'],
      ['skipped', 'math.test.cjs > math > multiplies'],
      ['passed', 'math.test.cjs > math > handles "quotes" & <angles>'],
      ['passed', 'math.test.cjs > math > twice'],
      ['passed', 'math.test.cjs > math > twice #2'],
      ['passed', 'math.test.cjs > math > nested > deep passes'],
      ['skipped', 'math.test.cjs > broken setup > never runs'],
    ],
  ],
  [
    'vitest.xml',
    [
      ['failed', 'broken.test.cjs'],
      ['passed', 'math.test.cjs > top level passes'],
      ['failed', 'math.test.cjs > top level fails'],
      ['passed', 'math.test.cjs > math > adds'],
      ['failed', 'math.test.cjs > math > subtracts'],
      ['failed', 'math.test.cjs > math > divides'],
      ['skipped', 'math.test.cjs > math > multiplies'],
      ['passed', 'math.test.cjs > math > handles "quotes" & <angles>'],
      ['passed', 'math.test.cjs > math > twice'],
      ['passed', 'math.test.cjs > math > twice #2'],
      ['passed', 'math.test.cjs > math > nested > deep passes'],
      ['skipped', 'math.test.cjs > broken setup > never runs'],
      ['failed', 'math.test.cjs > broken setup'],
    ],
  ],
];

describe('JUnit reports of the common runners', () => {
  test('every fixture is listed here', async () => {
    const files = (await readdir(DIR)).filter((f) => f.endsWith('.xml')).sort();
    expect(files).toEqual(EXPECTED.map(([f]) => f));
  });

  test.each(EXPECTED)('%s: every test, its id and status', async (file, expected) => {
    expect(brief(await fixture(file))).toEqual(expected);
  });

  test('top-level <testcase>s under <testsuites> are counted (node:test), beside nested suites', async () => {
    const tests = parsed('<testsuites><testcase name="a" classname="test"/><testcase name="b" classname="test"><failure message="x"/></testcase></testsuites>');
    expect(brief(tests)).toEqual([
      ['passed', 'a'],
      ['failed', 'b'],
    ]);
    const node = await fixture('node-test.xml');
    expect(node.filter((t) => t.suite === '').map((t) => t.name)).toEqual(['top level passes', 'top level fails']);
  });

  test('messages, files and suites are read as the reporters wrote them (entities decoded once)', async () => {
    const pick = (tests: TestRecord[], id: string) => tests.find((t) => t.id === id);
    expect(pick(await fixture('pytest-xunit2.xml'), 'test_math.TestMath > test_never_runs')).toEqual({
      id: 'test_math.TestMath > test_never_runs',
      suite: 'pytest',
      name: 'test_never_runs',
      status: 'error',
      message: 'failed on setup with "RuntimeError: setup exploded"',
    });
    expect(pick(await fixture('pytest-xunit1.xml'), 'test_math > test_top_level_fails')).toMatchObject({
      file: 'test_math.py',
      message: 'assert (1 + 1) == 3',
    });
    expect(pick(await fixture('go-junit-report.xml'), 'example.com/calc > TestMultiply')?.message).toBe('calc_test.go:18: "not yet" <see #12>');
    expect(pick(await fixture('TEST-com.example.MathTest_Deep.xml'), 'com.example.MathTest > divides')?.message).toBe(
      'Cannot invoke "Object.toString()" because "o" is null',
    );
    // node:test escapes names twice: one decoding leaves its &quot;, as node meant the name to read.
    expect(pick(await fixture('node-test.xml'), 'math > handles &quot;quotes&quot; & <angles>')).toMatchObject({ suite: 'math', status: 'passed' });
    expect(pick(await fixture('mocha-junit-reporter.xml'), 'math adds')).toMatchObject({ suite: 'math', file: '/tmp/junit-gen/mocha/math.test.cjs' });
    expect(pick(await fixture('jest-junit.xml'), 'Test suite failed to run > broken.test.cjs')?.message).toMatch(/^● Test suite failed to run load failure/);
    const long = pick(await fixture('jest-junit.xml'), 'math divides')!.message!;
    expect(long.length).toBe(200);
    expect(long.endsWith('…')).toBe(true);
  });

  test('a bare <testsuite> root, nested suites, and outcome precedence (error > failure > skipped)', () => {
    const tests = parsed(`<?xml version="1.0" encoding="UTF-8"?>
      <testsuite name="outer"><testcase name="p"/><testcase name="e"><failure/><error message="boom"/></testcase>
        <testcase name="fs"><skipped/><failure message="late"/></testcase><testcase name="s"><skipped message="later"/></testcase>
        <testcase name="flaky"><flakyFailure message="first try"/></testcase>
        <testsuite name="inner"><testsuite name="deeper"><testcase name="d"/></testsuite></testsuite></testsuite>`);
    expect(tests.map((t) => [t.status, t.id, t.message ?? null])).toEqual([
      ['passed', 'outer > p', null],
      ['error', 'outer > e', 'boom'],
      ['failed', 'outer > fs', 'late'],
      ['skipped', 'outer > s', 'later'],
      ['passed', 'outer > flaky', null],
      ['passed', 'outer > inner > deeper > d', null],
    ]);
  });

  test('repeated ids get " #2", " #3" in reading order, also against a name that looks like one', () => {
    const tests = parsed(
      '<testsuite><testcase classname="c" name="t"/><testcase classname="c" name="t #2"/><testcase classname="c" name="t"/><testcase classname="c" name="t"/></testsuite>',
    );
    expect(tests.map((t) => t.id)).toEqual(['c > t', 'c > t #2', 'c > t #3', 'c > t #4']);
  });

  test.each([
    ['truncated', '<testsuites><testsuite name="a"><testcase name="x">', /^r\.xml is not well-formed XML \(line 1: /],
    ['not XML', 'FAIL  src/a.test.ts', /^r\.xml is not well-formed XML/],
    ['empty', '', /^r\.xml is not well-formed XML/],
    ['two roots', '<testsuite/><testsuite/>', /^r\.xml is not well-formed XML \(2 root elements\)$/],
    ['another root', '<html><testcase name="x"/></html>', /^r\.xml is not JUnit XML: its root is neither <testsuites> nor <testsuite>$/],
  ])('malformed (%s) is an error naming the file, never 0 failing', (_what, text, re) => {
    const r = parseJunit(text, 'r.xml');
    expect('error' in r && r.error).toMatch(re);
  });

  test('a DTD is never expanded: entity references stay as written', () => {
    const laughs = `<?xml version="1.0"?><!DOCTYPE t [<!ENTITY a "aaaaaaaaaa">${Array.from({ length: 9 }, (_, i) => `<!ENTITY ${'b'.repeat(i + 1)} "${`&${i ? 'b'.repeat(i) : 'a'};`.repeat(10)}">`).join('')}]>`;
    const tests = parsed(`${laughs}<testsuite name="&bbbbbbbbb;"><testcase name="&a;"/><testcase name="&#x41;&#66;&amp;lt;"/></testsuite>`);
    expect(tests.map((t) => t.id)).toEqual(['&bbbbbbbbb; > &a;', '&bbbbbbbbb; > AB&lt;']);
  });
});

describe('reports of a check round', () => {
  const report = '<testsuites><testcase classname="c" name="ok"/><testcase classname="c" name="bad"><failure message="no"/></testcase></testsuites>';

  test("reports from before the round are removed; the round's own are read", async () => {
    const d = await tempDir();
    await mkdir(join(d, 'reports/sub'), { recursive: true });
    await writeFile(join(d, 'reports/old.xml'), report);
    await writeFile(join(d, 'keep.xml'), report);
    const guard = await prepareJunit(d, 'reports/**/*.xml');
    expect(guard).toMatchObject({ leftovers: [], problems: [] });
    expect(await readdir(join(d, 'reports'))).toEqual(['sub']);
    expect(await readJunit(d, 'reports/**/*.xml', guard)).toEqual({ tests: [], files: [] });
    await writeFile(join(d, 'reports/sub/new.xml'), report);
    const read = await readJunit(d, 'reports/**/*.xml', guard);
    expect(read).toEqual({
      files: ['reports/sub/new.xml'],
      tests: [
        { id: 'c > ok', suite: '', name: 'ok', status: 'passed' },
        { id: 'c > bad', suite: '', name: 'bad', status: 'failed', message: 'no' },
      ],
    });
    expect(await readFile(join(d, 'keep.xml'), 'utf8')).toBe(report);
  });

  test('files are found by glob under its base folder, never inside .git, node_modules, a virtual environment or a cache', async () => {
    const d = await tempDir();
    const never = ['reports/node_modules/c.xml', 'reports/.git/d.xml', 'reports/.venv/lib/f.xml', 'reports/venv/g.xml', 'reports/__pycache__/h.xml'];
    for (const f of ['reports/a.xml', 'reports/sub/b.xml', 'other.xml', 'reports/.e.xml', ...never]) {
      await mkdir(join(d, f, '..'), { recursive: true });
      await writeFile(join(d, f), '<testsuite/>');
    }
    expect(await junitFiles(d, 'reports/**/*.xml')).toEqual({ files: ['reports/.e.xml', 'reports/a.xml', 'reports/sub/b.xml'], problems: [] });
  });

  test('a glob without magic names one file; a glob reaching outside the workspace is refused', async () => {
    const d = await tempDir();
    const guard = await prepareJunit(d, 'reports/junit.xml');
    await mkdir(join(d, 'reports'));
    await writeFile(join(d, 'reports/junit.xml'), report);
    await writeFile(join(d, 'reports/other.xml'), report);
    const r = await readJunit(d, 'reports/junit.xml', guard);
    expect('files' in r && r.files).toEqual(['reports/junit.xml']);
    expect(await readJunit(d, '../*.xml', guard)).toEqual({ error: 'the JUnit glob ../*.xml reaches outside the workspace' });
  });

  test('one malformed report makes the whole read an error naming it', async () => {
    const d = await tempDir();
    const guard = await prepareJunit(d, '*.xml');
    await writeFile(join(d, 'a.xml'), report);
    await writeFile(join(d, 'b.xml'), '<testsuite><testcase name="x">');
    const r = await readJunit(d, '*.xml', guard);
    expect('error' in r && r.error).toMatch(/^b\.xml is not well-formed XML/);
  });

  test('a report that could not be removed is never counted (immutable file)', async () => {
    const d = await tempDir();
    const planted = join(d, 'reports/planted.xml');
    await mkdir(join(d, 'reports'));
    await writeFile(planted, '<testsuite><testcase name="all green"/></testsuite>');
    await exec('chattr', ['+i', planted]);
    try {
      const guard = await prepareJunit(d, 'reports/*.xml');
      expect(guard.leftovers.map((l) => l.path)).toEqual(['reports/planted.xml']);
      await writeFile(join(d, 'reports/real.xml'), report);
      const r = await readJunit(d, 'reports/*.xml', guard);
      expect(r).toEqual({ error: 'reports/planted.xml existed before the checks and could not be removed; it is never counted' });
    } finally {
      await exec('chattr', ['-i', planted]);
    }
  });

  test('a leftover is refused under another name too (same inode), and a file older than the round', async () => {
    const d = await tempDir();
    await writeFile(join(d, 'left.xml'), report);
    await link(join(d, 'left.xml'), join(d, 'alias.xml'));
    const { dev, ino } = await stat(join(d, 'left.xml'));
    const guard = { started: Date.now(), leftovers: [{ path: 'left.xml', dev, ino }], problems: [] };
    const r = await readJunit(d, 'alias.xml', guard);
    expect(r).toEqual({ error: 'alias.xml existed before the checks and could not be removed; it is never counted' });

    const old = await prepareJunit(d, 'reports/*.xml');
    await mkdir(join(d, 'reports'));
    await writeFile(join(d, 'reports/moved-in.xml'), report);
    const anHourAgo = new Date(Date.now() - 3_600_000);
    await utimes(join(d, 'reports/moved-in.xml'), anHourAgo, anHourAgo);
    expect(await readJunit(d, 'reports/*.xml', old)).toEqual({ error: 'reports/moved-in.xml was last modified before the checks began; it is never counted' });
  });

  test('links are never followed: a linked report is refused, a linked folder neither emptied nor read', async () => {
    const d = await tempDir();
    const outside = await tempDir();
    await writeFile(join(outside, 'user.xml'), report);
    const guard = await prepareJunit(d, 'reports/*.xml');
    await mkdir(join(d, 'reports'));
    await symlink(join(outside, 'user.xml'), join(d, 'reports/a.xml'));
    expect(await readJunit(d, 'reports/*.xml', guard)).toEqual({ error: 'reports/a.xml: it is a symbolic link' });

    await rm(join(d, 'reports'), { recursive: true });
    await symlink(outside, join(d, 'reports'));
    const linked = await prepareJunit(d, 'reports/*.xml');
    expect(await readFile(join(outside, 'user.xml'), 'utf8')).toBe(report);
    expect(await readJunit(d, 'reports/*.xml', linked)).toEqual({
      error: 'reports (in the JUnit glob reports/*.xml) is a symbolic link; it is not followed',
    });
  });

  test('a FIFO at a report name is refused without hanging', async () => {
    const d = await tempDir();
    const guard = await prepareJunit(d, '*.xml');
    await exec('mkfifo', [join(d, 'pipe.xml')]);
    expect(await readJunit(d, '*.xml', guard)).toEqual({ error: 'pipe.xml: it is not a regular file' });
  });

  test("the real reporters' files read together: ids unique across files", async () => {
    const d = await tempDir();
    const guard = await prepareJunit(d, 'out/*.xml');
    await mkdir(join(d, 'out'));
    for (const f of ['jest-junit.xml', 'mocha-junit-reporter.xml']) await copyFile(join(DIR, f), join(d, 'out', f));
    const r = await readJunit(d, 'out/*.xml', guard);
    if ('error' in r) throw new Error(r.error);
    expect(r.files).toEqual(['out/jest-junit.xml', 'out/mocha-junit-reporter.xml']);
    expect(r.tests).toHaveLength(13 + 11);
    expect(new Set(r.tests.map((t) => t.id)).size).toBe(24);
    expect(r.tests.filter((t) => t.id.startsWith('math twice')).map((t) => t.id)).toEqual(['math twice', 'math twice #2', 'math twice #3', 'math twice #4']);
  });
});

describe('suite integrity', () => {
  const rec = (id: string, status: TestStatus = 'passed'): TestRecord => ({ id, suite: '', name: id, status });
  const base = [rec('a'), rec('b', 'failed'), rec('c', 'error'), rec('s', 'skipped')];

  test('the same tests, or more: ok', () => {
    expect(suiteIntegrity(base, base, false)).toEqual({
      ok: true,
      executed_before: 3,
      executed_after: 3,
      missing_ids: [],
      reason: '3 tests executed, baseline 3',
    });
    const more = [...base.map((t) => ({ ...t, status: 'passed' as const })), rec('new')];
    expect(suiteIntegrity(base, more, false)).toMatchObject({ ok: true, executed_after: 5, missing_ids: [] });
  });

  test.each([
    ['a test removed', [rec('a'), rec('c', 'error'), rec('s', 'skipped')], 2, ['b']],
    ['a test skipped', [rec('a'), rec('b', 'skipped'), rec('c', 'error'), rec('s', 'skipped')], 2, ['b']],
    ['a test renamed', [rec('a'), rec('b2', 'failed'), rec('c', 'error'), rec('s', 'skipped')], 3, ['b']],
    ['everything but one', [rec('a')], 1, ['b', 'c']],
  ])('%s: caught by count or id', (_what, now, after, missing) => {
    const r = suiteIntegrity(base, now, false);
    expect(r).toMatchObject({ ok: false, executed_before: 3, executed_after: after, missing_ids: missing });
    expect(r.reason).toMatch(
      new RegExp(`^the suite was weakened: ${after} tests executed, baseline 3; ${missing.length} no longer executed: ${missing.join('; ')}$`),
    );
  });

  test('describe.only (real vitest output): the tests outside it are caught, whatever file did it', async () => {
    const r = suiteIntegrity(await fixture('vitest.xml'), await fixture('vitest-only.xml'), false);
    expect(r).toMatchObject({
      ok: false,
      executed_before: 11,
      executed_after: 8,
      missing_ids: ['math.test.cjs > broken setup', 'math.test.cjs > top level fails', 'math.test.cjs > top level passes'],
    });
  });

  test('pytest -k (real output): deselected tests vanish from the report and are caught', async () => {
    const r = suiteIntegrity(await fixture('pytest-xunit2.xml'), await fixture('pytest-k.xml'), false);
    expect(r).toMatchObject({
      ok: false,
      executed_before: 8,
      executed_after: 6,
      missing_ids: ['test_math > test_top_level_fails', 'test_math > test_top_level_passes'],
    });
  });

  test('a repeated test that disappears is caught by its " #2" id', () => {
    expect(suiteIntegrity([rec('t'), rec('t #2')], [rec('t')], false)).toMatchObject({ ok: false, missing_ids: ['t #2'] });
  });

  test('allow_fewer_tests (the human-approved override) records the drop and passes', () => {
    const r = suiteIntegrity(base, [rec('a')], true);
    expect(r).toEqual({
      ok: true,
      executed_before: 3,
      executed_after: 1,
      missing_ids: ['b', 'c'],
      reason: '1 tests executed, baseline 3; 2 no longer executed: b; c (allowed by checks.allow_fewer_tests)',
    });
  });

  test('a long list of missing ids is cut short in the reason, kept whole in missing_ids', () => {
    const many = Array.from({ length: 8 }, (_, i) => rec(`t${i}`));
    const r = suiteIntegrity(many, [], false);
    expect(r.missing_ids).toHaveLength(8);
    expect(r.reason).toBe('the suite was weakened: 0 tests executed, baseline 8; 8 no longer executed: t0; t1; t2; t3; t4; and 3 more');
  });
});

describe('describeFailures', () => {
  test('names the failing tests and why, up to max', async () => {
    const tests = await fixture('pytest-xunit2.xml');
    expect(describeFailures(tests, 2)).toBe(
      '4 of 8 tests fail — test_math > test_top_level_fails: assert (1 + 1) == 3; test_math.TestMath > test_subtracts: assert (2 - 1) == 0; and 2 more',
    );
    expect(describeFailures(tests, 10)).toMatch(/; test_math\.TestMath > test_never_runs \(error\): failed on setup with "RuntimeError: setup exploded"$/);
    expect(
      describeFailures(
        tests.filter((t) => t.status === 'passed'),
        3,
      ),
    ).toBe('no test fails (4 executed)');
  });
});
