// The few git operations the loop needs, through the async process runner (no shell, no sync spawn).
import { appendFile, mkdir, readFile, unlink } from 'node:fs/promises';
import { dirname, isAbsolute, join } from 'node:path';
import type { ProcessRunner } from './ports.js';

export class GitError extends Error {}

export interface ChangedPath {
  path: string;
  /** Two-letter porcelain status ("??" untracked, " M", "D ", ...). */
  code: string;
}

const GIT_ENV_KEEP = /^(PATH|HOME|LANG|LC_[A-Z]+|TZ|TMPDIR|GIT_CONFIG_(COUNT|KEY_\d+|VALUE_\d+)|GIT_AUTHOR_(NAME|EMAIL)|GIT_COMMITTER_(NAME|EMAIL)|GIT_SSH_COMMAND|XDG_CONFIG_HOME|SSL_CERT_FILE|SSL_CERT_DIR)$/;

export class Git {
  private readonly env: Record<string, string>;
  private identity: string[] = [];

  constructor(
    private readonly runner: ProcessRunner,
    readonly cwd: string,
    baseEnv: Record<string, string | undefined> = process.env,
  ) {
    this.env = { GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0' };
    for (const [k, v] of Object.entries(baseEnv)) if (v !== undefined && GIT_ENV_KEEP.test(k)) this.env[k] = v;
  }

  async run(args: string[], opts: { stdin?: string; allowFail?: boolean } = {}): Promise<string> {
    const r = await this.runner.run({ command: 'git', args: [...this.identity, ...args], cwd: this.cwd, env: this.env, stdin: opts.stdin, reapLeftovers: false });
    if (r.exitCode !== 0 && !opts.allowFail)
      throw new GitError(`git ${args.join(' ')} failed (${r.exitCode ?? r.signal}): ${r.stderr.trim() || r.stdout.trim()}`);
    return r.stdout;
  }

  async toplevel(): Promise<string> {
    return (await this.run(['rev-parse', '--show-toplevel'])).trim();
  }

  async head(): Promise<string | null> {
    const out = await this.run(['rev-parse', '--verify', '--quiet', 'HEAD'], { allowFail: true });
    return out.trim() || null;
  }

  async branch(): Promise<string | null> {
    const out = await this.run(['symbolic-ref', '--quiet', '--short', 'HEAD'], { allowFail: true });
    return out.trim() || null;
  }

  /** Sets a committer identity for the loop's commits when the repository has none (CI runners). */
  async ensureIdentity(): Promise<void> {
    const email = (await this.run(['config', 'user.email'], { allowFail: true })).trim();
    if (!email && !this.env.GIT_AUTHOR_EMAIL)
      this.identity = ['-c', 'user.name=phuc-loop', '-c', 'user.email=phuc-loop@users.noreply.github.com'];
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

  async status(): Promise<ChangedPath[]> {
    const out = await this.run(['status', '--porcelain=v1', '-z', '--untracked-files=all', '--no-renames']);
    return out
      .split('\0')
      .filter(Boolean)
      .map((rec) => ({ code: rec.slice(0, 2), path: rec.slice(3) }));
  }

  async add(paths: string[]): Promise<void> {
    if (paths.length === 0) return;
    await this.run(['add', '-A', '--pathspec-from-file=-', '--pathspec-file-nul'], { stdin: paths.join('\0') });
  }

  /** Paths among `paths` that exist in HEAD. */
  async inHead(paths: string[]): Promise<Set<string>> {
    if (paths.length === 0) return new Set();
    const out = await this.run(['ls-tree', '-r', '-z', '--name-only', 'HEAD', '--', ...paths]);
    return new Set(out.split('\0').filter(Boolean));
  }

  /** Puts `paths` back as they are in HEAD: tracked ones restored, new ones removed. */
  async restoreFromHead(paths: string[]): Promise<void> {
    const tracked = await this.inHead(paths);
    const restore = paths.filter((p) => tracked.has(p));
    const remove = paths.filter((p) => !tracked.has(p));
    if (restore.length) await this.run(['checkout', 'HEAD', '--', ...restore]);
    if (remove.length) {
      await this.run(['rm', '-q', '--cached', '--ignore-unmatch', '--', ...remove]);
      await Promise.all(remove.map((p) => unlink(join(this.cwd, p)).catch(() => undefined)));
    }
  }

  /** The staged change against HEAD. */
  async stagedDiff(): Promise<string> {
    return this.run(['diff', '--cached', '--binary', '--no-color', '--no-ext-diff', 'HEAD']);
  }

  async writeTree(): Promise<string> {
    return (await this.run(['write-tree'])).trim();
  }

  async resetSoft(commit: string): Promise<void> {
    await this.run(['reset', '--soft', commit]);
  }

  async commit(message: string): Promise<string> {
    await this.run(['commit', '-q', '--no-verify', '--allow-empty', '-F', '-'], { stdin: message });
    return (await this.head())!;
  }

  async countCommits(from: string, to: string): Promise<number> {
    return Number((await this.run(['rev-list', '--count', `${from}..${to}`])).trim());
  }
}
