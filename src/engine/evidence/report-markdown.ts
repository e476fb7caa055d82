// The halting report as markdown: the job summary and \`phuc-loop report\` (the same text).
import { costUse, num } from '../common/display.js';
import { inert, inertCode } from '../common/markdown.js';
import { phaseTable } from './phases.js';
import type { HaltingReport } from './report.js';
import { iterationSpan } from './run-accounting.js';

/** The failing criteria and tests of the latest round: how many, and the first few by name. */
function failingLine(f: HaltingReport['last_round_failures']): string | null {
  if (!f || (!f.failing_criteria.length && !f.tests?.failing)) return null;
  const criteria = f.failing_criteria.length ? `criteria ${f.failing_criteria.map((c) => `\`${inertCode(c)}\``).join(', ')}` : null;
  const t = f.tests;
  const tests = t?.failing
    ? `${t.failing} of ${t.executed} tests fail: ${t.first.map((n) => inert(n)).join('; ')}${t.failing > t.first.length ? `; and ${t.failing - t.first.length} more` : ''}`
    : null;
  return `**Failing in the last round (${f.round}):** ${[criteria, tests].filter(Boolean).join(' — ')}`;
}

const yes = (b: boolean | undefined | null) => (b ? '✅' : '❌');
/** A table cell of text the loop may not have written: inert, and no `|` ends the cell early. */
const cell = (s: string) => inert(s).replace(/\|/g, '\\|');

/**
 * The halting report as markdown: the job summary and `phuc-loop report`. Its texts quote what the
 * loop did not write (the agent's report and log, check output, file names the agent chose, the
 * configuration of a pull request's head): each is made inert (common/markdown.ts), code spans and
 * the fenced AGENTS.md only protected from closing early.
 */
export function renderReportMarkdown(r: HaltingReport, agentsMd?: string): string {
  const c = r.halting_certificate;
  const out: string[] = [];
  out.push(`## phuc-loop: ${r.status}${r.stop_reason ? ` (${r.stop_reason})` : ''}`, '');
  if (r.goal) out.push(`**Goal:** ${inert(r.goal)}`, '');
  if (r.detail) out.push(`**Why:** ${inert(r.detail)}`, '');
  if (r.messages.length) out.push(...r.messages.map((m) => `- ${inert(m)}`), '');
  out.push(
    '| | |',
    '|---|---|',
    `| Certificate | ${c.type}${c.lane ? ` (Lane ${c.lane})` : ''}${c.iteration !== null ? ` at iteration ${c.iteration}` : ''} |`,
    `| Residual | ${num(c.final_residual_decimal_string)}${c.R_p_decimal_string ? ` (R_p ${c.R_p_decimal_string})` : ''} |`,
    ...(c.commit
      ? [
          `| Commit | ${c.commit.slice(0, 12)} (judged in a ${c.workspace ?? 'n/a'} workspace, isolation ${c.isolation ?? 'n/a'}${c.guard ? `, guard ${c.guard}` : ''}; re-check: \`phuc-loop verify --rerun\`) |`,
        ]
      : []),
    `| Iterations | ${r.iterations_completed} |`,
    `| Rung | ${r.verification_rung_achieved} of target ${r.verification_rung_target ?? 'n/a'} |`,
    `| Northstar | ${r.northstar_alignment_certificate ? `${r.northstar_alignment_certificate.status} (${num(r.northstar_alignment_certificate.northstar_distance_start)} → ${num(r.northstar_alignment_certificate.northstar_distance_end)})` : 'n/a'} |`,
    `| Seed checksum | ${r.seed_checksum.formula} = ${r.seed_checksum.product} ${yes(r.seed_checksum_verified)} |`,
    '',
  );
  const failed = failingLine(r.last_round_failures);
  if (failed) out.push(failed, '');
  if (r.exits_fired.length) {
    out.push('### Exits that fired', '');
    for (const e of r.exits_fired)
      out.push(`- ${e.iteration === null ? 'before iteration 0' : `iteration ${e.iteration}`}: **${e.kind}** — ${inert(e.reason)}`);
    out.push('');
  }
  if (r.iteration_rows.length) {
    out.push(
      '### GLOW and residual per iteration',
      '',
      '| iter | G | L | O | W | GLOW | residual | certificate | northstar |',
      '|---:|---:|---:|---:|---:|---:|---:|---|---:|',
    );
    for (const g of r.iteration_rows)
      out.push(
        `| ${g.iteration} | ${g.G} | ${g.L} | ${g.O} | ${g.W ?? 'unknown'} | ${g.total ?? 'unknown'} | ${num(g.residual)} | ${g.certificate} | ${num(g.northstar_distance)} |`,
      );
    out.push('');
  }
  if (c.acceptance_criteria_checklist.length) {
    out.push('### Acceptance criteria (final certificate)', '');
    for (const a of c.acceptance_criteria_checklist)
      out.push(`- ${yes(a.met)} \`${inertCode(a.criterion)}\` — ${inert(a.description)} (\`${inertCode(a.evidence_link.split('#')[0])}\`)`);
    out.push('');
  }
  if (r.phuc_test_result) {
    const p = r.phuc_test_result;
    out.push(
      '### Phuc Test',
      '',
      `${yes(p.condition_1_history)} remembers history · ${yes(p.condition_2_reflection)} reflects · ${yes(p.condition_3_care)} cares about context · ${yes(p.condition_4_adaptation)} adapts · ${yes(p.condition_5_growth)} chooses growth → **${p.pass ? 'PASS' : 'FAIL'}**`,
      ...p.failures.map((f) => `- ${inert(f)}`),
      '',
    );
  }
  if (r.triangle_law_vertices) {
    const t = r.triangle_law_vertices;
    out.push(
      '### Triangle Law',
      '',
      `${yes(t.REMIND_plan_json_present)} REMIND (plan.json) · ${yes(t.VERIFY_certificates_all_present)} VERIFY (certificates) · ${yes(t.ACKNOWLEDGE_agents_md_all_entries_present)} ACKNOWLEDGE (AGENTS.md)`,
      '',
    );
  }
  const rungs = Object.entries(r.rung_checks);
  if (rungs.length) {
    out.push('### Rungs', '');
    for (const [rung, checks] of rungs)
      out.push(
        `- **${rung}**: ${Object.entries(checks)
          .map(([k, v]) => `${yes(v)} ${k}`)
          .join(' · ')}`,
      );
    for (const rp of r.replays) out.push(`- replay ${rp.replay}: ${rp.type}, residual ${num(rp.residual)} ${rp.same ? '(same)' : '(DIFFERS)'}`);
    out.push('');
  }
  if (r.dega_cycles.length) {
    out.push('### Cycles (DEGA)', '', '| iter | agent | blocker class | improvement | critic | reused |', '|---:|---|---|---|---|---|');
    for (const c of r.dega_cycles)
      out.push(
        `| ${c.iteration} | ${cell(c.agent)} | ${c.blocker_class}${c.detour_next ? ' (detour next)' : ''} | ${cell(c.improvement)} | ${c.critic === null ? '—' : cell(c.critic)} | ${cell(c.reused_checks.join(', ')) || '—'} |`,
      );
    if (r.escalated_at_iteration !== null) out.push('', `Escalated to a stronger agent from iteration ${r.escalated_at_iteration}.`);
    out.push('');
  }
  if (r.run) {
    const run = r.run;
    out.push(
      '### Runs and budgets',
      '',
      `- This run: ${iterationSpan(run.iterations)}${run.iterations.length ? '' : ` recorded (it started at iteration ${run.first_iteration})`}; ` +
        (run.resumed ? `it continued the loop, whose earlier runs recorded ${iterationSpan(run.earlier_iterations)}.` : 'it started the loop.'),
      ...(run.rebaselined ? [`- ${inert(run.rebaselined)}.`] : []),
      ...run.budget_revisions.map((b) => `- The budget changed from iteration ${b.from_iteration} (max_iterations ${b.max_iterations}).`),
      `- ${run.numbering}`,
      `- ${run.budgets}`,
      ...(run.how_to_go_on ? [`- To go on: ${run.how_to_go_on}.`] : []),
      '',
    );
  }
  if (r.phases.length) out.push('### Time by phase (seconds, this run)', '', ...phaseTable(r.phases, cell), '');
  if (r.budget_use) {
    const b = r.budget_use;
    out.push(
      '### Budget use (all runs of this loop)',
      '',
      `iterations ${b.iterations} · seconds ${b.seconds} · cost ${costUse(b.cost_usd)} · tool calls ${b.tool_calls}` +
        (b.tool_calls_per_iteration ? ` · tool calls per iteration ${b.tool_calls_per_iteration}` : '') +
        (b.side_agents ? ` · of which side agents: ${inert(b.side_agents)}` : ''),
      '',
    );
  }
  if (r.missing_fields.length) out.push(`**Missing fields:** ${inert(r.missing_fields.join(', '))}`, '');
  if (r.high_glow_without_northstar.length)
    out.push(`**Warning:** high GLOW with W = 0 (no Northstar metric advanced) at iteration(s) ${r.high_glow_without_northstar.join(', ')}.`, '');
  const contract: [string, string | null][] = [
    ['Why it did not converge', r.reason_for_non_convergence],
    ['Diagnosis', r.diagnosis_attempt],
    ['Last state', r.last_known_state],
    ['What ran and failed', r.what_ran_and_failed],
    ['What can be done now', r.safe_partials],
  ];
  for (const [label, text] of contract) if (text) out.push(`**${label}:** ${inert(text)}`, '');
  if (r.evidence_pointers.length)
    out.push('### Evidence pointers', '', ...r.evidence_pointers.map((e) => `- \`${inertCode(e.path)}\` (sha256 ${inertCode(e.sha256.slice(0, 12))})`), '');
  if (r.isolation_limits.length)
    out.push(`### What isolation ${c.isolation ?? ''} does not guarantee`, '', ...r.isolation_limits.map((l) => `- ${inert(l)}`), '');
  if (r.next_actions.length) out.push('### Next actions', '', ...r.next_actions.map((a) => `- ${a}`), '');
  if (r.lessons_for_next_run.length)
    out.push(
      '### Lessons for the next run (shown to its agent)',
      '',
      ...r.lessons_for_next_run.map((l) => `- [${l.lane}] ${inert(l.text)}${l.evidence ? ` (\`${inertCode(l.evidence)}\`)` : ''}`),
      '',
    );
  if (agentsMd) out.push('<details><summary>AGENTS.md</summary>', '', '```markdown', agentsMd.replace(/```/g, '``\u200b`'), '```', '', '</details>', '');
  return out.join('\n');
}
