// Git's own settings in a checkout (config, attributes, exclude, hooks): read before the agent runs
// and put back after it, so that nothing it planted there runs as the loop or the user.
import { lstatSync, readdirSync } from 'node:fs';
import { lstat, mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { readOr, readRegularSync } from './tree-file.js';

/** Git's own settings files (path → content and mode, null: absent) and the index's hash, before the agent ran. */
export interface GitSettings {
  files: Map<string, { data: Buffer; mode: number } | null>;
  index: string | null;
}

/** The checkout's git folder and the common one (they differ in a linked worktree). */
export interface GitDirs {
  git: string;
  common: string;
}

/**
 * Git's own files in the checkout that could make git run commands or hide changes: its settings,
 * attributes, the exclude list (a pattern there hides a new file from status, so from the commit
 * the checks are judged on) and every hook (the user's next `git commit` would run it as them).
 */
function guardedFiles({ common, git }: GitDirs): string[] {
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
function settingsFile(f: string): { data: Buffer; mode: number } | null {
  const st = readOr(() => lstatSync(f), null);
  if (!st) return null;
  const data = st.isFile() ? readRegularSync(f) : null;
  return data ? { data, mode: st.mode & 0o7777 } : { data: Buffer.from(`not a file: ${st.mode}`), mode: -1 };
}

/** The settings files as they are now. */
export function settingFiles(dirs: GitDirs): GitSettings['files'] {
  return new Map(guardedFiles(dirs).map((f) => [f, settingsFile(f)]));
}

/** Puts git's settings back as they were (a hook the agent added removed); returns the files that had been changed. */
export async function restoreSettingFiles(dirs: GitDirs, snap: GitSettings): Promise<string[]> {
  const changed: string[] = [];
  // A hooks folder made a link (or a file) goes first: nothing is read or written through it.
  const hooks = join(dirs.common, 'hooks');
  const st = await lstat(hooks).catch(() => null);
  if (st && !st.isDirectory()) {
    changed.push('.git/hooks');
    await rm(hooks, { force: true });
  }
  for (const f of new Set([...snap.files.keys(), ...guardedFiles(dirs)])) {
    const before = snap.files.get(f) ?? null;
    const now = settingsFile(f);
    if (before === now || (before && now && before.mode === now.mode && before.data.equals(now.data))) continue;
    changed.push(f.slice(f.lastIndexOf('.git')));
    await rm(f, { recursive: true, force: true });
    if (!before) continue;
    await mkdir(dirname(f), { recursive: true });
    await writeFile(f, before.data, { mode: before.mode });
  }
  return changed;
}
