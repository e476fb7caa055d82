// `verify --rerun` for rung 65537's adversarial paraphrase: the restated goal read through the
// rerun's own judgement must give what the evidence recorded. The command form runs again (from the
// config committed in the certified commit, as the check user, on the fresh checkout); the agent
// form is not started again (it needs the agent's key and sandbox), so its recorded restatement —
// untrusted data, read by its schema — is judged again against the rerun's criteria.
import { z } from 'zod';
import type { IssuedType, LoopConfig } from '../config/config.js';
import type { Plan } from '../config/plan.js';
import { PARAPHRASE_BY_AGENT, paraphraseInput, parseRestatement, type Restatement, restatedJudgement, restatementSchema } from './paraphrase.js';
import type { RunResult, RunSpec } from '../os/ports.js';
import type { EvidenceStore } from '../store/evidence.js';

const recordedSchema = z.object({
  restatement: restatementSchema.optional(),
  verdict: z.object({ type: z.string(), same_certificate_type: z.boolean() }).nullable(),
});

export interface ParaphraseRerun {
  config: LoopConfig;
  /** The goal and criteria as the plan (checked against that config) gives them to the paraphrase. */
  plan: Pick<Plan, 'goal' | 'acceptance_criteria'>;
  evidence: EvidenceStore;
  /** The certified type, and the criteria as the rerun judged them on the fresh checkout. */
  certified: IssuedType;
  checks: readonly { id: string; met: boolean }[];
  /** Whether the evidence claims rung 65537 (then the restatement must give the certified type). */
  claimed: boolean;
  run: (spec: RunSpec) => Promise<RunResult>;
  cwd: string;
  env: Record<string, string>;
}

/** What the rerun of the paraphrase found: one line per fact, and each disagreement. */
export async function rerunParaphrase(x: ParaphraseRerun): Promise<{ lines: string[]; problems: string[] }> {
  const form = x.config.security?.paraphrase;
  if (!form) return { lines: [], problems: [] };
  const lines: string[] = [];
  const problems: string[] = [];
  const recorded = await x.evidence.readJson('paraphrase.json', recordedSchema).catch(() => null);
  let restatement: Restatement | null = null;
  let how: string;
  if (form === PARAPHRASE_BY_AGENT) {
    how = 'the restatement the agent gave (recorded, not asked again)';
    restatement = recorded?.restatement ?? null;
    if (!restatement) problems.push('paraphrase.json holds no restatement by the agent to judge again');
  } else {
    how = `\`${form}\` run again`;
    const stdin = paraphraseInput(x.plan.goal, x.plan.acceptance_criteria);
    const r = await x.run({ command: form, cwd: x.cwd, env: x.env, stdin, timeoutMs: 600_000 });
    const parsed = r.exitCode === 0 ? parseRestatement(r.stdout) : { error: `it exited ${r.exitCode ?? r.signal}` };
    if ('restatement' in parsed) restatement = parsed.restatement;
    else problems.push(`paraphrase \`${form}\` on a fresh checkout gave no restatement: ${parsed.error}`);
  }
  if (!restatement) return { lines, problems };
  const verdict = restatedJudgement(restatement, x.checks, x.certified);
  const was = recorded?.verdict?.type ?? 'none';
  lines.push(`rerun: paraphrase, ${how}: certificate type ${verdict.type} through the restatement — paraphrase.json: ${was}`);
  if (verdict.type !== was) problems.push(`paraphrase: the restatement gives ${verdict.type} on a fresh checkout, ${was} in paraphrase.json`);
  else if (x.claimed && !verdict.same_certificate_type)
    problems.push(`paraphrase: rung 65537 is claimed, but the restatement gives ${verdict.type}, not the certified ${x.certified}`);
  return { lines, problems };
}
