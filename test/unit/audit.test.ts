// The end-of-loop audits as pure functions: the Phuc Test's per-iteration conditions and the API
// symbols a rung-65537 drift explanation must name.
import { changedApiSymbols, phucConditions, phucResult, selfTests, unexplainedSymbols } from '../../src/engine/evidence/audit.js';
import { failingCriteriaResidual, failingTestsResidual } from '../../src/engine/judge/residual.js';

describe('Phuc Test, one iteration at a time', () => {
  const entry = [
    '- residual_direction: STABLE',
    '- glow_score: {total: unknown, G: 5, L: 0, O: 15, W: unknown}',
    '- glow_delta: n/a (first iteration)',
    '- northstar_distance_delta: n/a',
    '',
  ].join('\n');
  const base = { iteration: 3, previousEntry: null, hostPaths: [], planText: '' };
  test('an iteration without its capsule or with an entry that does not reflect fails conditions 1 and 2', () => {
    const failures = phucConditions({ ...base, capsule: null, entry: '## Iteration 3\n' });
    expect(failures).toEqual([
      'PHUC_TEST_FAILURE_1: iteration 3 has no cnf_capsule.json',
      "PHUC_TEST_FAILURE_2: iteration 3's AGENTS.md entry lacks residual direction, GLOW or northstar delta",
    ]);
    expect(phucResult(failures)).toMatchObject({
      condition_1_history: false,
      condition_2_reflection: false,
      condition_3_care: true,
      condition_4_adaptation: true,
      condition_5_growth: true,
      pass: false,
    });
  });
  test('an unknown GLOW is a recorded reflection (null is written as unknown, not left out)', () => {
    expect(phucConditions({ ...base, capsule: null, entry }).filter((f) => f.startsWith('PHUC_TEST_FAILURE_2'))).toEqual([]);
  });
  test('a stored capsule that does not parse by its schema fails condition 3, named by file and field (not condition 1)', () => {
    const capsuleError = 'iter_3/cnf_capsule.json: remaining_budget.seconds_remaining: Invalid input: expected number, received undefined';
    expect(phucConditions({ ...base, capsule: null, capsuleError, entry })).toEqual([`PHUC_TEST_FAILURE_3: iteration 3's capsule: ${capsuleError}`]);
  });
  test("condition 2: the GLOW delta is checked against the two entries' totals, not only written", () => {
    const at = (total: number, delta: string) =>
      `- residual_direction: DOWN\n- glow_score: {total: ${total}, G: 5, L: 0, O: 15, W: 5}\n- glow_delta: ${delta}\n- northstar_distance_delta: n/a\n`;
    const c2 = (e: string, prev: string | null) => phucConditions({ ...base, capsule: null, entry: e, previousEntry: prev }).filter((f) => f.includes('_2:'));
    expect(c2(at(45, '+5'), at(40, 'n/a (first iteration)'))).toEqual([]);
    expect(c2(at(45, '+25'), at(40, 'n/a (first iteration)'))).toEqual([
      "PHUC_TEST_FAILURE_2: iteration 3's AGENTS.md entry: glow_delta +25, but GLOW went 40 → 45 (+5)",
    ]);
    expect(c2(at(45, '+5'), null)).toEqual(["PHUC_TEST_FAILURE_2: iteration 3's AGENTS.md entry: glow_delta +5 without a previous GLOW"]);
  });
  test('condition 3: what the capsule says comes from plan.json and its links name evidence files with those bytes', () => {
    const plan = { goal: 'fix the parser', rung_target: 641, acceptance_criteria: [{ id: 'tests', description: 'the suite', run: 'npm test' }] };
    const sha = 'a'.repeat(64);
    const capsule = {
      goal_statement: 'fix the parser',
      acceptance_criteria: ['tests: the suite (the loop runs `npm test`; exit 0 = met)'],
      rung_target: 641,
      current_state_summary: { criteria_met_so_far: [], criteria_still_open: ['tests'], open_questions_from_last_iteration: [] },
      artifact_links: [
        { path: 'evidence/loop/plan.json', sha256: sha, role: 'plan' },
        { path: 'evidence/loop/iter_2/diff.patch', sha256: sha, role: 'artifact' },
      ],
    };
    const files: Record<string, string> = { 'plan.json': sha, 'iter_2/diff.patch': sha };
    const c3 = (c: object, p: object = plan) =>
      phucConditions({ ...base, capsule: c as never, entry, planText: JSON.stringify(p), evidenceEntry: (rel) => files[rel] })
        .filter((f) => f.includes('_3:'))
        .join('\n');
    expect(c3(capsule)).not.toMatch(/not the|names no evidence/);
    expect(c3({ ...capsule, goal_statement: 'delete the tests' })).toMatch(/goal_statement is not the goal of plan.json/);
    expect(c3(capsule, { ...plan, rung_target: 274177 })).toMatch(/rung_target is not the rung_target of plan.json/);
    files['iter_2/diff.patch'] = 'b'.repeat(64);
    expect(c3(capsule)).toMatch(/artifact link evidence\/loop\/iter_2\/diff.patch#aaaaaaaaaaaa names no evidence file with those bytes/);
  });
  test("condition 4: the capsule carries the previous entry's open questions and its Lane A learnings (in full, a witness line or the ledger)", () => {
    const sha = 'c'.repeat(64);
    const fact = `- [A] criterion two still fails (exit 1) — evidence/loop/iter_2/checks/two.log#${sha}`;
    const previous = [
      '## Iteration 2',
      '',
      '### N.3 What Failed',
      fact,
      '',
      '### N.5 Open Questions [Lane C]',
      '- why two?',
      '',
      '### N.6 GBB',
      '- Z: z',
      '',
    ].join('\n');
    const capsule = (learnings: string, questions = ['why two?']) =>
      ({ current_state_summary: { open_questions_from_last_iteration: questions }, accumulated_learnings: learnings }) as never;
    const c4 = (c: never) => phucConditions({ ...base, capsule: c, entry, previousEntry: previous }).filter((f) => f.includes('_4:'));
    expect(c4(capsule(previous))).toEqual([]);
    expect(c4(capsule(`- [iter 2] certificate NONE · entry x\n  ${fact}\n`))).toEqual([]);
    expect(
      c4(
        capsule(
          '- [A] criterion two still fails (exit 1) — evidence/loop/iter_N/checks/two.log · iterations 0–2 (links: iter_N/agents_md_entry.md, sha256 in manifest.json)',
        ),
      ),
    ).toEqual([]);
    expect(c4(capsule('## Iteration 2\n\n### N.3 What Failed\n(nothing)\n'))).toEqual([
      `PHUC_TEST_FAILURE_4: iteration 3's capsule does not carry the Lane A learnings of iteration 2: 2: ${fact}`,
    ]);
    expect(c4(capsule(previous, []))).toEqual(["PHUC_TEST_FAILURE_4: iteration 3's capsule does not carry the open questions of iteration 2"]);
  });
  test('no failure passes all five', () => {
    expect(phucResult([])).toMatchObject({ pass: true, failures: [] });
  });
});

describe('API drift names the changed API', () => {
  const before = 'export function existing(): void\nexport const limit: number\nexport interface Options { a: string }\n';
  test('each added, removed or changed line is named by its symbol, not its declaration words', () => {
    const after = 'export function existing(x: string): void\nexport interface Options { a: string }\nexport function added(): void\n';
    expect(changedApiSymbols(before, after)).toEqual(['added', 'existing', 'limit']);
    expect(changedApiSymbols(before, before.split('\n').reverse().join('\n'))).toEqual([]);
  });
  test('an explanation counts for the symbols it names as whole words', () => {
    const symbols = ['added', 'existing', 'limit'];
    expect(unexplainedSymbols(symbols, '`added()` is new; `existing(x)` takes a name; `limit` was removed.')).toEqual([]);
    expect(unexplainedSymbols(symbols, 'added() is new; the limits changed.')).toEqual(['existing', 'limit']);
    expect(unexplainedSymbols(symbols, 'The API changed.')).toEqual(symbols);
    expect(unexplainedSymbols(['$x'], 'renamed $x')).toEqual([]);
  });
});

describe("rung 274177's self-tests run on the run's own inputs", () => {
  test('the sweep is built from the certified residual as the checker printed it, and the detector from the run history', () => {
    const st = selfTests({ history: ['0.5', '0.25', '0.125'], residual: '0.125', detail: 'command output 0.125' });
    expect(st).toMatchObject({ divergence_detector: true, null_edge_sweep: true });
    const inputs = st.cases.null_edge_sweep.map((c) => c.input);
    expect(inputs).toEqual(expect.arrayContaining(['0.125', '"-0.125"', '"0.125%"', '"0,125"', '"0x0.125"']));
    // The detector is fed the run's history continued from its largest residual (0.5) in steps of it.
    expect(st.cases.divergence_detector[0]).toMatchObject({ input: '0.5, 0.25, 0.125, 1, 1.5, 2', expected: 'diverging', got: 'diverging' });
  });

  test('a residual printed in a form the reader does not read back the same fails the sweep', () => {
    const st = selfTests({ history: ['1', '0'], residual: '0', detail: 'command output 0e0x' });
    expect(st.null_edge_sweep).toBe(false);
    expect(st.cases.null_edge_sweep.find((c) => !c.ok)).toMatchObject({ input: '0e0x', expected: 'value 0', got: 'error' });
  });

  test('a metric that saw no criterion or no test is unavailable, never 0 (a null input read as EXACT)', () => {
    expect(failingCriteriaResidual([])).toEqual({ error: expect.stringMatching(/no criterion ran/) });
    expect(failingTestsResidual({ tests: [], files: ['a.xml'] })).toEqual({ error: expect.stringMatching(/no test that ran/) });
    const st = selfTests({ history: ['0'], residual: '0', detail: '0 of 2 criteria failing' });
    expect(st.cases.null_edge_sweep.filter((c) => /no criterion|no test/.test(c.input)).map((c) => c.got)).toEqual(['error', 'error']);
  });
});
