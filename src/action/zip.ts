// Extracts the evidence artifact (a ZIP, read by fflate) without trusting it: no absolute paths, no
// "..", no duplicate names, entry count and uncompressed sizes bounded before anything is inflated,
// every entry's size as declared. Entries are written as regular files only (never links). Integrity
// is not the ZIP's CRC (fflate does not check it): the download is checked against the digest GitHub
// recorded, and the tree's own hashes are then checked by the engine (verifyTree).
import { unzipSync, type UnzipFileInfo } from 'fflate';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';

export class UnsafeZip extends Error {}

export interface ExtractLimits {
  maxFiles?: number;
  maxBytes?: number;
}

/** A safe relative path inside the target, or an error message. */
function checkName(name: string): string | null {
  if (name.includes('\0')) return 'a NUL byte in the name';
  if (name.includes('\\')) return 'a backslash in the name';
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) return 'an absolute path';
  const parts = name.replace(/\/$/, '').split('/');
  if (parts.some((p) => p === '..' || p === '.' || p === '')) return 'a "..", "." or empty path segment';
  return null;
}

/** Reads every file of a ZIP into memory (checked), without writing anything. */
export function readZipEntries(zip: Uint8Array, limits: ExtractLimits = {}): Map<string, Buffer> {
  const maxFiles = limits.maxFiles ?? 100_000;
  const maxBytes = limits.maxBytes ?? 2 * 1024 ** 3;
  const declared = new Map<string, number>();
  let entries = 0;
  let total = 0;
  // Called for every entry, before it is inflated: a refusal here costs no memory.
  const filter = (f: UnzipFileInfo): boolean => {
    const bad = checkName(f.name);
    if (bad) throw new UnsafeZip(`entry ${JSON.stringify(f.name)}: ${bad}`);
    if (++entries > maxFiles) throw new UnsafeZip(`more than the ${maxFiles} entries allowed`);
    if (f.name.endsWith('/')) return false;
    if (declared.has(f.name)) throw new UnsafeZip(`entry ${f.name}: appears twice`);
    if (f.compression !== 0 && f.compression !== 8) throw new UnsafeZip(`entry ${f.name}: compression method ${f.compression} is not supported`);
    total += f.originalSize;
    if (total > maxBytes) throw new UnsafeZip(`more than ${maxBytes} bytes uncompressed`);
    declared.set(f.name, f.originalSize);
    return true;
  };
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(zip, { filter });
  } catch (e) {
    if (e instanceof UnsafeZip) throw e;
    throw new UnsafeZip(`not a readable ZIP archive (${(e as Error).message})`);
  }
  const out = new Map<string, Buffer>();
  for (const [name, size] of declared) {
    const data = files[name];
    // An entry's output is bounded by its declared size; one that inflates to less is refused.
    if (data?.length !== size) throw new UnsafeZip(`entry ${name}: size differs from the directory`);
    out.set(name, Buffer.from(data.buffer, data.byteOffset, data.byteLength));
  }
  return out;
}

/** Writes the checked entries below `target` (which must not exist or be empty). */
export async function extractZip(zip: Uint8Array, target: string, limits?: ExtractLimits): Promise<string[]> {
  const entries = readZipEntries(zip, limits);
  const root = resolve(target);
  await mkdir(root, { recursive: true });
  for (const [name, data] of entries) {
    const dest = resolve(join(root, name));
    if (!dest.startsWith(root + sep)) throw new UnsafeZip(`entry ${name}: outside the target`);
    await mkdir(dirname(dest), { recursive: true });
    await writeFile(dest, data, { flag: 'wx' });
  }
  return [...entries.keys()].sort();
}
