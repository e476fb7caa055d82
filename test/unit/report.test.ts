// The halting report's output contract for the exits that did not converge: built from evidence
// alone, the same for the same evidence, with paths relative to the evidence tree.
import { buildReport, type ReportInput } from '../../src/engine/evidence/report.js';
import { howToGoOn, iterationSpan } from '../../src/engine/evidence/run-accounting.js';
import { renderReportMarkdown } from '../../src/engine/evidence/report-markdown.js';
import { TERMINAL_STATES } from '../../src/engine/run/fsm.js';
import type { Certificate } from '../../src/engine/judge/certificate.js';
import type { LoopState } from '../../src/engine/evidence/state.js';
import { initialState } from '../../src/engine/evidence/state.js';
import type { Plan } from '../../src/engine/config/plan.js';
import { Decimal } from '../../src/engine/common/decimal.js';

const plan = {
  goal: 'g',
  R_p: '1e-4',
  rung_target: 641,
  agent: { use: 'command' },
  northstar: { metrics: [], baseline: {} },
  budget: { max_iterations: 10 },
} as unknown as Plan;
const row = (iteration: number, W: number | null, total: number | null, residual: string) => ({
  iteration,
  G: 5,
  L: 15,
  O: 25,
  W,
  total,
  certificate: 'NONE' as const,
  residual,
  northstar_distance: null,
});
const state = (): LoopState => ({
  ...initialState(),
  next_iteration: 4,
  residual_history: ['1', '2', '3', '4'],
  rows: [row(0, 5, 50, '1'), row(1, 0, 45, '2'), row(2, null, null, '3'), row(3, 0, 45, '4')],
  cycles: [0, 1, 2, 3].map((iteration) => ({
    iteration,
    agent: 'command',
    blocker_class: 'TEST_FAIL' as never,
    blocker_reason: '',
    improvement: 'worse',
    fail_closed_signals: 0,
    residual: null,
    failure_signatures: [],
    detour_next: false,
    critic: null,
    reused_checks: [],
  })),
  exits_fired: [{ kind: 'NORTHSTAR_DISTANCE_RISING', reason: 'northstar distance rose three iterations in a row: 1 < 2 < 3', iteration: 3 }],
});
const cert = {
  type: 'NONE',
  iteration: 3,
  residual: '4',
  checklist: [{ id: 'tests', description: 'd', met: false, exit_code: 1, evidence: 'iter_3/checks/tests.log#ab12' }],
} as unknown as Certificate;
const input = (over: Partial<ReportInput>): ReportInput => ({
  plan,
  state: state(),
  status: 'EXIT_BLOCKED',
  stop_reason: 'NORTHSTAR_DRIFT',
  iterations: [0, 1, 2, 3],
  evRel: 'evidence/loop',
  certificate: cert,
  triangle: null,
  phuc: null,
  rung: null,
  lastState: 'BUDGET_CHECK',
  evidencePointers: [{ path: 'iter_3/certificate.json', sha256: 'c0ffee' }],
  extra: { detail: 'northstar distance rose three iterations in a row: 1 < 2 < 3' },
  ...over,
});

describe('halting report: the output contract of a run that did not converge', () => {
  test('EXIT_BLOCKED: last state, what ran and failed, evidence pointers (relative), why it did not converge', () => {
    const r = buildReport(input({}));
    expect(r.last_known_state).toBe('BUDGET_CHECK');
    expect(r.what_ran_and_failed).toBe(
      'iteration 3 ran command and the criteria; NORTHSTAR_DISTANCE_RISING: northstar distance rose three iterations in a row: 1 < 2 < 3; criteria not met: tests (exit 1, evidence/loop/iter_3/checks/tests.log)',
    );
    expect(r.evidence_pointers).toEqual([{ path: 'evidence/loop/iter_3/certificate.json', sha256: 'c0ffee' }]);
    expect(r.reason_for_non_convergence).toBe(
      'EXIT_BLOCKED(NORTHSTAR_DRIFT): northstar distance rose three iterations in a row: 1 < 2 < 3; final residual 4, R_p 1e-4; criteria not met: tests (exit 1, evidence/loop/iter_3/checks/tests.log)',
    );
    expect(r).toMatchObject({ diagnosis_attempt: null, safe_partials: null });
    expect(JSON.stringify(buildReport(input({})))).toBe(JSON.stringify(r));
    expect(JSON.stringify(r)).not.toMatch(/"\/|\d{4}-\d\d-\d\dT/);
    const md = renderReportMarkdown(r);
    expect(md).toContain('**What ran and failed:** iteration 3 ran command');
    expect(md).toContain('- `evidence/loop/iter_3/certificate.json` (sha256 c0ffee)');
  });
  test('EXIT_DIVERGED: a diagnosis from the residual history, the best iteration and the blocker classes', () => {
    const r = buildReport(input({ status: 'EXIT_DIVERGED', stop_reason: 'SILENT_DIVERGENCE_DETECTED', extra: {} }));
    expect(r.diagnosis_attempt).toBe(
      'residuals rose 2 → 3 → 4 from iteration 1; the best residual 1 was at iteration 0; blocker classes since: 1 TEST_FAIL, 2 TEST_FAIL, 3 TEST_FAIL; criteria not met: tests (exit 1, evidence/loop/iter_3/checks/tests.log)',
    );
    expect(r).toMatchObject({ last_known_state: null, what_ran_and_failed: null, evidence_pointers: [] });
    expect(r.reason_for_non_convergence).toMatch(/^EXIT_DIVERGED\(SILENT_DIVERGENCE_DETECTED\); final residual 4/);
  });
  test('EXIT_NEED_INFO: what can be done with what is there', () => {
    const r = buildReport(
      input({
        plan: null,
        state: null,
        status: 'EXIT_NEED_INFO',
        stop_reason: 'NORTHSTAR_MISSING',
        certificate: null,
        extra: { missing_fields: ['NORTHSTAR.md'] },
      }),
    );
    expect(r.safe_partials).toBe(
      'Nothing ran and no earlier evidence was changed. `phuc-loop init` writes a NORTHSTAR.md to start from; supply NORTHSTAR.md and run again.',
    );
  });
  test('EXIT_CONVERGED carries none of them', () => {
    const r = buildReport(input({ status: 'EXIT_CONVERGED', stop_reason: 'EXACT' }));
    expect(r).toMatchObject({
      reason_for_non_convergence: null,
      diagnosis_attempt: null,
      last_known_state: null,
      what_ran_and_failed: null,
      safe_partials: null,
      evidence_pointers: [],
    });
  });
  test('null is not zero: an unknown W and GLOW stay unknown in the history, the average and the table', () => {
    const r = buildReport(input({}));
    expect(r.glow_history[2]).toMatchObject({ W: null, total: null });
    expect(r.average_glow).toBe(new Decimal(140).div(3).toString()); // (50 + 45 + 45) / 3: the unknown row is left out
    expect(renderReportMarkdown(r)).toContain('| 2 | 5 | 15 | 25 | unknown | unknown | 3 | NONE | n/a |');
  });
  test('iterations with W = 0 and a GLOW over 60 are flagged', () => {
    const s = state();
    s.rows[1] = row(1, 0, 75, '2');
    const r = buildReport(input({ state: s }));
    expect(r.high_glow_without_northstar).toEqual([1]);
    expect(renderReportMarkdown(r)).toContain('**Warning:** high GLOW with W = 0 (no Northstar metric advanced) at iteration(s) 1.');
  });
});

test('what goes on after every terminal state names a command, with the iteration a continuing run starts at', () => {
  for (const status of TERMINAL_STATES)
    for (const reason of ['MAX_ITERS', 'MAX_TOOL_CALLS', 'BACKPRESSURE_SIGNAL', 'STALLED', 'EXACT']) {
      const how = howToGoOn(status, reason, 7);
      expect(how).toMatch(/`phuc-loop run[^`]*`/);
      expect(how).toMatch(/iteration 7|from 7/);
    }
  expect(howToGoOn('EXIT_BUDGET_EXCEEDED', 'MAX_COST', 3)).toContain('budget.max_total_cost_usd (or `phuc-loop run --max-cost USD`)');
});

test('iteration spans: one, a range, a redone number', () => {
  expect([[], [4], [2, 3, 4], [0, 2]].map(iterationSpan)).toEqual(['no iteration', 'iteration 4', 'iterations 2–4', 'iterations 0, 2']);
});

describe('numbers for people (common/display.ts): rounded in the markdown, exact in the JSON', () => {
  const long = '0.005571030640668523676880222841225626740947';
  const report = () => {
    const s = { ...state(), residual_history: ['1', long], rows: [row(0, 5, 50, '1'), { ...row(1, 5, 50, long), northstar_distance: long }] };
    s.cost_reported = true;
    s.total_cost_usd = '0.34328799999999999';
    plan.budget.max_total_cost_usd = '25';
    return buildReport(
      input({
        state: s,
        certificate: { ...cert, residual: long },
        failures: {
          round: 'iter_1',
          failing_criteria: ['tests'],
          tests: { executed: 10, failing: 7, first: ['a > one: 3 != 4', 'a > two', 'b', 'c', 'd'] },
          excerpt: 'x',
        },
      }),
    );
  };

  test('residuals, distances and costs: four significant digits, cost to the cent; the JSON keeps them exact', () => {
    const r = report();
    const md = renderReportMarkdown(r);
    expect(md).not.toContain(long);
    expect(md).not.toContain('0.34328799999999999');
    expect(md).toContain('| Residual | 0.005571 (R_p 1e-4) |');
    expect(md).toContain('| 1 | 5 | 15 | 25 | 5 | 50 | 0.005571 | NONE | 0.005571 |');
    expect(md).toContain('cost $0.34 / $25.00');
    expect(r.reason_for_non_convergence).toContain('final residual 0.005571');
    expect(r.halting_certificate.final_residual_decimal_string).toBe(long);
    expect(r.budget_use!.cost_usd).toBe('0.34328799999999999 / 25');
  });

  test('the report names the failing tests of the last round: how many, the first few', () => {
    const r = report();
    expect(r.last_round_failures).toEqual({
      round: 'iter_1',
      failing_criteria: ['tests'],
      tests: { executed: 10, failing: 7, first: ['a > one: 3 != 4', 'a > two', 'b', 'c', 'd'] },
    });
    expect(renderReportMarkdown(r)).toContain(
      '**Failing in the last round (iter_1):** criteria `tests` — 7 of 10 tests fail: a > one: 3 != 4; a > two; b; c; d; and 2 more',
    );
  });
});
