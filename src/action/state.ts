// What the main step hands to the post step (core.saveState → STATE_<name>): where the evidence is,
// under which name to upload it, and the comment to link the uploaded artifact from.
import * as core from '@actions/core';
import { z } from 'zod';
import { parseDocument } from '../engine/common/document.js';

const postStateSchema = z.object({
  /** 'true' once main decided the evidence tree is this run's to upload. */
  upload: z.boolean(),
  evidenceDir: z.string().min(1),
  artifactName: z.string().min(1),
  retentionDays: z.number().int().min(0),
  pullRequest: z.number().int().nullable(),
  commentId: z.number().int().nullable(),
  /** A file holding the last comment body (comment bodies are too big for state). */
  commentFile: z.string().nullable(),
  commentMode: z.string(),
  /** The git checkout the loop runs in (null when there is none). */
  checkout: z.string().nullable(),
  /**
   * Set once the engine returned: it published its evidence to evidenceDir. Until then (an abort,
   * a kill) the newest evidence is only in the loop's private folder, and the post step publishes it.
   */
  loopEnded: z.boolean(),
});
export type PostState = z.infer<typeof postStateSchema>;

const KEY = 'phuc-loop';

export function savePostState(s: PostState): void {
  core.saveState(KEY, JSON.stringify(s));
}

/** null when main saved nothing; EvidenceUnverifiable (naming STATE_phuc-loop and the field) when it does not parse. */
export function readPostState(): PostState | null {
  const raw = core.getState(KEY);
  return raw ? parseDocument(`STATE_${KEY}`, raw, postStateSchema) : null;
}
