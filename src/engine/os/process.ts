// Runs agent and check processes with async spawn only. Every child gets its own session and process
// group (so a Ctrl-C at the terminal reaches the loop, never its children directly), and everything
// it started is killed when it is done, timed out or aborted: no orphan of an iteration may outlive
// it (an orphan could keep editing the repository during the next one). A child wrapped by the
// sandbox (RunSpec.contained) lives in its own PID namespace, whose end kills everything in it;
// every other child is contained by a sweep of the process table.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { ContainedRun, ProcessRunner, RunResult, RunSpec } from './ports.js';
import { trackProcessGroup } from './signals.js';
import { startChild, type Started } from './spawner.js';
import { forksSince, readStartTime, RUN_TAG_VAR, signalPid, terminateTree } from './process-tree.js';

// The process table's and the shell's names the rest of the engine takes from here.
export { processDescendants, processRunning, readStartTime, RUN_TAG_VAR } from './process-tree.js';
export { ShellSession } from './shell-session.js';

/** setTimeout fires at once for longer delays. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface NodeProcessRunnerOptions {
  /** Between SIGTERM and SIGKILL. */
  killGraceMs?: number;
  /** After the child exits (and its leftovers are killed), how long to wait for the pipes to close. */
  drainMs?: number;
}

export class NodeProcessRunner implements ProcessRunner {
  private readonly killGraceMs: number;
  private readonly drainMs: number;

  constructor(options: NodeProcessRunnerOptions = {}) {
    this.killGraceMs = options.killGraceMs ?? 1500;
    this.drainMs = options.drainMs ?? 250;
  }

  run(spec: RunSpec): Promise<RunResult> {
    const result = this.runOnce(spec);
    const c = spec.contained;
    return c ? result.then(async (r) => (await c.release().catch(() => undefined), r)) : result;
  }

  private async runOnce(spec: RunSpec): Promise<RunResult> {
    const started = performance.now();
    const elapsed = () => performance.now() - started;
    if (spec.signal?.aborted) return { exitCode: null, signal: null, timedOut: false, aborted: true, stdout: '', stderr: '', durationMs: elapsed() };

    const tag = randomUUID();
    let child: Started;
    try {
      // A contained child's environment is exactly the role's: it needs no tag to be found.
      const env = spec.contained ? spec.env : { ...spec.env, [RUN_TAG_VAR]: tag };
      const [command, args] = spec.args ? [spec.command, spec.args] : ['/bin/sh', ['-c', spec.command]];
      child = await startChild(command, args, { cwd: spec.cwd, env, stdin: spec.stdin });
    } catch (e) {
      return spawnFailure(e, spec, elapsed());
    }

    return new Promise<RunResult>((resolve) => {
      const out = new OutputCapture(spec.maxOutputBytes);
      const err = new OutputCapture(spec.maxOutputBytes);
      let exited = false;
      let timedOut = false;
      let aborted = false;
      let killing: Promise<void> | null = null;
      const pid = child.pid;
      const contained = spec.contained;
      const rootStart = contained ? null : readStartTime(pid);
      const since = contained ? null : forksSince(pid);
      const untrack = trackProcessGroup(pid);
      const exitedP = child.exit.then(() => undefined);

      const killTree = () => {
        if (killing) return;
        killing = contained ? stopContained(pid, exitedP, contained) : terminateTree(pid, true, tag, rootStart, since, this.killGraceMs);
      };
      const timer =
        spec.timeoutMs === undefined
          ? undefined
          : setTimeout(
              () => {
                if (exited) return;
                timedOut = true;
                killTree();
              },
              Math.min(Math.max(0, spec.timeoutMs), MAX_TIMER_MS),
            );
      let idle = false;
      let idleTimer: NodeJS.Timeout | undefined;
      const quiet = () => {
        if (spec.idleMs === undefined || exited) return;
        clearTimeout(idleTimer);
        idleTimer = setTimeout(
          () => {
            if (exited || timedOut || aborted) return;
            idle = true;
            killTree();
          },
          Math.min(Math.max(0, spec.idleMs), MAX_TIMER_MS),
        );
      };
      quiet();
      const onAbort = () => {
        if (exited) return;
        aborted = true;
        killTree();
      };
      spec.signal?.addEventListener('abort', onAbort, { once: true });
      // An abort that came while the child was being started.
      if (spec.signal?.aborted) onAbort();
      const cleanup = () => {
        if (timer) clearTimeout(timer);
        clearTimeout(idleTimer);
        spec.signal?.removeEventListener('abort', onAbort);
      };

      child.stdout.on('data', (c: Buffer) => {
        out.push(c);
        quiet();
      });
      child.stderr.on('data', (c: Buffer) => {
        err.push(c);
        quiet();
      });
      const closed = Promise.all([streamClosed(child.stdout), streamClosed(child.stderr)]);

      void child.exit.then(async ({ code, signal }) => {
        exited = true;
        cleanup();
        untrack();
        try {
          await killing;
          // Anything the child left running (its group, its session, its tagged descendants). A
          // contained child has ended only once its namespace was empty.
          if (!contained && (spec.reapLeftovers !== false || killing)) await terminateTree(pid, false, tag, rootStart, since, this.killGraceMs);
        } catch {
          // Killing is best effort; the result must still be reported.
        }
        // A pipe held open by a process that could not be killed must not hang the loop.
        let drainTimer: NodeJS.Timeout | undefined;
        const drained = await Promise.race([closed.then(() => true), new Promise<boolean>((r) => (drainTimer = setTimeout(() => r(false), this.drainMs)))]);
        clearTimeout(drainTimer);
        if (!drained) {
          child.stdout.destroy();
          child.stderr.destroy();
        }
        resolve({
          exitCode: signal ? null : code,
          signal: signal ?? null,
          timedOut,
          ...(idle ? { idle } : {}),
          aborted,
          stdout: out.text(),
          stderr: err.text(),
          durationMs: elapsed(),
        });
      });
    });
  }
}

/** SIGTERM to the group (the command may finish its work), the namespace's end after the grace. */
async function stopContained(pid: number, exited: Promise<void>, c: ContainedRun): Promise<void> {
  signalPid(-pid, 'SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const ended = await Promise.race([exited.then(() => true), new Promise<boolean>((r) => (timer = setTimeout(() => r(false), c.graceMs)))]);
  clearTimeout(timer);
  if (!ended) await c.forceKill(pid);
}

function spawnFailure(e: unknown, spec: RunSpec, durationMs: number): RunResult {
  const code = (e as NodeJS.ErrnoException).code;
  const message = e instanceof Error ? e.message : String(e);
  return {
    // Shell conventions: 126 found but not executable, 127 not found.
    exitCode: code === 'EACCES' || code === 'ENOEXEC' ? 126 : 127,
    signal: null,
    timedOut: false,
    aborted: false,
    stdout: '',
    stderr: `${message} (command: ${spec.command}, cwd: ${spec.cwd})\n`,
    durationMs,
  };
}

function streamClosed(s: NodeJS.ReadableStream | null | undefined): Promise<void> {
  if (!s) return Promise.resolve();
  return new Promise((resolve) => {
    s.once('close', () => resolve());
    s.once('error', () => resolve());
  });
}

/** Keeps the head and the tail of a stream when it exceeds `max` bytes. */
export class OutputCapture {
  private readonly headLimit: number;
  private readonly tailLimit: number;
  private head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private total = 0;

  constructor(private readonly max?: number) {
    const m = max === undefined ? Infinity : Math.max(0, Math.floor(max));
    this.headLimit = Math.floor(m / 2);
    this.tailLimit = m - this.headLimit;
  }

  push(chunk: Buffer): void {
    this.total += chunk.length;
    if (this.max === undefined) {
      this.head.push(chunk);
      return;
    }
    const room = this.headLimit - this.headBytes;
    if (room > 0) {
      const part = chunk.length <= room ? chunk : chunk.subarray(0, room);
      this.head.push(part);
      this.headBytes += part.length;
      chunk = chunk.subarray(part.length);
    }
    if (chunk.length === 0) return;
    this.tail.push(chunk);
    this.tailBytes += chunk.length;
    // Drop whole chunks that lie entirely before the last tailLimit bytes.
    while (this.tail.length > 1 && this.tailBytes - this.tail[0].length >= this.tailLimit) this.tailBytes -= this.tail.shift()?.length ?? 0;
  }

  text(): string {
    const head = Buffer.concat(this.head);
    if (this.max === undefined || this.total <= this.headLimit + this.tailLimit) return Buffer.concat([head, ...this.tail]).toString('utf8');
    let tail = Buffer.concat(this.tail);
    tail = tail.subarray(Math.max(0, tail.length - this.tailLimit));
    // Cut on character boundaries so neither half ends in a broken UTF-8 sequence.
    let h = head.length;
    if (h > 0 && h < this.total) h = utf8Start(head, h);
    let t = 0;
    while (t < tail.length && (tail[t] & 0xc0) === 0x80) t++;
    const keptHead = head.subarray(0, h);
    const keptTail = tail.subarray(t);
    const omitted = this.total - keptHead.length - keptTail.length;
    return `${keptHead.toString('utf8')}\n[... ${omitted} bytes omitted ...]\n${keptTail.toString('utf8')}`;
  }
}

/** The largest cut ≤ end that does not split a UTF-8 sequence of buf[0..end). */
function utf8Start(buf: Buffer, end: number): number {
  let i = end - 1;
  let back = 0;
  while (i >= 0 && back < 4 && (buf[i] & 0xc0) === 0x80) {
    i--;
    back++;
  }
  if (i < 0) return end;
  const lead = buf[i];
  const len = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return i + len > end ? i : end;
}

// ---------------------------------------------------------------------------------------------------
// Process tree discovery through /proc (Linux). Elsewhere only the process group is signalled.
