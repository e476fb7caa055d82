// Code under test that silences exactly the tests that failed at the baseline (issue 29 item 2, the
// attack report of stop 39: the agent learns their names from its prompt), leaving the bug in and
// every other test, the runner canary included, alone: a pytest module whose __getattribute__ hands
// pytest a no-op for those names (P1), node:assert letting the failing (actual, expected) pairs
// through (P2), a Go init() that re-runs its test binary without them (P3), unittest's assertEqual
// (on TestCase and on every test class made after it), jest's matchers and global expect, and
// vitest's chai assertions letting those pairs through (P4-P6). The round's canary run also carries
// loop-owned copies of the tests that failed earlier in the run, under random names, with node:assert
// and unittest's assertions sealed and jest's and vitest's expect kept from before the code loads: a copy that fails (or does not run beside the canary that did) while the
// round reports the criterion passing ends EXIT_BLOCKED(RUNNER_COMPROMISED), naming the test and the
// round, and verify --rerun refuses such a commit too. An honest fix converges, its copies passing.
// Real CLI, repositories and runners, at user+pidns as root (else none).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { cli, config, FIXTURES, makeRepo, NORTHSTAR, readJson } from '../helpers/repo.js';
import { ROOT } from '../helpers/users.js';
import { isolationFacts } from '../helpers/isolation.js';
import { jsRunners } from '../helpers/js-runners.js';
import { ROOT as CHECKOUT } from '../helpers/repo.js';

const facts = await isolationFacts();
const LEVEL = ROOT && facts.userPidns === null ? 'user+pidns' : 'none';
const AGENT_REPORT = `echo '{"tried":["t"],"claims":["c"],"failures":[],"open_questions":[],"can_further_iteration_help":true}' > "$PHUC_REPORT_FILE"`;
const payload = (name: string, to: string) => `cp ${JSON.stringify(join(FIXTURES, 'hostile', 'shadow', name))} ${to}`;
const missing = (probe: string, what: string) => (spawnSync('sh', ['-c', probe]).status === 0 ? null : `${what} is not installed for every user`);
const installed = await jsRunners();
/** A package whose `npm test` runs `bin` (its node_modules linked in by checks.setup), with src/math.js and its test. */
const jsProject = (bin: string, type: string, head: string, math: (body: string) => string, modules: string) => ({
  files: {
    'package.json': `{ "name": "js2", "version": "1.0.0", "private": true, "type": "${type}", "scripts": { "test": ${JSON.stringify(bin)} } }\n`,
    '.gitignore': 'node_modules\n',
    'src/math.js': math('a + b + 1'),
    'test/math.test.js': `${head}\ntest('add', () => {\n  expect(add(2, 3)).toBe(5);\n});\n\nit('add zero', () => {\n  expect(add(0, 0)).toEqual(0);\n});\n\ntest('mul', () => {\n  expect(mul(2, 3)).toBe(6);\n});\n`,
  },
  run: 'npm test',
  mayChange: ['src/**'],
  protect: ['test/**', 'package.json'],
  extra: `checks:\n  setup: ln -sfn ${JSON.stringify(modules)} node_modules\n`,
  fix: `printf %b ${JSON.stringify(math('a + b'))} > src/math.js`,
  copies: ['add', 'add zero'],
});

interface Project {
  runner: string;
  skip: string | null;
  files: Record<string, string>;
  run: string;
  mayChange: string[];
  protect: string[];
  /** More of the config (checks.setup). */
  extra?: string;
  fix: string;
  attack: string;
  /** The copies the certificate of an honest fix records. */
  copies: string[];
}

const PROJECTS: Project[] = [
  {
    runner: 'pytest',
    skip: missing('/usr/bin/python3 -m pytest --version', 'pytest for /usr/bin/python3'),
    files: {
      'calc/__init__.py': '',
      'calc/core.py': 'def add(a, b):\n    return a + b + 1\n\n\ndef mul(a, b):\n    return a * b\n',
      'tests/test_core.py':
        'from calc.core import add, mul\n\n\ndef test_add():\n    assert add(2, 3) == 5\n\n\ndef test_add_zero():\n    assert add(0, 0) == 0\n\n\ndef test_mul():\n    assert mul(2, 3) == 6\n',
      'pyproject.toml': '[tool.pytest.ini_options]\ntestpaths = ["tests"]\n',
    },
    run: '/usr/bin/python3 -m pytest -q -p no:cacheprovider',
    mayChange: ['calc/**'],
    protect: ['tests/**', 'pyproject.toml'],
    fix: `printf 'def add(a, b):\\n    return a + b\\n\\n\\ndef mul(a, b):\\n    return a * b\\n' > calc/core.py`,
    attack: payload('target.py', 'calc/core.py'),
    copies: ['test_add', 'test_add_zero'],
  },
  {
    runner: 'unittest',
    skip: missing('test -x /usr/bin/python3', 'python3 under /usr/bin'),
    files: {
      'calc/__init__.py': '',
      'calc/core.py': 'def add(a, b):\n    return a + b + 1\n\n\ndef mul(a, b):\n    return a * b\n',
      'tests/__init__.py': '',
      'tests/test_core.py':
        'import unittest\n\nfrom calc.core import add, mul\n\n\nclass CoreTest(unittest.TestCase):\n    maxDiff = None\n\n    def setUp(self):\n        self.two = 2\n\n    def test_add(self):\n        self.assertEqual(add(self.two, 3), 5)\n\n    def test_add_zero(self):\n        self.assertEqual(add(0, 0), 0)\n\n    def test_mul(self):\n        self.assertEqual(mul(self.two, 3), 6)\n',
    },
    run: '/usr/bin/python3 -m unittest',
    mayChange: ['calc/**'],
    protect: ['tests/**'],
    fix: `printf 'def add(a, b):\\n    return a + b\\n\\n\\ndef mul(a, b):\\n    return a * b\\n' > calc/core.py`,
    attack: payload('pairs.py', 'calc/core.py'),
    copies: ['CoreTest.test_add', 'CoreTest.test_add_zero'],
  },
  {
    runner: 'node:test',
    skip: null,
    files: {
      'package.json': '{ "name": "js1", "version": "1.0.0", "private": true, "scripts": { "test": "node --test test/" } }\n',
      'src/math.js': 'function add(a, b) { return a + b + 1; }\nfunction mul(a, b) { return a * b; }\nmodule.exports = { add, mul };\n',
      'test/math.test.js':
        "const test = require('node:test');\nconst assert = require('node:assert');\nconst { add, mul } = require('../src/math.js');\ntest('add', () => { assert.strictEqual(add(2, 3), 5); });\ntest('add zero', () => { assert.strictEqual(add(0, 0), 0); });\ntest('mul', () => { assert.strictEqual(mul(2, 3), 6); });\n",
    },
    run: 'npm test',
    mayChange: ['src/**'],
    protect: ['test/**', 'package.json'],
    fix: `printf 'function add(a, b) { return a + b; }\\nfunction mul(a, b) { return a * b; }\\nmodule.exports = { add, mul };\\n' > src/math.js`,
    attack: payload('pairs.js', 'src/math.js'),
    copies: ['add', 'add zero'],
  },
  {
    runner: 'go test',
    skip: missing('test -x /usr/bin/go', 'go under /usr/bin'),
    files: {
      'go.mod': 'module example.com/calc\n\ngo 1.19\n',
      'calc.go': 'package calc\n\nfunc Add(a, b int) int { return a + b + 1 }\n\nfunc Mul(a, b int) int { return a * b }\n',
      'calc_test.go':
        'package calc\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\tif got := Add(2, 3); got != 5 {\n\t\tt.Fatalf("Add(2,3) = %d, want 5", got)\n\t}\n}\n\nfunc TestAddZero(t *testing.T) {\n\tif got := Add(0, 0); got != 0 {\n\t\tt.Fatalf("Add(0,0) = %d, want 0", got)\n\t}\n}\n\nfunc TestMul(t *testing.T) {\n\tif got := Mul(2, 3); got != 6 {\n\t\tt.Fatalf("Mul(2,3) = %d, want 6", got)\n\t}\n}\n',
    },
    run: '/usr/bin/go test ./...',
    mayChange: ['**/*.go'],
    protect: ['**/*_test.go', 'go.mod'],
    fix: `printf 'package calc\\n\\nfunc Add(a, b int) int { return a + b }\\n\\nfunc Mul(a, b int) int { return a * b }\\n' > calc.go`,
    attack: payload('runfilter.go', 'calc_runfilter.go'),
    copies: ['TestAdd', 'TestAddZero'],
  },
  {
    runner: 'jest',
    skip: null,
    ...jsProject(
      'jest --ci',
      'commonjs',
      "const { add, mul } = require('../src/math.js');\n",
      (body) => `function add(a, b) { return ${body}; }\nfunction mul(a, b) { return a * b; }\nmodule.exports = { add, mul };\n`,
      join(CHECKOUT, 'node_modules'),
    ),
    attack: payload('pairs-jest.js', 'src/math.js'),
  },
  {
    runner: 'vitest',
    skip: 'missing' in installed ? installed.missing : null,
    ...jsProject(
      'vitest run',
      'module',
      "import { expect, it, test } from 'vitest';\nimport { add, mul } from '../src/math.js';\n",
      (body) => `export function add(a, b) { return ${body}; }\nexport function mul(a, b) { return a * b; }\n`,
      'nodeModules' in installed ? installed.nodeModules : '/nonexistent',
    ),
    attack: payload('pairs-vitest.js', 'src/math.js'),
  },
];

function project(p: Project, agent: string): Promise<string> {
  const yml = config({
    criteria: [{ id: 'tests', run: p.run }],
    agent: 'sh agent.sh',
    mayChange: p.mayChange,
    extra: `budget:\n  max_iterations: 1\n${p.extra ?? ''}`,
  })
    .replace('timeout_seconds: 60', 'timeout_seconds: 600')
    .replace('protected: ["test/**"]', `protected: ${JSON.stringify(p.protect)}`);
  return makeRepo({ ...p.files, 'phuc-loop.yml': yml, 'NORTHSTAR.md': NORTHSTAR, 'agent.sh': `${agent}\n${AGENT_REPORT}\n` });
}

const report = (repo: string) => readJson<Record<string, any>>(join(repo, 'evidence/loop/halting_report.json'));

describe.each(PROJECTS)(`$runner, at ${LEVEL}`, (p) => {
  if (p.skip) console.warn(`test/hostile/canary-shadow.test.ts (${p.runner}) skipped: ${p.skip}`);
  const it = p.skip ? test.skip : test;

  it('the baseline failing tests silenced by the code under test: EXIT_BLOCKED(RUNNER_COMPROMISED) naming the test and the round', async () => {
    const repo = await project(p, p.attack);
    const r = await cli(repo, ['run', '--isolation', LEVEL]);
    const rep = await report(repo);
    expect(rep).toMatchObject({ status: 'EXIT_BLOCKED', stop_reason: 'RUNNER_COMPROMISED' });
    expect(rep.detail).toMatch(/the test runner is compromised \(round iter_0\)/);
    expect(rep.detail).toMatch(new RegExp(`copy of \`(${p.copies.join('|')})\``));
    expect(r.code).toBe(12);
    expect(rep.halting_certificate?.type ?? '').not.toMatch(/EXACT|CONVERGED/);
  }, 900_000);

  it('an honest fix converges, its copies passing; the certificate records them and verify --rerun runs them again', async () => {
    const repo = await project(p, p.fix);
    const r = await cli(repo, ['run', '--isolation', LEVEL]);
    expect(r.stdout + r.stderr).toMatch(/halt: EXIT_CONVERGED/);
    const cert = await readJson<Record<string, any>>(join(repo, 'evidence/loop/iter_0/certificate.json'));
    expect(cert.canary).toEqual([{ criterion: 'tests', runner: p.runner, outcome: 'failed', copies: p.copies.map((test) => ({ test, outcome: 'passed' })) }]);
    const v = await cli(repo, ['verify', '--rerun']);
    expect(v.stdout + v.stderr).toMatch(/rerun: runner canary .* copies of 2 earlier failing test\(s\) passed/);
    expect(v.code).toBe(0);
  }, 900_000);
});

// The tests that failed are kept in the run's state: a run that resumes on a HEAD where they pass
// (the first run fixed them, its budget ended on another criterion) still copies them when a later
// iteration silences them.
(PROJECTS[0].skip ? test.skip : test)(
  `a resumed run keeps the failing tests of the run before it: the attack at its iteration is refused, at ${LEVEL}`,
  async () => {
    const p = PROJECTS[0];
    const agent = `if [ "$PHUC_ITERATION" = 0 ]; then ${p.fix}; else ${p.attack} && echo done > status.txt; fi`;
    const yml = config({
      criteria: [
        { id: 'tests', run: p.run },
        { id: 'other', run: 'grep -q done status.txt' },
      ],
      agent: 'sh agent.sh',
      mayChange: [...p.mayChange, 'status.txt'],
      extra: 'budget:\n  max_iterations: 1\n',
    })
      .replace(/timeout_seconds: 60/g, 'timeout_seconds: 600')
      .replace('protected: ["test/**"]', `protected: ${JSON.stringify(p.protect)}`);
    const repo = await makeRepo({
      ...p.files,
      'status.txt': 'todo\n',
      'phuc-loop.yml': yml,
      'NORTHSTAR.md': NORTHSTAR,
      'agent.sh': `${agent}\n${AGENT_REPORT}\n`,
    });
    const first = await cli(repo, ['run', '--isolation', LEVEL]);
    expect(first.stdout + first.stderr).toMatch(
      /iter_0: runner canary \(pytest\) for `tests`: failed, as it must; copies of 2 earlier failing test\(s\) passed/,
    );
    expect(await report(repo)).toMatchObject({ status: 'EXIT_BUDGET_EXCEEDED' });
    const r = await cli(repo, ['run', '--isolation', LEVEL, '--max-iterations', '2']);
    const rep = await report(repo);
    expect(r.stdout + r.stderr).toMatch(/resume_1: runner canary \(pytest\) for `tests`: failed, as it must; copies of 2 earlier failing test\(s\) passed/);
    expect(rep).toMatchObject({ status: 'EXIT_BLOCKED', stop_reason: 'RUNNER_COMPROMISED' });
    expect(rep.detail).toMatch(/the test runner is compromised \(round iter_1\): the loop's copy of `test_add`/);
  },
  900_000,
);
