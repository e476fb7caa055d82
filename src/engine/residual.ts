// The residual (SPEC §2): a Decimal from the configured metric. A metric that cannot be computed is
// an error the loop reports (never silently 0, which would falsely certify EXACT — seed §13).
import { readdir, readFile, unlink } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import picomatch from 'picomatch';
import type { CheckResult } from './checks.js';
import type { LoopConfig } from './config.js';
import { Decimal, parseDecimal } from './decimal.js';
import type { ProcessRunner } from './ports.js';

export type ResidualOutcome = { value: Decimal; detail: string } | { error: string };

export interface ResidualContext {
  runner: ProcessRunner;
  cwd: string;
  env: Record<string, string>;
  signal?: AbortSignal;
}

/** Parses the residual from a command's output: its last non-empty line must be a Decimal ≥ 0. */
export function residualFromOutput(output: string): ResidualOutcome {
  const last = output.split(/\r?\n/).map((l) => l.trim()).filter(Boolean).pop();
  if (last === undefined) return { error: 'the residual command printed nothing; its last line must be a Decimal such as 0.25' };
  const d = parseDecimal(last);
  if (!d) return { error: `the residual command's last line ${JSON.stringify(last)} is not a Decimal (expected e.g. 0.25 or 1e-3)` };
  if (d.isNegative()) return { error: `the residual ${last} is negative; a residual is a distance (≥ 0)` };
  return { value: d, detail: `command output ${last}` };
}

const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => ['testsuite', 'testcase'].includes(name) });

interface Tally {
  tests: number;
  failed: number;
  skipped: number;
}

function tallySuite(node: Record<string, unknown>, t: Tally): void {
  for (const tc of (node.testcase as Record<string, unknown>[] | undefined) ?? []) {
    if (tc === null || typeof tc !== 'object') {
      t.tests++;
      continue;
    }
    if ('skipped' in tc) t.skipped++;
    else {
      t.tests++;
      if ('failure' in tc || 'error' in tc) t.failed++;
    }
  }
  for (const child of (node.testsuite as Record<string, unknown>[] | undefined) ?? []) tallySuite(child, t);
}

/** Counts every testcase in JUnit XML text (root <testsuites> or <testsuite>, suites may nest). */
export function tallyJunit(text: string, t: Tally = { tests: 0, failed: 0, skipped: 0 }): Tally {
  const doc = xml.parse(text) as Record<string, unknown>;
  const group = doc.testsuites && typeof doc.testsuites === 'object' ? (doc.testsuites as Record<string, unknown>) : {};
  tallySuite({ testsuite: [...((group.testsuite as unknown[]) ?? []), ...((doc.testsuite as unknown[]) ?? [])] }, t);
  return t;
}

async function walk(root: string, dir: string, match: (p: string) => boolean, out: string[]): Promise<void> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    if (e.name === '.git' || e.name === 'node_modules') continue;
    const full = join(dir, e.name);
    if (e.isDirectory()) await walk(root, full, match, out);
    else {
      const rel = relative(root, full).split(sep).join('/');
      if (match(rel)) out.push(rel);
    }
  }
}

export async function junitFiles(cwd: string, glob: string): Promise<string[]> {
  const { base } = picomatch.scan(glob);
  const out: string[] = [];
  await walk(cwd, join(cwd, base), picomatch(glob, { dot: true }), out);
  return out.sort();
}

/** Removes the JUnit reports matching `glob` (before the checks that write them run again). */
export async function removeJunit(cwd: string, glob: string): Promise<void> {
  await Promise.all((await junitFiles(cwd, glob)).map((f) => unlink(join(cwd, f)).catch(() => undefined)));
}

export async function computeResidual(config: LoopConfig, checks: CheckResult[], ctx: ResidualContext): Promise<ResidualOutcome> {
  const r = config.residual;
  switch (r.metric) {
    case 'failing_criteria': {
      const failing = checks.filter((c) => !c.met).length;
      return { value: new Decimal(failing), detail: `${failing} of ${checks.length} criteria failing` };
    }
    case 'failing_tests_fraction': {
      const files = await junitFiles(ctx.cwd, r.junit!);
      if (files.length === 0) return { error: `no JUnit XML file matches ${r.junit}; the checks must write them` };
      const t: Tally = { tests: 0, failed: 0, skipped: 0 };
      for (const f of files) {
        try {
          tallyJunit(await readFile(join(ctx.cwd, f), 'utf8'), t);
        } catch (e) {
          return { error: `${f} is not readable JUnit XML: ${(e as Error).message}` };
        }
      }
      if (t.tests === 0) return { error: `the JUnit files (${files.join(', ')}) hold no test that ran` };
      return { value: new Decimal(t.failed).div(t.tests), detail: `${t.failed} of ${t.tests} tests failing (${files.length} JUnit files)` };
    }
    case 'command': {
      const res = await ctx.runner.run({ command: r.run!, cwd: ctx.cwd, env: ctx.env, timeoutMs: r.timeout_seconds * 1000, signal: ctx.signal });
      if (res.exitCode !== 0)
        return { error: `the residual command exited ${res.timedOut ? 'by time-out' : (res.exitCode ?? res.signal)}: ${res.stderr.trim().split('\n').pop() ?? ''}` };
      return residualFromOutput(res.stdout);
    }
  }
}
