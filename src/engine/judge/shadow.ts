// Loop-owned copies of the tests that failed earlier in the run (judge/canary.ts, SPEC §7): the tests
// the agent is motivated to subvert, since its prompt names them. Code under test that silences
// exactly those tests — by name (a module whose attribute lookup hands pytest a no-op, a Go test
// binary re-run without them) or by their values (an assertion library that lets the failing
// (actual, expected) pairs through: sealed for the canary run, judge/seal.ts) — silences the
// original only: the copy runs under a random name, as random as the canary's, beside a canary in
// the same file, and reports whether it ran to its end. A copy of a test the round reports passing
// that fails, or that does not run while the canary beside it ran, says the round's pass is not
// the test's: RUNNER_COMPROMISED.
//
// The copy runs the original's own body, never a rewrite: pytest's and Go's copy calls the test's
// function object (by the module's dictionary, by the package's name: not through the attribute
// lookup the code under test can intercept; a method of a test class, in a subclass that hides the
// other tests it inherits); unittest's runs the test's method in a subclass with
// unittest's own assertions restored (judge/shadow-unittest.ts); node:test's calls the test's own callback, its text
// taken from the test file (a top-level `test(…)`/`it(…)` with the name as a literal) and appended
// to a copy of that file, so its imports and helpers are the file's own. Only top-level tests (and
// pytest's and unittest's methods of top-level classes) are copied (a nested one's closure is not the file's), and a test whose declaration the loop cannot
// find is said to be not copied, never guessed at.
import { randomBytes } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { z } from 'zod';
import { lstatOrNull, readRegular } from '../os/tree-file.js';
import { builtin, jsCopy, jsTestCall, preludeLoad, preludeText } from './shadow-js.js';
import { declaresMethod, unittestHelper, unittestName } from './shadow-unittest.js';

/** The runners whose failing tests the loop copies. */
export const SHADOW_RUNNERS = ['pytest', 'unittest', 'go test', 'node:test', 'jest', 'vitest'] as const;
type ShadowRunner = (typeof SHADOW_RUNNERS)[number];
const isShadowRunner = (r: string | null): r is ShadowRunner => (SHADOW_RUNNERS as readonly string[]).includes(r ?? '');

/** What a copy did in the canary run: ran to its end (`passed`), started and did not end (`failed`), never started. */
export const copyOutcomeSchema = z.object({ test: z.string(), outcome: z.enum(['passed', 'failed', 'not_run']) });
export type CopyOutcome = z.infer<typeof copyOutcomeSchema>;

// eslint-disable-next-line no-control-regex -- an ANSI colour sequence starts with ESC
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;

/**
 * The names of the failing tests a runner's output gives (pytest's summary lines, Go's `--- FAIL:`,
 * node:test's TAP `not ok` and spec `✖` lines); a parametrised test by its function's name, a
 * pytest method as `Class::name`, a Go subtest by its test.
 */
export function failingNames(runner: string | null, log: string): string[] {
  if (!isShadowRunner(runner)) return [];
  const text = log.replace(ANSI, '');
  const found: string[] = [];
  const all = (re: RegExp, f: (m: RegExpExecArray) => string | null) => {
    for (const m of text.matchAll(re)) {
      const name = f(m);
      if (name) found.push(name);
    }
  };
  if (runner === 'pytest') all(/^(?:FAILED|ERROR) [^\s:]+::([A-Za-z_][\w:]*)(?:\[[^\n]*?\])?(?: - |$)/gm, (m) => m[1]);
  if (runner === 'unittest') all(/^(?:FAIL|ERROR): (test\w*) \(([\w.]+)\)/gm, (m) => unittestName(m[1], m[2]));
  if (runner === 'go test') all(/^\s*--- FAIL: (Test\w*)[\s/]/gm, (m) => m[1]);
  // jest's `● name` headers, vitest's `FAIL  file > name` lines (a nested test's name has ` › `, ` > `: not copied).
  if (runner === 'jest') all(/^\s*● (.+?)\s*$/gm, (m) => (m[1] === 'Test suite failed to run' ? null : m[1]));
  if (runner === 'vitest') all(/^\s*FAIL\s+\S+ > (.+?)\s*$/gm, (m) => m[1]);
  if (runner === 'node:test') {
    all(/^\s*not ok \d+ - (.+?)(?: # .*)?$/gm, (m) => m[1].replace(/\\(.)/g, '$1'));
    all(/^\s*✖ (.+?) \([\d.]+m?s\)$/gm, (m) => m[1]);
  }
  return [...new Set(found)];
}

/** Where a test is declared in a file's text (null: not at the top level there), and what its copy calls. */
function declared(runner: ShadowRunner, text: string, name: string): string | null {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  if (runner === 'pytest' && name.includes('::')) return declaresMethod(text, name.replace('::', '.')) ? name : null;
  if (runner === 'pytest') return new RegExp(`^def ${escaped}\\s*\\(`, 'm').test(text) ? name : null;
  if (runner === 'unittest') return declaresMethod(text, name) ? name : null;
  if (runner === 'go test') return new RegExp(`^func ${escaped}\\s*\\(\\s*\\w+\\s+\\*testing\\.T\\s*\\)`, 'm').test(text) ? name : null;
  return jsTestFunction(text, name);
}

/** The canary run's copies: the files written, where each file's canary leaves its mark, and each copy's file. */
export interface Shadows {
  files: string[];
  marks: string[];
  log: string;
  copies: { test: string; file: number }[];
}

/**
 * Writes the copies of `names` (tests that failed earlier in the run) into the workspace: per test
 * file declaring some, a file beside it with a canary (from `canary`, as the criterion's canary is
 * made) and the copies. `not copied` tells the names no declaration was found for.
 */
export async function writeShadows(
  runner: string | null,
  names: readonly string[],
  c: {
    cwd: string;
    testFiles: readonly string[];
    /** The name under which the run's seal keeps the assertions as they were before the code under test loaded (judge/seal.ts). */
    key: string;
    canary: (mark: string, sibling: string, file: string) => Promise<Buffer>;
  },
): Promise<{ shadows: Shadows; notCopied: string[] } | null> {
  if (!isShadowRunner(runner) || names.length === 0) return null;
  const shadows: Shadows = { files: [], marks: [], log: join(c.cwd, `.${hex()}`), copies: [] };
  const left = new Set(names);
  for (const rel of c.testFiles) {
    const own = (await readRegular(join(c.cwd, rel), 1024 * 1024))?.toString('utf8');
    if (own === undefined) continue;
    const here = names.flatMap((test) => {
      const call = declared(runner, own, test);
      return call === null ? [] : [{ test, call }];
    });
    if (here.length === 0 || !lstatOrNull(join(c.cwd, dirname(rel)))?.isDirectory()) continue;
    const k = shadows.files.length;
    const helper = `x${hex()}`;
    const mark = join(c.cwd, dirname(rel), `.${hex()}`);
    const file = join(c.cwd, dirname(rel), fileName(runner, rel));
    const copies = here.map(({ test, call }, i) => {
      shadows.copies.push({ test, file: k });
      left.delete(test);
      return copyText(runner, call, { log: shadows.log, n: shadows.copies.length - 1, helper, first: i === 0, key: c.key, via: jsTestCall(own) });
    });
    shadows.files.push(file);
    shadows.marks.push(mark);
    // A Go file's build constraints are its copies' too: they call tests built only under them.
    const constraints = runner === 'go test' ? [...own.matchAll(/^\/\/(?:go:build|\s*\+build)\s.*\n/gm)].map((m) => m[0]).join('') : '';
    const head = Buffer.from(constraints ? `${constraints}\n` : '');
    const canary = await c.canary(mark, join(c.cwd, rel), file);
    await writeFile(file, Buffer.concat([head, await prelude(runner, c.key, canary, file, shadows), Buffer.from(copies.join(''))]), {
      flag: 'wx',
      mode: 0o644,
    });
  }
  return { shadows, notCopied: [...left] };
}

/**
 * The copy's file as the canary made it, with jest's and vitest's prelude (judge/shadow-js.ts)
 * written beside it and loaded first: after a first comment line (`// @ts-nocheck`, which must stay
 * first), before the test file's own imports.
 */
async function prelude(runner: ShadowRunner, key: string, canary: Buffer, file: string, shadows: Shadows): Promise<Buffer> {
  if (runner !== 'jest' && runner !== 'vitest') return canary;
  const name = `.${hex()}.js`;
  const at = join(dirname(file), name);
  shadows.files.push(at);
  await writeFile(at, preludeText(key), { flag: 'wx', mode: 0o644 });
  const text = canary.toString('utf8');
  const first = Buffer.byteLength(/^(?:\/\/|#!)[^\n]*\n/.exec(text)?.[0] ?? '');
  return Buffer.concat([canary.subarray(0, first), Buffer.from(preludeLoad(text, name)), canary.subarray(first)]);
}

/** Each copy's outcome, and whether the canary beside it ran (a copy that did not run beside it was kept from running). */
export async function readShadows(s: Shadows): Promise<(CopyOutcome & { besideRan: boolean })[]> {
  const lines = (await readFile(s.log, 'utf8').catch(() => '')).split('\n');
  const count = (l: string) => lines.filter((x) => x === l).length;
  return s.copies.map(({ test, file }, n) => {
    const started = count(`s${n}`);
    const outcome = started === 0 ? 'not_run' : started > count(`d${n}`) ? 'failed' : 'passed';
    return { test, outcome, besideRan: lstatOrNull(s.marks[file]) !== null };
  });
}

/** Whether a canary in a copy's file ran. */
export const shadowCanaryRan = (s: Shadows | undefined): boolean => s?.marks.some((m) => lstatOrNull(m) !== null) === true;

export async function removeShadows(s: Shadows): Promise<void> {
  await Promise.all([...s.files, ...s.marks, s.log].map((f) => rm(f, { force: true })));
}

const hex = () => randomBytes(6).toString('hex');

function fileName(runner: ShadowRunner, rel: string): string {
  if (runner === 'pytest' || runner === 'unittest') return `test_${hex()}.py`;
  if (runner === 'go test') return `${hex()}_test.go`;
  return `${hex()}${/\.(?:test|spec)\.[cm]?[jt]sx?$/.exec(rel)?.[0] ?? '.test.js'}`;
}

/**
 * The copy of one test, appended after the file's canary: it notes its start and its end in `log`
 * (as `s<n>`, `d<n>`) through the file's `helper`, defined with its first copy.
 */
function copyText(runner: ShadowRunner, call: string, o: { log: string; n: number; helper: string; first: boolean; key: string; via: string }): string {
  const { n, helper, first } = o;
  const at = JSON.stringify(o.log);
  switch (runner) {
    case 'pytest': {
      // functools.wraps: pytest reads the original's signature (its fixtures) and marks (its parameters) through it.
      const wrap = `\n\ndef ${helper}(f, start, end):\n    import functools\n\n    @functools.wraps(f)\n    def copy(*args, **kwargs):\n        with open(${at}, "a") as h:\n            h.write(start)\n        r = f(*args, **kwargs)\n        with open(${at}, "a") as h:\n            h.write(end)\n        return r\n\n    return copy\n`;
      const [cls, method] = call.split('::');
      const copy = hex();
      const wrapped = `${helper}(${method ? `vars(${cls})["${method}"]` : call}, "s${n}\\n", "d${n}\\n")`;
      // A method's copy: a subclass of its class with the tests it inherits hidden, the copy its one test.
      const made = method
        ? `TestX${copy} = type(${cls})("TestX${copy}", (${cls},), {**{m: None for m in dir(${cls}) if m.startswith("test")}, "test_${copy}": ${wrapped}})`
        : `test_${copy} = ${wrapped}`;
      return `${first ? wrap : ''}\n\n${made}\n`;
    }
    case 'unittest': {
      const [cls, method] = call.split('.');
      const copy = hex();
      return `${first ? unittestHelper(helper, at, JSON.stringify(o.key)) : ''}\n\nX${copy} = ${helper}(${cls}, "${method}", "${copy}", "s${n}\\n", "d${n}\\n")\n`;
    }
    case 'go test': {
      const wrap = `\nfunc ${helper}(line string) {\n\tif f, err := os.OpenFile(${at}, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {\n\t\t_, _ = f.WriteString(line)\n\t\t_ = f.Close()\n\t}\n}\n`;
      // t.Cleanup runs after a t.Fatal too: the end is noted only for a test that did not fail.
      const copy = `\nfunc TestX${hex()}(t *testing.T) {\n\t${helper}("s${n}\\n")\n\tt.Cleanup(func() {\n\t\tif !t.Failed() {\n\t\t\t${helper}("d${n}\\n")\n\t\t}\n\t})\n\t${call}(t)\n}\n`;
      return `${first ? wrap : ''}${copy}`;
    }
    case 'jest':
    case 'vitest':
      return jsCopy({ via: o.via, call, log: o.log, n, key: o.key, token: hex() });
    case 'node:test':
      return `;${builtin('test')}.test('${hex()}', async (t) => {\n  ${builtin('fs')}.appendFileSync(${at}, 's${n}\\n');\n  await (${call})(t);\n  ${builtin('fs')}.appendFileSync(${at}, 'd${n}\\n');\n});\n`;
  }
}

/** The index after the string, template literal or comment that starts at `i` (`i` when none does). */
function skipLiteral(t: string, i: number): number {
  const c = t[i];
  if (c === '/' && t[i + 1] === '/') return t.includes('\n', i) ? t.indexOf('\n', i) : t.length;
  if (c === '/' && t[i + 1] === '*') return t.includes('*/', i + 2) ? t.indexOf('*/', i + 2) + 2 : t.length;
  if (c === '"' || c === "'") {
    let j = i + 1;
    while (j < t.length && t[j] !== c && t[j] !== '\n') j += t[j] === '\\' ? 2 : 1;
    return j + 1;
  }
  if (c !== '`') return i;
  let j = i + 1;
  while (j < t.length && t[j] !== '`') j = t[j] === '\\' ? j + 2 : t[j] === '$' && t[j + 1] === '{' ? closing(t, j + 2) + 1 : j + 1;
  return j + 1;
}

/** The index of the bracket that closes the one opened just before `i`, and the top-level commas on the way. */
function closing(t: string, i: number, commas?: number[]): number {
  let depth = 1;
  for (let j = i; j < t.length; j++) {
    const k = skipLiteral(t, j);
    if (k !== j) {
      j = k - 1;
      continue;
    }
    if ('([{'.includes(t[j])) depth++;
    else if (')]}'.includes(t[j]) && --depth === 0) return j;
    else if (t[j] === ',' && depth === 1) commas?.push(j);
  }
  return t.length;
}

/**
 * The function of the top-level `test('<name>', …)` or `it(…)` call in a JS test file (its last
 * argument, checked to parse as an expression), or null. Bracketed code is stepped over whole, so
 * only calls at the file's top level are seen.
 */
function jsTestFunction(t: string, name: string): string | null {
  const call = /(?<![\w$.])(?:test|it)\s*\(/y;
  for (let i = 0; i < t.length; i++) {
    const k = skipLiteral(t, i);
    if (k !== i) {
      i = k - 1;
      continue;
    }
    call.lastIndex = i;
    if (call.test(t)) {
      const commas: number[] = [];
      const open = call.lastIndex;
      const end = closing(t, open, commas);
      const ends = [...commas, end];
      const args = ends.map((to, a) => t.slice(a === 0 ? open : ends[a - 1] + 1, to).trim()).filter((a) => a !== '');
      const literal = /^(['"`])((?:(?!\1)[^\\\n$])*)\1$/.exec(args[0] ?? '');
      if (literal?.[2] === name && args.length >= 2 && parses(args[args.length - 1])) return args[args.length - 1];
      i = end;
    } else if ('([{'.includes(t[i])) i = closing(t, i + 1);
  }
  return null;
}

function parses(expression: string): boolean {
  try {
    new Script(`(${expression}\n)`);
    return true;
  } catch {
    return false;
  }
}
