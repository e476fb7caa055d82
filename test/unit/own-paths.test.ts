// own-paths.ts: which paths of the work tree the loop keeps for itself, told from the published path.
import { loopExcludes, ownPaths } from '../../src/engine/loop/own-paths.js';

const own = ownPaths('/repo', '/repo/evidence/loop', ['.aider.tags.cache.v4', 'node_modules']);

test.each([
  ['evidence', 'a folder the loop keeps: it stays a folder'],
  ['scratch', 'a folder the loop keeps: it stays a folder'],
  ['evidence/loop/manifest.json', 'in an evidence tree the loop publishes'],
  ['evidence/loop.previous.2/x', 'in an evidence tree the loop publishes'],
  ['evidence/notes.md', null],
  ['src/evidence/x', null],
  ['.claude/settings.local.json', "an agent CLI's state (/.claude/settings.local.json), which the loop keeps out of commits"],
  ['.aider.conf.yml', "an agent CLI's state (/.aider*), which the loop keeps out of commits"],
  ['.aider.tags.cache.v4/cache.db', null],
  ['.claude/settings.json', null],
  ['src/.aider.conf.yml', null],
])('whyOwn(%s)', (path, why) => {
  expect(own.whyOwn(path)).toBe(why);
});

test.each([
  ['evidence/notes/x', 'made under evidence/, which the loop keeps for itself: removed'],
  ['evidence/loop.other/y', 'made under evidence/, which the loop keeps for itself: removed'],
  ['evidence/build/z', 'made under evidence/, which the loop keeps for itself: removed'],
  ['evidence/loop/x', 'made in evidence/loop, an evidence tree only the loop writes: removed'],
  ['evidence/loop.previous.1/x', 'made in evidence/loop.previous.1, an evidence tree only the loop writes: removed'],
  ['evidence/loop.previous.999999999999', 'made in evidence/loop.previous.999999999999, an evidence tree only the loop writes: removed'],
  ['.claude/settings.local.json', "an agent CLI's state (/.claude/settings.local.json), which the loop keeps out of commits: removed"],
  ['.claude/settings.local.json/hooks', "an agent CLI's state (/.claude/settings.local.json), which the loop keeps out of commits: removed"],
  ['.aider.chat.history.md', "an agent CLI's state (/.aider*), which the loop keeps out of commits: removed"],
  ['.aider.notes/deep/x', "an agent CLI's state (/.aider*), which the loop keeps out of commits: removed"],
  ['.aider.tags.cache.v4/cache.db', null],
  ['.claude/commands/x.md', null],
  ['evidence', null],
  ['evidence-other/x', null],
  ['scratch/STOP', null],
  ['src/x', null],
])('whyReserved(%s)', (path, why) => {
  expect(own.whyReserved(path)).toBe(why);
});

test('a published tree at the top has no folder on the way: nothing is reserved', () => {
  expect(ownPaths('/repo', '/repo/loop-evidence').whyReserved('loop-evidence-notes/x')).toBeNull();
});

test('the names the loop keeps out of commits: the evidence folder top, scratch/, the agent CLIs state', () => {
  expect(loopExcludes('/repo', '/repo/evidence/loop')).toEqual(['/evidence/', '/scratch/', '/.aider*', '/.claude/settings.local.json']);
});
