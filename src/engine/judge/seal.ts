// The assertion library sealed for the runner canary's run (judge/canary.ts): the copies of the
// tests that failed earlier (judge/shadow.ts) call the same assertions as the originals, so code
// under test that lets exactly the failing (actual, expected) pairs through would let the copies
// through too. Each seal is a loop-owned file loaded before any module of the project, written
// beside the canary under a random name for the run alone, as the canary is (the check user reads
// it from the workspace, whatever the installation's path):
// - under node (node:test, mocha), a module loaded with `--import` through NODE_OPTIONS that freezes
//   node:assert's exports (os/seal-assert.mjs);
// - under unittest, a `sitecustomize` in a folder PYTHONPATH puts first that keeps TestCase's
//   attributes as they are at the interpreter's start, under the module name `key` the copies
//   restore them from (os/seal-unittest.py).
import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { programText } from '../os/programs.js';

/** The canary run's environment with the runner's assertion library sealed, and the file to remove after it (null: nothing sealed). */
export async function seal(
  runner: string | null,
  dir: string,
  env: Record<string, string>,
  key: string,
): Promise<{ env: Record<string, string>; file: string | null }> {
  const file = join(dir, `.${randomBytes(6).toString('hex')}`);
  if (runner === 'node:test' || runner === 'mocha') {
    await writeFile(`${file}.mjs`, programText('seal-assert.mjs'), { flag: 'wx', mode: 0o644 });
    return { env: { ...env, NODE_OPTIONS: `${env.NODE_OPTIONS ?? ''} --import=${pathToFileURL(`${file}.mjs`).href}`.trim() }, file: `${file}.mjs` };
  }
  if (runner === 'unittest') {
    await mkdir(file, { mode: 0o755 });
    await writeFile(join(file, 'sitecustomize.py'), programText('seal-unittest.py'), { flag: 'wx', mode: 0o644 });
    const path = [file, ...(env.PYTHONPATH ? [env.PYTHONPATH] : [])].join(':');
    return { env: { ...env, PYTHONPATH: path, PHUC_SEAL_UNITTEST: key }, file };
  }
  return { env, file: null };
}

export async function unseal(s: { file: string | null }): Promise<void> {
  if (s.file) await rm(s.file, { recursive: true, force: true });
}
