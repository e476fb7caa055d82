// Names the agent chose, as git quotes them and as the console shows them (agent/agent-step.ts).
import { printablePath, unquoteGitPath } from '../../src/engine/agent/path-names.js';

test("unquoteGitPath: git's C-quoted names (octal bytes, one-letter escapes) back to their bytes; an unquoted name as it is", () => {
  expect(unquoteGitPath('"leak/bad\\377name"')).toEqual(Buffer.from([...Buffer.from('leak/bad'), 0xff, ...Buffer.from('name')]));
  expect(unquoteGitPath('"a\\tb\\n\\"c\\\\d"')).toEqual(Buffer.from('a\tb\n"c\\d'));
  expect(unquoteGitPath('"w\\303\\266rd"').toString('utf8')).toBe('wörd');
  expect(unquoteGitPath('src/plain.txt')).toEqual(Buffer.from('src/plain.txt'));
});

test('printablePath: control characters, bidi marks and U+FFFD escaped, a backslash doubled; anything else as it is', () => {
  expect(printablePath('leak/bad\ufffdname')).toBe('leak/bad\\u{fffd}name');
  expect(printablePath('a\u001b[31mred\nb\u202ec')).toBe('a\\u{1b}[31mred\\u{a}b\\u{202e}c');
  expect(printablePath('a\\b')).toBe('a\\\\b');
  expect(printablePath('src/wörd 名前.txt')).toBe('src/wörd 名前.txt');
});
