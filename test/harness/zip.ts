// Minimal ZIP writer/reader for the test harness: seed artifacts with known bytes and inspect
// what the Action uploaded (archiver's output, data descriptors included). No zip64.
import { deflateRawSync } from 'node:zlib';
import { crc32, readZipEntries } from '../../src/action/zip.js';

// CRC and reading are the product's (src/action/zip.ts); writing (seeding artifacts) is the harness's own.
export { crc32 };

/** Builds a ZIP archive (deflate, UTF-8 names, fixed 1980-01-01 timestamps so bytes are reproducible). */
export function makeZip(files: Record<string, string | Uint8Array>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  const names = Object.keys(files).sort();
  for (const name of names) {
    const raw = files[name];
    const data = typeof raw === 'string' ? Buffer.from(raw, 'utf8') : Buffer.from(raw);
    const nameBuf = Buffer.from(name, 'utf8');
    const deflated = deflateRawSync(data);
    const crc = crc32(data);
    const dosTime = 0;
    const dosDate = (0 << 9) | (1 << 5) | 1; // 1980-01-01
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt16LE(dosTime, 10);
    local.writeUInt16LE(dosDate, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(deflated.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBuf.length, 26);
    local.writeUInt16LE(0, 28);
    locals.push(local, nameBuf, deflated);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(0x031e, 4); // made by: unix, 3.0
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(dosTime, 12);
    central.writeUInt16LE(dosDate, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(deflated.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBuf.length, 28);
    central.writeUInt32LE((0o100644 << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, nameBuf);
    offset += local.length + nameBuf.length + deflated.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(names.length, 8);
  end.writeUInt16LE(names.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

/** Reads a ZIP archive into a map of path → bytes: the product's checked reader (src/action/zip.ts). */
export const readZip = (zip: Uint8Array): Map<string, Buffer> => readZipEntries(zip);
