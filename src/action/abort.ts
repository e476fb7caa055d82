// An aborted main step (a second SIGINT/SIGTERM): what it still writes, synchronously, before it
// exits — the outputs, the job summary and the comment the post step publishes.
import * as core from '@actions/core';
import type { InstalledSignalStop, StopSignal } from '../engine/os/signals.js';
import { setOutputs } from './outputs.js';
import { pauseNote, type Pause } from './pause.js';
import { writeSummarySync } from './job-summary.js';
import { refusalMarkdown } from './summary.js';

/**
 * What an abort (a second signal) still writes, synchronously: filled in as the run gets that far.
 * `comment` writes the paused comment the post step publishes.
 */
export interface AbortScene {
  scrub: (s: string) => string;
  pause?: (detail: string) => Pause | null;
  comment?: (detail: string, pause: Pause | null) => void;
  iterations?: number;
  /** The engine wrote its halting report: nothing is left to say for it. */
  reported?: boolean;
}

/** The last words of an aborted main step: outputs, job summary, the comment for the post step. */
export function lastWords(scene: AbortScene, signals: InstalledSignalStop, sig: StopSignal): void {
  if (scene.reported) return;
  const detail = `the run was aborted by a second signal (${signals.received ?? sig}, then ${sig}) before its halting report was written; the evidence of the finished iterations is kept`;
  const pause = scene.pause?.(detail) ?? null;
  setOutputs(
    {
      status: 'EXIT_BLOCKED',
      'stop-reason': 'BACKPRESSURE_SIGNAL',
      certificate: 'NONE',
      iterations: scene.iterations === undefined ? '' : String(scene.iterations),
    },
    scene.scrub,
  );
  writeSummarySync(refusalMarkdown('EXIT_BLOCKED', 'BACKPRESSURE_SIGNAL', detail, { notes: pause ? [pauseNote(pause)] : [], scrub: scene.scrub }));
  try {
    scene.comment?.(detail, pause);
  } catch {
    /* the comment is a view; the outputs and the summary are written */
  }
  core.setFailed(scene.scrub(`phuc-loop: EXIT_BLOCKED(BACKPRESSURE_SIGNAL): ${detail}`));
}
