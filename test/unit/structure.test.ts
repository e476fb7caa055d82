// The house rules of the source (issue 33, "one room per rule"): no file over 400 lines, no import
// circle (type imports and lazy imports included), no engine module importing from a folder above
// its own, and ARCHITECTURE.md's folder map true to the tree (every engine file named in its
// folder's section, no file named there or in the docs that does not exist).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { ROOT } from '../helpers/repo.js';

const SRC = join(ROOT, 'src');
const ENGINE = join(SRC, 'engine');
/** The engine's folders, lowest first: a module may import from its own folder and those before it. */
const LAYERS = ['common', 'os', 'store', 'config', 'run', 'agent', 'judge', 'memory', 'evidence', 'loop'];

const walk = (dir: string): string[] =>
  readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? walk(p) : p.endsWith('.ts') ? [p] : [];
  });
const FILES = walk(SRC);
const text = new Map(FILES.map((f) => [f, readFileSync(f, 'utf8')]));

/** The modules of src/ a file imports (static, type-only, re-exports and lazy `import()`). */
const importsOf = (file: string): string[] =>
  ts
    .preProcessFile(text.get(file)!, true, true)
    .importedFiles.map((i) => i.fileName)
    .filter((s) => s.startsWith('.'))
    .map((s) => resolve(dirname(file), s.replace(/\.js$/, '.ts')))
    .filter((t) => text.has(t));
const rel = (f: string) => relative(SRC, f);

test('no source file is over 400 lines', () => {
  const long = FILES.map((f) => [rel(f), text.get(f)!.split('\n').length - 1] as const).filter(([, n]) => n > 400);
  expect(long).toEqual([]);
});

test('no import circle among the source modules, type and lazy imports included', () => {
  // Tarjan's strongly connected components: any with more than one module is a circle.
  const edges = new Map(FILES.map((f) => [f, importsOf(f)]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v)!) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(rel(w));
    } while (w !== v);
    if (component.length > 1) circles.push(component.sort());
  };
  for (const f of FILES) if (!index.has(f)) visit(f);
  expect(circles).toEqual([]);
});

test('no engine module imports from a folder above its own (common < os < store < config < run < agent < judge < memory < evidence < loop)', () => {
  const layer = (f: string) => LAYERS.indexOf(relative(ENGINE, f).split('/')[0]);
  const engine = FILES.filter((f) => f.startsWith(ENGINE + '/') && layer(f) >= 0);
  expect(engine.length).toBeGreaterThan(100);
  const upward = engine.flatMap((f) =>
    importsOf(f)
      .filter((t) => layer(t) > layer(f))
      .map((t) => `${rel(f)} -> ${rel(t)}`),
  );
  expect(upward).toEqual([]);
  // Every engine folder has its place in the order (a new one must be given one).
  const folders = new Set(engine.map((f) => relative(ENGINE, f).split('/')[0]));
  expect(readdirSync(ENGINE).filter((n) => statSync(join(ENGINE, n)).isDirectory() && !folders.has(n))).toEqual([]);
});

describe("ARCHITECTURE.md's folder map", () => {
  const map = readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8');
  /** The text of a folder's section: from its bold heading to the next one. */
  const section = (folder: string) => {
    const start = map.indexOf(`**\`${folder}/\`**`);
    if (start < 0) return null;
    const next = map.indexOf('\n**`', start + 1);
    return map.slice(start, next < 0 ? undefined : next);
  };

  test.each(LAYERS)('names every file of %s/ in its section, and only files that exist there', (folder) => {
    const body = section(folder);
    expect(body).not.toBeNull();
    const files = readdirSync(join(ENGINE, folder)).filter((n) => n.endsWith('.ts'));
    expect(files.filter((n) => !body!.includes(`\`${n}\``))).toEqual([]);
    // The files a table row is about (its first cell) exist in the folder.
    const rows = [...body!.matchAll(/^\| ([^|]+) \|/gm)].flatMap((m) => [...m[1].matchAll(/`([\w.-]+\.ts)`/g)].map((x) => x[1]));
    expect(rows.filter((n) => !files.includes(n))).toEqual([]);
  });

  test('every engine path ARCHITECTURE.md, the README and docs/ name exists', () => {
    const docs = [join(ROOT, 'ARCHITECTURE.md'), join(ROOT, 'README.md'), ...readdirSync(join(ROOT, 'docs')).map((n) => join(ROOT, 'docs', n))];
    const named = docs.flatMap((d) =>
      [...readFileSync(d, 'utf8').matchAll(new RegExp(`\\b(?:${LAYERS.join('|')})/[\\w-]+\\.ts\\b`, 'g'))].map((m) => ({ doc: relative(ROOT, d), path: m[0] })),
    );
    expect(named.length).toBeGreaterThan(20);
    expect(named.filter((n) => !text.has(join(ENGINE, n.path)))).toEqual([]);
    // `file.ts#name`: the name is in that file.
    const anchors = docs.flatMap((d) =>
      [...readFileSync(d, 'utf8').matchAll(new RegExp(`\\b((?:${LAYERS.join('|')})/[\\w-]+\\.ts)#(\\w+)`, 'g'))].map((m) => ({
        doc: relative(ROOT, d),
        path: m[1],
        name: m[2],
      })),
    );
    expect(anchors.length).toBeGreaterThan(5);
    expect(anchors.filter((a) => !new RegExp(`\\b${a.name}\\b`).test(text.get(join(ENGINE, a.path)) ?? ''))).toEqual([]);
  });
});
