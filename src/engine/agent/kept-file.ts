// One git-ignored file of the user's as the loop keeps it (user-files.ts): its record in the store's
// index, and the stamp of its lstat that tells an intact file from one deleted, replaced or changed.
import type { BigIntStats } from 'node:fs';
import { z } from 'zod';

/** One kept file, as recorded in the store's index.json (read back by the next run after a crash). */
export const keptSchema = z.object({
  path: z.string().min(1),
  n: z.number().int().min(0),
  kind: z.enum(['file', 'link']),
  /** A link's target text. */
  target: z.string().optional(),
  /** `l/<n>` is a hard link of the file. */
  linked: z.boolean(),
  /** `c/<n>` holds its bytes. */
  copied: z.boolean(),
  /** Why the loop could keep neither (the file is then only recorded). */
  unkept: z.string().optional(),
  mode: z.number().int(),
  uid: z.number().int(),
  gid: z.number().int(),
  dev: z.string(),
  ino: z.string(),
  size: z.string(),
  mtimeNs: z.string(),
  ctimeNs: z.string(),
});
export type Kept = z.infer<typeof keptSchema>;

export function stamp(st: BigIntStats): Pick<Kept, 'dev' | 'ino' | 'size' | 'mtimeNs' | 'ctimeNs' | 'mode'> {
  return { dev: String(st.dev), ino: String(st.ino), size: String(st.size), mtimeNs: String(st.mtimeNs), ctimeNs: String(st.ctimeNs), mode: Number(st.mode) };
}

/** The same size, times and mode (the inode is compared apart). */
export function sameStamp(a: Pick<Kept, 'size' | 'mtimeNs' | 'ctimeNs' | 'mode'>, b: Pick<Kept, 'size' | 'mtimeNs' | 'ctimeNs' | 'mode'>): boolean {
  return a.size === b.size && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs && a.mode === b.mode;
}

export function record(path: string, n: number, st: BigIntStats): Kept {
  return { path, n, kind: st.isSymbolicLink() ? 'link' : 'file', linked: false, copied: false, uid: Number(st.uid), gid: Number(st.gid), ...stamp(st) };
}
