// Loaded by the runner canary's run (judge/seal.ts) with `--import`, before any module of the
// project: node:assert's exports, the strict ones included, are frozen, so code under test cannot
// make an assertion pass for the values of a failing test (a patched `strictEqual` is silently
// dropped in sloppy code and throws in strict code). node:assert/strict is the same object as
// assert.strict; `require` and `import` give the same exports.
import assert from 'node:assert';

Object.freeze(assert);
Object.freeze(assert.strict);
