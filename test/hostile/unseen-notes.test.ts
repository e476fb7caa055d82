// What git does not see is no channel between steps and no leftover (SPEC §7; issue 29, the attack
// report's section 4): a hostile agent leaves notes in git-ignored tool-output folders (one under the
// protected test/), an empty folder, a FIFO and a chain of folders past PATH_MAX, and each step looks
// for an earlier step's. After every step what it made that holds nothing git keeps is set aside: a
// tool's output (ignored, regenerable) quietly, the rest outside agent.may_change as a GUARDRAIL
// naming it. No step finds a note, nothing of it is committed or left in the user's tree after the
// run, and the user's own ignored folder and empty folder stay. Real CLI, real repos, at user+pidns
// (as root) and none.
import { execFile } from 'node:child_process';
import { lstat, mkdir, readFile, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { cli, config, FIXTURES, git, makeRepo, NORTHSTAR, readJson } from '../helpers/repo.js';
import { isolationFacts } from '../helpers/isolation.js';

const facts = await isolationFacts();
const LEVELS = [...(process.getuid?.() === 0 && facts.userPidns === null ? ['user+pidns'] : []), 'none'];
const DEEP = 'd'.repeat(200);
const AGENT_MADE = [
  'build',
  '__pycache__',
  'test/__pycache__',
  '.pytest_cache',
  'src/__pycache__',
  'src/empty-note',
  'test/note-dir',
  '.note-dir',
  'test/fifo-note',
  DEEP,
];

const STAMPS = join(FIXTURES, 'hostile', 'unseen-stamps.py');

async function notesRepo(how: string): Promise<string> {
  const repo = await makeRepo({
    'phuc-loop.yml': config({
      criteria: [{ id: 'fixed', run: 'grep -q fixed src/status.txt' }],
      agent: how === 'stamps' ? `/usr/bin/python3 ${JSON.stringify(STAMPS)}` : `sh ${JSON.stringify(join(FIXTURES, 'hostile', 'unseen-notes.sh'))} ${how}`,
      mayChange: ['src/**'],
    }),
    'NORTHSTAR.md': NORTHSTAR,
    '.gitignore': '__pycache__/\nbuild/\n.pytest_cache/\ndist/\n',
    'src/status.txt': 'broken\n',
    'test/check.sh': 'grep -q fixed src/status.txt\n',
  });
  // The user's own: an ignored folder with a file, an empty folder.
  await mkdir(join(repo, 'dist'));
  await writeFile(join(repo, 'dist/users.whl'), 'the user build\n');
  await mkdir(join(repo, 'src/users-empty'));
  return repo;
}

const present = async (repo: string, p: string) =>
  `${p.slice(0, 20)}: ${await lstat(join(repo, p)).then(
    () => 'present',
    () => 'absent',
  )}`;

async function noLeftovers(repo: string): Promise<void> {
  for (const p of [...AGENT_MADE, 'src/leak.txt']) expect(await present(repo, p)).toBe(`${p.slice(0, 20)}: absent`);
  expect(await readFile(join(repo, 'dist/users.whl'), 'utf8')).toBe('the user build\n');
  expect(await present(repo, 'src/users-empty')).toBe('src/users-empty: present');
  // What the loop committed after the user's first commit: the agent's src/status.txt and AGENTS.md only.
  const root = (await git(repo, 'rev-list', '--max-parents=0', 'HEAD')).trim();
  const committed = (await git(repo, 'log', '--all', '--name-only', '--format=', '--not', root)).split('\n').filter(Boolean);
  expect(committed.filter((p) => p !== 'src/status.txt' && p !== 'AGENTS.md' && !p.startsWith('evidence/'))).toEqual([]);
  expect((await git(repo, 'status', '--porcelain', '--ignored')).split('\n').filter((l) => l && !/evidence\/|dist\//.test(l))).toEqual([]);
}

describe.each(LEVELS)('at %s', (level) => {
  test('notes in tool output and an empty folder inside may_change: set aside after every step, quietly; no step finds one', async () => {
    const repo = await notesRepo('quiet');
    const r = await cli(repo, ['run', '--isolation', level, '--max-iterations', '3']);
    expect(r.stdout + r.stderr).not.toMatch(/crashed|GUARDRAIL/);
    expect(r.stdout).toMatch(/EXIT_BUDGET_EXCEEDED|EXIT_BLOCKED/);
    for (const i of [1, 2]) expect(await readFile(join(repo, `evidence/loop/iter_${i}/agent.log`), 'utf8')).toContain('looked, found:\n');
    const artifacts = await readJson<{ set_aside?: string[] }>(join(repo, 'evidence/loop/iter_0/artifacts.json'));
    expect(artifacts.set_aside).toEqual(['.pytest_cache', '__pycache__', 'build', 'src/__pycache__', 'src/empty-note', 'test/__pycache__']);
    await noLeftovers(repo);
  }, 300_000);

  test('an empty folder and a FIFO in protected test/, an empty folder and a chain past PATH_MAX at the root: GUARDRAIL naming each, nothing left, the next run finds nothing', async () => {
    const repo = await notesRepo('guard');
    const r = await cli(repo, ['run', '--isolation', level]);
    expect(r.stdout + r.stderr).not.toMatch(/crashed/);
    expect(r.code).toBe(12);
    const said = /GUARDRAIL: (.*)/.exec(r.stdout)?.[1] ?? '';
    expect(said).toMatch(
      /protected paths changed and reverted: .*test\/fifo-note \(a FIFO, socket or device, set aside\).*test\/note-dir \(a folder holding nothing git lists, set aside\)/,
    );
    expect(said).toMatch(/changes outside agent\.may_change reverted: .*\.note-dir \(a folder holding nothing git lists, set aside\).*d{200} \(a folder/);
    const rep = await readJson(join(repo, 'evidence/loop/halting_report.json'));
    expect(rep).toMatchObject({ stop_reason: 'GUARDRAIL_VIOLATION' });
    await noLeftovers(repo);
    const again = await cli(repo, ['run', '--fresh', '--isolation', level]);
    expect(again.code).toBe(12);
    await noLeftovers(repo);
  }, 300_000);

  test('user.* attributes on tracked files and folders (protected ones too), the times of a protected file and folder: made again as they were after every step; no step finds one', async () => {
    const repo = await notesRepo('stamps');
    const r = await cli(repo, ['run', '--isolation', level, '--max-iterations', '3']);
    expect(r.stdout + r.stderr).not.toMatch(/crashed|GUARDRAIL/);
    expect(r.stdout).toMatch(/EXIT_BUDGET_EXCEEDED|EXIT_BLOCKED/);
    for (const i of [1, 2]) expect(await readFile(join(repo, `evidence/loop/iter_${i}/agent.log`), 'utf8')).toContain('looked, found:\n');
    const artifacts = await readJson<{ restamped?: string[] }>(join(repo, 'evidence/loop/iter_0/artifacts.json'));
    expect(artifacts.restamped).toEqual(['NORTHSTAR.md', 'src', 'test', 'test/check.sh']);
    expect((await promisify(execFile)('/usr/bin/python3', [STAMPS, 'look'], { cwd: repo })).stdout).toBe('looked, found:\n');
    await noLeftovers(repo);
  }, 300_000);
});
