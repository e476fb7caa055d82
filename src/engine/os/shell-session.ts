// The loop's long-lived shell for its own short commands (git, root's find/chown).
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { Readable, Writable } from 'node:stream';
import { shellQuote } from '../common/shell-quote.js';
import { signalPid } from './process-tree.js';

/**
 * A long-lived /bin/sh that runs short commands (the loop's own git calls) one at a time. A large
 * Node process pays several milliseconds of fork per spawn; the shell forks git for a fraction of
 * that. Each command's output comes through the shell's own pipes, ended by a marker the command
 * cannot forge (random, new for each command, never written anywhere else); its input, when it has
 * one, from the shell's builtin printf through a pipe (a file written per call cost the loop's
 * thread a create on disk; printf writes the NUL bytes a shell word cannot hold).
 */
export class ShellSession {
  private seq = 0;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  private readonly streams = [new MarkedStream(), new MarkedStream()];
  private onEnd: (() => void) | null = null;

  private constructor(
    private readonly child: ChildProcessByStdio<Writable, Readable, Readable>,
    private readonly timeoutMs: number,
  ) {
    child.stdout.on('data', (d: Buffer) => this.streams[0].push(d));
    child.stderr.on('data', (d: Buffer) => this.streams[1].push(d));
    const end = () => {
      this.closed = true;
      this.onEnd?.();
    };
    child.on('exit', end);
    // A shell that died (killed by an agent of the same user, say) must fail the call, not the process.
    child.stdin.on('error', end);
  }

  /**
   * The shell gets its own session: a Ctrl-C at the terminal (SIGINT to the foreground process
   * group) reaches the loop, which then stops in order, and not the shell. It still ends with the
   * loop: when the loop's process is gone, its end of the shell's stdin closes and `sh -s` exits.
   */
  static start(cwd: string, env: Record<string, string>, timeoutMs = 300_000, shell: readonly string[] = ['/bin/sh', '-s']): Promise<ShellSession> {
    const [command, ...args] = shell;
    const child = spawn(command, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    return Promise.resolve(new ShellSession(child, timeoutMs));
  }

  /** Whether the shell is gone (ended, killed, or stopped at a timeout): a new one is needed. */
  get ended(): boolean {
    return this.closed;
  }

  /** Runs one shell command line, with `stdin` as its input. */
  run(script: string, stdin = ''): Promise<{ exitCode: number; stdout: string; stderr: string }> {
    const next = this.queue.then(async () => {
      if (this.closed) throw new Error('the git shell session has ended');
      const mark = `__phuc_${randomUUID().replaceAll('-', '')}_${++this.seq}`;
      const [out, err] = this.streams.map((s) => s.until(mark));
      let timer: NodeJS.Timeout | undefined;
      const ended = new Promise<number>((resolve) => {
        this.onEnd = () => resolve(255);
        // A git call that hangs (a lock, a credential prompt) ends the session rather than the loop's budgets.
        timer = setTimeout(() => {
          this.closed = true;
          // The whole group: the hanging git too, not only the shell waiting for it.
          if (this.child.pid !== undefined) signalPid(-this.child.pid, 'SIGKILL');
          resolve(124);
        }, this.timeoutMs);
      });
      // A group, not a subshell: one fork fewer per call (scripts only set throwaway variables).
      const input = stdin ? `${printed(stdin)} | ` : '';
      this.child.stdin.write(`${input}{ ${script}\n}${stdin ? '' : ' </dev/null'}; printf '${mark} %d\\n' $?; printf '${mark}\\n' >&2\n`);
      const done = await Promise.race([Promise.all([out, err]), ended]);
      clearTimeout(timer);
      this.onEnd = null;
      if (typeof done === 'number') {
        this.closed = true;
        for (const s of this.streams) s.reset();
        return { exitCode: done, stdout: '', stderr: '' };
      }
      const [o, e] = done;
      const m = /^ (\d+)\n$/.exec(o.after);
      return { exitCode: m ? Number(m[1]) : 255, stdout: o.before, stderr: e.before };
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  close(): Promise<void> {
    if (!this.closed) this.child.stdin.end();
    return Promise.resolve();
  }
}

/** A shell command that writes `text` exactly: its NUL-separated parts as printf arguments. */
function printed(text: string): string {
  const parts = text.split('\0');
  const last = parts.pop()!;
  return `{ ${parts.length ? `printf '%s\\0' ${parts.map(shellQuote).join(' ')}; ` : ''}printf %s ${shellQuote(last)}; }`;
}

/** A stream of command outputs, each ended by its marker line. */
class MarkedStream {
  private chunks: Buffer[] = [];
  private bytes = 0;
  private want: { mark: Buffer; resolve: (x: { before: string; after: string }) => void } | null = null;

  push(d: Buffer): void {
    this.chunks.push(d);
    this.bytes += d.length;
    this.look(d.length);
  }

  /** What comes before `mark`, and the rest of its line. */
  until(mark: string): Promise<{ before: string; after: string }> {
    return new Promise((resolve) => {
      this.want = { mark: Buffer.from(mark), resolve };
      this.look(this.bytes);
    });
  }

  reset(): void {
    this.chunks = [];
    this.bytes = 0;
    this.want = null;
  }

  /** Searches only the `fresh` bytes that came last (and a marker's length before them): a large output stays linear. */
  private look(fresh: number): void {
    if (!this.want) return;
    const { mark, resolve } = this.want;
    const span = Math.min(this.bytes, fresh + mark.length + 32);
    const tail: Buffer[] = [];
    for (let i = this.chunks.length - 1, got = 0; i >= 0 && got < span; i--) {
      tail.unshift(this.chunks[i]);
      got += this.chunks[i].length;
    }
    const window = tail.length === 1 ? tail[0] : Buffer.concat(tail);
    const from = Math.max(0, window.length - span);
    const w = window.indexOf(mark, from);
    if (w < 0 || window.indexOf(10, w) < 0) return;
    const all = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.bytes);
    const at = all.length - window.length + w;
    const eol = all.indexOf(10, at);
    this.want = null;
    const rest = all.subarray(eol + 1);
    this.chunks = rest.length ? [rest] : [];
    this.bytes = rest.length;
    resolve({ before: all.subarray(0, at).toString('utf8'), after: all.subarray(at + mark.length, eol + 1).toString('utf8') });
  }
}
