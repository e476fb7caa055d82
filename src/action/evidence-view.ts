// What the PR comment shows from the evidence tree beside the iteration rows: the baseline (HEAD
// judged before any agent) and the failing checks of the latest round with the first lines of
// their logs. The logs are the checks' output, not the loop's text: bounded here, rendered inert
// (comment.ts), never interpreted.
import { open, readFile } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { z } from 'zod';
import { baselinePending, planSchema } from '../engine/config/plan.js';
import type { HaltingReport } from '../engine/evidence/report.js';
import { ANSI, LOG_FRAME } from '../engine/memory/failures.js';

export interface BaselineRow {
  residual: string | null;
  met: number;
  criteria: number;
}

export interface FailingCheck {
  id: string;
  /** The log's path in the evidence tree (and the artifact). */
  evidence: string;
  /** Its first lines of output, each cut to LINE_CHARS. */
  lines: string[];
}

export interface FailingChecks {
  /** The round: `baseline` or `iteration N`. */
  round: string;
  checks: FailingCheck[];
  /** Failing checks not shown (over MAX_CHECKS). */
  more: number;
}

const MAX_CHECKS = 5;
const MAX_LINES = 5;
const LINE_CHARS = 160;
/** Only the head of a log is read: a check may write megabytes. */
const READ_BYTES = 16 * 1024;

const planBaseline = z.object({ baseline: planSchema.shape.baseline });

type Criterion = { id: string; met: boolean; evidence: string };

/** The plan's baseline, or null before it is on record. */
async function readBaseline(root: string): Promise<{ residual: string | null; criteria: Criterion[] } | null> {
  const text = await readFile(join(root, 'plan.json'), 'utf8').catch(() => null);
  let parsed;
  try {
    parsed = text === null ? null : planBaseline.safeParse(JSON.parse(text));
  } catch {
    return null;
  }
  return parsed?.success && !baselinePending(parsed.data) ? parsed.data.baseline : null;
}

/** The first `bytes` of `rel` inside `root` (null: absent, unreadable, or outside the tree). */
async function readHead(root: string, rel: string, bytes: number): Promise<string | null> {
  const base = resolve(root);
  const path = resolve(base, rel);
  if (!path.startsWith(base + sep)) return null;
  const f = await open(path, 'r').catch(() => null);
  if (!f) return null;
  try {
    const buf = Buffer.alloc(bytes);
    const { bytesRead } = await f.read(buf, 0, bytes, 0);
    return buf.subarray(0, bytesRead).toString('utf8');
  } catch {
    return null;
  } finally {
    await f.close();
  }
}

/** The first lines of a check's log: its output without the log's frame, colour codes or blank lines. */
export function firstLines(log: string): string[] {
  return log
    .replace(ANSI, '')
    .split(/\r\n?|\n/)
    .filter((l) => l.trim() !== '' && !LOG_FRAME.test(l))
    .slice(0, MAX_LINES)
    .map((l) => (l.length > LINE_CHARS ? `${l.slice(0, LINE_CHARS - 1)}…` : l));
}

async function failingOf(root: string, round: string, criteria: Criterion[]): Promise<FailingChecks | null> {
  const failing = criteria.filter((c) => !c.met);
  if (!failing.length) return null;
  const checks: FailingCheck[] = [];
  for (const c of failing.slice(0, MAX_CHECKS)) {
    const evidence = c.evidence.split('#')[0];
    checks.push({ id: c.id, evidence, lines: firstLines((await readHead(root, evidence, READ_BYTES)) ?? '') });
  }
  return { round, checks, more: failing.length - checks.length };
}

/**
 * The baseline row and the failing checks of the latest round: the report's certificate when an
 * iteration was judged, else the baseline's criteria.
 */
export async function evidenceView(root: string, report: HaltingReport | null): Promise<{ baseline: BaselineRow | null; failing: FailingChecks | null }> {
  const base = await readBaseline(root);
  const baseline = base && { residual: base.residual, met: base.criteria.filter((c) => c.met).length, criteria: base.criteria.length };
  const cert = report?.halting_certificate;
  const failing =
    cert && cert.iteration !== null && cert.acceptance_criteria_checklist.length
      ? await failingOf(
          root,
          `iteration ${cert.iteration}`,
          cert.acceptance_criteria_checklist.map((c) => ({ id: c.criterion, met: c.met, evidence: c.evidence_link })),
        )
      : base
        ? await failingOf(root, 'baseline', base.criteria)
        : null;
  return { baseline, failing };
}
