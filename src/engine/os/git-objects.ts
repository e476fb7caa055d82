// Git's loose objects read directly (a commit's tree, a tree's top-level names): the objects git has
// just written, read from the page cache instead of through a git process.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { readOr, readRegularSync } from './tree-file.js';

/** The body of a loose object git just wrote, checked against its name and type; null when not loose. */
export function looseObject(commonDir: string, id: string, type: 'commit' | 'tree'): Buffer | null {
  const file = join(commonDir, 'objects', id.slice(0, 2), id.slice(2));
  const z = readRegularSync(file, 64 << 20);
  const raw = z && readOr(() => inflateSync(z), null);
  if (
    !raw ||
    createHash(id.length === 64 ? 'sha256' : 'sha1')
      .update(raw)
      .digest('hex') !== id
  )
    return null;
  const nul = raw.indexOf(0);
  return raw.subarray(0, nul).toString('latin1').startsWith(`${type} `) ? raw.subarray(nul + 1) : null;
}

/** The names of a tree object's entries ("<mode> <name>\0" then the binary object id, `idBytes` long); null when cut short. */
export function treeNames(body: Buffer, idBytes: number): Set<string> | null {
  const names = new Set<string>();
  for (let at = 0; at < body.length;) {
    const nul = body.indexOf(0, at);
    if (nul < 0) return null;
    const entry = body.subarray(at, nul).toString('utf8');
    names.add(entry.slice(entry.indexOf(' ') + 1));
    at = nul + 1 + idBytes;
  }
  return names;
}

/** A checkout's objects by their id, read loose where git just wrote them, else through git. */
export class ObjectReader {
  /**
   * What was read of objects by their id (a commit's tree, a tree's top-level names): an object never
   * changes, and each iteration asks again about the commit the last one made. The last few are kept.
   */
  private readonly known = new Map<string, string | ReadonlySet<string>>();

  private async remembered<T extends string | ReadonlySet<string>>(key: string, read: () => Promise<T | null>): Promise<T | null> {
    const hit = this.known.get(key);
    if (hit !== undefined) return hit as T;
    const value = await read();
    if (value === null) return null;
    if (this.known.size >= 8) this.known.delete(this.known.keys().next().value!);
    this.known.set(key, value);
    return value;
  }

  constructor(
    private readonly commonDir: () => Promise<string>,
    /** A git call's output; a failure is an error unless allowed. */
    private readonly git: (args: string[], allowFail?: boolean) => Promise<string>,
  ) {}

  /** The tree of `commit`: read from its loose object when git wrote it as one (a new commit), else from git. */
  async commitTree(commit: string): Promise<string> {
    return (await this.remembered(`tree of ${commit}`, async () => {
      const tree = /^tree ([0-9a-f]{40,64})\n/.exec(
        looseObject(await this.commonDir(), commit, 'commit')
          ?.subarray(0, 80)
          .toString('latin1') ?? '',
      )?.[1];
      return tree ?? (await this.git(['rev-parse', '--verify', `${commit}^{tree}`])).trim();
    }))!;
  }

  /** The names at the top of `tree`: from its loose object, else from git (a tree git found already packed). */
  topLevelNames(tree: string): Promise<ReadonlySet<string> | null> {
    return this.remembered(`names in ${tree}`, () => this.readTopLevelNames(tree));
  }

  private async readTopLevelNames(tree: string): Promise<Set<string> | null> {
    const body = looseObject(await this.commonDir(), tree, 'tree');
    if (!body) return new Set((await this.git(['ls-tree', '-z', '--name-only', tree], true)).split('\0').filter(Boolean));
    return treeNames(body, tree.length / 2);
  }
}
