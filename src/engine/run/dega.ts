// DEGA blocker classes (docs/glossary.md): a deterministic class per iteration, strictly ordered, used in
// the capsule (the one bounded objective) and in the report.

export const BLOCKER_CLASSES = ['evidence_path_blocked', 'applicability_limited', 'margin_limited', 'candidate_pass_found', 'solved'] as const;
export type BlockerClass = (typeof BLOCKER_CLASSES)[number];

export interface BlockerInput {
  criteria: { id: string; met: boolean; timed_out?: boolean }[];
  residualBelowRp: boolean | null;
  residualAvailable: boolean;
  guardrail: boolean;
}

export function blockerClass(i: BlockerInput): { class: BlockerClass; reason: string; objective: string } {
  const open = i.criteria.filter((c) => !c.met);
  const timedOut = i.criteria.filter((c) => c.timed_out);
  if (!i.residualAvailable || timedOut.length || i.guardrail) {
    const why = !i.residualAvailable
      ? 'the residual could not be computed'
      : timedOut.length
        ? `check ${timedOut.map((c) => c.id).join(', ')} timed out`
        : 'a protected path was changed and reverted';
    return { class: 'evidence_path_blocked', reason: why, objective: `Restore a working evidence path: ${why}; make the checks run to completion.` };
  }
  if (open.length === 0 && i.residualBelowRp !== false)
    return {
      class: 'solved',
      reason: 'every criterion passes',
      objective: 'Confirm the solution is complete; change nothing that the checks depend on unless it is wrong.',
    };
  if (open.length === 0)
    return {
      class: 'candidate_pass_found',
      reason: 'every criterion passes but the residual is not yet below R_p',
      objective: 'Reduce the residual below R_p without breaking any criterion.',
    };
  const first = open[0].id;
  if (open.length === i.criteria.length)
    return {
      class: 'applicability_limited',
      reason: `no criterion passes (${open.map((c) => c.id).join(', ')})`,
      objective: `Make criterion "${first}" pass.`,
    };
  return {
    class: 'margin_limited',
    reason: `${open.length} of ${i.criteria.length} criteria still fail (${open.map((c) => c.id).join(', ')})`,
    objective: `Make criterion "${first}" pass without breaking the others.`,
  };
}
