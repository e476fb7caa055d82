// Canonical JSON (sorted keys, two-space indent, LF, trailing newline) and sha256, so the same
// evidence always yields the same bytes and the same hashes.
import { createHash } from 'node:crypto';

export function canonicalize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonicalize);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = canonicalize(v);
    }
    return out;
  }
  if (typeof value === 'number' && !Number.isInteger(value)) {
    throw new Error(`non-integer number ${value} in canonical JSON: use a Decimal string`);
  }
  return value;
}

export function canonicalJson(value: unknown): string {
  return JSON.stringify(canonicalize(value), null, 2) + '\n';
}

export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** `value`, deeply frozen: a record that never changes again (its canonical text may then be reused). */
export function frozen<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) frozen(v);
    Object.freeze(value);
  }
  return value;
}

/** Canonical text of frozen array elements, as they stand in a top-level array (indented four spaces). */
const elementTexts = new WeakMap<object, string>();

const indented = (text: string, pad: string) => pad + text.replaceAll('\n', `\n${pad}`);

/**
 * canonicalJson(value) of an object whose arrays grow by frozen records (the loop's state: a row and
 * a cycle an iteration): each frozen record is canonicalized once, so writing the document costs the
 * loop's thread no more per iteration at iteration 200 than at iteration 1. The same bytes.
 */
export function canonicalJsonOfRecords(value: Record<string, unknown>): string {
  const members: string[] = [];
  for (const key of Object.keys(value).sort()) {
    const v = value[key];
    if (v === undefined) continue;
    let text: string;
    if (Array.isArray(v) && v.some((e) => e && typeof e === 'object' && Object.isFrozen(e))) {
      const elements = v.map((e: unknown) => {
        if (!e || typeof e !== 'object' || !Object.isFrozen(e)) return indented(JSON.stringify(canonicalize(e), null, 2) ?? 'null', '    ');
        let t = elementTexts.get(e);
        if (t === undefined) elementTexts.set(e, (t = indented(JSON.stringify(canonicalize(e), null, 2), '    ')));
        return t;
      });
      text = `[\n${elements.join(',\n')}\n  ]`;
    } else {
      const json = JSON.stringify(canonicalize(v), null, 2) as string | undefined;
      if (json === undefined) continue;
      text = json.replaceAll('\n', '\n  ');
    }
    members.push(`  ${JSON.stringify(key)}: ${text}`);
  }
  return members.length ? `{\n${members.join(',\n')}\n}\n` : '{}\n';
}
