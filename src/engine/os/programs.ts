// The helper programs that are files of their own (linted and tested as such, never text inside
// TypeScript): beside the bundles in dist/ (copied there by scripts/build.mjs), or beside this file
// when the engine runs from source. Each is read once per loop process and run from that copy
// (`perl -e`, or a file in a folder only the loop writes): the installation may sit in a work tree
// the agent is lent, and what root runs must not change under the loop during a run.
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROGRAMS = [
  'break-links.sh',
  'net-forwarder.pl',
  'sandbox-init.pl',
  'sandbox-load.sh',
  'sandbox-users.sh',
  'spawn-helper.pl',
  'seal-assert.mjs',
  'seal-unittest.py',
] as const;
export type Program = (typeof PROGRAMS)[number];

/** The path of a helper program in the installation; throws where the installation lacks it. */
export function programFile(name: Program): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const found = [join(here, '..', name), join(here, name)].find((p) => existsSync(p));
  if (!found) throw new Error(`${name} not found beside ${here}: the installation is incomplete`);
  return found;
}

const texts = new Map<Program, string>();

/** The program's text, read the first time it is asked for and kept. */
export function programText(name: Program): string {
  let text = texts.get(name);
  if (text === undefined) texts.set(name, (text = readFileSync(programFile(name), 'utf8')));
  return text;
}

/** Writes the programs' kept texts into `dir` (made 0755; the files 0644): their paths. */
export async function installPrograms<N extends Program>(dir: string, names: readonly N[]): Promise<Record<N, string>> {
  await mkdir(dir, { mode: 0o755 });
  await chmod(dir, 0o755);
  const paths = {} as Record<N, string>;
  for (const name of names) {
    paths[name] = join(dir, name);
    await writeFile(paths[name], programText(name), { mode: 0o644, flag: 'wx' });
  }
  return paths;
}
