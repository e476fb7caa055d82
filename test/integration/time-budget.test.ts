// budget.max_total_seconds bounds the checks too (attack report stop40, finding 5): a check the
// agent's change makes hang ends where the run's time ends, not at its own timeout_seconds; the
// console says the round still runs while it waits; the run ends EXIT_BUDGET_EXCEEDED(MAX_TOTAL_SECONDS)
// with a state the next run continues from. Real CLI, real repo, a scripted agent; no fixed sleeps.
import { join } from 'node:path';
import { agent, cli, config, makeRepo, NORTHSTAR, readJson } from '../helpers/repo.js';
import { EXIT_CODES } from '../../src/engine/run/fsm.js';

const report = (repo: string) => readJson<Record<string, any>>(join(repo, 'evidence/loop/halting_report.json'));
const state = (repo: string) => readJson<Record<string, any>>(join(repo, 'evidence/loop/state.json'));

test('a check that hangs after the agent step ends at max_total_seconds, with heartbeats, as EXIT_BUDGET_EXCEEDED the next run continues from', async () => {
  // The check hangs (120 s, beyond its own 60 s timeout) once the agent wrote "hang".
  const repo = await makeRepo({
    'phuc-loop.yml': config({
      criteria: [{ id: 'tests', run: 'if grep -q hang src/status.txt; then sleep 120; fi; grep -q fixed src/status.txt' }],
      agent: `${agent('replace.mjs')} src/status.txt start hang`,
    }),
    'NORTHSTAR.md': NORTHSTAR,
    'src/status.txt': 'start\n',
  });
  const started = Date.now();
  const r1 = await cli(repo, ['run', '--max-iterations', '3', '--max-total-seconds', '20', '--poll-ms', '200']);
  const seconds = (Date.now() - started) / 1000;
  // Before, the round waited for the check's own 60 s timeout (and the run ended TIMEOUT after it).
  expect(seconds).toBeLessThan(60);
  expect(r1.stdout).toMatch(/iter 0: agent /);
  expect(r1.stdout).toMatch(/iter_0: checks still running, \d+ s \(time budget left: \d+ s\)/);
  expect(r1.stdout + r1.stderr).toMatch(/halt: EXIT_BUDGET_EXCEEDED\(MAX_TOTAL_SECONDS\)/);
  expect(r1.code).toBe(EXIT_CODES.EXIT_BUDGET_EXCEEDED);
  const rep = await report(repo);
  expect(rep).toMatchObject({ status: 'EXIT_BUDGET_EXCEEDED', stop_reason: 'MAX_TOTAL_SECONDS' });
  expect(rep.exits_fired.map((f: { kind: string }) => f.kind)).toContain('BUDGET');
  expect(rep.run.how_to_go_on).toMatch(/max_total_seconds/);
  // The cut round judged nothing: the iteration is a pause, judged again by the next run.
  expect(await state(repo)).toMatchObject({ next_iteration: 1, stopped_before_checks: [0] });
  expect((await cli(repo, ['verify'])).code).toBe(0);

  // The next run continues from that state: with the time still used up it ends at once, the same way.
  const again = Date.now();
  const r2 = await cli(repo, ['run', '--max-total-seconds', '20', '--poll-ms', '200']);
  expect((Date.now() - again) / 1000).toBeLessThan(60);
  expect(r2.stdout).toMatch(/resuming from evidence\/loop/);
  expect(r2.stdout + r2.stderr).toMatch(/halt: EXIT_BUDGET_EXCEEDED\(MAX_TOTAL_SECONDS\)/);
  expect(r2.code).toBe(EXIT_CODES.EXIT_BUDGET_EXCEEDED);
  expect((await cli(repo, ['verify'])).code).toBe(0);
}, 300_000);
