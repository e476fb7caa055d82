// A kill is no way around the set-aside of what git does not see (SPEC §7; issue 29): a hostile agent
// plants notes under the names the loop keeps for itself (evidence/ beside the published tree, an
// earlier-tree name, an empty folder there, an agent CLI's state; the user's own settings file
// changed) and the loop is killed (SIGKILL) before its step is collected. The next run puts the
// user's files back and removes what the agent planted before its first step: that step finds
// nothing, nothing planted is committed or left, the user's own files under those names stay.
// Real CLI, real repos, at user+pidns (as root) and none.
import { lstat, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { cli, config, FIXTURES, git, makeRepo, NORTHSTAR } from '../helpers/repo.js';
import { isolationFacts } from '../helpers/isolation.js';

const facts = await isolationFacts();
const LEVELS = [...(process.getuid?.() === 0 && facts.userPidns === null ? ['user+pidns'] : []), 'none'];
const PLANTED = ['evidence/note.txt', 'evidence/empty-note', 'evidence/loop.previous.99', '.aider.note'];
const USER_FILES: Record<string, string> = {
  'evidence/notes.md': 'the user notes\n',
  '.claude/settings.local.json': '{"permissions":{"allow":["Bash(npm test)"]}}\n',
  '.aider.conf.yml': 'model: the-users-model\n',
};

const present = async (repo: string, p: string) =>
  `${p}: ${await lstat(join(repo, p)).then(
    () => 'present',
    () => 'absent',
  )}`;
const userCopies = async (repo: string) =>
  Object.fromEntries(await Promise.all(Object.keys(USER_FILES).map(async (p) => [p, await readFile(join(repo, p), 'utf8').catch(() => null)])));

describe.each(LEVELS)('at %s', (level) => {
  test('notes planted under the names the loop keeps, then the loop killed before its step is collected: the next run removes them before its first step, which finds none', async () => {
    const repo = await makeRepo({
      'phuc-loop.yml': config({
        criteria: [{ id: 'fixed', run: 'grep -q fixed src/status.txt' }],
        agent: `sh ${JSON.stringify(join(FIXTURES, 'hostile', 'reserved-notes.sh'))}`,
        mayChange: ['src/**'],
      }),
      'NORTHSTAR.md': NORTHSTAR,
      'src/status.txt': 'broken\n',
    });
    for (const [path, text] of Object.entries(USER_FILES)) {
      await mkdir(join(repo, path, '..'), { recursive: true });
      await writeFile(join(repo, path), text);
    }
    const killed = await cli(repo, ['run', '--isolation', level], { PHUC_TEST_CRASH_AT: 'agent:0' });
    expect(killed.code).toBeNull(); // SIGKILL after the agent's step, before its collection
    for (const p of PLANTED) expect(await present(repo, p)).toBe(`${p}: present`);

    const r = await cli(repo, ['run', '--isolation', level]);
    expect(r.stdout + r.stderr).not.toMatch(/crashed/);
    expect(r.stdout).toMatch(/file\(s\) the agent made under the names the loop keeps for itself removed: .*evidence\/note\.txt/);
    expect(await readFile(join(repo, 'evidence/loop/iter_0/agent.log'), 'utf8')).toContain('looked, found:\n');
    for (const p of [...PLANTED, 'src/leak.txt']) expect(await present(repo, p)).toBe(`${p}: absent`);
    expect(await userCopies(repo)).toEqual(USER_FILES);
    const committed = (await git(repo, 'log', '--all', '--name-only', '--format=')).split('\n').filter(Boolean);
    expect(committed.filter((p) => /^(evidence|\.claude|\.aider|src\/leak)/.test(p))).toEqual([]);
  }, 300_000);
});
