// Numbers for people through the built CLI: a residual with 42 digits is rounded on the console,
// in AGENTS.md and the report's markdown, and kept exact in the JSON evidence.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { agent, cli, config, makeRepo, NORTHSTAR, readJson } from '../helpers/repo.js';

const LONG = '0.005571030640668523676880222841225626740947';

test('a 42-digit residual reads 0.005571 on the console, in AGENTS.md and the report; the certificate keeps it exact', async () => {
  const repo = await makeRepo({
    'phuc-loop.yml': config({
      criteria: [{ id: 'tests', run: 'false' }],
      agent: agent('fixer.mjs'),
      extra: `residual:\n  metric: command\n  run: echo ${LONG}\nbudget:\n  max_iterations: 1\n`,
    }),
    'NORTHSTAR.md': NORTHSTAR,
    'src/status.txt': 'start\n',
  });
  const r = await cli(repo, ['run', '--isolation', 'none']);
  expect(r.code).toBe(11);
  expect(r.stdout).toContain('residual 0.005571');
  expect(r.stdout).not.toContain(LONG);
  const agentsMd = await readFile(join(repo, 'AGENTS.md'), 'utf8');
  expect(agentsMd).toContain('- residual_value: 0.005571\n');
  expect(agentsMd).not.toContain(LONG);
  const report = await cli(repo, ['report']);
  expect(report.stdout).toContain('0.005571');
  expect(report.stdout).not.toContain(LONG);
  expect(await readJson(join(repo, 'evidence/loop/iter_0/certificate.json'))).toMatchObject({ residual: LONG });
});
