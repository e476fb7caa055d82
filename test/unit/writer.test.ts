import { execFile } from 'node:child_process';
import { chmod, lstat, mkdir, mkdtemp, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { atomicWrite, atomicWriteOffThread, copyTreeOffThread } from '../../src/engine/os/atomic-write.js';

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

  test('a write that requires files is not done while the last write of one of them failed, though sent right behind it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'phuc-writer-'));
    await writeFile(join(dir, 'blocker'), 'a file where a folder should be');
    const listed = join(dir, 'blocker', 'a.json');
    const manifest = join(dir, 'manifest.json');
    // Sent together, without waiting between them: the worker does them in order.
    const [file, list] = await Promise.allSettled([atomicWriteOffThread(listed, '{}\n'), atomicWriteOffThread(manifest, 'lists a.json\n', false, [listed])]);
    expect(file).toMatchObject({ status: 'rejected', reason: { code: 'ENOTDIR' } });
    expect(list).toMatchObject({ status: 'rejected', reason: { code: 'EREQUIRED', message: expect.stringContaining(listed) } });
    await expect(stat(manifest)).rejects.toMatchObject({ code: 'ENOENT' });
    // Another file's failure is not its business; once the listed file lands, so does the manifest.
    await expect(atomicWriteOffThread(join(dir, 'blocker', 'other.json'), '{}\n')).rejects.toMatchObject({ code: 'ENOTDIR' });
    const moved = join(dir, 'folder', 'a.json');
    await Promise.all([atomicWriteOffThread(moved, '{}\n'), atomicWriteOffThread(manifest, 'lists a.json\n', false, [moved])]);
    expect(await readFile(manifest, 'utf8')).toBe('lists a.json\n');
    // A manifest refused counts as a failed file: a root that requires it is not written either,
    // though the root's own path is writable.
    const iteration = join(dir, 'iter.json');
    const root = join(dir, 'root.json');
    const [, refused, top] = await Promise.allSettled([
      atomicWriteOffThread(join(dir, 'blocker', 'b.json'), '{}\n'),
      atomicWriteOffThread(iteration, 'lists b.json\n', false, [join(dir, 'blocker', 'b.json')]),
      atomicWriteOffThread(root, 'lists iter.json\n', false, [iteration]),
    ]);
    expect(refused).toMatchObject({ status: 'rejected', reason: { code: 'EREQUIRED' } });
    expect(top).toMatchObject({ status: 'rejected', reason: { code: 'EREQUIRED', message: expect.stringContaining(iteration) } });
    await expect(stat(iteration)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(stat(root)).rejects.toMatchObject({ code: 'ENOENT' });
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

describe('tree copies off the loop thread', () => {
  /** Every entry under `dir` with its type, mode and content. */
  async function listing(dir: string, rel = ''): Promise<string[]> {
    const out: string[] = [];
    for (const name of (await readdir(join(dir, rel))).sort()) {
      const p = rel ? `${rel}/${name}` : name;
      const st = await lstat(join(dir, p));
      if (st.isDirectory()) out.push(`${p}/ ${(st.mode & 0o777).toString(8)}`, ...(await listing(dir, p)));
      else out.push(`${p} ${(st.mode & 0o777).toString(8)} ${st.isFile() ? (await readFile(join(dir, p))).toString('hex') : 'special'}`);
    }
    return out;
  }

  test('copies real folders and files with their exact modes into a new folder; links, FIFOs and the names asked are left out; nothing is read through a link', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'phuc-copy-'));
    const from = join(dir, 'from');
    const outside = join(dir, 'outside');
    await mkdir(join(outside, 'secret'), { recursive: true });
    await writeFile(join(outside, 'secret', 'key'), 'do not copy\n');
    await mkdir(join(from, 'iter_0', 'checks'), { recursive: true });
    await writeFile(join(from, 'manifest.json'), '{}\n');
    await writeFile(join(from, 'iter_0', 'checks', 'x.log'), Uint8Array.from([0, 1, 255]));
    await writeFile(join(from, 'iter_0', 'private.txt'), 'mode 600\n', { mode: 0o600 });
    await writeFile(join(from, 'run.lock'), 'not evidence\n');
    await writeFile(join(from, 'iter_0', 'run.lock'), 'not evidence either\n');
    await writeFile(join(from, 'iter_0', 'open-tail.json'), 'left out by path\n');
    await symlink(join(outside, 'secret'), join(from, 'linked-folder'));
    await symlink(join(outside, 'secret', 'key'), join(from, 'iter_0', 'linked-file'));
    await promisify(execFile)('mkfifo', [join(from, 'iter_0', 'fifo')]);
    await chmod(join(from, 'iter_0'), 0o750);
    await chmod(from, 0o700);

    await copyTreeOffThread(from, join(dir, 'to'), { names: ['run.lock'], paths: ['iter_0/open-tail.json'] });
    const left = ['linked-folder', 'iter_0/linked-file', 'iter_0/fifo', 'run.lock', 'iter_0/run.lock', 'iter_0/open-tail.json'];
    const copied = (await listing(from)).filter((l) => !left.includes(l.split(/\/? /)[0]));
    expect(copied).toHaveLength(5);
    expect(await listing(join(dir, 'to'))).toEqual(copied);
    expect(copied).toEqual(expect.arrayContaining(['iter_0/ 750', `iter_0/private.txt 600 ${Buffer.from('mode 600\n').toString('hex')}`]));
    expect((await stat(join(dir, 'to'))).mode & 0o777).toBe(0o700);

    // Bits the umask would cut are kept as they are.
    await writeFile(join(from, 'group-writable.txt'), 'g+w\n');
    await chmod(join(from, 'group-writable.txt'), 0o664);
    await copyTreeOffThread(join(from, 'group-writable.txt'), join(dir, 'not-a-folder'));
    await copyTreeOffThread(from, join(dir, 'again'));
    expect((await stat(join(dir, 'again', 'group-writable.txt'))).mode & 0o777).toBe(0o664);
    await copyTreeOffThread(join(from, 'linked-folder'), join(dir, 'through-link'));
    await copyTreeOffThread(join(from, 'missing'), join(dir, 'from-nothing'));
    expect((await readdir(dir)).sort()).toEqual(['again', 'from', 'outside', 'to']);
    // A target that exists is never merged into.
    await mkdir(join(dir, 'empty'));
    await expect(copyTreeOffThread(from, join(dir, 'empty'))).rejects.toMatchObject({ code: 'EEXIST' });
  });
});
