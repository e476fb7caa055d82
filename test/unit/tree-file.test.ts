import { execFileSync } from 'node:child_process';
import { mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openRegular, readAsGit, readRegular } from '../../src/engine/os/tree-file.js';

describe('reading what the agent could have planted', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'phuc-tree-file-'));
    await writeFile(join(dir, 'file'), 'text');
    execFileSync('mkfifo', [join(dir, 'fifo')]);
    await symlink(join(dir, 'fifo'), join(dir, 'to-fifo'));
    await symlink('/etc/hostname', join(dir, 'to-outside'));
  });

  test('a regular file is read; a link, a FIFO and a missing file are refused without blocking', async () => {
    expect((await readRegular(join(dir, 'file')))?.toString()).toBe('text');
    expect(await openRegular(join(dir, 'fifo'))).toEqual({ refused: 'it is not a regular file' });
    expect(await openRegular(join(dir, 'to-fifo'))).toEqual({ refused: 'it is a symbolic link' });
    expect(await openRegular(join(dir, 'missing'))).toEqual({ refused: 'it does not exist' });
    expect(await openRegular(join(dir, 'file'), 2)).toEqual({ refused: 'it is larger than 2 bytes' });
  });

  test("as git sees it: a link is its target's text, never what it points to; a FIFO is nothing", async () => {
    expect((await readAsGit(join(dir, 'to-outside')))?.toString()).toBe('/etc/hostname');
    expect((await readAsGit(join(dir, 'to-fifo')))?.toString()).toBe(join(dir, 'fifo'));
    expect(await readAsGit(join(dir, 'fifo'))).toBeNull();
    expect((await readAsGit(join(dir, 'file')))?.toString()).toBe('text');
  });
});
