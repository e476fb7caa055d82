import type { CheckResult } from '../../src/engine/judge/checks.js';
import { convergenceClaimProblem, isDiverging, issueCertificate, judgementOf, type CertificateInput } from '../../src/engine/judge/certificate.js';
import { Decimal, seedChecksum } from '../../src/engine/common/decimal.js';
import type { CertificateType } from '../../src/engine/config/config.js';

const check = (id: string, met: boolean): CheckResult => ({
  id,
  description: id,
  run: 'x',
  met,
  exit_code: met ? 0 : 1,
  timed_out: false,
  failure_kind: met ? null : 'failed',
  attempts: 1,
  duration_ms: 1,
  evidence: `iter_0/checks/${id}.log#${'a'.repeat(64)}`,
  tree: 'f'.repeat(40),
  inputs_hash: null,
  reused_from_iteration: null,
});

const base = (over: Partial<CertificateInput>): CertificateInput => ({
  iteration: 2,
  type: 'NONE',
  fired: [],
  declared: ['EXACT', 'CONVERGED', 'DIVERGED'],
  residualMetric: 'failing_criteria',
  residual: new Decimal(1),
  residualDetail: '',
  R_p: new Decimal('1e-4'),
  history: ['3', '2'],
  checks: [check('a', true), check('b', false)],
  commit: 'c'.repeat(40),
  tree: 'e'.repeat(40),
  judgedTree: 'f'.repeat(40),
  workspace: 'clean',
  isolation: 'user+pidns',
  previousSha256: 'b'.repeat(64),
  ...over,
});

const judge = (declared: CertificateType[], checks: CheckResult[], residual: string | null, R_p: string | null = '1e-4') =>
  judgementOf(
    {
      declared,
      checks,
      residual: residual === null ? null : new Decimal(residual),
      residualError: residual === null ? 'no residual' : null,
      R_p: R_p === null ? null : new Decimal(R_p),
    },
    null,
  );

describe('certificates', () => {
  test('the document names the commit, its tree, the judged tree, the workspace and isolation, and chains to the previous one', () => {
    const c = issueCertificate(base({ type: 'EXACT', residual: new Decimal(0), checks: [check('a', true), check('b', true)] }));
    expect(c).toMatchObject({
      type: 'EXACT',
      lane: 'A',
      residual: '0',
      commit: 'c'.repeat(40),
      tree: 'e'.repeat(40),
      judged_tree: 'f'.repeat(40),
      workspace: 'clean',
      isolation: 'user+pidns',
      previous_certificate_sha256: 'b'.repeat(64),
      residual_history: ['3', '2', '0'],
    });
    expect(c.checklist.map((x) => x.evidence)).toEqual([expect.stringMatching(/^iter_0\/checks\/a\.log#a{64}$/), expect.any(String)]);
  });
  test('EXACT needs every criterion met and residual 0; CONVERGED is residual < R_p, exactly in Decimal', () => {
    expect(judge(['EXACT'], [check('a', true)], '0')).toMatchObject({ exact: true, allMet: true });
    expect(judge(['EXACT'], [check('a', true), check('b', false)], '0').exact).toBe(false);
    expect(judge(['CONVERGED'], [check('a', true)], '0.0001').converged).toBe(false);
    expect(judge(['CONVERGED'], [check('a', true)], '0.0000999999999999999999999').converged).toBe(true);
    expect(judge(['CONVERGED'], [check('a', true)], '0', null).converged).toBe(false);
  });
  test('no checks, or no residual, never converge (null is not zero)', () => {
    expect(judge(['EXACT', 'CONVERGED'], [], '0')).toMatchObject({ exact: false, converged: false });
    expect(judge(['EXACT', 'CONVERGED'], [check('a', true)], null)).toMatchObject({ exact: false, converged: false, residualError: 'no residual' });
  });
  test('a null residual is written as null and stays out of the history', () => {
    const c = issueCertificate(base({ residual: null }));
    expect(c.residual).toBeNull();
    expect(c.residual_history).toEqual(['3', '2']);
  });
  test('divergence: three strictly increasing residuals in Decimal', () => {
    expect(isDiverging(['1', '2', '3'])).toBe(true);
    expect(isDiverging(['1', '1', '2'])).toBe(false);
    expect(isDiverging(['0.1', '0.10000000000000000000001', '0.2'])).toBe(true);
  });
  test('a convergence claim is checked on the document read back', () => {
    const ok = issueCertificate(base({ type: 'EXACT', residual: new Decimal(0), checks: [check('a', true)] }));
    expect(convergenceClaimProblem(JSON.parse(JSON.stringify(ok)))).toBeNull();
    expect(convergenceClaimProblem({ ...ok, residual: 0 as unknown as string })).toMatch(/not a Decimal string/);
    expect(convergenceClaimProblem({ ...ok, residual: null })).toMatch(/not a Decimal string/);
    expect(convergenceClaimProblem({ ...ok, type: 'NONE' })).toMatch(/not EXACT or CONVERGED/);
    expect(convergenceClaimProblem({ ...ok, type: 'CONVERGED', R_p: '0', residual: '0' })).toMatch(/not < R_p/);
    expect(convergenceClaimProblem(null)).toMatch(/no certificate/);
    const stale = { ...ok, checklist: ok.checklist.map((c) => ({ ...c, tree: 'd'.repeat(40) })) };
    expect(convergenceClaimProblem(stale)).toMatch(/checked on another tree/);
    const reused = { ...ok, checklist: ok.checklist.map((c) => ({ ...c, tree: 'd'.repeat(40), reused_from_iteration: 0, inputs_hash: 'h' })) };
    expect(convergenceClaimProblem(reused)).toBeNull();
  });
  test('seed checksum', () => {
    expect(seedChecksum()).toMatchObject({ verified: true });
  });
});
