import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ancestorInTheWay,
  isLinkIn,
  linkLeavesTree,
  openRegular,
  readAsGit,
  readAsGitIn,
  readRegular,
  readRegularIn,
  readRegularSync,
} from '../../src/engine/os/tree-file.js';

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
    // The same from the loop's thread (git's files): a FIFO there would block the whole loop.
    expect(readRegularSync(join(dir, 'file'))?.toString()).toBe('text');
    for (const name of ['fifo', 'to-fifo', 'to-outside', 'missing']) expect(readRegularSync(join(dir, name))).toBeNull();
    expect(readRegularSync(join(dir, 'file'), 2)).toBeNull();
  });

  test("as git sees it: a link is its target's text, never what it points to; a FIFO is nothing", async () => {
    expect((await readAsGit(join(dir, 'to-outside')))?.toString()).toBe('/etc/hostname');
    expect((await readAsGit(join(dir, 'to-fifo')))?.toString()).toBe(join(dir, 'fifo'));
    expect(await readAsGit(join(dir, 'fifo'))).toBeNull();
    expect((await readAsGit(join(dir, 'file')))?.toString()).toBe('text');
  });
});

describe('links judged as the kernel resolves them, folders on the way never followed', () => {
  let root: string;
  beforeAll(async () => {
    const base = await mkdtemp(join(tmpdir(), 'phuc-tree-links-'));
    root = join(base, 'repo');
    await mkdir(join(root, 'x/y'), { recursive: true });
    await mkdir(join(root, 'src'));
    await mkdir(join(base, 'victim'));
    await writeFile(join(base, 'victim', 'f'), 'outside');
    await writeFile(join(root, 'src', 'f'), 'inside');
    await symlink('../..', join(root, 'x/y/l1')); // the root
    await symlink('x/y/l1/../victim', join(root, 'pkg')); // reads in-tree, climbs out
    await symlink('../x/y/l1/src/f', join(root, 'src/ok')); // in-tree through a link
    await symlink('/etc/hostname', join(root, 'abs'));
    await symlink('nowhere/../src/f', join(root, 'dangling-in'));
    await symlink('nowhere/../../f', join(root, 'dangling-out'));
    await symlink('x/y/l1/.git/config', join(root, 'into-git'));
    await symlink('loop', join(root, 'loop'));
  });

  test('a target is followed through every link on the way; out, absolute, .git and loops are named', () => {
    expect(linkLeavesTree(root, 'pkg')).toBe('it climbs out of the tree');
    expect(linkLeavesTree(root, 'src/ok')).toBeNull();
    expect(linkLeavesTree(root, 'x/y/l1')).toBeNull();
    expect(linkLeavesTree(root, 'abs')).toMatch(/absolute/);
    expect(linkLeavesTree(root, 'dangling-in')).toBeNull();
    expect(linkLeavesTree(root, 'dangling-out')).toBe('it climbs out of the tree');
    expect(linkLeavesTree(root, 'into-git')).toBe('it leads into .git');
    expect(linkLeavesTree(root, 'loop')).toMatch(/more than 40 links/);
  });

  test('a folder on the way that is a link is in the way: nothing is read through it', async () => {
    expect(ancestorInTheWay(root, 'pkg/f')).toEqual({ path: 'pkg', what: 'a symbolic link' });
    expect(ancestorInTheWay(root, 'src/f')).toBeNull();
    expect(ancestorInTheWay(root, 'missing/deeper/f')).toBeNull();
    expect(await readRegularIn(root, 'pkg/f')).toBeNull();
    expect(await readAsGitIn(root, 'pkg/f')).toBeNull();
    expect((await readRegularIn(root, 'src/f'))?.toString()).toBe('inside');
    expect(isLinkIn(root, 'pkg')).toBe(true);
  });
});
