// jest's and vitest's copies of the tests that failed (judge/shadow.ts). Code under test that the
// test file imports can make `expect(…).toBe` let the failing (received, expected) pairs through —
// `expect.extend` over jest's matchers or vitest's, chai's Assertion methods overwritten, the global
// `expect` swapped for a wrapper — and each test file is its own module graph, so a copy in a file
// of its own is patched the same way as it loads. So the copy's file imports a loop-owned prelude
// first, before the test file's own imports and so before any module of the project: it keeps
// `expect` and the matchers as they are then (jest's matcher table, chai's Assertion prototype
// under vitest) under a name random per run. The copy restores them before it runs the original's
// callback, given that `expect` by a parameter of the same name (the file's `expect`, global or
// imported, is shadowed in its text). A jest callback that takes `done` gets one (the copy's own
// callback declares no parameter: jest would pass it none).
/** A builtin module in code appended to an ES module or a CommonJS one alike: without an import or a name of its own. */
export const builtin = (m: string) => `(globalThis.process.getBuiltinModule?.('node:${m}') ?? require('node:${m}'))`;

/** The function a JS test file declares its tests with, as the canary and the copies call it: `test` where it uses it, else `it`. */
export const jsTestCall = (text: string): 'test' | 'it' => (/(?:^|[^.\w$])test(?:\.each)?\s*\(/m.test(text) ? 'test' : 'it');

/** The statement that loads the prelude `file` (a name in the copy's folder), in the module syntax the test file uses. */
export const preludeLoad = (text: string, file: string): string =>
  /^\s*(?:import|export)\b/m.test(text) ? `import './${file}';\n` : `require('./${file}');\n`;

/**
 * The prelude's text: no module syntax (it loads as ES module or CommonJS alike), and global
 * names only (the test file's globals are set before it loads).
 */
export function preludeText(key: string): string {
  return `// phuc-loop: expect and its matchers kept before the code under test loads (judge/shadow-js.ts).
(() => {
  const g = globalThis;
  const vitest = g[Symbol.for('expect-global')];
  const expect = g.expect ?? vitest;
  const kept = [];
  const keep = (o) => {
    if (o && (typeof o === 'object' || typeof o === 'function')) kept.push([o, Object.getOwnPropertyDescriptors(o)]);
  };
  keep(g[Symbol.for('$$jest-matchers-object')]?.matchers);
  if (vitest) keep(Object.getPrototypeOf(vitest(0)));
  const restore = () => {
    for (const [o, d] of kept) for (const k of Reflect.ownKeys(d)) Object.defineProperty(o, k, d[k]);
  };
  Object.defineProperty(g, ${JSON.stringify(key)}, { value: { expect, restore } });
})();
`;
}

/** The copy of a test whose callback is `call`, declared with `via` (`test`/`it`): it notes `s<n>` and `d<n>` in `log`. */
export function jsCopy(o: { via: string; call: string; log: string; n: number; key: string; token: string }): string {
  const at = JSON.stringify(o.log);
  const kept = `globalThis[${JSON.stringify(o.key)}]`;
  return `;${o.via}('${o.token}', async (...a) => {
  ${builtin('fs')}.appendFileSync(${at}, 's${o.n}\\n');
  ${kept}?.restore();
  const fn = ((expect) => (${o.call}\n))(${kept}?.expect ?? (typeof expect === 'undefined' ? undefined : expect));
  await (fn.length && !a.length ? new Promise((pass, fail) => fn(Object.assign((e) => (e ? fail(e) : pass()), { fail }))) : fn(...a));
  ${builtin('fs')}.appendFileSync(${at}, 'd${o.n}\\n');
});
`;
}
