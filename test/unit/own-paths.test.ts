// own-paths.ts: which paths of the work tree the loop keeps for itself, told from the published path.
import { ownPaths } from '../../src/engine/loop/own-paths.js';

const own = ownPaths('/repo', '/repo/evidence/loop');

test.each([
  ['evidence', 'a folder the loop keeps: it stays a folder'],
  ['scratch', 'a folder the loop keeps: it stays a folder'],
  ['evidence/loop/manifest.json', 'in an evidence tree the loop publishes'],
  ['evidence/loop.previous.2/x', 'in an evidence tree the loop publishes'],
  ['evidence/notes.md', null],
  ['src/evidence/x', null],
])('whyOwn(%s)', (path, why) => {
  expect(own.whyOwn(path)).toBe(why);
});

test.each([
  ['evidence/notes/x', 'made under evidence/, which the loop keeps for itself: removed'],
  ['evidence/loop.other/y', 'made under evidence/, which the loop keeps for itself: removed'],
  ['evidence/build/z', 'made under evidence/, which the loop keeps for itself: removed'],
  ['evidence/loop/x', null],
  ['evidence/loop.previous.1/x', null],
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
