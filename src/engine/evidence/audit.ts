// End-of-loop audits that read only the evidence tree, shared by the loop and `phuc-loop verify`:
// the Triangle Law (plan, certificates, AGENTS.md entries), the Phuc Test (five conditions) and
// the rung self-tests.
import { EvidenceUnverifiable } from '../common/errors.js';
import { parseDocument } from '../common/document.js';
import { capsuleProblems, capsuleSchema, criterionLines, type Capsule } from '../memory/capsule.js';
import { canonicalJson } from '../common/canonical.js';
import { openQuestionsOf } from '../memory/agents-md.js';
import { certificateSchema, isDiverging } from '../judge/certificate.js';
import { laneAMissing } from '../memory/lane-a.js';
import { Decimal, isDecimalString, seedChecksum } from '../common/decimal.js';
import { type EvidenceStore, iterDir } from '../store/evidence.js';
import { failingCriteriaResidual, failingTestsResidual, residualFromOutput } from '../judge/residual.js';

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
  /**
   * The sha256 of an evidence file by its path in the tree, given when the iteration is decided: the
   * capsule's sources are checked then, against the plan and the files it was built from (a re-plan
   * later rewrites plan.json; the end-of-run pass checks the rest again).
   */
  evidenceEntry?: (rel: string) => string | undefined;
}): string[] {
  const n = x.iteration;
  const failures: string[] = [];
  const { capsule, entry } = x;
  if (x.capsuleError) failures.push(`PHUC_TEST_FAILURE_3: iteration ${n}'s capsule: ${x.capsuleError}`);
  else if (!capsule) failures.push(`PHUC_TEST_FAILURE_1: iteration ${n} has no cnf_capsule.json`);
  if (!entry || !/- residual_direction: \w+/.test(entry) || !/- glow_score: \{total: (\d+|unknown)/.test(entry) || !/- northstar_distance_delta: /.test(entry))
    failures.push(`PHUC_TEST_FAILURE_2: iteration ${n}'s AGENTS.md entry lacks residual direction, GLOW or northstar delta`);
  else {
    const wrong = glowDeltaProblem(entry, x.previousEntry);
    if (wrong) failures.push(`PHUC_TEST_FAILURE_2: iteration ${n}'s AGENTS.md entry: ${wrong}`);
  }
  if (capsule) {
    const problems = [...capsuleProblems(capsule, x.hostPaths, x.planText, x.capsuleText), ...provenanceProblems(capsule, x.planText, x.evidenceEntry)];
    if (problems.length) failures.push(`PHUC_TEST_FAILURE_3: iteration ${n}'s capsule: ${problems.join('; ')}`);
    if (x.previousEntry !== null) {
      const want = JSON.stringify(openQuestionsOf(x.previousEntry));
      const got = JSON.stringify(capsule.current_state_summary?.open_questions_from_last_iteration ?? null);
      if (want !== got) failures.push(`PHUC_TEST_FAILURE_4: iteration ${n}'s capsule does not carry the open questions of iteration ${n - 1}`);
      // The hard facts it learnt (Lane A: what failed, what changed and how it was judged) are what the next agent adapts to.
      const prev = /^## Iteration (\d+)$/m.exec(x.previousEntry)?.[1];
      const lost = prev === undefined ? [] : laneAMissing(capsule.accumulated_learnings, [{ iteration: Number(prev), text: x.previousEntry }]);
      if (lost.length)
        failures.push(`PHUC_TEST_FAILURE_4: iteration ${n}'s capsule does not carry the Lane A learnings of iteration ${prev}: ${lost.join('; ')}`);
    }
  }
  return failures;
}

const glowTotal = (entry: string) => /^- glow_score: \{total: (\d+|unknown)/m.exec(entry)?.[1];

/**
 * Condition 2's GLOW delta, checked against what it is a delta of: this entry's GLOW total less the
 * previous entry's (n/a on the first entry, or where either total is unknown).
 */
function glowDeltaProblem(entry: string, previousEntry: string | null): string | null {
  const got = /^- glow_delta: (.*)$/m.exec(entry)?.[1];
  if (got === undefined) return 'no glow_delta';
  const [now, before] = [glowTotal(entry), previousEntry === null ? undefined : glowTotal(previousEntry)];
  const known = now !== undefined && now !== 'unknown' && before !== undefined && before !== 'unknown';
  if (!known) return got.startsWith('n/a') || previousEntry !== null ? null : `glow_delta ${got} without a previous GLOW`;
  const delta = Number(now) - Number(before);
  const want = `${delta >= 0 ? '+' : ''}${delta}`;
  return got === want ? null : `glow_delta ${got}, but GLOW went ${before} → ${now} (${want})`;
}

interface PlanSource {
  goal?: unknown;
  rung_target?: unknown;
  acceptance_criteria?: { id: string; description: string; run: string }[];
}

/**
 * Condition 3's "built from artifacts only", checked at the source: the goal, criteria and rung are
 * plan.json's, the criteria met and open are exactly the plan's, and every artifact link names an
 * evidence file that holds those bytes (found by its path under the folder of the plan's link).
 */
function provenanceProblems(capsule: Capsule, planText: string, evidenceEntry?: (rel: string) => string | undefined): string[] {
  const problems: string[] = [];
  if (!evidenceEntry) return problems;
  let plan: PlanSource | null = null;
  try {
    plan = planText ? (JSON.parse(planText) as PlanSource) : null;
  } catch {
    plan = null;
  }
  if (plan?.acceptance_criteria) {
    if (capsule.goal_statement !== plan.goal) problems.push('goal_statement is not the goal of plan.json');
    if (canonicalJson(capsule.acceptance_criteria) !== canonicalJson(criterionLines(plan.acceptance_criteria)))
      problems.push('acceptance_criteria are not the criteria of plan.json');
    if (capsule.rung_target !== plan.rung_target) problems.push('rung_target is not the rung_target of plan.json');
    const s = capsule.current_state_summary;
    const ids = plan.acceptance_criteria.map((c) => c.id).sort();
    if (canonicalJson([...s.criteria_met_so_far, ...s.criteria_still_open].sort()) !== canonicalJson(ids))
      problems.push("criteria_met_so_far and criteria_still_open are not the plan's criteria, each once");
  }
  const folder = capsule.artifact_links.find((l) => l.role === 'plan')?.path.replace(/\/?plan\.json$/, '');
  for (const l of capsule.artifact_links) {
    const rel = folder !== undefined && l.path.startsWith(folder) ? l.path.slice(folder.length).replace(/^\//, '') : null;
    if (rel === null || evidenceEntry(rel) !== l.sha256)
      problems.push(`artifact link ${l.path}#${l.sha256.slice(0, 12)} names no evidence file with those bytes`);
  }
  return problems;
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
    failures.push(
      ...phucConditions({
        iteration: n,
        capsule,
        capsuleText,
        capsuleError,
        entry,
        previousEntry,
        hostPaths: opts.hostPaths,
        planText,
      }),
    );
    previousEntry = entry;
  }
  if (opts.converged && rungLevel(opts.rungAchieved) < rungLevel(opts.rungTarget))
    failures.push(`PHUC_TEST_FAILURE_5: convergence at rung ${opts.rungAchieved}, below the declared rung_target ${opts.rungTarget}`);
  return phucResult(failures);
}

/** One case of a self-test: what was fed, what was expected, what came out. */
export interface SelfTestCase {
  input: string;
  expected: string;
  got: string;
  ok: boolean;
}

export interface SelfTests {
  divergence_detector: boolean;
  null_edge_sweep: boolean;
  /** Every case run, in order (written to self_tests.json: what the two verdicts were computed from). */
  cases: { divergence_detector: SelfTestCase[]; null_edge_sweep: SelfTestCase[] };
}

const testCase = (input: string, expected: string, got: string): SelfTestCase => ({ input, expected, got, ok: expected === got });

/**
 * Rung 274177's self-tests, fed with this run's own inputs (fixed inputs pass in any loop):
 * - the divergence detector fires when the run's residual history goes on rising from its largest
 *   value (in steps of that value), and holds on a tie or a fall from there;
 * - the residual reader rejects the null and edge forms of the certified residual as the checker
 *   printed it (nothing, blanks, null words, a sign, a unit, a decimal comma, hex), reads the value
 *   back exactly, and reads a metric that saw no criterion or no test as unavailable, never as 0.
 */
export function selfTests(run: { history: readonly string[]; residual: string; detail: string }): SelfTests {
  const div: SelfTestCase[] = [];
  const verdict = (h: readonly string[]) => (isDiverging(h) ? 'diverging' : 'not diverging');
  const top = run.history.map((h) => new Decimal(h)).reduce((a, b) => Decimal.max(a, b), new Decimal(run.residual));
  const step = top.isZero() ? new Decimal(1) : top;
  const tail = (ks: number[]) => [...run.history, ...ks.map((k) => top.plus(step.times(k)).toString())];
  for (const [ks, expected] of [
    [[1, 2, 3], 'diverging'],
    [[1, 1, 2], 'not diverging'],
    [[3, 2, 1], 'not diverging'],
    [[3, 1, 2, 3], 'diverging'],
  ] as const) {
    const h = tail([...ks]);
    div.push(testCase(h.join(', '), expected, verdict(h)));
  }
  // The certified residual as the checker printed it (a command's last line), else as recorded.
  const printed = /^command output (\S+)$/.exec(run.detail)?.[1] ?? run.residual;
  const read = (out: string) => {
    const r = residualFromOutput(out);
    return 'value' in r ? `value ${r.value.toString()}` : 'error';
  };
  const sweep: SelfTestCase[] = [testCase(printed, `value ${new Decimal(run.residual).toString()}`, read(`${printed}\n\n`))];
  const negative = new Decimal(run.residual).isZero() ? '-1' : `-${printed}`;
  for (const edge of [
    '',
    ' \t',
    'null',
    'None',
    'undefined',
    'NaN',
    'Infinity',
    negative,
    `${printed}%`,
    printed.replace('.', ',') + (printed.includes('.') ? '' : ',0'),
    `0x${printed}`,
  ])
    sweep.push(testCase(JSON.stringify(edge), 'error', read(edge)));
  for (const [what, got] of [
    ['no criterion ran', failingCriteriaResidual([])],
    ['JUnit files with no test that ran', failingTestsResidual({ tests: [], files: ['empty.xml'] })],
  ] as const)
    sweep.push(testCase(what, 'error', 'error' in got ? 'error' : `value ${got.value.toString()}`));
  return {
    divergence_detector: div.every((c) => c.ok),
    null_edge_sweep: sweep.every((c) => c.ok),
    cases: { divergence_detector: div, null_edge_sweep: sweep },
  };
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
