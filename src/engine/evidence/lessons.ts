// lessons_for_next_run (seed §17): written at every halt from the run's evidence — how it ended,
// which guard or exit fired, which budget bound, what still fails and with which failure — and the
// last entry's open questions (Lane C, from AGENTS.md). Kept in the halting report and state.json;
// the next run's capsule shows them to its agent (docs/glossary.md "Halting report").
import type { Certificate } from '../judge/certificate.js';
import type { Lesson, LoopState } from './state.js';
import { num } from '../common/display.js';

const MAX_LESSONS = 12;

export function lessonsForNextRun(i: {
  status: string;
  stopReason: string;
  detail: string | null;
  state: LoopState | null;
  certificate: Certificate | null;
  certificatePath: string | null;
  /** `<evidence dir>/`: the links are the report's. */
  prefix: string;
  openQuestions: readonly string[];
}): Lesson[] {
  const s = i.state;
  const out: Lesson[] = [{ lane: 'A', text: `the last run ended ${i.status}(${i.stopReason})${i.detail ? `: ${i.detail}` : ''}`, evidence: i.certificatePath }];
  // Every exit that fired, once per kind and reason, the latest first: guards, budgets, progress exits.
  const seen = new Set<string>();
  for (const f of [...(s?.exits_fired ?? [])].reverse()) {
    const key = `${f.kind} ${f.reason}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ lane: 'A', text: `${f.kind === 'BUDGET' ? 'budget bound' : 'exit fired'} at iteration ${f.iteration}: ${f.kind}: ${f.reason}`, evidence: null });
  }
  for (const c of (i.certificate?.checklist ?? []).filter((c) => !c.met))
    out.push({
      lane: 'A',
      text: `criterion ${c.id} still fails (exit ${c.exit_code ?? 'none'})`,
      evidence: `${i.prefix}${c.evidence.split('#')[0]}`,
    });
  // The failures seen twice in a row: the approach that produced them did not work.
  for (const d of s?.progress.detour?.repeated ?? [])
    out.push({ lane: 'A', text: `the same failure twice in a row (${d.signature}): do not repeat that approach`, evidence: null });
  const h = s?.residual_history ?? [];
  if (h.length)
    out.push({
      lane: 'B',
      text: `residual per iteration: ${h
        .slice(-6)
        .map((r) => num(r))
        .join(' → ')}`,
      evidence: null,
    });
  for (const q of i.openQuestions.slice(0, 3)) out.push({ lane: 'C', text: `open question: ${q}`, evidence: null });
  return out.slice(0, MAX_LESSONS);
}
