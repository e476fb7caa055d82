import { test } from 'node:test';
import assert from 'node:assert/strict';
import { div } from '../src/calc.js';

test('div', () => {
  assert.equal(div(6, 3), 2);
  assert.throws(() => div(1, 0), /division by zero/);
});
