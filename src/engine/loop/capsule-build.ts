// Builds the CNF capsule of an iteration from the loop's evidence and validates it (CONTEXT_BLEED).
import { relative, resolve, sep } from 'node:path';
import { canonicalJson } from '../common/canonical.js';
import { openQuestionsOf, renderSection, sanitizeAgentText, type Section } from '../memory/agents-md.js';
import { iterDir } from '../store/evidence.js';
import {
  type ArtifactLink,
  type Capsule,
  capsuleProblems,
  type PreparedCapsule,
  criterionLines,
  renderPrompt,
  SKILL_PACK,
  SUBAGENT_ROLE,
} from '../memory/capsule.js';
import { Decimal, dstr } from '../common/decimal.js';
import { blockerClass } from '../run/dega.js';
import { iterationsUsed } from '../run/decide.js';
import { agentSpec, type Ctx, currentResidual, describeAgent, isEscalated, sectionMeta } from './context.js';
import { readRegularIn } from '../os/tree-file.js';
import { unmeasurable } from '../config/measured.js';
import { lastRoundFailures, type RoundFailures } from '../memory/failures.js';

export function buildCapsule(ctx: Ctx, n: number, withAgentText: boolean, failures: RoundFailures | null): { capsule: Capsule; section: Section } {
  const { plan, state } = ctx;
  const lastEntry = ctx.entries.at(-1)?.text ?? null;
  // The section as the last iteration wrote it (rendered once per iteration).
  const learnings = (ctx.section ??= renderSection({ meta: sectionMeta(ctx), entries: ctx.entries }));
  const section = withAgentText ? learnings : renderSection({ meta: sectionMeta(ctx), entries: [] });
  // Sorted by id: the capsule is a canonical form, whatever order the config lists them in.
  const sorted = [...plan.acceptance_criteria].sort((a, b) => (a.id < b.id ? -1 : 1));
  const criteria = sorted.map((c) => ({ id: c.id, met: state.criteria_met[c.id] ?? false }));
  const rp = plan.R_p ? new Decimal(plan.R_p) : null;
  const residual = currentResidual(ctx);
  const blocker = blockerClass({
    criteria,
    residualAvailable: residual !== null,
    residualBelowRp: residual === null ? null : rp ? new Decimal(residual).lt(rp) : new Decimal(residual).isZero(),
    guardrail: false,
  });
  // Links accumulate over every iteration the learnings still carry (in full or as witness lines),
  // so each link the learnings cite resolves; archived iterations stay in manifest.json.
  const folder = evidenceFolder(ctx);
  const link = (rel: string, role: ArtifactLink['role']): ArtifactLink[] => {
    const e = ctx.ev.entry(rel);
    return e ? [{ path: `${folder}/${rel}`, sha256: e.sha256, role }] : [];
  };
  const checkLogs = (dir: string) => criteria.flatMap((c) => link(`${dir}/checks/${c.id}.log`, 'test'));
  const links: ArtifactLink[] = [
    ...link('plan.json', 'plan'),
    ...checkLogs('baseline'),
    ...ctx.iterations
      .filter((i) => !learnings.archived.includes(i))
      .flatMap((i) => [
        ...link(`${iterDir(i)}/certificate.json`, 'proof'),
        ...link(`${iterDir(i)}/diff.patch`, 'artifact'),
        ...link(`${iterDir(i)}/agents_md_entry.md`, 'log'),
        ...checkLogs(iterDir(i)),
      ]),
  ];
  // The latest round's logs (a resumed run's judgement of HEAD is in no iteration), which the prompt names.
  if (failures) links.push(...checkLogs(failures.round).filter((l) => !links.some((k) => k.path === l.path)));
  const b = plan.budget;
  // A command agent's cost is measured once it printed one; after an iteration without, it is not.
  const preset = agentSpec(ctx, n).preset;
  const unmeasured = {
    ...unmeasurable(preset),
    ...(preset === 'command' && state.rows.length > 0 && !state.cost_reported ? { max_total_cost_usd: 'the command agent reported no cost' } : {}),
  };
  const glow = state.rows.at(-1);
  const capsule: Capsule = {
    version: '2.0',
    goal_statement: plan.goal,
    acceptance_criteria: criterionLines(sorted),
    halting_certificates_applicable: plan.halting_certificates_applicable,
    northstar_metrics: plan.northstar.metrics.map((m) => ({
      id: m.id,
      metric: m.metric,
      current: state.last_northstar?.readings.find((r) => r.id === m.id)?.value ?? m.current,
      target: m.target,
    })),
    current_state_summary: {
      iteration_number: n,
      residual_current: residual,
      glow_previous_iteration: glow ? { total: glow.total, G: glow.G, L: glow.L, O: glow.O, W: glow.W } : null,
      northstar_distance_current: state.last_northstar?.total_distance ?? null,
      criteria_met_so_far: criteria.filter((c) => c.met).map((c) => c.id),
      criteria_still_open: criteria.filter((c) => !c.met).map((c) => c.id),
      open_questions_from_last_iteration: withAgentText && lastEntry ? openQuestionsOf(lastEntry) : [],
      blocker_class: blocker.class,
      blocker_reason: blocker.reason,
      objective: blocker.objective,
      detour:
        withAgentText && state.progress.detour?.iteration === n
          ? state.progress.detour.repeated.map((d) => ({ criterion: d.criterion, signature: d.signature, failure: d.text, known_fix: d.instruction }))
          : [],
      reusable_passes: Object.entries(state.passes)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([id, p]) => ({ criterion: id, from: p.iteration === 'baseline' ? 'baseline' : `iteration ${p.iteration}`, evidence: p.evidence })),
      agent: describeAgent(ctx, n),
      escalated: isEscalated(ctx, n),
      // Check output the agent's code printed: left out with the other agent-influenced text.
      last_round_failures: withAgentText && failures ? { round: failures.round, excerpt: failures.excerpt } : null,
      // The last halt's lessons: Lane C among them is the agent's text, left out with the rest of it.
      ...(withAgentText && state.lessons_for_next_run?.length
        ? {
            lessons_from_last_run: state.lessons_for_next_run.map((l) =>
              sanitizeAgentText(`[${l.lane}] ${l.text}${l.evidence ? ` (${l.evidence})` : ''}`, ctx.hostPaths, 400),
            ),
          }
        : {}),
    },
    accumulated_learnings: section.text,
    remaining_budget: {
      // This one included; an iteration a stop cut short before its checks used none.
      iterations_remaining: b.max_iterations - iterationsUsed(n, state.stopped_before_checks),
      tool_calls_remaining: unmeasured.max_total_tool_calls
        ? { not_measured: unmeasured.max_total_tool_calls }
        : Math.max(0, b.max_total_tool_calls - state.total_tool_calls),
      // Whole seconds of recorded iterations only, so the capsule is a function of the evidence.
      seconds_remaining: Math.max(0, b.max_total_seconds - Math.floor(state.total_ms / 1000)),
      cost_remaining_usd:
        b.max_total_cost_usd === null
          ? null
          : unmeasured.max_total_cost_usd
            ? { not_measured: unmeasured.max_total_cost_usd }
            : dstr(Decimal.max(0, new Decimal(b.max_total_cost_usd).minus(state.total_cost_usd))),
    },
    artifact_links: links,
    skill_pack: SKILL_PACK,
    subagent_role: SUBAGENT_ROLE,
    rung_target: plan.rung_target,
  };
  return { capsule, section };
}

/** The evidence folder as a path relative to the repository, whatever form it was given in: never a machine path. */
export function evidenceFolder(ctx: Ctx): string {
  return relative(ctx.cwd, resolve(ctx.cwd, ctx.evRel)).split(sep).join('/');
}

export async function missionText(ctx: Ctx): Promise<string | undefined> {
  const file = ctx.intake.config.mission_context;
  if (!file) return undefined;
  const text = (await readRegularIn(ctx.cwd, file, 1024 * 1024))?.toString('utf8') ?? null;
  // Motivation and framing only (DEGA ideology rule), and data like every repository text.
  return text === null ? `(${file} could not be read)` : sanitizeAgentText(text, ctx.hostPaths, 4000);
}

/**
 * The capsule and prompt of iteration n, validated (CONTEXT_BLEED): a capsule with forbidden content
 * is rebuilt from artifacts only (no agent-written text); if that is refused too, the problems.
 */
export async function prepareCapsule(ctx: Ctx, n: number): Promise<PreparedCapsule> {
  // The user's words (goal, criteria) as plan.json holds them: the text the Phuc Test reads too.
  const planText = canonicalJson(ctx.plan);
  const failures = await lastRoundFailures(ctx, n);
  let capsule = buildCapsule(ctx, n, true, failures).capsule;
  let text = canonicalJson(capsule);
  let problems = capsuleProblems(capsule, ctx.hostPaths, planText, text);
  if (problems.length) {
    ctx.o.log.warn(`capsule refused (${problems.join('; ')}); rebuilding from artifacts only`);
    capsule = buildCapsule(ctx, n, false, failures).capsule;
    text = canonicalJson(capsule);
    problems = capsuleProblems(capsule, ctx.hostPaths, planText, text);
    if (problems.length) return { problems };
  }
  const plan = ctx.plan;
  const prompt = renderPrompt(capsule, {
    criteria: plan.acceptance_criteria,
    protectedPaths: plan.protected,
    R_p: plan.R_p,
    residualMetric: plan.residual.metric,
    evidenceDir: evidenceFolder(ctx),
    mission: await missionText(ctx),
  });
  return { capsule, text, prompt };
}
