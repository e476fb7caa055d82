// The evidence files a capsule links, as copies the agent can read (SPEC §7 "What the agent sees"):
// the evidence store itself stays out of its reach. Written to the exchange folder before each step
// (which the agent's commands see read-only), at the path each link names below it, so that
// `$PHUC_EVIDENCE_DIR/<link path>` is the file the prompt names.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** The copies' folder inside the exchange folder (PHUC_EVIDENCE_DIR). */
export const evidenceViewDir = (exchangeDir: string) => join(exchangeDir, 'evidence');

/**
 * Replaces the view with copies of the files `links` name (paths below `folder`, the evidence
 * folder as the links spell it). A fresh folder each time: nothing from an earlier step is left,
 * and no write goes through an entry made before this one.
 */
export async function exposeEvidence(
  exchangeDir: string,
  links: readonly { path: string }[],
  folder: string,
  read: (rel: string) => Promise<string | null>,
): Promise<void> {
  const view = evidenceViewDir(exchangeDir);
  await rm(view, { recursive: true, force: true });
  await mkdir(view, { mode: 0o755 });
  for (const l of links) {
    const parts = l.path.split('/');
    // Loop-made paths; one that would leave the view (an evidence folder outside the repository) is not copied.
    if (!l.path.startsWith(`${folder}/`) || parts.some((p) => p === '' || p === '.' || p === '..')) continue;
    const text = await read(l.path.slice(folder.length + 1));
    if (text === null) continue;
    const dest = join(view, ...parts);
    await mkdir(dirname(dest), { recursive: true, mode: 0o755 });
    await writeFile(dest, text, { flag: 'wx', mode: 0o644 });
  }
}
