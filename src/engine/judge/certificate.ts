// Halting certificates (SPEC §2): typed, computed from Lane A/B evidence only, each linked
// to its predecessor by sha256 (a hash chain) and to the git tree it was computed on.
import type { NetworkRecord } from '../os/network.js';
import { z } from 'zod';
import type { CheckResult } from './checks.js';
import type { GuardMode } from '../agent/allow-list.js';
import { CERTIFICATE_TYPES, type CertificateType, type IssuedType } from '../config/config.js';
import { Decimal, dstr, isDecimalString } from '../common/decimal.js';
import { decimalString } from '../common/document.js';
import { EXIT_PRECEDENCE, type FiredExit, type Judgement } from '../run/decide.js';
import { canaryOutcomeSchema, type CanaryOutcome } from './canary.js';

export type Lane = 'A' | 'B' | 'C';

export const CERTIFICATE_LANE: Record<IssuedType, Lane | null> = {
  EXACT: 'A',
  CONVERGED: 'B',
  TIMEOUT: 'C',
  BACKPRESSURE: 'A',
  DIVERGED: 'A',
  NONE: null,
};

/** An exit as the certificate (and state.json) records it. */
export const firedExitSchema = z.object({
  kind: z.enum(EXIT_PRECEDENCE),
  reason: z.string(),
  code: z.string().optional(),
}) satisfies z.ZodType<FiredExit>;

/** The type a certificate is issued with (NONE: no certificate's conditions held). */
export const issuedTypeSchema = z.enum([...CERTIFICATE_TYPES, 'NONE']);

export const certificateSchema = z.object({
  schema_version: z.literal('2.0'),
  iteration: z.number().int().min(0),
  type: issuedTypeSchema,
  lane: z.enum(['A', 'B', 'C']).nullable(),
  declared_certificates: z.array(z.enum(CERTIFICATE_TYPES)),
  residual_metric: z.string(),
  /** A Decimal string, or null when it could not be computed (never compared with R_p then). */
  residual: decimalString.nullable(),
  residual_detail: z.string(),
  R_p: decimalString.nullable(),
  residual_history: z.array(decimalString),
  checklist: z.array(
    z.object({
      id: z.string(),
      description: z.string(),
      met: z.boolean(),
      exit_code: z.number().int().nullable(),
      evidence: z.string(),
      /** The tree the result was obtained on; a reused pass names the iteration it came from. */
      tree: z.string(),
      reused_from_iteration: z.number().int().nullable(),
      inputs_hash: z.string().nullable(),
    }),
  ),
  /** The commit this certificate speaks for, and that commit's tree. */
  commit: z.string().nullable(),
  tree: z.string(),
  /** The tree the criteria ran on: the commit's tree without the loop's own AGENTS.md update. */
  judged_tree: z.string(),
  /** clean: a loop-owned checkout of judged_tree; live: the agent's work tree. */
  workspace: z.enum(['clean', 'live']),
  isolation: z.string(),
  /** The network policy of the agent, the checks and checks.setup, and whether this machine enforced it (os/network.ts). */
  network: z
    .object({
      agent: z.union([z.enum(['open', 'model-api-only']), z.array(z.string())]),
      checks: z.enum(['loopback', 'open']),
      setup: z.literal('open'),
      enforced: z.boolean(),
    })
    .optional(),
  /** What judged the agent's changes: agent.may_change (allow-list) or the protected paths alone; absent in older trees. */
  guard: z.enum(['allow-list', 'protected-only']).optional(),
  previous_certificate_sha256: z.string().nullable(),
  exits_fired: z.array(firedExitSchema),
  /** The runner canaries of the round (judge/canary.ts); absent where none runs (live judging, older certificates). */
  canary: z.array(canaryOutcomeSchema).optional(),
});
export type Certificate = z.infer<typeof certificateSchema>;

/** Three strictly increasing residuals at the end of the history (DIVERGED), in Decimal. */
export function isDiverging(history: readonly string[]): boolean {
  if (history.length < 3) return false;
  const [a, b, c] = history.slice(-3).map((s) => new Decimal(s));
  return a.lt(b) && b.lt(c);
}

/** What a round of checks says about EXACT and CONVERGED, as far as the plan declares them. */
export function judgementOf(
  i: { declared: readonly CertificateType[]; checks: readonly CheckResult[]; residual: Decimal | null; residualError: string | null; R_p: Decimal | null },
  suiteWeakened: string | null,
): Judgement {
  const allMet = i.checks.length > 0 && i.checks.every((c) => c.met);
  const r = i.residualError === null ? i.residual : null;
  return {
    allMet,
    residualError: i.residualError,
    exact: r !== null && i.declared.includes('EXACT') && allMet && r.isZero(),
    converged: r !== null && i.checks.length > 0 && i.declared.includes('CONVERGED') && i.R_p !== null && r.lt(i.R_p),
    suiteWeakened,
  };
}

export interface CertificateInput {
  iteration: number;
  type: IssuedType;
  fired: FiredExit[];
  declared: CertificateType[];
  residualMetric: string;
  residual: Decimal | null;
  residualDetail: string;
  R_p: Decimal | null;
  /** Residuals of the iterations before, not including this one's. */
  history: readonly string[];
  checks: CheckResult[];
  commit: string | null;
  tree: string;
  judgedTree: string;
  workspace: 'clean' | 'live';
  isolation: string;
  network?: NetworkRecord;
  /** Left out by callers that judge no agent change (a documents test). */
  guard?: GuardMode;
  previousSha256: string | null;
  canary?: CanaryOutcome[];
}

/** The certificate document; its type and exits are decide()'s, this only lays them out. */
export function issueCertificate(i: CertificateInput): Certificate {
  return {
    schema_version: '2.0',
    iteration: i.iteration,
    type: i.type,
    lane: CERTIFICATE_LANE[i.type],
    declared_certificates: i.declared,
    residual_metric: i.residualMetric,
    residual: i.residual === null ? null : dstr(i.residual),
    residual_detail: i.residualDetail,
    R_p: i.R_p ? dstr(i.R_p) : null,
    residual_history: i.residual === null ? [...i.history] : [...i.history, dstr(i.residual)],
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
    commit: i.commit,
    tree: i.tree,
    judged_tree: i.judgedTree,
    workspace: i.workspace,
    isolation: i.isolation,
    ...(i.network ? { network: i.network } : {}),
    guard: i.guard,
    previous_certificate_sha256: i.previousSha256,
    exits_fired: i.fired,
    ...(i.canary ? { canary: i.canary } : {}),
  };
}

/** The forbidden state CONVERGENCE_CLAIM_WITHOUT_CERTIFICATE, checked on the file read back (what verify will see). */
export function convergenceClaimProblem(cert: Partial<Certificate> | null): string | null {
  if (!cert) return 'no certificate.json for the final iteration';
  if (cert.type !== 'EXACT' && cert.type !== 'CONVERGED') return `certificate type is ${String(cert.type)}, not EXACT or CONVERGED`;
  if (!isDecimalString(cert.residual)) return `residual ${JSON.stringify(cert.residual)} is not a Decimal string`;
  if (cert.type === 'EXACT' && !(cert.checklist ?? []).every((c) => c.met)) return 'EXACT certificate with an unmet criterion';
  if (cert.type === 'EXACT' && !new Decimal(cert.residual).isZero()) return 'EXACT certificate with a residual other than 0';
  // Freshness (DEGA): a result counts only for the tree it ran on, or as a pass reused for unchanged inputs.
  const judged = cert.judged_tree ?? cert.tree;
  const stale = (cert.checklist ?? []).filter((c) => c.tree !== judged && !(c.reused_from_iteration !== null && c.inputs_hash));
  if (stale.length) return `criteria ${stale.map((c) => c.id).join(', ')} were checked on another tree than the certificate's`;
  if (cert.type === 'CONVERGED') {
    if (!isDecimalString(cert.R_p)) return 'CONVERGED certificate without a Decimal R_p';
    if (!new Decimal(cert.residual).lt(new Decimal(cert.R_p))) return `residual ${cert.residual} is not < R_p ${cert.R_p}`;
  }
  return null;
}
