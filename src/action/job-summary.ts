// Writes the job summary (GITHUB_STEP_SUMMARY) through core.summary. Apart from summary.ts, which
// renders the halting report: the post step appends its artifact line without loading the report.
import * as core from '@actions/core';
import { appendFileSync } from 'node:fs';

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
