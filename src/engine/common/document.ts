// Every document the loop reads back (its evidence, its state, the Action's saved state) goes
// through its zod schema here: a document that does not parse is EVIDENCE_UNVERIFIABLE, named by
// file and field, never a crash and never a value taken on trust (SPEC §7).
import { z } from 'zod';
import { isDecimalString } from './decimal.js';
import { EvidenceUnverifiable } from './errors.js';

/** A Decimal as the evidence writes it (dstr): never a JSON number, never padded. */
export const decimalString = z.string().refine(isDecimalString, { error: 'must be a Decimal string such as "0.25"' });

/** One "field: problem" per issue, the field as zod's dotted path. */
export function issuesText(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join('.') || '(document)'}: ${i.message}`).join('; ');
}

/** Parses `text` (the contents of `file`) as JSON, then by `schema`; throws EvidenceUnverifiable naming file and field. */
export function parseDocument<S extends z.ZodType>(file: string, text: string, schema: S): z.infer<S> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new EvidenceUnverifiable(file, `not JSON: ${(e as Error).message}`);
  }
  const r = schema.safeParse(value);
  if (!r.success) throw new EvidenceUnverifiable(file, issuesText(r.error));
  return r.data;
}
