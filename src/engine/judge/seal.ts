// The assertion library sealed for the runner canary's run (judge/canary.ts): the copies of the
// tests that failed earlier (judge/shadow.ts) call the same assertions as the originals, so code
// under test that lets exactly the failing (actual, expected) pairs through would let the copies
// through too. Under node (node:test, mocha) a loop-owned module is loaded with `--import` through
// NODE_OPTIONS, before any module of the project, and freezes node:assert's exports
// (os/seal-assert.mjs). It is written beside the canary under a random name for the run alone, as
// the canary is: the check user reads it from the workspace, whatever the installation's path.
import { randomBytes } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { programText } from '../os/programs.js';

const SEALED: ReadonlySet<string> = new Set(['node:test', 'mocha']);

/** The canary run's environment with the runner's assertion library sealed, and the file to remove after it (null: nothing sealed). */
export async function seal(runner: string | null, dir: string, env: Record<string, string>): Promise<{ env: Record<string, string>; file: string | null }> {
  if (!SEALED.has(runner ?? '')) return { env, file: null };
  const file = join(dir, `.${randomBytes(6).toString('hex')}.mjs`);
  await writeFile(file, programText('seal-assert.mjs'), { flag: 'wx', mode: 0o644 });
  return { env: { ...env, NODE_OPTIONS: `${env.NODE_OPTIONS ?? ''} --import=${pathToFileURL(file).href}`.trim() }, file };
}

export async function unseal(s: { file: string | null }): Promise<void> {
  if (s.file) await rm(s.file, { force: true });
}
