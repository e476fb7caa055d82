// Every document read back goes through its zod schema: a bad one is EVIDENCE_UNVERIFIABLE naming
// the file and the field, and a good one comes back whole (nothing the loop wrote is dropped).
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseReport } from '../../src/engine/agent/agent-report.js';
import { parseDocument } from '../../src/engine/common/document.js';
import { EvidenceUnverifiable } from '../../src/engine/common/errors.js';
import { Decimal } from '../../src/engine/common/decimal.js';
import { EvidenceStore, manifestSchema } from '../../src/engine/store/evidence.js';
import { historyLineSchema } from '../../src/engine/evidence/state.js';
import { certificateSchema, issueCertificate } from '../../src/engine/judge/certificate.js';
import { initialState, stateSchema, type LoopState } from '../../src/engine/evidence/state.js';

const thrown = (f: () => unknown): EvidenceUnverifiable => {
  try {
    f();
  } catch (e) {
    if (e instanceof EvidenceUnverifiable) return e;
    throw e;
  }
  throw new Error('did not throw');
};

describe('parseDocument', () => {
  test('text that is not JSON names the file', () => {
    const e = thrown(() => parseDocument('state.json', '{"next_iteration": ', stateSchema));
    expect(e.code).toBe('EVIDENCE_UNVERIFIABLE');
    expect(e.file).toBe('state.json');
    expect(e.message).toMatch(/^state\.json: not JSON: /);
  });

  test('a wrong-typed field is named by its path, and every wrong field is listed', () => {
    const state = { ...initialState(), next_iteration: '2', rows: [{ iteration: 0 }] };
    const e = thrown(() => parseDocument('state.json', JSON.stringify(state), stateSchema));
    expect(e.message).toMatch(/^state\.json: /);
    expect(e.message).toMatch(/next_iteration: Invalid input: expected number, received string/);
    expect(e.message).toMatch(/rows\.0\.G: /);
  });

  test('a number where the evidence keeps a Decimal string is refused', () => {
    const state = { ...initialState(), residual_history: ['1', 0.5] };
    expect(thrown(() => parseDocument('state.json', JSON.stringify(state), stateSchema)).message).toMatch(/residual_history\.1: /);
    const bad = { ...initialState(), total_cost_usd: 'NaN' };
    expect(thrown(() => parseDocument('state.json', JSON.stringify(bad), stateSchema)).message).toMatch(/total_cost_usd: must be a Decimal string/);
  });

  test('a document that is not an object names the document', () => {
    expect(thrown(() => parseDocument('manifest.json', '[]', manifestSchema)).message).toMatch(/^manifest\.json: \(document\): /);
  });
});

describe('schemas take back what the loop writes, whole', () => {
  test('state.json with every optional part set', () => {
    const state: LoopState = {
      ...initialState(),
      next_iteration: 2,
      stopped_before_checks: [0],
      residual_history: ['2', '1'],
      criteria_met: { a: true },
      last_northstar: { readings: [{ id: 'm', value: null, distance: null, error: 'exit 1' }], total_distance: null },
      total_tokens: { input: 1, output: 2, cache_read: 0, cache_write: 0 },
      reported: { cost: false, tokens: true, toolCalls: false },
      exits_fired: [{ kind: 'INVARIANT', reason: 'r', code: 'EVIDENCE_INCOMPLETE', iteration: 1 }],
      suite_baseline: [{ id: 't', status: 'passed' }],
      last_commit: 'c'.repeat(40),
      terminal: { status: 'EXIT_BUDGET_EXCEEDED', stop_reason: 'MAX_ITERS', head: null, inputs_hash: null },
      passes: { a: { iteration: 'baseline', inputs_hash: 'h', evidence: 'e#x', tree: 't' } },
      progress: {
        best_residual: '1',
        stalled: 1,
        escalated_at: null,
        signatures: { a: { criterion: 'a', signature: 'a:0123456789ab', text: 'x' } },
        detour: { iteration: 2, repeated: [{ criterion: 'a', signature: 'a:0123456789ab', text: 'x', instruction: null }] },
      },
      cycles: [
        {
          iteration: 1,
          agent: 'claude',
          blocker_class: 'margin_limited',
          blocker_reason: 'r',
          improvement: 'i',
          fail_closed_signals: 0,
          residual: '1',
          failure_signatures: [],
          detour_next: false,
          critic: null,
          reused_checks: ['a'],
        },
      ],
      rows: [{ iteration: 1, G: 1, L: 1, O: 0, W: null, total: null, certificate: 'NONE', residual: null, northstar_distance: '0.5' }],
    };
    expect(parseDocument('state.json', JSON.stringify(state), stateSchema)).toEqual(state);
  });

  test('a state.json from before window, last_commit and stopped_before_checks were recorded gets their defaults', () => {
    const { window: _w, last_commit: _c, stopped_before_checks: _s, ...old } = initialState();
    expect(parseDocument('state.json', JSON.stringify(old), stateSchema)).toMatchObject({
      window: { residuals: 0, rows: 0 },
      last_commit: null,
      stopped_before_checks: [],
    });
  });

  test('an issued certificate', () => {
    const cert = issueCertificate({
      iteration: 0,
      type: 'NONE',
      fired: [{ kind: 'BUDGET', reason: 'r' }],
      declared: ['EXACT'],
      residualMetric: 'failing_criteria',
      residual: new Decimal('0.5'),
      residualDetail: '',
      R_p: null,
      history: [],
      checks: [],
      commit: null,
      tree: 't',
      judgedTree: 't',
      workspace: 'live',
      isolation: 'none',
      previousSha256: null,
    });
    expect(parseDocument('iter_0/certificate.json', JSON.stringify(cert), certificateSchema)).toEqual(cert);
    const forged = { ...cert, checklist: undefined };
    expect(thrown(() => parseDocument('iter_0/certificate.json', JSON.stringify(forged), certificateSchema)).message).toMatch(
      /^iter_0\/certificate\.json: checklist: /,
    );
  });

  test('a history.jsonl line', () => {
    const line = {
      iteration: 0,
      fsm: ['SPAWN_SUBAGENT'],
      certificate: 'NONE',
      residual: '1',
      glow: 2,
      northstar_distance: null,
      decision: 'continue',
      certificate_link: 'x#y',
    };
    expect(parseDocument('history.jsonl line 1', JSON.stringify(line), historyLineSchema)).toEqual(line);
    expect(thrown(() => parseDocument('history.jsonl line 1', JSON.stringify({ ...line, residual: 1 }), historyLineSchema)).message).toMatch(
      /^history\.jsonl line 1: residual: /,
    );
  });
});

test('EvidenceStore.readJson: null when absent, the relative path and field when it does not parse', async () => {
  const ev = new EvidenceStore(await mkdtemp(join(tmpdir(), 'phuc-doc-')));
  expect(await ev.readJson('manifest.json', manifestSchema)).toBeNull();
  await writeFile(ev.path('manifest.json'), JSON.stringify({ schema_version: '2.0', files: [{ path: 'a', sha256: 'zz', bytes: 1 }] }));
  await expect(ev.readJson('manifest.json', manifestSchema)).rejects.toThrow(/^manifest\.json: files\.0\.sha256: must be 64 lowercase hex digits$/);
});

test("the agent's report goes through the same parser: malformed with the field, never a throw", () => {
  expect(parseReport('{"tried": "everything"}')).toEqual({ state: 'malformed', error: expect.stringMatching(/report\.json: tried: /) as string });
  expect(parseReport('not json')).toMatchObject({ state: 'malformed', error: expect.stringMatching(/not JSON/) as string });
  expect(parseReport('{"other": 1}')).toMatchObject({ state: 'malformed', error: expect.stringMatching(/none of the fields/) as string });
  expect(parseReport('{"claims": ["x"], "extra": 1}')).toEqual({ state: 'valid', report: { claims: ['x'] } });
});
