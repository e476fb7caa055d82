// The runner proves itself honest every round (SPEC §7): a loop-owned test that must fail is run
// with the suite, the way the criterion runs it. Real CLI, real repositories, the real runner
// (python3 -m unittest), at the isolation level the machine gives (user+pidns as root).
import { join } from 'node:path';
import { cli, config, makeRepo, NORTHSTAR, readJson } from '../helpers/repo.js';

const AGENT_REPORT = `echo '{"tried":["t"],"claims":["c"],"failures":[],"open_questions":[],"can_further_iteration_help":true}' > "$PHUC_REPORT_FILE"`;
const TEST = 'import unittest\nimport calc\n\n\nclass TestCalc(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(calc.add(1, 2), 3)\n';
const report = (repo: string) => readJson<Record<string, any>>(join(repo, 'evidence/loop/halting_report.json'));

function repoWith(agentSh: string): Promise<string> {
  return makeRepo({
    'phuc-loop.yml': config({ criteria: [{ id: 'tests', run: 'python3 -m unittest discover -s test' }], agent: 'sh agent.sh' }),
    'NORTHSTAR.md': NORTHSTAR,
    'agent.sh': `${agentSh}\n${AGENT_REPORT}\n`,
    'calc.py': 'def add(a, b):\n    return a - b\n',
    'test/test_calc.py': TEST,
  });
}

test('an agent whose code forces the runner to exit 0 (failures and all) gets no certificate: RUNNER_COMPROMISED names the round', async () => {
  // The bug stays; the module under test makes every run of the suite exit 0 (no protected file touched).
  const repo = await repoWith(`printf 'import atexit, os\\natexit.register(lambda: os._exit(0))\\n\\n\\ndef add(a, b):\\n    return a - b\\n' > calc.py`);
  const r = await cli(repo, ['run']);
  expect(r.code).toBe(12);
  const rep = await report(repo);
  expect(rep).toMatchObject({ status: 'EXIT_BLOCKED', stop_reason: 'RUNNER_COMPROMISED' });
  expect(rep.detail).toMatch(/the test runner is compromised \(round iter_0\).*criterion `tests` ran the suite \(unittest\)/);
  expect(r.stdout + r.stderr).toMatch(/iter_0: runner canary \(unittest\) for `tests`: PASSED/);
  expect(rep.halting_certificate.type).not.toMatch(/EXACT|CONVERGED/);
});

test('an honest fix converges; the certificate records the canary, and verify --rerun runs it again', async () => {
  const repo = await repoWith(`printf 'def add(a, b):\\n    return a + b\\n' > calc.py`);
  const r = await cli(repo, ['run']);
  expect(r.stdout + r.stderr).toMatch(/halt: EXIT_CONVERGED/);
  expect(r.stdout + r.stderr).toMatch(/iter_0: runner canary \(unittest\) for `tests`: failed, as it must/);
  const cert = await readJson<Record<string, any>>(join(repo, 'evidence/loop/iter_0/certificate.json'));
  expect(cert.canary).toEqual([{ criterion: 'tests', runner: 'unittest', outcome: 'failed' }]);
  const v = await cli(repo, ['verify', '--rerun']);
  expect(v.stdout + v.stderr).toMatch(/rerun: runner canary \(unittest\) for `tests`: failed, as it must/);
  expect(v.code).toBe(0);
});
