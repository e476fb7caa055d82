// What the main step hands to the post step (core.saveState → STATE_<name>): where the evidence is,
// under which name to upload it, and the comment to link the uploaded artifact from.
import * as core from '@actions/core';

export interface PostState {
  /** 'true' once main decided the evidence tree is this run's to upload. */
  upload: boolean;
  evidenceDir: string;
  artifactName: string;
  retentionDays: number;
  pullRequest: number | null;
  commentId: number | null;
  /** A file holding the last comment body (comment bodies are too big for state). */
  commentFile: string | null;
  commentMode: string;
  /** The git checkout the loop runs in (null when there is none). */
  checkout: string | null;
  /**
   * Set once the engine returned: it published its evidence to evidenceDir. Until then (an abort,
   * a kill) the newest evidence is only in the loop's private folder, and the post step publishes it.
   */
  loopEnded: boolean;
}

const KEY = 'phuc-loop';

export function savePostState(s: PostState): void {
  core.saveState(KEY, JSON.stringify(s));
}

export function readPostState(): PostState | null {
  const raw = core.getState(KEY);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as PostState;
  } catch {
    return null;
  }
}
