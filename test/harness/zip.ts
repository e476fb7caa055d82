// ZIP archives for the test harness: seed artifacts with known bytes (fflate's writer, fixed
// timestamps) and inspect what the Action uploaded with the product's checked reader (src/action/zip.ts).
import { zipSync } from 'fflate';
import { readZipEntries } from '../../src/action/zip.js';

/** A fixed modification time (1980-01-01, the earliest a ZIP holds) so that the bytes are reproducible. */
const EPOCH = new Date(1980, 0, 1);

/** Builds a ZIP archive (deflate, UTF-8 names, regular files 0644, entries in name order). */
export function makeZip(files: Record<string, string | Uint8Array>): Buffer {
  const entries = Object.keys(files)
    .sort()
    .map((name) => {
      const raw = files[name];
      return [name, typeof raw === 'string' ? Buffer.from(raw, 'utf8') : raw] as const;
    });
  return Buffer.from(zipSync(Object.fromEntries(entries), { mtime: EPOCH, os: 3, attrs: (0o100644 << 16) >>> 0 }));
}

/** Reads a ZIP archive into a map of path → bytes: the product's checked reader. */
export const readZip = (zip: Uint8Array): Map<string, Buffer> => readZipEntries(zip);
