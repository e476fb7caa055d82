// The replays of a claim (rung 274177) and the runner canary: the confirmation on a fresh checkout
// runs its canary; a replay beside it runs the same tree (by hash) at the same time and takes the
// confirmation's canary as its own (one suite run less per replay), which its result.json names.
// Real CLI, real repositories, the real runner (python3 -m unittest), at the machine's isolation.
import { join } from 'node:path';
import { cli, config, makeRepo, NORTHSTAR, readJson } from '../helpers/repo.js';

const AGENT_REPORT = `echo '{"tried":["t"],"claims":["c"],"failures":[],"open_questions":[],"can_further_iteration_help":true}' > "$PHUC_REPORT_FILE"`;
const TEST = 'import unittest\nimport calc\n\n\nclass TestCalc(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(calc.add(1, 2), 3)\n';
const ev = (repo: string, f: string) => readJson<Record<string, any>>(join(repo, 'evidence/loop', f));

function repoWith(calc: string): Promise<string> {
  return makeRepo({
    'phuc-loop.yml': config({ criteria: [{ id: 'tests', run: 'python3 -m unittest discover -s test' }], agent: 'sh agent.sh', rung: 274177 }),
    'NORTHSTAR.md': NORTHSTAR,
    'agent.sh': `printf '${calc}' > calc.py\n${AGENT_REPORT}\n`,
    'calc.py': 'def add(a, b):\n    return a - b\n',
    'test/test_calc.py': TEST,
  });
}

test('replay 2 takes the canary of the confirmation on the same tree; rung 274177 is reached and verify --rerun still runs every canary', async () => {
  const repo = await repoWith('def add(a, b):\\n    return a + b\\n');
  const r = await cli(repo, ['run']);
  const out = r.stdout + r.stderr;
  expect(out).toMatch(/halt: EXIT_CONVERGED/);
  expect(out).toMatch(/iter_0: runner canary \(unittest\) for `tests`: failed, as it must/);
  expect(out).toMatch(/iter_0\/replay_1: runner canary \(unittest\) for `tests`: failed, as it must/);
  expect(out).not.toMatch(/replay_2: runner canary/);
  expect(await ev(repo, 'iter_0/replay_1/result.json')).toEqual({ replay: 1, type: 'EXACT', residual: '0', same: true });
  expect(await ev(repo, 'iter_0/replay_2/result.json')).toEqual({ replay: 2, type: 'EXACT', residual: '0', same: true, runner_canary: 'replay_1' });
  const rep = await ev(repo, 'halting_report.json');
  expect(rep.verification_rung_achieved).toBe(274177);
  expect(rep.rung_checks['274177'].replays_same_certificate).toBe(true);
  expect((await cli(repo, ['verify'])).code).toBe(0);
  const v = await cli(repo, ['verify', '--rerun']);
  // The rerun judges its first run and each replay with a canary of its own.
  expect((v.stdout + v.stderr).match(/rerun: runner canary \(unittest\) for `tests`: failed, as it must/g)).toHaveLength(2);
  expect(v.code).toBe(0);
});

test('code that makes the runner lie only on the fresh checkout is caught by the confirmation: RUNNER_COMPROMISED, no certificate claimed', async () => {
  // The bug is fixed, but under the confirmation's folder (…/fresh/ws) every run of the suite exits 0.
  const liar =
    'import atexit, os\\nif \\047/fresh/\\047 in os.getcwd():\\n    atexit.register(lambda: os._exit(0))\\n\\n\\ndef add(a, b):\\n    return a + b\\n';
  const repo = await repoWith(liar);
  const r = await cli(repo, ['run']);
  expect(r.stdout + r.stderr).toMatch(/iter_0: runner canary \(unittest\) for `tests`: failed, as it must/);
  expect(r.stdout + r.stderr).toMatch(/replay_1: runner canary \(unittest\) for `tests`: PASSED/);
  expect(r.code).toBe(12);
  const rep = await ev(repo, 'halting_report.json');
  expect(rep).toMatchObject({ status: 'EXIT_BLOCKED', stop_reason: 'RUNNER_COMPROMISED' });
  expect(rep.verification_rung_achieved).toBe(0);
});
