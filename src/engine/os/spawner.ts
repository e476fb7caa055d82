// Starts child processes for the loop from a small helper process. A Node process forks its whole
// address space to start a child: the loop's (100–200 MB, most of it the tokenizer and the bundle)
// costs ~7–14 ms of the main thread per spawn on a VM, three times an iteration (agent, check,
// residual). The helper is a bare Node process (~45 MB) started once per run: it forks in ~1 ms and
// passes each child's pid, output and exit back over its IPC channel. The loop still kills children
// itself (by pid and process group), so containment does not depend on the helper; a helper that
// dies (killed, crashed) fails none of the loop's runs: what it had in flight is reported killed,
// and the next start goes through a new helper or, failing that, a direct spawn.
import { type ChildProcess, spawn } from 'node:child_process';
import { PassThrough, type Readable } from 'node:stream';

/** A started child: what the process runner needs of it, whoever forked it. */
export interface Started {
  pid: number;
  stdout: Readable;
  stderr: Readable;
  /** Settles once, when the child has exited (before its output may have drained). */
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface StartOptions {
  cwd: string;
  env: Record<string, string>;
  /** Written to the child's stdin, which is then closed (closed at once without it). */
  stdin?: string;
}

type Request = { id: number; command: string; args: string[]; cwd: string; env: Record<string, string>; stdin: string | null };
type Reply =
  | { t: 'spawned'; id: number; pid: number }
  | { t: 'error'; id: number; code: string | null; message: string }
  | { t: 'data'; id: number; fd: 1 | 2; data: Uint8Array }
  | { t: 'end'; id: number; fd: 1 | 2 }
  | { t: 'exit'; id: number; code: number | null; signal: NodeJS.Signals | null };

/**
 * The helper's program. It runs from its own source text (`node -e`), so it may use nothing from
 * this module: no import, no outer name. It exits when the loop does (its channel closes).
 */
function helperMain(cp: typeof import('node:child_process')): void {
  const send = (m: Reply) => {
    if (process.connected) process.send?.(m);
  };
  process.on('message', (m: Request) => {
    let child: ChildProcess;
    try {
      child = cp.spawn(m.command, m.args, { cwd: m.cwd, env: m.env, detached: true, stdio: 'pipe' });
    } catch (e) {
      send({ t: 'error', id: m.id, code: (e as NodeJS.ErrnoException).code ?? null, message: (e as Error).message });
      return;
    }
    if (child.pid === undefined) {
      child.once('error', (e: NodeJS.ErrnoException) => send({ t: 'error', id: m.id, code: e.code ?? null, message: e.message }));
      return;
    }
    send({ t: 'spawned', id: m.id, pid: child.pid });
    for (const fd of [1, 2] as const) {
      const s = fd === 1 ? child.stdout : child.stderr;
      // Flow control: while the loop has not taken 16 chunks, the child's pipe is not read (a child
      // that floods its output waits, as it would on a pipe the loop read itself).
      let unsent = 0;
      s?.on('data', (data: Buffer) => {
        if (!process.connected) return;
        if (++unsent >= 16) s.pause();
        process.send?.({ t: 'data', id: m.id, fd, data } satisfies Reply, undefined, undefined, () => {
          if (--unsent < 16) s.resume();
        });
      });
      s?.on('close', () => send({ t: 'end', id: m.id, fd }));
    }
    child.stdin?.on('error', () => {});
    child.stdin?.end(m.stdin ?? undefined);
    child.on('exit', (code, signal) => send({ t: 'exit', id: m.id, code, signal }));
  });
  process.on('disconnect', () => process.exit(0));
}

interface Pending {
  spawned: (pid: number) => void;
  reject: (e: NodeJS.ErrnoException) => void;
  out: PassThrough;
  err: PassThrough;
  exited: (x: { code: number | null; signal: NodeJS.Signals | null }) => void;
  started: boolean;
}

class Helper {
  /** Children started and not yet done with. */
  private readonly pending = new Map<number, Pending>();
  private seq = 0;
  gone = false;

  constructor(private readonly proc: ChildProcess) {
    proc.on('message', (m: Reply) => this.reply(m));
    proc.once('disconnect', () => this.lost());
    proc.once('exit', () => this.lost());
    proc.once('error', () => this.lost());
    this.refs();
  }

  /** The helper holds the loop's event loop open only while a child of it runs (then its end is seen too). */
  private refs(): void {
    if (this.pending.size) {
      this.proc.ref();
      this.proc.channel?.ref();
    } else {
      this.proc.unref();
      this.proc.channel?.unref();
    }
  }

  start(command: string, args: string[], o: StartOptions): Promise<Started> {
    return new Promise((resolve, reject) => {
      const id = ++this.seq;
      const out = new PassThrough();
      const err = new PassThrough();
      let exited: Pending['exited'] = () => {};
      const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) => (exited = r));
      const p: Pending = { spawned: (pid) => resolve({ pid, stdout: out, stderr: err, exit }), reject, out, err, exited, started: false };
      // Done with once it has exited and the helper has sent the end of both streams.
      let open = 3;
      const done = () => {
        if (--open === 0) this.forget(id);
      };
      void exit.then(done);
      // A stream is done with when it ends, or when its reader destroys it (output it gave up waiting for).
      for (const stream of [out, err]) {
        let once = false;
        const end = () => {
          if (!once) done();
          once = true;
        };
        stream.once('finish', end);
        stream.once('close', end);
      }
      this.pending.set(id, p);
      this.refs();
      this.proc.send({ id, command, args, cwd: o.cwd, env: o.env, stdin: o.stdin ?? null } satisfies Request, (e) => {
        if (e) this.lost();
      });
    });
  }

  private reply(m: Reply): void {
    const p = this.pending.get(m.id);
    if (!p) return;
    if (m.t === 'spawned') {
      p.started = true;
      p.spawned(m.pid);
    } else if (m.t === 'error') {
      this.forget(m.id);
      p.reject(Object.assign(new Error(m.message), { code: m.code ?? undefined }));
    } else if (m.t === 'exit') p.exited({ code: m.code, signal: m.signal });
    else {
      const stream = m.fd === 1 ? p.out : p.err;
      if (stream.destroyed) return;
      if (m.t === 'data') stream.write(Buffer.from(m.data.buffer, m.data.byteOffset, m.data.byteLength));
      else stream.end();
    }
  }

  private forget(id: number): void {
    this.pending.delete(id);
    this.refs();
  }

  /** The helper is gone: a start in flight fails (the caller spawns directly); a running child reads as killed. */
  private lost(): void {
    if (this.gone) return;
    this.gone = true;
    for (const p of this.pending.values()) {
      if (!p.started) p.reject(Object.assign(new Error('the spawn helper ended'), { code: 'EHELPERGONE' }));
      else {
        p.exited({ code: null, signal: 'SIGKILL' });
        for (const stream of [p.out, p.err]) if (!stream.destroyed) stream.end();
      }
    }
    this.pending.clear();
    this.proc.unref();
  }
}

let helper: Helper | null = null;

function current(): Helper | null {
  if (helper && !helper.gone) return helper;
  try {
    // No environment of the loop's (NODE_OPTIONS, secrets): each child gets exactly the one asked for.
    // `__name`: what esbuild (tsx, when the engine runs from source) wraps nested functions in.
    const source = `var __name = (f) => f;\n(${helperMain.toString()})(require('node:child_process'));`;
    const proc = spawn(process.execPath, ['-e', source], {
      env: {},
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
      serialization: 'advanced',
      // Its own session: a Ctrl-C at the terminal reaches the loop, which stops in order, not the helper.
      detached: true,
    });
    helper = proc.pid === undefined ? null : new Helper(proc);
  } catch {
    helper = null;
  }
  return helper;
}

/**
 * Starts `command` with `args` in its own session (process group), through the helper when there is
 * one. Rejects like spawn's 'error' (ENOENT, EACCES...) when the child could not be started.
 */
export async function startChild(command: string, args: string[], o: StartOptions): Promise<Started> {
  const h = current();
  if (h)
    try {
      return await h.start(command, args, o);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EHELPERGONE') throw e;
    }
  return startDirect(command, args, o);
}

/** child_process.spawn from this process: the fallback, and what the helper itself does. */
export function startDirect(command: string, args: string[], o: StartOptions): Promise<Started> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: o.cwd, env: o.env, detached: true, stdio: 'pipe' });
    const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) => child.once('exit', (code, signal) => r({ code, signal })));
    child.once('error', (e) => {
      // Only a failure to start; errors of a running child (a kill that found it gone) are not.
      if (child.pid === undefined) reject(e);
    });
    child.once('spawn', () => {
      // EPIPE when the child does not read its input is not the runner's failure.
      child.stdin.on('error', () => {});
      child.stdin.end(o.stdin);
      resolve({ pid: child.pid!, stdout: child.stdout, stderr: child.stderr, exit });
    });
  });
}
