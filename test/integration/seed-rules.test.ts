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
});
