// What an agent step started from, kept in the loop's own folder while the step runs and until its
// iteration is committed. A loop killed in between (kill -9, OOM, power loss) left the agent's
// partial work in the work tree: the next run attributes it to the agent, measured against this
// start, instead of taking it for the user's uncommitted work (never judged, never committed).
import { rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { atomicWrite } from '../os/atomic-write.js';
import { parseDocument } from '../common/document.js';
import type { DirtySnapshot } from '../agent/agent-step.js';
import type { Git } from '../os/git.js';

const stepStartSchema = z.object({
  iteration: z.number().int().min(0),
  /** HEAD when the step began: once the user has committed since, the tree is theirs to judge anew. */
  head: z.string().nullable(),
  /** The commit holding the user's uncommitted files as they were (refs/phuc-loop/user-work), if any. */
  work: z
    .string()
    .regex(/^[0-9a-f]{40,64}$/)
    .nullable(),
  paths: z.record(z.string(), z.object({ sha: z.string().nullable(), link: z.boolean() })),
});

/** The marker's file, beside the loop's own evidence tree (never the agent's to reach). */
export const stepStartFile = (evidenceRoot: string) => join(dirname(evidenceRoot), 'agent-step.json');

export async function saveStepStart(file: string, iteration: number, head: string | null, before: DirtySnapshot, work: string | null): Promise<void> {
  const paths = Object.fromEntries([...before].map(([p, v]) => [p, { sha: v.sha, link: v.link }]));
  await atomicWrite(file, JSON.stringify({ iteration, head, work, paths }));
}

/**
 * The step's iteration is committed: its start no longer applies (a later loop at the same
 * iteration and HEAD, after a reset, must not take the user's changes for this step's). Removed on
 * the loop's thread: the next step's start is written there right after.
 */
export function clearStepStart(file: string): void {
  rmSync(file, { force: true });
}

/**
 * The start of iteration `n`'s step if a killed run left it, as a snapshot (the user's files read
 * back from the commit that kept them); null when there is none, it is another iteration's, or
 * HEAD has moved since.
 */
export async function cutOffStepStart(git: Git, file: string, n: number, head: string | null): Promise<DirtySnapshot | null> {
  const text = await readFile(file, 'utf8').catch(() => null);
  if (text === null) return null;
  const start = parseDocument(file, text, stepStartSchema);
  if (start.iteration !== n || start.head !== head) {
    clearStepStart(file);
    return null;
  }
  const snap: DirtySnapshot = new Map();
  for (const [path, { sha, link }] of Object.entries(start.paths)) {
    const data = sha === null || start.work === null ? null : await git.blob(start.work, path);
    snap.set(path, { sha, data, link });
  }
  return snap;
}
