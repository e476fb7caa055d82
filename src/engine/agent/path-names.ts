// Names the agent chose: as git quotes them (bytes that are not UTF-8), as a line of the console may
// show them, and as the protected globs judge them.
import picomatch from 'picomatch';

/** Whether git printed `path` with bytes that are not UTF-8 (each read as U+FFFD: no file has that name). */
export const notUtf8 = (path: string) => path.includes('\ufffd');

/** The bytes of a name git quoted (`"leak/bad\\377name"`: C escapes, octal bytes); the name itself when not quoted. */
export function unquoteGitPath(quoted: string): Buffer {
  if (!quoted.startsWith('"') || !quoted.endsWith('"') || quoted.length < 2) return Buffer.from(quoted);
  const ESC: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };
  const out: number[] = [];
  const body = quoted.slice(1, -1);
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c !== '\\') {
      out.push(...Buffer.from(c));
      continue;
    }
    const octal = /^[0-3][0-7]{2}/.exec(body.slice(i + 1, i + 4));
    if (octal) {
      out.push(parseInt(octal[0], 8));
      i += 3;
    } else out.push(ESC[body[++i]] ?? body.charCodeAt(i));
  }
  return Buffer.from(out);
}

/**
 * A path as a line of the console may show it: control characters, line separators, the marks that
 * reorder text (bidi controls) and U+FFFD (a byte that is not UTF-8) as `\\u{…}` escapes, a backslash doubled.
 */
export function printablePath(path: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what this replaces
  return path.replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ufffd\\]/g, (c) =>
    c === '\\' ? '\\\\' : `\\u{${c.charCodeAt(0).toString(16)}}`,
  );
}

/**
 * A name the glob matcher cannot judge (control characters, line separators, bytes that are not
 * UTF-8) is taken as protected: a violation, never a pass.
 */
// The plan's globs, compiled once a run rather than once an iteration.
const matchers = new WeakMap<string[], (path: string) => boolean>();

export function protectedMatcher(globs: string[]): (path: string) => boolean {
  let matcher = matchers.get(globs);
  if (!matcher) {
    const m = picomatch(globs, { dot: true });
    // eslint-disable-next-line no-control-regex -- control characters in a path are what this test looks for
    matcher = (p) => /[\u0000-\u001f\u007f\u2028\u2029\ufffd]/.test(p) || m(p);
    matchers.set(globs, matcher);
  }
  return matcher;
}
