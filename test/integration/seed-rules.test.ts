// Seed rules that are computed, not named: GLOW L scores facts, not activity.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { agent, cli, config, makeRepo, NORTHSTAR, readJson, twoBugRepo } from '../helpers/repo.js';

const entry = (repo: string, n: number) => readFile(join(repo, `evidence/loop/iter_${n}/agents_md_entry.md`), 'utf8');
const glow = (repo: string, n: number) => readJson<{ L: number; reasons: { L: string } }>(join(repo, `evidence/loop/iter_${n}/glow.json`));
const section = (e: string, from: string, to: string) => e.slice(e.indexOf(from), e.indexOf(to));

test('GLOW L: a change that made the residual worse is no new Lane A fact and no success; a criterion newly met is', async () => {
  const worse = await makeRepo({
    'phuc-loop.yml': config({
      criteria: [{ id: 'zero', run: 'test "$(cat src/count.txt)" = 0' }],
      agent: agent('worsen.mjs'),
      extra: 'residual:\n  metric: command\n  run: cat src/count.txt\nbudget:\n  max_iterations: 2\n',
    }),
    'NORTHSTAR.md': NORTHSTAR,
    'src/count.txt': '1\n',
  });
  expect((await cli(worse, ['run'])).code).toBe(11);
  for (const n of [0, 1]) {
    const e = await entry(worse, n);
    // The failure the baseline already showed is found again, the diff made things worse: no hard fact learned.
    expect(await glow(worse, n)).toMatchObject({ L: 15, reasons: { L: 'new Lane B measurement' } });
    expect(section(e, '### N.2', '### N.3')).not.toMatch(/file\(s\) changed/);
    expect(section(e, '### N.3', '### N.4')).toMatch(/- \[A\] 1 file\(s\) changed — .*diff\.patch#[0-9a-f]{64}: a regression \(the residual rose\)/);
  }

  const better = await twoBugRepo('fixer.mjs');
  expect((await cli(better, ['run'])).code).toBe(0);
  expect(await glow(better, 0)).toMatchObject({ L: 25 });
  expect(section(await entry(better, 0), '### N.2', '### N.3')).toMatch(/- \[A\] 1 file\(s\) changed — /);
  // The capsule claims no skill the loop does not ship and give (docs/glossary.md "CNF capsule").
  expect((await readJson<{ skill_pack: string[] }>(join(better, 'evidence/loop/iter_0/cnf_capsule.json'))).skill_pack).toEqual([]);
  expect(await readFile(join(better, 'evidence/loop/iter_0/prompt.md'), 'utf8')).not.toMatch(/prime-(safety|coder)/);
});

/** Two criteria, each met by one line fixer.mjs appends per iteration, with `extra` config. */
const twoBugs = (extra: string) =>
  makeRepo({
    'phuc-loop.yml': config({
      criteria: [
        { id: 'one', run: 'grep -q fixed-1 src/status.txt' },
        { id: 'two', run: 'grep -q fixed-2 src/status.txt' },
      ],
      agent: agent('fixer.mjs'),
      extra,
    }),
    'NORTHSTAR.md': NORTHSTAR,
    'src/status.txt': 'start\n',
  });

test('a budget the agent cannot be measured against is warned about at the start and reported "not measured", never as used', async () => {
  const repo = await twoBugs('budget:\n  max_total_tool_calls: 50\n  max_total_cost_usd: "3"\n');
  const r = await cli(repo, ['run']);
  expect(r.code).toBe(0);
  expect(r.stdout + r.stderr).toMatch(
    /budget\.max_total_tool_calls is set but not measured: a command agent reports no tool calls, so it can never end the run/,
  );
  const rep = await readJson<{ budget_use: Record<string, string> }>(join(repo, 'evidence/loop/halting_report.json'));
  expect(rep.budget_use).toMatchObject({
    tool_calls: 'not measured: a command agent reports no tool calls',
    tool_calls_per_iteration: 'not measured: the command agent is given no limit within an iteration',
    cost_usd: 'not measured: the command agent reported no cost',
  });
  const log = await readJson<{ measured: Record<string, string> }>(join(repo, 'evidence/loop/budget_log.json'));
  expect(log.measured.tool_calls).toBe('not measured: a command agent reports no tool calls');
  expect((await cli(repo, ['report'])).stdout).toMatch(/tool calls not measured: a command agent reports no tool calls/);
  // The agent is told the same: a typed "not measured", never a count left at its maximum.
  const capsule = await readJson<{ remaining_budget: Record<string, unknown> }>(join(repo, 'evidence/loop/iter_0/cnf_capsule.json'));
  expect(capsule.remaining_budget.tool_calls_remaining).toEqual({ not_measured: 'a command agent reports no tool calls' });
  // A command agent's cost is unknown until it ran: the first capsule counts the budget, the next says it printed none.
  expect(capsule.remaining_budget.cost_remaining_usd).toBe('3');
  const next = await readJson<{ remaining_budget: Record<string, unknown> }>(join(repo, 'evidence/loop/iter_1/cnf_capsule.json'));
  expect(next.remaining_budget.cost_remaining_usd).toEqual({ not_measured: 'the command agent reported no cost' });
});

test("lessons_for_next_run: every halt writes what failed and which budget bound, from evidence; the next run's agent is shown them", async () => {
  const repo = await twoBugs('budget:\n  max_iterations: 1\n');
  expect((await cli(repo, ['run'])).code).toBe(11);
  type Lessons = { lessons_for_next_run: { lane: string; text: string; evidence: string | null }[] };
  const first = await readJson<Lessons>(join(repo, 'evidence/loop/halting_report.json'));
  expect(first.lessons_for_next_run).toEqual([
    {
      lane: 'A',
      text: 'the last run ended EXIT_BUDGET_EXCEEDED(MAX_ITERS): MAX_ITERS: 1 of 1 iterations used',
      evidence: 'evidence/loop/iter_0/certificate.json',
    },
    { lane: 'A', text: 'budget bound at iteration 0: BUDGET: MAX_ITERS: 1 of 1 iterations used', evidence: null },
    { lane: 'A', text: 'criterion two still fails (exit 1)', evidence: 'evidence/loop/iter_0/checks/two.log' },
    { lane: 'B', text: 'residual per iteration: 1', evidence: null },
    { lane: 'C', text: 'open question: what about two?', evidence: null },
    { lane: 'C', text: expect.stringMatching(/^open question: What makes criterion two fail\? Its log: /), evidence: null },
  ]);
  expect((await cli(repo, ['report'])).stdout).toMatch(/### Lessons for the next run[\s\S]*- \[A\] criterion two still fails \(exit 1\)/);

  // The next run (a raised budget) shows its agent the lessons of the halt before it.
  expect((await cli(repo, ['run', '--max-iterations', '2'])).code).toBe(0);
  const capsule = await readJson<{ current_state_summary: { lessons_from_last_run?: string[] } }>(join(repo, 'evidence/loop/iter_1/cnf_capsule.json'));
  expect(capsule.current_state_summary.lessons_from_last_run).toEqual(
    expect.arrayContaining([
      '[A] budget bound at iteration 0: BUDGET: MAX_ITERS: 1 of 1 iterations used',
      '[A] criterion two still fails (exit 1) (evidence/loop/iter_0/checks/two.log)',
    ]),
  );
  expect(await readFile(join(repo, 'evidence/loop/iter_1/prompt.md'), 'utf8')).toMatch(
    /### Lessons from the last run of this loop \(from its evidence\)\n[\s\S]*- \[A\] criterion two still fails \(exit 1\)/,
  );
  // The converged run writes its own: no exit but the convergence, nothing still failing.
  const last = await readJson<Lessons>(join(repo, 'evidence/loop/halting_report.json'));
  expect(last.lessons_for_next_run[0].text).toMatch(/^the last run ended EXIT_CONVERGED\(EXACT\)/);
  expect(last.lessons_for_next_run.some((l) => /still fails/.test(l.text))).toBe(false);
});
