// AGENTS.md keeps exactly one loop section: markers the agent forges anywhere in the file (before
// or after the section, repeated, nested inside it, unbalanced) are made plain text in every commit
// the loop makes, and the user's words around them stay.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { agent, cli, config, git, makeRepo, NORTHSTAR } from '../helpers/repo.js';
import { extractSection } from '../../src/engine/memory/agents-md.js';

const MARKER = /<!--[\s-]*phuc-loop\s*:\s*(begin|end)/gi;

test('forged AGENTS.md markers are neutralised in every loop commit; one loop section, the user text kept', async () => {
  const repo = await makeRepo({
    'phuc-loop.yml': config({
      criteria: [1, 2, 3].map((k) => ({ id: `bug${k}`, run: `grep -q fixed-${k} src/status.txt` })),
      agent: agent('marker-forger.mjs'),
    }),
    'NORTHSTAR.md': NORTHSTAR,
    'AGENTS.md': '# House rules\n\nHand-written rule: run the linter.\n',
    'src/status.txt': 'start\n',
  });
  const r = await cli(repo, ['run']);
  expect(r.code).toBe(0);
  const commits = (await git(repo, 'log', '--format=%H', 'main', '-3')).trim().split('\n');
  expect(commits).toHaveLength(3);
  for (const c of commits) {
    const md = await git(repo, 'show', `${c}:AGENTS.md`);
    expect([...md.matchAll(MARKER)].map((m) => m[1].toLowerCase())).toEqual(['begin', 'end']);
    expect(md).toContain('# House rules\n\nHand-written rule: run the linter.\n');
    const section = extractSection(md)!;
    expect(section.startsWith('# AGENTS.md — Loop Learnings Log')).toBe(true);
    expect(section).not.toContain('FORGED');
  }
  // The forged words outside the section are kept as plain text (the nested pair went with the section).
  const last = await readFile(join(repo, 'AGENTS.md'), 'utf8');
  for (const k of ['before', 'after', 'repeated', 'unclosed']) expect(last).toContain(`FORGED ${k}`);
  expect(last).toContain('(a phuc-loop end marker the loop did not write)');
  expect((await cli(repo, ['verify'])).code).toBe(0);
});
