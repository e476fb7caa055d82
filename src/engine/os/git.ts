// The few git operations the loop needs (GitCore, git-core.ts, talks to git).
import { appendFile, mkdir, mkdtemp, readFile, rm, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { shellQuote } from '../common/shell-quote.js';
import { sha256 } from '../common/canonical.js';
import { GitError } from '../common/errors.js';
import { ancestorInTheWay, readRegularSync } from './tree-file.js';
import { fitsArgv, STAGE_FROM_STDIN } from './git-args.js';
import { GitCore } from './git-core.js';
import { ObjectReader } from './git-objects.js';
import { restoreSettingFiles, settingFiles, type GitSettings } from './git-settings.js';

// The names the rest of the engine takes from here.
export { describeArgs } from './git-args.js';
export type { GitSettings } from './git-settings.js';

export interface ChangedPath {
  path: string;
  /** Two-letter porcelain status ("??" untracked, " M", "D ", ...). */
  code: string;
}

/** The git operations the loop needs. */
export class Git extends GitCore {
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

  /** Git's settings and the index as they are (before the agent runs), to put back or check after it. */
  async snapshotSettings(): Promise<GitSettings> {
    return { files: settingFiles(await this.gitDirs()), index: await this.indexHash() };
  }

  /** Puts git's settings back as they were (a hook the agent added removed); returns the files that had been changed. */
  async restoreSettings(snap: GitSettings): Promise<string[]> {
    return restoreSettingFiles(await this.gitDirs(), snap);
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

  /**
   * What is staged, against HEAD, as a patch (binary files too). The tree's own attributes are not
   * read (a `.gitattributes` with `-diff` or `binary` would show a text change as a binary patch to
   * the evidence and the critic): the two trees are compared from an empty work tree and index, so
   * git tells binary from text by content alone; no textconv, no external diff. `tree`: the staged
   * tree as stage() returned it (the index unchanged since), which saves writing it again.
   */
  async stagedDiff(tree?: string): Promise<string> {
    const git = ['git', ...this.gitArgs].map(shellQuote).join(' ');
    if (!this.dirs) await this.position();
    // The empty folder is made and removed here, not by mktemp and rm: two processes fewer an iteration.
    const empty = await mkdtemp(join(tmpdir(), 'phuc-diff-'));
    const e = shellQuote(empty);
    const script = [
      `t=${tree ? shellQuote(tree) : `$(${git} write-tree)`} && d=${shellQuote(this.dirs!.git)} || exit 1`,
      `cd ${e} && GIT_INDEX_FILE=${e}/index ${git} --git-dir="$d" --work-tree=${e} diff --binary --no-color --no-ext-diff --no-textconv HEAD "$t"`,
    ].join('\n');
    try {
      const r = await this.exec(`(\n${script}\n)`);
      if (r.exitCode !== 0) throw new GitError(`git diff failed (${r.exitCode}): ${r.stderr.trim()}`, r.stderr);
      return r.stdout;
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
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

  private readonly objects = new ObjectReader(
    () => this.commonDir(),
    (args, allowFail) => this.run(args, { allowFail }),
  );

  /** The tree of `commit`: read from its loose object when git wrote it as one (a new commit), else from git. */
  commitTree(commit: string): Promise<string> {
    return this.objects.commitTree(commit);
  }

  /** The names at the top of `tree`: from its loose object, else from git (a tree git found already packed). */
  topLevelNames(tree: string): Promise<ReadonlySet<string> | null> {
    return this.objects.topLevelNames(tree);
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
