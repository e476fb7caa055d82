// Talking to git: through the async process runner or the loop's git shell (ShellSession), with an
// environment and options nothing in the checkout can turn into a command the loop runs.
import { isAbsolute, join } from 'node:path';
import { shellQuote } from '../common/shell-quote.js';
import { GitError } from '../common/errors.js';
import type { ProcessRunner } from './ports.js';
import { ShellSession } from './shell-session.js';
import { readRegularSync } from './tree-file.js';
import { describeArgs, fitsArgv, GIT_ENV_KEEP } from './git-args.js';
import type { GitDirs } from './git-settings.js';

// Git's own small files (HEAD, refs, settings, the index, a new object) are read synchronously
// (readRegularSync: no link followed, no FIFO waited on): from the page cache in microseconds, where
// an asynchronous read costs four round trips through the thread pool, a dozen times an iteration.

/** Talking to git: its environment and options, the shell session, the calls, and where its folders are. */
export class GitCore {
  protected readonly env: Record<string, string>;
  /** Options of every git call the loop makes (and the committer identity where the checkout has none). */
  protected gitArgs: string[] = [
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

  protected async exec(script: string, stdin?: string): Promise<{ exitCode: number | null; signal?: string | null; stdout: string; stderr: string }> {
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
  protected async listAmong(args: string[], paths: string[], nameOf = (record: string) => record): Promise<Map<string, string>> {
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

  protected dirs: { git: string; common: string } | null = null;

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

  protected async gitDirs(): Promise<GitDirs> {
    if (!this.dirs) await this.position();
    return this.dirs!;
  }
}
