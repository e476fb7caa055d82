// The forms a secret value takes in a text (SPEC §7 "Secrets"): as it is, escaped for JSON, a URL
// or a shell, and packed (hex, base64 at each alignment, UTF-16), which the scrubber (scrubber.ts)
// looks for.

/** Shorter values are not credentials; masking them would garble ordinary text. */
export const MIN_LOOP_SECRET = 4;

export const MASK = '***';
/** A base64 fragment shorter than this would match ordinary base64 text by chance. */
const MIN_FRAGMENT = 8;

const toBase64Url = (b64: string) => b64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/**
 * The base64 texts that carry `bytes` wherever they sit in an encoded stream: at each of the three
 * byte alignments, the characters fully determined by the secret (the ones sharing bits with its
 * neighbours are left out), and the tail to the end of the stream with and without padding.
 */
function base64Forms(bytes: Buffer): string[] {
  const forms: string[] = [];
  for (const shift of [0, 1, 2]) {
    const enc = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
    const start = Math.ceil((8 * shift) / 6);
    const end = Math.floor((8 * (shift + bytes.length)) / 6);
    const tail = enc.slice(start);
    for (const f of [enc.slice(start, end), tail, tail.replace(/=+$/, '')]) {
      if (f.length < MIN_FRAGMENT) continue;
      forms.push(f, toBase64Url(f));
    }
  }
  return forms;
}

/**
 * The packed forms of a secret: hex (lower or upper case) and base64 (see base64Forms). A tool wraps
 * these at any width (`base64` at 76, `xxd -p` at 60, `od` in groups), so they are also looked for
 * with whitespace removed.
 */
export function packedForms(secret: string): string[] {
  if (secret.length < MIN_LOOP_SECRET) return [];
  const bytes = Buffer.from(secret, 'utf8');
  const hex = bytes.toString('hex');
  return [hex, hex.toUpperCase(), ...base64Forms(bytes)];
}

const lowerHexEscapes = (s: string) => s.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());
const jsonAscii = (s: string) => s.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * The texts a tool may print a secret as: plain, base64 (three alignments, padded or not, base64url),
 * hex (lower or upper case), URL-encoded (upper/lower hex, form encoding), JSON-escaped (also with
 * `\/` and `\uXXXX`); and the plain text upper-cased, lower-cased or reversed. The scrubber also
 * finds them interrupted by whitespace (hex and base64) or written with escapes (see escapeAt). This
 * catches a secret a tool prints by accident, not one an agent hides on purpose (any other encoding
 * passes): the key proxy is what keeps the key from the agent. Empty for a value too short to be a secret.
 */
export function secretForms(secret: string): string[] {
  if (secret.length < MIN_LOOP_SECRET) return [];
  const forms = new Set<string>([secret, ...packedForms(secret), secret.toUpperCase(), secret.toLowerCase(), Array.from(secret).reverse().join('')]);
  const url = encodeURIComponent(secret);
  for (const f of [url, lowerHexEscapes(url), encodeURI(secret), new URLSearchParams({ v: secret }).toString().slice(2)]) forms.add(f);
  const json = JSON.stringify(secret).slice(1, -1);
  forms.add(json);
  forms.add(jsonAscii(json));
  for (const f of [...forms]) if (f.includes('/')) forms.add(f.replace(/\//g, '\\/'));
  return [...forms].sort((a, b) => b.length - a.length);
}

/**
 * A secret of ASCII characters as UTF-16 (little and big endian: a Windows tool's output, PowerShell),
 * written as text of one character per byte. Not among secretForms: no log masks a NUL.
 */
export function utf16Forms(secret: string): string[] {
  // eslint-disable-next-line no-control-regex -- ASCII is what this test looks for
  if (secret.length < MIN_LOOP_SECRET || !/^[\u0000-\u007f]+$/.test(secret)) return [];
  return [Array.from(secret, (c) => `${c}\0`).join(''), Array.from(secret, (c) => `\0${c}`).join('')];
}

/** One regex of every form, longest first (so at any position the longest form matching there wins). */
export function formsPattern(forms: readonly string[]): RegExp | null {
  if (forms.length === 0) return null;
  return new RegExp(
    [...new Set(forms)]
      .sort((a, b) => b.length - a.length)
      .map((f) => f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('|'),
    'g',
  );
}
