// Throwaway unprivileged users for the tests that need the loop to run as someone other than root:
// `pidns` (refused to a root loop, whose uid 0 would stay root outside the namespace) and the sudo
// path of GitHub-hosted runners. As root only; each user is this run's own (two copies of the suite at
// once must not delete each other's), with its HOME in a temporary folder, and removed afterwards.
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { CLI, cli, type CliResult } from './repo.js';
import { reachableCopy } from './reachable.js';
import { processesOf } from './procs.js';
import { PROGRAMS } from '../../src/engine/os/programs.js';

const exec = promisify(execFile);
const PREFIX = 'phuc-t-';

export interface LoopUser {
  name: string;
  uid: number;
  gid: number;
  home: string;
}

/**
 * Users that interrupted runs left: the temporary folder their HOME was made in is gone. That
 * folder, not HOME: another suite's user exists before useradd has made its HOME.
 */
async function sweepLeftUsers(): Promise<void> {
  for (const line of (await readFile('/etc/passwd', 'utf8')).split('\n')) {
    const [name, , , , , home] = line.split(':');
    if (!name?.startsWith(PREFIX) || !home || existsSync(dirname(home))) continue;
    await exec('userdel', [name]).catch(() => undefined);
    await rm(`/etc/sudoers.d/${name}`, { force: true });
  }
}

/** A new user with a HOME of its own (0755, under a temporary folder every user can traverse). */
export async function createLoopUser(): Promise<LoopUser> {
  await sweepLeftUsers();
  const base = await mkdtemp(join(tmpdir(), PREFIX));
  await chmod(base, 0o755);
  const name = `${PREFIX}${randomBytes(4).toString('hex')}`;
  const home = join(base, 'home');
  await exec('useradd', ['--create-home', '--home-dir', home, '--shell', '/bin/sh', name]);
  const [uid, gid] = await Promise.all([exec('id', ['-u', name]), exec('id', ['-g', name])]);
  return { name, uid: Number(uid.stdout), gid: Number(gid.stdout), home };
}

/** Kills what is left of the user's processes, then removes it, its sudo rule and its HOME. */
export async function deleteLoopUser(user: LoopUser | undefined): Promise<void> {
  if (!user) return;
  for (const pid of await processesOf(user.uid)) process.kill(pid, 'SIGKILL');
  await exec('userdel', [user.name]).catch(() => undefined);
  await rm(`/etc/sudoers.d/${user.name}`, { force: true });
  await rm(`/var/lib/phuc-loop/uid-${String(user.uid)}`, { recursive: true, force: true });
  await rm(join(user.home, '..'), { recursive: true, force: true });
}

/** The built CLI as `user` (its own groups and HOME, a small environment plus `env`), from a copy that user can read. */
export function cliAs(user: LoopUser, cwd: string, args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  // The helper programs are looked for beside the bundle's folder or in it (os/programs.ts): in it here.
  const programs = Object.fromEntries(PROGRAMS.map((name) => [name, readFileSync(join(dirname(CLI), '..', name), 'utf8')]));
  const program = join(reachableCopy(dirname(CLI), 'cli', { 'package.json': '{"type":"module"}\n', ...programs }), basename(CLI));
  const child = spawn('setpriv', [`--reuid=${String(user.uid)}`, `--regid=${String(user.gid)}`, '--init-groups', '--', process.execPath, program, ...args], {
    cwd,
    env: { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: user.home, LANG: 'C.UTF-8', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/**
 * `phuc-loop ARGS --isolation pidns` on `repo`: as root, which may not run at pidns, by `user` on the
 * repository handed to it (and handed back to root afterwards, for the test's own git); else as
 * this process.
 */
export async function cliAtPidns(user: LoopUser | null, repo: string, args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  if (!user) return cli(repo, [...args, '--isolation', 'pidns'], env);
  await exec('chown', ['-R', `${String(user.uid)}:${String(user.gid)}`, repo]);
  try {
    return await cliAs(user, repo, [...args, '--isolation', 'pidns'], env);
  } finally {
    await exec('chown', ['-R', '0:0', repo]);
  }
}

/** Whether the tests run as root (and so run pidns through a user of their own). */
export const ROOT = process.getuid?.() === 0;
