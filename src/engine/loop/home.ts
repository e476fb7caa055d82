// Where a loop keeps what the agent must not touch: `<git common dir>/phuc-loop/<evidence name>/`,
// mode 0700 and owned by the loop's user, outside the work tree. The evidence tree lives there
// while a run works and is published to `evidence/loop` (the folder users and the Action read)
// when it ends; a published tree without a private one (a restored artifact, another clone) is
// verified and taken in.
import { chmod, lstat, mkdir, open, readdir, readFile, rename, rm, stat, truncate } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { StorageError } from '../common/errors.js';
import { planSchema, type Plan } from '../config/plan.js';
import { EvidenceStore, listFiles, manifestSchema, NOT_EVIDENCE } from '../store/evidence.js';
import { parseDocument } from '../common/document.js';
import type { HaltingReport } from '../evidence/report.js';
import { haltingReportSchema } from '../evidence/report-schema.js';
import { verifyTree, type VerifyResult } from '../evidence/verify.js';
import type { Git } from '../os/git.js';
import { processRunning } from '../os/process.js';
import { readRegular } from '../os/tree-file.js';
import { copyTreeOffThread } from '../os/atomic-write.js';
import { stateSchema, type LoopState } from '../evidence/state.js';
import { frozen } from '../common/canonical.js';
import { listSome } from '../common/markdown.js';

export interface LoopHome {
  root: string;
  evidence: string;
  /** The name of this loop's check workspace folders (see judge/judge-root.ts: one per run, removed when it ends). */
  judge: string;
}

const homeName = (evRel: string) => evRel.replace(/[^A-Za-z0-9._-]/g, '_');

/** The folders of the loop home, outermost first (made by loopHome). */
export async function homeFolders(git: Git, evRel: string): Promise<[top: string, root: string, evidence: string]> {
  const top = join(await git.commonDir(), 'phuc-loop');
  const root = join(top, homeName(evRel));
  return [top, root, join(root, 'evidence')];
}

export async function loopHome(git: Git, evRel: string): Promise<LoopHome> {
  const [top, root, evidence] = await homeFolders(git, evRel);
  // 0711: another user may pass through to the check workspace, never list or read what is here.
  for (const dir of [top, root]) {
    await mkdir(dir, { recursive: true, mode: 0o711 });
    await chmod(dir, 0o711);
  }
  await mkdir(evidence, { recursive: true, mode: 0o700 });
  await chmod(evidence, 0o700);
  const judge = `judge-${createHash('sha256').update(root).digest('hex').slice(0, 16)}`;
  return { root, evidence, judge };
}

/** One loop per evidence tree; a lock left by a dead loop (or a zombie) is taken over. */
export async function acquireLock(home: LoopHome, host: string): Promise<(() => Promise<void>) | string> {
  const path = join(home.root, 'run.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fh = await open(path, 'wx', 0o600);
      await fh.writeFile(`${process.pid}@${host}\n`);
      await fh.close();
      return () => rm(path, { force: true });
    } catch {
      const [pid, owner] = (await readFile(path, 'utf8').catch(() => '')).trim().split('@');
      if (owner === host && Number(pid) > 0 && processRunning(Number(pid)))
        return `another phuc-loop (pid ${pid}) is running on this evidence tree; the oldest loop keeps running: wait for it to end (or stop it: touch scratch/STOP), then \`phuc-loop run\` again`;
      await rm(path, { force: true });
    }
  }
  return 'could not take the evidence lock (another loop took it meanwhile): `phuc-loop run` again once it has ended';
}

const hasFiles = async (root: string) => (await stat(root).catch(() => null))?.isDirectory() && (await listFiles(root)).some((f) => !NOT_EVIDENCE.has(f));

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

/** Every folder from `within` down to `target` that exists is a real folder (not a link, FIFO or device). */
export async function assertRealFolders(within: string, target: string): Promise<void> {
  const rel = relative(within, target).split(sep).filter(Boolean);
  for (let k = 1; k <= rel.length; k++) {
    const p = join(within, ...rel.slice(0, k));
    const st = await lstat(p).catch(() => null);
    if (st && !st.isDirectory())
      throw new StorageError(
        `${relative(within, p)} is not a folder (${st.isSymbolicLink() ? 'a symbolic link' : 'a special file'}): move it away, then \`phuc-loop run\` again; the evidence stays in .git/phuc-loop until then`,
      );
  }
}

export type Restored =
  | { resumed: { plan: Plan; state: LoopState; report: HaltingReport | null } | null; note?: string }
  | { problem: string; code: string }
  /** The config changed where the loop can start over: a new plan, the old tree kept (archiveEvidence). */
  | { replan: string };

/**
 * The lines a killed run appended to its logs past what the manifest records are cut off (`tails`:
 * from verifyTree with allowLogTails; found here when not given), so that the tree verifies whole.
 */
export async function cutLogTails(ev: EvidenceStore, tails?: VerifyResult['logTails']): Promise<void> {
  for (const tail of tails ?? (await verifyTree(ev.root, { allowOpenTail: true, allowLogTails: true })).logTails)
    await truncate(ev.path(tail.path), tail.bytes);
}

/** Whether the loop has a tree of its own (in .git/phuc-loop) and it verifies. */
async function ownCopyVerifies(ev: EvidenceStore): Promise<boolean> {
  if (!(await hasFiles(ev.root)) || (await ev.readText('manifest.json')) === null) return false;
  return (await verifyTree(ev.root, { allowOpenTail: true, allowLogTails: true }).catch(() => ({ ok: false }))).ok;
}

/** Renames `path` aside (never deletes it); returns the suffix, or null when it cannot be moved. */
async function moveAside(path: string): Promise<string | null> {
  const suffix = `.not-loop-evidence-${randomBytes(4).toString('hex')}`;
  return rename(path, `${path}${suffix}`).then(
    () => suffix,
    () => null,
  );
}

/** What a new loop writes before its baseline is on record (see loop.ts newPlan and judgeHead). */
const startFile = (f: string) =>
  ['plan.json', 'state.json', 'manifest.json', 'api_surface_before.txt', 'budget_reduction.log'].includes(f) ||
  f.startsWith('baseline/') ||
  /\.tmp-[0-9a-f]{12}$/.test(f);

/**
 * A loop killed between its plan and the first record of its baseline leaves only its start: the
 * manifest lists nothing but plan.json and state.json (or, from older versions, there is no
 * manifest at all), and every file is one the start writes. It holds no judgement, iteration or
 * certificate: the next run makes the plan and judges the baseline again (SPEC §7: the loop's own
 * crash is never a refusal). Returns why, or null when the tree is anything else.
 */
async function unfinishedStart(ev: EvidenceStore): Promise<string | null> {
  const files = (await listFiles(ev.root)).filter((f) => !NOT_EVIDENCE.has(f));
  if (!files.includes('plan.json') || !files.every(startFile)) return null;
  const text = await ev.readText('manifest.json');
  if (text !== null) {
    let recorded: string[];
    try {
      recorded = parseDocument('manifest.json', text, manifestSchema).files.map((e) => e.path);
    } catch {
      return null;
    }
    if (!recorded.every((f) => f === 'plan.json' || f === 'state.json')) return null;
  }
  return `the previous run was cut off before its baseline was on record (${files.length} file(s) of its start, no judgement): the loop makes its plan and judges the baseline again`;
}

/**
 * What the evidence says about where to start: nothing (or only the report of a run that could
 * not start) → a new loop; a tree → verified, then resumed; anything else → refused, never wiped.
 */
export async function restoreEvidence(
  ev: EvidenceStore,
  published: EvidenceStore,
  o: { contract: string; configPath: string; evRel: string },
): Promise<Restored> {
  // The published tree is what users, the Action's artifact and `verify` see: one that does not
  // verify (edited, or a half-restored artifact) is refused, never silently replaced.
  if (await hasFiles(published.root)) {
    const files = (await listFiles(published.root)).filter((f) => !NOT_EVIDENCE.has(f));
    // A report that does not parse is not a "never started" one: the tree is verified below and refused.
    const report = await published.readJson('halting_report.json', haltingReportSchema).catch(() => null);
    // A report with no goal is a run's that stopped before its plan (NEED_INFO, a model API out of reach).
    const neverStarted = files.every((f) => f === 'halting_report.json' || f === 'manifest.json') && !!report && report.goal === null;
    if (!neverStarted) {
      const check = files.includes('manifest.json') ? await verifyTree(published.root, { allowOpenTail: true }) : null;
      if (!check?.ok) {
        const why = check
          ? `the evidence tree in ${o.evRel} does not verify: ${check.problems.slice(0, 5).join('; ')}`
          : `${o.evRel} holds evidence (${files.slice(0, 3).join(', ')}${files.length > 3 ? ', …' : ''}) but no manifest.json: it cannot be verified`;
        // The loop's own copy (out of the agent's reach) is the record: a published tree edited since
        // (by an agent that was cut off before the loop published again) goes aside, kept.
        const aside = (await ownCopyVerifies(ev)) ? await moveAside(published.root) : null;
        if (!aside) return { code: 'EVIDENCE_UNVERIFIABLE', problem: `${why}; run \`phuc-loop run --fresh\` to keep it aside and start over` };
        const restored = await restoreEvidence(ev, published, o);
        return !('resumed' in restored)
          ? restored
          : {
              ...restored,
              note: [`${why}: moved aside to ${o.evRel}${aside}; resuming from the loop's own copy in .git/phuc-loop`, restored.note]
                .filter(Boolean)
                .join('; '),
            };
      }
      // Taken in when the loop has no tree of its own (a restored artifact, another clone of the repository).
      if (!(await hasFiles(ev.root))) {
        await mkdir(dirname(ev.root), { recursive: true });
        // Beside it first, then in its place: a copy cut off (a kill) leaves no half tree to take for the loop's.
        const tmp = `${ev.root}.tmp-${randomBytes(6).toString('hex')}`;
        await copyTreeOffThread(published.root, tmp, { names: [...NOT_EVIDENCE], paths: check.openTail });
        await chmod(tmp, 0o700);
        await rm(ev.root, { recursive: true, force: true });
        await rename(tmp, ev.root);
      }
    }
  }
  if (!(await hasFiles(ev.root))) return { resumed: null };
  const restart = await unfinishedStart(ev);
  if (restart) return { resumed: null, note: restart };
  if ((await ev.readText('manifest.json')) === null)
    return {
      code: 'EVIDENCE_UNVERIFIABLE',
      problem: `the loop's evidence has no manifest.json: it cannot be verified; run \`phuc-loop run --fresh\` to keep it aside and start over`,
    };
  let check = await verifyTree(ev.root, { allowOpenTail: true, allowLogTails: true });
  // Files no manifest lists, and nothing else amiss, in the loop's own tree: what a run cut off
  // before its manifest (a full disk, a kill) wrote. Nothing rests on them: set aside, not tampering.
  const unlisted = check.unlisted ?? [];
  let setAside: string | null = null;
  if (!check.ok && unlisted.length === check.problems.length) {
    setAside = await setAsideUnlisted(ev.root, unlisted);
    check = await verifyTree(ev.root, { allowOpenTail: true, allowLogTails: true });
  }
  if (!check.ok)
    return {
      code: 'EVIDENCE_UNVERIFIABLE',
      problem: `the evidence tree does not verify: ${check.problems.slice(0, 5).join('; ')}; run \`phuc-loop run --fresh\` to keep it aside and start over`,
    };
  // verifyTree parsed every document: one that does not parse now changed since, and throws EvidenceUnverifiable.
  const plan = await ev.readJson('plan.json', planSchema);
  const state = await ev.readJson('state.json', stateSchema);
  if (!plan || !state)
    return {
      code: 'EVIDENCE_UNVERIFIABLE',
      problem: `the evidence tree has no plan.json/state.json to resume from; run \`phuc-loop run --fresh\` to start over`,
    };
  if (plan.config_sha256 !== o.contract) {
    const changed = `${o.configPath} changed since the plan in ${o.evRel} was made (beyond its budget and agent)`;
    // The fix the last run asked for (a criterion, the residual), or a loop with nothing on record: a new plan.
    const t = state.terminal;
    if (state.next_iteration === 0 || t?.status === 'EXIT_NEED_INFO' || t?.stop_reason === 'RESIDUAL_UNAVAILABLE') return { replan: changed };
    return { code: 'CONFIG_CHANGED', problem: `${changed}; run \`phuc-loop run --fresh\` to start a new loop (the old tree is kept)` };
  }
  if (plan.halting_certificates_applicable.length === 0)
    return {
      code: 'HALTING_CRITERIA_MISSING',
      problem:
        'HALTING_CRITERIA_MISSING: the plan declares no certificate; declare `certificates` in the config and run `phuc-loop run --fresh` to start a new loop',
    };
  await ev.loadManifest();
  for (const stray of check.openTail) await rm(ev.path(stray), { force: true });
  await cutLogTails(ev, check.logTails);
  const report = await ev.readJson('halting_report.json', haltingReportSchema);
  // Past rows and cycles never change: frozen, their text is reused by every save of the state.
  return {
    resumed: { plan, state: { ...state, rows: state.rows.map(frozen), cycles: state.cycles.map(frozen), start_residual: null }, report },
    ...(setAside ? { note: setAside } : {}),
  };
}

/** Moves `files` of the tree at `root` into a folder beside it, kept; says where. */
async function setAsideUnlisted(root: string, files: string[]): Promise<string> {
  const aside = `${root}.unlisted-${randomBytes(4).toString('hex')}`;
  for (const f of files) {
    await mkdir(dirname(join(aside, f)), { recursive: true });
    await rename(join(root, f), join(aside, f));
  }
  return `${listSome(files, 5)}: written by a run cut off before its manifest (a full disk, a kill), set aside in ${aside}`;
}
