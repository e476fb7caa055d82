import type { CheckResult } from '../../src/engine/checks.js';
import { convergenceClaimProblem, isDiverging, issueCertificate, type CertificateInput } from '../../src/engine/certificate.js';
import { Decimal, seedChecksum } from '../../src/engine/decimal.js';

const check = (id: string, met: boolean): CheckResult => ({
  id, description: id, run: 'x', met, exit_code: met ? 0 : 1, timed_out: false, failure_kind: met ? null : 'failed', attempts: 1, duration_ms: 1,
  evidence: `iter_0/checks/${id}.log#${'a'.repeat(64)}`, tree: 'f'.repeat(40), inputs_hash: null, reused_from_iteration: null,
});

const base = (over: Partial<CertificateInput>): CertificateInput => ({
  iteration: 2, declared: ['EXACT', 'CONVERGED', 'DIVERGED'], residualMetric: 'failing_criteria', residual: new Decimal(1), residualDetail: '',
  R_p: new Decimal('1e-4'), history: ['3', '2'], checks: [check('a', true), check('b', false)], tree: 'f'.repeat(40),
  previousSha256: 'b'.repeat(64), guardrail: null, backpressure: null, budget: null, ...over,
});

describe('certificates', () => {
  test('EXACT needs every criterion met and residual 0; it links the tree and the previous certificate', () => {
    const c = issueCertificate(base({ residual: new Decimal(0), checks: [check('a', true), check('b', true)] }));
    expect(c).toMatchObject({ type: 'EXACT', lane: 'A', residual: '0', tree: 'f'.repeat(40), previous_certificate_sha256: 'b'.repeat(64), residual_history: ['3', '2', '0'] });
    expect(c.checklist.map((x) => x.evidence)).toEqual([expect.stringMatching(/^iter_0\/checks\/a\.log#a{64}$/), expect.any(String)]);
  });

  test('CONVERGED iff residual < R_p (Decimal comparison), lane B', () => {
    const at = issueCertificate(base({ declared: ['CONVERGED'], residual: new Decimal('0.0001'), checks: [check('a', true)] }));
    expect(at.type).toBe('NONE');
    const below = issueCertificate(base({ declared: ['CONVERGED'], residual: new Decimal('0.0000999999999999999999999'), checks: [check('a', true)] }));
    expect(below).toMatchObject({ type: 'CONVERGED', lane: 'B' });
  });

  test('only declared success certificates are issued', () => {
    const c = issueCertificate(base({ declared: ['CONVERGED'], R_p: new Decimal('0.5'), residual: new Decimal(0), checks: [check('a', true)] }));
    expect(c.type).toBe('CONVERGED');
  });

  test('three strictly increasing residuals diverge; equal steps do not', () => {
    expect(isDiverging(['1', '2', '3'])).toBe(true);
    expect(isDiverging(['1', '2', '2'])).toBe(false);
    expect(isDiverging(['0.1', '0.10000000000000000001', '0.10000000000000000002'])).toBe(true);
    expect(issueCertificate(base({ history: ['1', '2'], residual: new Decimal(3) })).type).toBe('DIVERGED');
  });

  test('precedence: guardrail > converged > diverged > backpressure > budget, and every exit that fired is listed', () => {
    const all = issueCertificate(base({ history: ['1', '2'], residual: new Decimal(3), backpressure: 'STOP', budget: 'MAX_ITERS', guardrail: 'test/x.js' }));
    expect(all.type).toBe('NONE');
    expect(all.exits_fired.map((e) => e.kind)).toEqual(['GUARDRAIL', 'DIVERGED', 'BACKPRESSURE', 'BUDGET']);
    const conv = issueCertificate(base({ residual: new Decimal(0), checks: [check('a', true)], backpressure: 'STOP', budget: 'MAX_ITERS' }));
    expect(conv.type).toBe('EXACT');
    expect(issueCertificate(base({ backpressure: 'STOP', budget: 'MAX_ITERS' })).type).toBe('BACKPRESSURE');
    expect(issueCertificate(base({ budget: 'MAX_ITERS' }))).toMatchObject({ type: 'TIMEOUT', lane: 'C' });
  });

  test('the progress exits rank after divergence and before backpressure', () => {
    const c = issueCertificate(base({ backpressure: 'STOP', progress: [{ kind: 'STALLED', reason: 'no better residual for 3 iterations' }] }));
    expect(c.exits_fired.map((e) => e.kind)).toEqual(['STALLED', 'BACKPRESSURE']);
    expect(c.type).toBe('NONE');
  });

  test('a backpressure stop without checks never certifies convergence from a carried residual', () => {
    const c = issueCertificate(base({ residual: new Decimal(0), checks: [], backpressure: 'SIGTERM' }));
    expect(c.type).toBe('BACKPRESSURE');
  });

  test('a convergence claim is re-checked from the file', () => {
    const ok = issueCertificate(base({ residual: new Decimal(0), checks: [check('a', true)] }));
    expect(convergenceClaimProblem(JSON.parse(JSON.stringify(ok)))).toBeNull();
    expect(convergenceClaimProblem({ ...ok, residual: 0 as unknown as string })).toMatch(/not a Decimal string/);
    expect(convergenceClaimProblem({ ...ok, type: 'NONE' })).toMatch(/not EXACT or CONVERGED/);
    expect(convergenceClaimProblem({ ...ok, type: 'CONVERGED', R_p: '0', residual: '0' })).toMatch(/not < R_p/);
    expect(convergenceClaimProblem(null)).toMatch(/no certificate/);
    const stale = { ...ok, checklist: ok.checklist.map((c) => ({ ...c, tree: 'e'.repeat(40) })) };
    expect(convergenceClaimProblem(stale)).toMatch(/checked on another tree/);
    const reused = { ...ok, checklist: ok.checklist.map((c) => ({ ...c, tree: 'e'.repeat(40), reused_from_iteration: 0, inputs_hash: 'h' })) };
    expect(convergenceClaimProblem(reused)).toBeNull();
  });

  test('seed checksum is exact with BigInt', () => {
    expect(seedChecksum()).toEqual({ product: '11517961089409', verified: true });
  });
});
