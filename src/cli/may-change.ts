// What `phuc-loop init` proposes for agent.may_change (docs/init.md): the package's source folders as
// the project's layout shows them, never its tests, runner configuration, scripts, manifests or
// lockfiles (the protected list keeps tests out of a source folder that holds them, as `src/__tests__`).
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Folders a JavaScript or TypeScript package keeps its code in, when they exist. */
const NODE_SOURCE = ['src', 'lib', 'app', 'source', 'server', 'client', 'components', 'pages'];
/** Root folders that are never the package's code. */
const NOT_SOURCE = new Set(['test', 'tests', 'testing', 'docs', 'doc', 'scripts', 'script', 'examples', 'benchmarks', 'bench', 'tools', 'build', 'dist']);
/** Root Python files that configure or run things rather than being the package. */
const PY_NOT_SOURCE = /^(setup|conftest|noxfile|fabfile|manage|tasks)\.py$|^test_.*\.py$|_test\.py$/;

export interface MayChange {
  globs: string[];
  /** How init found them (a comment in the written config). */
  how: string;
}

const dirsOf = async (dir: string) =>
  (await readdir(dir, { withFileTypes: true }).catch(() => [])).filter((e) => e.isDirectory() && !e.name.startsWith('.')).map((e) => e.name);
const filesOf = async (dir: string) => (await readdir(dir, { withFileTypes: true }).catch(() => [])).filter((e) => e.isFile()).map((e) => e.name);
const exists = async (path: string) =>
  readdir(path).then(
    () => true,
    () => false,
  );

/** The allow-list init proposes for a project of `type` in `dir`. */
export async function proposeMayChange(dir: string, type: string): Promise<MayChange> {
  switch (type) {
    case 'npm':
    case 'pnpm':
    case 'yarn':
      return nodeSource(dir);
    case 'python':
      return pythonSource(dir);
    case 'go':
      return { globs: ['**/*.go'], how: "the module's Go files (its *_test.go and testdata stay protected)" };
    case 'rust':
      return rustSource(dir);
    case 'maven':
    case 'gradle':
      return { globs: ['**/src/main/**'], how: 'the main source sets of every module (src/test stays protected)' };
    default: {
      const found = (await dirsOf(dir)).filter((d) => NODE_SOURCE.includes(d)).sort();
      return found.length
        ? { globs: found.map((d) => `${d}/**`), how: 'the source folders found' }
        : { globs: ['src/**'], how: 'no source folder was found: src/** is a guess, name the folders your code is in' };
    }
  }
}

async function nodeSource(dir: string): Promise<MayChange> {
  const folders = (await dirsOf(dir)).filter((d) => NODE_SOURCE.includes(d));
  // Monorepos: each workspace package's source folders.
  for (const ws of ['packages', 'apps'])
    for (const pkg of await dirsOf(join(dir, ws)))
      for (const d of await dirsOf(join(dir, ws, pkg))) if (NODE_SOURCE.includes(d)) folders.push(`${ws}/${pkg}/${d}`);
  if (folders.length) return { globs: folders.map((d) => `${d}/**`).sort(), how: "the package's source folders" };
  // A package whose code sits at the root: its entry point (package.json "main"), else its root modules.
  let main: string | undefined;
  try {
    main = (JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as { main?: unknown }).main as string | undefined;
  } catch {
    // no readable package.json: the root modules below
  }
  const roots = (await filesOf(dir)).filter((f) => /\.(c|m)?(j|t)sx?$/.test(f) && !/(\.config\.|^\.|\.(test|spec)\.)/.test(f));
  const globs = [...new Set([...(typeof main === 'string' ? [main.replace(/^\.\//, '')] : []), ...roots])].sort();
  return globs.length
    ? { globs, how: "the package's modules at the root (no source folder was found)" }
    : { globs: ['src/**'], how: 'no source folder was found: src/** is a guess, name the folders your code is in' };
}

async function pythonSource(dir: string): Promise<MayChange> {
  if (await exists(join(dir, 'src'))) return { globs: ['src/**'], how: 'the src layout: the packages under src/' };
  const globs: string[] = [];
  for (const d of await dirsOf(dir)) if (!NOT_SOURCE.has(d) && (await filesOf(join(dir, d))).includes('__init__.py')) globs.push(`${d}/**`);
  for (const f of await filesOf(dir)) if (f.endsWith('.py') && !PY_NOT_SOURCE.test(f)) globs.push(f);
  return globs.length
    ? { globs: globs.sort(), how: 'the packages (folders with __init__.py) and modules at the root, not the tests' }
    : { globs: ['src/**'], how: 'no package was found: src/** is a guess, name the folders your code is in' };
}

async function rustSource(dir: string): Promise<MayChange> {
  const globs = (await exists(join(dir, 'src'))) ? ['src/**'] : [];
  // A workspace's member crates: each folder with its own Cargo.toml and src/.
  for (const d of await dirsOf(dir)) if ((await filesOf(join(dir, d))).includes('Cargo.toml') && (await exists(join(dir, d, 'src')))) globs.push(`${d}/src/**`);
  for (const group of ['crates', 'packages'])
    for (const d of await dirsOf(join(dir, group))) if (await exists(join(dir, group, d, 'src'))) globs.push(`${group}/${d}/src/**`);
  return globs.length
    ? { globs: globs.sort(), how: "the crates' src folders (tests/, benches/, build.rs and the manifests stay out)" }
    : { globs: ['src/**'], how: 'no src folder was found: src/** is a guess, name the folders your code is in' };
}
