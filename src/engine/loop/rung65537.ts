// Rung 65537's two checks beyond the security gate and the API surface (seed §12): the adversarial
// paraphrase (the goal restated by a configured command, or by the configured agent itself, must
// yield the same certificate type when the final judgement is read through the restatement's
// criteria mapping) and the behavioural hash
// (the observable outcome of every criterion and JUnit test, before the loop and on the certified
// commit; a test added, removed or no longer passing must be named by the drift explanation).
import { canonicalJson, sha256 } from '../common/canonical.js';
import type { IssuedType } from '../config/config.js';
import { unexplainedSymbols } from '../evidence/audit.js';
import type { RunResult } from '../os/ports.js';
import type { Certificate } from '../judge/certificate.js';
import { agentSpec, type Ctx, describeAgent, scrub } from '../loop/context.js';
import { runSideAgent } from './side-agent.js';
import { paraphraseInput, parseRestatement, paraphrasePrompt, type ParaphraseVerdict, restatedJudgement } from '../evidence/paraphrase.js';
import { usageRecord } from './budget-use.js';

// ---------------------------------------------------------------------------------------------------
// The paraphrase check.

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
