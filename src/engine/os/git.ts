// The few git operations the loop needs, through the async process runner (no shell, no sync spawn).
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync } from 'node:fs';
import { appendFile, lstat, mkdir, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { shellQuote } from '../agent/agents.js';
import { sha256 } from '../common/canonical.js';
import { GitError } from '../common/errors.js';
import type { ProcessRunner } from './ports.js';
import { ShellSession } from './shell-session.js';
import { ancestorInTheWay, readRegularSync } from './tree-file.js';

export interface ChangedPath {
  path: string;
  /** Two-letter porcelain status ("??" untracked, " M", "D ", ...). */
  code: string;
}

// Git's own small files (HEAD, refs, settings, the index, a new object) are read synchronously
// (readRegularSync: no link followed, no FIFO waited on): from the page cache in microseconds, where
// an asynchronous read costs four round trips through the thread pool, a dozen times an iteration.

/** `read()`, or `fallback` when it throws. */
function readOr<T, F>(read: () => T, fallback: F): T | F {
  try {
    return read();
  } catch {
    return fallback;
  }
}

const GIT_ENV_KEEP =
  /^(PATH|HOME|LANG|LC_[A-Z]+|TZ|TMPDIR|GIT_CONFIG_(COUNT|KEY_\d+|VALUE_\d+)|GIT_AUTHOR_(NAME|EMAIL)|GIT_COMMITTER_(NAME|EMAIL)|GIT_SSH_COMMAND|XDG_CONFIG_HOME|SSL_CERT_FILE|SSL_CERT_DIR)$/;

/**
 * Paths go to git on its standard input (update-index, checkout-index: exact names, read in linear
 * time), never on its command line, where an agent's many long names would pass the kernel's limit
 * (E2BIG: no git would run). Lookups (ls-files, ls-tree, diff) get them on the command line up to
 * this many bytes; beyond, git lists everything and the loop picks the paths out.
 */
const ARGV_PATHS_BYTES = 16 * 1024;

/**
 * Stages the exact paths on stdin (NUL-separated) as `git add -A` does: new and changed files added,
 * missing ones removed, a file replacing a folder (or the reverse) replacing its entries; a path
 * beyond a link refused, attribute conversions applied. Not `git add`: it matches every file against
 * every pathspec, which for an agent's ten thousand new files takes minutes.
 */
const STAGE_FROM_STDIN = ['update-index', '--add', '--remove', '--replace', '-z', '--stdin'];

/** Whether `paths` may go on a command line (see ARGV_PATHS_BYTES). */
function fitsArgv(paths: string[]): boolean {
  let bytes = 0;
  for (const p of paths) if ((bytes += Buffer.byteLength(p) + 1) > ARGV_PATHS_BYTES) return false;
  return true;
}

/** A git command line for a message: a long one (paths) cut short, with the count of what was left out. */
export function describeArgs(args: string[], limit = 300): string {
  let text = '';
  for (let i = 0; i < args.length; i++) {
    const next = text ? `${text} ${args[i]}` : args[i];
    if (next.length > limit) return `${text || args[i].slice(0, limit)} … (${args.length - (text ? i : i + 1)} more argument(s))`;
    text = next;
  }
  return text;
}

/** Git's own settings files (path → content and mode, null: absent) and the index's hash, before the agent ran. */
export interface GitSettings {
  files: Map<string, { data: Buffer; mode: number } | null>;
  index: string | null;
}

export class Git {
  private readonly env: Record<string, string>;
  /** Options of every git call the loop makes (and the committer identity where the checkout has none). */
  private gitArgs: string[] = [
    ...['core.fsmonitor=false', 'core.hooksPath=/dev/null', 'maintenance.auto=false', 'gc.auto=0'],
    // Never look inside a submodule or nested repository: git would obey its settings (a clean
    // filter, an fsmonitor) as the loop, and those the agent can write.
    ...['submodule.recurse=false', 'diff.ignoreSubmodules=all', 'status.submoduleSummary=false'],
  ].flatMap((c) => ['-c', c]);

  constructor(
    private readonly runner: ProcessRunner,
    readonly cwd: string,
    baseEnv: Record<string, string | undefined> = process.env,
  ) {
    // Agent-chosen file names are paths, never pathspec magic; nothing configured in the checkout
    // (an fsmonitor command, hooks) runs inside the loop's own git calls.
    this.env = { GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0', GIT_LITERAL_PATHSPECS: '1' };
    for (const [k, v] of Object.entries(baseEnv)) if (v !== undefined && GIT_ENV_KEEP.test(k)) this.env[k] = v;
    // While the agent user owns the work tree (its step), git would call the checkout "dubious".
    this.gitArgs.push('-c', `safe.directory=${cwd}`);
  }

  private session: ShellSession | null = null;

  /** Routes further git calls through one long-lived shell (see ShellSession); close() ends it. */
  async openSession(): Promise<void> {
    this.session ??= await ShellSession.start(this.cwd, this.env);
  }

  async close(): Promise<void> {
    await this.session?.close();
    this.session = null;
  }

  private async exec(script: string, stdin?: string): Promise<{ exitCode: number | null; signal?: string | null; stdout: string; stderr: string }> {
    if (!this.session) return this.runner.run({ command: script, cwd: this.cwd, env: this.env, stdin, reapLeftovers: false });
    // A shell killed (by an agent of the same user, say) fails the call that finds it gone or that it
    // cut short (whatever that call had done): the run halts with its report, made with a new shell,
    // and the next run resumes.
    const session = this.session;
    const r = session.ended ? undefined : await session.run(script, stdin).catch(() => null);
    if (r && !session.ended) return r;
    this.session = await ShellSession.start(this.cwd, this.env);
    throw GitError.ended(
      r === undefined
        ? "the loop's git shell was killed between two git calls"
        : "a git call did not finish: the loop's git shell ended (killed, or stopped at its time limit)",
    );
  }

  async run(args: string[], opts: { stdin?: string; allowFail?: boolean } = {}): Promise<string> {
    const r = await this.exec(['git', ...this.gitArgs, ...args].map(shellQuote).join(' '), opts.stdin);
    if (r.exitCode !== 0 && !opts.allowFail)
      throw new GitError(`git ${describeArgs(args)} failed (${r.exitCode ?? r.signal}): ${r.stderr.trim() || r.stdout.trim()}`, r.stderr);
    return r.stdout;
  }

  /**
   * The output of `git <args>` limited to `paths` (NUL-separated names): on the command line when
   * they fit (see ARGV_PATHS_BYTES), else all of it, those names picked out (exact names only, as
   * every caller wants). A path that is a folder selects nothing here either way.
   */
  private async listAmong(args: string[], paths: string[], nameOf = (record: string) => record): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    if (paths.length === 0) return found;
    const out = await this.run(fitsArgv(paths) ? [...args, '--', ...paths] : args);
    const wanted = new Set(paths);
    for (const record of out.split('\0')) {
      const name = nameOf(record);
      if (wanted.has(name)) found.set(name, record);
    }
    return found;
  }

  async toplevel(): Promise<string> {
    return (await this.run(['rev-parse', '--show-toplevel'])).trim();
  }

  private dirs: { git: string; common: string } | null = null;

  /** HEAD and its branch, read from the git directory (a spawn per read costs more than the loop's own work). */
  async position(): Promise<{ head: string | null; branch: string | null }> {
    if (!this.dirs) {
      const [git, common] = (await this.run(['rev-parse', '--absolute-git-dir', '--git-common-dir'])).trim().split('\n');
      this.dirs = { git, common: isAbsolute(common) ? common : join(this.cwd, common) };
    }
    const headFile = readRegularSync(join(this.dirs.git, 'HEAD'), 1 << 20);
    if (!headFile) throw new GitError('.git/HEAD is not a regular file the loop can read', '');
    const head = headFile.toString('utf8').trim();
    if (!head.startsWith('ref: ')) return { head: /^[0-9a-f]{40,64}$/.test(head) ? head : null, branch: null };
    const ref = head.slice(5);
    const branch = ref.replace(/^refs\/heads\//, '');
    const loose = readRegularSync(join(this.dirs.common, ref), 1 << 20)?.toString('utf8') ?? null;
    if (loose !== null) return { head: loose.trim(), branch };
    const packed = readRegularSync(join(this.dirs.common, 'packed-refs'))?.toString('utf8') ?? '';
    const line = packed.split('\n').find((l) => l.endsWith(` ${ref}`));
    return { head: line ? line.split(' ')[0] : null, branch };
  }

  /** The git directory shared by every worktree of the repository (absolute). */
  async commonDir(): Promise<string> {
    if (!this.dirs) await this.position();
    return this.dirs!.common;
  }

  async head(): Promise<string | null> {
    return (await this.position()).head;
  }

  /** Sets a committer gitArgs for the loop's commits when the repository has none (CI runners). */
  async ensureIdentity(): Promise<void> {
    const email = (await this.run(['config', 'user.email'], { allowFail: true })).trim();
    if (!email && !this.env.GIT_AUTHOR_EMAIL) this.gitArgs.push('-c', 'user.name=phuc-loop', '-c', 'user.email=phuc-loop@users.noreply.github.com');
  }

  /** Keeps loop-owned folders out of status and commits without touching the user's .gitignore. */
  async exclude(patterns: string[]): Promise<void> {
    let file = (await this.run(['rev-parse', '--git-path', 'info/exclude'])).trim();
    if (!isAbsolute(file)) file = join(this.cwd, file);
    const existing = await readFile(file, 'utf8').catch(() => '');
    const lines = new Set(existing.split('\n'));
    const missing = patterns.filter((p) => !lines.has(p));
    if (missing.length) {
      await mkdir(dirname(file), { recursive: true });
      await appendFile(file, (existing && !existing.endsWith('\n') ? '\n' : '') + missing.join('\n') + '\n');
    }
  }

  /**
   * Changed and untracked paths; with `ignored`, the git-ignored ones too (code `!!`; a folder that
   * matches an ignore pattern as `name/`, not descended into), in the same call.
   */
  async status(o: { ignored?: boolean } = {}): Promise<ChangedPath[]> {
    const out = await this.run([
      'status',
      '--porcelain=v1',
      '-z',
      '--untracked-files=all',
      '--no-renames',
      '--ignore-submodules=all',
      ...(o.ignored ? ['--ignored=matching'] : []),
    ]);
    return out
      .split('\0')
      .filter(Boolean)
      .map((rec) => ({ code: rec.slice(0, 2), path: rec.slice(3) }));
  }

  /**
   * Git's own files in the checkout that could make git run commands or hide changes: its settings,
   * attributes, the exclude list (a pattern there hides a new file from status, so from the commit
   * the checks are judged on) and every hook (the user's next `git commit` would run it as them).
   */
  private async guardedFiles(): Promise<string[]> {
    if (!this.dirs) await this.position();
    const { common, git } = this.dirs!;
    const hooks = join(common, 'hooks');
    const real = readOr(() => lstatSync(hooks), null)?.isDirectory();
    // git runs a hook by its exact name; `*.sample` files (and changes to them) never run.
    const hookFiles = real
      ? readdirSync(hooks)
          .filter((name) => !name.endsWith('.sample'))
          .map((name) => join(hooks, name))
      : [];
    return [join(common, 'config'), join(common, 'info', 'attributes'), join(common, 'info', 'exclude'), join(git, 'config.worktree'), ...hookFiles];
  }

  /** A regular file's bytes and mode; null when absent; a link or folder reads as neither (it differs from any file). */
  private static settingsFile(f: string): { data: Buffer; mode: number } | null {
    const st = readOr(() => lstatSync(f), null);
    if (!st) return null;
    const data = st.isFile() ? readRegularSync(f) : null;
    return data ? { data, mode: st.mode & 0o7777 } : { data: Buffer.from(`not a file: ${st.mode}`), mode: -1 };
  }

  /** Git's settings and the index as they are (before the agent runs), to put back or check after it. */
  async snapshotSettings(): Promise<GitSettings> {
    const files: GitSettings['files'] = new Map();
    for (const f of await this.guardedFiles()) files.set(f, Git.settingsFile(f));
    return { files, index: await this.indexHash() };
  }

  /** Puts git's settings back as they were (a hook the agent added removed); returns the files that had been changed. */
  async restoreSettings(snap: GitSettings): Promise<string[]> {
    const changed: string[] = [];
    // A hooks folder made a link (or a file) goes first: nothing is read or written through it.
    if (!this.dirs) await this.position();
    const hooks = join(this.dirs!.common, 'hooks');
    const st = await lstat(hooks).catch(() => null);
    if (st && !st.isDirectory()) {
      changed.push('.git/hooks');
      await rm(hooks, { force: true });
    }
    for (const f of new Set([...snap.files.keys(), ...(await this.guardedFiles())])) {
      const before = snap.files.get(f) ?? null;
      const now = Git.settingsFile(f);
      if (before === now || (before && now && before.mode === now.mode && before.data.equals(now.data))) continue;
      changed.push(f.slice(f.lastIndexOf('.git')));
      await rm(f, { recursive: true, force: true });
      if (!before) continue;
      await mkdir(dirname(f), { recursive: true });
      await writeFile(f, before.data, { mode: before.mode });
    }
    return changed;
  }

  /** The hash of the index file's bytes (null: none): the same bytes hold the same flags. */
  private async indexHash(): Promise<string | null> {
    if (!this.dirs) await this.position();
    const data = readRegularSync(join(this.dirs!.git, 'index'));
    return data && sha256(data);
  }

  /**
   * Clears skip-worktree and assume-unchanged bits (they hide changes from status); returns their
   * paths. With `since`, nothing to do while the index holds the bytes it held then (the loop's own
   * index, which it never flags): a git process saved per iteration.
   */
  async clearIndexFlags(since?: GitSettings): Promise<string[]> {
    if (since && since.index !== null && since.index === (await this.indexHash())) return [];
    const entries = (await this.run(['ls-files', '-v', '-z'])).split('\0').filter((l) => l.length > 2);
    // One mode per update-index call: a later mode option overrides an earlier one.
    const skip = entries.filter((l) => l[0] === 'S').map((l) => l.slice(2));
    const assumed = entries.filter((l) => /[a-z]/.test(l[0])).map((l) => l.slice(2));
    if (skip.length) await this.run(['update-index', '--no-skip-worktree', '-z', '--stdin'], { stdin: skip.join('\0') });
    if (assumed.length) await this.run(['update-index', '--no-assume-unchanged', '-z', '--stdin'], { stdin: assumed.join('\0') });
    return [...new Set([...skip, ...assumed])];
  }

  /** Tracked and untracked, not ignored, files of the work tree. */
  async listFiles(): Promise<string[]> {
    return (await this.run(['ls-files', '-z', '--cached', '--others', '--exclude-standard'])).split('\0').filter(Boolean);
  }

  /** Puts `paths` back as they are in the index (a critic's stray edits); new files are removed. */
  async restoreFromIndex(paths: string[]): Promise<void> {
    if (paths.length === 0) return;
    const indexed = await this.indexed(paths);
    const restore = paths.filter((p) => indexed.has(p));
    // Exact names (checkout's pathspecs would be matched against every entry: quadratic).
    if (restore.length) await this.run(['checkout-index', '-f', '-z', '--stdin'], { stdin: restore.join('\0') });
    await Promise.all(paths.filter((p) => !indexed.has(p)).map((p) => this.removeInTree(p)));
  }

  /** Removes a file or link of the work tree, never through a folder that is a link (git checks out none beyond one). */
  private async removeInTree(path: string): Promise<void> {
    if (ancestorInTheWay(this.cwd, path)) return;
    await unlink(join(this.cwd, path)).catch(() => undefined);
  }

  /** HEAD's entries ("mode type id\tpath", as ls-tree writes them) of those of `paths` that are files (or links) there. */
  private headEntries(paths: string[]): Promise<Map<string, string>> {
    return this.listAmong(['ls-tree', '-r', '-z', '--full-tree', 'HEAD'], paths, (r) => r.slice(r.indexOf('\t') + 1));
  }

  /** Paths among `paths` that are files (or links) in HEAD. */
  async inHead(paths: string[]): Promise<Set<string>> {
    return new Set((await this.headEntries(paths)).keys());
  }

  /**
   * Puts `paths` back as they are in HEAD: tracked ones restored, new ones removed. As `git checkout
   * HEAD -- <paths>`, by exact names: HEAD's entries into the index, then those files written out.
   */
  async restoreFromHead(paths: string[]): Promise<void> {
    const tracked = await this.headEntries(paths);
    const restore = paths.filter((p) => tracked.has(p));
    const remove = paths.filter((p) => !tracked.has(p));
    if (restore.length) {
      await this.run(['update-index', '--add', '--replace', '-z', '--index-info'], { stdin: restore.map((p) => tracked.get(p)).join('\0') });
      await this.run(['checkout-index', '-f', '-z', '--stdin'], { stdin: restore.join('\0') });
    }
    if (remove.length) {
      // Only entries of exactly that name: a folder's name would unstage its files.
      const indexed = await this.indexed(remove);
      const unstage = remove.filter((p) => indexed.has(p));
      if (unstage.length) await this.run(['update-index', '--force-remove', '-z', '--stdin'], { stdin: unstage.join('\0') });
      await Promise.all(remove.map((p) => this.removeInTree(p)));
    }
  }

  /** Stages `paths`, then returns the tree hash of the index, in one call of the git shell. */
  async stage(paths: string[]): Promise<string> {
    const git = ['git', ...this.gitArgs].map(shellQuote).join(' ');
    const r = await this.exec(paths.length ? `${git} ${STAGE_FROM_STDIN.join(' ')} && ${git} write-tree` : `${git} write-tree`, paths.join('\0'));
    if (r.exitCode !== 0) throw new GitError(`staging failed (${r.exitCode}): ${r.stderr.trim()}`, r.stderr);
    return r.stdout.trim();
  }

  /** What is staged, against HEAD, as a patch (binary files too). */
  stagedDiff(): Promise<string> {
    return this.run(['diff', '--cached', '--binary', '--no-color', '--no-ext-diff', 'HEAD']);
  }

  /** Those of `paths` that are entries of the index (exactly that name, not a folder's files). */
  async indexed(paths: string[]): Promise<Set<string>> {
    return new Set((await this.listAmong(['ls-files', '-z', '--cached'], paths)).keys());
  }

  /**
   * The paths among `paths` that git refuses to stage (a conversion its attributes ask for fails, a
   * path beyond a link...), each with git's last line about it. Tried on a private copy of the
   * index, halving the paths until each refusal has its path: the index stays as it is.
   */
  async refusedToStage(paths: string[]): Promise<{ path: string; error: string }[]> {
    if (!this.dirs) await this.position();
    const git = ['git', ...this.gitArgs].map(shellQuote).join(' ');
    const idx = shellQuote(join(this.dirs!.git, 'phuc-loop-probe.index'));
    const real = shellQuote(join(this.dirs!.git, 'index'));
    const script = [
      `export GIT_INDEX_FILE=${idx}`,
      `trap 'rm -f ${idx}' EXIT`,
      `{ cp ${real} ${idx} 2>/dev/null || ${git} read-tree HEAD 2>/dev/null || ${git} read-tree --empty; } && ${git} ${STAGE_FROM_STDIN.join(' ')}`,
    ].join('\n');
    const out: { path: string; error: string }[] = [];
    const walk = async (group: string[]): Promise<void> => {
      const r = await this.exec(`(\n${script}\n)`, group.join('\0'));
      if (r.exitCode === 0) return;
      if (group.length === 1) {
        // git's error about the path ("'a/b' is beyond a symbolic link"), else its last word.
        const lines = r.stderr.trim().split('\n');
        out.push({ path: group[0], error: lines.find((l) => l.startsWith('error: ')) ?? lines.at(-1) ?? `exit ${r.exitCode}` });
        return;
      }
      const half = Math.ceil(group.length / 2);
      await walk(group.slice(0, half));
      await walk(group.slice(half));
    };
    if (paths.length) await walk(paths);
    return out;
  }

  async resetSoft(commit: string): Promise<void> {
    await this.run(['reset', '--soft', commit]);
  }

  /**
   * Stages `include` (the loop's own few files, at the top of the tree) and commits the index;
   * returns the new HEAD and its tree. `tracked`: the caller knows the index holds them as HEAD does
   * (see iteration.ts): `commit --include` then stages them in the same git process. Otherwise they
   * are added first: `--include` refuses an untracked name since git 2.45, and left it out before.
   */
  async commit(message: string, include: string[] = [], tracked = false): Promise<{ commit: string; tree: string }> {
    const git = ['git', ...this.gitArgs].map(shellQuote).join(' ');
    const names = include.map(shellQuote).join(' ');
    const commit = `${git} commit -q --no-verify --allow-empty -F -`;
    const run = async (script: string) => {
      const r = await this.exec(script, message);
      if (r.exitCode !== 0) throw new GitError(`commit failed (${r.exitCode}): ${r.stderr.trim() || r.stdout.trim()}`, r.stderr);
      return this.headAndTree();
    };
    const added = () => run(`${git} add -A -- ${names} && ${commit}`);
    if (!include.length) return run(commit);
    if (!tracked) return added();
    // The caller was wrong (the index lost a name since): git 2.45 and later refuse, nothing is
    // committed; earlier ones leave the name out, and that commit is undone. Either way: added.
    const made = await run(`${commit} --include -- ${names}`).catch(() => null);
    if (!made) return added();
    const inTree = await this.topLevelNames(made.tree);
    if (include.every((name) => inTree?.has(name))) return made;
    await this.run(['reset', '--soft', 'HEAD~1']);
    return added();
  }

  /** HEAD and its tree. */
  private async headAndTree(): Promise<{ commit: string; tree: string }> {
    const { head } = await this.position();
    if (!head) throw new GitError('the commit left no HEAD', '');
    return { commit: head, tree: await this.commitTree(head) };
  }

  /**
   * What was read of objects by their id (a commit's tree, a tree's top-level names): an object never
   * changes, and each iteration asks again about the commit the last one made. The last few are kept.
   */
  private readonly known = new Map<string, string | ReadonlySet<string>>();

  private async remembered<T extends string | ReadonlySet<string>>(key: string, read: () => Promise<T | null>): Promise<T | null> {
    const hit = this.known.get(key);
    if (hit !== undefined) return hit as T;
    const value = await read();
    if (value === null) return null;
    if (this.known.size >= 8) this.known.delete(this.known.keys().next().value!);
    this.known.set(key, value);
    return value;
  }

  /** The tree of `commit`: read from its loose object when git wrote it as one (a new commit), else from git. */
  async commitTree(commit: string): Promise<string> {
    return (await this.remembered(`tree of ${commit}`, async () => {
      const tree = /^tree ([0-9a-f]{40,64})\n/.exec((await this.looseObject(commit, 'commit'))?.subarray(0, 80).toString('latin1') ?? '')?.[1];
      return tree ?? (await this.run(['rev-parse', '--verify', `${commit}^{tree}`])).trim();
    }))!;
  }

  /** The names at the top of `tree`: from its loose object, else from git (a tree git found already packed). */
  topLevelNames(tree: string): Promise<ReadonlySet<string> | null> {
    return this.remembered(`names in ${tree}`, () => this.readTopLevelNames(tree));
  }

  private async readTopLevelNames(tree: string): Promise<Set<string> | null> {
    const body = await this.looseObject(tree, 'tree');
    if (!body) return new Set((await this.run(['ls-tree', '-z', '--name-only', tree], { allowFail: true })).split('\0').filter(Boolean));
    // Entries: "<mode> <name>\0" and the binary object id (20 or 32 bytes).
    const idBytes = tree.length / 2;
    const names = new Set<string>();
    for (let at = 0; at < body.length;) {
      const nul = body.indexOf(0, at);
      if (nul < 0) return null;
      const entry = body.subarray(at, nul).toString('utf8');
      names.add(entry.slice(entry.indexOf(' ') + 1));
      at = nul + 1 + idBytes;
    }
    return names;
  }

  /** The body of a loose object git just wrote, checked against its name and type; null when not loose. */
  private async looseObject(id: string, type: 'commit' | 'tree'): Promise<Buffer | null> {
    const file = join(await this.commonDir(), 'objects', id.slice(0, 2), id.slice(2));
    const z = readRegularSync(file, 64 << 20);
    const raw = z && readOr(() => inflateSync(z), null);
    if (
      !raw ||
      createHash(id.length === 64 ? 'sha256' : 'sha1')
        .update(raw)
        .digest('hex') !== id
    )
      return null;
    const nul = raw.indexOf(0);
    return raw.subarray(0, nul).toString('latin1').startsWith(`${type} `) ? raw.subarray(nul + 1) : null;
  }

  /** The files of `tree` (for input globs judged on a committed tree, not the work tree). */
  async treeFiles(tree: string): Promise<string[]> {
    return (await this.run(['ls-tree', '-r', '-z', '--name-only', tree])).split('\0').filter(Boolean);
  }

  /**
   * Keeps `paths` as they are now in the work tree (the user's uncommitted work) in a commit on top
   * of HEAD under `ref`, through a private index: the index and the work tree stay as they are.
   * Returns the commit that holds them, and whether it is new (not when the ref already held this content).
   */
  async keepWork(paths: string[], ref: string, message: string): Promise<{ commit: string; made: boolean }> {
    if (!this.dirs) await this.position();
    const git = ['git', ...this.gitArgs].map(shellQuote).join(' ');
    const idx = shellQuote(join(this.dirs!.git, 'phuc-loop-keep.index'));
    const script = [
      `export GIT_INDEX_FILE=${idx}`,
      `trap 'rm -f ${idx}' EXIT`,
      `${git} read-tree HEAD && ${git} ${STAGE_FROM_STDIN.join(' ')} && t=$(${git} write-tree) || exit 1`,
      `prev=$(${git} rev-parse -q --verify ${shellQuote(ref)})`,
      `[ -n "$prev" ] && [ "$(${git} rev-parse "$prev^{tree}")" = "$t" ] && { echo "= $prev"; exit 0; }`,
      `c=$(${git} commit-tree "$t" -p HEAD \${prev:+-p "$prev"} -m ${shellQuote(message)}) && ${git} update-ref ${shellQuote(ref)} "$c" && echo "+ $c"`,
    ].join('\n');
    // A subshell: the exported index and the trap end with it, not with the session.
    const r = await this.exec(`(\n${script}\n)`, paths.join('\0'));
    const kept = /^([=+]) ([0-9a-f]{40,64})$/m.exec(r.stdout);
    if (r.exitCode !== 0 || !kept) throw new GitError(`keeping the uncommitted work failed (${r.exitCode}): ${r.stderr.trim()}`, r.stderr);
    return { commit: kept[2], made: kept[1] === '+' };
  }

  /** The bytes of `path` in `commit` (null: not there). */
  async blob(commit: string, path: string): Promise<Buffer | null> {
    const spec = shellQuote(`${commit}:${path}`);
    const git = ['git', ...this.gitArgs].map(shellQuote).join(' ');
    // Base64 through the shell session, which carries text: the file may be anything.
    const r = await this.exec(`${git} cat-file -e ${spec} && ${git} cat-file blob ${spec} | base64 -w 0`);
    return r.exitCode === 0 ? Buffer.from(r.stdout.trim(), 'base64') : null;
  }

  /**
   * Those of `paths` (tracked ones) whose work-tree content is what `ref` holds for them; none when
   * the ref does not exist.
   */
  async sameAs(ref: string, paths: string[]): Promise<Set<string>> {
    if (paths.length === 0) return new Set();
    // Too many paths for the command line: every file that differs, the paths picked out below.
    const limit = fitsArgv(paths) ? ['--', ...paths] : [];
    const r = await this.exec(['git', ...this.gitArgs, 'diff', '--no-ext-diff', '--name-only', '-z', ref, ...limit].map(shellQuote).join(' '));
    if (r.exitCode !== 0) return new Set();
    const differ = new Set(r.stdout.split('\0').filter(Boolean));
    return new Set(paths.filter((p) => !differ.has(p)));
  }

  /** Whether `ancestor` is `commit` or one of its ancestors. */
  async isAncestor(ancestor: string, commit: string): Promise<boolean> {
    const r = await this.exec(['git', ...this.gitArgs, 'merge-base', '--is-ancestor', ancestor, commit].map(shellQuote).join(' '));
    return r.exitCode === 0;
  }

  /** The tree of HEAD. */
  async headTree(): Promise<string> {
    return (await this.run(['rev-parse', 'HEAD^{tree}'])).trim();
  }

  async countCommits(from: string, to: string): Promise<number> {
    return Number((await this.run(['rev-list', '--count', `${from}..${to}`])).trim());
  }
}
