// The one signal-stop installer of the CLI and the Action (SPEC: backpressure; a stop is a pause).
//
// - The first SIGINT or SIGTERM asks the loop to stop: the engine's AbortSignal fires (the agent is
//   stopped at once) and the `signal` stop source reports the reason, so the run ends
//   EXIT_BLOCKED(BACKPRESSURE_SIGNAL) with its halting report.
// - The same signal again (a second Ctrl-C, a repeated kill) aborts at once.
// - A different signal is a supervisor escalating: GitHub's runner cancels with SIGINT, SIGTERM
//   7.5 s later and SIGKILL 2.5 s after that. The report gets `hurryMs` more (less than those
//   2.5 s), then the process aborts before the SIGKILL could cut a write in half.
// An abort SIGKILLs the process groups the loop started (the agent is in its own group, so no
// terminal or runner signal reaches it), lets the host write its last words synchronously, and exits
// 128 + the signal's number. The evidence stays resumable because the loop writes every state and
// evidence file atomically: a kill leaves the previous or the next consistent state.
import { constants } from 'node:os';
import { SignalStop } from './stops.js';

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;
export type StopSignal = (typeof SIGNALS)[number];

/** The runner's SIGKILL follows its SIGTERM after 2.5 s: the report must be done before that. */
export const DEFAULT_HURRY_MS = 2000;

/** Process groups of live children, killed on abort. The process runner registers what it spawns. */
const liveGroups = new Set<number>();

/** Registers a child's process group (its pid, when spawned detached); returns the unregister function. */
export function trackProcessGroup(pgid: number): () => void {
  liveGroups.add(pgid);
  return () => liveGroups.delete(pgid);
}

/** The exit status of an abort: 128 + the signal's number (130 for SIGINT, 143 for SIGTERM). */
export function abortExitCode(sig: StopSignal): number {
  return 128 + constants.signals[sig];
}

/** What the installer needs of the process (tests pass a stand-in). */
export interface SignalTarget {
  on(event: StopSignal, listener: (sig: StopSignal) => void): unknown;
  off(event: StopSignal, listener: (sig: StopSignal) => void): unknown;
  exit(code: number): never;
  kill(pid: number, signal: NodeJS.Signals): unknown;
}

export interface SignalStopOptions {
  /** What a signal means to this host, e.g. "user interrupt or workflow cancellation". */
  meaning: string;
  /** Tells the user what happens now (a stop was asked for, the report is hurried, the run aborts). */
  notify(message: string): void;
  /** Last words before an abort exits: synchronous only, the event loop does not turn again. */
  onAbort?(sig: StopSignal): void;
  hurryMs?: number;
  target?: SignalTarget;
}

export interface InstalledSignalStop {
  /** The `signal` stop source for the engine's stopSources. */
  readonly stop: SignalStop;
  /** For the engine's LoopOptions.signal: aborted at the first signal. */
  readonly signal: AbortSignal;
  /** The first signal received, or null. */
  readonly received: StopSignal | null;
  /** Removes the handlers (and a pending hurry timer). */
  dispose(): void;
}

export function installSignalStop(o: SignalStopOptions): InstalledSignalStop {
  const target: SignalTarget = o.target ?? process;
  const hurryMs = o.hurryMs ?? DEFAULT_HURRY_MS;
  const stop = new SignalStop();
  let first: StopSignal | null = null;
  let hurry: NodeJS.Timeout | null = null;
  let aborting = false;

  const abort = (sig: StopSignal) => {
    if (aborting) return;
    aborting = true;
    for (const pgid of liveGroups) {
      try {
        target.kill(-pgid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
    try {
      o.onAbort?.(sig);
    } finally {
      target.exit(abortExitCode(sig));
    }
  };

  const onSignal = (sig: StopSignal) => {
    if (first === null) {
      first = sig;
      o.notify(
        `${sig} received (${o.meaning}): stopping the agent and writing the report; the run pauses and the next one continues (another ${sig} aborts at once)`,
      );
      stop.request(`${sig} received (backpressure: ${o.meaning})`);
      return;
    }
    if (sig === first || hurry !== null) {
      o.notify(`${sig} received again: aborting now; the evidence of the finished iterations is kept and the next run continues from it`);
      abort(sig);
      return;
    }
    o.notify(`${sig} received after ${first}: finishing the report within ${hurryMs} ms, then aborting`);
    hurry = setTimeout(() => abort(sig), hurryMs);
    hurry.unref();
  };

  for (const s of SIGNALS) target.on(s, onSignal);
  return {
    stop,
    signal: stop.controller.signal,
    get received() {
      return first;
    },
    dispose() {
      for (const s of SIGNALS) target.off(s, onSignal);
      if (hurry) clearTimeout(hurry);
    },
  };
}
