// End-of-loop audits that read only the evidence tree, shared by the loop and `phuc-loop verify`:
// the Triangle Law (plan, certificates, AGENTS.md entries), the Phuc Test (five conditions) and
// the rung self-tests.
import { z } from 'zod';
import { capsuleProblems, type Capsule } from '../memory/capsule.js';
import { openQuestionsOf } from '../memory/agents-md.js';
import { certificateSchema, isDiverging } from './certificate.js';
import { isDecimalString, parseDecimal, seedChecksum } from '../common/decimal.js';
import type { EvidenceStore } from '../evidence/evidence.js';
import { residualFromOutput } from './residual.js';

export const iterDir = (n: number) => `iter_${n}`;

/**
 * The order of the verification rungs (docs/glossary.md): 641 < 274177 < 65537 as levels, not as numbers
 * (65537 is the highest: 274177's requirements plus the security gate). 0 is "no rung".
 */
export function rungLevel(rung: number): number {
  return [0, 641, 274177, 65537].indexOf(rung);
}

export interface Triangle {
  REMIND_plan_json_present: boolean;
  VERIFY_certificates_all_present: boolean;
  ACKNOWLEDGE_agents_md_all_entries_present: boolean;
  triangle_vertex_missing: 'REMIND' | 'VERIFY' | 'ACKNOWLEDGE' | 'none';
}

export async function checkTriangle(ev: EvidenceStore, iterations: number[]): Promise<Triangle> {
  const plan = (await ev.readText('plan.json')) !== null;
  let verify = true;
  let ack = true;
  for (const n of iterations) {
    const cert = await ev.readJson(`${iterDir(n)}/certificate.json`, certificateSchema);
    const entry = await ev.readText(`${iterDir(n)}/agents_md_entry.md`);
    if (!cert) verify = false;
    // ACKNOWLEDGE: the entry's N.4 carries this iteration's certificate type.
    if (!entry || !cert || !entry.includes(`- certificate: ${cert.type}\n`)) ack = false;
  }
  return {
    REMIND_plan_json_present: plan,
    VERIFY_certificates_all_present: verify,
    ACKNOWLEDGE_agents_md_all_entries_present: ack,
    triangle_vertex_missing: !verify ? 'VERIFY' : !plan ? 'REMIND' : !ack ? 'ACKNOWLEDGE' : 'none',
  };
}

export interface PhucTest {
  condition_1_history: boolean;
  condition_2_reflection: boolean;
  condition_3_care: boolean;
  condition_4_adaptation: boolean;
  condition_5_growth: boolean;
  failures: string[];
  pass: boolean;
}

export async function phucTest(
  ev: EvidenceStore,
  iterations: number[],
  opts: { hostPaths: readonly string[]; converged: boolean; rungTarget: number; rungAchieved: number },
): Promise<PhucTest> {
  const failures: string[] = [];
  const c = [true, true, true, true, true];
  const fail = (i: number, why: string) => {
    c[i - 1] = false;
    failures.push(`PHUC_TEST_FAILURE_${i}: ${why}`);
  };
  let previousEntry: string | null = null;
  // What the user wrote (goal, criteria) is in plan.json: a date there is theirs, not a leak.
  const planText = (await ev.readText('plan.json')) ?? '';
  for (const n of iterations) {
    // Its shape is capsuleProblems' to judge: a malformed capsule fails the Phuc Test (condition 3).
    const capsule = (await ev.readJson(`${iterDir(n)}/cnf_capsule.json`, z.unknown())) as Partial<Capsule> | null;
    const entry = await ev.readText(`${iterDir(n)}/agents_md_entry.md`);
    if (!capsule) fail(1, `iteration ${n} has no cnf_capsule.json`);
    if (!entry || !/- residual_direction: \w+/.test(entry) || !/- glow_score: \{total: \d+/.test(entry) || !/- northstar_distance_delta: /.test(entry))
      fail(2, `iteration ${n}'s AGENTS.md entry lacks residual direction, GLOW or northstar delta`);
    if (capsule) {
      const problems = capsuleProblems(capsule, opts.hostPaths, planText);
      if (problems.length) fail(3, `iteration ${n}'s capsule: ${problems.join('; ')}`);
      if (previousEntry !== null) {
        const want = JSON.stringify(openQuestionsOf(previousEntry));
        const got = JSON.stringify(capsule.current_state_summary?.open_questions_from_last_iteration ?? null);
        if (want !== got) fail(4, `iteration ${n}'s capsule does not carry the open questions of iteration ${n - 1}`);
      }
    }
    previousEntry = entry;
  }
  if (opts.converged && rungLevel(opts.rungAchieved) < rungLevel(opts.rungTarget))
    fail(5, `convergence at rung ${opts.rungAchieved}, below the declared rung_target ${opts.rungTarget}`);
  const [c1, c2, c3, c4, c5] = c;
  return {
    condition_1_history: c1,
    condition_2_reflection: c2,
    condition_3_care: c3,
    condition_4_adaptation: c4,
    condition_5_growth: c5,
    failures: [...new Set(failures)],
    pass: c.every(Boolean),
  };
}

/** Rung 274177's self-tests: the divergence detector and the null/edge sweep of the residual parser. */
export function selfTests(): { divergence_detector: boolean; null_edge_sweep: boolean } {
  const divergence = isDiverging(['1', '2', '3']) && !isDiverging(['3', '2', '1']) && !isDiverging(['1', '1', '2']) && !isDiverging(['1', '2']);
  const rejects = ['', 'NaN', '1,5', 'Infinity', '0x10', '1e', '-', ' '].every((t) => 'error' in residualFromOutput(t));
  const accepts = ['0', '0.25', '1e-4', '3'].every((t) => 'value' in residualFromOutput(t)) && parseDecimal('.5') !== null;
  return { divergence_detector: divergence, null_edge_sweep: rejects && accepts };
}

export function allDecimalStrings(values: unknown[]): boolean {
  return values.every(isDecimalString);
}

export { seedChecksum };
