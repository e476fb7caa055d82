// Lines a killed run appended to its append-only logs past what the manifest records. Found by the
// logs' hashes alone (no schema of the tree's documents, no audit): the Action's post step cuts them
// off before it publishes a tree its main step could not, and loads nothing more for that.
import { readFile, truncate } from 'node:fs/promises';
import { sha256 } from '../common/canonical.js';
import { parseDocument } from '../common/document.js';
import { APPEND_ONLY_LOGS, type EvidenceStore, type ManifestEntry, MANIFEST, manifestSchema } from './evidence.js';

export interface LogTail {
  path: string;
  /** The length the manifest records: the log is cut back to it. */
  bytes: number;
}

/** Whether `data` is the recorded log `f` with lines appended past what the manifest records. */
export const hasLogTail = (f: Pick<ManifestEntry, 'path' | 'sha256' | 'bytes'>, data: Uint8Array): boolean =>
  APPEND_ONLY_LOGS.has(f.path) && data.byteLength > f.bytes && sha256(data) !== f.sha256 && sha256(data.subarray(0, f.bytes)) === f.sha256;

/** The append-only logs of the tree that hold lines past the manifest (they are listed in the root manifest). */
export async function findLogTails(ev: EvidenceStore): Promise<LogTail[]> {
  const text = await readFile(ev.path(MANIFEST), 'utf8').catch(() => null);
  let files: ManifestEntry[];
  try {
    files = text === null ? [] : parseDocument(MANIFEST, text, manifestSchema).files;
  } catch {
    return []; // a manifest that does not parse: the tree fails verification whatever is cut here
  }
  const tails: LogTail[] = [];
  for (const f of files.filter((e) => APPEND_ONLY_LOGS.has(e.path))) {
    const data = await readFile(ev.path(f.path)).catch(() => null);
    if (data && hasLogTail(f, data)) tails.push({ path: f.path, bytes: f.bytes });
  }
  return tails;
}

/** Cuts each log back to what the manifest records (`tails`: from verifyTree with allowLogTails; found here when not given). */
export async function cutLogTails(ev: EvidenceStore, tails?: LogTail[]): Promise<void> {
  for (const tail of tails ?? (await findLogTails(ev))) await truncate(ev.path(tail.path), tail.bytes);
}
