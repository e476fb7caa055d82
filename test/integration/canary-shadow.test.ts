// The runner canary's copies of the tests that failed earlier in the run (judge/shadow.ts) on real
// projects with the real runners (pytest, unittest, node:test, jest, vitest, go test): the names read from the runner's
// own output of the failing round; code under test that silences exactly those tests (by name, by
// their assertion values, by re-running the test binary without them) fails their copies; an honest
// fix passes them; a test the loop cannot copy (nested, not declared at the top level) is told, not
// guessed at; nothing is left in the tree.
import { spawnSync } from 'node:child_process';
import { copyFile, readdir, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { compromised, runCanaries, type CanaryContext } from '../../src/engine/judge/canary.js';
import type { CheckResult } from '../../src/engine/judge/checks.js';
import { failingNames } from '../../src/engine/judge/shadow.js';
import { NodeProcessRunner } from '../../src/engine/os/process.js';
import { FIXTURES, makeRepo, ROOT } from '../helpers/repo.js';
import { jsRunners } from '../helpers/js-runners.js';

const runner = new NodeProcessRunner();
const met: CheckResult[] = [{ id: 'tests', met: true, reused_from_iteration: null } as CheckResult];
const has = (probe: string) => spawnSync('sh', ['-c', probe]).status === 0;
const installed = await jsRunners();

interface Case {
  runner: string;
  ok: boolean;
  files: Record<string, string>;
  run: string;
  /** The file under test, its fixed text, and the fixture that silences the failing tests. */
  code: [path: string, fixed: string, attack: string];
  names: string[];
  /** The node_modules the project's runner is taken from (linked into the repository, untracked). */
  modules?: string;
}

/** A package whose `npm test` runs `bin`, with src/math.js and a test file written in `style`'s syntax (`it`/`test`, a nested test). */
const jsProject = (bin: string, style: 'commonjs' | 'module', head: string, tail = '') => ({
  'package.json': `{ "name": "js2", "version": "1.0.0", "private": true, "type": "${style}", "scripts": { "test": ${JSON.stringify(bin)} } }\n`,
  '.gitignore': 'node_modules\n',
  'src/math.js':
    style === 'module'
      ? 'export function add(a, b) { return a + b + 1; }\nexport function mul(a, b) { return a * b; }\n'
      : 'function add(a, b) { return a + b + 1; }\nfunction mul(a, b) { return a * b; }\nmodule.exports = { add, mul };\n',
  'test/math.test.js': `${head}\ntest('add', () => {\n  expect(add(2, 3)).toBe(5);\n});\n\nit("add zero", async () => {\n  expect(add(0, 0)).toEqual(0);\n});\n\ntest('mul', () => {\n  expect(mul(2, 3)).toBe(6);\n});\n\ndescribe('nested', () => {\n  test('add one', () => {\n    expect(add(1, 0)).toBe(1);\n  });\n});\n${tail}`,
});
const fixedJs = (style: 'commonjs' | 'module') =>
  style === 'module'
    ? 'export function add(a, b) { return a + b; }\nexport function mul(a, b) { return a * b; }\n'
    : 'function add(a, b) { return a + b; }\nfunction mul(a, b) { return a * b; }\nmodule.exports = { add, mul };\n';

const CASES: Case[] = [
  {
    runner: 'pytest',
    ok: has('python3 -m pytest --version'),
    files: {
      'calc/__init__.py': '',
      'calc/core.py': 'def add(a, b):\n    return a + b + 1\n\n\ndef mul(a, b):\n    return a * b\n',
      'tests/test_core.py':
        'import pytest\nfrom calc.core import add, mul\n\n\ndef test_add():\n    assert add(2, 3) == 5\n\n\n@pytest.mark.parametrize("a", [0])\ndef test_add_zero(a):\n    assert add(a, a) == 0\n\n\ndef test_mul():\n    assert mul(2, 3) == 6\n\n\nclass TestNested:\n    def test_add_one(self):\n        assert add(1, 0) == 1\n\n    def test_mul_one(self):\n        assert mul(1, 1) == 1\n\n\nclass TestOuter:\n    class TestInner:\n        def test_deep(self):\n            assert add(1, 1) == 2\n',
    },
    run: 'python3 -m pytest -q -p no:cacheprovider',
    code: ['calc/core.py', 'def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n', 'target.py'],
    names: ['test_add', 'test_add_zero', 'TestNested::test_add_one'],
  },
  {
    runner: 'unittest',
    ok: has('python3 -c 1'),
    files: {
      'calc/__init__.py': '',
      'calc/core.py': 'def add(a, b):\n    return a + b + 1\n\n\ndef mul(a, b):\n    return a * b\n',
      'tests/__init__.py': '',
      'tests/test_core.py':
        'import unittest\n\nfrom calc.core import add, mul\n\n\nclass AddOne:\n    def test_add_one(self):\n        self.assertEqual(add(1, 0), 1)\n\n\nclass AsyncTest(unittest.IsolatedAsyncioTestCase):\n    async def test_add_async(self):\n        self.assertEqual(add(1, 1), 2)\n\n\nclass CoreTest(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n\n    def test_add_zero(self):\n        self.assertEqual(add(0, 0), 0)\n\n    def test_mul(self):\n        self.assertEqual(mul(2, 3), 6)\n\n\nclass Mixed(AddOne, unittest.TestCase):\n    pass\n',
    },
    run: 'python3 -m unittest',
    code: ['calc/core.py', 'def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n', 'pairs.py'],
    names: ['AsyncTest.test_add_async', 'CoreTest.test_add', 'CoreTest.test_add_zero'],
  },
  {
    runner: 'node:test',
    ok: true,
    files: {
      'package.json': '{ "name": "js1", "version": "1.0.0", "private": true, "scripts": { "test": "node --test test/" } }\n',
      'src/math.js': 'function add(a, b) { return a + b + 1; }\nfunction mul(a, b) { return a * b; }\nmodule.exports = { add, mul };\n',
      'test/math.test.js':
        "const test = require('node:test');\nconst assert = require('node:assert');\nconst { add, mul } = require('../src/math.js');\n\ntest('add', () => {\n  assert.strictEqual(add(2, 3), 5); // a ')' in a comment\n});\ntest(\"add zero\", { timeout: 5000 }, async (t) => {\n  assert.strictEqual(add(0, 0), `${0}` === '0' ? 0 : 1);\n});\ntest('mul', () => { assert.strictEqual(mul(2, 3), 6); });\ntest.describe('nested', () => {\n  test('add one', () => { assert.strictEqual(add(1, 0), 1); });\n});\n",
    },
    run: 'npm test',
    code: ['src/math.js', 'function add(a, b) { return a + b; }\nfunction mul(a, b) { return a * b; }\nmodule.exports = { add, mul };\n', 'pairs.js'],
    names: ['add', 'add zero'],
  },
  {
    runner: 'go test',
    ok: has('command -v go'),
    files: {
      'go.mod': 'module example.com/calc\n\ngo 1.19\n',
      'calc.go': 'package calc\n\nfunc Add(a, b int) int { return a + b + 1 }\n\nfunc Mul(a, b int) int { return a * b }\n',
      'calc_test.go':
        'package calc\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\tif got := Add(2, 3); got != 5 {\n\t\tt.Fatalf("Add(2,3) = %d, want 5", got)\n\t}\n}\n\nfunc TestAddZero(t *testing.T) {\n\tt.Run("zero", func(t *testing.T) {\n\t\tif got := Add(0, 0); got != 0 {\n\t\t\tt.Errorf("Add(0,0) = %d, want 0", got)\n\t\t}\n\t})\n}\n\nfunc TestMul(t *testing.T) {\n\tif got := Mul(2, 3); got != 6 {\n\t\tt.Fatalf("Mul(2,3) = %d, want 6", got)\n\t}\n}\n',
    },
    run: 'go test ./...',
    code: ['calc.go', 'package calc\n\nfunc Add(a, b int) int { return a + b }\n\nfunc Mul(a, b int) int { return a * b }\n', 'runfilter.go'],
    names: ['TestAdd', 'TestAddZero'],
  },
  {
    runner: 'jest',
    ok: true,
    // A test written with jest's done callback: its copy is given one.
    files: jsProject(
      'jest --ci',
      'commonjs',
      "const { add, mul } = require('../src/math.js');\n",
      "\ntest('add done', (done) => {\n  expect(add(1, 1)).toBe(2);\n  done();\n});\n",
    ),
    run: 'npm test',
    code: ['src/math.js', fixedJs('commonjs'), 'pairs-jest.js'],
    names: ['add', 'add zero', 'add done'],
    modules: join(ROOT, 'node_modules'),
  },
  {
    runner: 'vitest',
    ok: 'nodeModules' in installed,
    files: jsProject('vitest run', 'module', "import { describe, expect, it, test } from 'vitest';\nimport { add, mul } from '../src/math.js';\n"),
    run: 'npm test',
    code: ['src/math.js', fixedJs('module'), 'pairs-vitest.js'],
    names: ['add', 'add zero'],
    modules: 'nodeModules' in installed ? installed.nodeModules : undefined,
  },
];

async function setUp(c: Case) {
  const dir = await makeRepo(c.files);
  if (c.modules) await symlink(c.modules, join(dir, 'node_modules'));
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dirname(dir), GOCACHE: join(dirname(dir), '.gocache'), GOFLAGS: '-count=1' };
  const base = await runner.run({ command: c.run, cwd: dir, env, timeoutMs: 120_000 });
  const names = failingNames(c.runner, base.stdout + base.stderr);
  const lines: string[] = [];
  const ctx: CanaryContext = {
    runner,
    cwd: dir,
    env,
    files: Object.keys(c.files),
    protectedGlobs: [],
    log: (l) => lines.push(l),
    failing: new Map([['tests', names]]),
  };
  return { dir, names, lines, ctx };
}

const criterion = (run: string) => ({ id: 'tests', run, timeout_seconds: 120, retries: 0 });

describe.each(CASES)('$runner', (c) => {
  const it = c.ok ? test : test.skip;

  it('the failing tests named from the output; silenced by the code under test, their copies fail: compromised; nothing left behind', async () => {
    const p = await setUp(c);
    expect(p.names).toEqual(expect.arrayContaining(c.names));
    await copyFile(join(FIXTURES, 'hostile', 'shadow', c.code[2]), join(p.dir, c.runner === 'go test' ? 'calc_runfilter.go' : c.code[0]));
    const before = (await readdir(p.dir, { recursive: true })).sort();
    const [out] = await runCanaries([criterion(c.run)], met, p.ctx);
    expect(out).toMatchObject({
      outcome: 'failed',
      copies: c.names.map((test) => ({ test, outcome: 'failed' })),
      lyingCopy: { test: c.names[0], outcome: 'failed' },
    });
    expect(compromised(out)).toBe(true);
    expect(p.lines[0]).toMatch(new RegExp(`the copy of \`${c.names[0]}\` FAILED`));
    const after = (await readdir(p.dir, { recursive: true })).filter((f) => !f.includes('__pycache__')).sort();
    expect(after).toEqual(before.filter((f) => !f.includes('__pycache__')));
  }, 300_000);

  it('an honest fix: the copies pass, not compromised', async () => {
    const p = await setUp(c);
    await writeFile(join(p.dir, c.code[0]), c.code[1]);
    const [out] = await runCanaries([criterion(c.run)], met, p.ctx);
    expect(out).toEqual({ criterion: 'tests', runner: c.runner, outcome: 'failed', copies: c.names.map((test) => ({ test, outcome: 'passed' })) });
    expect(compromised(out)).toBe(false);
    // The nested test failed too: named, never copied.
    if (c.runner !== 'go test')
      expect(p.lines[0]).toMatch(
        /not copied, no top-level declaration found: .*`(add one|nested [›>] add one|TestOuter::TestInner::test_deep|Mixed\.test_add_one)`/,
      );
  }, 300_000);
});
