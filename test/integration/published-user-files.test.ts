// The loop replaces its published evidence folder whole (and `run --fresh` moves it aside): a user's
// committed file there that is not the loop's evidence (attack report stop40, finding 4: a committed
// evidence/loop/plan.json) makes the run refuse, naming it and the next step, and stays as it is. The
// loop's own published tree, committed, is no obstacle. Real CLI, real repos.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { agent, cli, config, git, makeRepo, NORTHSTAR } from '../helpers/repo.js';

const project = () =>
  makeRepo({
    'phuc-loop.yml': config({ criteria: [{ id: 'fixed', run: 'grep -q fixed src/status.txt' }], agent: `${agent('replace.mjs')} src/status.txt start fixed` }),
    'NORTHSTAR.md': NORTHSTAR,
    'src/status.txt': 'start\n',
  });

test('a committed evidence/loop/plan.json of the user: run and run --fresh refuse, name it, and leave it as committed', async () => {
  const repo = await project();
  await mkdir(join(repo, 'evidence/loop'), { recursive: true });
  await writeFile(join(repo, 'evidence/loop/plan.json'), '{"mine":true}\n');
  await git(repo, 'add', '-A');
  await git(repo, 'commit', '-qm', 'my plan');
  for (const args of [['run'], ['run', '--fresh']]) {
    const r = await cli(repo, [...args, '--max-iterations', '2']);
    const out = r.stdout + r.stderr;
    expect(out).toMatch(
      /evidence\/loop\/plan\.json is committed in evidence\/loop, where the loop publishes its evidence tree .*move it out of evidence\/loop/,
    );
    expect(out).not.toMatch(/iter 0: agent/);
    expect(r.code).toBe(12);
    expect(await readFile(join(repo, 'evidence/loop/plan.json'), 'utf8')).toBe('{"mine":true}\n');
    expect(await git(repo, 'status', '--porcelain')).toBe('');
  }
}, 300_000);

test("the loop's own evidence tree committed: the next run --fresh is not refused", async () => {
  const repo = await project();
  const r1 = await cli(repo, ['run', '--max-iterations', '2']);
  expect(r1.code).toBe(0);
  // The loop keeps its evidence out of git's view (.git/info/exclude): committed on purpose.
  await git(repo, 'add', '-f', 'evidence/loop');
  await git(repo, 'commit', '-qm', 'the evidence');
  const r2 = await cli(repo, ['run', '--fresh', '--max-iterations', '2']);
  expect(r2.stdout + r2.stderr).not.toMatch(/committed in evidence\/loop/);
  expect(r2.stdout + r2.stderr).toMatch(/fresh start: the previous evidence tree was moved to/);
}, 300_000);
