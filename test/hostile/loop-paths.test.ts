// The paths the loop keeps for itself are no hiding place (SPEC §7): the evidence folder, the
// earlier evidence trees beside the published one, and the names the loop leaves out of git's view
// (evidence/, the agent CLIs' state). The agent takes them: a file or a link named `evidence`,
// planted generations `evidence/loop.previous.N` (a forged 1, absurd N), the user's files under
// those names deleted or replaced. It commits none of them, the loop takes none for its own, and the
// user's copies are back when the run ends. What the agent makes under evidence/ outside the loop's
// trees (a note for the next iteration, a tree the loop does not publish) is removed after its step,
// a GUARDRAIL naming it, so that it is neither committed nor read by a later step. Real CLI, real
// repos, at user+pidns (as root) and none.
import { lstat, readdir, readFile, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { cli, config, FIXTURES, git, makeRepo, NORTHSTAR, readJson } from '../helpers/repo.js';
import { isolationFacts } from '../helpers/isolation.js';

const facts = await isolationFacts();
const LEVELS = [...(process.getuid?.() === 0 && facts.userPidns === null ? ['user+pidns'] : []), 'none'];
const hostile = (name: string, ...args: string[]) => `sh ${JSON.stringify(join(FIXTURES, 'hostile', name))} ${args.join(' ')}`;
const bugRepo = (agentCommand: string) =>
  makeRepo({
    'phuc-loop.yml': config({ criteria: [{ id: 'fixed', run: 'grep -q fixed src/status.txt' }], agent: agentCommand }),
    'NORTHSTAR.md': NORTHSTAR,
    'src/status.txt': 'broken\n',
  });

/** Every path any commit of the repository holds. */
const committed = async (repo: string) => (await git(repo, 'log', '--all', '--name-only', '--format=')).split('\n').filter(Boolean);

const USER_FILES: Record<string, string> = {
  'evidence/notes.md': 'the user notes\n',
  '.claude/settings.local.json': '{"permissions":{"allow":["Bash(npm test)"]}}\n',
  '.aider.conf.yml': 'model: the-users-model\n',
};

/** A repository with the bug, the agent (`loop-names.sh how` by default), and the user's files under the loop's names. */
async function namesRepo(how: string, agentCommand = hostile('loop-names.sh', how)): Promise<string> {
  const repo = await bugRepo(agentCommand);
  for (const [path, text] of Object.entries(USER_FILES)) {
    await mkdir(join(repo, path, '..'), { recursive: true });
    await writeFile(join(repo, path), text);
  }
  return repo;
}

const userCopies = async (repo: string) =>
  Object.fromEntries(await Promise.all(Object.keys(USER_FILES).map(async (p) => [p, await readFile(join(repo, p), 'utf8').catch(() => null)])));

describe.each(LEVELS)('at %s', (level) => {
  test.each(['file', 'link'])(
    'a %s named evidence: never committed, GUARDRAIL; the user files under the names the loop leaves out are back',
    async (how) => {
      const repo = await namesRepo(how);
      const r = await cli(repo, ['run', '--isolation', level]);
      expect(r.stdout + r.stderr).not.toMatch(/crashed/);
      expect((await committed(repo)).filter((p) => /^(evidence|\.claude|\.aider)/.test(p))).toEqual([]);
      expect(r.code).toBe(12);
      expect(r.stdout).toMatch(/the loop's own paths changed and reverted: evidence \(a folder the loop keeps/);
      const rep = await readJson<Record<string, any>>(join(repo, 'evidence/loop/halting_report.json'));
      expect(rep).toMatchObject({ stop_reason: 'GUARDRAIL_VIOLATION' });
      expect((await lstat(join(repo, 'evidence'))).isDirectory()).toBe(true);
      expect(await userCopies(repo)).toEqual(USER_FILES);
      expect((await readdir(repo)).filter((n) => n.includes('not-loop-evidence'))).toEqual([]);
    },
    180_000,
  );

  test('the user files under the names the loop leaves out of git (evidence/, .claude/settings.local.json, .aider*) deleted or replaced: put back, none committed', async () => {
    const repo = await namesRepo('folder');
    const r = await cli(repo, ['run', '--isolation', level]);
    expect(r.stdout).toMatch(/halt: EXIT_CONVERGED/);
    expect(await userCopies(repo)).toEqual(USER_FILES);
    expect(r.stdout).toMatch(/put back as they were \(.*\.claude\/settings\.local\.json/);
    expect((await committed(repo)).filter((p) => /^(evidence|\.claude|\.aider)/.test(p))).toEqual([]);
  }, 180_000);

  test('files the agent makes under evidence/ outside the published trees (a note, loop.other/, a regenerable name, one force-added): removed after its step, GUARDRAIL naming them, none committed; the user notes there stay', async () => {
    const repo = await namesRepo('', hostile('evidence-notes.sh'));
    await mkdir(join(repo, 'evidence/build'));
    await writeFile(join(repo, 'evidence/build/mine.txt'), 'the user build notes\n');
    const r = await cli(repo, ['run', '--isolation', level]);
    expect(r.stdout + r.stderr).not.toMatch(/crashed/);
    expect(r.code).toBe(12);
    const said = /the loop's own paths changed and reverted: (.*)/.exec(r.stdout)?.[1] ?? '';
    for (const p of ['evidence/notes/x', 'evidence/loop.other/deep/y', 'evidence/build/z']) expect(said).toContain(`${p} (made under evidence/`);
    const rep = await readJson<Record<string, any>>(join(repo, 'evidence/loop/halting_report.json'));
    expect(rep).toMatchObject({ stop_reason: 'GUARDRAIL_VIOLATION' });
    // Gone from the tree (no later step or run reads them), never committed; the user's own notes stay.
    for (const p of ['evidence/notes/x', 'evidence/notes/forced', 'evidence/loop.other', 'evidence/build/z'])
      expect(
        `${p}: ${await lstat(join(repo, p)).then(
          () => 'present',
          () => 'absent',
        )}`,
      ).toBe(`${p}: absent`);
    expect((await committed(repo)).filter((p) => p.startsWith('evidence'))).toEqual([]);
    expect(await readFile(join(repo, 'evidence/notes.md'), 'utf8')).toBe(USER_FILES['evidence/notes.md']);
    expect(await readFile(join(repo, 'evidence/build/mine.txt'), 'utf8')).toBe('the user build notes\n');
  }, 180_000);

  test('planted evidence/loop.previous.N (the real 1 replaced by a forged one, absurd N, an empty one): removed after the step that made them, GUARDRAIL naming them, never taken for the loop own; the real generation is back', async () => {
    const repo = await bugRepo(hostile('plant-generations.sh'));
    const generations = async () => (await readdir(join(repo, 'evidence'))).filter((n) => n === 'loop' || n.startsWith('loop.')).sort();
    const first = await cli(repo, ['run', '--isolation', level]);
    expect(first.stdout + first.stderr).not.toMatch(/crashed/);
    expect(first.code).toBe(12);
    const said = /the loop's own paths changed and reverted: (.*)/.exec(first.stdout)?.[1] ?? '';
    expect(said).toContain(
      'evidence/loop.previous.99999999999999999999/manifest.json (made in evidence/loop.previous.99999999999999999999, an evidence tree only the loop writes',
    );
    expect(said).toContain('evidence/loop.previous.5 (made in');
    // Gone with the step, not moved aside at the end: nothing at a generation's name for a later step or run.
    expect(await generations()).toEqual(['loop']);
    const manifest = await readFile(join(repo, 'evidence/loop/manifest.json'), 'utf8');
    // The user's real generation: replaced and planted beside during the next run's step (a new bug to fix), back as it was after it.
    await writeFile(join(repo, 'src/status.txt'), 'broken again\n');
    await git(repo, 'commit', '-qam', 'a new bug');
    const fresh = await cli(repo, ['run', '--fresh', '--isolation', level]);
    expect(fresh.stdout).toMatch(/fresh start: the previous evidence tree was moved to evidence\/loop\.previous\.1\n/);
    expect(fresh.code).toBe(12);
    const artifacts = await readJson<{ user_files_restored?: string[] }>(join(repo, 'evidence/loop/iter_0/artifacts.json'));
    expect(artifacts.user_files_restored).toContain('evidence/loop.previous.1/manifest.json');
    expect(await readFile(join(repo, 'evidence/loop.previous.1/manifest.json'), 'utf8')).toBe(manifest);
    expect(await generations()).toEqual(['loop', 'loop.previous.1']);
    // The loop's own copies (in .git, out of the agent's reach) hold its generation alone.
    expect(await readdir(join(repo, '.git/phuc-loop/evidence_loop/previous'))).toEqual(['1']);
    // No step ever found a planted generation.
    expect((await committed(repo)).filter((p) => p === 'src/leak.txt')).toEqual([]);
    expect(await lstat(join(repo, 'src/leak.txt')).catch(() => null)).toBeNull();
  }, 240_000);
});
