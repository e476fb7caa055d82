import { mkdtemp, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sha256 } from '../../src/engine/common/canonical.js';
import { EvidenceStore } from '../../src/engine/store/evidence.js';

describe('evidence store', () => {
  test("an iteration's manifest that cannot be written: no root manifest lists it, and the next save writes it", async () => {
    const root = join(await mkdtemp(join(tmpdir(), 'phuc-ev-')), 'loop');
    const ev = new EvidenceStore(root);
    await ev.write('plan.json', '{}\n');
    await ev.write('iter_0/a.txt', 'hello\n');
    await ev.flush();
    // The iteration's folder is replaced by a file after its files landed (a disk that refuses writes).
    await rename(join(root, 'iter_0'), join(root, 'iter_0.moved'));
    await writeFile(join(root, 'iter_0'), 'x');
    // A storage failure (the run ends blocked), naming why.
    await expect(ev.saveManifest()).rejects.toMatchObject({ code: 'STORAGE_FAILURE', message: expect.stringMatching(/ENOTDIR/) });
    await expect(readFile(join(root, 'manifest.json'))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(ev.entry('iter_0/manifest.json')).toBeUndefined();
    await rm(join(root, 'iter_0'));
    await rename(join(root, 'iter_0.moved'), join(root, 'iter_0'));
    await ev.saveManifest();
    const iteration = await readFile(join(root, 'iter_0', 'manifest.json'));
    expect(JSON.parse(iteration.toString()).files.map((f: { path: string }) => f.path)).toEqual(['iter_0/a.txt']);
    const listed = JSON.parse(await readFile(join(root, 'manifest.json'), 'utf8')).files;
    expect(listed).toContainEqual({ path: 'iter_0/manifest.json', sha256: sha256(iteration), bytes: iteration.byteLength });
  });

  test('atomic writes, manifest with sha256, append-only logs, links', async () => {
    const root = join(await mkdtemp(join(tmpdir(), 'phuc-ev-')), 'loop');
    const ev = new EvidenceStore(root);
    await ev.writeJson('plan.json', { b: 1, a: [2] });
    // A write returns before the file is on disk; reading through the store waits for it, flush() for all.
    expect(await ev.readText('plan.json')).toBe('{\n  "a": [\n    2\n  ],\n  "b": 1\n}\n');
    await ev.flush();
    expect(await readFile(join(root, 'plan.json'), 'utf8')).toBe('{\n  "a": [\n    2\n  ],\n  "b": 1\n}\n');
    await ev.appendLine('history.jsonl', '{"i":0}');
    await ev.appendLine('history.jsonl', '{"i":1}');
    await ev.flush();
    expect(await readFile(join(root, 'history.jsonl'), 'utf8')).toBe('{"i":0}\n{"i":1}\n');
    await ev.saveManifest();
    const m = JSON.parse(await readFile(join(root, 'manifest.json'), 'utf8'));
    expect(m.files.map((f: { path: string }) => f.path)).toEqual(['history.jsonl', 'plan.json']);
    expect(ev.link('plan.json')).toBe(`plan.json#${sha256(await readFile(join(root, 'plan.json')))}`);
    expect((await readdir(root)).filter((f) => f.includes('.tmp-'))).toEqual([]);
    const again = new EvidenceStore(root);
    expect(await again.loadManifest()).toBe(true);
    await again.appendLine('history.jsonl', '{"i":2}');
    await again.flush();
    expect(await readFile(join(root, 'history.jsonl'), 'utf8')).toBe('{"i":0}\n{"i":1}\n{"i":2}\n');
    // Each line is scrubbed and hashed as it comes (a running hash): the manifest's figures are the file's.
    again.scrub = (text) => text.replaceAll('hunter2', '***');
    await again.appendLine('history.jsonl', 'pass hunter2\n');
    await again.appendLine('history.jsonl', 'é');
    await again.flush();
    const bytes = await readFile(join(root, 'history.jsonl'));
    expect(bytes.toString('utf8')).toBe('{"i":0}\n{"i":1}\n{"i":2}\npass ***\né\n');
    expect(again.entry('history.jsonl')).toEqual({ path: 'history.jsonl', sha256: sha256(bytes), bytes: bytes.length });
  });
  test('an append-only log grows in place by its new lines; a log changed under the store fails the next flush', async () => {
    const root = join(await mkdtemp(join(tmpdir(), 'phuc-ev-')), 'loop');
    const ev = new EvidenceStore(root);
    await ev.appendLine('compaction.log', 'one');
    await ev.flush();
    const first = await stat(join(root, 'compaction.log'));
    for (const line of ['two', 'three']) await ev.appendLine('compaction.log', line);
    await ev.flush();
    const after = await stat(join(root, 'compaction.log'));
    // The same file, longer: appended to, not replaced by a rewrite.
    expect([after.ino, after.size]).toEqual([first.ino, 'one\ntwo\nthree\n'.length]);
    expect(await readFile(join(root, 'compaction.log'), 'utf8')).toBe('one\ntwo\nthree\n');
    await expect(ev.appendLine('notes.txt', 'x')).rejects.toThrow(/not an append-only log/);
    // Something else wrote there: the store does not append blindly to a file it does not know.
    await writeFile(join(root, 'compaction.log'), 'replaced\n');
    await ev.appendLine('compaction.log', 'four');
    await expect(ev.flush()).rejects.toMatchObject({
      code: 'STORAGE_FAILURE',
      message: expect.stringMatching(/not the log the loop wrote \(9 bytes, not 14\)/),
    });
  });

  test('a file whose write failed is in no manifest saved after (until a write of it lands)', async () => {
    const root = join(await mkdtemp(join(tmpdir(), 'phuc-ev-')), 'loop');
    const ev = new EvidenceStore(root);
    await ev.write('plan.json', '{}\n');
    await ev.saveManifest();
    await writeFile(join(root, 'iter_0'), 'a file where the folder should be');
    await ev.write('iter_0/checks/big.log', 'no room for this\n');
    await expect(ev.saveManifest()).rejects.toMatchObject({ code: 'STORAGE_FAILURE' });
    // The run ends blocked and saves its state: the manifest lists only files that are on disk.
    await rm(join(root, 'iter_0'));
    await ev.write('halting_report.json', '{}\n');
    await ev.saveManifest();
    expect(ev.entry('iter_0/checks/big.log')).toBeUndefined();
    const listed = JSON.parse(await readFile(join(root, 'manifest.json'), 'utf8')).files.map((f: { path: string }) => f.path);
    expect(listed).toEqual(['halting_report.json', 'plan.json']);
    await ev.write('iter_0/checks/big.log', 'written now\n');
    await ev.saveManifest();
    expect(ev.entry('iter_0/checks/big.log')).toBeDefined();
  });

  test('writes of one path land in order; a write that fails is thrown by the next flush, and no manifest is written past it', async () => {
    const root = join(await mkdtemp(join(tmpdir(), 'phuc-ev-')), 'loop');
    const ev = new EvidenceStore(root);
    for (let i = 0; i < 50; i++) await ev.write('state.json', String(i));
    await ev.write('iter_0/a.txt', 'a');
    await ev.flush();
    expect(await readFile(join(root, 'state.json'), 'utf8')).toBe('49');
    // A file where the folder should be: the write of iter_1/b.txt cannot land.
    await ev.write('iter_1', 'not a folder');
    await ev.flush();
    await ev.write('iter_1/b.txt', 'b');
    await expect(ev.saveManifest()).rejects.toThrow(/ENOTDIR|EEXIST/);
    await expect(readFile(join(root, 'manifest.json'), 'utf8')).rejects.toThrow(/ENOENT/);
  });
  test('canonical JSON refuses floats', async () => {
    const ev = new EvidenceStore(await mkdtemp(join(tmpdir(), 'phuc-ev-')));
    await expect(ev.writeJson('x.json', { residual: 0.1 })).rejects.toThrow(/Decimal string/);
  });
});
