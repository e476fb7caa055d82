// SPAWN_SUBAGENT and COLLECT_ARTIFACTS: one fresh agent process per iteration, stopped by its time
// limit or by backpressure, then its changes attributed, guarded, staged and hashed.
import { mkdirSync, rmdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { lstat, mkdir, rm, rmdir, symlink, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import picomatch from 'picomatch';
import { z } from 'zod';
import { agentInvocation, describeInvocation, type InvocationRecord, parseAgentOutcome, PRESET_ENV, REPORT_PATH, type AgentOutcome } from './agents.js';
import type { AllowList } from './allow-list.js';
import type { KeyProxy } from './key-proxy.js';
import { withoutRoleVariables, type Sandbox } from '../os/sandbox.js';
import { agentEnvironment } from '../os/secrets.js';
import { sha256 } from '../common/canonical.js';
import type { AgentPresetName } from '../config/config.js';
import { LOOP_SCRATCH_DIR } from '../config/plan.js';
import { manifestEntrySchema, type EvidenceStore, type ManifestEntry } from '../evidence/evidence.js';
import { atomicWrite } from '../evidence/writer.js';
import type { Git, GitSettings } from '../os/git.js';
import type { ProcessRunner, RunResult, StopSource } from '../os/ports.js';
import { watchStops } from '../loop/backpressure.js';
import type { PutBack } from '../loop/user-files.js';
import { EvidenceUnverifiable, GitError, InvariantViolation } from '../common/errors.js';
import { parseDocument } from '../common/document.js';
import { listSome } from '../common/markdown.js';
import { guardedParts, hasGuardedParts } from '../judge/runner-config.js';
import { ancestorInTheWay, isLinkIn, linkLeavesTree, linkTarget, lstatOrNull, readAsGitIn, readHeadSync, readRegularIn, removeTree } from '../os/tree-file.js';
import { evidenceViewDir } from './evidence-view.js';

export interface AgentSpec {
  preset: AgentPresetName;
  run?: string;
  model?: string;
  args: string[];
  maxTurns: number;
}

/**
 * The dirty paths before the agent ran, with their content: only what the agent changed is
 * attributed to it, and a user's uncommitted file the agent touched is put back as the user had it.
 */
export type DirtySnapshot = Map<string, { sha: string | null; data: Buffer | null; link: boolean }>;

export async function snapshotDirty(git: Git, cwd: string): Promise<DirtySnapshot> {
  const snap: DirtySnapshot = new Map();
  for (const c of await git.status()) snap.set(c.path, { ...(await held(cwd, c.path)), link: isLinkIn(cwd, c.path) });
  return snap;
}

/**
 * The user's nested git repositories among the dirty paths (git lists one as `dir/`): git keeps none
 * of their files, so the loop could not put one back. The sandbox lends them to no role and mounts
 * them read-only for its commands (a mount point can be neither removed nor renamed).
 */
export function userRepos(dirty: Iterable<string>): string[] {
  return [...dirty].filter((p) => p.endsWith('/')).map((p) => p.slice(0, -1));
}

/** Files past this size are not read into memory (nor committed: GitHub refuses a file over 100 MB). */
export const MAX_HELD_BYTES = 100 * 1024 * 1024;

/**
 * A work-tree path as the loop holds it: its bytes as git sees them and their sha256; absent (or not
 * a file git keeps): nulls. Past MAX_HELD_BYTES, no bytes, and for a fingerprint the file's size,
 * inode and change time, which no write leaves as they were. Never read through a folder that is a link.
 */
async function held(cwd: string, path: string): Promise<{ sha: string | null; data: Buffer | null }> {
  const st = ancestorInTheWay(cwd, path) ? null : lstatOrNull(join(cwd, path));
  if (st?.isFile() && st.size > MAX_HELD_BYTES) return { sha: `large:${String(st.size)}:${String(st.ino)}:${String(st.ctimeMs)}`, data: null };
  const data = await readAsGitIn(cwd, path);
  return { sha: data === null ? null : sha256(data), data };
}

/** Whether the dirty paths of `snap` still hold what it read (an edit made since to one of them says no). */
export async function unchangedSince(cwd: string, snap: DirtySnapshot): Promise<boolean> {
  for (const [path, { sha }] of snap) if ((await fingerprint(cwd, path)) !== sha) return false;
  return true;
}

/** A work-tree path's fingerprint as a DirtySnapshot holds it (see held). */
export async function fingerprint(cwd: string, path: string): Promise<string | null> {
  return (await held(cwd, path)).sha;
}

/** What restoreBefore did besides putting the paths back. */
export interface RestoreResult {
  /** Links (or files) the agent put in place of a folder on the way to a restored path: removed, never followed. */
  cleared: { path: string; what: string; for: string }[];
  /** Paths that could not be put back safely, with why (the user's version stays in refs/phuc-loop/user-work). */
  failed: { path: string; error: string }[];
  /** Names that are not UTF-8, put back by their bytes: each with git's quoted name (`"a\\377b"`). */
  byBytes: { path: string; quoted: string }[];
}

/**
 * Puts `paths` back as they were before the agent: the user's uncommitted version, else HEAD's.
 * Every folder on the way must be a real folder: one the agent replaced by a link (or a file) is its
 * change, removed first (never followed: through it the loop, root, would write or delete anywhere).
 * A path that cannot be put back is reported, never a crash.
 */
export async function restoreBefore(git: Git, cwd: string, before: DirtySnapshot, paths: string[]): Promise<RestoreResult> {
  const cleared: RestoreResult['cleared'] = [];
  const failed: RestoreResult['failed'] = [];
  const fail = (path: string, e: unknown) => failed.push({ path, error: e instanceof Error ? e.message : String(e) });
  const ready: string[] = [];
  for (const p of paths)
    try {
      for (let inWay = ancestorInTheWay(cwd, p); inWay; inWay = ancestorInTheWay(cwd, p)) {
        if (inWay.what === 'a step out of the tree' || cleared.length > paths.length * 64) throw new Error(`${inWay.path} is ${inWay.what}`);
        await unlink(join(cwd, inWay.path)); // its folders are real ones (checked from the root down): only it goes
        cleared.push({ path: inWay.path, what: inWay.what, for: p });
      }
      ready.push(p);
    } catch (e) {
      fail(p, e);
    }
  // A name that was a link the agent put in place of a folder is gone now: nothing of HEAD's to restore there.
  const gone = new Set(cleared.map((c) => c.path));
  const fromHead = ready.filter((p) => !before.has(p) && !gone.has(p));
  if (fromHead.length)
    await git.restoreFromHead(fromHead).catch(async () => {
      for (const p of fromHead) await git.restoreFromHead([p]).catch((e: unknown) => fail(p, e));
    });
  // A name that is not UTF-8 reads with U+FFFD in place of its bytes: git and the file system know it by its own bytes.
  const unreadable = fromHead.filter(notUtf8);
  const byBytes = unreadable.length ? await putBackByBytes(git, cwd, unreadable) : { done: [], failed: [] };
  for (const f of byBytes.failed) fail(f.path, f.error);
  for (const p of ready.filter((x) => before.has(x)))
    try {
      const { data: was, sha, link } = before.get(p)!;
      const inWay = ancestorInTheWay(cwd, p);
      if (inWay) throw new Error(`${inWay.path} is ${inWay.what}`);
      if (was === null && sha !== null) throw new Error(`it is larger than ${String(MAX_HELD_BYTES / 2 ** 20)} MiB, more than the loop holds in memory`);
      await rm(join(cwd, p), { recursive: true, force: true });
      if (was === null) continue;
      await mkdir(dirname(join(cwd, p)), { recursive: true });
      if (link) await symlink(was.toString(), join(cwd, p));
      else await atomicWrite(join(cwd, p), was);
    } catch (e) {
      fail(p, e);
    }
  return { cleared, failed, byBytes: byBytes.done };
}

/** Whether git printed `path` with bytes that are not UTF-8 (each read as U+FFFD: no file has that name). */
const notUtf8 = (path: string) => path.includes('\ufffd');

/** The bytes of a name git quoted (`"leak/bad\\377name"`: C escapes, octal bytes); the name itself when not quoted. */
export function unquoteGitPath(quoted: string): Buffer {
  if (!quoted.startsWith('"') || !quoted.endsWith('"') || quoted.length < 2) return Buffer.from(quoted);
  const ESC: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };
  const out: number[] = [];
  const body = quoted.slice(1, -1);
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c !== '\\') {
      out.push(...Buffer.from(c));
      continue;
    }
    const octal = /^[0-3][0-7]{2}/.exec(body.slice(i + 1, i + 4));
    if (octal) {
      out.push(parseInt(octal[0], 8));
      i += 3;
    } else out.push(ESC[body[++i]] ?? body.charCodeAt(i));
  }
  return Buffer.from(out);
}

/** Removes the work-tree file of name `raw` (bytes), never through a folder that is a link; whether none is there now. */
async function removeByBytes(cwd: string, raw: Buffer): Promise<boolean> {
  const parts = raw
    .toString('latin1')
    .split('/')
    .filter((x) => x !== '' && x !== '.');
  let at = Buffer.from(cwd);
  for (const [i, part] of parts.entries()) {
    if (part === '..') return false;
    at = Buffer.concat([at, Buffer.from('/'), Buffer.from(part, 'latin1')]);
    const st = await lstat(at).catch(() => null);
    if (!st) return true;
    if (i < parts.length - 1 && !st.isDirectory()) return false;
    if (i === parts.length - 1 && !st.isDirectory()) await unlink(at);
  }
  return !(await lstat(at).catch(() => null));
}

/**
 * Puts back `paths`, names git printed with U+FFFD for bytes that are not UTF-8, by their real names
 * (git's quoted status): a name HEAD holds is checked out again; any other (the agent's new file,
 * or one it staged itself) leaves the index and the work tree. Returns those still there, with why.
 */
async function putBackByBytes(git: Git, cwd: string, paths: string[]): Promise<{ done: RestoreResult['byBytes']; failed: RestoreResult['failed'] }> {
  const wanted = new Set(paths);
  const status = async () =>
    (await git.run(['-c', 'core.quotePath=true', 'status', '--porcelain=v1', '--untracked-files=all', '--no-renames', '--ignore-submodules=all']))
      .split('\n')
      .map((line) => line.slice(3))
      .filter((q) => q.startsWith('"') && wanted.has(unquoteGitPath(q).toString('utf8')));
  const found = await status();
  for (const quoted of found) {
    const stdin = `${quoted}\n`;
    const fromHead = await git.run(['checkout', 'HEAD', '--pathspec-from-file=-'], { stdin }).then(
      () => true,
      () => false,
    );
    if (fromHead) continue;
    await git.run(['rm', '-q', '--cached', '--ignore-unmatch', '--pathspec-from-file=-'], { stdin }).catch(() => undefined);
    await removeByBytes(cwd, unquoteGitPath(quoted)).catch(() => false);
  }
  const left = new Set(await status());
  const named = (q: string) => unquoteGitPath(q).toString('utf8');
  return {
    done: found.filter((q) => !left.has(q)).map((quoted) => ({ path: named(quoted), quoted })),
    failed: [...left].map((q) => ({ path: named(q), error: `${q} could not be put back by its name's bytes` })),
  };
}

/**
 * Paths whose content differs from the snapshot taken before the agent ran; with `ignored`, what git
 * lists as ignored (see Git.status) is put there, from the same call.
 */
export async function changedSince(git: Git, cwd: string, before: DirtySnapshot, ignored?: string[]): Promise<string[]> {
  const now = await git.status({ ignored: !!ignored });
  const out: string[] = [];
  const seen = new Set<string>();
  for (const c of now) {
    if (c.code === '!!') {
      ignored?.push(c.path);
      continue;
    }
    seen.add(c.path);
    if (!before.has(c.path) || before.get(c.path)!.sha !== (await fingerprint(cwd, c.path))) out.push(c.path);
  }
  // A path that was dirty before and is clean now was restored by the agent: also its change.
  for (const p of before.keys()) if (!seen.has(p)) out.push(p);
  return out.sort();
}

/** Whether the guarded parts of `path` (see runner-config.ts) differ from before the agent ran. */
async function runnerConfigChanged(git: Git, cwd: string, before: DirtySnapshot, path: string, scripts: string[]): Promise<boolean> {
  const was = before.has(path)
    ? (before.get(path)!.data?.toString('utf8') ?? null)
    : (await git.inHead([path])).has(path)
      ? await git.run(['show', `HEAD:${path}`])
      : null;
  const now = (await readRegularIn(cwd, path))?.toString('utf8') ?? null;
  return guardedParts(path, was, scripts) !== guardedParts(path, now, scripts);
}

/**
 * A change that reaches outside the tree: a link whose target, resolved as the kernel would from its
 * place in the tree (through other links, `..` after a link), is absolute, climbs out of the tree or
 * leads into .git: the checks would follow it to a file no clean checkout holds. A nested repository
 * (git lists it as `dir/`), whose own settings git would obey when it looks inside.
 */
function outsideTree(cwd: string, path: string): string | null {
  if (path.endsWith('/')) return 'a nested git repository';
  if (!isLinkIn(cwd, path)) return null;
  const why = linkLeavesTree(cwd, path);
  return why ? `a symbolic link out of the tree (-> ${linkTarget(join(cwd, path)) ?? '/'}: ${why})` : null;
}

/**
 * A path as a line of the console may show it: control characters, line separators, the marks that
 * reorder text (bidi controls) and U+FFFD (a byte that is not UTF-8) as `\\u{…}` escapes, a backslash doubled.
 */
export function printablePath(path: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what this replaces
  return path.replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ufffd\\]/g, (c) =>
    c === '\\' ? '\\\\' : `\\u{${c.charCodeAt(0).toString(16)}}`,
  );
}

/**
 * A name the glob matcher cannot judge (control characters, line separators, bytes that are not
 * UTF-8) is taken as protected: a violation, never a pass.
 */
// The plan's globs, compiled once a run rather than once an iteration.
const matchers = new WeakMap<string[], (path: string) => boolean>();

export function protectedMatcher(globs: string[]): (path: string) => boolean {
  let matcher = matchers.get(globs);
  if (!matcher) {
    const m = picomatch(globs, { dot: true });
    // eslint-disable-next-line no-control-regex -- control characters in a path are what this test looks for
    matcher = (p) => /[\u0000-\u001f\u007f\u2028\u2029\ufffd]/.test(p) || m(p);
    matchers.set(globs, matcher);
  }
  return matcher;
}

export interface AgentRun {
  result: RunResult;
  backpressure: string | null;
  /** What the CLI's own output says: cost, tokens, tool calls, its error text, a rate limit. */
  outcome: AgentOutcome;
  /** How it was started (argv, variable names, CLI version): evidence, secrets masked. */
  invocation: InvocationRecord;
}

export interface SpawnOptions {
  runner: ProcessRunner;
  cwd: string;
  spec: AgentSpec;
  prompt: string;
  capsule: string;
  iteration: number;
  baseEnv: Record<string, string | undefined>;
  /** `agent.pass_env`: secret-looking variables the agent is given all the same. */
  passEnv?: readonly string[];
  timeoutMs: number;
  /** No output for this long stops the agent (agent.idle_seconds): an agent failure. */
  idleMs?: number;
  stopSources: readonly StopSource[];
  pollMs: number;
  /** Aborted when the process itself is asked to stop (signals). */
  signal?: AbortSignal;
  /** PHUC_ROLE of the process (the agent, or the critic). */
  role?: string;
  /** Folders of the work tree the agent may read, never change (userRepos). */
  protect?: readonly string[];
  sandbox: Sandbox;
  /** A folder the loop and the agent user both reach: the prompt and capsule go there. */
  exchangeDir: string;
  /** Holds the agent's API key when agent.key_proxy is on and the preset takes a base URL. */
  keyProxy: KeyProxy | null;
  mask: (text: string) => string;
  cliVersion: string | null;
  /** A line every 30 s while the agent works (it may print nothing for minutes). */
  heartbeat?: (elapsedS: number) => void;
}

let activeAgents = 0;

/**
 * Runs the agent as a fresh process, as the sandbox's agent user: the work tree is its while it
 * runs and the loop's again afterwards; STOP sources are polled while it runs.
 */
export async function spawnAgent(o: SpawnOptions): Promise<AgentRun> {
  // STACKED_SPECULATIVE_ITERATIONS: never more than one agent at a time (its edits would mix with the next one's).
  if (activeAgents > 0) throw new InvariantViolation('STACKED_SPECULATIVE_ITERATIONS', 'an agent is already running');
  const reportFile = join(o.cwd, REPORT_PATH);
  takeReport(o.cwd, true); // a stale one (a crashed run's) is not this agent's
  // Synchronous: a few small writes, each of which would otherwise wait for a pool thread, at the start of every step.
  mkdirSync(dirname(reportFile), { recursive: true });
  const promptFile = join(o.exchangeDir, 'prompt.md');
  const capsuleFile = join(o.exchangeDir, 'cnf_capsule.json');
  writeFresh(promptFile, o.prompt);
  writeFresh(capsuleFile, o.capsule);
  const preset = o.spec.preset;
  const proxy = o.keyProxy;
  const inv = agentInvocation({
    preset,
    run: o.spec.run,
    model: o.spec.model,
    // The key proxy's arguments (Codex's provider) are the preset's to place (before Codex's `-- -`,
    // also after agent.run), last so that they win over the user's.
    extraArgs: [...o.spec.args, ...(proxy?.args(preset) ?? [])],
    maxTurns: o.spec.maxTurns,
    promptFile,
    reportFile: REPORT_PATH,
  });
  const stop = watchStops(o.stopSources, o.pollMs, o.signal);
  const started = Date.now();
  const beat = o.heartbeat ? setInterval(() => o.heartbeat!(Math.round((Date.now() - started) / 1000)), 30_000) : undefined;
  // The key proxy forwards for this step alone, with a placeholder of its own: closed in the finally
  // below (time limit, STOP, a crash), once every process of the step is gone and before any check runs.
  const proxyStep = proxy?.openStep() ?? null;
  activeAgents++;
  let env: Record<string, string> = {};
  let result: RunResult;
  try {
    // An allowlist (SPEC §7): the locale and terminal, the preset's own variables, agent.pass_env, and ours.
    const given = agentEnvironment(
      o.baseEnv,
      {
        ...inv.env,
        ...(proxyStep?.env(preset) ?? {}),
        PHUC_PROMPT_FILE: promptFile,
        PHUC_CAPSULE_FILE: capsuleFile,
        PHUC_EVIDENCE_DIR: evidenceViewDir(o.exchangeDir),
        PHUC_REPORT_FILE: reportFile,
        PHUC_ITERATION: String(o.iteration),
        PHUC_ROLE: o.role ?? 'Scout→Solver',
      },
      { keepAgentKeys: !proxy, allow: PRESET_ENV[preset], pass: o.passEnv },
    );
    env = withoutRoleVariables(given);
    await o.sandbox.grantWorkTree(o.cwd, [LOOP_SCRATCH_DIR, ...(o.protect ?? [])]);
    const spec = await o.sandbox.wrap(
      {
        command: inv.command,
        args: inv.args,
        cwd: o.cwd,
        env,
        stdin: inv.promptOnStdin ? o.prompt : undefined,
        timeoutMs: o.timeoutMs,
        idleMs: o.idleMs,
        signal: stop.signal,
        maxOutputBytes: 4 * 1024 * 1024,
      },
      'agent',
      // The key proxy's settings (Gemini CLI's auth type): in the agent's own HOME, never the user's.
      { homeFiles: proxy?.homeFiles(preset) },
    );
    result = await o.runner.run(spec);
  } finally {
    proxyStep?.close();
    activeAgents--;
    stop.close();
    clearInterval(beat);
    await o.sandbox.reclaimWorkTree(o.cwd);
  }
  const outcome = parseAgentOutcome(preset, result);
  let backpressure = stop.reason();
  if (outcome.rateLimited && !result.aborted) backpressure ??= `the agent hit a rate limit${outcome.errorText ? `: ${outcome.errorText}` : ''}`;
  const invocation = describeInvocation(inv, { env, mask: o.mask, root: o.cwd, cliVersion: o.cliVersion });
  return { result, backpressure, outcome, invocation };
}

/** A new file, never through a link the other side may have planted. */
function writeFresh(path: string, text: string): void {
  rmSync(path, { force: true });
  writeFileSync(path, text, { flag: 'wx', mode: 0o644 });
}

/**
 * Takes the agent's report out of the work tree: read (at most 1 MiB, never through a link, never
 * blocking on a FIFO) and removed, whatever the agent left at that path (a link, a folder, a huge
 * file). The report folder must be a real folder: through a link, the loop (root) would read and
 * delete a file anywhere. `keepFolder`: the empty folder stays for the next step (git lists no empty
 * folder; removing and making it again cost each iteration two journaled updates of the work tree):
 * the run's end removes it (removeReportFolder).
 */
export function takeReport(cwd: string, keepFolder = false): string | null {
  const dir = join(cwd, dirname(REPORT_PATH));
  const path = join(cwd, REPORT_PATH);
  const dirStat = lstatOrNull(dir);
  if (!dirStat) return null;
  // A link or a file the agent put there: only it goes.
  if (!dirStat.isDirectory()) return (quietly(() => unlinkSync(dir)), null);
  let text: string | null = null;
  const report = lstatOrNull(path);
  if (report?.isFile()) text = readHeadSync(path, REPORT_MAX_BYTES)?.toString('utf8') ?? null;
  if (report) quietly(() => (report.isDirectory() ? rmSync(path, { recursive: true, force: true }) : unlinkSync(path)));
  if (!keepFolder) quietly(() => rmdirSync(dir));
  return text;
}

/** Removes the report folder the steps kept, when it is a real, empty folder (what else is in it stays). */
export function removeReportFolder(cwd: string): void {
  const dir = join(cwd, dirname(REPORT_PATH));
  if (lstatOrNull(dir)?.isDirectory()) quietly(() => rmdirSync(dir));
}

/** Runs a removal whose failure changes nothing for the caller (gone already, or not empty). */
function quietly(remove: () => void): void {
  try {
    remove();
  } catch {
    // as documented
  }
}

const REPORT_MAX_BYTES = 1024 * 1024;

export type ReportState = { state: 'valid'; report: AgentReport } | { state: 'malformed'; error: string } | { state: 'absent' };

const REPORT_FIELDS = ['tried', 'claims', 'failures', 'open_questions', 'can_further_iteration_help'];
const list = z.array(z.unknown()).optional();

/** The agent's report: untrusted, so only its shape is checked here; its texts are sanitized where used. */
const agentReportSchema = z
  .object({ tried: list, claims: list, failures: list, open_questions: list, can_further_iteration_help: z.unknown().optional() })
  .refine((r) => REPORT_FIELDS.some((k) => k in r), { error: `none of the fields ${REPORT_FIELDS.join(', ')}` });
export type AgentReport = z.infer<typeof agentReportSchema>;

export function parseReport(text: string | null): ReportState {
  if (text === null) return { state: 'absent' };
  try {
    return { state: 'valid', report: parseDocument(REPORT_PATH, text, agentReportSchema) };
  } catch (e) {
    if (!(e instanceof EvidenceUnverifiable)) throw e;
    return { state: 'malformed', error: e.message };
  }
}

/** Why a change of the agent was put back: see revertReason. */
export type RevertWhy = Reverted['why'];
export interface Reverted {
  path: string;
  why: 'protected' | 'loop-owned' | 'outside' | 'not-allowed' | 'shadow' | 'runner-config' | 'secret' | 'unstageable';
  detail: string;
}

/**
 * Why a change of the agent is put back as it was (null: it stays): a protected path; one of the
 * loop's own paths (a file or link in place of its evidence folder, anything git sees in a tree it
 * publishes: loop/own-paths.ts); a change that reaches outside the tree; one agent.may_change does
 * not allow, or a module that would shadow a library (allow-list.ts); the runner configuration of a
 * shared file (package.json's scripts the criteria run and runner keys, pyproject.toml's
 * [tool.pytest]…); a secret value it would publish.
 */
async function revertReason(o: CollectOptions, p: string, isNew: boolean): Promise<{ why: RevertWhy; detail: string } | null> {
  if (o.isProtected(p)) return { why: 'protected', detail: '' };
  const own = o.loopOwned?.(p) ?? (isNew ? o.reserved?.(p) : null);
  if (own) return { why: 'loop-owned', detail: own };
  const outside = outsideTree(o.cwd, p);
  if (outside) return { why: 'outside', detail: outside };
  const refused = o.allowList?.refusal(p, isNew);
  if (refused) return refused;
  if (hasGuardedParts(p) && (await runnerConfigChanged(o.git, o.cwd, o.before, p, o.guardedScripts))) return { why: 'runner-config', detail: '' };
  const { data, sha } = await held(o.cwd, p);
  if (data === null && sha !== null)
    return {
      why: 'unstageable',
      detail: `larger than ${String(MAX_HELD_BYTES / 2 ** 20)} MiB: the loop neither reads nor commits it (GitHub refuses files over 100 MB)`,
    };
  if (data && o.holdsSecret(data)) return { why: 'secret', detail: isLinkIn(o.cwd, p) ? 'in its link target' : '' };
  // A name is committed like a content (a deletion of such a name publishes nothing).
  return o.holdsSecret(Buffer.from(p)) && presentIn(o.cwd, p) ? { why: 'secret', detail: 'in its name' } : null;
}

/**
 * Puts `these` back (restoreBefore); a link the agent put in place of a folder on the way is removed
 * and joins `all` with the reason of the path it was in the way of; a path that cannot be put back
 * says why in its detail (and the link in its way is not staged).
 */
async function putBack(o: CollectOptions, these: Reverted[], all: Reverted[]): Promise<void> {
  if (!these.length) return;
  const { cleared, failed, byBytes } = await restoreBefore(
    o.git,
    o.cwd,
    o.before,
    these.map((r) => r.path),
  );
  const reasonOf = (path: string) => all.find((r) => r.path === path)!;
  for (const c of cleared)
    if (!all.some((r) => r.path === c.path))
      all.push({ path: c.path, why: reasonOf(c.for).why, detail: `${c.what} in place of the folder of ${c.for}, removed` });
  for (const b of byBytes) {
    const r = reasonOf(b.path);
    r.detail = `${r.detail ? `${r.detail}; ` : ''}its name is not UTF-8: ${b.quoted}`;
  }
  for (const f of failed) {
    const r = reasonOf(f.path);
    r.detail = `${r.detail ? `${r.detail}; ` : ''}could not be put back safely (${f.error}); the user's version is kept in refs/phuc-loop/user-work`;
    const inWay = ancestorInTheWay(o.cwd, f.path);
    if (inWay && !all.some((x) => x.path === inWay.path))
      all.push({ path: inWay.path, why: r.why, detail: `${inWay.what} in place of the folder of ${f.path}` });
  }
}

/**
 * Folders on the way to a path reverted for a secret whose names hold the secret: git commits no
 * empty folder, but the name is the agent's leak all the same. Removed once empty (deepest first),
 * never through a link.
 */
async function removeSecretFolders(o: CollectOptions, reverted: Reverted[]): Promise<void> {
  const folders = new Set<string>();
  for (const r of reverted.filter((x) => x.why === 'secret')) {
    const parts = r.path.split('/');
    for (let i = parts.length - 1; i > 0; i--) folders.add(parts.slice(0, i).join('/'));
  }
  for (const dir of [...folders].sort((a, b) => b.length - a.length))
    if (o.holdsSecret(Buffer.from(dir)) && !ancestorInTheWay(o.cwd, `${dir}/x`)) await rmdir(join(o.cwd, dir)).catch(() => undefined);
}

/**
 * A nested repository the agent made (reverted as reaching outside the tree) loses its .git: its own
 * settings (a filter, core.fsmonitor) would run as whoever runs git on the tree next, the user after
 * the run. Only its .git: the folder may hold the user's untracked files.
 */
async function removeNestedGitFolders(o: CollectOptions, reverted: Reverted[]): Promise<void> {
  for (const r of reverted)
    if (r.why === 'outside' && r.path.endsWith('/') && !o.before.has(r.path) && !ancestorInTheWay(o.cwd, `${r.path}.git`))
      await removeTree(join(o.cwd, r.path, '.git'));
}

/** The paths among `paths` that are links now. */
function linksAmong(cwd: string, paths: string[]): string[] {
  return paths.filter((p) => isLinkIn(cwd, p));
}

/** The first link of the tree to judge (HEAD's links and the agent's) that now leads out of the tree. */
async function firstLinkOut(o: CollectOptions, keptLinks: string[]): Promise<{ path: string; why: string } | null> {
  const headLinks = (await o.git.run(['ls-tree', '-r', '-z', 'HEAD']))
    .split('\0')
    .filter((l) => l.startsWith('120000 '))
    .map((l) => l.slice(l.indexOf('\t') + 1));
  for (const path of linksAmong(o.cwd, [...new Set([...keptLinks, ...headLinks])])) {
    const why = linkLeavesTree(o.cwd, path);
    if (why) return { path, why };
  }
  return null;
}

/** iter_N/artifacts.json: what the collect step kept, put back and hashed. */
export const artifactsSchema = z.object({
  agent_commits_folded: z.number().int().min(0),
  git_settings_restored: z.array(z.string()),
  index_flags_cleared: z.array(z.string()),
  artifacts: z.array(manifestEntrySchema.extend({ role: z.string() })),
  changed_paths: z.array(z.string()),
  report: z.object({ state: z.enum(['valid', 'malformed', 'absent']), error: z.string().optional() }),
  reverted: z.array(
    z.object({
      path: z.string(),
      why: z.enum(['protected', 'loop-owned', 'outside', 'not-allowed', 'shadow', 'runner-config', 'secret', 'unstageable']),
      detail: z.string().optional(),
    }),
  ),
  /** Files of the user's that git never tracked and the agent deleted: nothing to stage (kept in refs/phuc-loop/user-work). */
  untracked_deleted: z.array(z.string()).optional(),
  /** The user's git-ignored files the agent deleted, replaced or changed: put back as they were (loop/user-files.ts). */
  user_files_restored: z.array(z.string()).optional(),
  /** Those that could not be put back, with why. */
  user_files_not_restored: z.array(z.object({ path: z.string(), error: z.string() })).optional(),
});
type Artifacts = z.infer<typeof artifactsSchema>;

export interface Collected {
  changed: string[];
  /** Untracked files of the user's the agent deleted: nothing to stage; the user's version is in refs/phuc-loop/user-work. */
  untrackedDeleted: string[];
  /** The agent's changes put back as they were, each with why. */
  reverted: Reverted[];
  /** Whether the step changed the tree (staged, against HEAD). */
  produced: boolean;
  /** The staged patch, made while the checks run. */
  diff: Promise<string>;
  /** Settles once the step's evidence files (the patch, the logs, artifacts.json) are recorded; `artifacts` is complete then. */
  recorded: Promise<void>;
  diffFiles: number;
  report: ReportState;
  artifacts: (ManifestEntry & { role: string })[];
  agentCommitsFolded: number;
  /** Git settings files the agent changed (restored), and paths whose hiding index bits were cleared. */
  settingsChanged: string[];
  unflagged: string[];
  /** The git tree the checks run on (the index after staging the agent's changes). */
  tree: string;
  /** What was done about the user's git-ignored files (null: the loop keeps none). */
  userFiles: PutBack | null;
}

/** The agent's changes git refused to stage (put back), as one sentence, or null. */
export function unstageable(collected: Collected): string | null {
  const paths = collected.reverted
    .filter((r) => r.why === 'unstageable')
    .map((r) => (r.detail ? `${printablePath(r.path)} (${r.detail})` : printablePath(r.path)));
  return paths.length ? `changes git refused to stage, put back: ${listSome(paths)}` : null;
}

export interface CollectOptions {
  git: Git;
  cwd: string;
  evidence: EvidenceStore;
  dir: string;
  before: DirtySnapshot;
  startHead: string;
  /** Git's settings as they were before the agent ran (see Git.snapshotSettings). */
  settings: GitSettings;
  isProtected: (path: string) => boolean;
  agent: AgentRun;
  scrub: (text: string) => string;
  /** Whether a file's bytes hold a secret the loop knows (in any encoding). */
  holdsSecret: (data: Buffer) => boolean;
  /** package.json scripts the criteria run: changing one weakens the suite (see runner-config.ts). */
  guardedScripts: string[];
  /** Puts the user's git-ignored files back after the step (loop/user-files.ts). */
  userFiles?: (ignored: string[]) => Promise<PutBack>;
  /** agent.may_change: what the agent may change at all (null: every path but the protected ones). */
  allowList?: AllowList | null;
  /** Why a path is one the loop keeps for itself (loop/own-paths.ts), never the agent's to change; null when it is not. */
  loopOwned?: (path: string) => string | null;
  /** Why a new path lies under a folder the loop keeps for itself (own-paths.ts whyReserved): the agent's file there is removed. */
  reserved?: (path: string) => string | null;
}

/** Whether a name exists in the work tree (a file, link or folder), never looked up through a link. */
function presentIn(cwd: string, path: string): boolean {
  return !!ancestorInTheWay(cwd, path) || lstatOrNull(join(cwd, path.replace(/\/$/, ''))) !== null;
}

const isAttributes = (p: string) => p === '.gitattributes' || p.endsWith('/.gitattributes');

/**
 * Stages `paths`. A path git refuses to stage (its attributes ask for a conversion that fails, it
 * lies beyond a link...) is the agent's change that cannot be judged: put back with git's reason
 * (an `unstageable` revert), after the .gitattributes the agent changed in the step, whose
 * attributes are the likely cause, so that its other changes stay. Only a failure no path
 * accounts for (a lock, a full disk) still ends the run.
 */
async function stageOrRevert(o: CollectOptions, paths: string[], reverted: Reverted[]): Promise<string> {
  try {
    return await o.git.stage(paths);
  } catch (e) {
    if (!(e instanceof GitError) || e.kind !== 'other') throw e;
    let left = paths;
    let refused = await o.git.refusedToStage(left);
    const attributes = left.filter(isAttributes);
    if (refused.length && attributes.length && !refused.every((r) => isAttributes(r.path))) {
      const why = `with it git refused to stage ${listSome(refused.map((r) => r.path))} (${refused[0].error})`;
      const more = attributes.map((path) => ({ path, why: 'unstageable' as const, detail: why }));
      reverted.push(...more);
      await putBack(o, more, reverted);
      left = left.filter((p) => !reverted.some((r) => r.path === p));
      refused = await o.git.refusedToStage(left);
    }
    if (refused.length) {
      const more = refused.map((r) => ({ path: r.path, why: 'unstageable' as const, detail: `git refused to stage it: ${r.error}` }));
      reverted.push(...more);
      await putBack(o, more, reverted);
    }
    const rest = left.filter((p) => !reverted.some((r) => r.path === p));
    if (rest.length === paths.length) throw e;
    return o.git.stage(rest);
  }
}

export async function collectArtifacts(o: CollectOptions): Promise<Collected> {
  // An agent that committed on its own: fold its commits back into the index, so the guardrail and
  // the diff see every change and the loop makes the one commit of the iteration.
  // Git's settings and index bits can make git run commands or hide changes: put them back first.
  const settingsChanged = await o.git.restoreSettings(o.settings);
  const unflagged = await o.git.clearIndexFlags(o.settings);
  const { head } = await o.git.position();
  let folded = 0;
  if (head && head !== o.startHead) {
    folded = await o.git.countCommits(o.startHead, head).catch(() => 0);
    await o.git.resetSoft(o.startHead);
  }
  // The report is the loop's channel, not the agent's work: read (never through a link), then removed.
  const reportText = takeReport(o.cwd, true);
  // Ignored files are listed by the same git call, for the user-files step below (one git process less).
  const ignored: string[] | undefined = o.userFiles ? [] : undefined;
  const changed = (await changedSince(o.git, o.cwd, o.before, ignored)).filter((p) => p !== REPORT_PATH);
  const reverted: Reverted[] = [];
  // Only a new module can shadow a library, only a new file under a reserved folder is the agent's:
  // one HEAD or the user's dirty tree held is the user's.
  const askHead = o.allowList ? changed : changed.filter((p) => o.reserved?.(p));
  const inHead = askHead.length ? await o.git.inHead(askHead) : new Set<string>();
  for (const p of changed) {
    const why = await revertReason(o, p, !inHead.has(p) && !o.before.has(p));
    if (why) reverted.push({ path: p, ...why });
  }
  await putBack(o, reverted, reverted);
  // A nested repository of the user's that the agent removed (possible at isolation none only):
  // git keeps none of its files, so nothing put it back, and the report must not say it did.
  for (const r of reverted)
    if (r.path.endsWith('/') && o.before.has(r.path) && !lstatOrNull(join(o.cwd, r.path)))
      r.detail = "the user's own, deleted by the agent: git keeps none of its files, so the loop could not put it back";
  await removeSecretFolders(o, reverted);
  await removeNestedGitFolders(o, reverted);
  // A link the agent kept can change where another link leads (a folder made a link to a shallower
  // one: `..` after it climbs higher than it reads). Then every link it kept goes back.
  const keptLinks = linksAmong(
    o.cwd,
    changed.filter((p) => !reverted.some((r) => r.path === p)),
  );
  const astray = keptLinks.length ? await firstLinkOut(o, keptLinks) : null;
  if (astray) {
    const more = keptLinks.map((path) => ({ path, why: 'outside' as const, detail: `with it, ${astray.path} leads out of the tree (${astray.why})` }));
    reverted.push(...more);
    await putBack(o, more, reverted);
  }
  // An untracked file (the user's, kept in refs/phuc-loop/user-work before the step) the agent
  // deleted: neither in the index nor in the work tree, so nothing to stage (git would refuse its name).
  const candidates = changed.filter((p) => !reverted.some((r) => r.path === p));
  const gone: string[] = [];
  for (const p of candidates) if (o.before.has(p) && !presentIn(o.cwd, p)) gone.push(p);
  const indexed = await o.git.indexed(gone);
  const untrackedDeleted = gone.filter((p) => !indexed.has(p));
  const tree = await stageOrRevert(
    o,
    candidates.filter((p) => !untrackedDeleted.includes(p)),
    reverted,
  );
  const revertedPaths = new Set(reverted.map((r) => r.path));
  const kept = candidates.filter((p) => !revertedPaths.has(p) && !untrackedDeleted.includes(p));
  // A change is a staged tree other than HEAD's (what a non-empty staged diff says). Its patch is made
  // by the git shell while the checks run; its evidence is written when it comes (flush() waits for it).
  const produced = kept.length > 0 && tree !== (await o.git.commitTree(o.startHead));
  const diff = produced ? o.git.stagedDiff() : Promise.resolve('');
  // Its failure is met where it is awaited (after the checks): not an unhandled rejection meanwhile.
  diff.catch(() => undefined);
  // The user's git-ignored files: put back whatever the agent did to them; under a protected glob
  // that (and an ignored file the agent made there, removed) is reverted as a tracked path would be.
  const userFiles = o.userFiles ? await o.userFiles(ignored ?? []) : null;
  const ignoredReverts = [
    ...(userFiles?.protectedChanged ?? []).map((path) => ({ path, detail: "a git-ignored file of the user's, put back as it was" })),
    ...(userFiles?.protectedRemoved ?? []).map((path) => ({ path, detail: 'a git-ignored file made under a protected path, removed' })),
  ];
  for (const r of ignoredReverts) if (!revertedPaths.has(r.path)) reverted.push({ ...r, why: 'protected' });
  for (const path of userFiles?.reservedRemoved ?? [])
    if (!revertedPaths.has(path)) reverted.push({ path, why: 'loop-owned', detail: o.reserved?.(path) ?? '' });
  const artifacts: Collected['artifacts'] = [];
  const r = o.agent.result;
  const log = `$ agent (exit ${r.exitCode ?? r.signal}${r.timedOut ? ', timed out' : ''}${r.aborted ? ', stopped' : ''})\n--- stdout ---\n${r.stdout}\n--- stderr ---\n${r.stderr}\n`;
  const report = parseReport(reportText);
  const recorded = diff.then(async (patch) => {
    artifacts.push({ ...(await o.evidence.write(`${o.dir}/agent.log`, o.scrub(log))), role: 'log' });
    if (produced) artifacts.push({ ...(await o.evidence.write(`${o.dir}/diff.patch`, o.scrub(patch))), role: 'artifact' });
    artifacts.push({ ...(await o.evidence.writeJson(`${o.dir}/agent_invocation.json`, o.agent.invocation)), role: 'log' });
    if (reportText !== null) artifacts.push({ ...(await o.evidence.write(`${o.dir}/agent_report.json`, o.scrub(reportText))), role: 'artifact' });
    await o.evidence.writeJson(`${o.dir}/artifacts.json`, {
      agent_commits_folded: folded,
      git_settings_restored: settingsChanged,
      index_flags_cleared: unflagged,
      artifacts: artifacts.map((a) => ({ path: a.path, sha256: a.sha256, bytes: a.bytes, role: a.role })),
      changed_paths: kept,
      report: report.state === 'malformed' ? { state: 'malformed', error: report.error } : { state: report.state },
      reverted: reverted.map((r) => ({ path: r.path, why: r.why, ...(r.detail ? { detail: r.detail } : {}) })),
      ...(untrackedDeleted.length ? { untracked_deleted: untrackedDeleted } : {}),
      ...(userFiles?.restored.length ? { user_files_restored: userFiles.restored } : {}),
      ...(userFiles?.failed.length ? { user_files_not_restored: userFiles.failed } : {}),
    } satisfies Artifacts);
  });
  o.evidence.hold(recorded);
  return {
    changed: kept,
    untrackedDeleted,
    reverted,
    produced,
    diff,
    recorded,
    diffFiles: kept.length,
    report,
    artifacts,
    agentCommitsFolded: folded,
    tree,
    settingsChanged,
    unflagged,
    userFiles,
  };
}
