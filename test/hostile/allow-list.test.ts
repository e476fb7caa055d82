// The allow-list (issue 29 item 1, SPEC §7): with agent.may_change, every attack class of the issue
// that leaves the protected files alone (a package.json script the criterion runs, a helper the check
// imports, a module named like the standard library, a dist-info, setup.cfg with \r line ends,
// package.json overrides and the lockfile, a script the test script runs) is reverted and ends the
// run GUARDRAIL_VIOLATION with the paths named: no certificate, at user+pidns (the default as root) and
// at none. Without the field the same agents win a certificate (checked once in `protected-only:`).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { cli, config, FIXTURES, git, makeRepo, NORTHSTAR, readJson } from '../helpers/repo.js';
import { ROOT } from '../helpers/users.js';
import { isolationFacts } from '../helpers/isolation.js';

const facts = await isolationFacts();
const LEVELS = ROOT && facts.userPidns === null ? (['user+pidns', 'none'] as const) : (['none'] as const);

const attack = (name: string) => `sh ${JSON.stringify(join(FIXTURES, 'hostile', 'allow-list.sh'))} ${name}`;

const CALC_TEST =
  "import test from 'node:test';\nimport assert from 'node:assert';\nimport { add } from '../src/calc.mjs';\ntest('adds', () => assert.equal(add(2, 3), 5));\n";
const node = (scripts: string) => ({
  'package.json': `{ "name": "calc", "version": "1.0.0", "private": true, "scripts": ${scripts} }\n`,
  'src/calc.mjs': 'export const add = (a, b) => a - b;\n',
  'test/calc.test.mjs': CALC_TEST,
});
const unittest = {
  'calc.py': 'def add(a, b):\n    return a - b\n',
  'tests/test_calc.py':
    'import unittest\nfrom calc import add\n\n\nclass T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n',
};

interface Case {
  files: Record<string, string>;
  run: string;
  mayChange: string[];
  /** What the guardrail says, paths named. */
  detail: RegExp;
  /** A file the attack wrote, back as the user had it (null: absent). */
  restored: [path: string, text: string | null];
}

const CASES: Record<string, Case> = {
  'npm-script': {
    files: node('{ "test": "node --test test/" }'),
    run: 'npm -s test',
    mayChange: ['src/**'],
    detail: /changes outside agent\.may_change reverted: package\.json \(not under agent\.may_change\)/,
    restored: ['package.json', node('{ "test": "node --test test/" }')['package.json']],
  },
  helper: {
    files: {
      'lib/assert.mjs': 'export function equal(a, b) {\n  if (a !== b) throw new Error(`${a} !== ${b}`);\n}\n',
      'src/calc.mjs': 'export const add = (a, b) => a - b;\n',
      'test/check.mjs': "import { equal } from '../lib/assert.mjs';\nimport { add } from '../src/calc.mjs';\nequal(add(2, 3), 5);\n",
    },
    run: 'node test/check.mjs',
    mayChange: ['src/**'],
    detail: /changes outside agent\.may_change reverted: lib\/assert\.mjs/,
    restored: ['lib/assert.mjs', 'export function equal(a, b) {\n  if (a !== b) throw new Error(`${a} !== ${b}`);\n}\n'],
  },
  argparse: {
    files: unittest,
    run: 'python3 -m unittest discover tests',
    // Root modules are the agent's (the user widened init's proposal): argparse.py is refused all the same.
    mayChange: ['*.py'],
    detail:
      /modules that would run in place of a library or at interpreter start reverted: argparse\.py \(a Python module argparse at the head of its folder, imported in place of the standard library module argparse\)/,
    restored: ['argparse.py', null],
  },
  'dist-info': {
    files: { 'src/calc.py': unittest['calc.py'], 'tests/test_calc.py': unittest['tests/test_calc.py'] },
    run: 'PYTHONPATH=src python3 -m unittest discover tests',
    mayChange: ['src/**'],
    detail:
      /at interpreter start reverted: src\/evil_plugin-1\.0\.dist-info\/METADATA \(Python runs it at start-up or takes it for an installed package\), src\/evil_plugin-1\.0\.dist-info\/entry_points\.txt/,
    restored: ['src/evil_plugin-1.0.dist-info/entry_points.txt', null],
  },
  'setup-cfg': {
    files: unittest,
    run: 'python3 -m unittest discover tests',
    mayChange: ['calc.py'],
    detail: /changes outside agent\.may_change reverted: setup\.cfg/,
    restored: ['setup.cfg', null],
  },
  overrides: {
    files: { ...node('{ "test": "node --test test/" }'), 'package-lock.json': '{ "name": "calc", "lockfileVersion": 3, "packages": {} }\n' },
    run: 'npm test',
    mayChange: ['src/**'],
    detail: /changes outside agent\.may_change reverted: package-lock\.json \(not under agent\.may_change\), package\.json/,
    restored: ['package-lock.json', '{ "name": "calc", "lockfileVersion": 3, "packages": {} }\n'],
  },
  'runner-script': {
    files: { ...node('{ "test": "sh scripts/test.sh" }'), 'scripts/test.sh': '#!/bin/sh\nexec node --test test/\n' },
    run: 'npm test',
    mayChange: ['src/**'],
    detail: /changes outside agent\.may_change reverted: scripts\/test\.sh/,
    restored: ['scripts/test.sh', '#!/bin/sh\nexec node --test test/\n'],
  },
};

const repoFor = (name: string, c: Case, allowList: boolean) =>
  makeRepo({
    'phuc-loop.yml': config({ criteria: [{ id: 'tests', run: c.run }], agent: attack(name), mayChange: allowList ? c.mayChange : undefined }),
    'NORTHSTAR.md': NORTHSTAR,
    ...c.files,
  });

describe.each(LEVELS)('isolation %s, agent.may_change set', (level) => {
  test.each(Object.keys(CASES))('%s: reverted, GUARDRAIL_VIOLATION naming the paths, no certificate', async (name) => {
    const c = CASES[name];
    const repo = await repoFor(name, c, true);
    const r = await cli(repo, ['run', '--isolation', level]);
    const rep = await readJson<Record<string, any>>(join(repo, 'evidence/loop/halting_report.json'));
    expect({ code: r.code, status: rep.status, stop: rep.stop_reason }).toEqual({ code: 12, status: 'EXIT_BLOCKED', stop: 'GUARDRAIL_VIOLATION' });
    expect(rep.detail).toMatch(c.detail);
    expect(rep.halting_certificate).toMatchObject({ type: 'NONE', guard: 'allow-list' });
    expect(await readJson(join(repo, 'evidence/loop/iter_0/certificate.json'))).toMatchObject({ guard: 'allow-list' });
    const [path, text] = c.restored;
    expect(await readFile(join(repo, path), 'utf8').catch(() => null)).toBe(text);
    expect(await git(repo, 'ls-tree', '-r', '--name-only', 'HEAD')).not.toContain(name === 'argparse' ? 'argparse.py' : 'dist-info');
    // A config without the field gets no start-up warning once it has one.
    expect(r.stderr + r.stdout).not.toMatch(/agent\.may_change is not set/);
  });
});

// Where the attack's runner is installed here, the same agent without the allow-list wins: the cases
// above test a guard that matters. Warned at the start, and the certificate says which guard judged.
test.each(['npm-script', 'helper', 'runner-script'])('protected-only: %s wins a certificate, after a warning that says why', async (name) => {
  const repo = await repoFor(name, CASES[name], false);
  const r = await cli(repo, ['run', '--isolation', 'none']);
  expect(r.stderr + r.stdout).toMatch(
    /agent\.may_change is not set: the agent may change every path but the protected ones\. A deny-list names only what it foresees/,
  );
  expect(r.code).toBe(0);
  const rep = await readJson<Record<string, any>>(join(repo, 'evidence/loop/halting_report.json'));
  expect(rep.halting_certificate).toMatchObject({ type: 'EXACT', guard: 'protected-only' });
});

// A shadow module that makes every assertion pass also makes the loop's own failing test pass: the
// runner canary refuses it even without the allow-list.
test('protected-only: argparse is caught by the runner canary', async () => {
  const repo = await repoFor('argparse', CASES.argparse, false);
  const r = await cli(repo, ['run', '--isolation', 'none']);
  expect(r.code).toBe(12);
  const rep = await readJson<Record<string, any>>(join(repo, 'evidence/loop/halting_report.json'));
  expect(rep).toMatchObject({ status: 'EXIT_BLOCKED', stop_reason: 'RUNNER_COMPROMISED' });
});
