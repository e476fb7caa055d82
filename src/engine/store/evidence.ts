// The evidence tree (SPEC §5): every file written atomically (temp file + rename) and recorded in
// manifest.json with its sha256, so `phuc-loop verify` needs nothing but the tree itself.
import { createHash, type Hash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { types } from 'node:util';
import { z } from 'zod';
import { canonicalJson, sha256 } from '../common/canonical.js';
import { parseDocument } from '../common/document.js';
import { StorageError } from '../common/errors.js';
import { appendOffThread, atomicWriteOffThread, sendWrites } from '../os/atomic-write.js';

export const MANIFEST = 'manifest.json';
const utf8 = new TextEncoder();
/**
 * The logs the loop only appends lines to (at the tree's top). A run cut off between an append and
 * the manifest that records it leaves lines past what the manifest holds: verify tells such a tail
 * from an edit (the manifest's bytes are the file's start), and a resumed run cuts it off.
 */
/** The run-level stages' phase timings (the start, the baseline or resume judgement, replays, the end; evidence/phases.ts), one line per stage and run. */
export const PHASES_LOG = 'phases.jsonl';

export const APPEND_ONLY_LOGS = new Set(['history.jsonl', 'compaction.log', 'northstar_drift.log', PHASES_LOG]);

/**
 * The halting report of the latest run when it stopped before writing an evidence tree of its own
 * (EXIT_NEED_INFO beside an earlier loop's evidence): `phuc-loop report` shows it, never the older
 * run's report as the current one. Any later run's publication replaces the folder without it.
 */
export const LATEST_RUN_REPORT = 'latest_run_report.json';

/** Files in the evidence folder that are not evidence (the run lock, the report of a run that wrote none). */
export const NOT_EVIDENCE = new Set(['run.lock', LATEST_RUN_REPORT]);

export const manifestEntrySchema = z.object({
  path: z.string().min(1),
  sha256: z.string().regex(/^[0-9a-f]{64}$/, { error: 'must be 64 lowercase hex digits' }),
  bytes: z.number().int().min(0),
});
export type ManifestEntry = z.infer<typeof manifestEntrySchema>;

/** manifest.json and iter_N/manifest.json. */
export const manifestSchema = z.object({ schema_version: z.literal('2.0'), files: z.array(manifestEntrySchema) });
export type Manifest = z.infer<typeof manifestSchema>;

/** Each iteration's files are listed in its own frozen `iter_N/manifest.json`, which the root lists. */
const ITERATION = /^(iter_\d+)\//;
export const isIterationManifest = (path: string) => /^iter_\d+\/manifest\.json$/.test(path);

/** Canonical JSON of a manifest (the bytes canonicalJson would give, without walking it generically). */
function manifestText(files: ManifestEntry[]): string {
  const rows = [...files]
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .map((f) => `    {\n      "bytes": ${f.bytes},\n      "path": ${JSON.stringify(f.path)},\n      "sha256": "${f.sha256}"\n    }`);
  return `{\n  "files": [${rows.length ? `\n${rows.join(',\n')}\n  ` : ''}],\n  "schema_version": "2.0"\n}\n`;
}

/** The manifest that lists `rel`: its iteration's (`iter_N`), or the root's (''), which lists the iterations' manifests. */
const listedIn = (rel: string) => (isIterationManifest(rel) ? '' : (ITERATION.exec(rel)?.[1] ?? ''));

export class EvidenceStore {
  /** Every file's entry, by the manifest that lists it: a manifest is written without a walk over every file of the run. */
  private readonly listed = new Map<string, Map<string, ManifestEntry>>();
  /** Each log's text, running hash and size as written in this run; `onDisk`: the bytes the file holds, null until it is written whole. */
  private readonly appendCache = new Map<string, { text: string; hash: Hash; bytes: number; onDisk: number | null }>();
  /** Iterations whose manifest must be rewritten (the root manifest stays small: O(iterations)). */
  private readonly dirty = new Set<string>();

  /** Masks every known secret in text written here (set by the loop: one scrubber for everything, SPEC §7). */
  scrub: (text: string) => string = (text) => text;

  constructor(readonly root: string) {}

  path(rel: string): string {
    return join(this.root, rel);
  }

  // An iteration's files are written in the background by a worker thread (writer.ts) while the
  // loop goes on (to the checks, the commit). readText waits for its path; flush() waits for all,
  // and comes before any manifest is written: a manifest never lists a file that is not on disk whole.
  private readonly writing = new Map<string, Promise<void>>();
  private failed: unknown = null;
  private readonly unwritten = new Set<string>();

  async write(rel: string, data: string | Uint8Array): Promise<ManifestEntry> {
    if (typeof data !== 'string') return Promise.resolve(this.enqueue(this.record(rel, data), data, false));
    const bytes = utf8.encode(this.scrub(data));
    return Promise.resolve(this.enqueue(this.record(rel, bytes), bytes, true));
  }

  /**
   * Writes `body` (scrubbed) in the background, as `entry` records it. `own`: bytes made for this
   * write, handed to the worker rather than copied (they are unusable here after).
   */
  private enqueue(entry: ManifestEntry, body: Uint8Array, own: boolean, requires?: string[]): ManifestEntry {
    const rel = entry.path;
    const path = this.path(rel);
    // The worker writes in the order given: a later write of the same path lands after this one.
    this.enqueued(rel, atomicWriteOffThread(path, body, own, requires));
    return entry;
  }

  private enqueued(rel: string, write: Promise<void>): void {
    // A file whose last write failed is not what its entry says: no manifest lists it until a write of it lands.
    const settled = write.then(
      () => void this.unwritten.delete(rel),
      (e: unknown) => {
        this.failed ??= e;
        this.unwritten.add(rel);
      },
    );
    this.writing.set(rel, settled);
    void settled.then(() => {
      if (this.writing.get(rel) === settled) this.writing.delete(rel);
    });
  }

  private readonly holding = new Set<Promise<void>>();

  /**
   * Writes that begin once `pending` settles (they wait on a slower source: the patch the git shell
   * makes while the checks run): flush() and saveManifest() wait for it (readText does not). Its own
   * failure is its caller's to handle: the evidence written so far still gets its manifest.
   */
  hold(pending: Promise<unknown>): void {
    const settled = pending.then(
      () => void this.holding.delete(settled),
      () => void this.holding.delete(settled),
    );
    this.holding.add(settled);
  }

  /**
   * Waits for every write begun; throws the first that failed (the disk full, a folder gone) as a
   * StorageError: the run ends blocked, with a report where one can still be written.
   */
  async flush(): Promise<void> {
    while (this.writing.size || this.holding.size) await Promise.all([...this.writing.values(), ...this.holding]);
    const e = this.failed;
    this.failed = null;
    if (e) throw new StorageError(`an evidence file could not be written: ${types.isNativeError(e) ? e.message : 'unknown failure'}`, { cause: e });
  }

  /** Records `data` (as written) in the manifest; `hashed`: its hash and size, already known. */
  private record(rel: string, data: string | Uint8Array, hashed?: { sha256: string; bytes: number }): ManifestEntry {
    const entry = { path: rel, ...(hashed ?? { sha256: sha256(data), bytes: typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength }) };
    const group = this.put(entry);
    if (group) this.dirty.add(group);
    return entry;
  }

  /** Keeps `entry` (replacing one of its path); returns the manifest that lists it. */
  private put(entry: ManifestEntry): string {
    const group = listedIn(entry.path);
    let files = this.listed.get(group);
    if (!files) this.listed.set(group, (files = new Map<string, ManifestEntry>()));
    files.set(entry.path, entry);
    return group;
  }

  async writeJson(rel: string, value: unknown): Promise<ManifestEntry> {
    return this.write(rel, canonicalJson(value));
  }

  /**
   * Appends a line to an append-only log (APPEND_ONLY_LOGS). Only the new line is scrubbed, hashed (a
   * running hash of the text so far) and written (appended to the file): a log as long as the run
   * costs no more per line at iteration 200 than at iteration 1. A log the loop has not written in
   * this run, or had to scrub anew, is written whole first (atomically).
   */
  async appendLine(rel: string, line: string): Promise<ManifestEntry> {
    if (!APPEND_ONLY_LOGS.has(rel)) throw new Error(`${rel} is not an append-only log`);
    let log = this.appendCache.get(rel);
    if (log === undefined) {
      // Scrubbed again once a run: an earlier run did not know this run's secrets.
      const read = await this.readText(rel);
      const text = this.scrub(read ?? '');
      const bytes = Buffer.byteLength(text);
      log = { text, hash: createHash('sha256').update(text), bytes, onDisk: read !== null && text === read ? bytes : null };
      this.appendCache.set(rel, log);
    }
    const chunk = this.scrub(line.endsWith('\n') ? line : line + '\n');
    log.text += chunk;
    log.hash.update(chunk);
    log.bytes += Buffer.byteLength(chunk);
    const entry = this.record(rel, log.text, { sha256: log.hash.copy().digest('hex'), bytes: log.bytes });
    if (log.onDisk === null) this.enqueue(entry, utf8.encode(log.text), true);
    else this.enqueued(rel, appendOffThread(this.path(rel), utf8.encode(chunk), log.onDisk));
    log.onDisk = log.bytes;
    return entry;
  }

  async readText(rel: string): Promise<string | null> {
    await this.writing.get(rel);
    try {
      return readFileSync(this.path(rel), 'utf8');
    } catch {
      return null;
    }
  }

  /** The document at `rel` parsed by its schema (null when absent); EvidenceUnverifiable when it does not parse. */
  async readJson<S extends z.ZodType>(rel: string, schema: S): Promise<z.infer<S> | null> {
    const text = await this.readText(rel);
    return text === null ? null : parseDocument(rel, text, schema);
  }

  entry(rel: string): ManifestEntry | undefined {
    return this.listed.get(listedIn(rel))?.get(rel);
  }

  /** An evidence link as used in certificates and AGENTS.md: `path#sha256`. */
  link(rel: string): string {
    const e = this.entry(rel);
    if (!e) throw new Error(`no evidence file ${rel}`);
    return `${rel}#${e.sha256}`;
  }

  /** Every file of the tree, flat (iteration manifests included). */
  manifest(): Manifest {
    const files = [...this.listed.values()].flatMap((m) => [...m.values()]).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return { schema_version: '2.0', files };
  }

  /**
   * Writes the manifests of the iterations that changed, then the root manifest that lists them;
   * settles when all are on disk. They go to the worker right behind the files they list, each
   * requiring those still on their way (see atomicWriteOffThread): none lands listing a file whose
   * write failed, and the loop waits for the disk once, not once a level.
   */
  async saveManifest(): Promise<ManifestEntry> {
    // A write known to have failed ends the save (flush throws it: the run ends blocked); held writes are begun first.
    if (this.failed) await this.flush();
    await Promise.all(this.holding);
    this.dropUnwritten();
    const save = (path: string, files: ManifestEntry[]): ManifestEntry => {
      const bytes = utf8.encode(manifestText(files));
      const onTheirWay = files.filter((f) => this.writing.has(f.path)).map((f) => this.path(f.path));
      return this.enqueue({ path, sha256: sha256(bytes), bytes: bytes.byteLength }, bytes, true, onTheirWay);
    };
    // An iteration left with no file (its only writes failed) gets no manifest.
    const groups = [...this.dirty].sort().filter((g) => this.listed.get(g)?.size);
    for (const g of this.dirty) if (!this.listed.get(g)?.size) this.dirty.delete(g);
    for (const group of groups) this.put(save(`${group}/manifest.json`, [...this.listed.get(group)!.values()]));
    const root = save(MANIFEST, [...(this.listed.get('')?.values() ?? [])]);
    sendWrites();
    try {
      await this.flush();
    } catch (e) {
      // A manifest that failed is listed nowhere, and its iteration's stays to be written by the next save.
      this.dropUnwritten();
      throw e;
    }
    for (const group of groups) this.dirty.delete(group);
    return root;
  }

  /** Takes the files whose last write failed out of the manifests (not one being written again: its write is awaited). */
  private dropUnwritten(): void {
    for (const rel of this.unwritten) {
      if (this.writing.has(rel)) continue;
      const group = listedIn(rel);
      if (this.listed.get(group)?.delete(rel) && group) this.dirty.add(group);
      this.appendCache.delete(rel);
    }
  }

  /** Loads the manifests of an existing tree (for resuming); the caller verifies the tree first. */
  async loadManifest(): Promise<boolean> {
    const m = await this.readJson(MANIFEST, manifestSchema);
    if (!m) return false;
    for (const e of m.files) {
      this.put(e);
      if (isIterationManifest(e.path)) for (const f of (await this.readJson(e.path, manifestSchema))?.files ?? []) this.put(f);
    }
    return true;
  }

  async exists(): Promise<boolean> {
    try {
      return (await stat(this.root)).isDirectory();
    } catch {
      return false;
    }
  }

  /** Removes every evidence file (not the run lock) to start a new tree. */
  async clear(): Promise<void> {
    await this.flush().catch(() => undefined);
    const names = await readdir(this.root).catch(() => [] as string[]);
    await Promise.all(names.filter((n) => !NOT_EVIDENCE.has(n)).map((n) => rm(join(this.root, n), { recursive: true, force: true })));
    this.listed.clear();
    this.appendCache.clear();
    this.dirty.clear();
  }
}

/** Every file under `root`, as forward-slash relative paths, sorted. */
export async function listFiles(root: string): Promise<string[]> {
  const out: string[] = [];
  async function walk(dir: string): Promise<void> {
    for (const d of await readdir(dir, { withFileTypes: true })) {
      const full = join(dir, d.name);
      if (d.isDirectory()) await walk(full);
      else out.push(relative(root, full).split(sep).join('/'));
    }
  }
  await walk(root);
  return out.sort();
}

/** The folder of iteration n in the evidence tree. */
export const iterDir = (n: number) => `iter_${n}`;
