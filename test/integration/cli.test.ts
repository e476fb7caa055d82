// The CLI's own surface: init, usage errors, report --json, verify on a missing tree.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseConfig } from '../../src/engine/config/config.js';
import { parseNorthstar } from '../../src/engine/config/northstar.js';
import { cli, makeRepo } from '../helpers/repo.js';

test('init writes a config and a NORTHSTAR.md that parse, and never overwrites without --force', async () => {
  const repo = await makeRepo({ 'package.json': '{"name":"x","scripts":{"test":"node --test"}}' });
  const r = await cli(repo, ['init']);
  expect(r.code).toBe(0);
  expect(r.stdout).toContain('wrote phuc-loop.yml');
  const config = parseConfig(await readFile(join(repo, 'phuc-loop.yml'), 'utf8'));
  expect(config.acceptance_criteria[0]).toMatchObject({ id: 'tests', run: expect.stringContaining('node --test') });
  const metrics = parseNorthstar(
    await readFile(join(repo, 'NORTHSTAR.md'), 'utf8'),
    config.acceptance_criteria.map((c) => c.id),
  );
  expect(metrics[0]).toMatchObject({ id: 'residual', target: '0', measure: { kind: 'residual' } });
  await writeFile(join(repo, 'NORTHSTAR.md'), 'mine\n');
  const again = await cli(repo, ['init']);
  expect(again.stderr).toContain('NORTHSTAR.md exists; not overwritten (use --force to replace it)');
  expect(await readFile(join(repo, 'NORTHSTAR.md'), 'utf8')).toBe('mine\n');
  expect((await cli(repo, ['init', '--force'])).code).toBe(0);
  expect(await readFile(join(repo, 'NORTHSTAR.md'), 'utf8')).not.toBe('mine\n');
});

test.each([
  [['frobnicate'], /unknown command "frobnicate"; allowed: init \| run \| verify \| report \| schema/],
  [['run', '--agent', 'gpt'], /--agent: got "gpt"; allowed: claude \| codex \| gemini \| aider \| command/],
  [['run', '--max-iterations', '0'], /--max-iterations: got "0"/],
  [['run', '--bogus'], /Unknown option '--bogus'/],
])('usage errors exit 2 and name the problem: %p', async (args, re) => {
  const repo = await makeRepo({ 'a.txt': 'a' });
  const r = await cli(repo, args);
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(re);
});

test('verify and report on a missing tree exit 13 (need info)', async () => {
  const repo = await makeRepo({ 'a.txt': 'a' });
  expect((await cli(repo, ['verify'])).code).toBe(13);
  expect((await cli(repo, ['report'])).code).toBe(13);
});

test('outside a git checkout, run needs info', async () => {
  const { mkdtemp } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const dir = await mkdtemp(join(tmpdir(), 'phuc-nogit-'));
  const r = await cli(dir, ['run']);
  expect(r.code).toBe(13);
  expect(r.stderr).toMatch(/is not a git checkout with at least one commit/);
});

test('an agent CLI that is not installed: pre-flight ends EXIT_NEED_INFO naming it; nothing is committed', async () => {
  const { config, git, NORTHSTAR, readJson } = await import('../helpers/repo.js');
  const repo = await makeRepo({
    'phuc-loop.yml': config({ criteria: [{ id: 't', run: 'false' }], agent: 'x' }).replace(
      / {2}use: command\n {2}run: "x"\n/,
      '  use: gemini\n  run: phuc-no-such-agent-cli\n',
    ),
    'NORTHSTAR.md': NORTHSTAR,
  });
  const r = await cli(repo, ['run']);
  expect(r.code).toBe(13);
  const rep = await readJson<{ stop_reason: string; messages: string[] }>(join(repo, 'evidence/loop/halting_report.json'));
  expect(rep.stop_reason).toBe('CONFIG_INVALID');
  expect(rep.messages.join('\n')).toMatch(/agent\.use: the gemini CLI did not answer `phuc-no-such-agent-cli --version`/);
  expect(await git(repo, 'log', '--format=%s')).toBe('initial\n');
});
