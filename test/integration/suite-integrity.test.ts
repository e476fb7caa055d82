// A weakened suite is never certified (SPEC §7): an agent that cannot edit the protected tests
// makes the runner run fewer of them; the count of tests executed falls below the baseline's.
import { join } from 'node:path';
import { agent, cli, git, makeRepo, NORTHSTAR, readJson } from '../helpers/repo.js';

test('an agent that makes the runner skip the failing test file gets no certificate (fewer tests than the baseline)', async () => {
  const repo = await makeRepo({
    'phuc-loop.yml': [
      'version: 2',
      'goal: Make the tests pass without weakening them.',
      'acceptance_criteria:',
      '  - id: tests',
      '    run: sh run-tests.sh',
      'certificates: [EXACT, CONVERGED]',
      'R_p: "1e-4"',
      'rung_target: 641',
      'agent:',
      '  use: command',
      `  run: ${JSON.stringify(agent('suite-shrinker.mjs'))}`,
      'protected: ["test/**"]',
      'checks:',
      '  junit: reports/junit.xml',
    ].join('\n'),
    'NORTHSTAR.md': NORTHSTAR,
    // The script the criterion runs is protected; the list of test files it reads is not.
    'run-tests.sh': 'mkdir -p reports\nexec node --test --test-reporter=junit --test-reporter-destination=reports/junit.xml $(cat test-files.txt)\n',
    'test-files.txt': 'test/pass.test.mjs test/fail.test.mjs\n',
    'test/pass.test.mjs': "import test from 'node:test';\ntest('passes', () => {});\n",
    'test/fail.test.mjs': "import test from 'node:test';\nimport assert from 'node:assert';\ntest('fails', () => assert.equal(1, 2));\n",
  });
  const r = await cli(repo, ['run']);
  expect(r.code).toBe(12);
  const rep = await readJson<Record<string, any>>(join(repo, 'evidence/loop/halting_report.json'));
  expect(rep).toMatchObject({ status: 'EXIT_BLOCKED', stop_reason: 'GUARDRAIL_VIOLATION' });
  expect(rep.detail).toMatch(/suite integrity/);
  expect(rep.halting_certificate.type).not.toMatch(/EXACT|CONVERGED/);
  expect(r.stdout + r.stderr).toMatch(/suite integrity/);
  expect(await git(repo, 'log', '--format=%s')).toMatch(/certificate NONE/);
});
