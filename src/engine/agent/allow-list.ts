// The allow-list (SPEC §7, `agent.may_change`): the agent may change only the paths the user names;
// protection by construction rather than by a list of what might be dangerous. Even inside those
// paths, what a runner would take in place of a library or run at interpreter start is refused: a
// new module named like the standard library or an installed package, where it stands at the head
// of an import path, and Python's packaging and start-up hooks (dist-info, egg-info, .pth, sitecustomize).
import { readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import picomatch from 'picomatch';
import { PYTHON_STDLIB } from './python-stdlib.js';
import type { ProcessRunner } from '../os/ports.js';
import { lstatOrNull, readRegularIn } from '../os/tree-file.js';

/** The names a new module of the work tree must not take (see shadowNames). */
export interface ShadowNames {
  /** The standard library's modules and those the loop's python3 has installed. */
  python: ReadonlySet<string>;
  /** Node's builtin modules and the packages in the work tree's node_modules (at the repository root). */
  nodeRoot: ReadonlySet<string>;
  /** The packages package.json depends on (what `npm ci` installs in the check workspace). */
  nodeDeps: ReadonlySet<string>;
}

export interface AllowList {
  /** agent.may_change as written. */
  globs: readonly string[];
  /**
   * Why the agent's change of `path` is refused (null: it may stay). `isNew`: neither HEAD nor the
   * work tree before the step held it (only a new module can shadow; the user's own stays theirs).
   */
  refusal(path: string, isNew: boolean): { why: 'not-allowed' | 'shadow'; detail: string } | null;
}

/** What the certificate and the report say judged the agent's changes. */
export type GuardMode = 'allow-list' | 'protected-only';
export const guardMode = (mayChange: readonly string[] | null | undefined): GuardMode => (mayChange ? 'allow-list' : 'protected-only');

/** The start-up warning of a config without agent.may_change. */
export const PROTECTED_ONLY_WARNING =
  'agent.may_change is not set: the agent may change every path but the protected ones. A deny-list names only what it ' +
  'foresees (a helper the check imports, a package.json script, a module named like a library all walk around it); ' +
  'agent.may_change: ["src/**"] names what the agent may change and reverts everything else (`phuc-loop init` proposes one)';

const PY_MODULE = /\.(py|pyc|pyo|pyw|pyd|so)$/;
const JS_MODULE = /\.(js|cjs|mjs|jsx|ts|cts|mts|tsx|json|node)$/;
/** Names Python runs at start-up or takes as installed distributions, wherever they stand. */
const PACKAGING_SEGMENT = /\.(dist-info|egg-info|egg-link|pth)$/;
const STARTUP_HOOK = /^(sitecustomize|usercustomize)(\.|$)/;

const stem = (name: string) => name.split('.')[0];

/**
 * The allow-list of `globs` for the work tree at `cwd`. A name the glob matcher cannot judge (control
 * characters, bytes that are not UTF-8) is outside it.
 */
export function allowList(globs: readonly string[], cwd: string, names: ShadowNames): AllowList {
  const allowed = picomatch([...globs], { dot: true });
  // The folders a `src/**` names: a module right below one is at the head of an import path when the
  // runner is told to look there (jest's moduleDirectories, pytest's pythonpath, tsconfig's baseUrl).
  const bases = [...new Set(globs.map((g) => picomatch.scan(g).base).filter(Boolean))];
  return {
    globs,
    refusal(path, isNew) {
      // eslint-disable-next-line no-control-regex -- control characters in a path are what this test looks for
      if (/[\u0000-\u001f\u007f\u2028\u2029\ufffd]/.test(path) || !allowed(path)) return { why: 'not-allowed', detail: 'not under agent.may_change' };
      const parts = path.split('/');
      if (parts.some((s) => PACKAGING_SEGMENT.test(s)) || parts.some((s) => STARTUP_HOOK.test(s)))
        return { why: 'shadow', detail: 'Python runs it at start-up or takes it for an installed package' };
      if (!isNew || lstatOrNull(join(cwd, path)) === null) return null;
      const shadow = pythonShadow(cwd, parts, names) ?? nodeShadow(parts, bases, names);
      return shadow ? { why: 'shadow', detail: shadow } : null;
    },
  };
}

/**
 * A Python module the work tree adds under a name that is taken: the top of its package (climbing
 * while the folder above holds an __init__.py), at whatever folder that stops, is where the runner
 * imports it from when that folder is on sys.path (`python -m` puts the folder it starts in first).
 */
function pythonShadow(cwd: string, parts: string[], names: ShadowNames): string | null {
  if (!PY_MODULE.test(parts.at(-1)!)) return null;
  let i = parts.length - 1;
  while (i > 0 && lstatOrNull(join(cwd, ...parts.slice(0, i), '__init__.py'))?.isFile()) i--;
  const top = stem(parts[i]);
  if (!names.python.has(top)) return null;
  return `a Python module ${top} at the head of its folder, imported in place of the ${PYTHON_STDLIB.has(top) ? 'standard library' : 'installed'} module ${top}`;
}

/**
 * A JavaScript module named like a package or builtin where a resolver looks for it by that name:
 * at the repository root (a baseUrl of ".", jest's rootDir), below the folders agent.may_change
 * names (the packages package.json depends on), and in a `__mocks__` folder (jest takes it for that package).
 */
function nodeShadow(parts: string[], bases: string[], names: ShadowNames): string | null {
  if (!JS_MODULE.test(parts.at(-1)!)) return null;
  const taken = (i: number, set: ReadonlySet<string>) => {
    const name = parts[i].startsWith('@') && i + 1 < parts.length ? `${parts[i]}/${stem(parts[i + 1])}` : parts[i];
    return [name, stem(name), name.replace(/\.[^.]+$/, '')].find((n) => set.has(n)) ?? null;
  };
  const mocks = parts.lastIndexOf('__mocks__');
  const mocked = mocks >= 0 && mocks < parts.length - 1 ? (taken(mocks + 1, names.nodeRoot) ?? taken(mocks + 1, names.nodeDeps)) : null;
  if (mocked) return `a mock of the package ${mocked}, which jest takes in its place`;
  const atRoot = parts.length > 0 ? (taken(0, names.nodeRoot) ?? taken(0, names.nodeDeps)) : null;
  if (atRoot) return `a module ${atRoot} at the repository root, resolved in place of the package or builtin ${atRoot}`;
  for (const base of bases) {
    const depth = base.split('/').length;
    if (parts.slice(0, depth).join('/') !== base || parts.length <= depth) continue;
    const below = taken(depth, names.nodeDeps);
    if (below) return `a module ${below} at the head of ${base}, resolved in place of the package ${below}`;
  }
  return null;
}

const cache = new Map<string, Promise<ShadowNames>>();

/**
 * The names taken, read once per run: Python's standard library (shipped as data) with the modules
 * the loop's own python3 can import (`python3 -I`, run from `/`: nothing of the work tree on its path;
 * the check workspace's interpreter may have more), Node's builtins, the packages of the work tree's
 * node_modules and those package.json depends on.
 */
export function shadowNames(cwd: string, runner: ProcessRunner): Promise<ShadowNames> {
  let got = cache.get(cwd);
  if (!got) {
    got = readShadowNames(cwd, runner);
    cache.set(cwd, got);
  }
  return got;
}

async function readShadowNames(cwd: string, runner: ProcessRunner): Promise<ShadowNames> {
  const installed = await runner
    .run({
      command: 'python3',
      args: ['-I', '-c', 'import pkgutil\nfor m in pkgutil.iter_modules(): print(m.name)'],
      cwd: '/',
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      timeoutMs: 20_000,
    })
    .then(
      (r) => (r.exitCode === 0 ? r.stdout.split('\n').filter((n) => /^[A-Za-z_]\w*$/.test(n)) : []),
      () => [],
    );
  const nodeModules = listPackages(join(cwd, 'node_modules'));
  const builtins = builtinModules.flatMap((m) => [m, m.replace(/^node:/, '')]).filter((m) => !m.includes('/'));
  return {
    python: new Set([...PYTHON_STDLIB, ...installed]),
    nodeRoot: new Set([...builtins, ...nodeModules]),
    nodeDeps: new Set(await dependencies(cwd)),
  };
}

/** The package names of a node_modules folder (a scope's packages as `@scope/name`); none when there is none. */
function listPackages(dir: string): string[] {
  // Never listed through a link (the loop is root; a link could name any folder).
  const read = (d: string) => {
    if (!lstatOrNull(d)?.isDirectory()) return [];
    try {
      return readdirSync(d).filter((n) => !n.startsWith('.'));
    } catch {
      return [];
    }
  };
  return read(dir).flatMap((n) => (n.startsWith('@') ? read(join(dir, n)).map((m) => `${n}/${m}`) : [n]));
}

/** Every package package.json depends on, of any kind; none when it is absent or unreadable. */
async function dependencies(cwd: string): Promise<string[]> {
  try {
    const pkg = JSON.parse((await readRegularIn(cwd, 'package.json'))?.toString('utf8') ?? '{}') as Record<string, unknown>;
    return ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies', 'overrides'].flatMap((k) =>
      pkg[k] && typeof pkg[k] === 'object' ? Object.keys(pkg[k]) : [],
    );
  } catch {
    return [];
  }
}
