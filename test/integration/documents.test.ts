// A persisted document with a wrong-typed field, even one whose sha256 the manifest agrees with
// (rewritten consistently), ends the next run EXIT_BLOCKED(EVIDENCE_UNVERIFIABLE) naming the file
// and the field, and `verify` fails the same way: never a crash, never a silent fresh start.
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sha256 } from '../../src/engine/common/canonical.js';
import { agent, cli, config, git, makeRepo, NORTHSTAR } from '../helpers/repo.js';

type Json = Record<string, unknown>;

/** Rewrites `rel` in the published tree and its manifest entry, as a careful forger would. */
async function rewrite(tree: string, rel: string, edit: (text: string) => string): Promise<void> {
  const text = edit(await readFile(join(tree, rel), 'utf8'));
  await writeFile(join(tree, rel), text);
  const manifest = JSON.parse(await readFile(join(tree, 'manifest.json'), 'utf8')) as { files: { path: string; sha256: string; bytes: number }[] };
  const entry = manifest.files.find((f) => f.path === rel)!;
  entry.sha256 = sha256(text);
  entry.bytes = Buffer.byteLength(text);
  await writeFile(join(tree, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
}

const editJson = (f: (v: Json) => void) => (text: string) => {
  const v = JSON.parse(text) as Json;
  f(v);
  return JSON.stringify(v, null, 2) + '\n';
};

const CASES: [string, string, (text: string) => string, RegExp][] = [
  ['state.json', 'state.json', editJson((s) => (s.next_iteration = '1')), /state\.json: next_iteration: Invalid input: expected number, received string/],
  [
    'plan.json',
    'plan.json',
    editJson((p) => ((p.acceptance_criteria as Json[])[0].timeout_seconds = '900')),
    /plan\.json: acceptance_criteria\.0\.timeout_seconds: Invalid input: expected number, received string/,
  ],
  [
    'a history.jsonl line',
    'history.jsonl',
    (text) => {
      const [first, ...rest] = text.split('\n');
      return [JSON.stringify({ ...(JSON.parse(first) as Json), glow: 'high' }), ...rest].join('\n');
    },
    /history\.jsonl line 1: glow: Invalid input: expected number, received string/,
  ],
];

test.each(CASES)('%s with a wrong-typed field: EXIT_BLOCKED naming the file and the field', async (_name, rel, edit, named) => {
  const repo = await makeRepo({
    'phuc-loop.yml': config({
      criteria: [{ id: 'bug2', run: 'grep -q fixed-2 src/status.txt' }],
      agent: agent('fixer.mjs'),
      extra: 'budget:\n  max_iterations: 1\n',
    }),
    'NORTHSTAR.md': NORTHSTAR,
    'src/status.txt': '',
  });
  expect((await cli(repo, ['run'])).code).toBe(11);
  // Only the published tree remains (a restored artifact, another clone): it is verified, then taken in.
  await rm(join(repo, '.git/phuc-loop'), { recursive: true, force: true });
  const tree = join(repo, 'evidence/loop');
  await rewrite(tree, rel, edit);
  const edited = await readFile(join(tree, rel), 'utf8');
  await writeFile(join(repo, 'x.txt'), 'change\n');
  await git(repo, 'add', 'x.txt');
  await git(repo, 'commit', '-qm', 'x');

  const r = await cli(repo, ['run']);
  expect(r.code).toBe(12);
  expect(r.stdout + r.stderr).toMatch(/EXIT_BLOCKED\(EVIDENCE_UNVERIFIABLE\)/);
  expect(r.stderr).toMatch(named);
  // Refused, not replaced: the tree stays as it was for the user to look at.
  expect(await readFile(join(tree, rel), 'utf8')).toBe(edited);

  const v = await cli(repo, ['verify']);
  expect(v.code).not.toBe(0);
  expect(v.stdout + v.stderr).toMatch(named);
});
