// Stop sources — backpressure (SPEC §2): a STOP file, disk use over 90%, a signal or a STOP label ask the
// loop to stop; the running agent is stopped and the certificate is BACKPRESSURE.
import { access, statfs } from 'node:fs/promises';
import type { StopSource } from './ports.js';

export class StopFile implements StopSource {
  readonly name = 'stop-file';
  constructor(
    private readonly path: string,
    private readonly display: string,
  ) {}
  async check(): Promise<string | null> {
    return access(this.path).then(
      () => `${this.display} exists`,
      () => null,
    );
  }
}

export type StatFs = (path: string) => Promise<{ blocks: number; bavail: number }>;

export class DiskUsage implements StopSource {
  readonly name = 'disk';
  constructor(
    private readonly path: string,
    private readonly limit = 0.9,
    private readonly stat: StatFs = (p) => statfs(p),
  ) {}
  async check(): Promise<string | null> {
    const s = await this.stat(this.path).catch(() => null);
    if (!s || s.blocks <= 0) return null;
    // Integer arithmetic: used/blocks > limit  ⇔  used*100 > limit*100*blocks.
    const used = s.blocks - s.bavail;
    const pct = Math.round(this.limit * 100);
    return used * 100 > pct * s.blocks ? `disk use ${Math.floor((used * 100) / s.blocks)}% is over ${pct}%` : null;
  }
}

/** A stop requested by the process itself (SIGINT, SIGTERM, workflow cancellation). */
export class SignalStop implements StopSource {
  readonly name = 'signal';
  private reason: string | null = null;
  readonly controller = new AbortController();
  request(reason: string): void {
    if (!this.reason) this.reason = reason;
    this.controller.abort(this.reason);
  }
  check(): Promise<string | null> {
    return Promise.resolve(this.reason);
  }
}

/**
 * What the user does after a pause before \`phuc-loop run\` goes on, from the stop source's own words
 * (a STOP file or label is removed, a full disk freed, a rate limit or an unavailable downstream waited out), as the start of a
 * sentence; empty where nothing stands in the way (a signal, Ctrl-C: the next run simply goes on).
 */
export function pauseStep(reason: string | null): string {
  const file = reason && /^(\S*STOP) exists$/.exec(reason)?.[1];
  if (file) return `delete ${file}, then `;
  const label = reason && /^the (.+) label is on pull request /.exec(reason)?.[1];
  if (label) return `remove the ${label} label, then `;
  if (reason && /^disk use /.test(reason)) return 'free disk space, then ';
  const downstream = reason && /^downstream unavailable \((.+?)\): /.exec(reason)?.[1];
  if (downstream) return `wait until ${downstream} answers again (the network, a proxy, the service's status), then `;
  if (reason && /rate[ -]?limit/i.test(reason)) return "wait until the agent's rate limit resets, then ";
  return '';
}

export async function firstStop(sources: readonly StopSource[]): Promise<string | null> {
  for (const s of sources) {
    const r = await s.check().catch(() => null);
    if (r) return r;
  }
  return null;
}

export interface StopWatch {
  /** Aborts at the first stop: the loop's own signal, or a source found asking. */
  readonly signal: AbortSignal;
  /** Why it stopped (null while it has not). */
  reason(): string | null;
  /** Stops polling; call it when the watched step ends. */
  close(): void;
}

/**
 * Watches a step (the agent, a check round): polls `sources` every `pollMs` and follows the loop's
 * `signal`, so a STOP file or label ends the step as a SIGTERM does, not only the next iteration.
 */
export function watchStops(sources: readonly StopSource[], pollMs: number, signal?: AbortSignal): StopWatch {
  const stop = new AbortController();
  let why: string | null = null;
  const halt = (reason: string) => {
    why ??= reason;
    stop.abort();
  };
  // The signal's own words where it carries them ("SIGINT received…"), not a stop of unknown source.
  const onSignal = () => halt(typeof signal?.reason === 'string' ? signal.reason : 'the loop was asked to stop (signal)');
  signal?.addEventListener('abort', onSignal, { once: true });
  if (signal?.aborted) onSignal();
  const timer = setInterval(() => {
    void firstStop(sources).then((reason) => {
      if (reason) halt(reason);
    });
  }, pollMs);
  return {
    signal: stop.signal,
    reason: () => why,
    close: () => {
      clearInterval(timer);
      signal?.removeEventListener('abort', onSignal);
    },
  };
}
