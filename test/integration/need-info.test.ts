// EXIT_NEED_INFO at any point leaves a halting report with its output contract (missing_fields,
// safe_partials), and `phuc-loop report` never shows an earlier run's report as the current one.
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { agent, cli, config, git, makeRepo, NORTHSTAR, readJson } from '../helpers/repo.js';

/** The config is protected: a resumed run refuses it uncommitted. */
async function commitConfig(repo: string, text: string): Promise<void> {
  await writeFile(join(repo, 'phuc-loop.yml'), text);
  await git(repo, 'commit', '-qam', 'config');
}

interface Report {
  status: string;
  stop_reason: string;
  missing_fields: string[];
  safe_partials: string | null;
}

test('NEED_INFO after an earlier run: its report is the current one, the earlier evidence stays and verifies; the next run replaces it', async () => {
  // The fixer needs two iterations: one is the budget of the first run.
  const yml = config({ criteria: [{ id: 'fixed', run: 'grep -q fixed-2 src/status.txt' }], agent: agent('fixer.mjs'), extra: 'budget:\n  max_iterations: 1' });
  const repo = await makeRepo({ 'phuc-loop.yml': yml, 'NORTHSTAR.md': NORTHSTAR, 'src/status.txt': 'start\n' });
  const first = await cli(repo, ['run']);
  expect(first.code).toBe(11);
  const earlier = await readFile(join(repo, 'evidence/loop/halting_report.json'), 'utf8');

  // A config the loop cannot start from (start-up, before the lock).
  await writeFile(join(repo, 'phuc-loop.yml'), yml.replace('R_p: "1e-4"', 'R_p: "a lot"'));
  const bad = await cli(repo, ['run']);
  expect(bad.code).toBe(13);
  const shown = await cli(repo, ['report', '--json']);
  expect(shown.code).toBe(0);
  const current = JSON.parse(shown.stdout) as Report;
  expect(current).toMatchObject({ status: 'EXIT_NEED_INFO', missing_fields: ['R_p'] });
  expect(current.safe_partials).toMatch(/supply R_p and run again/);
  expect(shown.stderr).toMatch(/the latest run stopped before it wrote evidence/);
  const md = await cli(repo, ['report']);
  expect(md.stdout).toMatch(/EXIT_NEED_INFO/);
  expect(md.stdout).toMatch(/\*\*Missing fields:\*\* R_p/);
  expect(md.stdout).not.toMatch(/EXIT_BUDGET_EXCEEDED/);
  // The earlier loop's evidence is untouched and still verifies.
  expect(await readFile(join(repo, 'evidence/loop/halting_report.json'), 'utf8')).toBe(earlier);
  expect((await cli(repo, ['verify'])).code).toBe(0);

  // NEED_INFO after the lock and the restore (the agent CLI pre-flight): the publication of the
  // restored tree must not drop it.
  await commitConfig(repo, yml.replace('  use: command\n  run: ', '  use: gemini\n  run: phuc-no-such-cli\n  # was: '));
  const preflight = await cli(repo, ['run']);
  expect(preflight.code).toBe(13);
  const again = await readJson<Report>(join(repo, 'evidence/loop/latest_run_report.json'));
  expect(again).toMatchObject({ status: 'EXIT_NEED_INFO', stop_reason: 'CONFIG_INVALID', missing_fields: ['agent.use'] });
  expect(again.safe_partials).toMatch(/supply agent\.use/);
  expect(JSON.parse((await cli(repo, ['report', '--json'])).stdout)).toMatchObject({ stop_reason: 'CONFIG_INVALID' });

  // A run that writes evidence again: its report is the current one, the stale one is gone.
  await commitConfig(repo, yml.replace('max_iterations: 1', 'max_iterations: 2'));
  const next = await cli(repo, ['run']);
  expect(next.code).toBe(0);
  expect(existsSync(join(repo, 'evidence/loop/latest_run_report.json'))).toBe(false);
  expect(JSON.parse((await cli(repo, ['report', '--json'])).stdout)).toMatchObject({ status: 'EXIT_CONVERGED' });
  expect((await cli(repo, ['verify'])).code).toBe(0);
});

test("NEED_INFO at HEAD (a criterion program missing): the run's halting report names the field and what can be done", async () => {
  const repo = await makeRepo({
    'phuc-loop.yml': config({
      criteria: [
        { id: 'ok', run: 'true' },
        { id: 'lint', run: 'phuc-frobnicate --check' },
      ],
      agent: agent('noop.mjs'),
    }),
    'NORTHSTAR.md': NORTHSTAR,
  });
  expect((await cli(repo, ['run'])).code).toBe(13);
  const rep = await readJson<Report>(join(repo, 'evidence/loop/halting_report.json'));
  expect(rep).toMatchObject({ status: 'EXIT_NEED_INFO', stop_reason: 'CRITERION_COMMAND_MISSING', missing_fields: ['acceptance_criteria.1.run'] });
  expect(rep.safe_partials).toMatch(/HEAD was judged and no agent step ran/);
});
