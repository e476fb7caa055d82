import { lstat, mkdtemp, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { atomicWrite, atomicWriteOffThread } from '../../src/engine/evidence/writer.js';

describe('atomic writes off the loop thread', () => {
  test('writes land in the order given (the last write of a path wins), folders are made, no temp file is left', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'phuc-writer-'));
    const writes = Array.from({ length: 200 }, (_, i) => atomicWriteOffThread(join(dir, 'a', 'b', `f${i % 7}.txt`), `${i}\n`));
    writes.push(atomicWriteOffThread(join(dir, 'bytes.bin'), Uint8Array.from([0, 255, 10])));
    await Promise.all(writes);
    for (let k = 0; k < 7; k++) {
      const last = 199 - ((199 - k) % 7);
      expect(await readFile(join(dir, 'a', 'b', `f${k}.txt`), 'utf8')).toBe(`${last}\n`);
    }
    expect([...(await readFile(join(dir, 'bytes.bin')))]).toEqual([0, 255, 10]);
    // Bytes made for the write are handed to the worker, not copied: unusable here after.
    const owned = new TextEncoder().encode('moved\n');
    await atomicWriteOffThread(join(dir, 'moved.txt'), owned, true);
    expect(owned.byteLength).toBe(0);
    expect(await readFile(join(dir, 'moved.txt'), 'utf8')).toBe('moved\n');
    expect((await readdir(join(dir, 'a', 'b'))).filter((f) => f.includes('.tmp-'))).toEqual([]);
  });

  test('a planted link at the path is replaced, never followed; a write that cannot land rejects with its error', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'phuc-writer-'));
    const outside = join(dir, 'outside.txt');
    await writeFile(outside, 'keep\n');
    await symlink(outside, join(dir, 'target.json'));
    await atomicWriteOffThread(join(dir, 'target.json'), '{}\n');
    expect((await lstat(join(dir, 'target.json'))).isFile()).toBe(true);
    expect(await readFile(outside, 'utf8')).toBe('keep\n');
    // A file where a folder should be: the write fails in the worker, and says why.
    await expect(atomicWriteOffThread(join(dir, 'outside.txt', 'x.json'), '{}\n')).rejects.toMatchObject({ code: 'ENOTDIR' });
    await expect(atomicWrite(join(dir, 'outside.txt', 'x.json'), '{}\n')).rejects.toMatchObject({ code: 'ENOTDIR' });
    // The worker goes on writing after a failure.
    await atomicWriteOffThread(join(dir, 'after.txt'), 'ok\n');
    expect(await readFile(join(dir, 'after.txt'), 'utf8')).toBe('ok\n');
  });

  test('writes sent together: a batch that cannot be sent fails its writes (no crash); bytes the caller keeps are taken as they were', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'phuc-writer-'));
    // The same buffer handed over twice in one turn: the message cannot be sent.
    const shared = new TextEncoder().encode('twice\n');
    const results = await Promise.allSettled([
      atomicWriteOffThread(join(dir, 'one.txt'), shared, true),
      atomicWriteOffThread(join(dir, 'two.txt'), shared, true),
      atomicWriteOffThread(join(dir, 'three.txt'), 'same batch\n'),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    const kept = Uint8Array.from([1, 2, 3]);
    const write = atomicWriteOffThread(join(dir, 'kept.bin'), kept);
    kept[0] = 9;
    await write;
    expect([...(await readFile(join(dir, 'kept.bin')))]).toEqual([1, 2, 3]);
    await atomicWriteOffThread(join(dir, 'after.txt'), 'ok\n');
    expect(await readFile(join(dir, 'after.txt'), 'utf8')).toBe('ok\n');
  });
});
