// Rung 65537's two checks beyond the security gate and the API surface (seed §12): the adversarial
// paraphrase (the goal restated by a configured command, or by the configured agent itself, must
// yield the same certificate type when the final judgement is read through the restatement's
// criteria mapping) and the behavioural hash
// (the observable outcome of every criterion and JUnit test, before the loop and on the certified
// commit; a test added, removed or no longer passing must be named by the drift explanation).
import { z } from 'zod';
import { canonicalJson, sha256 } from '../common/canonical.js';
import { jsonObjectsIn } from '../agent/agents.js';
import type { CheckResult } from '../judge/checks.js';
import type { IssuedType } from '../config/config.js';
import { unexplainedSymbols } from '../judge/audit.js';
import type { RunResult } from '../os/ports.js';
import type { Certificate } from '../judge/certificate.js';
import { agentSpec, type Ctx, describeAgent, scrub } from '../loop/context.js';
import { runSideAgent } from '../judge/side-agent.js';
import { usageRecord } from './budget-use.js';

// ---------------------------------------------------------------------------------------------------
// The paraphrase check.

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

/** One paraphrase run: what ran, its process, the text its restatement is read from (untrusted), why it gave none. */
export interface ParaphraseRun {
  by: 'command' | 'agent';
  /** The log's first line: the command, or the agent and what of its edits was put back. */
  header: string;
  /** Null when the agent form was not started (the budget left could not cover it). */
  result: RunResult | null;
  text: string;
  failure: string | null;
  /** The agent form's reported figures, counted in the run's budgets (loop/budget-use.ts). */
  usage?: ReturnType<typeof usageRecord>;
}

/** The command form, as the check user in the judge space prepared at `cwd`: the input on stdin. */
export async function paraphraseByCommand(ctx: Ctx, cwd: string, signal?: AbortSignal): Promise<ParaphraseRun> {
  const command = ctx.plan.security!.paraphrase!;
  const stdin = paraphraseInput(ctx.plan.goal, ctx.plan.acceptance_criteria);
  const result = await ctx.judge.runner.run({ command, cwd, env: ctx.judge.env, stdin, timeoutMs: 600_000, signal });
  const failure = result.exitCode === 0 ? null : `the paraphrase command exited ${result.exitCode ?? result.signal}`;
  return { by: 'command', header: `$ ${command}`, result, text: result.stdout, failure };
}

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

/**
 * The agent form: the configured agent of iteration `n` restates the goal, as the agent user in the
 * agent step's sandbox, network policy and key proxy, with the prompt recorded; its answer is data
 * (read by the schema, never followed) and what it changes is put back.
 */
export async function paraphraseByAgent(ctx: Ctx, n: number): Promise<ParaphraseRun> {
  const input = paraphraseInput(ctx.plan.goal, ctx.plan.acceptance_criteria);
  const prompt = paraphrasePrompt(input);
  await ctx.ev.write('paraphrase_prompt.md', prompt);
  const side = await runSideAgent(ctx, {
    spec: agentSpec(ctx, n),
    prompt,
    capsule: input,
    iteration: n,
    timeoutMs: Math.min(600_000, ctx.plan.budget.max_seconds_per_iteration * 1000),
    role: 'Paraphrase (rung 65537)',
    budget: 'paraphrase',
  });
  const header = `$ agent ${describeAgent(ctx, n)} (role paraphrase)`;
  if ('refused' in side) return { by: 'agent', header, result: null, text: '', failure: `the agent gave no restatement: ${side.refused}` };
  const { run, report, reverted } = side;
  const r = run.result;
  const why = run.backpressure ?? (r.exitCode !== 0 || run.outcome.failed ? (run.outcome.errorText ?? `exit ${r.exitCode ?? r.signal}`) : null);
  return {
    by: 'agent',
    header: `${header}${reverted.length ? ` — its edits were put back: ${reverted.join(', ')}` : ''}`,
    result: r,
    text: report ?? r.stdout,
    failure: why === null ? null : `the agent gave no restatement: ${why}`,
    usage: usageRecord(run.outcome),
  };
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

// ---------------------------------------------------------------------------------------------------
// The behavioural hash.

/** Observable outcomes: `criterion:<id>` → met | failed, `test:<junit id>` → passed | failed | error | skipped. */
export type Behaviour = Record<string, string>;

export function behaviourOf(criteria: readonly { id: string; met: boolean }[], tests: readonly { id: string; status: string }[] | null): Behaviour {
  const out: Behaviour = {};
  for (const c of criteria) out[`criterion:${c.id}`] = c.met ? 'met' : 'failed';
  for (const t of tests ?? []) out[`test:${t.id}`] = t.status;
  return out;
}

/** sha256 of the canonical outcomes (sorted keys): the same behaviour gives the same hash, whatever the source text. */
export const behaviouralHash = (b: Behaviour) => sha256(canonicalJson(b));

const PASSING = new Set(['met', 'passed']);

/**
 * The drift that must be explained: an outcome that appeared or disappeared, or one that passed
 * before and does not now. A failure that now passes is what the loop is for, not drift.
 */
export function behaviouralDrift(before: Behaviour, after: Behaviour): { key: string; before: string | null; after: string | null }[] {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  return keys
    .map((key) => ({ key, before: before[key] ?? null, after: after[key] ?? null }))
    .filter((d) => d.before === null || d.after === null || (PASSING.has(d.before) && !PASSING.has(d.after)));
}

/** The drifted outcomes the explanation does not name (a test by its name, a criterion by its id). */
export function unexplainedBehaviour(drift: readonly { key: string }[], explanation: string): string[] {
  // A test by its own name (the last part of its id, without a repeat's " #2").
  const name = (key: string) =>
    key
      .replace(/^(criterion|test):/, '')
      .split(' > ')
      .at(-1)!
      .replace(/ #\d+$/, '');
  return drift.filter((d) => unexplainedSymbols([name(d.key)], explanation).length > 0).map((d) => d.key);
}

// ---------------------------------------------------------------------------------------------------
// Both, from the run's evidence: written to paraphrase.json and behaviour.json.

export interface Rung65537Extra {
  paraphrase_same_certificate: boolean;
  behavioural_drift_explained: boolean;
  /** For the report's security section. */
  report: { paraphrase_type: IssuedType | null; behavioural_hash_before: string; behavioural_hash_after: string; unexplained_behaviour: string[] };
}

/**
 * `para`: the paraphrase's run (null when none is configured); `tests`: the JUnit tests of the
 * confirmation round (null without JUnit); `explanation` the drift explanation's text, `written`
 * whether the loop's commits changed it.
 */
export async function rung65537Extra(
  ctx: Ctx,
  x: { cert: Certificate; para: ParaphraseRun | null; tests: readonly { id: string; status: string }[] | null; explanation: string; written: boolean },
): Promise<Rung65537Extra> {
  const { plan, ev } = ctx;
  const command = plan.security?.paraphrase ?? null;
  let verdict: ParaphraseVerdict | null = null;
  let restated: ReturnType<typeof parseRestatement> | null = null;
  const p = x.para;
  if (p) {
    const ran = p.result ? `${p.result.stdout}\n${p.result.stderr}\n--- exit ${p.result.exitCode} ---` : `--- ${p.failure} ---`;
    await ev.write('paraphrase.log', scrub(ctx, `${p.header}\n${ran}\n`));
    restated = p.failure ? { error: p.failure } : parseRestatement(scrub(ctx, p.text));
    if ('restatement' in restated) verdict = restatedJudgement(restated.restatement, x.cert.checklist, x.cert.type);
  }
  await ev.writeJson('paraphrase.json', {
    command,
    ran: !!p?.result,
    ...(p ? { by: p.by } : {}),
    ...(p?.usage ? { usage: p.usage } : {}),
    input: JSON.parse(paraphraseInput(plan.goal, plan.acceptance_criteria)) as unknown,
    certified_type: x.cert.type,
    ...(restated ?? { error: 'no paraphrase command is configured (security.paraphrase)' }),
    verdict,
  });
  const before = behaviourOf(plan.baseline.criteria, ctx.state.suite_baseline ?? null);
  const after = behaviourOf(x.cert.checklist, x.tests);
  const drift = behaviouralDrift(before, after);
  const unexplained = x.written ? unexplainedBehaviour(drift, x.explanation) : drift.map((d) => d.key);
  const hashes = { before: behaviouralHash(before), after: behaviouralHash(after) };
  await ev.writeJson('behaviour.json', { hash_before: hashes.before, hash_after: hashes.after, before, after, drift, unexplained });
  return {
    paraphrase_same_certificate: !!verdict?.same_certificate_type,
    behavioural_drift_explained: unexplained.length === 0,
    report: {
      paraphrase_type: verdict?.type ?? null,
      behavioural_hash_before: hashes.before,
      behavioural_hash_after: hashes.after,
      unexplained_behaviour: unexplained,
    },
  };
}
