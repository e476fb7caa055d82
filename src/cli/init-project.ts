// What every project type's init plan reads: the project's root folder, the JUnit report path, the
// loop's own always-protected files, and the paths a command names made protected globs.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Where the JUnit reporters init configures write (a folder init keeps out of git). */
export const REPORT = 'reports/junit.xml';
/** Always protected: the loop's own inputs and the CI that runs it (SPEC §7). */
export const LOOP_FILES = ['phuc-loop.yml', 'NORTHSTAR.md', '.github/**'];

export interface Project {
  dir: string;
  /** Names in the project's root folder. */
  names: Set<string>;
  read(name: string): Promise<string | null>;
}

export async function openProject(dir: string): Promise<Project> {
  const names = new Set(await readdir(dir).catch(() => [] as string[]));
  return { dir, names, read: (name) => readFile(join(dir, name), 'utf8').catch(() => null) };
}

export const has = (p: Project, ...names: string[]) => names.some((n) => p.names.has(n));

/** Paths a command names become protected globs: a folder with everything under it. */
export async function protectNamed(p: Project, named: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const n of named) {
    const path = n.replace(/^\.\//, '').replace(/\/$/, '');
    if (/[*?[{]/.test(path)) out.push(path);
    else
      out.push(
        (await readdir(join(p.dir, path)).then(
          () => true,
          () => false,
        ))
          ? `${path}/**`
          : path,
      );
  }
  return out;
}

export const unique = (xs: string[]) => [...new Set(xs)];
