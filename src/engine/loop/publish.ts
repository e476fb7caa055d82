// Publishing the run's evidence from the loop home to the work tree's evidence folder, and how the
// published tree stands against the git index.
import { lstat, mkdir, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { sha256 } from '../common/canonical.js';
import { listSome } from '../common/markdown.js';
import { StorageError } from '../common/errors.js';
import { EvidenceStore, manifestEntrySchema, NOT_EVIDENCE } from '../store/evidence.js';
import type { Git } from '../os/git.js';
import { processRunning } from '../os/process.js';
import { copyTreeOffThread } from '../os/atomic-write.js';
import { homeName, hasFiles, assertRealFolders } from './home.js';

/**
 * Copies the private tree to the published folder, replacing it whole (never a half-copied tree).
 * Every folder from `within` (the checkout) down to it must be a real folder: the agent may have
 * put a link there, through which the loop would replace (and delete) something elsewhere.
 */
export async function publishEvidence(ev: EvidenceStore, published: string, within?: string): Promise<void> {
  await ev.flush();
  if (!(await hasFiles(ev.root))) return;
  if (within) await assertRealFolders(within, published);
  const tmp = `${published}.tmp-${randomBytes(6).toString('hex')}`;
  await mkdir(dirname(published), { recursive: true });
  await copyTreeOffThread(ev.root, tmp, { names: [...NOT_EVIDENCE] });
  const old = `${published}.old-${randomBytes(6).toString('hex')}`;
  await rename(published, old).catch(() => undefined);
  await rename(tmp, published);
  await rm(old, { recursive: true, force: true });
}

/**
 * The end of a run: the folders on the way to the published tree were real folders when the run
 * started (assertRealFolders), so whatever stands there now that is not one was put there during
 * the run — by the agent, which may write the whole work tree, `evidence/` included. It never
 * becomes "the evidence": a link is removed (that deletes no file: what it pointed to stays), a
 * file, FIFO or device is moved aside under a name that says it is not the loop's; then the loop's
 * own tree replaces whatever folder is there. When that fails, nothing is left at the published
 * path that could pass for the loop's evidence. Returns what was done, for the log.
 */
export async function publishRun(ev: EvidenceStore, published: string, within: string): Promise<string[]> {
  const notes: string[] = [];
  const rel = relative(within, published).split(sep).filter(Boolean);
  for (let k = 1; k <= rel.length; k++) {
    const p = join(within, ...rel.slice(0, k));
    const st = await lstat(p).catch(() => null);
    if (!st || st.isDirectory()) continue;
    if (st.isSymbolicLink()) {
      await rm(p, { force: true });
      notes.push(
        `${relative(within, p)} was a symbolic link made during the run: removed (what it pointed to is untouched); the loop's evidence is published there instead`,
      );
    } else {
      const aside = `${p}.not-loop-evidence-${randomBytes(4).toString('hex')}`;
      await rename(p, aside);
      notes.push(
        `${relative(within, p)} was not a folder (made during the run): moved aside to ${relative(within, aside)}; the loop's evidence is published there instead`,
      );
    }
  }
  try {
    await publishEvidence(ev, published, within);
  } catch (e) {
    // Whatever stands there is not the loop's tree of this run: it goes aside, never read as the evidence.
    const aside = `${published}.not-loop-evidence-${randomBytes(4).toString('hex')}`;
    const moved = await rename(published, aside).then(
      () => `; what stood there was moved to ${relative(within, aside)}`,
      () => '',
    );
    throw new StorageError(`${e instanceof Error ? e.message : String(e)}${moved}; the loop's evidence is in ${ev.root}`);
  }
  return notes;
}

/** What `verify` and `report` read: the published tree, and how it stands to the loop's own copy. */
export interface PublishedStanding {
  /** The loop-owned copy under .git/phuc-loop for this path, when there is one. */
  own: string | null;
  /** The published path is a symbolic link (the loop never publishes one). */
  link: boolean;
  /** Its manifest.json is byte for byte the loop-owned copy's. */
  matches: boolean;
  /** A run holds the lock: the loop-owned copy is ahead of the published one until it ends. */
  running: boolean;
}

/**
 * How a published evidence tree stands to the loop-owned copy the loop keeps for that path in the
 * repository's .git (where the agent cannot write): the published folder sits in the work tree,
 * so only that copy says whether it is what the loop wrote.
 */
export async function publishedStanding(git: Git, dir: string): Promise<PublishedStanding> {
  const link = (await lstat(dir).catch(() => null))?.isSymbolicLink() ?? false;
  const none = { own: null, link, matches: false, running: false };
  const top = await git.toplevel().catch(() => null);
  if (!top) return none;
  const rel = relative(top, dir);
  if (!rel || rel.startsWith('..') || isAbsolute(rel)) return none;
  const root = join(await git.commonDir(), 'phuc-loop', homeName(rel.split(sep).join('/')));
  const own = join(root, 'evidence');
  const ownManifest = await readFile(join(own, 'manifest.json'), 'utf8').catch(() => null);
  if (ownManifest === null) return none;
  const publishedManifest = link ? null : await readFile(join(dir, 'manifest.json'), 'utf8').catch(() => null);
  const pid = Number((await readFile(join(root, 'run.lock'), 'utf8').catch(() => '')).split('@')[0]);
  const running = pid > 0 && processRunning(pid);
  return { own, link, matches: publishedManifest === ownManifest, running };
}

/**
 * The refusal naming the committed files under the published folder that are not the loop's evidence (no manifest.json
 * in a folder above them lists them with their content): the loop replaces that folder whole when it
 * publishes (and `run --fresh` moves it aside), so a user's committed file there would be overwritten
 * or deleted from the work tree. The run refuses to start while one stands there (SPEC §7).
 */
export async function userFilesInPublished(git: Git, cwd: string, published: string, evRel: string): Promise<string | null> {
  const rel = relative(cwd, published).split(sep).join('/');
  const under = (await git.listFiles()).filter((p) => p.startsWith(`${rel}/`));
  if (!under.length) return null;
  const tracked = await git.indexed(under);
  const manifests = new Map<string, Promise<Map<string, string>>>();
  const listed = (dir: string) => {
    let m = manifests.get(dir);
    if (!m) manifests.set(dir, (m = readListing(join(cwd, dir, 'manifest.json'))));
    return m;
  };
  const theirs: string[] = [];
  for (const p of under.filter((f) => tracked.has(f))) {
    // Every manifest lists its files by their path in the tree (iter_0/manifest.json: iter_0/…).
    const inTree = p.slice(rel.length + 1);
    if (basename(p) === 'manifest.json' || NOT_EVIDENCE.has(inTree)) continue;
    const data = await readFile(join(cwd, p)).catch(() => null);
    if (data === null) continue;
    const sha = sha256(data);
    let ours = false;
    for (let dir = dirname(p); !ours && (dir === rel || dir.startsWith(`${rel}/`)); dir = dirname(dir)) ours = (await listed(dir)).get(inTree) === sha;
    if (!ours) theirs.push(p);
  }
  const them = theirs.length > 1 ? 'them' : 'it';
  return theirs.length
    ? `${listSome(theirs)} ${theirs.length > 1 ? 'are' : 'is'} committed in ${evRel}, where the loop publishes its evidence tree (replacing the folder whole), and not the loop's evidence: ` +
        `move ${them} out of ${evRel} (\`git mv\`, then commit), then \`phuc-loop run\` again`
    : null;
}

const listingSchema = z.object({ files: z.array(manifestEntrySchema) });

/** A manifest's files by path and sha256 (empty when there is none or it is not a manifest). */
async function readListing(path: string): Promise<Map<string, string>> {
  const text = await readFile(path, 'utf8').catch(() => null);
  let parsed: unknown = null;
  try {
    parsed = text === null ? null : JSON.parse(text);
  } catch {
    // not a manifest: lists nothing
  }
  const m = listingSchema.safeParse(parsed);
  return new Map(m.success ? m.data.files.map((f) => [f.path, f.sha256]) : []);
}
