// End-of-loop audits that read only the evidence tree, shared by the loop and `phuc-loop verify`:
// the Triangle Law (plan, certificates, AGENTS.md entries), the Phuc Test (five conditions) and
// the rung self-tests.
import { EvidenceUnverifiable } from '../common/errors.js';
import { parseDocument } from '../common/document.js';
import { capsuleProblems, capsuleSchema, type Capsule } from '../memory/capsule.js';
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

/**
 * Conditions 1–4 for one iteration, from its capsule and AGENTS.md entry as recorded: run when the
 * iteration is decided and again over every iteration at the end. Returns the failures.
 */
export function phucConditions(x: {
  iteration: number;
  capsule: Capsule | null;
  /** Its canonical JSON, when the caller has it. */
  capsuleText?: string;
  /** Why the stored capsule did not parse (file and field), when it did not. */
  capsuleError?: string;
  entry: string | null;
  previousEntry: string | null;
  hostPaths: readonly string[];
  /** What the user wrote (goal, criteria) is in plan.json: a date there is theirs, not a leak. */
  planText: string;
}): string[] {
  const n = x.iteration;
  const failures: string[] = [];
  const { capsule, entry } = x;
  if (x.capsuleError) failures.push(`PHUC_TEST_FAILURE_3: iteration ${n}'s capsule: ${x.capsuleError}`);
  else if (!capsule) failures.push(`PHUC_TEST_FAILURE_1: iteration ${n} has no cnf_capsule.json`);
  if (!entry || !/- residual_direction: \w+/.test(entry) || !/- glow_score: \{total: (\d+|unknown)/.test(entry) || !/- northstar_distance_delta: /.test(entry))
    failures.push(`PHUC_TEST_FAILURE_2: iteration ${n}'s AGENTS.md entry lacks residual direction, GLOW or northstar delta`);
  if (capsule) {
    const problems = capsuleProblems(capsule, x.hostPaths, x.planText, x.capsuleText);
    if (problems.length) failures.push(`PHUC_TEST_FAILURE_3: iteration ${n}'s capsule: ${problems.join('; ')}`);
    if (x.previousEntry !== null) {
      const want = JSON.stringify(openQuestionsOf(x.previousEntry));
      const got = JSON.stringify(capsule.current_state_summary?.open_questions_from_last_iteration ?? null);
      if (want !== got) failures.push(`PHUC_TEST_FAILURE_4: iteration ${n}'s capsule does not carry the open questions of iteration ${n - 1}`);
    }
  }
  return failures;
}

/** The five conditions as the report shows them, from the failures found. */
export function phucResult(failures: readonly string[]): PhucTest {
  const held = (i: number) => !failures.some((f) => f.startsWith(`PHUC_TEST_FAILURE_${i}:`));
  return {
    condition_1_history: held(1),
    condition_2_reflection: held(2),
    condition_3_care: held(3),
    condition_4_adaptation: held(4),
    condition_5_growth: held(5),
    failures: [...new Set(failures)],
    pass: failures.length === 0,
  };
}

export async function phucTest(
  ev: EvidenceStore,
  iterations: number[],
  opts: { hostPaths: readonly string[]; converged: boolean; rungTarget: number; rungAchieved: number },
): Promise<PhucTest> {
  const failures: string[] = [];
  let previousEntry: string | null = null;
  const planText = (await ev.readText('plan.json')) ?? '';
  for (const n of iterations) {
    // Parsed by its schema like every document; one that does not parse fails the Phuc Test (condition 3), named by file and field.
    let capsule: Capsule | null = null;
    let capsuleError: string | undefined;
    const rel = `${iterDir(n)}/cnf_capsule.json`;
    // Its content is checked in the bytes written (the check of those bytes during the run is reused).
    const capsuleText = (await ev.readText(rel)) ?? undefined;
    try {
      capsule = capsuleText === undefined ? null : parseDocument(rel, capsuleText, capsuleSchema);
    } catch (e) {
      if (!(e instanceof EvidenceUnverifiable)) throw e;
      capsuleError = e.message;
    }
    const entry = await ev.readText(`${iterDir(n)}/agents_md_entry.md`);
    failures.push(...phucConditions({ iteration: n, capsule, capsuleText, capsuleError, entry, previousEntry, hostPaths: opts.hostPaths, planText }));
    previousEntry = entry;
  }
  if (opts.converged && rungLevel(opts.rungAchieved) < rungLevel(opts.rungTarget))
    failures.push(`PHUC_TEST_FAILURE_5: convergence at rung ${opts.rungAchieved}, below the declared rung_target ${opts.rungTarget}`);
  return phucResult(failures);
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

/** Words that declare an API rather than name it (TypeScript/JavaScript, Python, Go, Rust, Java…). */
const DECLARATION_WORDS = new Set(
  'export default declare async function const let var class interface type enum abstract public private protected static readonly def fn pub func struct trait impl module namespace extern final void new'.split(
    ' ',
  ),
);

/**
 * The API symbols that changed between two API-surface snapshots (rung 65537): each line found in
 * only one snapshot is named by its first identifier that is not a declaration word.
 */
export function changedApiSymbols(before: string, after: string): string[] {
  const lines = (t: string) =>
    new Set(
      t
        .split(/\r?\n/)
        .map((l) => l.trim())
        .filter(Boolean),
    );
  const [b, a] = [lines(before), lines(after)];
  const differing = [...[...b].filter((l) => !a.has(l)), ...[...a].filter((l) => !b.has(l))];
  const name = (line: string) => (line.match(/[A-Za-z_$][\w$]*/g) ?? []).find((w) => !DECLARATION_WORDS.has(w)) ?? line;
  return [...new Set(differing.map(name))].sort();
}

/** The changed symbols a drift explanation does not name (as a whole word). */
export function unexplainedSymbols(symbols: readonly string[], explanation: string): string[] {
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return symbols.filter((s) => !new RegExp(`(^|[^\\w$])${escape(s)}($|[^\\w$])`).test(explanation));
}
