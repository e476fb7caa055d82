// Why a run goes on or ends is decided here and only here: pure functions from what happened to
// the next step, holding the whole precedence table of SPEC §3. The driver (loop.ts) performs the
// effects (processes, git, evidence) and asks these functions what follows; none of them does I/O,
// so the table is tested exhaustively without a process (test/unit/decide.test.ts).
import type { IssuedType } from '../config/config.js';
import type { TerminalState } from './fsm.js';

/**
 * The exits one iteration can fire, in SPEC §3's order of precedence (INVARIANT and GUARDRAIL
 * first). The "no progress" exits of the other loop designs (critic, stuck failure, stall) rank
 * with divergence, before backpressure. Northstar drift has two forms that end the run alike
 * (EXIT_BLOCKED(NORTHSTAR_DRIFT), docs/glossary.md "Northstar drift"): three known W = 0 in a row,
 * and a total distance that rose three iterations in a row.
 */
export const EXIT_PRECEDENCE = [
  'INVARIANT',
  'GUARDRAIL',
  'CONVERGED',
  'DIVERGED',
  'NO_VIABLE_FIX_PATH',
  'STUCK',
  'STALLED',
  'BACKPRESSURE',
  'NORTHSTAR_DRIFT',
  'NORTHSTAR_DISTANCE_RISING',
  'BUDGET',
] as const;
export type ExitKind = (typeof EXIT_PRECEDENCE)[number];
export interface FiredExit {
  kind: ExitKind;
  reason: string;
  /** INVARIANT only: the stop reason it ends with (EVIDENCE_INCOMPLETE, RESIDUAL_UNAVAILABLE…). */
  code?: string;
}

/** What the judgement of one tree found (absent when the checks did not run). */
export interface Judgement {
  /** Every criterion met on this tree. */
  allMet: boolean;
  /** The residual could not be computed (never 0, never compared with R_p). */
  residualError: string | null;
  /** EXACT (all met, residual 0) and CONVERGED (residual < R_p) as far as declared. */
  exact: boolean;
  converged: boolean;
  /** The suite ran fewer tests than the baseline without an approved override. */
  suiteWeakened: string | null;
}

export interface IterationFacts {
  /** A stop source that cut the agent or the checks short: a pause, never a verdict. */
  interrupted: string | null;
  /** The agent left a change to judge (after protected paths were reverted). */
  changed: boolean;
  /** The agent wrote a report (valid or not): with a change, what makes an iteration worth recording. */
  reported: boolean;
  /** The agent process failed (exit code, the CLI's error, the idle limit), in the CLI's words. */
  agentFailure: string | null;
  guardrail: string | null;
  /** A forbidden state found during the iteration (branch switched, host refusal…). */
  invariant: { code: string; detail: string } | null;
  judgement: Judgement | null;
  /** The last three residuals rise strictly. */
  diverging: string | null;
  /** NO_VIABLE_FIX_PATH, STUCK, STALLED as the progress watchers found them. */
  progress: FiredExit[];
  /** A stop requested after the checks (it pauses before the next iteration). */
  backpressure: string | null;
  /** Northstar drift: a known W = 0 three iterations in a row. */
  northstarDrift: string | null;
  /** Northstar drift: the last three total distances rise strictly. */
  northstarRising: string | null;
  budget: { code: string; reason: string } | null;
}

/** What a step that was not judged brings to the table: no measurement, no watcher, no stop, no budget. */
export const unjudged = (): Pick<
  IterationFacts,
  'judgement' | 'diverging' | 'progress' | 'backpressure' | 'northstarDrift' | 'northstarRising' | 'budget'
> => ({ judgement: null, diverging: null, progress: [], backpressure: null, northstarDrift: null, northstarRising: null, budget: null });

export type Decision =
  | { halt: false; record: true; certificate: IssuedType; fired: FiredExit[] }
  | {
      halt: true;
      /** Whether the iteration is recorded (certificate, AGENTS.md entry, commit) or not counted at all. */
      record: boolean;
      certificate: IssuedType;
      status: TerminalState;
      stop_reason: string;
      detail: string;
      fired: FiredExit[];
    };

const rank = (f: FiredExit) => EXIT_PRECEDENCE.indexOf(f.kind);

/** Every exit the facts fire, highest precedence first. */
export function firedExits(f: IterationFacts): FiredExit[] {
  const fired: FiredExit[] = [];
  if (f.invariant) fired.push({ kind: 'INVARIANT', code: f.invariant.code, reason: f.invariant.detail });
  if (f.guardrail) fired.push({ kind: 'GUARDRAIL', reason: f.guardrail });
  const j = f.judgement;
  if (j?.suiteWeakened) fired.push({ kind: 'GUARDRAIL', reason: `suite integrity: ${j.suiteWeakened}` });
  if (j?.residualError) fired.push({ kind: 'INVARIANT', code: 'RESIDUAL_UNAVAILABLE', reason: j.residualError });
  // A failing criterion is never a halt (issue 29): a residual below R_p while one fails (a fraction
  // of tests, a command's score) goes on, and the next prompt names the criteria still open.
  if (j && !j.residualError && j.allMet && (j.exact || j.converged))
    fired.push({ kind: 'CONVERGED', reason: j.exact ? 'all criteria met, residual 0' : 'residual below R_p' });
  if (f.diverging) fired.push({ kind: 'DIVERGED', reason: f.diverging });
  fired.push(...f.progress);
  const stop = f.interrupted ?? f.backpressure;
  if (stop) fired.push({ kind: 'BACKPRESSURE', reason: stop });
  if (f.northstarDrift) fired.push({ kind: 'NORTHSTAR_DRIFT', reason: f.northstarDrift });
  if (f.northstarRising) fired.push({ kind: 'NORTHSTAR_DISTANCE_RISING', reason: f.northstarRising });
  if (f.budget) fired.push({ kind: 'BUDGET', reason: `${f.budget.code}: ${f.budget.reason}` });
  return fired.sort((a, b) => rank(a) - rank(b));
}

/** The certificate type the top exit earns (SPEC §2): only a judged tree can be EXACT or CONVERGED. */
function certificateFor(top: FiredExit | undefined, j: Judgement | null): IssuedType {
  switch (top?.kind) {
    case 'CONVERGED':
      return j?.exact ? 'EXACT' : 'CONVERGED';
    case 'DIVERGED':
      return 'DIVERGED';
    case 'BACKPRESSURE':
      return 'BACKPRESSURE';
    case 'BUDGET':
      return 'TIMEOUT';
    default:
      return 'NONE';
  }
}

const STATUS_OF: Record<ExitKind, TerminalState> = {
  INVARIANT: 'EXIT_BLOCKED',
  GUARDRAIL: 'EXIT_BLOCKED',
  CONVERGED: 'EXIT_CONVERGED',
  DIVERGED: 'EXIT_DIVERGED',
  NO_VIABLE_FIX_PATH: 'EXIT_BLOCKED',
  STUCK: 'EXIT_BLOCKED',
  STALLED: 'EXIT_BLOCKED',
  BACKPRESSURE: 'EXIT_BLOCKED',
  NORTHSTAR_DRIFT: 'EXIT_BLOCKED',
  NORTHSTAR_DISTANCE_RISING: 'EXIT_BLOCKED',
  BUDGET: 'EXIT_BUDGET_EXCEEDED',
};

function stopReason(top: FiredExit, certificate: IssuedType): string {
  switch (top.kind) {
    case 'INVARIANT':
      return top.code ?? 'INVARIANT_VIOLATION';
    case 'GUARDRAIL':
      return 'GUARDRAIL_VIOLATION';
    case 'CONVERGED':
      return certificate;
    case 'DIVERGED':
      return 'SILENT_DIVERGENCE_DETECTED';
    case 'BACKPRESSURE':
      return 'BACKPRESSURE_SIGNAL';
    case 'NORTHSTAR_DISTANCE_RISING':
      return 'NORTHSTAR_DRIFT';
    case 'BUDGET':
      return top.reason.split(':')[0];
    default:
      return top.kind;
  }
}

/** After an agent step (and the judgement of its tree, when the checks ran): go on or halt. */
export function decide(f: IterationFacts): Decision {
  // Nothing to record: an attempt that left no change is not an iteration. A pause then simply
  // ends the run (the next run starts this iteration again); a failed agent ends it with the CLI's words.
  if (!f.changed && (f.interrupted || f.agentFailure || !f.reported) && !f.guardrail && !f.invariant) {
    const [kind, code, detail]: [ExitKind, string, string] = f.interrupted
      ? ['BACKPRESSURE', 'BACKPRESSURE_SIGNAL', f.interrupted]
      : f.agentFailure
        ? ['INVARIANT', 'AGENT_FAILED', f.agentFailure]
        : ['INVARIANT', 'EVIDENCE_INCOMPLETE', 'the agent changed nothing and wrote no report'];
    const fired = [{ kind, code, reason: detail }];
    return {
      halt: true,
      record: false,
      certificate: kind === 'BACKPRESSURE' ? 'BACKPRESSURE' : 'NONE',
      status: 'EXIT_BLOCKED',
      stop_reason: code,
      detail,
      fired,
    };
  }
  const fired = firedExits(f);
  const top = fired[0];
  const certificate = certificateFor(top, f.judgement);
  if (!top) return { halt: false, record: true, certificate, fired };
  return { halt: true, record: true, certificate, status: STATUS_OF[top.kind], stop_reason: stopReason(top, certificate), detail: top.reason, fired };
}

/**
 * A downstream the loop depends on did not answer (seed §9.1 `downstream_dependency_unavailable`):
 * the reason of a BACKPRESSURE exit, a pause. `what` names it ("the agent's model API"), `why` is its
 * own words; backpressure.ts#pauseStep reads `what` back for the next step.
 */
export const downstreamUnavailable = (what: string, why: string) => `downstream unavailable (${what}): ${why}`;

/**
 * The backpressure an agent step ends with, or null: a stop the loop saw while it ran; else, when
 * the agent ended by itself, its model service's rate limit, or a downstream it depends on that did
 * not answer the loop's own probe after the step failed (agent/downstream.ts; never the agent's
 * words). Either is the world's state, not the agent's failure: the run pauses and the next run tries
 * the step again (SPEC §2 backpressure), where any other failure ends it AGENT_FAILED.
 */
export function agentBackpressure(s: {
  stop: string | null;
  aborted: boolean;
  rateLimited: boolean;
  errorText: string | null;
  unreachable: { what: string; why: string } | null;
}): string | null {
  if (s.stop || s.aborted) return s.stop;
  const words = s.errorText ? `: ${s.errorText}` : '';
  if (s.rateLimited) return `the agent hit a rate limit${words}`;
  return s.unreachable ? downstreamUnavailable(s.unreachable.what, `it cannot be reached from here (${s.unreachable.why}); the agent failed${words}`) : null;
}

/** A tree judged with nothing else to go on (a HEAD before any agent, a rerun): the same table decides. */
export function decideJudgement(judgement: Judgement): Decision {
  return decide({ interrupted: null, changed: true, reported: true, agentFailure: null, guardrail: null, invariant: null, ...unjudged(), judgement });
}

/**
 * Whether an iteration counts against budget.max_iterations. A stop (signal, STOP file or label,
 * disk, rate limit) that cut the agent step or the checks short before any check ran makes the
 * iteration a pause (SPEC §3: "the next run continues from the evidence and can converge"): its
 * partial work is committed and judged by the next run, but it is not an attempt the agent
 * finished, so it does not use an iteration up. Otherwise the pause of the last budgeted iteration
 * would end the loop EXIT_BUDGET_EXCEEDED(MAX_ITERS) on the next run without an agent. The other
 * budgets (wall time, cost, tool calls) still count every second, dollar and call it spent, and an
 * agent gains nothing by provoking a pause: the run ends, and only a new run goes on.
 */
export function countsAgainstBudget(f: Pick<IterationFacts, 'interrupted' | 'judgement'>): boolean {
  return !(f.interrupted && !f.judgement);
}

/**
 * The iterations used so far: those recorded (numbered 0 … next - 1) but for those a stop cut
 * short before their checks (state.json `stopped_before_checks`).
 */
export function iterationsUsed(next: number, stoppedBeforeChecks: readonly number[]): number {
  return next - new Set(stoppedBeforeChecks.filter((n) => n >= 0 && n < next)).size;
}

/** MAX_ITERS: the iterations used (after the one just run, when it counts) reach budget.max_iterations. */
export function iterationBudget(used: number, max: number): { code: 'MAX_ITERS'; reason: string } | null {
  return used >= max ? { code: 'MAX_ITERS', reason: `${used} of ${max} iterations used` } : null;
}

/** Before an iteration starts: a stop or a used-up budget ends the run without spawning an agent. */
export function decideBeforeIteration(s: { stop: string | null; budget: { code: string; reason: string } | null }): Extract<Decision, { halt: true }> | null {
  if (s.stop) {
    const fired: FiredExit[] = [{ kind: 'BACKPRESSURE', reason: s.stop }];
    return { halt: true, record: false, certificate: 'BACKPRESSURE', status: 'EXIT_BLOCKED', stop_reason: 'BACKPRESSURE_SIGNAL', detail: s.stop, fired };
  }
  if (s.budget) {
    const fired: FiredExit[] = [{ kind: 'BUDGET', reason: `${s.budget.code}: ${s.budget.reason}` }];
    return { halt: true, record: false, certificate: 'TIMEOUT', status: 'EXIT_BUDGET_EXCEEDED', stop_reason: s.budget.code, detail: s.budget.reason, fired };
  }
  return null;
}

/**
 * When HEAD is judged before any agent runs: a criterion whose runner is not installed where the
 * checks run (exit 127, Python's "No module named" for the module it runs), or JUnit files the
 * checks never write (`RESIDUAL_UNAVAILABLE`), is the user's to fix, not iterations to burn.
 */
export function decideHead(
  missing: { id: string; reason: string }[],
  code: 'CRITERION_COMMAND_MISSING' | 'RESIDUAL_UNAVAILABLE' = 'CRITERION_COMMAND_MISSING',
): Extract<Decision, { halt: true }> | null {
  if (!missing.length) return null;
  const detail = missing.map((m) => `${m.id === 'residual' ? 'residual' : `criterion ${m.id}`}: ${m.reason}`).join('; ');
  const fired: FiredExit[] = [{ kind: 'INVARIANT', code, reason: detail }];
  return { halt: true, record: false, certificate: 'NONE', status: 'EXIT_NEED_INFO', stop_reason: code, detail, fired };
}

/** The audits at the end (Triangle, Phuc Test, rung, Northstar alignment) may withhold a convergence. */
export interface Audits {
  triangleMissing: 'REMIND' | 'VERIFY' | 'ACKNOWLEDGE' | 'none';
  phucFailures: string[];
  /** Replays of the final commit in a fresh workspace did not give the same certificate. */
  confirmation: string | null;
  /**
   * A stop (signal, STOP file, label) cut the final confirmation short: what it ran proves nothing
   * either way, so the run pauses (BACKPRESSURE) and the next run confirms again.
   */
  interrupted: string | null;
  alignment: 'ALIGNED' | 'NEUTRAL' | 'DRIFTING';
  neutralAccepted: boolean;
  alignmentDetail: string;
}

export function decideFinal(status: TerminalState, stop_reason: string, a: Audits): { status: TerminalState; stop_reason: string; withheld: string | null } {
  const converged = status === 'EXIT_CONVERGED';
  const withhold = (reason: string, why: string) => ({ status: 'EXIT_BLOCKED' as const, stop_reason: reason, withheld: `${status} withheld: ${why}` });
  // A pause at whatever moment it comes (SPEC backpressure): never scored as one of the audits' verdicts.
  if (converged && a.interrupted)
    return { status: 'EXIT_BLOCKED', stop_reason: 'BACKPRESSURE_SIGNAL', withheld: `${status} not confirmed yet, paused: ${a.interrupted}` };
  if (a.triangleMissing !== 'none')
    return withhold(a.triangleMissing === 'VERIFY' ? 'VERIFY_SKIPPED' : 'INVARIANT_VIOLATION', `Triangle Law: the ${a.triangleMissing} vertex is missing`);
  if (a.phucFailures.length && status !== 'EXIT_NEED_INFO') return withhold(a.phucFailures[0].split(':')[0], a.phucFailures.join('; '));
  if (converged && a.confirmation) return withhold('CONFIRMATION_FAILED', a.confirmation);
  if (converged && a.alignment === 'DRIFTING') return withhold('NORTHSTAR_DRIFT', `the Northstar distance grew over the loop (${a.alignmentDetail})`);
  if (converged && a.alignment === 'NEUTRAL' && !a.neutralAccepted)
    return withhold(
      'GLOW_WITHOUT_NORTHSTAR_ALIGNMENT',
      'no Northstar metric moved (NEUTRAL); measure one that this loop advances, or set northstar_neutral_reason in the config to accept it',
    );
  return { status, stop_reason, withheld: null };
}
