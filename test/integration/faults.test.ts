// Faults of the machine end in a report and a resumable state (issue 30 item 5): the loop's git
// session killed, a read-only folder, a full disk. Real CLI, real repos, scripted agents.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agent, cli, config, git, makeRepo, NORTHSTAR, readJson } from '../helpers/repo.js';

const report = (repo: string) => readJson<Record<string, any>>(join(repo, 'evidence/loop/halting_report.json'));

const twoBugs = (agentRun: string) =>
  makeRepo({
    'phuc-loop.yml': config({
      criteria: [1, 2].map((k) => ({ id: `bug${k}`, run: `grep -q fixed-${k} src/status.txt` })),
      agent: agentRun,
    }),
    'NORTHSTAR.md': NORTHSTAR,
    'src/status.txt': 'start\n',
  });

test("the agent kills the loop's git session: EXIT_BLOCKED(GIT_FAILURE) with its report; a plain `run` afterwards converges", async () => {
  const state = await mkdtemp(join(tmpdir(), 'phuc-git-killer-'));
  const repo = await twoBugs(`${agent('git-killer.mjs')} ${state}`);
  const first = await cli(repo, ['run', '--isolation', 'none']);
  expect(first.code).toBe(12);
  const rep = await report(repo);
  expect(rep).toMatchObject({ status: 'EXIT_BLOCKED', stop_reason: 'GIT_FAILURE' });
  expect(rep.detail).toMatch(/the loop's git shell was killed/);
  expect(first.stdout).toMatch(/EXIT_BLOCKED\(GIT_FAILURE\)/);
  const second = await cli(repo, ['run', '--isolation', 'none']);
  expect([second.code, second.stdout]).toEqual([0, expect.stringMatching(/EXIT_CONVERGED/)]);
  expect(await git(repo, 'show', 'HEAD:src/status.txt')).toMatch(/fixed-1\n(.*\n)*fixed-2\n/);
});
