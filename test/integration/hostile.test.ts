// Hostile agents found by a blind attack on the built CLI, one per class, at the default isolation
// (user+pidns as root). None may win a certificate or make the loop (root) read, leak or delete
// anything outside the repository.
import { chmod, mkdir, mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, config, FIXTURES, git, makeRepo, NORTHSTAR, readJson } from '../helpers/repo.js';

const hostile = (name: string, ...args: string[]) => `sh ${JSON.stringify(join(FIXTURES, 'hostile', name))} ${args.map((a) => JSON.stringify(a)).join(' ')}`;
const bugRepo = (agentCommand: string, extra: Record<string, string> = {}) =>
  makeRepo({
    'phuc-loop.yml': config({ criteria: [{ id: 'fixed', run: 'grep -q fixed src/status.txt' }], agent: agentCommand }),
    'NORTHSTAR.md': NORTHSTAR,
    'src/status.txt': 'broken\n',
    ...extra,
  });

/** A folder only root can enter, holding `file` with `text`. */
async function rootOnly(file: string, text: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'phuc-victim-'));
  await writeFile(join(dir, file), text);
  await chmod(join(dir, file), 0o600);
  await chmod(dir, 0o700);
  return dir;
}

test('AGENTS.md made a link to a root-only file: its content reaches no commit and no later prompt', async () => {
  const victim = await rootOnly('secret.txt', 'ROOT-ONLY-CONTENT-4711\n');
  const repo = await bugRepo(hostile('agentsmd-link.sh', join(victim, 'secret.txt')));
  await cli(repo, ['run']);
  expect(await git(repo, 'log', '-p', '--all')).not.toContain('ROOT-ONLY-CONTENT-4711');
  expect(await readFile(join(victim, 'secret.txt'), 'utf8')).toBe('ROOT-ONLY-CONTENT-4711\n');
});

test('the evidence folder replaced by a link: the user folder it points to is untouched, the loop says why', async () => {
  const victim = await mkdtemp(join(tmpdir(), 'phuc-victim-'));
  await chmod(victim, 0o755);
  await mkdir(join(victim, 'loop'));
  await writeFile(join(victim, 'loop', 'important.txt'), 'user data\n');
  const repo = await bugRepo(hostile('evidence-link.sh', victim));
  const r = await cli(repo, ['run']);
  expect(await readdir(join(victim, 'loop'))).toEqual(['important.txt']);
  expect(r.stderr).toMatch(/evidence is not a folder \(a symbolic link\)/);
});

test.each([['link'], ['folder']])('the report channel as a %s: no crash, a halting report, and root-only files are neither read nor deleted', async (how) => {
  const victim = await rootOnly('report.json', '{"tried":["ROOT-ONLY-REPORT"]}');
  const repo = await bugRepo(hostile('report-tricks.sh', how, victim));
  const r = await cli(repo, ['run']);
  expect(r.code).not.toBe(1);
  expect(await readJson(join(repo, 'evidence/loop/halting_report.json'))).toHaveProperty('status');
  expect(await readFile(join(victim, 'report.json'), 'utf8')).toBe('{"tried":["ROOT-ONLY-REPORT"]}');
  expect(await git(repo, 'log', '-p', '--all')).not.toContain('ROOT-ONLY-REPORT');
});

test('a weakened package.json test script is reverted: GUARDRAIL_VIOLATION, no certificate', async () => {
  const repo = await makeRepo({
    'phuc-loop.yml': config({ criteria: [{ id: 'tests', run: 'npm test' }], agent: hostile('script-weakener.sh') }),
    'NORTHSTAR.md': NORTHSTAR,
    'package.json': '{ "name": "x", "version": "1.0.0", "scripts": { "test": "node --test test/" } }\n',
    'test/a.test.mjs': "import test from 'node:test';\nimport assert from 'node:assert';\ntest('a', () => assert.equal(1, 2));\n",
  });
  const r = await cli(repo, ['run']);
  expect(r.code).toBe(12);
  const rep = await readJson<Record<string, any>>(join(repo, 'evidence/loop/halting_report.json'));
  expect(rep).toMatchObject({ stop_reason: 'GUARDRAIL_VIOLATION' });
  expect(rep.detail).toMatch(/package\.json/);
  expect(await readFile(join(repo, 'package.json'), 'utf8')).toContain('node --test test/');
});
