// A pause leaves nothing ambiguous (issue 30 item 3): the step it cut short is settled, so the
// user's edits during the pause stay the user's; the messages name only what happened (which stop,
// how many iterations this run made). Real CLI, real repos, a scripted agent; waits are for events.
import { existsSync } from 'node:fs';
import { appendFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { agent, cli, config, git, makeRepo, NORTHSTAR, readJson, startCli, twoBugRepo, until } from '../helpers/repo.js';

const report = (repo: string) => readJson<Record<string, any>>(join(repo, 'evidence/loop/halting_report.json'));
const loopCommits = async (repo: string) => (await git(repo, 'log', '--format=%H %s')).split('\n').filter((l) => l.includes(' phuc-loop: iteration'));

test("Ctrl-C during an agent step that changed nothing: the next run is no cut-off step's, and the user's edit made during the pause stays theirs", async () => {
  const repo = await makeRepo({
    'phuc-loop.yml': config({
      criteria: [
        { id: 'one', run: 'grep -q fixed-1 src/status.txt' },
        { id: 'two', run: 'grep -q fixed-2 src/status.txt' },
      ],
      agent: agent('moody.mjs'),
    }),
    'NORTHSTAR.md': NORTHSTAR,
    'src/status.txt': 'start\n',
    'README.md': '# project\n',
  });
  const run = startCli(repo, ['run'], { PHUC_TEST_AGENT_MODE: 'wait' });
  await until(() => existsSync(join(repo, '.phuc-loop')), 30_000, 'the agent step to start'); // the report folder, made just before the agent
  run.child.kill('SIGINT');
  const r1 = await run.done;
  expect(r1.code).toBe(12);
  const rep1 = await report(repo);
  expect(rep1).toMatchObject({ stop_reason: 'BACKPRESSURE_SIGNAL', detail: expect.stringMatching(/^SIGINT received/) });
  // No STOP label or file was involved: none is named, and nothing stands in the way of the next run.
  expect(rep1.run.how_to_go_on).not.toMatch(/STOP/);
  expect(rep1.run.how_to_go_on).toMatch(/^a pause: `phuc-loop run` continues at iteration 0/);
  expect(r1.stderr).toMatch(/paused: SIGINT received/);

  // The user edits a tracked file during the pause, and does not commit it.
  await appendFile(join(repo, 'README.md'), 'an uncommitted line of the user\n');
  const r2 = await cli(repo, ['run']);
  expect(r2.stdout + r2.stderr).toMatch(/halt: EXIT_CONVERGED/);
  expect(r2.stdout).not.toMatch(/killed during this iteration's agent step/);
  const commits = await loopCommits(repo);
  expect(commits.length).toBe(2);
  for (const c of commits) expect(await git(repo, 'show', '--name-only', '--format=', c.split(' ')[0])).not.toMatch(/README\.md/);
  expect(await git(repo, 'status', '--porcelain', '--untracked-files=no')).toMatch(/^ M README\.md$/m);
  expect(await readFile(join(repo, 'README.md'), 'utf8')).toContain('an uncommitted line of the user');
});

test('a leftover scratch/STOP: the halt names it and says to delete it; a resumed run says how many iterations it made, not the loop', async () => {
  const repo = await twoBugRepo('moody.mjs');
  // Run 1 pauses after a partial fix (iteration 0 is recorded as partial work).
  const run = startCli(repo, ['run'], { PHUC_TEST_AGENT_MODE: 'partial' });
  await until(async () => (await readFile(join(repo, 'src/status.txt'), 'utf8')).includes('fixed-1'), 30_000, 'the partial fix');
  run.child.kill('SIGTERM');
  expect((await run.done).code).toBe(12);

  await mkdir(join(repo, 'scratch'), { recursive: true });
  await writeFile(join(repo, 'scratch/STOP'), '');
  const stopped = await cli(repo, ['run']);
  expect(stopped.code).toBe(12);
  expect(stopped.stderr).toMatch(/paused: scratch\/STOP exists/);
  expect(stopped.stdout).toMatch(/to go on: a pause: delete scratch\/STOP, then `phuc-loop run` continues at iteration 1/);

  await rm(join(repo, 'scratch/STOP'));
  const r = await cli(repo, ['run']);
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/halt: EXIT_CONVERGED\(\w+\) after 1 iteration\(s\) in this run \(2 on record\)/);
});
