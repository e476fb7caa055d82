// Local bare repositories standing in for github.com remotes: an origin with a PR head branch, a
// workspace cloned the way actions/checkout leaves it, env that sends pushes aimed at
// https://github.com/<o>/<r>(.git) (with or without x-access-token credentials) to the bare repo,
// and "someone else" pushing to the branch (push races). All git calls are async.
import { execFile } from 'node:child_process';
import { chmod, mkdtemp, mkdir, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface GitIdentity {
  name: string;
  email: string;
}

export interface Origin {
  /** `owner/name` on "github.com". */
  fullName: string;
  /** Path of the bare repository. */
  bareDir: string;
  defaultBranch: string;
  /** sha of the default branch after creation. */
  baseSha: string;
  /** PR head branch, when one was created. */
  headBranch?: string;
  headSha?: string;
}

export interface GitRunResult {
  stdout: string;
  stderr: string;
}

const SEED_IDENTITY: GitIdentity = { name: 'Origin Seeder', email: 'seeder@example.com' };
const OTHER_IDENTITY: GitIdentity = { name: 'Someone Else', email: 'someone-else@example.com' };
const FIXED_DATE = '2026-01-01T00:00:00Z';

/**
 * Environment isolating git from the machine's config (no global/system config, no prompts),
 * like a fresh runner: no user.name/email unless the action sets them.
 */
export function isolatedGitEnv(): Record<string, string> {
  return { GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: '', SSH_ASKPASS: '' };
}

/**
 * A fresh temporary directory others may traverse (0755; mkdtemp makes 0700): the loop runs the
 * agent as an unprivileged user that must reach the workspace below it.
 */
export async function traversableTempDir(prefix: string, parent = tmpdir()): Promise<string> {
  const dir = await mkdtemp(join(parent, prefix));
  await chmod(dir, 0o755);
  return dir;
}

function identityEnv(id: GitIdentity, date = FIXED_DATE): Record<string, string> {
  return {
    GIT_AUTHOR_NAME: id.name,
    GIT_AUTHOR_EMAIL: id.email,
    GIT_COMMITTER_NAME: id.name,
    GIT_COMMITTER_EMAIL: id.email,
    GIT_AUTHOR_DATE: date,
    GIT_COMMITTER_DATE: date,
  };
}

/** Runs git asynchronously; rejects with stderr on a non-zero exit. */
export function git(args: string[], opts: { cwd: string; env?: Record<string, string> }): Promise<GitRunResult> {
  return new Promise((resolve, reject) => {
    execFile('git', args, { cwd: opts.cwd, env: { ...process.env, ...isolatedGitEnv(), ...opts.env }, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`git ${args.join(' ')} (in ${opts.cwd}) failed: ${stderr || err.message}`));
      else resolve({ stdout, stderr });
    });
  });
}

async function writeFiles(dir: string, files: Record<string, string | null>): Promise<void> {
  for (const [rel, content] of Object.entries(files)) {
    const p = join(dir, rel);
    if (content === null) await rm(p, { force: true });
    else {
      await mkdir(dirname(p), { recursive: true });
      await writeFile(p, content);
    }
  }
}

async function commitAll(dir: string, message: string, id: GitIdentity, date?: string): Promise<string> {
  await git(['add', '-A'], { cwd: dir });
  await git(['commit', '-q', '--allow-empty', '-m', message], { cwd: dir, env: identityEnv(id, date) });
  return (await git(['rev-parse', 'HEAD'], { cwd: dir })).stdout.trim();
}

/**
 * A bare repository with `files` committed on the default branch and, when `pr` is given, a head
 * branch with `pr.files` committed on top (null deletes a file).
 */
export async function createOrigin(opts: {
  fullName: string;
  files: Record<string, string>;
  defaultBranch?: string;
  pr?: { branch: string; files: Record<string, string | null>; message?: string };
  parentDir?: string;
}): Promise<Origin> {
  const root = opts.parentDir ?? (await traversableTempDir('phuc-harness-origin-'));
  const bareDir = join(root, `${opts.fullName.replace('/', '__')}.git`);
  const defaultBranch = opts.defaultBranch ?? 'main';
  await mkdir(bareDir, { recursive: true });
  await git(['init', '-q', '--bare', `--initial-branch=${defaultBranch}`], { cwd: bareDir });
  const seed = await mkdtemp(join(tmpdir(), 'phuc-harness-seed-'));
  try {
    await git(['init', '-q', `--initial-branch=${defaultBranch}`], { cwd: seed });
    await writeFiles(seed, opts.files);
    const baseSha = await commitAll(seed, 'initial commit', SEED_IDENTITY);
    await git(['push', '-q', bareDir, `HEAD:refs/heads/${defaultBranch}`], { cwd: seed });
    const origin: Origin = { fullName: opts.fullName, bareDir, defaultBranch, baseSha };
    if (opts.pr) {
      await git(['checkout', '-q', '-b', opts.pr.branch], { cwd: seed });
      await writeFiles(seed, opts.pr.files);
      origin.headSha = await commitAll(seed, opts.pr.message ?? `work on ${opts.pr.branch}`, SEED_IDENTITY, '2026-01-01T00:01:00Z');
      origin.headBranch = opts.pr.branch;
      await git(['push', '-q', bareDir, `HEAD:refs/heads/${opts.pr.branch}`], { cwd: seed });
    }
    return origin;
  } finally {
    await rm(seed, { recursive: true, force: true });
  }
}

/** The https URLs an action might push to for a repo (plain, .git, with x-access-token credentials). */
export function githubUrlsFor(fullName: string, token?: string): string[] {
  const urls = [
    `https://github.com/${fullName}`,
    `https://github.com/${fullName}.git`,
    `git@github.com:${fullName}.git`,
    `ssh://git@github.com/${fullName}.git`,
  ];
  if (token)
    for (const user of ['x-access-token', 'oauth2', 'git'])
      urls.push(`https://${user}:${token}@github.com/${fullName}`, `https://${user}:${token}@github.com/${fullName}.git`);
  return urls;
}

/**
 * GIT_CONFIG_COUNT/KEY_n/VALUE_n that rewrite every github.com URL form of each origin to its bare
 * repository (`url.<bare>.insteadOf <url>`; git picks the longest matching prefix). Merge into the
 * step env (together with isolatedGitEnv()).
 */
export function redirectEnv(origins: Origin[], opts: { token?: string } = {}): Record<string, string> {
  const env: Record<string, string> = {};
  let n = 0;
  for (const o of origins) {
    for (const u of githubUrlsFor(o.fullName, opts.token)) {
      env[`GIT_CONFIG_KEY_${n}`] = `url.${o.bareDir}.insteadOf`;
      env[`GIT_CONFIG_VALUE_${n}`] = u;
      n++;
    }
  }
  env['GIT_CONFIG_COUNT'] = String(n);
  return env;
}

/**
 * Clones like actions/checkout does for a PR head: remote `origin` = https://github.com/<o>/<r>,
 * the branch checked out, and (persistCredentials, default true) an http extraheader in the
 * local config. Returns the workspace path. Needs redirectEnv() to reach the bare repo.
 */
export async function cloneWorkspace(
  origin: Origin,
  opts: { branch?: string; dir?: string; token?: string; persistCredentials?: boolean; depth?: number; detached?: boolean } = {},
): Promise<string> {
  const dir = opts.dir ?? (await traversableTempDir('phuc-harness-clone-'));
  const branch = opts.branch ?? origin.headBranch ?? origin.defaultBranch;
  const env = redirectEnv([origin]);
  const depthArgs = opts.depth ? ['--depth', String(opts.depth)] : [];
  await git(['init', '-q'], { cwd: dir });
  await git(['remote', 'add', 'origin', `https://github.com/${origin.fullName}`], { cwd: dir });
  if (opts.persistCredentials ?? true) {
    const basic = Buffer.from(`x-access-token:${opts.token ?? 'ghs_emulated'}`).toString('base64');
    await git(['config', '--local', 'http.https://github.com/.extraheader', `AUTHORIZATION: basic ${basic}`], { cwd: dir });
  }
  await git(['fetch', '-q', '--no-tags', ...depthArgs, 'origin', `+refs/heads/${branch}:refs/remotes/origin/${branch}`], { cwd: dir, env });
  if (opts.detached) await git(['checkout', '-q', '--detach', `refs/remotes/origin/${branch}`], { cwd: dir });
  else await git(['checkout', '-q', '-B', branch, `refs/remotes/origin/${branch}`], { cwd: dir });
  return dir;
}

/** Commits `files` on `branch` of the origin as someone else and pushes; returns the new sha. */
export async function pushAsSomeoneElse(
  origin: Origin,
  branch: string,
  files: Record<string, string | null>,
  opts: { message?: string; identity?: GitIdentity } = {},
): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'phuc-harness-other-'));
  try {
    await git(['clone', '-q', '--branch', branch, origin.bareDir, dir], { cwd: tmpdir() });
    await writeFiles(dir, files);
    const sha = await commitAll(dir, opts.message ?? 'concurrent change', opts.identity ?? OTHER_IDENTITY, new Date().toISOString());
    await git(['push', '-q', 'origin', `HEAD:refs/heads/${branch}`], { cwd: dir });
    return sha;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** sha of a branch in the bare repository, or undefined when it does not exist. */
export async function branchSha(origin: Origin, branch: string): Promise<string | undefined> {
  try {
    return (await git(['rev-parse', '--verify', '-q', `refs/heads/${branch}`], { cwd: origin.bareDir })).stdout.trim() || undefined;
  } catch {
    return undefined;
  }
}

export interface CommitInfo {
  sha: string;
  subject: string;
  body: string;
  authorName: string;
  authorEmail: string;
  files: string[];
}

/** Commits on `branch` (newest first), optionally only those not on `since` (a sha or ref). */
export async function log(origin: Origin, branch: string, opts: { since?: string; max?: number } = {}): Promise<CommitInfo[]> {
  const range = opts.since ? `${opts.since}..refs/heads/${branch}` : `refs/heads/${branch}`;
  const sep = '\x1e';
  const { stdout } = await git(['log', `--max-count=${opts.max ?? 100}`, `--format=${sep}%H%x1f%s%x1f%b%x1f%an%x1f%ae`, '--name-only', range], {
    cwd: origin.bareDir,
  });
  return stdout
    .split(sep)
    .filter((c) => c.trim())
    .map((chunk) => {
      const [head, ...rest] = chunk.split('\x1f');
      const email = rest[3] ?? '';
      const [emailLine, ...fileLines] = email.split('\n');
      return {
        sha: head.trim(),
        subject: rest[0] ?? '',
        body: (rest[1] ?? '').trim(),
        authorName: rest[2] ?? '',
        authorEmail: emailLine.trim(),
        files: fileLines.map((f) => f.trim()).filter(Boolean),
      };
    });
}

/** A file's content at `ref` in the bare repository, or undefined when absent. */
export async function showFile(origin: Origin, ref: string, path: string): Promise<string | undefined> {
  try {
    return (await git(['show', `${ref}:${path}`], { cwd: origin.bareDir })).stdout;
  } catch {
    return undefined;
  }
}
