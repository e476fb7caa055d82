// How the loop stops when it does not converge: divergence, an idle agent, a hung agent, STOP,
// SIGTERM and the cost budget — each through the built CLI on a real repository.
import { readFile, writeFile, mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { num } from '../../src/engine/common/display.js';
import { agent, agentStarted, checkStateDir, cli, config, git, makeRepo, NORTHSTAR, readJson, startCli, until } from '../helpers/repo.js';

const report = (repo: string) => readJson<Record<string, any>>(join(repo, 'evidence/loop/halting_report.json'));
/** Running (not gone, not a zombie waiting for a container's init to reap it). */
const alive = async (pid: number) => {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  return stat !== null && stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
};

test('divergence: three strictly increasing residuals end EXIT_DIVERGED', async () => {
  const repo = await makeRepo({
    'phuc-loop.yml': config({
      criteria: [{ id: 'zero', run: 'test "$(cat src/count.txt)" = 0' }],
      agent: agent('worsen.mjs'),
      extra: 'residual:\n  metric: command\n  run: cat src/count.txt\n',
    }),
    'NORTHSTAR.md': NORTHSTAR,
    'src/count.txt': '1\n',
  });
  const r = await cli(repo, ['run']);
  expect(r.code).toBe(10);
  const rep = await report(repo);
  expect(rep).toMatchObject({ status: 'EXIT_DIVERGED', stop_reason: 'SILENT_DIVERGENCE_DETECTED', iterations_completed: 3, divergence_start_iteration: 0 });
  expect(rep.halting_certificate).toMatchObject({ type: 'DIVERGED', lane: 'A', residual_history_decimal_strings: ['2', '3', '4'] });
  const entries = await Promise.all([0, 1, 2].map((n) => readFile(join(repo, `evidence/loop/iter_${n}/agents_md_entry.md`), 'utf8')));
  const section = (e: string, from: string, to: string) => e.slice(e.indexOf(from), e.indexOf(to));
  for (const [n, e] of entries.entries()) {
    expect(e).toContain('- residual_direction: DIVERGING');
    // A rise is a measured fact (N.3), never a success (N.2); Σ does not hold.
    expect(section(e, '### N.2', '### N.3')).not.toContain('[B]');
    expect(section(e, '### N.3', '### N.4')).toContain(`- [B] residual rose ${n + 1} → ${n + 2} (command)`);
    expect(section(e, '### N.3', '### N.4')).toMatch(/- \[B\] northstar distance rose /);
    expect(e).toMatch(/- Σ \(Symmetry\): invariants_held = false \(/);
    expect(e).not.toContain('invariants_held = true');
  }
  expect(entries[2]).toContain('- [A] DIVERGENCE: residuals increasing 3 consecutive iterations (residuals 2 < 3 < 4)');
  expect(entries[2]).toContain('- Σ (Symmetry): invariants_held = false (Σ-symmetry broken: residuals 2 < 3 < 4)');
  expect(entries[1]).not.toContain('DIVERGENCE');
  expect(await readFile(join(repo, 'AGENTS.md'), 'utf8')).toContain('- [A] DIVERGENCE: residuals increasing 3 consecutive iterations');
});

test('three iterations without a Northstar win: EXIT_BLOCKED(NORTHSTAR_DRIFT); the fast profile logs its budget reductions', async () => {
  const repo = await makeRepo({
    // The failure text differs every iteration: not a repeated signature (STUCK), only no Northstar win.
    'phuc-loop.yml': config({
      criteria: [{ id: 'never', run: 'echo "attempt $(wc -l < src/busy.txt)"; false' }],
      agent: agent('busy.mjs'),
      extra: 'profile: fast\nstall_iterations: 5\n',
    }),
    'NORTHSTAR.md': NORTHSTAR,
    'src/busy.txt': '',
  });
  const r = await cli(repo, ['run']);
  expect(r.code).toBe(12);
  const rep = await report(repo);
  expect(rep).toMatchObject({ status: 'EXIT_BLOCKED', stop_reason: 'NORTHSTAR_DRIFT', iterations_completed: 3 });
  expect(rep.glow_history.map((g: { W: number }) => g.W)).toEqual([0, 0, 0]);
  expect(await readFile(join(repo, 'evidence/loop/northstar_drift.log'), 'utf8')).toMatch(/iteration 2: W = 0 for 3 iterations in a row/);
  expect(await readFile(join(repo, 'evidence/loop/budget_reduction.log'), 'utf8')).toContain('max_iterations: 10 → 5 (profile fast, scale 0.5)');
  const plan = await readJson<{ budget: { max_iterations: number } }>(join(repo, 'evidence/loop/plan.json'));
  expect(plan.budget.max_iterations).toBe(5);
});

test('a Northstar distance that rises three iterations in a row: EXIT_BLOCKED(NORTHSTAR_DRIFT) while W > 0; the report says where and why', async () => {
  const repo = await makeRepo({
    'phuc-loop.yml': config({
      criteria: [{ id: 'zero', run: 'test "$(cat src/count.txt)" = 0' }],
      agent: agent('drifter.mjs'),
      extra: 'residual:\n  metric: command\n  run: cat src/count.txt\n',
    }),
    'NORTHSTAR.md': NORTHSTAR + '| bloat | lines of filler | 0 | 1 | wc -l < src/bloat.txt |\n',
    'src/count.txt': '100\n',
    'src/bloat.txt': '',
  });
  const r = await cli(repo, ['run']);
  expect(r.code).toBe(12);
  const rep = await report(repo);
  expect(rep).toMatchObject({ status: 'EXIT_BLOCKED', stop_reason: 'NORTHSTAR_DRIFT', iterations_completed: 3 });
  expect(rep.glow_history.map((g: { W: number }) => g.W)).toEqual([5, 5, 5]); // the residual fell: not the W = 0 drift
  expect(rep.exits_fired.map((e: { kind: string }) => e.kind)).toEqual(['NORTHSTAR_DISTANCE_RISING']);
  const distances = rep.iteration_rows.map((g: { northstar_distance: string }) => g.northstar_distance);
  expect(await readFile(join(repo, 'evidence/loop/northstar_drift.log'), 'utf8')).toContain(
    // Rounded for people (the exact distances are in the report's JSON).
    `iteration 2: northstar distance rose three iterations in a row: ${distances.map((d: string) => num(d)).join(' < ')}`,
  );
  // The output contract of a blocked run, and the Phuc Test recorded in every iteration.
  expect(rep.last_known_state).toBe('BUDGET_CHECK');
  expect(rep.what_ran_and_failed).toMatch(/^iteration 2 ran command and the criteria; NORTHSTAR_DISTANCE_RISING: northstar distance rose/);
  expect(rep.reason_for_non_convergence).toMatch(
    /^EXIT_BLOCKED\(NORTHSTAR_DRIFT\): .*; final residual 97, R_p 1e-4; criteria not met: zero \(exit 1, evidence\/loop\/iter_2\//,
  );
  expect(rep.evidence_pointers.map((e: { path: string }) => e.path)).toEqual(
    expect.arrayContaining([
      'evidence/loop/plan.json',
      'evidence/loop/iter_2/certificate.json',
      'evidence/loop/iter_2/phuc_test.json',
      'evidence/loop/northstar_drift.log',
    ]),
  );
  for (const n of [0, 1, 2])
    expect(await readJson(join(repo, `evidence/loop/iter_${n}/phuc_test.json`))).toMatchObject({ iteration: n, pass: true, failures: [] });
  expect((await cli(repo, ['verify'])).code).toBe(0);
});

test('an agent that does nothing: EXIT_BLOCKED(EVIDENCE_INCOMPLETE); the attempt is not an iteration and nothing is committed', async () => {
  const repo = await makeRepo({ 'phuc-loop.yml': config({ criteria: [{ id: 'never', run: 'false' }], agent: agent('noop.mjs') }), 'NORTHSTAR.md': NORTHSTAR });
  const r = await cli(repo, ['run']);
  expect(r.code).toBe(12);
  const rep = await report(repo);
  expect(rep).toMatchObject({ status: 'EXIT_BLOCKED', stop_reason: 'EVIDENCE_INCOMPLETE', iterations_completed: 0 });
  expect(rep.detail).toMatch(/changed nothing and wrote no report/);
  expect(await git(repo, 'log', '--format=%s')).toBe('initial\n');
  expect((await cli(repo, ['verify'])).code).toBe(0);
});

test('an agent that hangs and spawns children is killed with all of them at the time limit (isolation none: the process-tree sweep)', async () => {
  const pids = join(tmpdir(), `phuc-hang-${process.pid}-${Date.now()}.json`);
  const repo = await makeRepo({
    'phuc-loop.yml': config({
      criteria: [{ id: 'never', run: 'false' }],
      agent: `${agent('hang.mjs')} ${pids}`,
      extra: 'budget:\n  max_iterations: 1\n  max_seconds_per_iteration: 2\n',
    }),
    'NORTHSTAR.md': NORTHSTAR,
  });
  const r = await cli(repo, ['run', '--isolation', 'none']);
  const list = JSON.parse(await readFile(pids, 'utf8')) as number[];
  expect(list).toHaveLength(3);
  for (const pid of list) expect(await alive(pid)).toBe(false);
  expect(r.stdout).toMatch(/iter 0: agent 2\.\d s, killed at the time limit/);
  expect(r.code).toBe(12); // no change and no report from a killed agent: an agent failure, nothing committed
  expect(await report(repo)).toMatchObject({ stop_reason: 'AGENT_FAILED', detail: expect.stringMatching(/killed at the 2 s limit/) });
  expect(await git(repo, 'log', '--format=%s')).toBe('initial\n');
});

async function sleepyRepo() {
  return makeRepo({
    'phuc-loop.yml': config({ criteria: [{ id: 'never', run: 'false' }], agent: agent('sleepy.mjs') }),
    'NORTHSTAR.md': NORTHSTAR,
    'src/.keep': '',
  });
}

test('scratch/STOP during a run stops the agent within the poll interval: BACKPRESSURE', async () => {
  const repo = await sleepyRepo();
  const run = startCli(repo, ['run', '--poll-ms', '100']);
  await run.waitFor(/baseline:/);
  await agentStarted(repo);
  const t0 = Date.now();
  await mkdir(join(repo, 'scratch'), { recursive: true });
  await writeFile(join(repo, 'scratch/STOP'), '');
  const r = await run.done;
  expect(Date.now() - t0).toBeLessThan(10_000);
  expect(r.code).toBe(12);
  const rep = await report(repo);
  expect(rep).toMatchObject({ status: 'EXIT_BLOCKED', stop_reason: 'BACKPRESSURE_SIGNAL' });
  expect(rep.halting_certificate.type).toBe('BACKPRESSURE');
  expect(rep.exits_fired).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'BACKPRESSURE', reason: 'scratch/STOP exists' })]));
  // The partial work is committed, nothing is lost, and the tree still verifies.
  expect(await git(repo, 'show', '--stat', 'HEAD')).toContain('src/partial.txt');
  expect((await cli(repo, ['verify'])).code).toBe(0);
});

test('SIGTERM during a run (workflow cancellation): the agent is stopped and the report is written', async () => {
  const repo = await sleepyRepo();
  const run = startCli(repo, ['run']);
  await run.waitFor(/baseline:/);
  await agentStarted(repo);
  run.child.kill('SIGTERM');
  const r = await run.done;
  expect(r.code).toBe(12);
  expect(r.stderr).toContain('SIGTERM received');
  const rep = await report(repo);
  expect(rep).toMatchObject({ status: 'EXIT_BLOCKED', stop_reason: 'BACKPRESSURE_SIGNAL' });
  expect(rep.halting_certificate.type).toBe('BACKPRESSURE');
  expect((await cli(repo, ['verify'])).code).toBe(0);
});

test('SIGTERM during the checks is a pause, not failed checks; the next run continues', async () => {
  // The check notes each start in a folder the check user can write: the signal waits for the second.
  const marks = await checkStateDir();
  const repo = await makeRepo({
    'phuc-loop.yml': config({
      criteria: [{ id: 'slow', run: `echo x >> ${marks}/starts; sleep 5; false` }],
      agent: agent('busy.mjs'),
      writable: [marks],
      extra: 'residual:\n  metric: command\n  run: echo 1\n',
    }),
    'NORTHSTAR.md': NORTHSTAR,
    'src/busy.txt': '',
  });
  // The baseline runs the slow check once; the signal comes during iteration 0's checks.
  const run = startCli(repo, ['run']);
  await until(async () => (await readFile(join(marks, 'starts'), 'utf8').catch(() => '')).split('\n').length > 2, 150_000, "iteration 0's check to start");
  run.child.kill('SIGTERM');
  const r = await run.done;
  expect(r.code).toBe(12);
  const rep = await report(repo);
  expect(rep).toMatchObject({ status: 'EXIT_BLOCKED', stop_reason: 'BACKPRESSURE_SIGNAL' });
  expect(rep.halting_certificate.type).toBe('BACKPRESSURE');
  // Not judged: the certificate carries the last measured residual, the history records only measurements.
  expect(rep.halting_certificate).toMatchObject({ final_residual_decimal_string: '1', residual_history_decimal_strings: [] });
  const next = startCli(repo, ['run']);
  await next.waitFor(/resuming from evidence\/loop: 1 iteration\(s\) on record, next is 1/);
  next.child.kill('SIGTERM');
  await next.done;
  await rm(marks, { recursive: true, force: true });
}, 300_000);

test('scratch/STOP during the checks pauses them within the poll interval, not at their end; the next run continues', async () => {
  const marks = await checkStateDir();
  const repo = await makeRepo({
    'phuc-loop.yml': config({
      criteria: [{ id: 'slow', run: `echo x >> ${marks}/starts; [ -s ${marks}/starts.1 ] && sleep 60; echo x > ${marks}/starts.1; false` }],
      agent: agent('busy.mjs'),
      writable: [marks],
      extra: 'residual:\n  metric: command\n  run: echo 1\n',
    }),
    'NORTHSTAR.md': NORTHSTAR,
    'src/busy.txt': '',
  });
  // The baseline's check is quick; iteration 0's would take a minute: the STOP comes while it runs.
  const run = startCli(repo, ['run', '--poll-ms', '100']);
  await until(async () => (await readFile(join(marks, 'starts'), 'utf8').catch(() => '')).split('\n').length > 2, 150_000, "iteration 0's check to start");
  const t0 = Date.now();
  await mkdir(join(repo, 'scratch'), { recursive: true });
  await writeFile(join(repo, 'scratch/STOP'), '');
  const r = await run.done;
  expect(Date.now() - t0).toBeLessThan(30_000);
  expect(r.code).toBe(12);
  const rep = await report(repo);
  expect(rep).toMatchObject({ status: 'EXIT_BLOCKED', stop_reason: 'BACKPRESSURE_SIGNAL' });
  expect(rep.exits_fired).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'BACKPRESSURE', reason: 'scratch/STOP exists' })]));
  await rm(join(repo, 'scratch/STOP'));
  const next = startCli(repo, ['run']);
  await next.waitFor(/resuming from evidence\/loop: 1 iteration\(s\) on record, next is 1/);
  next.child.kill('SIGTERM');
  await next.done;
  await rm(marks, { recursive: true, force: true });
}, 300_000);

test("the cost budget: the agent's reported cost is summed exactly and ends the loop", async () => {
  const repo = await makeRepo({
    'phuc-loop.yml': config({ criteria: [{ id: 'never', run: 'false' }], agent: agent('costly.mjs'), extra: 'budget:\n  max_total_cost_usd: "1"\n' }),
    'NORTHSTAR.md': NORTHSTAR,
    'src/work.txt': '',
  });
  const r = await cli(repo, ['run']);
  expect(r.code).toBe(11);
  const rep = await report(repo);
  expect(rep).toMatchObject({ status: 'EXIT_BUDGET_EXCEEDED', stop_reason: 'MAX_COST', iterations_completed: 2 });
  expect(rep.budget_use.cost_usd).toBe('1.2 / 1');
  expect(rep.halting_certificate.type).toBe('TIMEOUT');
});
