// The earlier evidence trees the loop keeps (`run --fresh`, a replanned loop): archived in the loop
// home, published again when the agent deleted or edited one; planted ones are never taken.
import { lstat, mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import { randomBytes } from 'node:crypto';
import { EvidenceStore } from '../store/evidence.js';
import { readRegular } from '../os/tree-file.js';
import { copyTreeOffThread } from '../os/atomic-write.js';
import { hasFiles, assertRealFolders } from './home.js';
import { publishEvidence } from './publish.js';

/**
 * The loop's own copies of the earlier evidence trees (`previous/<N>` beside its evidence in the
 * loop home): `<published>.previous.N` in the work tree is a copy of one, as `evidence/loop` is of
 * the current tree, so an agent that deletes or edits it loses nothing (publishPrevious puts it back).
 */
const previousStore = (ev: EvidenceStore) => join(dirname(ev.root), 'previous');

/**
 * The generations named in `dir` (`<prefix>N`): N as the loop writes it, a positive safe integer
 * without leading zeros. Any other name (negative, huge, `007`, not a number) is no generation.
 */
async function generationsIn(dir: string, prefix: string): Promise<number[]> {
  return (await readdir(dir).catch(() => [] as string[]))
    .map((n) => (n.startsWith(prefix) ? n.slice(prefix.length) : ''))
    .filter((g) => /^[1-9]\d*$/.test(g) && Number.isSafeInteger(Number(g)))
    .map(Number);
}

/**
 * The start of a run, before any agent step: the first time a loop of this version runs on a tree,
 * the `<published>.previous.N` an older version left in the work tree (and kept nowhere else) are
 * taken into the loop home. From then on only the loop home's copies are earlier trees: whatever
 * appears at such a name later was put there during a run, and is never taken in (publishPrevious
 * moves it aside).
 */
export async function adoptPrevious(ev: EvidenceStore, published: string, within: string): Promise<void> {
  const store = previousStore(ev);
  if (await lstat(store).catch(() => null)) return;
  await assertRealFolders(within, published);
  const prefix = `${basename(published)}.previous.`;
  const tmp = `${store}.tmp-${randomBytes(6).toString('hex')}`;
  await mkdir(tmp, { recursive: true, mode: 0o700 });
  for (const g of await generationsIn(dirname(published), prefix)) await copyRealTree(join(dirname(published), `${prefix}${g}`), join(tmp, String(g)));
  await rename(tmp, store);
}

/** Moves aside whatever stands at `path` (a link is removed: what it points to stays); returns what was done, or null when nothing is there. */
async function clearForLoop(path: string, within: string): Promise<string | null> {
  const st = await lstat(path).catch(() => null);
  if (!st) return null;
  if (st.isSymbolicLink()) {
    await rm(path, { force: true });
    return `${relative(within, path)} is not an evidence tree the loop keeps (a symbolic link made during the run): removed`;
  }
  const aside = `${path}.not-loop-evidence-${randomBytes(4).toString('hex')}`;
  await rename(path, aside);
  return `${relative(within, path)} is not an evidence tree the loop keeps (made during the run): moved aside to ${relative(within, aside)}`;
}

/**
 * `run --fresh`: the published tree is moved aside as `<published>.previous.N` as it is (an edited
 * one included: it is the user's to look at), and the loop's own tree too when it differs (a run
 * that crashed before publishing); each is kept in the loop home as well (previousStore), whose
 * generations alone count: N follows the newest of them, and what stands at that name in the work
 * tree is moved aside first. With `keep` set, only the newest `keep` generations stay, in both places.
 */
export async function archiveEvidence(ev: EvidenceStore, published: string, keep: number | undefined, within: string): Promise<string | null> {
  await assertRealFolders(within, published);
  const parent = dirname(published);
  const prefix = `${basename(published)}.previous.`;
  const store = previousStore(ev);
  await mkdir(parent, { recursive: true });
  await mkdir(store, { recursive: true, mode: 0o700 });
  const generations = (await generationsIn(store, '')).sort((a, b) => a - b);
  let next = (generations.at(-1) ?? 0) + 1;
  let kept: string | null = null;
  const privateManifest = await readFile(join(ev.root, 'manifest.json'), 'utf8').catch(() => null);
  const publishedManifest = await readFile(join(published, 'manifest.json'), 'utf8').catch(() => null);
  if (await hasFiles(published)) {
    kept = join(parent, `${prefix}${next}`);
    await copyRealTree(published, join(store, String(next)));
    await clearForLoop(kept, within);
    await rename(published, kept);
    generations.push(next++);
  }
  if ((await hasFiles(ev.root)) && privateManifest !== publishedManifest) {
    kept = join(parent, `${prefix}${next}`);
    await publishEvidence(ev, join(store, String(next)));
    await clearForLoop(kept, within);
    await publishEvidence(ev, kept);
    generations.push(next++);
  }
  await ev.clear();
  if (keep !== undefined)
    for (const g of generations.slice(0, Math.max(0, generations.length - keep))) {
      await rm(join(parent, `${prefix}${g}`), { recursive: true, force: true });
      await rm(join(store, String(g)), { recursive: true, force: true });
    }
  return kept;
}

/**
 * Copies `from` (a folder of the work tree) to `to`: real folders and regular files only, never
 * through a link (a link, FIFO or device in it is left out), all of it or nothing at `to`.
 */
async function copyRealTree(from: string, to: string): Promise<void> {
  if (!(await lstat(from).catch(() => null))?.isDirectory()) return;
  const tmp = `${to}.tmp-${randomBytes(6).toString('hex')}`;
  await copyTreeOffThread(from, tmp);
  await rm(to, { recursive: true, force: true });
  await rename(tmp, to);
}

/** Whether two trees hold the same files (names, bytes) and folders; links and the like count as a difference. */
async function sameTree(a: string, b: string): Promise<boolean> {
  const [sa, sb] = await Promise.all([lstat(a).catch(() => null), lstat(b).catch(() => null)]);
  if (!sa?.isDirectory() || !sb?.isDirectory()) return false;
  const [na, nb] = await Promise.all([readdir(a, { withFileTypes: true }), readdir(b, { withFileTypes: true })]);
  if (na.length !== nb.length) return false;
  const byName = new Map(nb.map((d) => [d.name, d]));
  for (const d of na) {
    const e = byName.get(d.name);
    if (!e) return false;
    if (d.isDirectory()) {
      if (!e.isDirectory() || !(await sameTree(join(a, d.name), join(b, d.name)))) return false;
    } else {
      if (!d.isFile() || !e.isFile()) return false;
      const [x, y] = await Promise.all([readRegular(join(a, d.name)), readRegular(join(b, d.name))]);
      if (!x || !y || !x.equals(y)) return false;
    }
  }
  return true;
}

/**
 * The end of a run: every earlier tree the loop keeps (previousStore) is at `<published>.previous.N`
 * as it kept it; one the agent deleted, edited or replaced is published again (as publishRun does
 * for the current tree: a link in its place removed, a file moved aside). What stands at a
 * generation's name that the loop does not keep was put there during the run (adoptPrevious): it is
 * moved aside, never left to pass for an earlier tree. Returns what was done.
 */
export async function publishPrevious(ev: EvidenceStore, published: string, within: string): Promise<string[]> {
  const store = previousStore(ev);
  const notes: string[] = [];
  const own = new Set(await generationsIn(store, ''));
  for (const g of [...own].sort((a, b) => a - b)) {
    const target = `${published}.previous.${g}`;
    if (await sameTree(join(store, String(g)), target)) continue;
    await assertRealFolders(within, dirname(target));
    const st = await lstat(target).catch(() => null);
    if (st?.isSymbolicLink()) await rm(target, { force: true });
    else if (st && !st.isDirectory()) await rename(target, `${target}.not-loop-evidence-${randomBytes(4).toString('hex')}`);
    await copyRealTree(join(store, String(g)), `${target}.new`);
    const old = `${target}.old-${randomBytes(6).toString('hex')}`;
    await rename(target, old).catch(() => undefined);
    await rename(`${target}.new`, target);
    await rm(old, { recursive: true, force: true });
    notes.push(`${relative(within, target)} ${st ? 'differed from' : 'was missing, unlike'} the loop's own copy in .git/phuc-loop: published again from it`);
  }
  const prefix = `${basename(published)}.previous.`;
  await assertRealFolders(within, dirname(published));
  for (const name of await readdir(dirname(published)).catch(() => [] as string[])) {
    const g = name.startsWith(prefix) ? name.slice(prefix.length) : '';
    if (!/^\d+$/.test(g) || (own.has(Number(g)) && String(Number(g)) === g)) continue;
    const note = await clearForLoop(join(dirname(published), name), within);
    if (note) notes.push(note);
  }
  return notes;
}
