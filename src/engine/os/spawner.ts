// Starts child processes for the loop from a small helper process. A Node process forks its whole
// address space to start a child: the loop's (100–200 MB, most of it the tokenizer and the bundle)
// costs ~7–14 ms of the main thread per spawn on a VM, three times an iteration (agent, check,
// residual). The helper is a bare Node process (~45 MB) started once per run: it forks in ~1 ms and
// passes each child's pid, output and exit back over its IPC channel. The loop still kills children
// itself (by pid and process group), so containment does not depend on the helper; a helper that
// dies (killed, crashed) fails none of the loop's runs: what it had in flight is reported killed,
// and the next start goes through a new helper or, failing that, a direct spawn.
//
// Where the system has perl, the helper is a perl program instead (spawn-helper.pl): its fork copies a
// few MB, not Node's ~45, and its frames cost less to read than Node's IPC messages. Per child, on
// this kind of VM: ~0.35 ms of the helper's CPU instead of ~0.95, and ~0.3 ms less to the exit.
import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants as fsConstants } from 'node:fs';
import { constants } from 'node:os';
import { join } from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { programText } from './programs.js';

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
 * this module: no import, no outer name. It exits when the loop does (its channel closes), and kills
 * its children's process groups first.
 */
function helperMain(cp: typeof import('node:child_process')): void {
  const send = (m: Reply) => {
    if (process.connected) process.send?.(m);
  };
  const running = new Set<number>();
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
    const pid = child.pid;
    running.add(pid);
    child.on('exit', (code, signal) => {
      running.delete(pid);
      send({ t: 'exit', id: m.id, code, signal });
    });
  });
  // The loop is gone (killed): so is what it started, each child's process group with it.
  process.on('disconnect', () => {
    for (const pid of running)
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // gone already
      }
    process.exit(0);
  });
}

/** A request as the perl helper reads it (see spawn-helper.pl). */
function perlRequest(id: number, command: string, args: string[], o: StartOptions): Buffer {
  const env = Object.entries(o.env).map(([k, v]) => `${k}=${v}`);
  const fields = [String(id), o.cwd, String(args.length + 1), command, ...args, String(env.length), ...env];
  const body = Buffer.concat([Buffer.from(fields.map((f) => `${f}\0`).join('')), Buffer.from(o.stdin ?? '')]);
  const head = Buffer.alloc(4);
  head.writeUInt32BE(body.length);
  return Buffer.concat([head, body]);
}

const errnoNames = new Map(Object.entries(constants.errno).map(([name, n]) => [n, name]));
const signalNames = new Map(Object.entries(constants.signals).map(([name, n]) => [n, name as NodeJS.Signals]));

/** The perl helper's frames, as the Node helper's messages (`command`: the name spawn's errors give). */
function perlReplies(onReply: (m: Reply) => void, command: (id: number) => string): (chunk: Buffer) => void {
  let buf: Buffer = Buffer.alloc(0);
  return (chunk) => {
    buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
    while (buf.length >= 9) {
      const len = buf.readUInt32BE(5);
      if (buf.length < 9 + len) break;
      const type = String.fromCharCode(buf[0]);
      const id = buf.readUInt32BE(1);
      const data = buf.subarray(9, 9 + len);
      buf = buf.subarray(9 + len);
      const text = () => data.toString('latin1');
      if (type === 'S') onReply({ t: 'spawned', id, pid: Number(text()) });
      else if (type === 'F') {
        const code = errnoNames.get(Number(text())) ?? 'EIO';
        onReply({ t: 'error', id, code, message: `spawn ${command(id)} ${code}` });
      } else if (type === 'O' || type === 'E') onReply({ t: 'data', id, fd: type === 'O' ? 1 : 2, data });
      else if (type === 'o' || type === 'e') onReply({ t: 'end', id, fd: type === 'o' ? 1 : 2 });
      else if (type === 'X') {
        const n = Number(text().slice(1));
        onReply({ t: 'exit', id, code: text()[0] === 'c' ? n : null, signal: text()[0] === 's' ? (signalNames.get(n) ?? 'SIGKILL') : null });
      }
    }
  };
}

interface Pending {
  command: string;
  spawned: (pid: number) => void;
  reject: (e: NodeJS.ErrnoException) => void;
  out: PassThrough;
  err: PassThrough;
  exited: (x: { code: number | null; signal: NodeJS.Signals | null }) => void;
  started: boolean;
}

/** How a helper takes requests and gives its replies: Node's IPC channel, or the perl helper's pipes. */
interface Transport {
  send(id: number, command: string, args: string[], o: StartOptions): void;
  /** The loop's event loop waits for the helper only while a child of it runs. */
  hold(on: boolean): void;
  /** Stops reading replies until `stream` drains (its reader fell behind). */
  throttle?(stream: PassThrough): void;
}

class Helper {
  /** Children started and not yet done with. */
  private readonly pending = new Map<number, Pending>();
  private seq = 0;
  gone = false;
  private readonly transport: Transport;

  constructor(
    private readonly proc: ChildProcess,
    kind: 'node' | 'perl',
  ) {
    this.transport = kind === 'node' ? this.nodeChannel() : this.perlPipes();
    proc.once('exit', () => this.lost());
    proc.once('error', () => this.lost());
    this.transport.hold(false);
  }

  private nodeChannel(): Transport {
    const proc = this.proc;
    proc.on('message', (m: Reply) => this.reply(m));
    proc.once('disconnect', () => this.lost());
    return {
      send: (id, command, args, o) =>
        proc.send({ id, command, args, cwd: o.cwd, env: o.env, stdin: o.stdin ?? null } satisfies Request, (e) => {
          if (e) this.lost();
        }),
      hold: (on) => {
        for (const h of [proc, proc.channel])
          if (on) h?.ref();
          else h?.unref();
      },
    };
  }

  private perlPipes(): Transport {
    const { stdin, stdout } = this.proc;
    stdout!.on(
      'data',
      perlReplies(
        (m) => this.reply(m),
        (id) => this.pending.get(id)?.command ?? '',
      ),
    );
    stdout!.once('close', () => this.lost());
    stdin!.on('error', () => this.lost());
    const pipes = [this.proc, stdin as unknown as { ref(): void; unref(): void }, stdout as unknown as { ref(): void; unref(): void }];
    return {
      send: (id, command, args, o) => stdin!.write(perlRequest(id, command, args, o)),
      hold: (on) => {
        for (const h of pipes)
          if (on) h.ref();
          else h.unref();
      },
      // Until the stream drains, or its reader gives up on it (destroys it: no drain comes then).
      throttle: (stream) => {
        stdout!.pause();
        const resume = () => {
          stream.off('drain', resume).off('close', resume);
          stdout!.resume();
        };
        stream.once('drain', resume).once('close', resume);
      },
    };
  }

  start(command: string, args: string[], o: StartOptions): Promise<Started> {
    return new Promise((resolve, reject) => {
      const id = ++this.seq;
      const out = new PassThrough();
      const err = new PassThrough();
      let exited: Pending['exited'] = () => {};
      const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) => (exited = r));
      const p: Pending = { command, spawned: (pid) => resolve({ pid, stdout: out, stderr: err, exit }), reject, out, err, exited, started: false };
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
      this.transport.hold(true);
      this.transport.send(id, command, args, o);
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
      if (m.t === 'end') stream.end();
      else if (!stream.write(Buffer.from(m.data.buffer, m.data.byteOffset, m.data.byteLength))) this.transport.throttle?.(stream);
    }
  }

  private forget(id: number): void {
    this.pending.delete(id);
    this.transport.hold(this.pending.size > 0);
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
    this.transport.hold(false);
  }
}

/** Where tools are taken from: the system's own folders, never a PATH the agent could have planted into. */
export const SYSTEM_DIRS = ['/usr/bin', '/bin', '/usr/sbin', '/sbin', '/usr/local/bin', '/usr/local/sbin'];

/** The first of the system folders that holds an executable `name` (null: none does). */
export function systemTool(name: string): string | null {
  for (const dir of SYSTEM_DIRS)
    try {
      accessSync(join(dir, name), fsConstants.X_OK);
      return join(dir, name);
    } catch {
      // not there
    }
  return null;
}

export type HelperKind = 'perl' | 'node';
const helpers = new Map<HelperKind, Helper>();

function helperOf(kind: HelperKind): Helper | null {
  const known = helpers.get(kind);
  if (known && !known.gone) return known;
  helpers.delete(kind);
  const perl = kind === 'perl' ? systemTool('perl') : null;
  if (kind === 'perl' && !perl) return null;
  try {
    // No environment of the loop's (NODE_OPTIONS, secrets): each child gets exactly the one asked for.
    // Its own session: a Ctrl-C at the terminal reaches the loop, which stops in order, not the helper.
    // `__name`: what esbuild (tsx, when the engine runs from source) wraps nested functions in.
    // perl runs from / (before 5.26 its @INC held `.`: a POSIX.pm planted in the work tree).
    const proc = perl
      ? spawn(perl, ['-e', programText('spawn-helper.pl')], { cwd: '/', env: {}, stdio: ['pipe', 'pipe', 'ignore'], detached: true })
      : spawn(process.execPath, ['-e', `var __name = (f) => f;\n(${helperMain.toString()})(require('node:child_process'));`], {
          env: {},
          stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
          serialization: 'advanced',
          detached: true,
        });
    if (proc.pid === undefined) return null;
    const h = new Helper(proc, kind);
    helpers.set(kind, h);
    return h;
  } catch {
    return null;
  }
}

/**
 * Starts `command` with `args` in its own session (process group), through the helper when there is
 * one. Rejects like spawn's 'error' (ENOENT, EACCES...) when the child could not be started.
 */
let preferred: HelperKind | undefined;

export function startChild(command: string, args: string[], o: StartOptions): Promise<Started> {
  preferred ??= systemTool('perl') ? 'perl' : 'node';
  return startVia(preferred, command, args, o);
}

/** startChild through the helper of that kind (both are tested: a system may lack perl). */
export async function startVia(kind: HelperKind, command: string, args: string[], o: StartOptions): Promise<Started> {
  const h = helperOf(kind);
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
