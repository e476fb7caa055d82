// allow-list.ts: what agent.may_change lets through, and what it refuses even inside the allowed paths.
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { allowList, type ShadowNames } from '../../src/engine/agent/allow-list.js';
import { PYTHON_STDLIB } from '../../src/engine/agent/python-stdlib.js';

const NAMES: ShadowNames = {
  python: new Set([...PYTHON_STDLIB, 'iniconfig']),
  nodeRoot: new Set(['fs', 'util', 'chai', 'debug']),
  nodeDeps: new Set(['chai']),
};

async function tree(files: string[]): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'phuc-allow-'));
  for (const f of files) {
    await mkdir(dirname(join(dir, f)), { recursive: true });
    await writeFile(join(dir, f), '');
  }
  return dir;
}

test('a path outside the globs, or one the matcher cannot judge, is not allowed', async () => {
  const a = allowList(['src/**', 'calc.py'], await tree([]), NAMES);
  expect(a.refusal('src/a/b.ts', true)).toBeNull();
  expect(a.refusal('calc.py', false)).toBeNull();
  for (const p of ['package.json', 'scripts/test.sh', 'lib/assert.mjs', 'srcx/a.ts', 'src/a\nb.ts'])
    expect(a.refusal(p, false)).toEqual({ why: 'not-allowed', detail: 'not under agent.may_change' });
});

test('Python: a new module at the head of its import folder named like the standard library or an installed package is refused', async () => {
  const files = ['argparse.py', 'src/iniconfig.py', 'src/json/__init__.py', 'src/pkg/__init__.py', 'src/pkg/types.py', 'src/ns/json.py', 'calendar.ts'];
  const cwd = await tree(files);
  const a = allowList(['**'], cwd, NAMES);
  expect(a.refusal('argparse.py', true)?.detail).toMatch(/argparse .*standard library module argparse/);
  expect(a.refusal('src/iniconfig.py', true)?.detail).toMatch(/installed module iniconfig/);
  expect(a.refusal('src/json/__init__.py', true)?.why).toBe('shadow');
  // Inside a package it is pkg.types, which shadows nothing; a namespace folder (no __init__.py) may be on the path.
  expect(a.refusal('src/pkg/types.py', true)).toBeNull();
  expect(a.refusal('src/ns/json.py', true)?.why).toBe('shadow');
  // Not a Python module; and a module the user's HEAD already had is theirs.
  expect(a.refusal('calendar.ts', true)).toBeNull();
  expect(a.refusal('argparse.py', false)).toBeNull();
});

test('Python packaging and start-up hooks are refused wherever they are, new or not', async () => {
  const a = allowList(['**'], await tree(['src/x-1.0.dist-info/entry_points.txt', 'src/a.pth', 'src/sitecustomize.py', 'y.egg-info/PKG-INFO']), NAMES);
  for (const p of ['src/x-1.0.dist-info/entry_points.txt', 'src/a.pth', 'src/sitecustomize.py', 'y.egg-info/PKG-INFO'])
    expect(a.refusal(p, false)).toEqual({ why: 'shadow', detail: 'Python runs it at start-up or takes it for an installed package' });
});

test('Node: a package or builtin at the root, a dependency at the head of an allowed folder, a jest mock of a package', async () => {
  const files = ['fs.js', 'chai/index.js', 'src/chai.ts', 'src/util.ts', 'src/debug.ts', 'src/__mocks__/chai.js', 'src/lib/chai.ts', 'util.md'];
  const a = allowList(['**'], await tree(files), NAMES);
  const b = allowList(['src/**'], await tree(files), NAMES);
  expect(a.refusal('fs.js', true)?.detail).toMatch(/module fs at the repository root/);
  expect(a.refusal('chai/index.js', true)?.why).toBe('shadow');
  expect(b.refusal('src/chai.ts', true)?.detail).toMatch(/module chai at the head of src/);
  expect(b.refusal('src/__mocks__/chai.js', true)?.detail).toMatch(/mock of the package chai/);
  // Common source names that only a builtin or a transitive package has: a resolver takes those first.
  expect(b.refusal('src/util.ts', true)).toBeNull();
  expect(b.refusal('src/debug.ts', true)).toBeNull();
  expect(b.refusal('src/lib/chai.ts', true)).toBeNull();
  expect(a.refusal('util.md', true)).toBeNull();
});
