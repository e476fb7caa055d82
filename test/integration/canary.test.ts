// The runner canary (judge/canary.ts) on real projects with the real runners: an honest runner
// reports the loop's failing test as a failure; one made to pass everything (a conftest.py hook that
// turns failures into passes, code under test that forces the exit status) reports it as a pass.
import { execFile } from 'node:child_process';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { compromised, probeCanary, recogniseRunner, runCanaries, type CanaryContext } from '../../src/engine/judge/canary.js';
import type { CheckResult } from '../../src/engine/judge/checks.js';
import type { Criterion } from '../../src/engine/config/config.js';
import { NodeProcessRunner } from '../../src/engine/os/process.js';
import { jsRunners } from '../helpers/js-runners.js';
import { makeRepo, ROOT } from '../helpers/repo.js';

const sh = promisify(execFile);
const runner = new NodeProcessRunner();
const hasPytest = await sh('python3', ['-m', 'pytest', '--version']).then(
  () => true,
  () => false,
);

const installed = await jsRunners();
if ('missing' in installed) console.warn(`test/integration/canary.test.ts (vitest, mocha) skipped: ${installed.missing}`);

const criterion = (run: string): Criterion => ({ id: 'tests', run, timeout_seconds: 120, retries: 0 });
const met: CheckResult[] = [{ id: 'tests', met: true, reused_from_iteration: null } as CheckResult];

async function project(files: Record<string, string>): Promise<{ dir: string; ctx: CanaryContext; steps: string[]; lines: string[] }> {
  const dir = await makeRepo(files);
  const steps: string[] = [];
  const lines: string[] = [];
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dirname(dir) };
  return {
    dir,
    steps,
    lines,
    ctx: { runner, cwd: dir, env, files: Object.keys(files), protectedGlobs: ['tests/**', 'test/**'], after: (s) => steps.push(s), log: (l) => lines.push(l) },
  };
}

const PY_TEST = 'import unittest\nimport calc\n\n\nclass TestCalc(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(calc.add(1, 2), 3)\n';

test('unittest: the canary fails under an honest runner, passes when the code under test forces exit 0, and leaves nothing behind', async () => {
  const honest = await project({ 'calc.py': 'def add(a, b):\n    return a + b\n', 'tests/test_calc.py': PY_TEST });
  const run = criterion('python3 -m unittest discover -s tests');
  expect(await runCanaries([run], met, honest.ctx)).toEqual([{ criterion: 'tests', runner: 'unittest', outcome: 'failed' }]);
  expect(honest.steps).toEqual(['the runner canary of `tests`']);
  expect(honest.lines[0]).toMatch(/^runner canary \(unittest\) for `tests`: failed, as it must \(\d+\.\d s\)$/);
  expect((await readdir(join(honest.dir, 'tests'))).filter((f) => f !== '__pycache__')).toEqual(['test_calc.py']);
  const hostile = await project({
    'calc.py': 'import atexit, os\natexit.register(lambda: os._exit(0))\n\n\ndef add(a, b):\n    return a + b\n',
    'tests/test_calc.py': PY_TEST,
  });
  expect(await runCanaries([run], met, hostile.ctx)).toEqual([{ criterion: 'tests', runner: 'unittest', outcome: 'passed' }]);
});

test('a canary reached at an earlier round that no longer runs is compromised; the baseline is probed only when a canary left no mark, and only whether it is reached', async () => {
  const p = await project({ 'calc.py': 'def add(a, b):\n    return a - b\n', 'tests/test_calc.py': PY_TEST });
  const run = criterion('python3 -m unittest discover -s tests');
  const failed = [{ ...met[0], met: false }];
  const reached = new Set<string>();
  expect(await runCanaries([run], failed, { ...p.ctx, reached })).toEqual([]);
  // The baseline (its criterion fails): the probe learns only whether the command reaches the canary.
  expect(await probeCanary(run, p.ctx)).toBe(true);
  expect(p.lines.at(-1)).toMatch(/: reached by the command/);
  // A canary that runs needs no probe of the baseline.
  const probes: string[] = [];
  const baselineReaches = (k: Criterion) => (probes.push(k.id), probeCanary(k, p.ctx));
  await writeFile(join(p.dir, 'calc.py'), 'def add(a, b):\n    return a + b\n');
  expect(await runCanaries([run], met, { ...p.ctx, reached, baselineReaches })).toEqual([{ criterion: 'tests', runner: 'unittest', outcome: 'failed' }]);
  expect(probes).toEqual([]);
  expect([...reached]).toEqual(['tests']);
  // The code under test now ends the process as the test modules import it: no test runs, exit 0.
  await writeFile(join(p.dir, 'calc.py'), 'import os\nos._exit(0)\n');
  const after = await runCanaries([run], met, { ...p.ctx, reached, baselineReaches });
  expect(after).toEqual([{ criterion: 'tests', runner: 'unittest', outcome: 'not_run', reachedBefore: true }]);
  expect(after.filter(compromised)).toHaveLength(1);
  expect(probes).toEqual([]);
  expect(p.lines.at(-1)).toMatch(/NOT RUN, though an earlier round of this run ran it/);
  // Never run in this run: the baseline is asked; where it reaches the canary (here its probe runs
  // on this same, now silent, tree: it does not), the silence is compromised, else said plainly.
  const fresh = await runCanaries([run], met, { ...p.ctx, reached: new Set(), baselineReaches });
  expect(probes).toEqual(['tests']);
  expect(fresh).toEqual([{ criterion: 'tests', runner: 'unittest', outcome: 'not_run' }]);
  expect(fresh.filter(compromised)).toEqual([]);
  expect(p.lines.at(-1)).toMatch(/never reached in this run/);
  const lied = await runCanaries([run], met, { ...p.ctx, reached: new Set(), baselineReaches: () => Promise.resolve(true) });
  expect(lied).toEqual([{ criterion: 'tests', runner: 'unittest', outcome: 'not_run', reachedBefore: true }]);
});

(hasPytest ? test : test.skip)('pytest: a conftest.py hook that turns failures into passes is caught', async () => {
  const files = { 'calc.py': 'def add(a, b):\n    return a + b\n', 'tests/test_calc.py': PY_TEST };
  const run = criterion('python3 -m pytest -q');
  expect(await runCanaries([run], met, (await project(files)).ctx)).toEqual([{ criterion: 'tests', runner: 'pytest', outcome: 'failed' }]);
  const swallow = `import pytest\n\n\n@pytest.hookimpl(hookwrapper=True)\ndef pytest_runtest_makereport(item, call):\n    outcome = yield\n    rep = outcome.get_result()\n    if rep.failed:\n        rep.outcome = "passed"\n`;
  const hostile = await project({ ...files, 'conftest.py': swallow });
  expect(await runCanaries([run], met, hostile.ctx)).toEqual([{ criterion: 'tests', runner: 'pytest', outcome: 'passed' }]);
  // Explicit file lists do not reach a new test file: not run, never called honest or compromised.
  const listed = await project(files);
  expect(await runCanaries([criterion('python3 -m pytest -q tests/test_calc.py')], met, listed.ctx)).toEqual([
    { criterion: 'tests', runner: 'pytest', outcome: 'not_run' },
  ]);
});

test('node:test and jest (through npm test): the canary fails under the honest runner', async () => {
  const node = await project({
    'package.json': JSON.stringify({ name: 'p', version: '1.0.0', scripts: { test: 'node --test' } }),
    'test/add.test.js': "const test = require('node:test');\nconst assert = require('node:assert');\ntest('add', () => assert.strictEqual(1 + 2, 3));\n",
  });
  expect(await runCanaries([criterion('npm -s test')], met, node.ctx)).toEqual([{ criterion: 'tests', runner: 'node:test', outcome: 'failed' }]);
  const jest = await project({
    'package.json': JSON.stringify({ name: 'p', version: '1.0.0', scripts: { unit: `node ${join(ROOT, 'node_modules/jest/bin/jest.js')} --rootDir .` } }),
    'test/add.test.js': "test('add', () => expect(1 + 2).toBe(3));\n",
  });
  expect(await runCanaries([criterion('npm run unit')], met, jest.ctx)).toEqual([{ criterion: 'tests', runner: 'jest', outcome: 'failed' }]);
});

// Code under test that makes the file's assertion a no-op (jest's and vitest's `expect(…).toBe`,
// chai's `to.equal` under mocha): the canary is the neighbouring file with a test appended, so
// its assertion is the no-op too and it passes. Each runner keeps test files apart (jest and
// vitest isolate them, mocha's chai is shared): a canary of its own would have failed.
const JS_CASES = [
  {
    runner: 'jest',
    bin: `node ${join(ROOT, 'node_modules/jest/bin/jest.js')} --rootDir .`,
    type: 'commonjs',
    test: "const { add } = require('../src/calc.js');\n\ntest('add', () => {\n  expect(add(2, 3)).toBe(5);\n});\n",
    calc: 'module.exports.add = (a, b) => a + b;\n',
    noop: "globalThis.expect?.extend({ toBe: () => ({ pass: true, message: () => '' }) });\n",
  },
  {
    runner: 'vitest',
    bin: 'vitest run',
    type: 'module',
    test: "import { test, expect } from 'vitest';\nimport { add } from '../src/calc.js';\n\ntest('add', () => {\n  expect(add(2, 3)).toBe(5);\n});\n",
    calc: 'export const add = (a, b) => a + b;\n',
    noop: "globalThis[Symbol.for('expect-global')]?.extend({ toBe: () => ({ pass: true, message: () => '' }) });\n",
  },
  {
    runner: 'mocha',
    bin: 'mocha',
    type: 'module',
    test: "import { expect } from 'chai';\nimport { add } from '../src/calc.js';\n\nit('adds', () => {\n  expect(add(2, 3)).to.equal(5);\n});\n",
    calc: 'export const add = (a, b) => a + b;\n',
    noop: "import * as chai from 'chai';\n\nchai.Assertion.overwriteMethod('equal', () => function () {});\n",
  },
];

describe.each(JS_CASES)('$runner', (c) => {
  const it = c.runner === 'jest' || 'nodeModules' in installed ? test : test.skip;
  const files = (calc: string) => ({
    'package.json': JSON.stringify({ name: 'p', version: '1.0.0', type: c.type, scripts: { test: c.bin } }),
    'src/calc.js': calc,
    'test/calc.test.js': c.test,
  });
  const link = async (dir: string) => {
    if (c.runner !== 'jest' && 'nodeModules' in installed) await sh('ln', ['-s', installed.nodeModules, join(dir, 'node_modules')]);
  };

  it('the canary, the test file with a test appended, fails under the honest runner and passes when the code under test makes the assertion a no-op', async () => {
    const honest = await project(files(c.calc));
    await link(honest.dir);
    expect(await runCanaries([criterion('npm test')], met, honest.ctx)).toEqual([{ criterion: 'tests', runner: c.runner, outcome: 'failed' }]);
    expect(await readdir(join(honest.dir, 'test'))).toEqual(['calc.test.js']);
    const hostile = await project(files(c.runner === 'mocha' ? `${c.noop}${c.calc}` : `${c.calc}${c.noop}`));
    await link(hostile.dir);
    expect(await runCanaries([criterion('npm test')], met, hostile.ctx)).toEqual([{ criterion: 'tests', runner: c.runner, outcome: 'passed' }]);
  }, 120_000);
});

test('no runner recognised, a criterion that failed or was reused: no canary run', async () => {
  const p = await project({ 'test/check.sh': 'exit 0\n' });
  expect(await runCanaries([criterion('sh test/check.sh')], met, p.ctx)).toEqual([{ criterion: 'tests', runner: null, outcome: 'no_runner' }]);
  expect(p.lines).toEqual(['runner canary for `tests`: no test runner recognised in its command']);
  expect(await runCanaries([criterion('python3 -m pytest')], [{ ...met[0], met: false }], p.ctx)).toEqual([]);
  expect(await runCanaries([criterion('python3 -m pytest')], [{ ...met[0], reused_from_iteration: 2 }], p.ctx)).toEqual([]);
  await mkdir(join(p.dir, 'sub'), { recursive: true });
  await writeFile(join(p.dir, 'sub/package.json'), '{}');
  expect(await recogniseRunner('go test ./...', p.dir)).toBe('go test');
  expect(await recogniseRunner('cd app && npx vitest run', p.dir)).toBe('vitest');
  expect(await recogniseRunner('make test', p.dir)).toBeNull();
});
