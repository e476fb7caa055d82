// Atomic file writes (temp file + rename) and tree copies, and a worker thread that does them off the
// loop's thread. Creating a file can wait on the disk for most of a millisecond (ext4 reads its inode
// table), and each write through the thread pool costs the loop's thread four round trips (open,
// write, close, rename), about 0.2 ms a file: an iteration writes some fifteen evidence files, and
// publishing the tree copies them all (fs.cp took 1.6 s for 3 200 files where this takes 0.2 s). The
// worker does them synchronously, in the order given; the loop's thread only posts the bytes.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';

type Modules = { fs: typeof fs; path: typeof path; crypto: typeof crypto };

/** The names writeAtomically gives its temp files: a file so named is half-written, never evidence. */
export const isTempFile = (name: string): boolean => /\.tmp-[0-9a-f]{12}$/.test(name);

/**
 * Temp file + rename. The temp name is unpredictable and created exclusively ('wx' fails on any
 * existing name, a planted symlink included), and rename replaces a link rather than following it:
 * a write never lands anywhere but `file`. It runs in the worker from its source text, so it uses
 * nothing but its arguments.
 */
function writeAtomically(m: Modules, file: string, data: string | Uint8Array): void {
  const tmp = `${file}.tmp-${m.crypto.randomBytes(6).toString('hex')}`;
  // The folder usually exists: made only when the write says it is missing (one syscall saved a file).
  try {
    m.fs.writeFileSync(tmp, data, { flag: 'wx' });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    m.fs.mkdirSync(m.path.dirname(file), { recursive: true });
    m.fs.writeFileSync(tmp, data, { flag: 'wx' });
  }
  try {
    m.fs.renameSync(tmp, file);
  } catch (e) {
    // A folder in the way (EISDIR): no stray temporary file is left beside it.
    m.fs.rmSync(tmp, { force: true });
    throw e;
  }
}

/**
 * Copies the folder `from` to `to`, which must not exist (nothing is made when `from` is not a
 * folder): real folders and regular files only, with their permission bits, never through a link (a
 * link, FIFO or device in it is left out, and a file is opened without following one). `skipNames`:
 * names left out wherever they are; `skipPaths`: relative paths left out. Runs in the worker from
 * its source text, so it uses nothing but its arguments.
 */
function copyTree(m: Modules, from: string, to: string, skipNames: string[], skipPaths: string[]): void {
  const { fs } = m;
  const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK, O_NOCTTY } = fs.constants;
  const file = (src: string, dst: string) => {
    let fd: number;
    try {
      fd = fs.openSync(src, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
    } catch (e) {
      // A link (ELOOP) or a name gone since the listing is not copied.
      if (['ELOOP', 'ENOENT', 'ENXIO'].includes((e as NodeJS.ErrnoException).code ?? '')) return;
      throw e;
    }
    try {
      const st = fs.fstatSync(fd);
      if (!st.isFile()) return;
      const out = fs.openSync(dst, 'wx', 0o600);
      try {
        const data = fs.readFileSync(fd);
        for (let at = 0; at < data.byteLength;) at += fs.writeSync(out, data, at);
        // Exactly the source's bits (a mode given to open is cut by the umask).
        fs.fchmodSync(out, st.mode & 0o777);
      } finally {
        fs.closeSync(out);
      }
    } finally {
      fs.closeSync(fd);
    }
  };
  const folder = (rel: string) => {
    const src = m.path.join(from, rel);
    const dst = m.path.join(to, rel);
    const st = fs.lstatSync(src);
    if (!st.isDirectory()) return;
    fs.mkdirSync(dst, { mode: 0o700 });
    for (const d of fs.readdirSync(src, { withFileTypes: true })) {
      const r = rel ? `${rel}/${d.name}` : d.name;
      if (skipNames.includes(d.name) || skipPaths.includes(r)) continue;
      if (d.isDirectory()) folder(r);
      else if (d.isFile()) file(m.path.join(src, d.name), m.path.join(dst, d.name));
    }
    fs.chmodSync(dst, st.mode & 0o777);
  };
  if (fs.lstatSync(from, { throwIfNoEntry: false })?.isDirectory()) folder('');
}

/**
 * Appends `data` to `file`, which must be a regular file of exactly `from` bytes (what the caller
 * last wrote there): a log grows by its new line, not by a rewrite of all of it. Anything else there
 * (another size, a link, no file) fails the write, and says what it found.
 */
function appendTo(m: Modules, file: string, data: Uint8Array, from: number): void {
  const { fs } = m;
  const fd = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile() || st.size !== from)
      throw Object.assign(new Error(`${file} is not the log the loop wrote (${st.isFile() ? `${st.size} bytes, not ${from}` : 'not a regular file'})`), {
        code: 'ECHANGED',
      });
    for (let at = 0; at < data.byteLength;) at += fs.writeSync(fd, data, at);
  } finally {
    fs.closeSync(fd);
  }
}

type Job = (
  | { kind: 'write'; file: string; data: string | Uint8Array }
  | { kind: 'append'; file: string; data: Uint8Array; from: number }
  | { kind: 'copy'; from: string; to: string; skipNames: string[]; skipPaths: string[] }
) & {
  /**
   * Files this job's content vouches for (a manifest lists them): it is not done, and fails, when the
   * last write of any of them failed. Jobs are done in order, so a manifest posted right behind its
   * files never lands listing one that is not on disk whole, and the loop need not wait between them.
   */
  requires?: string[];
};
type Jobs = { write: typeof writeAtomically; append: typeof appendTo; copy: typeof copyTree };

/**
 * Does one job in this thread. `failed`: the files whose last write failed (kept by the caller, one
 * set per thread), which the job updates.
 */
function perform(m: Modules, jobs: Jobs, job: Job, failed: Set<string>): void {
  const target = job.kind === 'copy' ? job.to : job.file;
  try {
    const missing = job.requires?.find((f) => failed.has(f));
    if (missing !== undefined) throw Object.assign(new Error(`not written: the write of ${missing} failed`), { code: 'EREQUIRED' });
    if (job.kind === 'write') jobs.write(m, job.file, job.data);
    else if (job.kind === 'append') jobs.append(m, job.file, job.data, job.from);
    else jobs.copy(m, job.from, job.to, job.skipNames, job.skipPaths);
  } catch (e) {
    failed.add(target);
    throw e;
  }
  failed.delete(target);
}

/** The worker's program: each message a batch of jobs, done in order and answered together. */
function writerMain(
  m: Modules,
  port: import('node:worker_threads').MessagePort,
  perform: (m: Modules, jobs: Jobs, job: Job, failed: Set<string>) => void,
  jobs: Jobs,
): void {
  const failed = new Set<string>();
  port.on('message', (batch: Queued[]) => {
    const done: Done[] = [];
    for (const w of batch)
      try {
        perform(m, jobs, w, failed);
        done.push({ id: w.id, error: null });
      } catch (e) {
        const err = e as NodeJS.ErrnoException;
        done.push({ id: w.id, error: { message: err.message, code: err.code ?? null } });
      }
    port.postMessage(done);
  });
}

type Queued = Job & { id: number };
type Done = { id: number; error: { message: string; code: string | null } | null };

/** Writes `file` atomically from the loop's thread (a write that must be done before the caller goes on). */
// Async for its callers, as the worker's writes are.
// eslint-disable-next-line @typescript-eslint/require-await
export async function atomicWrite(file: string, data: string | Uint8Array): Promise<void> {
  writeAtomically({ fs, path, crypto }, file, data);
}

interface Pending {
  resolve: () => void;
  reject: (e: Error) => void;
}

class Writer {
  private readonly pending = new Map<number, Pending>();
  private seq = 0;
  gone = false;
  /** Jobs asked for in this turn of the event loop, posted together at its end (a message costs the loop's thread more than a small file's bytes). */
  private batch: Queued[] = [];
  private transfers: ArrayBuffer[] = [];

  constructor(private readonly worker: Worker) {
    worker.on('message', (done: Done[]) => {
      for (const r of done) {
        const p = this.pending.get(r.id);
        this.pending.delete(r.id);
        if (!p) continue;
        if (r.error) p.reject(Object.assign(new Error(r.error.message), r.error.code ? { code: r.error.code } : {}));
        else p.resolve();
      }
      this.refs();
    });
    const lost = (e?: unknown) => this.lost(e);
    worker.once('error', lost);
    worker.once('exit', lost);
    this.refs();
  }

  /** The worker holds the process open only while a write is in flight. */
  private refs(): void {
    if (this.pending.size) this.worker.ref();
    else this.worker.unref();
  }

  /** `transfer`: buffers that move to the worker with the job (unusable here after). */
  queue(job: Job, transfer: ArrayBuffer[] = []): Promise<void> {
    this.transfers.push(...transfer);
    return new Promise((resolve, reject) => {
      const id = ++this.seq;
      this.pending.set(id, { resolve, reject });
      this.refs();
      if (!this.batch.length) setImmediate(() => this.post());
      this.batch.push({ ...job, id });
    });
  }

  post(): void {
    if (!this.batch.length) return;
    const [batch, transfers] = [this.batch, this.transfers];
    this.batch = [];
    this.transfers = [];
    try {
      if (this.gone) throw new Error('the evidence writer stopped');
      this.worker.postMessage(batch, transfers);
    } catch (e) {
      // Nothing of the batch reached the worker (a buffer that cannot be sent fails the whole message).
      for (const w of batch) {
        this.pending.get(w.id)?.reject(e instanceof Error ? e : new Error(String(e)));
        this.pending.delete(w.id);
      }
      this.refs();
    }
  }

  /** A worker that died fails what it had in flight (flush() throws it); the next write starts another. */
  private lost(e?: unknown): void {
    if (this.gone) return;
    this.gone = true;
    const why = e instanceof Error ? e.message : 'it ended';
    for (const p of this.pending.values()) p.reject(new Error(`the evidence writer stopped (${why})`));
    this.pending.clear();
    void this.worker.terminate();
  }
}

let writer: Writer | null = null;

function current(): Writer | null {
  if (writer && !writer.gone) return writer;
  try {
    // `__name`: what esbuild (tsx, when the engine runs from source) wraps nested functions in.
    const source =
      `var __name = (f) => f;\nconst m = { fs: require('node:fs'), path: require('node:path'), crypto: require('node:crypto') };\n` +
      `(${writerMain.toString()})(m, require('node:worker_threads').parentPort, ${perform.toString()}, { write: ${writeAtomically.toString()}, append: ${appendTo.toString()}, copy: ${copyTree.toString()} });`;
    writer = new Writer(new Worker(source, { eval: true, env: {}, stdout: false, stderr: false }));
  } catch {
    writer = null;
  }
  return writer;
}

/** The files whose last write in this thread (no worker) failed: see perform. */
const failedHere = new Set<string>();

/**
 * Writes `file` atomically in the worker (in the loop's thread when there is none); settles when it
 * is on disk. `transfer`: `data` owns its whole buffer, which moves to the worker (no copy; unusable
 * here after). `requires`: files whose failed last write fails this one (see Job).
 */
export function atomicWriteOffThread(file: string, data: string | Uint8Array, transfer = false, requires?: string[]): Promise<void> {
  const moved = transfer && typeof data !== 'string' && data.buffer instanceof ArrayBuffer;
  // Bytes the caller keeps are taken as they are now (the batch is sent later).
  return offThread(
    { kind: 'write', file, data: moved || typeof data === 'string' ? data : data.slice(), ...(requires?.length ? { requires } : {}) },
    moved ? [data.buffer] : [],
  );
}

/** Sends the writes asked for so far now, not at the end of this turn of the event loop: the caller has work to do meanwhile. */
export function sendWrites(): void {
  writer?.post();
}

/**
 * Copies the folder `from` to `to` in the worker (see copyTree; in the loop's thread when there is
 * none). A copy that fails leaves a partial `to` for the caller to remove.
 */
export function copyTreeOffThread(from: string, to: string, skip: { names?: string[]; paths?: string[] } = {}): Promise<void> {
  return offThread({ kind: 'copy', from, to, skipNames: skip.names ?? [], skipPaths: skip.paths ?? [] });
}

/**
 * Appends `data` (bytes made for this write: they move to the worker) to `file` in the worker, in
 * order with its other jobs; fails unless the file holds exactly `from` bytes (see appendTo).
 */
export function appendOffThread(file: string, data: Uint8Array, from: number): Promise<void> {
  return offThread({ kind: 'append', file, data, from }, data.buffer instanceof ArrayBuffer ? [data.buffer] : []);
}

// Async for its callers: a job done here (no worker) fails as the worker's would, by a rejection.
async function offThread(job: Job, transfer: ArrayBuffer[] = []): Promise<void> {
  const w = current();
  if (w) return w.queue(job, transfer);
  perform({ fs, path, crypto }, { write: writeAtomically, append: appendTo, copy: copyTree }, job, failedHere);
}
