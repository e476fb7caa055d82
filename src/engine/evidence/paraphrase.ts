// Rung 65537's rules as computed from evidence, with no agent or command run: the restatement's
// shape and its criteria mapping read against the final judgement, and the behavioural hash and its
// drift (what `verify --rerun` recomputes too).
import { z } from 'zod';
import { canonicalJson } from '../common/canonical.js';
import { jsonObjectsIn } from '../agent/agents.js';
import type { CheckResult } from '../judge/checks.js';
import type { IssuedType } from '../config/config.js';

export const restatementSchema = z.object({
  goal: z.string().min(1),
  requirements: z
    .array(z.object({ text: z.string().min(1), criterion: z.string().min(1).nullable() }))
    .min(1, { error: 'must list at least one requirement of the restated goal' }),
});
export type Restatement = z.infer<typeof restatementSchema>;

/** What the paraphrase command reads on stdin: the goal and the criteria (id, description). */
export const paraphraseInput = (goal: string, criteria: readonly { id: string; description: string }[]) =>
  canonicalJson({ goal, criteria: criteria.map((c) => ({ id: c.id, description: c.description })) });

/** The restatement in what the command printed: its last JSON object, or why there is none. */
export function parseRestatement(stdout: string): { restatement: Restatement } | { error: string } {
  const last = [...jsonObjectsIn(stdout)].at(-1);
  if (!last) return { error: 'the paraphrase command printed no JSON object' };
  const r = restatementSchema.safeParse(last);
  return r.success ? { restatement: r.data } : { error: r.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ') };
}

/** `security.paraphrase: agent`: the configured agent restates the goal, not a command. */
export const PARAPHRASE_BY_AGENT = 'agent';

/** What the agent is asked: restate, map each requirement to a criterion id or null, answer as JSON. */
export function paraphrasePrompt(input: string): string {
  return [
    '# Restate the goal (rung 65537: adversarial paraphrase)',
    '',
    'Below are the goal of a coding loop and the acceptance criteria the loop checks (also in the file PHUC_CAPSULE_FILE names).',
    'Restate the goal in your own words as the requirements a reviewer would hold the change to, and map each requirement to',
    'the id of the criterion that checks it, or to null when no criterion checks it. Do not change any file: edits are put back.',
    '',
    '```json',
    input,
    '```',
    '',
    '## Response contract',
    '',
    'Write one JSON object to the file PHUC_REPORT_FILE names (or print it as the last JSON object of your output):',
    '`{"goal": "<the goal restated>", "requirements": [{"text": "<a requirement>", "criterion": "<criterion id>" | null}]}`',
    '',
  ].join('\n');
}

export interface ParaphraseVerdict {
  /** The certificate type the final judgement gives when read through the restatement. */
  type: IssuedType;
  same_certificate_type: boolean;
  /** Requirements of the restated goal that no criterion checks: nothing shows them met. */
  unchecked_requirements: string[];
  /** Criterion ids the restatement names that the plan does not have. */
  unknown_criteria: string[];
  /** The plan's criteria the restatement maps no requirement to (recorded, not judged). */
  unmapped_criteria: string[];
}

/**
 * The final judgement read through the restatement: each restated requirement is met when the
 * criterion it maps to was met on the certified commit (the confirmation round); a requirement that
 * maps to no criterion, or to one the plan does not have, is not met. The type is the certified
 * one only when every requirement is met; otherwise NONE.
 */
export function restatedJudgement(r: Restatement, checks: readonly Pick<CheckResult, 'id' | 'met'>[], certified: IssuedType): ParaphraseVerdict {
  const byId = new Map(checks.map((c) => [c.id, c.met]));
  const unchecked = r.requirements.filter((q) => q.criterion === null).map((q) => q.text);
  const unknown = [...new Set(r.requirements.flatMap((q) => (q.criterion !== null && !byId.has(q.criterion) ? [q.criterion] : [])))];
  const mapped = new Set(r.requirements.map((q) => q.criterion));
  const allMet = r.requirements.every((q) => q.criterion !== null && byId.get(q.criterion) === true);
  const type: IssuedType = allMet ? certified : 'NONE';
  return {
    type,
    same_certificate_type: type === certified,
    unchecked_requirements: unchecked,
    unknown_criteria: unknown,
    unmapped_criteria: checks.filter((c) => !mapped.has(c.id)).map((c) => c.id),
  };
}
