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
  /** No output on stdout or stderr for this many milliseconds kills it like the time limit (`idle` in the result). */
  idleMs?: number;
  /** Output beyond this many bytes per stream is dropped from the middle (head and tail kept). */
  maxOutputBytes?: number;
  /**
   * After a normal exit, sweep the process table for anything the child left running (default
   * true). The loop's own git calls leave nothing behind and skip the sweep: it costs ~10 ms.
   */
  reapLeftovers?: boolean;
  /** `open`: the machine's network whatever the sandbox's policy (checks.setup, which installs: os/network.ts). */
  network?: 'open';
  /** Set by Sandbox.wrap: the command runs in its own PID namespace (src/engine/os/sandbox.ts). */
  contained?: ContainedRun;
}

/**
 * How a process started by Sandbox.wrap is stopped: SIGTERM to its process group, then, `graceMs`
 * later, `forceKill`, which ends the namespace; when the namespace's first process ends, the kernel
 * ends every process left in it. No process-table sweep is needed.
 */
export interface ContainedRun {
  /** Between SIGTERM to the process group and `forceKill`. */
  readonly graceMs: number;
  forceKill(pid: number): Promise<void>;
  /** Called once the run has ended: removes the run's HOME and TMPDIR. */
  release(): Promise<void>;
}

export interface RunResult {
  /** null when the process was ended by a signal. */
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  /** Killed by the idle limit (RunSpec.idleMs); `timedOut` is then false. */
  idle?: boolean;
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
