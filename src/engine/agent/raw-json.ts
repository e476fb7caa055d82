// JSON scanning that keeps numbers as their source text, so a cost is never rounded through a float:
// the objects an agent CLI prints, found in mixed output (usage.ts reads them).
import { isDecimalString } from '../common/decimal.js';

export class RawNumber {
  constructor(readonly raw: string) {}
}
export type Json = null | boolean | string | RawNumber | Json[] | JsonObject;
export interface JsonObject {
  [key: string]: Json;
}

class JsonSyntax extends Error {}
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const MAX_DEPTH = 256;

function parseJsonAt(text: string, start: number): { value: Json; end: number } | null {
  let i = start;
  const ws = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const str = (): string => {
    // JSON strings hold no raw control characters, so a truncated line fails at its end.
    let j = i + 1;
    while (j < text.length) {
      const c = text.charCodeAt(j);
      if (c === 0x22) break;
      if (c < 0x20) throw new JsonSyntax();
      j += c === 0x5c ? 2 : 1;
    }
    if (j >= text.length) throw new JsonSyntax();
    const s = JSON.parse(text.slice(i, j + 1)) as string;
    i = j + 1;
    return s;
  };
  const value = (depth: number): Json => {
    if (depth > MAX_DEPTH) throw new JsonSyntax();
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const obj = Object.create(null) as JsonObject;
      ws();
      if (text[i] === '}') {
        i++;
        return obj;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') throw new JsonSyntax();
        const key = str();
        ws();
        if (text[i] !== ':') throw new JsonSyntax();
        i++;
        obj[key] = value(depth + 1);
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') {
          i++;
          return obj;
        } else throw new JsonSyntax();
      }
    }
    if (c === '[') {
      i++;
      const arr: Json[] = [];
      ws();
      if (text[i] === ']') {
        i++;
        return arr;
      }
      for (;;) {
        arr.push(value(depth + 1));
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') {
          i++;
          return arr;
        } else throw new JsonSyntax();
      }
    }
    if (c === '"') return str();
    if (text.startsWith('true', i)) return ((i += 4), true);
    if (text.startsWith('false', i)) return ((i += 5), false);
    if (text.startsWith('null', i)) return ((i += 4), null);
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (!m) throw new JsonSyntax();
    i += m[0].length;
    return new RawNumber(m[0]);
  };
  try {
    const v = value(0);
    return { value: v, end: i };
  } catch (e) {
    if (e instanceof JsonSyntax || e instanceof SyntaxError) return null;
    throw e;
  }
}

export const isObject = (v: Json | undefined): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof RawNumber);

/**
 * Every JSON object in mixed output: a whole-output object, JSON lines, a pretty-printed object or
 * an array of objects. Only values that start a line (column 0) are tried, which keeps a long log
 * linear and skips JSON quoted inside other text.
 */
export function jsonObjectsIn(text: string): JsonObject[] {
  const found: JsonObject[] = [];
  let pos = 0;
  if (text.charCodeAt(0) === 0xfeff) pos = 1;
  while (pos < text.length) {
    const c = text[pos];
    if (c === '{' || c === '[') {
      const r = parseJsonAt(text, pos);
      if (r) {
        if (isObject(r.value)) found.push(r.value);
        else if (Array.isArray(r.value)) for (const v of r.value) if (isObject(v)) found.push(v);
        pos = r.end;
      }
    }
    const nl = text.indexOf('\n', pos);
    if (nl < 0) break;
    pos = nl + 1;
  }
  return found;
}

export function decimalText(v: Json | undefined): string | null {
  const raw = v instanceof RawNumber ? v.raw : typeof v === 'string' ? v.trim() : null;
  if (raw === null || !isDecimalString(raw) || raw.startsWith('-')) return null;
  return raw;
}

export function count(v: Json | undefined): number | null {
  if (!(v instanceof RawNumber) || !/^\d+$/.test(v.raw)) return null;
  const n = Number(v.raw);
  return Number.isSafeInteger(n) ? n : null;
}

export const str = (v: Json | undefined): string | null => (typeof v === 'string' && v.trim() ? v : null);
