// Halting certificates (seed §6, SPEC §2): typed, computed from Lane A/B evidence only, each linked
// to its predecessor by sha256 (a hash chain) and to the git tree it was computed on.
import type { CheckResult } from './checks.js';
import type { CertificateType } from './config.js';
import { Decimal, dstr, isDecimalString } from './decimal.js';

export type IssuedType = CertificateType | 'NONE';
export type Lane = 'A' | 'B' | 'C';

export const CERTIFICATE_LANE: Record<IssuedType, Lane | null> = {
  EXACT: 'A',
  CONVERGED: 'B',
  TIMEOUT: 'C',
  BACKPRESSURE: 'A',
  DIVERGED: 'A',
  NONE: null,
};

/**
 * Exit conditions, in the order of precedence of SPEC §3. The "no progress" exits of the other
 * loop designs (critic, stuck signature, stall) rank with divergence, before backpressure.
 */
export const EXIT_PRECEDENCE = ['GUARDRAIL', 'CONVERGED', 'DIVERGED', 'NO_VIABLE_FIX_PATH', 'STUCK', 'STALLED', 'BACKPRESSURE', 'NORTHSTAR_DRIFT', 'BUDGET'] as const;
export type FiredExit = { kind: (typeof EXIT_PRECEDENCE)[number] | 'INVARIANT'; reason: string };

export interface Certificate {
  schema_version: '2.0';
  iteration: number;
  type: IssuedType;
  lane: Lane | null;
  declared_certificates: CertificateType[];
  residual_metric: string;
  residual: string;
  residual_detail: string;
  R_p: string | null;
  residual_history: string[];
  checklist: {
    id: string;
    description: string;
    met: boolean;
    exit_code: number | null;
    evidence: string;
    /** The tree the result was obtained on; a reused pass names the iteration it came from. */
    tree: string;
    reused_from_iteration: number | null;
    inputs_hash: string | null;
  }[];
  tree: string;
  previous_certificate_sha256: string | null;
  exits_fired: FiredExit[];
}

/** Three strictly increasing residuals at the end of the history (seed §6.1 DIVERGED), in Decimal. */
export function isDiverging(history: readonly string[]): boolean {
  if (history.length < 3) return false;
  const [a, b, c] = history.slice(-3).map((s) => new Decimal(s));
  return a.lt(b) && b.lt(c);
}

export interface CertificateInput {
  iteration: number;
  declared: CertificateType[];
  residualMetric: string;
  residual: Decimal;
  residualDetail: string;
  R_p: Decimal | null;
  /** Previous residuals (Decimal strings), not including this iteration's. */
  history: readonly string[];
  checks: CheckResult[];
  tree: string;
  previousSha256: string | null;
  guardrail: string | null;
  backpressure: string | null;
  budget: string | null;
  /** NO_VIABLE_FIX_PATH, STUCK, STALLED exits computed by the progress watchers. */
  progress?: FiredExit[];
}

export function issueCertificate(i: CertificateInput): Certificate {
  const history = [...i.history, dstr(i.residual)];
  const allMet = i.checks.length > 0 && i.checks.every((c) => c.met);
  const fired: FiredExit[] = [];
  if (i.guardrail) fired.push({ kind: 'GUARDRAIL', reason: i.guardrail });
  const exact = i.declared.includes('EXACT') && allMet && i.residual.isZero();
  const converged = i.declared.includes('CONVERGED') && i.R_p !== null && i.residual.lt(i.R_p);
  // Only checks that ran on this tree certify: a carried residual (stop, no artifact) never does.
  const checksRan = i.checks.length > 0;
  if ((exact || converged) && checksRan)
    fired.push({ kind: 'CONVERGED', reason: exact ? 'all criteria met, residual 0' : `residual ${dstr(i.residual)} < R_p ${dstr(i.R_p!)}` });
  if (isDiverging(history)) fired.push({ kind: 'DIVERGED', reason: `residuals ${history.slice(-3).join(' < ')}` });
  fired.push(...(i.progress ?? []));
  if (i.backpressure) fired.push({ kind: 'BACKPRESSURE', reason: i.backpressure });
  if (i.budget) fired.push({ kind: 'BUDGET', reason: i.budget });

  let type: IssuedType = 'NONE';
  const top = fired[0]?.kind;
  if (top === 'CONVERGED') type = exact ? 'EXACT' : 'CONVERGED';
  else if (top === 'DIVERGED') type = 'DIVERGED';
  else if (top === 'BACKPRESSURE') type = 'BACKPRESSURE';
  else if (top === 'BUDGET') type = 'TIMEOUT';

  return {
    schema_version: '2.0',
    iteration: i.iteration,
    type,
    lane: CERTIFICATE_LANE[type],
    declared_certificates: i.declared,
    residual_metric: i.residualMetric,
    residual: dstr(i.residual),
    residual_detail: i.residualDetail,
    R_p: i.R_p ? dstr(i.R_p) : null,
    residual_history: history,
    checklist: i.checks.map((c) => ({
      id: c.id,
      description: c.description,
      met: c.met,
      exit_code: c.exit_code,
      evidence: c.evidence,
      tree: c.tree,
      reused_from_iteration: c.reused_from_iteration,
      inputs_hash: c.inputs_hash,
    })),
    tree: i.tree,
    previous_certificate_sha256: i.previousSha256,
    exits_fired: fired,
  };
}

/** The forbidden state CONVERGENCE_CLAIM_WITHOUT_CERTIFICATE (seed §3.6), checked on the file read back. */
export function convergenceClaimProblem(cert: Partial<Certificate> | null): string | null {
  if (!cert) return 'no certificate.json for the final iteration';
  if (cert.type !== 'EXACT' && cert.type !== 'CONVERGED') return `certificate type is ${String(cert.type)}, not EXACT or CONVERGED`;
  if (!isDecimalString(cert.residual)) return `residual ${JSON.stringify(cert.residual)} is not a Decimal string`;
  if (cert.type === 'EXACT' && !(cert.checklist ?? []).every((c) => c.met)) return 'EXACT certificate with an unmet criterion';
  if (cert.type === 'EXACT' && !new Decimal(cert.residual).isZero()) return 'EXACT certificate with a residual other than 0';
  // Freshness (DEGA): a result counts only for the tree it ran on, or as a pass reused for unchanged inputs.
  const stale = (cert.checklist ?? []).filter((c) => c.tree !== cert.tree && !(c.reused_from_iteration !== null && c.inputs_hash));
  if (stale.length) return `criteria ${stale.map((c) => c.id).join(', ')} were checked on another tree than the certificate's`;
  if (cert.type === 'CONVERGED') {
    if (!isDecimalString(cert.R_p)) return 'CONVERGED certificate without a Decimal R_p';
    if (!new Decimal(cert.residual).lt(new Decimal(cert.R_p))) return `residual ${cert.residual} is not < R_p ${cert.R_p}`;
  }
  return null;
}
