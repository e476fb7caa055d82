// What a new run inherits (issue: everyday runs): evidence and its chain continue; progress state
// belongs to the HEAD it was measured on, so a human commit since the last run starts new windows.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { agent, cli, config, git, makeRepo, NORTHSTAR, readJson } from '../helpers/repo.js';

test('after a converged run the user commits failing code: the next run re-baselines, says so, and converges', async () => {
  const repo = await makeRepo({
    'phuc-loop.yml': config({ criteria: [{ id: 'one', run: 'grep -q fixed-1 src/status.txt' }], agent: agent('fixer.mjs'), extra: 'stall_iterations: 2\n' }),
    'NORTHSTAR.md': NORTHSTAR,
    'src/status.txt': 'start\n',
  });
  const first = await cli(repo, ['run']);
  expect(first.code).toBe(0);
  // The user breaks it again.
  await writeFile(join(repo, 'src/status.txt'), 'start\nregressed\n');
  await git(repo, 'commit', '-qam', 'human: a regression');
  const second = await cli(repo, ['run']);
  expect(second.stdout).toMatch(/HEAD has new commits since the loop's last one/);
  expect(second.stdout).toMatch(/HEAD judged: 0\/1 criteria met/);
  expect(second.stdout).toMatch(/halt: EXIT_CONVERGED/);
  expect(second.code).toBe(0);
  const rep = await readJson<Record<string, any>>(join(repo, 'evidence/loop/halting_report.json'));
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
