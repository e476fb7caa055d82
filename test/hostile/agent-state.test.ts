// The agent CLIs' state files are no hiding place nor a planted hook (SPEC §7): the loop keeps
// `.claude/settings.local.json` and `.aider*` out of commits, so nothing the agent writes there is its
// work. A hostile agent writes a Claude Code settings file whose hook would run on the user's next
// session, aider's files and a note for the next step under those names, changes the user's own
// `.aider.conf.yml` in place and force-adds the settings file. None is committed, the user's copy is
// exactly as it was, what the agent made is gone after its step (a GUARDRAIL naming each path), and
// aider's own repo-map cache (a regenerable name) is left to it without a guardrail. Real CLI, real
// repos, at user+pidns (as root) and none.
import { lstat, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { cli, config, FIXTURES, git, makeRepo, NORTHSTAR, readJson } from '../helpers/repo.js';
import { isolationFacts } from '../helpers/isolation.js';

const facts = await isolationFacts();
const LEVELS = [...(process.getuid?.() === 0 && facts.userPidns === null ? ['user+pidns'] : []), 'none'];
const agentState = (how = '') => `sh ${JSON.stringify(join(FIXTURES, 'hostile', 'agent-state.sh'))} ${how}`;
const USER_AIDER = 'model: the-users-model\n';

async function stateRepo(how = ''): Promise<string> {
  const repo = await makeRepo({
    'phuc-loop.yml': config({ criteria: [{ id: 'fixed', run: 'grep -q fixed src/status.txt' }], agent: agentState(how) }),
    'NORTHSTAR.md': NORTHSTAR,
    'src/status.txt': 'broken\n',
  });
  await writeFile(join(repo, '.aider.conf.yml'), USER_AIDER);
  return repo;
}

const present = async (repo: string, p: string) =>
  `${p}: ${await lstat(join(repo, p)).then(
    () => 'present',
    () => 'absent',
  )}`;

describe.each(LEVELS)('at %s', (level) => {
  test('a planted Claude Code hook, aider files and a note: removed after the step, GUARDRAIL naming them, none committed; the user .aider.conf.yml as it was', async () => {
    const repo = await stateRepo();
    const r = await cli(repo, ['run', '--isolation', level]);
    expect(r.stdout + r.stderr).not.toMatch(/crashed/);
    expect(r.code).toBe(12);
    const said = /the loop's own paths changed and reverted: (.*)/.exec(r.stdout)?.[1] ?? '';
    for (const p of ['.claude/settings.local.json', '.aider.notes/x', '.aider.model.settings.yml']) expect(said).toContain(`${p} (an agent CLI's state`);
    const rep = await readJson<Record<string, any>>(join(repo, 'evidence/loop/halting_report.json'));
    expect(rep).toMatchObject({ stop_reason: 'GUARDRAIL_VIOLATION' });
    const artifacts = await readJson<{ reverted: { path: string; why: string }[]; user_files_restored?: string[] }>(
      join(repo, 'evidence/loop/iter_0/artifacts.json'),
    );
    expect(artifacts.reverted.filter((x) => x.path === '.claude/settings.local.json').map((x) => x.why)).toEqual(['loop-owned']);
    // At none the agent writes it in place (put back from the copy); at user+pidns it cannot (a file the loop links is never lent).
    expect(artifacts.user_files_restored).toEqual(level === 'none' ? ['.aider.conf.yml'] : undefined);
    // Nothing is left for the user's next session or for a later step, and nothing reached a commit.
    for (const p of ['.claude/settings.local.json', '.aider.notes', '.aider.model.settings.yml', 'src/leak.txt'])
      expect(await present(repo, p)).toBe(`${p}: absent`);
    expect(await readFile(join(repo, '.aider.conf.yml'), 'utf8')).toBe(USER_AIDER);
    const committed = (await git(repo, 'log', '--all', '--name-only', '--format=')).split('\n').filter(Boolean);
    expect(committed.filter((p) => /^\.(claude|aider)/.test(p))).toEqual([]);
    // A second run: its step finds nothing of the first one's.
    const again = await cli(repo, ['run', '--fresh', '--isolation', level]);
    expect(again.code).toBe(12);
    expect(await present(repo, 'src/leak.txt')).toBe('src/leak.txt: absent');
    expect(await readFile(join(repo, '.aider.conf.yml'), 'utf8')).toBe(USER_AIDER);
  }, 240_000);

  test('aider own repo-map cache (a regenerable name) is the CLI own: no guardrail, never committed', async () => {
    const repo = await stateRepo('cache');
    const r = await cli(repo, ['run', '--isolation', level]);
    expect(r.stdout).toMatch(/halt: EXIT_CONVERGED/);
    const committed = (await git(repo, 'log', '--all', '--name-only', '--format=')).split('\n').filter(Boolean);
    expect(committed.filter((p) => /^\.(claude|aider)/.test(p))).toEqual([]);
    expect(await readFile(join(repo, '.aider.conf.yml'), 'utf8')).toBe(USER_AIDER);
  }, 180_000);
});
