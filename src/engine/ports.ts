// The engine reaches the outside world only through these small interfaces, so the CLI and the
// Action share one engine and tests can drive it with real processes on real temporary repos.

export interface RunSpec {
  /** A shell command line (run by /bin/sh -c) unless `args` is given, then an executable. */
  command: string;
  args?: string[];
  cwd: string;
  env: Record<string, string>;
  /** Written to the child's standard input, which is then closed. */
  stdin?: string;
  /** Kill the whole process group after this many milliseconds. */
  timeoutMs?: number;
  /** Aborting kills the whole process group. */
  signal?: AbortSignal;
  /** Output beyond this many bytes per stream is dropped from the middle (head and tail kept). */
  maxOutputBytes?: number;
  /**
   * After a normal exit, sweep the process table for anything the child left running (default
   * true). The loop's own git calls leave nothing behind and skip the sweep: it costs ~10 ms.
   */
  reapLeftovers?: boolean;
}

export interface RunResult {
  /** null when the process was ended by a signal. */
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  aborted: boolean;
  stdout: string;
  stderr: string;
  durationMs: number;
}

export interface ProcessRunner {
  run(spec: RunSpec): Promise<RunResult>;
}

export interface Clock {
  /** Milliseconds, monotonic; only differences are meaningful. */
  monotonicMs(): number;
}

export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** A source of backpressure the loop polls (STOP label, STOP file, disk, signals). */
export interface StopSource {
  readonly name: string;
  /** A human-readable reason when a stop is requested, otherwise null. */
  check(): Promise<string | null>;
}
