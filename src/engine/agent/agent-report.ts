// The agent's report (REPORT_PATH): taken out of the work tree after each step, and its shape checked.
import { rmdirSync, rmSync, unlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { REPORT_PATH } from './agents.js';
import { EvidenceUnverifiable } from '../common/errors.js';
import { parseDocument } from '../common/document.js';
import { lstatOrNull, readHeadSync } from '../os/tree-file.js';

/**
 * Takes the agent's report out of the work tree: read (at most 1 MiB, never through a link, never
 * blocking on a FIFO) and removed, whatever the agent left at that path (a link, a folder, a huge
 * file). The report folder must be a real folder: through a link, the loop (root) would read and
 * delete a file anywhere. `keepFolder`: the empty folder stays for the next step (git lists no empty
 * folder; removing and making it again cost each iteration two journaled updates of the work tree):
 * the run's end removes it (removeReportFolder).
 */
export function takeReport(cwd: string, keepFolder = false): string | null {
  const dir = join(cwd, dirname(REPORT_PATH));
  const path = join(cwd, REPORT_PATH);
  const dirStat = lstatOrNull(dir);
  if (!dirStat) return null;
  // A link or a file the agent put there: only it goes.
  if (!dirStat.isDirectory()) return (quietly(() => unlinkSync(dir)), null);
  let text: string | null = null;
  const report = lstatOrNull(path);
  if (report?.isFile()) text = readHeadSync(path, REPORT_MAX_BYTES)?.toString('utf8') ?? null;
  if (report) quietly(() => (report.isDirectory() ? rmSync(path, { recursive: true, force: true }) : unlinkSync(path)));
  if (!keepFolder) quietly(() => rmdirSync(dir));
  return text;
}

/** Removes the report folder the steps kept, when it is a real, empty folder (what else is in it stays). */
export function removeReportFolder(cwd: string): void {
  const dir = join(cwd, dirname(REPORT_PATH));
  if (lstatOrNull(dir)?.isDirectory()) quietly(() => rmdirSync(dir));
}

/** Runs a removal whose failure changes nothing for the caller (gone already, or not empty). */
function quietly(remove: () => void): void {
  try {
    remove();
  } catch {
    // as documented
  }
}

const REPORT_MAX_BYTES = 1024 * 1024;

export type ReportState = { state: 'valid'; report: AgentReport } | { state: 'malformed'; error: string } | { state: 'absent' };

const REPORT_FIELDS = ['tried', 'claims', 'failures', 'open_questions', 'can_further_iteration_help'];
const list = z.array(z.unknown()).optional();

/** The agent's report: untrusted, so only its shape is checked here; its texts are sanitized where used. */
const agentReportSchema = z
  .object({ tried: list, claims: list, failures: list, open_questions: list, can_further_iteration_help: z.unknown().optional() })
  .refine((r) => REPORT_FIELDS.some((k) => k in r), { error: `none of the fields ${REPORT_FIELDS.join(', ')}` });
export type AgentReport = z.infer<typeof agentReportSchema>;

export function parseReport(text: string | null): ReportState {
  if (text === null) return { state: 'absent' };
  try {
    return { state: 'valid', report: parseDocument(REPORT_PATH, text, agentReportSchema) };
  } catch (e) {
    if (!(e instanceof EvidenceUnverifiable)) throw e;
    return { state: 'malformed', error: e.message };
  }
}
