// The job summary: the halting report (the same markdown as `phuc-loop report`), written through
// core.summary after the loop, scrubbed of secrets. Refusals get a short summary that says why.
import * as core from '@actions/core';
import { appendFileSync } from 'node:fs';
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

export async function writeSummary(markdown: string): Promise<void> {
  if (!process.env['GITHUB_STEP_SUMMARY']) return;
  try {
    await core.summary.addRaw(markdown, true).write();
  } catch (e) {
    core.warning(`could not write the job summary: ${(e as Error).message}`);
  }
}

/** For an abort: the event loop does not turn again, so the summary is appended synchronously. */
export function writeSummarySync(markdown: string): void {
  const file = process.env['GITHUB_STEP_SUMMARY'];
  if (!file) return;
  try {
    appendFileSync(file, markdown.endsWith('\n') ? markdown : `${markdown}\n`);
  } catch (e) {
    core.warning(`could not write the job summary: ${(e as Error).message}`);
  }
}
