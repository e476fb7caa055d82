// The whole precedence table of SPEC §3, without a process: every pair of competing exits, and
// the attempts that are not iterations at all.
import {
  agentBackpressure,
  countsAgainstBudget,
  decide,
  decideBeforeIteration,
  decideFinal,
  EXIT_PRECEDENCE,
  type ExitKind,
  iterationBudget,
  iterationsUsed,
  downstreamUnavailable,
  type IterationFacts,
  type Judgement,
} from '../../src/engine/run/decide.js';
import { pauseStep } from '../../src/engine/os/stops.js';

const judged = (over: Partial<Judgement> = {}): Judgement => ({
  allMet: false,
  residualError: null,
  exact: false,
  converged: false,
  suiteWeakened: null,
  ...over,
});
const quiet = (over: Partial<IterationFacts> = {}): IterationFacts => ({
  interrupted: null,
  changed: true,
  reported: true,
  agentFailure: null,
  guardrail: null,
  invariant: null,
  judgement: judged(),
  diverging: null,
  progress: [],
  backpressure: null,
  northstarDrift: null,
  northstarRising: null,
  budget: null,
  ...over,
});

/** Facts that fire exactly `kind` (and nothing else). */
function firing(kind: ExitKind): Partial<IterationFacts> {
  switch (kind) {
    case 'INVARIANT':
      return { invariant: { code: 'BRANCH_MOVED', detail: 'the branch moved' } };
    case 'GUARDRAIL':
      return { guardrail: 'protected paths changed and reverted: test/a.js' };
    case 'CONVERGED':
      return { judgement: judged({ allMet: true, exact: true }) };
    case 'DIVERGED':
      return { diverging: 'residuals 1 < 2 < 3' };
    case 'NO_VIABLE_FIX_PATH':
    case 'STUCK':
    case 'STALLED':
      return { progress: [{ kind, reason: kind.toLowerCase() }] };
    case 'BACKPRESSURE':
      return { backpressure: 'STOP label' };
    case 'NORTHSTAR_DRIFT':
      return { northstarDrift: 'W = 0 for 3 iterations in a row' };
    case 'NORTHSTAR_DISTANCE_RISING':
      return { northstarRising: 'northstar distance rose three iterations in a row: 1 < 2 < 3' };
    case 'BUDGET':
      return { budget: { code: 'MAX_ITERS', reason: '10 of 10 iterations used' } };
  }
}
const merge = (a: Partial<IterationFacts>, b: Partial<IterationFacts>): IterationFacts =>
  quiet({ ...a, ...b, progress: [...(a.progress ?? []), ...(b.progress ?? [])], judgement: a.judgement ?? b.judgement ?? judged() });

const EXPECT: Record<ExitKind, { status: string; reason: string; certificate: string }> = {
  INVARIANT: { status: 'EXIT_BLOCKED', reason: 'BRANCH_MOVED', certificate: 'NONE' },
  GUARDRAIL: { status: 'EXIT_BLOCKED', reason: 'GUARDRAIL_VIOLATION', certificate: 'NONE' },
  CONVERGED: { status: 'EXIT_CONVERGED', reason: 'EXACT', certificate: 'EXACT' },
  DIVERGED: { status: 'EXIT_DIVERGED', reason: 'SILENT_DIVERGENCE_DETECTED', certificate: 'DIVERGED' },
  NO_VIABLE_FIX_PATH: { status: 'EXIT_BLOCKED', reason: 'NO_VIABLE_FIX_PATH', certificate: 'NONE' },
  STUCK: { status: 'EXIT_BLOCKED', reason: 'STUCK', certificate: 'NONE' },
  STALLED: { status: 'EXIT_BLOCKED', reason: 'STALLED', certificate: 'NONE' },
  BACKPRESSURE: { status: 'EXIT_BLOCKED', reason: 'BACKPRESSURE_SIGNAL', certificate: 'BACKPRESSURE' },
  NORTHSTAR_DRIFT: { status: 'EXIT_BLOCKED', reason: 'NORTHSTAR_DRIFT', certificate: 'NONE' },
  NORTHSTAR_DISTANCE_RISING: { status: 'EXIT_BLOCKED', reason: 'NORTHSTAR_DRIFT', certificate: 'NONE' },
  BUDGET: { status: 'EXIT_BUDGET_EXCEEDED', reason: 'MAX_ITERS', certificate: 'TIMEOUT' },
};

describe('decide: the precedence table', () => {
  test('nothing fired: the loop goes on', () => {
    expect(decide(quiet())).toEqual({ halt: false, record: true, certificate: 'NONE', fired: [] });
  });
  test.each(EXIT_PRECEDENCE.map((k) => [k]))('%s alone', (kind) => {
    const d = decide(quiet(firing(kind)));
    expect(d).toMatchObject({ halt: true, record: true, status: EXPECT[kind].status, stop_reason: EXPECT[kind].reason, certificate: EXPECT[kind].certificate });
  });
  const pairs = EXIT_PRECEDENCE.flatMap((a, i) => EXIT_PRECEDENCE.slice(i + 1).map((b) => [a, b] as [ExitKind, ExitKind]));
  test.each(pairs)('%s beats %s, and both are reported', (hi, lo) => {
    for (const facts of [merge(firing(hi), firing(lo)), merge(firing(lo), firing(hi))]) {
      const d = decide(facts);
      expect(d).toMatchObject({ halt: true, status: EXPECT[hi].status, stop_reason: EXPECT[hi].reason, certificate: EXPECT[hi].certificate });
      expect(d.fired.map((f) => f.kind)).toEqual([hi, lo]);
    }
  });
  test('a suite that ran fewer tests is a guardrail violation, never a certificate', () => {
    const d = decide(quiet({ judgement: judged({ allMet: true, exact: true, suiteWeakened: '12 tests ran, the baseline ran 14' }) }));
    expect(d).toMatchObject({ status: 'EXIT_BLOCKED', stop_reason: 'GUARDRAIL_VIOLATION', certificate: 'NONE' });
  });
  test('a rising Northstar distance ranks with the other Northstar drift: after backpressure, before the budget', () => {
    const at = (k: ExitKind) => EXIT_PRECEDENCE.indexOf(k);
    expect(at('NORTHSTAR_DISTANCE_RISING')).toBe(at('BACKPRESSURE') + 2);
    expect(at('NORTHSTAR_DISTANCE_RISING')).toBe(at('BUDGET') - 1);
    expect(decide(quiet({ northstarRising: 'rose', northstarDrift: 'W = 0' })).fired.map((f) => f.kind)).toEqual([
      'NORTHSTAR_DRIFT',
      'NORTHSTAR_DISTANCE_RISING',
    ]);
  });
  test('a residual below R_p while a criterion fails is no halt: the loop goes on, with any other exit still deciding', () => {
    const below = judged({ allMet: false, converged: true });
    expect(decide(quiet({ judgement: below }))).toEqual({ halt: false, record: true, certificate: 'NONE', fired: [] });
    for (const kind of EXIT_PRECEDENCE.filter((k) => k !== 'CONVERGED'))
      expect(decide(merge(firing(kind), { judgement: below }))).toMatchObject({
        halt: true,
        stop_reason: EXPECT[kind].reason,
        certificate: EXPECT[kind].certificate,
      });
    expect(decide(quiet({ judgement: judged({ allMet: true, converged: true }) }))).toMatchObject({ status: 'EXIT_CONVERGED', certificate: 'CONVERGED' });
  });
  test('a residual that could not be computed blocks (null is not zero)', () => {
    expect(decide(quiet({ judgement: judged({ residualError: 'no number' }) }))).toMatchObject({
      status: 'EXIT_BLOCKED',
      stop_reason: 'RESIDUAL_UNAVAILABLE',
      record: true,
    });
  });
});

describe('decide: attempts that are not iterations', () => {
  test('a pause before any change is not counted and certifies nothing but the pause', () => {
    expect(decide(quiet({ changed: false, reported: false, interrupted: 'STOP label', judgement: null }))).toMatchObject({
      halt: true,
      record: false,
      status: 'EXIT_BLOCKED',
      stop_reason: 'BACKPRESSURE_SIGNAL',
      certificate: 'BACKPRESSURE',
    });
  });
  test('a pause after a partial change is recorded (committed as partial work, judged by the next run)', () => {
    expect(decide(quiet({ changed: true, interrupted: 'SIGTERM', judgement: null }))).toMatchObject({
      halt: true,
      record: true,
      stop_reason: 'BACKPRESSURE_SIGNAL',
      certificate: 'BACKPRESSURE',
    });
  });
  test('a failed agent that changed nothing ends with its own words and no commit', () => {
    expect(decide(quiet({ changed: false, reported: false, agentFailure: 'exit 1: Invalid API key', judgement: null }))).toMatchObject({
      record: false,
      stop_reason: 'AGENT_FAILED',
      detail: 'exit 1: Invalid API key',
    });
  });
  test('no change and no report: EVIDENCE_INCOMPLETE, not recorded', () => {
    expect(decide(quiet({ changed: false, reported: false, judgement: null }))).toMatchObject({ record: false, stop_reason: 'EVIDENCE_INCOMPLETE' });
  });
  test('a report without a change is an iteration (its learnings count)', () => {
    expect(decide(quiet({ changed: false, reported: true }))).toMatchObject({ halt: false, record: true });
  });
  test('a guardrail with no change left (all reverted) is still recorded as a violation', () => {
    expect(decide(quiet({ changed: false, reported: false, guardrail: 'reverted test/a.js', judgement: null }))).toMatchObject({
      record: true,
      stop_reason: 'GUARDRAIL_VIOLATION',
    });
  });
});

describe('decide: a downstream the loop depends on is unavailable (seed §9.1 downstream_dependency_unavailable)', () => {
  const step = (over: Partial<Parameters<typeof agentBackpressure>[0]> = {}) =>
    agentBackpressure({ stop: null, aborted: false, rateLimited: false, unreachable: null, errorText: null, ...over });
  const api = { what: 'the model API https://api.example.com', why: 'connect ECONNREFUSED 127.0.0.1:443' };
  const down = step({ unreachable: api, errorText: 'oops' })!;

  test("a failed step whose model API does not answer the loop's probe is backpressure naming it, not an agent failure", () => {
    expect(step({ unreachable: api, errorText: 'oops' })).toBe(
      'downstream unavailable (the model API https://api.example.com): it cannot be reached from here (connect ECONNREFUSED 127.0.0.1:443); the agent failed: oops',
    );
    expect(step({ unreachable: api })).toBe(downstreamUnavailable(api.what, `it cannot be reached from here (${api.why}); the agent failed`));
    // The agent's words alone are no pause.
    expect(step({ errorText: '503 Service Unavailable' })).toBeNull();
  });
  test('every combination: a stop the loop saw wins, a step the loop aborted is no verdict on the service, a rate limit before unavailability', () => {
    for (const stop of ['STOP label', null])
      for (const aborted of [true, false])
        for (const rateLimited of [true, false])
          for (const unreachable of [api, null]) {
            const got = step({ stop, aborted, rateLimited, unreachable, errorText: 'x' });
            const want =
              stop ??
              (aborted
                ? null
                : rateLimited
                  ? 'the agent hit a rate limit: x'
                  : unreachable
                    ? downstreamUnavailable(api.what, `it cannot be reached from here (${api.why}); the agent failed: x`)
                    : null);
            expect([stop, aborted, rateLimited, unreachable, got]).toEqual([stop, aborted, rateLimited, unreachable, want]);
          }
  });
  test('the agent failed on it and changed nothing: a pause (BACKPRESSURE, not recorded), never AGENT_FAILED', () => {
    expect(decide(quiet({ changed: false, reported: false, interrupted: down, agentFailure: 'exit 1: Error: connect ECONNREFUSED', judgement: null }))).toEqual(
      {
        halt: true,
        record: false,
        certificate: 'BACKPRESSURE',
        status: 'EXIT_BLOCKED',
        stop_reason: 'BACKPRESSURE_SIGNAL',
        detail: down,
        fired: [{ kind: 'BACKPRESSURE', code: 'BACKPRESSURE_SIGNAL', reason: down }],
      },
    );
    expect(countsAgainstBudget({ interrupted: down, judgement: null })).toBe(false);
  });
  test('with a partial change: recorded as BACKPRESSURE; a guardrail or an invariant of the same step still wins', () => {
    expect(decide(quiet({ interrupted: down, agentFailure: 'exit 1', judgement: null }))).toMatchObject({
      record: true,
      certificate: 'BACKPRESSURE',
      stop_reason: 'BACKPRESSURE_SIGNAL',
    });
    expect(decide(quiet({ interrupted: down, guardrail: 'reverted test/a.js', judgement: null }))).toMatchObject({ stop_reason: 'GUARDRAIL_VIOLATION' });
    expect(decide(quiet({ interrupted: down, invariant: { code: 'BRANCH_MOVED', detail: 'moved' }, judgement: null }))).toMatchObject({
      stop_reason: 'BRANCH_MOVED',
    });
  });
  test('before an iteration (the pre-flight probe of the model API): a pause that spawns no agent, before a used-up budget', () => {
    expect(decideBeforeIteration({ stop: down, budget: { code: 'MAX_ITERS', reason: '3 of 3' } })).toMatchObject({
      certificate: 'BACKPRESSURE',
      status: 'EXIT_BLOCKED',
      stop_reason: 'BACKPRESSURE_SIGNAL',
      detail: down,
    });
  });
  test('the next step names the downstream to wait for', () => {
    expect(pauseStep(down)).toBe("wait until the model API https://api.example.com answers again (the network, a proxy, the service's status), then ");
    expect(pauseStep(downstreamUnavailable('the model API http://127.0.0.1:9', 'it cannot be reached from here (connect ECONNREFUSED)'))).toBe(
      "wait until the model API http://127.0.0.1:9 answers again (the network, a proxy, the service's status), then ",
    );
  });
});

describe('decide: a pause uses no iteration up (max_iterations counts the iterations actually run)', () => {
  test('only an iteration a stop cut short before any check ran is not counted', () => {
    // Stopped during the agent step or the checks: no judgement.
    expect(countsAgainstBudget({ interrupted: 'scratch/STOP exists', judgement: null })).toBe(false);
    expect(countsAgainstBudget({ interrupted: 'the loop was asked to stop (during the checks)', judgement: null })).toBe(false);
    // Judged, then a stop (it pauses before the next iteration): an iteration run in full.
    expect(countsAgainstBudget({ interrupted: null, judgement: judged() })).toBe(true);
    // No stop: judged or not (a guardrail with nothing left to judge), it counts.
    expect(countsAgainstBudget({ interrupted: null, judgement: null })).toBe(true);
  });
  test('the iterations used leave out those stopped before their checks', () => {
    expect(iterationsUsed(0, [])).toBe(0);
    expect(iterationsUsed(3, [])).toBe(3);
    expect(iterationsUsed(1, [0])).toBe(0);
    expect(iterationsUsed(5, [1, 3])).toBe(3);
    // A number recorded twice or beyond the record (a hand-edited state) takes nothing more off.
    expect(iterationsUsed(2, [1, 1, 7])).toBe(1);
  });
  test('MAX_ITERS once the iterations used reach the budget', () => {
    expect(iterationBudget(0, 1)).toBeNull();
    expect(iterationBudget(1, 1)).toEqual({ code: 'MAX_ITERS', reason: '1 of 1 iterations used' });
    expect(iterationBudget(11, 10)).toMatchObject({ code: 'MAX_ITERS' });
  });
  test('max_iterations 1, iteration 0 stopped during its agent step: a pause, then iteration 1 runs, and its judgement ends the budget', () => {
    const facts = quiet({ changed: true, interrupted: 'scratch/STOP exists', judgement: null });
    const counts = countsAgainstBudget(facts);
    const budget = iterationBudget(iterationsUsed(0, []) + (counts ? 1 : 0), 1);
    const paused = decide({ ...facts, budget });
    expect(paused).toMatchObject({ halt: true, record: true, stop_reason: 'BACKPRESSURE_SIGNAL', certificate: 'BACKPRESSURE' });
    expect(paused.fired.map((f) => f.kind)).toEqual(['BACKPRESSURE']);
    // The next run, the STOP removed: nothing stands before iteration 1.
    expect(decideBeforeIteration({ stop: null, budget: iterationBudget(iterationsUsed(1, [0]), 1) })).toBeNull();
    // Iteration 1 is judged: it counts, and the budget is used up.
    const next = quiet();
    expect(decide({ ...next, budget: iterationBudget(iterationsUsed(1, [0]) + (countsAgainstBudget(next) ? 1 : 0), 1) })).toMatchObject({
      status: 'EXIT_BUDGET_EXCEEDED',
      stop_reason: 'MAX_ITERS',
    });
    // Without the stop, iteration 0 alone would have used it up.
    expect(decideBeforeIteration({ stop: null, budget: iterationBudget(iterationsUsed(1, []), 1) })).toMatchObject({ stop_reason: 'MAX_ITERS' });
  });
});

describe('decide: before an iteration, and the final audits', () => {
  test('a stop beats a used-up budget; neither spawns an agent', () => {
    expect(decideBeforeIteration({ stop: 'STOP', budget: { code: 'MAX_ITERS', reason: 'x' } })).toMatchObject({
      status: 'EXIT_BLOCKED',
      stop_reason: 'BACKPRESSURE_SIGNAL',
      record: false,
    });
    expect(decideBeforeIteration({ stop: null, budget: { code: 'MAX_COST', reason: 'x' } })).toMatchObject({
      status: 'EXIT_BUDGET_EXCEEDED',
      stop_reason: 'MAX_COST',
    });
    expect(decideBeforeIteration({ stop: null, budget: null })).toBeNull();
  });
  const ok = {
    triangleMissing: 'none' as const,
    phucFailures: [],
    confirmation: null,
    interrupted: null,
    alignment: 'ALIGNED' as const,
    neutralAccepted: false,
    alignmentDetail: '1 → 0',
  };
  test('audits withhold a convergence in order: Triangle, Phuc Test, fresh confirmation, Northstar', () => {
    expect(decideFinal('EXIT_CONVERGED', 'EXACT', ok)).toEqual({ status: 'EXIT_CONVERGED', stop_reason: 'EXACT', withheld: null });
    expect(decideFinal('EXIT_CONVERGED', 'EXACT', { ...ok, triangleMissing: 'VERIFY', phucFailures: ['PHUC_TEST_FAILURE_3: x'] }).stop_reason).toBe(
      'VERIFY_SKIPPED',
    );
    expect(decideFinal('EXIT_CONVERGED', 'EXACT', { ...ok, phucFailures: ['PHUC_TEST_FAILURE_3: x'], confirmation: 'fails fresh' }).stop_reason).toBe(
      'PHUC_TEST_FAILURE_3',
    );
    expect(decideFinal('EXIT_CONVERGED', 'EXACT', { ...ok, confirmation: 'fails fresh', alignment: 'DRIFTING' })).toMatchObject({
      status: 'EXIT_BLOCKED',
      stop_reason: 'CONFIRMATION_FAILED',
    });
    expect(decideFinal('EXIT_CONVERGED', 'EXACT', { ...ok, alignment: 'DRIFTING' }).stop_reason).toBe('NORTHSTAR_DRIFT');
    expect(decideFinal('EXIT_CONVERGED', 'EXACT', { ...ok, alignment: 'NEUTRAL' }).stop_reason).toBe('GLOW_WITHOUT_NORTHSTAR_ALIGNMENT');
    expect(decideFinal('EXIT_CONVERGED', 'EXACT', { ...ok, alignment: 'NEUTRAL', neutralAccepted: true }).withheld).toBeNull();
  });
  test('a stop during the final confirmation is a pause, before every audit (what it ran proves nothing)', () => {
    const cut = { ...ok, interrupted: 'SIGTERM', confirmation: 'fails fresh', triangleMissing: 'VERIFY' as const, phucFailures: ['PHUC_TEST_FAILURE_3: x'] };
    expect(decideFinal('EXIT_CONVERGED', 'EXACT', cut)).toMatchObject({ status: 'EXIT_BLOCKED', stop_reason: 'BACKPRESSURE_SIGNAL' });
    expect(decideFinal('EXIT_CONVERGED', 'EXACT', { ...ok, interrupted: 'scratch/STOP' }).withheld).toContain('paused');
    expect(decideFinal('EXIT_DIVERGED', 'SILENT_DIVERGENCE_DETECTED', { ...ok, interrupted: 'x' }).stop_reason).toBe('SILENT_DIVERGENCE_DETECTED');
  });
  test('a non-converged exit keeps its reason through a failed confirmation or drift', () => {
    expect(decideFinal('EXIT_BLOCKED', 'BACKPRESSURE_SIGNAL', { ...ok, confirmation: 'x', alignment: 'DRIFTING' })).toEqual({
      status: 'EXIT_BLOCKED',
      stop_reason: 'BACKPRESSURE_SIGNAL',
      withheld: null,
    });
  });
});
