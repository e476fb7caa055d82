// Hostile agents found by a blind attack on the built CLI, one per class, at the default isolation
// (user+pidns as root). None may win a certificate or make the loop (root) read, leak or delete
// anything outside the repository.
import { existsSync } from 'node:fs';
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
  // Caught as the agent's change (a link out of the tree, reverted) before the loop would publish through it.
  expect(r.stdout).toMatch(/changes reaching outside the tree reverted: evidence \(a symbolic link out of the tree/);
  expect(await readJson(join(repo, 'evidence/loop/halting_report.json'))).toMatchObject({ stop_reason: 'GUARDRAIL_VIOLATION' });
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

test('a nested repository whose settings would run a command as the loop: reverted, never obeyed, no certificate', async () => {
  const mark = await mkdtemp(join(tmpdir(), 'phuc-mark-'));
  await chmod(mark, 0o777);
  const repo = await bugRepo(hostile('nested-repo.sh', mark));
  const r = await cli(repo, ['run']);
  expect(r.code).toBe(12);
  const rep = await readJson<Record<string, any>>(join(repo, 'evidence/loop/halting_report.json'));
  expect(rep).toMatchObject({ stop_reason: 'GUARDRAIL_VIOLATION' });
  expect(rep.detail).toMatch(/changes reaching outside the tree reverted: sub\/ \(a nested git repository\)/);
  expect(await readdir(mark)).toEqual([]);
  expect(await git(repo, 'ls-tree', '-r', 'HEAD')).not.toMatch(/^160000/m);
});

test('a link out of the tree the checks would follow: reverted, no certificate for a commit no clean clone passes', async () => {
  const outside = await mkdtemp(join(tmpdir(), 'phuc-outside-'));
  await chmod(outside, 0o777);
  const repo = await bugRepo(hostile('link-out.sh', join(outside, 'agent')));
  const r = await cli(repo, ['run']);
  expect(r.code).toBe(12);
  const rep = await readJson<Record<string, any>>(join(repo, 'evidence/loop/halting_report.json'));
  expect(rep.detail).toMatch(/src\/status\.txt \(a symbolic link out of the tree/);
  expect(rep.halting_certificate.type).not.toMatch(/EXACT|CONVERGED/);
  expect(await git(repo, 'ls-tree', '-r', 'HEAD')).not.toMatch(/^120000/m);
});

test('a link to a FIFO outside the tree: the loop (root) never opens it, ends with a report, and the next run does too', async () => {
  const outside = await mkdtemp(join(tmpdir(), 'phuc-outside-'));
  await chmod(outside, 0o777);
  const repo = await bugRepo(hostile('fifo-link.sh', outside));
  const r = await cli(repo, ['run']);
  expect(r.code).toBe(12);
  expect(await readJson(join(repo, 'evidence/loop/halting_report.json'))).toMatchObject({ stop_reason: 'GUARDRAIL_VIOLATION' });
  const again = await cli(repo, ['run']);
  expect(again.code).not.toBe(1);
});

const pytest = existsSync('/usr/lib/python3/dist-packages/pytest');
(pytest ? test : test.skip)(
  'a pytest plugin loaded through pyproject.toml (same tests, all "passing"): the runner configuration is reverted, no certificate',
  async () => {
    const repo = await makeRepo({
      'phuc-loop.yml': config({ criteria: [{ id: 'tests', run: 'python3 -m pytest -q -p no:cacheprovider test' }], agent: hostile('runner-config.sh') }),
      'NORTHSTAR.md': NORTHSTAR,
      'pyproject.toml': '[project]\nname = "calc"\nversion = "0.1.0"\n',
      'calc.py': 'def add(a, b):\n    return a - b\n',
      'test/test_calc.py': 'from calc import add\n\ndef test_add():\n    assert add(2, 3) == 5\n',
    });
    const r = await cli(repo, ['run'], { PYTHONDONTWRITEBYTECODE: '1' });
    expect(r.code).toBe(12);
    const rep = await readJson<Record<string, any>>(join(repo, 'evidence/loop/halting_report.json'));
    expect(rep.detail).toMatch(/runner configuration changed and reverted \(suite integrity\): pyproject\.toml/);
    expect(rep.halting_certificate.type).not.toMatch(/EXACT|CONVERGED/);
    expect(await readFile(join(repo, 'pyproject.toml'), 'utf8')).not.toContain('helper_plugin');
  },
);
