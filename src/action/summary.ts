// The job summary's markdown: the halting report (the same markdown as `phuc-loop report`), scrubbed
// of secrets; refusals get a short summary that says why. job-summary.ts writes it.
import { inert } from '../engine/common/markdown.js';
import type { HaltingReport } from '../engine/evidence/report.js';

export interface SummaryContext {
  /** Lines shown above the report (where the evidence came from, "nothing to do", links). */
  notes: string[];
  scrub: (s: string) => string;
}

/** The report's markdown; its renderer (with the report's schemas) loads only when a loop ended. */
export async function reportMarkdown(report: HaltingReport, agentsMd: string | undefined, ctx: SummaryContext): Promise<string> {
  const { renderReportMarkdown } = await import('../engine/evidence/report-markdown.js');
  const notes = ctx.notes.length ? ctx.notes.map((n) => `> ${n}`).join('\n>\n') + '\n\n' : '';
  return ctx.scrub(notes + renderReportMarkdown(report, agentsMd));
}

export function refusalMarkdown(status: string, stopReason: string, detail: string, ctx: SummaryContext): string {
  const lines = [`## phuc-loop: ${status} (${stopReason})`, '', `**Why:** ${inert(detail)}`, '', ...ctx.notes.map((n) => `- ${n}`)];
  return ctx.scrub(lines.join('\n') + '\n');
}
