// EXIT_BLOCKED(BACKPRESSURE_SIGNAL) is a pause (SPEC: backpressure): the job summary and the PR
// comment say what paused the run and how to go on. The action knows its own stop sources (the
// STOP label, the workflow's cancellation); the engine's (the STOP file, disk use, an agent's rate
// limit) are told apart by the reason the engine gives for them.
import { inert, inertCode } from '../engine/common/markdown.js';
import type { Trigger } from './pull-request.js';

export type PauseSource = 'stop-label' | 'cancel' | 'rate-limit' | 'disk' | 'stop-file' | 'other';

export interface Pause {
  source: PauseSource;
  /** What paused it, e.g. "the `STOP` label is on the pull request". */
  what: string;
  /** What to do so that the next run continues. */
  howToGoOn: string;
}

export interface PauseFacts {
  stopReason: string | null | undefined;
  /** The report's detail: the stop source's reason. */
  detail: string | null | undefined;
  /** The signal that asked the main step to stop (workflow cancellation), if any. */
  signal: string | null;
  /** The STOP label's reason when it was seen in this run. */
  labelReason: string | null;
  stopLabel: string;
  /** How this run was started (to say how to start the next one), and the label that started it. */
  trigger: Pick<Trigger, 'kind'> & { label?: string };
}

function startAgain(t: PauseFacts['trigger']): string {
  const rerun = 're-run the job from the workflow run page';
  if (t.kind === 'label') return `add the ${t.label ? `\`${t.label}\` ` : ''}label again (remove it first if it is still there), or ${rerun}`;
  if (t.kind === 'comment') return `comment the command that started it again, or ${rerun}`;
  return `${rerun}, or trigger the workflow again`;
}

export function pauseOf(f: PauseFacts): Pause | null {
  if (f.stopReason !== 'BACKPRESSURE_SIGNAL') return null;
  // The detail quotes what the loop did not write (an agent's rate-limit message): inert in the markdown it goes into.
  const raw = f.detail ?? '';
  const detail = inert(raw);
  const pause = (source: PauseSource, what: string, first = ''): Pause => {
    const how = `${first}${startAgain(f.trigger)}: the next run continues from the evidence (iteration numbering and budgets carry on).`;
    return { source, what, howToGoOn: how.charAt(0).toUpperCase() + how.slice(1) };
  };
  const label = () => pause('stop-label', `the \`${f.stopLabel}\` label is on the pull request`, `remove the \`${f.stopLabel}\` label, then `);
  if (f.labelReason && raw === f.labelReason) return label();
  if (f.signal) return pause('cancel', `the workflow run was cancelled (${f.signal})`);
  if (f.labelReason) return label();
  if (/rate[ -]?limit/i.test(raw))
    return pause('rate-limit', `the agent hit a rate limit of its model service (${detail})`, 'wait until the limit resets, then ');
  if (/^disk use /.test(raw))
    return pause('disk', `the runner's disk is nearly full (${detail})`, 'free disk space (fewer build outputs and caches, or a larger runner), then ');
  const stopFile = /^(\S*STOP) exists$/.exec(raw)?.[1];
  if (stopFile)
    return pause(
      'stop-file',
      `the stop file \`${inertCode(stopFile)}\` exists`,
      `delete \`${inertCode(stopFile)}\` (from the branch too, if it was committed), then `,
    );
  return pause('other', detail || 'the loop was asked to stop');
}

/** The lead line of the job summary and the PR comment of a paused run. */
export function pauseNote(p: Pause): string {
  return `**Paused:** ${p.what}. **To go on:** ${p.howToGoOn}`;
}
