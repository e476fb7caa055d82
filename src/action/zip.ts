// Extracts the evidence artifact (a ZIP) without trusting it: no absolute paths, no "..", no
// symlinks, sizes bounded, every CRC checked. The tree's own hashes are then checked by the engine.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { inflateRawSync } from 'node:zlib';

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

export function crc32(data: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < data.length; i++) c = CRC_TABLE[(c ^ data[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

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
  const buf = Buffer.from(zip.buffer, zip.byteOffset, zip.byteLength);
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new UnsafeZip('not a ZIP archive (no end of central directory)');
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  if (p === 0xffffffff || count === 0xffff) throw new UnsafeZip('ZIP64 archives are not supported for evidence');
  if (count > maxFiles) throw new UnsafeZip(`${count} entries is more than the ${maxFiles} allowed`);
  const out = new Map<string, Buffer>();
  let total = 0;
  for (let i = 0; i < count; i++) {
    if (p + 46 > buf.length || buf.readUInt32LE(p) !== 0x02014b50) throw new UnsafeZip('corrupt central directory');
    const flags = buf.readUInt16LE(p + 8);
    const method = buf.readUInt16LE(p + 10);
    const crc = buf.readUInt32LE(p + 16);
    const csize = buf.readUInt32LE(p + 20);
    const usize = buf.readUInt32LE(p + 24);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const madeBy = buf.readUInt16LE(p + 4) >> 8;
    const external = buf.readUInt32LE(p + 38);
    const localOffset = buf.readUInt32LE(p + 42);
    const name = buf.toString('utf8', p + 46, p + 46 + nameLen);
    p += 46 + nameLen + extraLen + commentLen;
    const bad = checkName(name);
    if (bad) throw new UnsafeZip(`entry ${JSON.stringify(name)}: ${bad}`);
    if (flags & 1) throw new UnsafeZip(`entry ${name}: encrypted`);
    if (madeBy === 3 && ((external >>> 16) & 0o170000) === 0o120000) throw new UnsafeZip(`entry ${name}: a symbolic link`);
    if (name.endsWith('/')) continue;
    if (csize === 0xffffffff || usize === 0xffffffff) throw new UnsafeZip(`entry ${name}: ZIP64 sizes are not supported`);
    total += usize;
    if (total > maxBytes) throw new UnsafeZip(`more than ${maxBytes} bytes uncompressed`);
    if (localOffset + 30 > buf.length || buf.readUInt32LE(localOffset) !== 0x04034b50) throw new UnsafeZip(`entry ${name}: corrupt local header`);
    const start = localOffset + 30 + buf.readUInt16LE(localOffset + 26) + buf.readUInt16LE(localOffset + 28);
    if (start + csize > buf.length) throw new UnsafeZip(`entry ${name}: truncated`);
    const raw = buf.subarray(start, start + csize);
    let data: Buffer;
    if (method === 0) data = Buffer.from(raw);
    else if (method === 8) data = inflateRawSync(raw, { maxOutputLength: Math.max(usize, 1) });
    else throw new UnsafeZip(`entry ${name}: compression method ${method} is not supported`);
    if (data.length !== usize) throw new UnsafeZip(`entry ${name}: size differs from the directory`);
    if (crc32(data) !== crc) throw new UnsafeZip(`entry ${name}: CRC mismatch`);
    if (out.has(name)) throw new UnsafeZip(`entry ${name}: appears twice`);
    out.set(name, data);
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
    await writeFile(dest, data);
  }
  return [...entries.keys()].sort();
}
