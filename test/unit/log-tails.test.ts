// The lines a killed run appended past the manifest, found by hashes alone (store/log-tails.ts): the
// cut tree verifies whole, and a log that was edited rather than appended to is not cut.
import { appendFile, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyTree } from '../../src/engine/evidence/verify.js';
import { EvidenceStore } from '../../src/engine/store/evidence.js';
import { cutLogTails, findLogTails } from '../../src/engine/store/log-tails.js';

async function tree(): Promise<EvidenceStore> {
  const ev = new EvidenceStore(join(await mkdtemp(join(tmpdir(), 'phuc-tails-')), 'loop'));
  await ev.writeJson('plan.json', { a: 1 });
  await ev.appendLine('history.jsonl', '{"i":0}');
  await ev.appendLine('compaction.log', 'kept');
  await ev.flush();
  await ev.saveManifest();
  return ev;
}

/** The problems `after` names that `before` did not. */
const added = (before: string[], after: string[]) => after.filter((p) => !before.includes(p));

test('a line appended past the manifest (a run killed mid-append) is cut off, and the tree verifies whole', async () => {
  const ev = await tree();
  // What a tree this small lacks (no state, no report) is not the logs' business: the same before and after.
  const before = (await verifyTree(ev.root)).problems;
  expect(before.filter((p) => /\.(jsonl|log):/.test(p))).toEqual([]);
  await appendFile(ev.path('history.jsonl'), '{"i":1}\n{"i":');
  expect(added(before, (await verifyTree(ev.root)).problems)).toEqual([expect.stringMatching(/^history\.jsonl: holds lines past what the manifest records/)]);
  // The same tails verifyTree finds when it is allowed to.
  const tails = await findLogTails(ev);
  expect(tails).toEqual([{ path: 'history.jsonl', bytes: 8 }]);
  expect((await verifyTree(ev.root, { allowLogTails: true })).logTails).toEqual(tails);
  await cutLogTails(ev);
  expect(await readFile(ev.path('history.jsonl'), 'utf8')).toBe('{"i":0}\n');
  expect((await verifyTree(ev.root)).problems).toEqual(before);
});

test('a log edited rather than appended to, or a tree without a parsable manifest, is left as it is', async () => {
  const ev = await tree();
  const before = (await verifyTree(ev.root)).problems;
  await writeFile(ev.path('history.jsonl'), '{"i":9}\n{"i":1}\n');
  expect(await findLogTails(ev)).toEqual([]);
  await cutLogTails(ev);
  expect(await readFile(ev.path('history.jsonl'), 'utf8')).toBe('{"i":9}\n{"i":1}\n');
  expect(added(before, (await verifyTree(ev.root)).problems)).toEqual([expect.stringMatching(/^history\.jsonl: sha256 differs/)]);
  await writeFile(ev.path('manifest.json'), '{ not json');
  expect(await findLogTails(ev)).toEqual([]);
});
