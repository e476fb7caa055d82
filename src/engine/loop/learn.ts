// ACCUMULATE_LEARNINGS: the lane-typed AGENTS.md entry of an iteration (docs/glossary.md "AGENTS.md entry").
import { join } from 'node:path';
import { spawnAgent } from '../agent/agent-step.js';
import { type Collected, unstageable } from '../agent/collect.js';
import {
  type Direction,
  type Entry,
  extractSection,
  type Fact,
  mergeSection,
  renderSection,
  sanitizeAgentText,
  sanitizeList,
  type Section,
} from '../memory/agents-md.js';
import { recompressibility } from '../memory/lane-a.js';
import { iterDir } from '../store/evidence.js';
import type { IssuedType } from '../config/config.js';
import type { CheckResult } from '../judge/checks.js';
import type { VerdictState } from '../judge/critic.js';
import { Decimal, dstr } from '../common/decimal.js';
import { num } from '../common/display.js';
import { atomicWrite } from '../os/atomic-write.js';
import { InvariantViolation } from '../common/errors.js';
import { type Ctx, scrub, sectionMeta } from './context.js';
import type { NorthstarSnapshot } from '../judge/northstar.js';
import type { ProgressState } from '../run/progress.js';
import { lstatOrNull, readRegularSync, removeTree } from '../os/tree-file.js';

export interface LearnInput {
  agent: Awaited<ReturnType<typeof spawnAgent>>;
  collected: Collected;
  checks: CheckResult[];
  certificate: IssuedType;
  guardrail: string | null;
  residual: Decimal | null;
  previousResidual: Decimal | null;
  ns: NorthstarSnapshot;
  stopped: boolean;
  empty: boolean;
  residualError: string | null;
  /** The strictly increasing residuals that make the iteration DIVERGED, or null. */
  diverging: string | null;
  verdict: VerdictState | null;
  criticReverted: string[];
  detour: ProgressState['detour'];
  escalated: string | null;
}

/** A criterion's outcome as a Lane A fact key: the same outcome again is no new learning (GLOW L). */
const checkFact = (c: CheckResult) => (c.met ? `met:${c.id}` : `failed:${c.id}:${c.timed_out ? 'timeout' : c.exit_code}`);

/** The facts a judgement of HEAD establishes: iteration 0 learns nothing by finding the baseline's failures again. */
export const headFacts = (checks: CheckResult[]) => checks.map((c) => `A:${checkFact(c)}`);

/** The iteration's lane-typed AGENTS.md entry (N.1–N.6) and its facts (for "new learning"). */
export function learn(ctx: Ctx, n: number, x: LearnInput): { entry: Entry; facts: string[] } {
  const { plan, state } = ctx;
  const report = x.collected.report;
  const r = report.state === 'valid' ? report.report : {};
  const succeeded: Fact[] = [];
  const failed: Fact[] = [];
  const facts: string[] = [];
  const fact = (list: Fact[], lane: Fact['lane'], key: string, text: string) => {
    list.push({ lane, text });
    facts.push(`${lane}:${key}`);
  };
  for (const c of x.checks) {
    if (c.met) fact(succeeded, 'A', checkFact(c), `criterion ${c.id} passed (exit 0) — ${c.evidence}`);
    else fact(failed, 'A', checkFact(c), `criterion ${c.id} ${c.timed_out ? 'timed out' : `failed (exit ${c.exit_code})`} — ${c.evidence}`);
  }
  // A change that made things worse (the residual rose, a met criterion fails) is a regression: a
  // failure (N.3), never a success or a learning (GLOW L counts facts, not activity).
  const lost = x.checks.filter((c) => !c.met && state.criteria_met[c.id]).map((c) => c.id);
  const rose = !!x.residual && !!x.previousResidual && x.residual.gt(x.previousResidual);
  // Only a step that produced a change has a diff.patch to link.
  const diff = () => `${x.collected.diffFiles} file(s) changed — ${ctx.ev.link(`${iterDir(n)}/diff.patch`)}`;
  if (x.collected.produced && (rose || lost.length))
    failed.push({ lane: 'A', text: `${diff()}: a regression (${rose ? 'the residual rose' : `criteria no longer met: ${lost.join(', ')}`})` });
  else if (x.collected.produced) fact(succeeded, 'A', 'diff', diff());
  // A measurement that moved is a Lane B learning either way; only a fall is a success (N.2).
  if (x.residual && x.previousResidual && !x.residual.eq(x.previousResidual))
    fact(
      x.residual.lt(x.previousResidual) ? succeeded : failed,
      'B',
      'residual',
      `residual ${x.residual.lt(x.previousResidual) ? '' : 'rose '}${dstr(x.previousResidual)} → ${dstr(x.residual)} (${plan.residual.metric})`,
    );
  const prevDist = state.last_northstar?.total_distance ?? null;
  if (x.ns.total_distance && prevDist && !new Decimal(x.ns.total_distance).eq(prevDist)) {
    const fell = new Decimal(x.ns.total_distance).lt(prevDist);
    fact(fell ? succeeded : failed, 'B', 'northstar', `northstar distance ${fell ? '' : 'rose '}${prevDist} → ${x.ns.total_distance}`);
  }
  if (x.diverging) fact(failed, 'A', 'divergence', `DIVERGENCE: residuals increasing 3 consecutive iterations (${x.diverging})`);
  if (x.guardrail) fact(failed, 'A', 'guardrail', `GUARDRAIL: ${x.guardrail}`);
  const unstaged = unstageable(x.collected);
  if (unstaged) fact(failed, 'A', 'unstageable', unstaged);
  if (x.collected.untrackedDeleted.length)
    fact(
      failed,
      'A',
      'untracked-deleted',
      `the agent deleted the user's uncommitted file(s) ${x.collected.untrackedDeleted.join(', ')} (kept in refs/phuc-loop/user-work; nothing to commit)`,
    );
  if (x.empty) fact(failed, 'A', 'empty', 'Iteration produced no artifacts (no change, no report): EVIDENCE_INCOMPLETE');
  const ar = x.agent.result;
  if (ar.timedOut)
    fact(failed, 'A', 'agent-timeout', `agent killed at the ${plan.budget.max_seconds_per_iteration} s limit — ${ctx.ev.link(`${iterDir(n)}/agent.log`)}`);
  else if (x.stopped) fact(failed, 'A', 'agent-stopped', `agent stopped by backpressure: ${x.agent.backpressure}`);
  else if (ar.exitCode !== 0)
    fact(failed, 'A', `agent-exit:${ar.exitCode}`, `agent exited ${ar.exitCode ?? ar.signal} — ${ctx.ev.link(`${iterDir(n)}/agent.log`)}`);
  // Both quote output the loop did not write (a command's last line, the report's JSON): data.
  if (x.residualError) fact(failed, 'A', 'residual-error', `residual unavailable: ${sanitizeAgentText(x.residualError, ctx.hostPaths)}`);
  if (report.state === 'malformed') fact(failed, 'A', 'report-malformed', `agent report malformed (${sanitizeAgentText(report.error, ctx.hostPaths)})`);
  for (const t of sanitizeList(r.failures, ctx.hostPaths)) fact(failed, 'C', `c:${t}`, t);
  for (const c of x.checks.filter((k) => k.reused_from_iteration !== null))
    fact(succeeded, 'A', `reused:${c.id}`, `criterion ${c.id} passed before on unchanged inputs (reused, not re-run) — ${c.evidence}`);
  for (const c of x.checks.filter((k) => k.failure_kind === 'transient'))
    fact(succeeded, 'B', `transient:${c.id}`, `criterion ${c.id} passed on attempt ${c.attempts} (a transient failure)`);
  // The same failure found again is no new learning (GLOW L): a Lane A line, not a fact.
  for (const d of x.detour?.repeated ?? [])
    failed.push({
      lane: 'A',
      text: `the same failure twice in a row: ${d.signature}${d.instruction ? ' (a known fix is given next iteration)' : ''}`,
    });
  if (x.escalated) fact(failed, 'A', 'escalation', `no better residual for 2 iterations: switching the agent to ${x.escalated}`);
  const v = x.verdict;
  const concerns = v?.state === 'valid' ? v.verdict.concerns : [];
  if (v?.state === 'malformed') fact(failed, 'A', 'critic-malformed', `critic verdict malformed (${sanitizeAgentText(v.error, ctx.hostPaths)})`);
  if (v?.state === 'valid')
    fact(
      v.verdict.status === 'VERIFIED' ? succeeded : failed,
      'C',
      `critic:${v.verdict.status}`,
      `critic: ${v.verdict.status}, further iteration can help: ${v.verdict.can_further_iteration_help}`,
    );
  for (const c of concerns.slice(0, 10))
    fact(
      failed,
      'C',
      `concern:${c.file}:${c.line}`,
      sanitizeAgentText(`critic concern ${c.file}${c.line !== undefined ? `:${c.line}` : ''} [${c.severity}] ${c.recommendation}`, ctx.hostPaths),
    );
  if (x.criticReverted.length) fact(failed, 'A', 'critic-edits', `the critic changed files (reverted): ${x.criticReverted.join(', ')}`);
  const open = [
    ...sanitizeList(r.open_questions, ctx.hostPaths),
    ...concerns.slice(0, 5).map((c) => sanitizeAgentText(`critic: ${c.file}${c.line !== undefined ? `:${c.line}` : ''} — ${c.recommendation}`, ctx.hostPaths)),
    ...x.checks.filter((c) => !c.met).map((c) => `What makes criterion ${c.id} fail? Its log: ${c.evidence}`),
  ];
  const prev = x.previousResidual;
  const direction: Direction = !x.residual || !prev || x.residual.eq(prev) ? 'STABLE' : x.residual.lt(prev) ? 'IMPROVING' : 'DIVERGING';
  const nsDelta = x.ns.total_distance && prevDist ? dstr(new Decimal(x.ns.total_distance).minus(prevDist)) : null;
  const rp = plan.R_p;
  // Σ: the invariants carried across iterations — guardrails, and non-increasing residuals.
  const broken = [
    x.guardrail,
    x.diverging
      ? `Σ-symmetry broken: ${x.diverging}`
      : x.residual && prev?.lt(x.residual)
        ? `residual rose ${num(dstr(prev))} → ${num(dstr(x.residual))}`
        : null,
  ].filter((b) => b !== null);
  const artifacts = x.collected.artifacts;
  const entry: Entry = {
    iteration: n,
    tried: sanitizeList(r.tried, ctx.hostPaths),
    succeeded,
    failed,
    residual_metric: plan.residual.metric,
    residual_value: x.residual ? num(dstr(x.residual)) : 'null (not computed)',
    residual_direction: direction,
    certificate: x.certificate,
    glow: { total: 0, G: 0, L: 0, O: 0, W: 0 },
    glow_delta: null,
    northstar_distance: num(x.ns.total_distance),
    northstar_direction: nsDelta === null || new Decimal(nsDelta).isZero() ? 'STABLE' : new Decimal(nsDelta).isNeg() ? 'IMPROVING' : 'DRIFTING',
    northstar_distance_delta: nsDelta === null ? null : num(nsDelta),
    open_questions: open,
    gbb: {
      Z: `${iterDir(n)}/cnf_capsule.json#${ctx.ev.entry(`${iterDir(n)}/cnf_capsule.json`)!.sha256}`,
      Sigma: broken.length ? `false (${broken.join('; ')})` : 'true',
      tau: [...artifacts.map((a) => a.path), `${iterDir(n)}/certificate.json`].join(', '),
      Gc: '', // measured when the entry joins the section (loop/iteration.ts)
      iota: String((x.collected.produced ? 1 : 0) + (report.state !== 'absent' ? 1 : 0)),
      Rp:
        x.residual === null
          ? 'residual not computed (never compared)'
          : rp
            ? `${num(dstr(x.residual))} ${x.residual.lt(rp) ? '<' : '>='} ${rp}`
            : `${num(dstr(x.residual))} ${x.residual.isZero() ? '= 0 (EXACT)' : '> 0'}`,
    },
  };
  return { entry, facts };
}

/** `previous`: the section the loop wrote last, which tells its section from one forged elsewhere in the file. */
export async function writeAgentsMd(ctx: Ctx, section: Section, previous?: Section): Promise<void> {
  const path = join(ctx.cwd, 'AGENTS.md');
  // Only a regular file's text is kept: through a link the loop (root) would copy any file it can
  // read (a root-only file, /proc/self/environ) into a commit.
  // Read on the loop's thread (a small file; a FIFO is not opened, a link not followed).
  const existing = readRegularSync(path)?.toString('utf8') ?? null;
  // AGENTS.md is the loop's file: a folder the agent made in its place goes (never followed: lstat).
  if (lstatOrNull(path)?.isDirectory()) await removeTree(path);
  // Committed and pushed: no secret the loop knows may reach it, in the loop's section or the rest.
  const text = scrub(ctx, section.text);
  await atomicWrite(path, scrub(ctx, mergeSection(existing, text, previous && scrub(ctx, previous.text))));
  // LEARNINGS_NOT_ACCUMULATED: read back before BUDGET_CHECK, so a write that did not land stops the loop.
  const back = extractSection(readRegularSync(path)?.toString('utf8') ?? '');
  if (back === null || back.trim() !== text.trim())
    throw new InvariantViolation('LEARNINGS_NOT_ACCUMULATED', "AGENTS.md does not hold this iteration's section");
}

/**
 * After a compaction, the recompressibility check (memory/lane-a.ts): recorded in
 * `iter_N/recompressibility.json`; a section that does not re-derive from the evidence, or that
 * lost a hard fact, is CONTEXT_BLEED_BETWEEN_ITERATIONS (seed §6.3) before it reaches AGENTS.md.
 */
export async function checkRecompressibility(ctx: Ctx, n: number, section: Section): Promise<void> {
  const check = recompressibility(
    section.text,
    ctx.entries,
    (i) => ctx.ev.entry(`${iterDir(i)}/agents_md_entry.md`)?.sha256,
    () => renderSection({ meta: sectionMeta(ctx), entries: ctx.entries }).text,
  );
  await ctx.ev.writeJson(`${iterDir(n)}/recompressibility.json`, check);
  if (!check.ok)
    throw new InvariantViolation(
      'CONTEXT_BLEED_BETWEEN_ITERATIONS',
      `the compacted AGENTS.md section does not re-derive from the evidence (${iterDir(n)}/recompressibility.json): ${[
        ...check.lane_a_missing.map((l) => `Lane A line of iteration ${l} missing`),
        ...check.entries_not_in_evidence.map((i) => `iteration ${i}'s entry is not the evidence file`),
        ...check.witness_links_unresolved.map((l) => `witness link ${l} unresolved`),
        ...(check.rerender_identical ? [] : ['rendering it again gives other bytes']),
      ]
        .slice(0, 5)
        .join('; ')}`,
    );
}
