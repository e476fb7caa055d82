// Reading what the agent could have planted. The loop reads the work tree as root: a path there may
// be a link to any file of the machine, a FIFO that blocks an open() for ever, or a device. Every
// read of such a path goes through here: never through a link, never blocking, never more than asked.
import { constants, type Stats } from 'node:fs';
import { lstat, open, readlink } from 'node:fs/promises';

export type Opened = { data: Buffer; stat: Stats } | { refused: string };

/**
 * A regular file's bytes (at most `maxBytes`), opened with O_NOFOLLOW (a link at the final name is
 * refused) and O_NONBLOCK (a FIFO does not hang the open); anything else is refused with why.
 */
export async function openRegular(path: string, maxBytes = Infinity): Promise<Opened> {
  let fh;
  try {
    fh = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return { refused: code === 'ELOOP' ? 'it is a symbolic link' : code === 'ENOENT' ? 'it does not exist' : `it cannot be opened (${code})` };
  }
  try {
    const stat = await fh.stat();
    if (!stat.isFile()) return { refused: 'it is not a regular file' };
    if (stat.size > maxBytes) return { refused: `it is larger than ${maxBytes} bytes` };
    return { data: await fh.readFile(), stat };
  } finally {
    await fh.close();
  }
}

/** A regular file's bytes, or null for anything else (absent, a link, a FIFO, too large). */
export async function readRegular(path: string, maxBytes = Infinity): Promise<Buffer | null> {
  const r = await openRegular(path, maxBytes);
  return 'data' in r ? r.data : null;
}

/**
 * A work-tree path as git sees it: a link's target text (what git commits for it, never what it
 * points to), a regular file's bytes; null when absent or neither (git ignores FIFOs and devices).
 */
export async function readAsGit(path: string): Promise<Buffer | null> {
  const st = await lstat(path).catch(() => null);
  if (st?.isSymbolicLink()) return Buffer.from(await readlink(path).catch(() => ''));
  return st?.isFile() ? readRegular(path) : null;
}
