// The Skeptic beyond the checks: failure signatures, the critic, and the DEGA cycle record.
import { iterDir } from '../store/evidence.js';
import type { CheckResult } from '../judge/checks.js';
import { frozen } from '../common/canonical.js';
import { parseVerdict, renderCriticPrompt, type VerdictState } from '../judge/critic.js';
import { Decimal, dstr } from '../common/decimal.js';
import { blockerClass } from '../run/dega.js';
import { type Ctx, describeAgent, scrub } from '../loop/context.js';
import { runSideAgent } from './side-agent.js';
import { usageRecord } from './budget-use.js';
import { improvement } from '../run/progress.js';
import { failureSignature, type Signature } from '../run/signature.js';

/** Signatures of the checks that failed this iteration (read back from their logs). */
export async function failingSignatures(ctx: Ctx, checks: CheckResult[]): Promise<Signature[]> {
  const out: Signature[] = [];
  for (const c of checks.filter((k) => !k.met)) out.push(failureSignature(c.id, (await ctx.ev.readText(c.evidence.split('#')[0])) ?? ''));
  return out;
}

/**
 * The critic (docs/glossary.md): a process after the checks that reads the diff and the results and
 * answers a verdict (Lane C). It must not fix the code: whatever it changes is put back.
 */
export async function critique(ctx: Ctx, n: number, diff: string, checks: CheckResult[]): Promise<{ state: VerdictState; reverted: string[] } | null> {
  const c = ctx.intake.config.critic;
  if (!c) return null;
  const dir = iterDir(n);
  const logs: Record<string, string> = {};
  for (const k of checks) logs[k.id] = (await ctx.ev.readText(k.evidence.split('#')[0])) ?? '';
  const prompt = renderCriticPrompt(ctx.plan.goal, diff, checks, logs);
  await ctx.ev.write(`${dir}/critic_prompt.md`, prompt);
  const side = await runSideAgent(ctx, {
    spec: { preset: c.use, run: c.run, model: c.model, args: c.args, maxTurns: ctx.plan.budget.max_tool_calls_per_iteration },
    prompt,
    capsule: (await ctx.ev.readText(`${dir}/cnf_capsule.json`)) ?? '{}',
    iteration: n,
    timeoutMs: c.timeout_seconds * 1000,
    role: 'Skeptic (critic)',
    budget: 'critic',
  });
  if ('refused' in side) {
    await ctx.ev.writeJson(`${dir}/critic_verdict.json`, { state: 'absent', lane: 'C', not_run: side.refused, reverted_paths: [] });
    ctx.o.log.info(`iter ${n}: ${side.refused}`);
    return { state: { state: 'absent' }, reverted: [] };
  }
  const { run, report: verdictText, reverted } = side;
  const r = run.result;
  await ctx.ev.write(
    `${dir}/critic.log`,
    scrub(ctx, `$ critic (exit ${r.exitCode ?? r.signal}${r.timedOut ? ', timed out' : ''})\n--- stdout ---\n${r.stdout}\n--- stderr ---\n${r.stderr}\n`),
  );
  // A critic cut short by a stop gave no verdict: what it had written by then is not scored.
  const state: VerdictState = r.aborted ? { state: 'absent' } : parseVerdict(verdictText, r.stdout);
  await ctx.ev.writeJson(`${dir}/critic_verdict.json`, { ...state, lane: 'C', reverted_paths: reverted, usage: usageRecord(run.outcome) });
  ctx.o.log.info(
    `iter ${n}: critic ${state.state === 'valid' ? `${state.verdict.status}, further iteration can help: ${state.verdict.can_further_iteration_help}, ${state.verdict.concerns.length} concern(s)` : state.state === 'malformed' ? `verdict malformed (${state.error})` : 'gave no verdict'}` +
      (reverted.length ? ` — its edits were reverted: ${reverted.join(', ')}` : ''),
  );
  return { state, reverted };
}

/** The DEGA cycle record of iteration n: blocker class, improvement, signatures, critic, agent. */
export function recordCycle(
  ctx: Ctx,
  n: number,
  x: {
    checks: CheckResult[];
    residual: Decimal | null;
    guardrail: string | null;
    empty: boolean;
    residualError: string | null;
    failing: Signature[];
    detourNext: boolean;
    verdict: VerdictState | null;
  },
): void {
  const rp = ctx.plan.R_p;
  const b = blockerClass({
    criteria: x.checks.length ? x.checks : ctx.plan.acceptance_criteria.map((c) => ({ id: c.id, met: ctx.state.criteria_met[c.id] ?? false })),
    residualAvailable: x.residual !== null,
    residualBelowRp: x.residual === null ? null : rp ? x.residual.lt(rp) : x.residual.isZero(),
    guardrail: !!x.guardrail,
  });
  const failClosed = x.checks.filter((c) => c.timed_out).length + (x.guardrail ? 1 : 0) + (x.empty ? 1 : 0) + (x.residualError ? 1 : 0);
  const prev = ctx.state.cycles.at(-1);
  const residual = x.residual === null ? null : dstr(x.residual);
  ctx.state.cycles.push(
    frozen({
      iteration: n,
      agent: describeAgent(ctx, n),
      blocker_class: b.class,
      blocker_reason: b.reason,
      improvement: improvement(prev ? { class: prev.blocker_class, residual: prev.residual, failClosed: prev.fail_closed_signals } : null, {
        class: b.class,
        residual,
        failClosed,
      }),
      fail_closed_signals: failClosed,
      residual,
      failure_signatures: x.failing.map((f) => f.signature),
      detour_next: x.detourNext,
      critic: x.verdict === null ? null : x.verdict.state === 'valid' ? x.verdict.verdict.status : x.verdict.state,
      reused_checks: x.checks.filter((c) => c.reused_from_iteration !== null).map((c) => c.id),
    }),
  );
}
