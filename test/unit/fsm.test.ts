import { InvariantViolation } from '../../src/engine/common/errors.js';
import { EXIT_CODES, Fsm, isTerminal, STATES, TRANSITIONS } from '../../src/engine/run/fsm.js';

describe('FSM (seed §3)', () => {
  test('every state of the seed, five terminal', () => {
    expect(STATES).toHaveLength(15);
    expect(STATES.filter(isTerminal)).toEqual(['EXIT_CONVERGED', 'EXIT_DIVERGED', 'EXIT_BUDGET_EXCEEDED', 'EXIT_BLOCKED', 'EXIT_NEED_INFO']);
  });
  test('a full iteration path is legal; an illegal transition is an invariant violation', () => {
    const f = new Fsm();
    for (const s of [
      'INTAKE_GOAL',
      'NULL_CHECK',
      'DREAM_GOAL',
      'SPAWN_SUBAGENT',
      'COLLECT_ARTIFACTS',
      'CHECK_HALTING',
      'ACCUMULATE_LEARNINGS',
      'GLOW_CHECK',
      'BUDGET_CHECK',
      'SPAWN_SUBAGENT',
    ] as const)
      f.to(s);
    expect(() => f.to('EXIT_CONVERGED')).toThrow(InvariantViolation);
    expect(TRANSITIONS.NULL_CHECK).toContain('EXIT_NEED_INFO');
  });
  test('distinct exit codes', () => {
    expect(new Set(Object.values(EXIT_CODES)).size).toBe(Object.keys(EXIT_CODES).length);
    expect(EXIT_CODES.EXIT_CONVERGED).toBe(0);
  });
});

describe('rungs', () => {
  test('65537 is the highest rung, above 274177, although a smaller number', async () => {
    const { rungLevel } = await import('../../src/engine/evidence/audit.js');
    expect(rungLevel(65537)).toBeGreaterThan(rungLevel(274177));
    expect(rungLevel(274177)).toBeGreaterThan(rungLevel(641));
    expect(rungLevel(641)).toBeGreaterThan(rungLevel(0));
  });
});
