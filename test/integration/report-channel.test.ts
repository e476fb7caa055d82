// The loop never deletes a user's file (SPEC §7; attack report stop40, finding 3): .phuc-loop/ is
// the loop's channel for the agent's report, emptied after every agent step, so a user's file
// standing there (committed, untracked or git-ignored) makes the run refuse to start, naming it and
// the next step, and the file stays as it was. Moved out, the run goes on. Real CLI, real repos.
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { agent, cli, config, git, makeRepo, NORTHSTAR } from '../helpers/repo.js';

const USER_TEXT = '{"user":"my precious file"}\n';

const project = (extra: Record<string, string> = {}) =>
  makeRepo({
    'phuc-loop.yml': config({ criteria: [{ id: 'fixed', run: 'grep -q fixed src/status.txt' }], agent: `${agent('replace.mjs')} src/status.txt start fixed` }),
    'NORTHSTAR.md': NORTHSTAR,
    'src/status.txt': 'start\n',
    ...extra,
  });

async function expectRefused(repo: string, committed: boolean): Promise<void> {
  const r = await cli(repo, ['run', '--max-iterations', '2']);
  const out = r.stdout + r.stderr;
  expect(out).toMatch(/\.phuc-loop\/report\.json is the user's/);
  expect(out).toMatch(/move it out of \.phuc-loop\/ .*then `phuc-loop run` again/);
  if (committed) expect(out).toMatch(/committed: \.phuc-loop\/report\.json/);
  expect(out).not.toMatch(/iter 0: agent/);
  expect(r.code).toBe(12);
  expect(await readFile(join(repo, '.phuc-loop/report.json'), 'utf8')).toBe(USER_TEXT);
  expect(await readFile(join(repo, 'src/status.txt'), 'utf8')).toBe('start\n');
}

test('a git-ignored .phuc-loop/report.json of the user: the run refuses, names it, keeps it; moved out, the run converges', async () => {
  const repo = await project({ '.gitignore': '.phuc-loop/\n' });
  await mkdir(join(repo, '.phuc-loop'));
  await writeFile(join(repo, '.phuc-loop/report.json'), USER_TEXT);
  await expectRefused(repo, false);

  await rename(join(repo, '.phuc-loop/report.json'), join(repo, 'my-report.json'));
  const r = await cli(repo, ['run', '--max-iterations', '2']);
  expect(r.stdout + r.stderr).toMatch(/halt: EXIT_CONVERGED/);
  expect(r.code).toBe(0);
  expect(await readFile(join(repo, 'my-report.json'), 'utf8')).toBe(USER_TEXT);
}, 300_000);

test('an untracked or a committed .phuc-loop/report.json of the user: the run refuses and the file stays as it was', async () => {
  const untracked = await project();
  await mkdir(join(untracked, '.phuc-loop'));
  await writeFile(join(untracked, '.phuc-loop/report.json'), USER_TEXT);
  await expectRefused(untracked, false);

  const committed = await project({ '.phuc-loop/report.json': USER_TEXT });
  await expectRefused(committed, true);
  expect(await git(committed, 'status', '--porcelain')).toBe('');
}, 300_000);
