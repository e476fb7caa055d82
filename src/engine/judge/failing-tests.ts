// The tests that failed in a round, by criterion and name, kept for the rest of the run: the runner
// canary copies them into its run (judge/shadow.ts). Read from the failing check's own output in
// the runner's format and from the round's JUnit reports where the checks write them (a name the
// test files do not declare at their top level is told and never copied).
import { recogniseRunner } from './canary.js';
import type { CheckResult } from './checks.js';
import { failingTests, type JunitRead } from './junit.js';
import { failingNames, SHADOW_RUNNERS } from './shadow.js';

/** `known` with the round's failing tests added (a new map: the caller keeps it for the run). */
export async function withFailing(
  known: ReadonlyMap<string, readonly string[]> | undefined,
  round: { checks: readonly CheckResult[]; junit: JunitRead | undefined; cwd: string },
  readLog: (check: CheckResult) => Promise<string | null>,
): Promise<Map<string, readonly string[]>> {
  const out = new Map(known);
  const fromJunit = round.junit && 'tests' in round.junit ? failingTests(round.junit.tests).map((t) => t.name.replace(/\[.*\]$/, '')) : [];
  for (const check of round.checks) {
    if (check.met || check.reused_from_iteration !== null) continue;
    const runner = await recogniseRunner(check.run, round.cwd);
    if (!(SHADOW_RUNNERS as readonly (string | null)[]).includes(runner)) continue;
    const names = [...failingNames(runner, (await readLog(check)) ?? ''), ...fromJunit];
    if (names.length) out.set(check.id, [...new Set([...(out.get(check.id) ?? []), ...names])]);
  }
  return out;
}
