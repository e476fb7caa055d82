// What a new run inherits (issue: everyday runs): evidence and its chain continue; progress state
// belongs to the HEAD it was measured on, so a human commit since the last run starts new windows.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agent, cli, config, git, makeRepo, NORTHSTAR, readJson } from '../helpers/repo.js';

const report = (repo: string) => readJson<Record<string, any>>(join(repo, 'evidence/loop/halting_report.json'));
/** A message that names the command that goes on, in backticks. */
const NAMES_COMMAND = /`(?:phuc-loop (?:run|verify|report)[^`]*|git [^`]+)`/;

test('after a converged run the user commits failing code: the next run re-baselines, says so, and converges', async () => {
  const repo = await makeRepo({
    'phuc-loop.yml': config({ criteria: [{ id: 'one', run: 'grep -q fixed-1 src/status.txt' }], agent: agent('fixer.mjs'), extra: 'stall_iterations: 2\n' }),
    'NORTHSTAR.md': NORTHSTAR,
    'src/status.txt': 'start\n',
  });
  const first = await cli(repo, ['run']);
  expect(first.code).toBe(0);
  // The report folder the agent steps shared is gone with the run.
  expect(existsSync(join(repo, '.phuc-loop'))).toBe(false);
  // The user breaks it again.
  await writeFile(join(repo, 'src/status.txt'), 'start\nregressed\n');
  await git(repo, 'commit', '-qam', 'human: a regression');
  const second = await cli(repo, ['run']);
  expect(second.stdout).toMatch(/HEAD has new commits since the loop's last one/);
  expect(second.stdout).toMatch(/HEAD judged: 0\/1 criteria met/);
  expect(second.stdout).toMatch(/halt: EXIT_CONVERGED/);
  expect(second.code).toBe(0);
  const rep = await readJson<Record<string, any>>(join(repo, 'evidence/loop/halting_report.json'));
  expect(rep.run).toMatchObject({ resumed: true, rebaselined: expect.stringMatching(/^HEAD has new commits since the loop's last one/) });
  // The certificate names the commit the loop made in this run, and verify finds it in the repository.
  expect(rep.halting_certificate.commit).toBe((await git(repo, 'rev-parse', 'HEAD')).trim());
  const v = await cli(repo, ['verify']);
  expect(v.code).toBe(0);
  expect(v.stdout).toMatch(/certified commit [0-9a-f]{12} is in the repository and holds the certified tree/);
  expect(await readFile(join(repo, 'src/status.txt'), 'utf8')).toContain('fixed-1');
});

test('verify fails when the certified commit is not in the repository', async () => {
  const repo = await makeRepo({
    'phuc-loop.yml': config({ criteria: [{ id: 'one', run: 'grep -q fixed-1 src/status.txt' }], agent: agent('fixer.mjs') }),
    'NORTHSTAR.md': NORTHSTAR,
    'src/status.txt': '',
  });
  expect((await cli(repo, ['run'])).code).toBe(0);
  const other = await makeRepo({ 'x.txt': 'x' }, 'other');
  const v = await cli(other, ['verify', join(repo, 'evidence/loop')]);
  expect(v.code).toBe(12);
  expect(v.stderr).toMatch(/the certified commit [0-9a-f]{40} is not in/);
});

test('the report states which iterations each run made and that budgets count every run; every stop names the command that goes on', async () => {
  const repo = await makeRepo({
    'phuc-loop.yml': config({
      criteria: [1, 2, 3].map((k) => ({ id: `bug${k}`, run: `grep -q fixed-${k} src/status.txt` })),
      agent: agent('fixer.mjs'),
      extra: 'budget:\n  max_iterations: 2\n',
    }),
    'NORTHSTAR.md': NORTHSTAR,
    'src/status.txt': '',
    'test/keep.txt': 'protected\n',
  });
  // Run 1 uses the whole budget: iterations 0 and 1.
  const first = await cli(repo, ['run']);
  expect(first.code).toBe(11);
  expect(first.stdout).toMatch(
    /to go on: raise budget\.max_iterations \(or `phuc-loop run --max-iterations N`\) above what all runs of this loop used: `phuc-loop run` then continues at iteration 2/,
  );
  const r1 = await report(repo);
  expect(r1.run).toMatchObject({ resumed: false, first_iteration: 0, iterations: [0, 1], earlier_iterations: [], next_iteration: 2, rebaselined: null });
  expect(r1.run.budgets).toMatch(/max_iterations, max_total_seconds, max_total_cost_usd and max_total_tool_calls count every run of this loop/);
  expect(r1.budget_use.iterations).toBe('2 / 2');
  const md1 = (await cli(repo, ['report'])).stdout;
  expect(md1).toContain('### Runs and budgets');
  expect(md1).toContain('- This run: iterations 0–1; it started the loop.');
  expect(md1).toContain('- Iterations are numbered on across the runs of one loop');
  expect(md1).toContain('### Budget use (all runs of this loop)');

  // Run 2, nothing changed: nothing to do, and it says what goes on.
  const second = await cli(repo, ['run']);
  expect(second.code).toBe(11);
  expect(second.stdout).toMatch(/nothing to do: the last run ended EXIT_BUDGET_EXCEEDED\(MAX_ITERS\)/);
  expect(second.stdout).toMatch(NAMES_COMMAND);
  expect(second.stdout).toContain('continues at iteration 2');

  // Run 3 with one more iteration: it continues at 2 and converges there; the budget counted runs 1 and 2.
  const third = await cli(repo, ['run', '--max-iterations', '3']);
  expect(third.stdout).toMatch(/next is 2; budgets count every run of this loop \(2 of 3 iterations used\)/);
  expect(third.code).toBe(0);
  const r3 = await report(repo);
  expect(r3.run).toMatchObject({
    resumed: true,
    first_iteration: 2,
    iterations: [2],
    earlier_iterations: [0, 1],
    next_iteration: 3,
    budget_revisions: [{ from_iteration: 2, max_iterations: 3 }],
  });
  expect(r3.run.how_to_go_on).toMatch(NAMES_COMMAND);
  expect(r3.budget_use.iterations).toBe('3 / 3');
  expect(r3.iterations).toEqual([0, 1, 2]);
  const md3 = (await cli(repo, ['report'])).stdout;
  expect(md3).toContain('- This run: iteration 2; it continued the loop, whose earlier runs recorded iterations 0–1.');
  expect(md3).toContain('- The budget changed from iteration 2 (max_iterations 3).');
  expect(md3).toMatch(/- To go on: commit a new change and `phuc-loop run` judges it \(iterations go on from 3\)/);

  // Refusals and "nothing to do" after that: each names the command that goes on.
  const fourth = await cli(repo, ['run', '--max-iterations', '3']);
  expect(fourth.stdout).toMatch(/nothing to do: the last run ended EXIT_CONVERGED\(EXACT\)/);
  expect(fourth.stdout).toMatch(NAMES_COMMAND);
  await writeFile(join(repo, 'test/keep.txt'), 'edited by hand\n');
  const dirty = await cli(repo, ['run', '--max-iterations', '3']);
  expect(dirty.code).toBe(12);
  expect(dirty.stderr).toMatch(/protected paths have uncommitted changes \(test\/keep\.txt\)/);
  expect(dirty.stderr).toMatch(NAMES_COMMAND);
  await git(repo, 'checkout', '--', 'test/keep.txt');
  const configText = await readFile(join(repo, 'phuc-loop.yml'), 'utf8');
  await writeFile(join(repo, 'phuc-loop.yml'), configText.replace('goal: Make the checks pass', 'goal: Make every check pass'));
  const changed = await cli(repo, ['run', '--max-iterations', '3']);
  expect(changed.code).toBe(12);
  expect(changed.stderr).toMatch(/changed since the plan .* run `phuc-loop run --fresh` to start a new loop/);
  const outside = await mkdtemp(join(tmpdir(), 'phuc-nogit-'));
  // verify and report first: run writes the report of a run that could not start there.
  for (const r of [await cli(outside, ['verify']), await cli(outside, ['report']), await cli(outside, ['run'])]) {
    expect(r.code).toBe(13);
    expect(r.stderr).toMatch(NAMES_COMMAND);
  }
});
