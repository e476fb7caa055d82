// The evidence tree (SPEC §5): every file written atomically (temp file + rename) and recorded in
// manifest.json with its sha256, so `phuc-loop verify` needs nothing but the tree itself.
import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { canonicalJson, sha256 } from './canonical.js';

export const MANIFEST = 'manifest.json';
/** Files in the evidence folder that are not evidence (the run lock). */
export const NOT_EVIDENCE = new Set(['run.lock']);

export interface ManifestEntry {
  path: string;
  sha256: string;
  bytes: number;
}

export interface Manifest {
  schema_version: '2.0';
  files: ManifestEntry[];
}

let tmpCounter = 0;

export async function atomicWrite(path: string, data: string | Uint8Array): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}-${++tmpCounter}`;
  await writeFile(tmp, data);
  await rename(tmp, path);
}

export class EvidenceStore {
  private readonly entries = new Map<string, ManifestEntry>();
  private readonly appendCache = new Map<string, string>();

  constructor(readonly root: string) {}

  path(rel: string): string {
    return join(this.root, rel);
  }

  async write(rel: string, data: string | Uint8Array): Promise<ManifestEntry> {
    await atomicWrite(this.path(rel), data);
    const bytes = typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength;
    const entry = { path: rel, sha256: sha256(data), bytes };
    this.entries.set(rel, entry);
    return entry;
  }

  async writeJson(rel: string, value: unknown): Promise<ManifestEntry> {
    return this.write(rel, canonicalJson(value));
  }

  /** Appends a line to an append-only log, still through an atomic rewrite. */
  async appendLine(rel: string, line: string): Promise<ManifestEntry> {
    let text = this.appendCache.get(rel);
    if (text === undefined) text = (await this.readText(rel)) ?? '';
    text += line.endsWith('\n') ? line : line + '\n';
    this.appendCache.set(rel, text);
    return this.write(rel, text);
  }

  async readText(rel: string): Promise<string | null> {
    try {
      return await readFile(this.path(rel), 'utf8');
    } catch {
      return null;
    }
  }

  async readJson<T>(rel: string): Promise<T | null> {
    const text = await this.readText(rel);
    return text === null ? null : (JSON.parse(text) as T);
  }

  entry(rel: string): ManifestEntry | undefined {
    return this.entries.get(rel);
  }

  /** An evidence link as used in certificates and AGENTS.md: `path#sha256`. */
  link(rel: string): string {
    const e = this.entries.get(rel);
    if (!e) throw new Error(`no evidence file ${rel}`);
    return `${rel}#${e.sha256}`;
  }

  manifest(): Manifest {
    const files = [...this.entries.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return { schema_version: '2.0', files };
  }

  async saveManifest(): Promise<ManifestEntry> {
    // The same bytes as canonicalJson(manifest()), without walking thousands of entries generically.
    const m = this.manifest();
    const files = m.files.map((f) => `    {\n      "bytes": ${f.bytes},\n      "path": ${JSON.stringify(f.path)},\n      "sha256": "${f.sha256}"\n    }`);
    const text = `{\n  "files": [${files.length ? `\n${files.join(',\n')}\n  ` : ''}],\n  "schema_version": "2.0"\n}\n`;
    await atomicWrite(this.path(MANIFEST), text);
    return { path: MANIFEST, sha256: sha256(text), bytes: Buffer.byteLength(text) };
  }

  /** Loads the manifest of an existing tree (for resuming); the caller verifies the tree first. */
  async loadManifest(): Promise<boolean> {
    const m = await this.readJson<Manifest>(MANIFEST);
    if (!m) return false;
    for (const e of m.files) this.entries.set(e.path, e);
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
    const names = await readdir(this.root).catch(() => [] as string[]);
    await Promise.all(names.filter((n) => !NOT_EVIDENCE.has(n)).map((n) => rm(join(this.root, n), { recursive: true, force: true })));
    this.entries.clear();
    this.appendCache.clear();
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
