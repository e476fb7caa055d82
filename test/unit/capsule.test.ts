import { capsuleProblems, capsuleSchema, renderPrompt, type Capsule } from '../../src/engine/memory/capsule.js';
import { parseDocument } from '../../src/engine/common/document.js';
import { EvidenceUnverifiable } from '../../src/engine/common/errors.js';
import { canonicalJson } from '../../src/engine/common/canonical.js';

const capsule = (): Capsule => ({
  version: '2.0',
  goal_statement: 'Make tests pass',
  acceptance_criteria: ['tests: npm test'],
  halting_certificates_applicable: ['EXACT'],
  northstar_metrics: [{ id: 'residual', metric: 'm', current: '1', target: '0' }],
  current_state_summary: {
    iteration_number: 1,
    residual_current: '1',
    glow_previous_iteration: null,
    northstar_distance_current: '1',
    criteria_met_so_far: [],
    criteria_still_open: ['tests'],
    open_questions_from_last_iteration: ['why?'],
    blocker_class: 'applicability_limited',
    blocker_reason: 'r',
    objective: 'o',
    detour: [{ criterion: 'tests', signature: 'tests:abcdef012345', failure: 'AssertionError: expected <n>', known_fix: 'add the import' }],
    reusable_passes: [{ criterion: 'lint', from: 'iteration 0', evidence: `iter_0/checks/lint.log#${'b'.repeat(64)}` }],
    agent: 'claude',
    escalated: false,
  },
  accumulated_learnings: '# learnings',
  remaining_budget: { iterations_remaining: 9, tool_calls_remaining: 500, seconds_remaining: 100, cost_remaining_usd: null },
  artifact_links: [{ path: 'evidence/loop/plan.json', sha256: 'a'.repeat(64), role: 'plan' }],
  skill_pack: ['prime-safety'],
  subagent_role: 'Scout',
  rung_target: 641,
});

describe('CNF capsule', () => {
  test('a complete capsule has no problems and canonical bytes (sorted keys, LF)', () => {
    const c = capsule();
    expect(capsuleProblems(c, ['/tmp/repo'])).toEqual([]);
    expect(capsuleProblems({ ...c, accumulated_learnings: '7'.repeat(24000) }, ['/tmp/repo'])).toEqual([]);
    const text = canonicalJson(c);
    expect(text.indexOf('"acceptance_criteria"')).toBeLessThan(text.indexOf('"goal_statement"'));
    expect(text).not.toContain('\r');
    expect(canonicalJson(JSON.parse(text))).toBe(text);
  });
  test.each([
    [
      'missing field',
      (c: Capsule) => {
        delete (c as Partial<Capsule>).artifact_links;
      },
      /^artifact_links: Invalid input: expected array, received undefined$/m,
    ],
    [
      'missing summary field',
      (c: Capsule) => {
        delete (c.current_state_summary as Partial<Capsule['current_state_summary']>).open_questions_from_last_iteration;
      },
      /^current_state_summary\.open_questions_from_last_iteration: Invalid input: expected array, received undefined$/m,
    ],
    [
      'host path',
      (c: Capsule) => {
        c.accumulated_learnings = 'see /tmp/repo/src/x.ts';
      },
      /host-specific path/,
    ],
    [
      'timestamp',
      (c: Capsule) => {
        c.accumulated_learnings = 'at 2026-11-22T10:00:00Z';
      },
      /timestamp/,
    ],
    [
      // 30,000 digits are 10,000 tokens in fewer than 4 characters a token.
      'learnings over 8,000 tokens',
      (c: Capsule) => {
        c.accumulated_learnings = '7'.repeat(30000);
      },
      /accumulated_learnings has more than 8000 tokens/,
    ],
    [
      'learnings over 8,000 tokens despite a [COMPACTION] line',
      (c: Capsule) => {
        c.accumulated_learnings = `[COMPACTION] Distilled iterations 0-3 to 4 witness lines.\n${'7'.repeat(30000)}`;
      },
      /accumulated_learnings has more than 8000 tokens/,
    ],
    [
      'conversation reference',
      (c: Capsule) => {
        c.current_state_summary.open_questions_from_last_iteration = ['As we discussed, do X'];
      },
      /earlier conversation/,
    ],
    [
      'float residual',
      (c: Capsule) => {
        (c.current_state_summary as unknown as Record<string, unknown>).residual_current = 0.5;
      },
      /current_state_summary\.residual_current: Invalid input: expected string, received number[\s\S]*non-integer number/,
    ],
    [
      'a field outside the v2 schema (refused, not dropped)',
      (c: Capsule) => {
        (c as unknown as Record<string, unknown>).notes = 'from the last agent';
      },
      /^\(document\): Unrecognized key: "notes"$/m,
    ],
    [
      'a blocker class outside the DEGA order',
      (c: Capsule) => {
        (c.current_state_summary as unknown as Record<string, unknown>).blocker_class = 'nearly_there';
      },
      /^current_state_summary\.blocker_class: Invalid option: expected one of /m,
    ],
    [
      'an empty goal',
      (c: Capsule) => {
        c.goal_statement = '  ';
      },
      /^goal_statement: must not be empty$/m,
    ],
    [
      'an artifact link that is not a sha256',
      (c: Capsule) => {
        c.artifact_links[0].sha256 = 'abc';
      },
      /^artifact_links\.0\.sha256: must be a sha256/m,
    ],
  ])('%s is refused', (_n, mutate, re) => {
    const c = capsule();
    mutate(c);
    expect(capsuleProblems(c, ['/tmp/repo']).join('\n')).toMatch(re);
  });
  test('a stored capsule is parsed like every document: by its zod schema, errors naming file and field, bytes unchanged', () => {
    const text = canonicalJson(capsule());
    // Same evidence, same bytes: parsing takes the capsule back whole, and it writes back byte-identical.
    expect(canonicalJson(parseDocument('iter_1/cnf_capsule.json', text, capsuleSchema))).toBe(text);
    const bad = JSON.parse(text) as Record<string, Record<string, unknown>>;
    bad.current_state_summary.iteration_number = '1';
    delete bad.remaining_budget.seconds_remaining;
    let message = '';
    try {
      parseDocument('iter_1/cnf_capsule.json', JSON.stringify(bad), capsuleSchema);
    } catch (e) {
      expect(e).toBeInstanceOf(EvidenceUnverifiable);
      message = (e as Error).message;
    }
    expect(message).toMatch(/^iter_1\/cnf_capsule\.json: /);
    expect(message).toContain('current_state_summary.iteration_number: Invalid input: expected number, received string');
    expect(message).toContain('remaining_budget.seconds_remaining: Invalid input: expected number, received undefined');
  });
  test('the prompt follows the DEGA contract and is a pure function of the capsule', () => {
    const x = {
      criteria: [{ id: 'tests', run: 'npm test' }],
      protectedPaths: ['test/**'],
      R_p: '1e-4',
      residualMetric: 'failing_criteria',
      evidenceDir: 'evidence/loop',
    };
    const p = renderPrompt(capsule(), x);
    for (const h of [
      '## 1. Evidence snapshot',
      '## 2. Blocker class',
      '## 3. Objective',
      '## 4. Non-goals',
      '## 5. Commands',
      '## 6. Done criteria',
      '## 7. Response contract',
    ])
      expect(p).toContain(h);
    expect(p).toContain('PHUC_REPORT_FILE');
    expect(p).toContain('### Detour: the same failure twice in a row');
    expect(p).toContain('Known fix: add the import');
    expect(p).toContain('Passes kept while their inputs stay unchanged (not re-run): lint (iteration 0)');
    expect(renderPrompt(capsule(), x)).toBe(p);
  });
});
