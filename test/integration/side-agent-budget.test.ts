// Every agent process the loop starts spends from the run's budgets (issue 34): the critic and rung
// 65537's paraphrase by the agent are counted with the iteration's step (exact decimals), shown in
// the report's budget line and the evidence, and not started when what is left cannot cover them.
// Real CLI, real repos, a scripted agent that reports its cost in every role.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { agent, cli, config, makeRepo, NORTHSTAR, readJson } from '../helpers/repo.js';

type Json = Record<string, any>;
const ev = (repo: string, rel: string) => readJson<Json>(join(repo, 'evidence/loop', rel));
/** The scripted agent with its cost per step, per critic run and per paraphrase run. */
const costly = (step: string, critic: string, paraphrase: string) => `${agent('side-costly.mjs')} ${step} ${critic} ${paraphrase}`;

const bugs = (n: number, run: string, extra: string, rung?: number) =>
  makeRepo({
    'phuc-loop.yml': config({
      criteria: Array.from({ length: n }, (_, i) => ({ id: `bug${i + 1}`, run: `grep -q fixed-${i + 1} src/status.txt` })),
      agent: run,
      rung,
      extra,
    }),
    'NORTHSTAR.md': NORTHSTAR,
    'src/status.txt': 'start\n',
    'src/api.txt': 'export function existing(): void\n',
  });

const withCritic = (run: string, budget: string) => `critic:\n  use: command\n  run: ${JSON.stringify(run)}\nbudget:\n  max_total_cost_usd: "${budget}"\n`;

test("the critic's cost counts against max_total_cost_usd: it ends the run MAX_COST, and a critic whose last run cost more than is left is not started", async () => {
  // Each step $0.1, each critic run $0.5, a $0.6 cap: the first critic run reaches it.
  const capped = await bugs(3, costly('0.1', '0.5', '0'), withCritic(costly('0.1', '0.5', '0'), '0.6'));
  const r1 = await cli(capped, ['run']);
  expect([r1.code, r1.stdout]).toEqual([11, expect.stringMatching(/EXIT_BUDGET_EXCEEDED\(MAX_COST\)/)]);
  const rep1 = await ev(capped, 'halting_report.json');
  expect(rep1).toMatchObject({ iterations: [0] });
  expect(rep1.budget_use).toMatchObject({ cost_usd: '0.6 / 0.6', side_agents: 'critic 1 run(s): $0.5, 1 tool calls, 1200 tokens' });
  expect(await ev(capped, 'iter_0/critic_verdict.json')).toMatchObject({ state: 'valid', usage: { cost_usd: '0.5', tool_calls: 1, tokens: 1200 } });

  // A $1 cap: the critic runs once ($0.6 spent), then costs more than is left and is not started.
  const repo = await bugs(3, costly('0.1', '0.5', '0'), withCritic(costly('0.1', '0.5', '0'), '1'));
  const r = await cli(repo, ['run']);
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/iter 1: the critic was not started: its last run cost \$0\.5, more than the \$0\.3 left of max_total_cost_usd/);
  expect(await ev(repo, 'iter_1/critic_verdict.json')).toEqual({
    state: 'absent',
    lane: 'C',
    not_run: 'the critic was not started: its last run cost $0.5, more than the $0.3 left of max_total_cost_usd',
    reverted_paths: [],
  });
  expect((await ev(repo, 'iter_2/critic_verdict.json')).not_run).toMatch(/more than the \$0\.2 left/);
  const log = await ev(repo, 'budget_log.json');
  // Three steps and one critic run, summed exactly.
  expect(log.used).toMatchObject({
    cost_usd: '0.8',
    tool_calls: 4,
    tokens: { input: 4000, output: 800 },
    side_agents: { critic: { runs: 1, refused: 2, cost_usd: '0.5', tool_calls: 1, tokens: 1200, last_cost_usd: '0.5', last_tool_calls: 1 } },
  });
  expect(log.measured.cost_usd).toBe('0.8 / 1');
  expect((await cli(repo, ['report'])).stdout).toMatch(
    /cost \$0\.80 \/ \$1\.00 · tool calls .* · of which side agents: critic 1 run\(s\): \$0\.5, 1 tool calls, 1200 tokens, 2 not started \(budget\)/,
  );
});

test("rung 65537's paraphrase by the agent is counted in the budgets and not started when the cost budget is spent (the rung is then not reached)", async () => {
  const security = (budget: string) =>
    `security:\n  gate: "true"\n  api_surface: "cat src/api.txt"\n  paraphrase: agent\nbudget:\n  max_total_cost_usd: "${budget}"\n`;
  const repo = await bugs(1, costly('0.2', '0', '0.3'), security('1'), 65537);
  expect((await cli(repo, ['run'])).code).toBe(0);
  const rep = await ev(repo, 'halting_report.json');
  expect(rep).toMatchObject({
    verification_rung_achieved: 65537,
    budget_use: { cost_usd: '0.5 / 1', side_agents: expect.stringMatching(/^paraphrase 1 run\(s\): \$0\.3/) },
  });
  expect(await ev(repo, 'paraphrase.json')).toMatchObject({ ran: true, by: 'agent', usage: { cost_usd: '0.3', tool_calls: 1, tokens: 1200 } });

  // The step spends the whole cap: the paraphrase is not started, recorded, and 65537 is not reached.
  const spent = await bugs(1, costly('0.2', '0', '0.3'), security('0.2'), 65537);
  const r = await cli(spent, ['run']);
  expect(r.code).toBe(12);
  const rep2 = await ev(spent, 'halting_report.json');
  expect(rep2).toMatchObject({ verification_rung_achieved: 274177, budget_use: { cost_usd: '0.2 / 0.2' } });
  expect(rep2.rung_checks['65537'].paraphrase_same_certificate).toBe(false);
  expect(await ev(spent, 'paraphrase.json')).toMatchObject({
    ran: false,
    error: 'the agent gave no restatement: the paraphrase was not started: max_total_cost_usd is spent ($0.2 of $0.2)',
  });
  expect(await readFile(join(spent, 'evidence/loop/paraphrase.log'), 'utf8')).toMatch(/not started: max_total_cost_usd is spent/);
});
