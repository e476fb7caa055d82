// A pause costs no iteration (SPEC §3 backpressure, §7): an iteration a STOP cut short before its
// checks ran does not count against budget.max_iterations, so with the last budgeted iteration
// stopped, the next run still runs the agent instead of ending EXIT_BUDGET_EXCEEDED(MAX_ITERS).
// Real CLI, real repos, a scripted agent; every wait is for an event, with a deadline.
import { readFile, rm, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { agent, checkStateDir, cli, config, makeRepo, NORTHSTAR, readJson, startCli, until } from '../helpers/repo.js';

const report = (repo: string) => readJson<Record<string, any>>(join(repo, 'evidence/loop/halting_report.json'));
const state = (repo: string) => readJson<Record<string, any>>(join(repo, 'evidence/loop/state.json'));
const stop = async (repo: string) => {
  await mkdir(join(repo, 'scratch'), { recursive: true });
  await writeFile(join(repo, 'scratch/STOP'), '');
};

test('max_iterations 1, a STOP during the agent step: run 1 pauses; the STOP removed, run 2 runs the agent and converges', async () => {
  const repo = await makeRepo({
    'phuc-loop.yml': config({
      criteria: [
        { id: 'one', run: 'grep -q fixed-1 src/status.txt' },
        { id: 'two', run: 'grep -q fixed-2 src/status.txt' },
      ],
      agent: agent('moody.mjs'),
      extra: 'budget:\n  max_iterations: 1\n',
    }),
    'NORTHSTAR.md': NORTHSTAR,
    'src/status.txt': 'start\n',
  });
  // "partial": the agent makes one fix, then works on until it is stopped.
  const run = startCli(repo, ['run', '--poll-ms', '100'], { PHUC_TEST_AGENT_MODE: 'partial' });
  await until(async () => (await readFile(join(repo, 'src/status.txt'), 'utf8').catch(() => '')).includes('fixed-1'), 30_000, 'the agent to make its fix');
  await stop(repo);
  const r1 = await run.done;
  expect(r1.code).toBe(12);
  expect(r1.stdout).toMatch(/iter 0: checks 0\/2 \(not run\)/);
  const rep1 = await report(repo);
  expect(rep1).toMatchObject({ status: 'EXIT_BLOCKED', stop_reason: 'BACKPRESSURE_SIGNAL', budget_use: { iterations: expect.stringMatching(/^0 \/ 1/) } });
  // The pause is the only exit: the budget is not used up by an iteration the stop cut short.
  expect(rep1.exits_fired.map((f: { kind: string }) => f.kind)).not.toContain('BUDGET');
  expect(rep1.run.how_to_go_on).toMatch(/continues at iteration 1.*iteration 0.*stopped before its checks.*not count/);
  expect(await state(repo)).toMatchObject({ next_iteration: 1, stopped_before_checks: [0] });
  expect((await cli(repo, ['verify'])).code).toBe(0);

  await rm(join(repo, 'scratch/STOP'));
  const r2 = await cli(repo, ['run']);
  expect(r2.stdout).toMatch(
    /next is 1; budgets count every run of this loop \(0 of 1 iterations used; iteration 0 stopped before its checks ran, not counted\)/,
  );
  expect(r2.stdout).toMatch(/HEAD judged: 1\/2 criteria met/);
  expect(r2.stdout).toMatch(/iter 1: agent /);
  expect(r2.stdout + r2.stderr).toMatch(/halt: EXIT_CONVERGED/);
  expect(r2.code).toBe(0);
  expect((await report(repo)).budget_use.iterations).toMatch(/^1 \/ 1/);
  expect((await cli(repo, ['verify'])).code).toBe(0);
});

test('max_iterations 1, a STOP during the checks: that iteration is not counted either; the next run runs iteration 1', async () => {
  // The check notes each start; it is slow (to be stopped) from its second start on, until the test says "fast".
  const marks = await checkStateDir();
  const repo = await makeRepo({
    'phuc-loop.yml': config({
      criteria: [{ id: 'slow', run: `echo x >> ${marks}/starts; [ ! -e ${marks}/fast ] && [ $(wc -l < ${marks}/starts) -ge 2 ] && sleep 60; false` }],
      agent: agent('busy.mjs'),
      writable: [marks],
      extra: 'residual:\n  metric: command\n  run: echo 1\nbudget:\n  max_iterations: 1\n',
    }),
    'NORTHSTAR.md': NORTHSTAR,
    'src/busy.txt': '',
  });
  try {
    const run = startCli(repo, ['run', '--poll-ms', '100']);
    await until(async () => (await readFile(join(marks, 'starts'), 'utf8').catch(() => '')).split('\n').length > 2, 30_000, "iteration 0's check to start");
    await stop(repo);
    const r1 = await run.done;
    expect(r1.code).toBe(12);
    expect(await report(repo)).toMatchObject({ status: 'EXIT_BLOCKED', stop_reason: 'BACKPRESSURE_SIGNAL' });
    expect(await state(repo)).toMatchObject({ next_iteration: 1, stopped_before_checks: [0] });

    await rm(join(repo, 'scratch/STOP'));
    await writeFile(join(marks, 'fast'), '');
    const r2 = await cli(repo, ['run']);
    // Iteration 1 runs (the agent and its checks) and is the one that uses the budget up.
    expect(r2.stdout).toMatch(/iter 1: agent /);
    expect(r2.stdout).toMatch(/iter 1: checks 0\/1 ·/);
    expect(r2.code).toBe(11);
    expect(await report(repo)).toMatchObject({ status: 'EXIT_BUDGET_EXCEEDED', stop_reason: 'MAX_ITERS', iterations: [0, 1] });
    expect((await report(repo)).budget_use.iterations).toMatch(/^1 \/ 1/);
  } finally {
    await rm(marks, { recursive: true, force: true });
  }
});
