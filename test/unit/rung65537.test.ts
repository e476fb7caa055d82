import { behaviouralDrift, behaviouralHash, behaviourOf, unexplainedBehaviour } from '../../src/engine/loop/rung65537.js';
import { parseRestatement, restatedJudgement } from '../../src/engine/evidence/paraphrase.js';

const checks = [
  { id: 'unit', met: true },
  { id: 'lint', met: true },
];

describe('rung 65537: the paraphrase check', () => {
  test('a restatement whose every requirement maps to a met criterion gives the certified type', () => {
    const r = { goal: 'g', requirements: checks.map((c) => ({ text: c.id, criterion: c.id })) };
    expect(restatedJudgement(r, checks, 'EXACT')).toEqual({
      type: 'EXACT',
      same_certificate_type: true,
      unchecked_requirements: [],
      unknown_criteria: [],
      unmapped_criteria: [],
    });
  });

  test('a requirement no criterion checks, one naming an unknown criterion, or one on a failing criterion gives NONE', () => {
    const base = [{ text: 'unit passes', criterion: 'unit' }];
    expect(restatedJudgement({ goal: 'g', requirements: [...base, { text: 'fast', criterion: null }] }, checks, 'EXACT')).toMatchObject({
      type: 'NONE',
      same_certificate_type: false,
      unchecked_requirements: ['fast'],
      unmapped_criteria: ['lint'],
    });
    expect(restatedJudgement({ goal: 'g', requirements: [...base, { text: 'x', criterion: 'nope' }] }, checks, 'CONVERGED')).toMatchObject({
      type: 'NONE',
      unknown_criteria: ['nope'],
    });
    expect(restatedJudgement({ goal: 'g', requirements: base }, [{ id: 'unit', met: false }], 'EXACT').same_certificate_type).toBe(false);
  });

  test('the restatement is the last JSON object printed, checked field by field', () => {
    const ok = parseRestatement('thinking…\n{"goal":"g2","requirements":[{"text":"t","criterion":"unit"}]}\n');
    expect(ok).toEqual({ restatement: { goal: 'g2', requirements: [{ text: 't', criterion: 'unit' }] } });
    expect(parseRestatement('no json here')).toEqual({ error: 'the paraphrase command printed no JSON object' });
    expect(parseRestatement('{"goal":"g","requirements":[]}')).toMatchObject({ error: expect.stringMatching(/requirements: must list at least one/) });
  });
});

describe('rung 65537: the behavioural hash', () => {
  test('the hash is of the observable outcomes, whatever the order they were read in', () => {
    const a = behaviourOf(
      [{ id: 'c', met: true }],
      [
        { id: 's > t1', status: 'passed' },
        { id: 's > t2', status: 'failed' },
      ],
    );
    const b = behaviourOf(
      [{ id: 'c', met: true }],
      [
        { id: 's > t2', status: 'failed' },
        { id: 's > t1', status: 'passed' },
      ],
    );
    expect(behaviouralHash(a)).toBe(behaviouralHash(b));
    expect(behaviouralHash(a)).not.toBe(
      behaviouralHash(
        behaviourOf(
          [{ id: 'c', met: true }],
          [
            { id: 's > t1', status: 'passed' },
            { id: 's > t2', status: 'passed' },
          ],
        ),
      ),
    );
  });

  test('drift is what appeared, disappeared or stopped passing; a fix is not drift; the explanation must name each', () => {
    const before = { 'criterion:c': 'failed', 'test:s > old': 'passed', 'test:s > gone': 'passed', 'test:s > fixed': 'failed' };
    const after = { 'criterion:c': 'met', 'test:s > old': 'failed', 'test:s > fixed': 'passed', 'test:s > new': 'passed' };
    const drift = behaviouralDrift(before, after);
    expect(drift).toEqual([
      { key: 'test:s > gone', before: 'passed', after: null },
      { key: 'test:s > new', before: null, after: 'passed' },
      { key: 'test:s > old', before: 'passed', after: 'failed' },
    ]);
    expect(unexplainedBehaviour(drift, 'Removed `gone`; added new.')).toEqual(['test:s > old']);
    expect(unexplainedBehaviour(drift, 'newer and golden')).toEqual(['test:s > gone', 'test:s > new', 'test:s > old']);
  });
});
