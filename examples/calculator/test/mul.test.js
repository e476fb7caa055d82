import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mul } from '../src/calc.js';

test('mul', () => {
  assert.equal(mul(2, 3), 6);
  assert.equal(mul(0, 7), 0);
});
