// The residual (SPEC §2): a Decimal from the configured metric. A metric that cannot be computed is
// an error the loop reports (never silently 0, which would falsely certify EXACT).
import type { CheckResult } from './checks.js';
import { executedTests, failingTests, prepareJunit, readJunit, type JunitRead, type TestRecord } from './junit.js';
import type { LoopConfig } from '../config/config.js';
import { Decimal, parseDecimal } from '../common/decimal.js';
import type { ProcessRunner } from '../os/ports.js';

export type ResidualOutcome = { value: Decimal; detail: string } | { error: string };

export interface ResidualContext {
  runner: ProcessRunner;
  cwd: string;
  env: Record<string, string>;
  signal?: AbortSignal;
  /** The round's JUnit reports, read with the guard prepareJunit returned before the round. */
  junit?: JunitRead;
}

/** Parses the residual from a command's output: its last non-empty line must be a Decimal ≥ 0. */
export function residualFromOutput(output: string): ResidualOutcome {
  const last = output
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean)
    .pop();
  if (last === undefined) return { error: 'the residual command printed nothing; its last line must be a Decimal such as 0.25' };
  const d = parseDecimal(last);
  if (!d) return { error: `the residual command's last line ${JSON.stringify(last)} is not a Decimal (expected e.g. 0.25 or 1e-3)` };
  if (d.isNegative()) return { error: `the residual ${last} is negative; a residual is a distance (≥ 0)` };
  return { value: d, detail: `command output ${last}` };
}

/**
 * Transitional, while checkRound removes reports without keeping the guard: prepareJunit before the
 * round and readJunit with its guard after it (passed as ResidualContext.junit) replace this.
 */
export async function removeJunit(cwd: string, glob: string): Promise<void> {
  await prepareJunit(cwd, glob);
}

/** failing_criteria: how many criteria failed; a round in which no criterion ran has no residual (not 0). */
export function failingCriteriaResidual(checks: readonly CheckResult[]): ResidualOutcome {
  if (checks.length === 0) return { error: 'no criterion ran, so there is no count of failing criteria' };
  const failing = checks.filter((c) => !c.met).length;
  return { value: new Decimal(failing), detail: `${failing} of ${checks.length} criteria failing` };
}

/** failing_tests_fraction: the failing share of the tests that ran; reports with none ran have no residual (not 0). */
export function failingTestsResidual(read: { tests: TestRecord[]; files: string[] }): ResidualOutcome {
  const executed = executedTests(read.tests);
  if (executed.length === 0) return { error: `the JUnit files (${read.files.join(', ')}) hold no test that ran` };
  const failing = failingTests(executed).length;
  return { value: new Decimal(failing).div(executed.length), detail: `${failing} of ${executed.length} tests failing (${read.files.length} JUnit files)` };
}

export async function computeResidual(config: LoopConfig, checks: CheckResult[], ctx: ResidualContext): Promise<ResidualOutcome> {
  const r = config.residual;
  switch (r.metric) {
    case 'failing_criteria':
      return failingCriteriaResidual(checks);
    case 'failing_tests_fraction': {
      if (!r.junit) return { error: 'residual.junit (a glob of the JUnit XML files the checks write) is required for metric failing_tests_fraction' };
      const read = ctx.junit ?? (await readJunit(ctx.cwd, r.junit, null));
      if ('error' in read) return { error: read.error };
      if (read.files.length === 0) return { error: `no JUnit XML file matches ${r.junit}; the checks must write them` };
      return failingTestsResidual(read);
    }
    case 'command': {
      const res = await ctx.runner.run({ command: r.run!, cwd: ctx.cwd, env: ctx.env, timeoutMs: r.timeout_seconds * 1000, signal: ctx.signal });
      if (res.exitCode !== 0)
        return {
          error: `the residual command exited ${res.timedOut ? 'by time-out' : (res.exitCode ?? res.signal)}: ${res.stderr.trim().split('\n').pop() ?? ''}`,
        };
      return residualFromOutput(res.stdout);
    }
  }
}
