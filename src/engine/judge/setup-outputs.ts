// What `checks.setup` leaves in the clean workspace (judge/workspace.ts) and how it is kept between
// rounds: the inputs that decide when it runs again, which outputs can be kept at all, the record
// of the last setup (loop/setup.json), and how a round sees that the kept outputs are as the setup
// left them (sealed: setup-seal.ts; otherwise a fingerprint of their listing).
import picomatch from 'picomatch';
import { z } from 'zod';
import { shellQuote as q } from '../common/shell-quote.js';
import { sha256 } from '../common/canonical.js';
import type { Clock, Logger, RunResult, RunSpec } from '../os/ports.js';
import { keptPath, sealStamp, VOLATILE_NAMES, volatileFolders } from './setup-seal.js';

/** Lockfiles and manifests whose content decides whether `checks.setup` runs again. */
export const DEFAULT_SETUP_INPUTS = [
  'package-lock.json',
  'npm-shrinkwrap.json',
  'pnpm-lock.yaml',
  'yarn.lock',
  'package.json',
  'requirements*.txt',
  'poetry.lock',
  'uv.lock',
  'Pipfile.lock',
  'pyproject.toml',
  'go.sum',
  'go.mod',
  'Cargo.lock',
  'Cargo.toml',
  'pom.xml',
  'build.gradle*',
].map((g) => `**/${g}`);

/**
 * Caches that tools write inside installed dependencies while the checks run (babel, nyc, eslint,
 * vite/vitest). They are removed on every update and left out of the outputs' fingerprint: kept,
 * they would carry one round's writes into the next; fingerprinted, they would re-run setup each round.
 */
const VOLATILE = VOLATILE_NAMES.map((n) => `*/node_modules/${n}`);

/**
 * Setup outputs are kept only under names that need no quoting in git's exclude patterns and
 * find's -path (node_modules, .venv, packages/a/node_modules, foo.egg-info…). A setup that creates
 * anything else is not reused: it runs again before every round, which costs time, never a verdict.
 */
const PLAIN_PATH = /^(?!.*(?:^|\/)(?:\.{1,2}|\.git)(?:\/|$))[A-Za-z0-9._@+=,%~-]+(?:\/[A-Za-z0-9._@+=,%~-]+)*\/?$/;

export interface SetupSpec {
  command: string | undefined;
  /** Globs (over the tree's paths) whose content decides when setup re-runs; default DEFAULT_SETUP_INPUTS. */
  inputs?: string[];
  timeoutMs: number;
  signal?: AbortSignal;
}

export type SetupOutcome =
  | { state: 'none' }
  /** The outputs of an earlier setup on the same inputs are in place and untouched. */
  | { state: 'reused'; inputs_hash: string }
  /**
   * `cached` false: the result is not reused (it changed tracked files or made an unkeepable path),
   * with why. `changed`: the tracked paths whose content is no longer the tree's (tracked-tree.ts).
   */
  | { state: 'ran'; inputs_hash: string; result: RunResult; cached: boolean; note: string | null; changed: string[] }
  | { state: 'failed'; inputs_hash: string; result: RunResult; reason: string };

/**
 * loop/setup.json: what the last setup ran on, so it re-runs only when its inputs change, and what
 * it left. `sealed`: the outputs were sealed (setup-seal.ts) and this is their stamp; the
 * fingerprint is then empty.
 */
export const setupRecordSchema = z.object({ inputs_hash: z.string(), keep: z.array(z.string()), fingerprint: z.string(), sealed: z.string().optional() });
export type SetupRecord = z.infer<typeof setupRecordSchema>;

export const seconds = (ms: number) => (ms / 1000).toFixed(1);

/**
 * Kept setup outputs are named on the command lines of git clean and find: a setup (the checked-out
 * code's own install scripts) that makes thousands of paths beside the tree is run again instead.
 */
const MAX_KEPT_PATHS = 256;
const tooMany = (made: string[]) => made.length > MAX_KEPT_PATHS || made.reduce((n, p) => n + p.length + 8, 0) > 32 * 1024;

/**
 * Why what a setup did cannot be kept for later rounds (it then runs again before every round), or
 * null: it changed tracked files (the next update would undo them), or made paths the workspace
 * cannot name, or too many.
 */
export function unkeptNote(changed: string[], made: string[]): string | null {
  const odd = made.filter((p) => !PLAIN_PATH.test(p));
  return changed.length
    ? `checks.setup changed tracked files (${changed.slice(0, 3).join(', ')}${changed.length > 3 ? ', …' : ''}): it runs again before every round`
    : odd.length
      ? `checks.setup made ${odd.length} path(s) with names the workspace cannot keep (e.g. ${JSON.stringify(odd[0])}): it runs again before every round`
      : tooMany(made)
        ? `checks.setup made ${made.length} paths beside the tree, more than the workspace keeps (${MAX_KEPT_PATHS}): it runs again before every round`
        : null;
}

/** Why a setup failed, in the words of the evidence. */
export function setupFailure(command: string, result: RunResult): string {
  const how = result.timedOut
    ? 'timed out'
    : result.aborted
      ? 'was stopped'
      : result.exitCode === null
        ? `ended by ${result.signal}`
        : `exited ${result.exitCode}`;
  return `checks.setup \`${command}\` ${how} after ${seconds(result.durationMs)} s`;
}

/**
 * The hash of a setup's inputs from `git ls-tree -r -z` of the tree: the content of the files
 * matching `globs`, the command and checks.env.
 */
export function setupInputsHash(lsTree: string, command: string, globs: string[], env: Record<string, string> | undefined): string {
  const match = picomatch(globs, { dot: true });
  // "<mode> <type> <object>\t<path>": the object id is the content's hash, no file is read.
  const lines = lsTree.split('\0').filter((l) => l && match(l.slice(l.indexOf('\t') + 1)));
  const sorted = Object.entries(env ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return sha256(JSON.stringify({ command, env: sorted, inputs: lines.sort() }));
}

/**
 * Runs the setup command, saying on the log that it starts and, every `heartbeatMs`, that it still
 * runs: an install that waits on the network is otherwise silent for minutes.
 */
export async function runSetupCommand(
  o: { run: (spec: RunSpec) => Promise<RunResult>; log?: Logger; clock?: Clock; heartbeatMs?: number },
  spec: SetupSpec & { command: string },
  inputsHash: string,
  where: { cwd: string; env: Record<string, string> },
): Promise<RunResult> {
  const { log, clock } = o;
  const { command } = spec;
  const now = () => clock?.monotonicMs() ?? performance.now();
  const started = now();
  log?.info(`checks.setup \`${command}\`: running (inputs ${inputsHash.slice(0, 12)})`);
  const beat = log ? setInterval(() => log.info(`checks.setup \`${command}\`: still running (${seconds(now() - started)} s)`), o.heartbeatMs ?? 15_000) : null;
  try {
    return await o.run({ command, ...where, timeoutMs: spec.timeoutMs, signal: spec.signal, maxOutputBytes: 512 * 1024, network: 'open' });
  } finally {
    if (beat) clearInterval(beat);
  }
}

/**
 * The shell test that sets `keep=1` when the kept outputs are as recorded: sealed ones by their
 * stamp (no walk; the volatile caches lent to the checks go), others by their fingerprint.
 */
export function keepTest(record: SetupRecord, dir: string): string {
  if (record.sealed === undefined) return `{ [ "$(${fingerprintCommand(record.keep, true)})" = ${q(record.fingerprint)} ] && keep=1; true; }`;
  if (sealStamp(dir, record.keep) !== record.sealed) return 'true';
  const volatile = volatileFolders(record.keep).map((v) => q(`./${v}`));
  return `{ ${volatile.length ? `rm -rf -- ${volatile.join(' ')} && ` : ''}keep=1; }`;
}

/**
 * A sha256 over the listing of the kept setup outputs: type, mode, owner and, for files and links,
 * inode, size, mtime and ctime (ctime moves on every change and cannot be set back by the check user).
 * Folder times are left out: the listing itself shows what was added or removed. With `clearVolatile`
 * the tools' caches inside them are deleted in the same walk.
 */
export function fingerprintCommand(keep: string[], clearVolatile: boolean): string {
  const volatile = `\\( ${VOLATILE.map((v) => `-path ${q(v)}`).join(' -o ')} \\) -prune ${clearVolatile ? '-exec rm -rf -- {} + ' : ''}`;
  const paths = keep.map((k) => q(`./${keptPath(k)}`)).join(' ');
  return `find -P ${paths} ${volatile}-o -type d -printf '%p\\0d %m %U %G\\0' -o -printf '%p\\0%y %m %i %s %U %G %T@ %C@\\0' | sha256sum`;
}
