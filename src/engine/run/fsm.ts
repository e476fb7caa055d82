// The loop's finite state machine (ARCHITECTURE.md): every state, every allowed transition, five terminal exits.
// An illegal transition is an invariant violation, never silently followed.

import { InvariantViolation } from '../common/errors.js';

export const STATES = [
  'INIT',
  'INTAKE_GOAL',
  'NULL_CHECK',
  'DREAM_GOAL',
  'SPAWN_SUBAGENT',
  'COLLECT_ARTIFACTS',
  'CHECK_HALTING',
  'ACCUMULATE_LEARNINGS',
  'GLOW_CHECK',
  'BUDGET_CHECK',
  'EXIT_CONVERGED',
  'EXIT_DIVERGED',
  'EXIT_BUDGET_EXCEEDED',
  'EXIT_BLOCKED',
  'EXIT_NEED_INFO',
] as const;
export type State = (typeof STATES)[number];
export type TerminalState = Extract<State, `EXIT_${string}`>;
export const TERMINAL_STATES = STATES.filter((s): s is TerminalState => s.startsWith('EXIT_'));

export const TRANSITIONS: Record<State, readonly State[]> = {
  INIT: ['INTAKE_GOAL'],
  INTAKE_GOAL: ['NULL_CHECK', 'EXIT_NEED_INFO'],
  NULL_CHECK: ['EXIT_NEED_INFO', 'DREAM_GOAL'],
  // Resuming from evidence re-enters at DREAM_GOAL (the plan is read back, not rewritten).
  // The judgement HEAD starts from may already converge, or be stopped.
  DREAM_GOAL: ['SPAWN_SUBAGENT', 'EXIT_CONVERGED', 'EXIT_BLOCKED', 'EXIT_BUDGET_EXCEEDED', 'EXIT_NEED_INFO'],
  SPAWN_SUBAGENT: ['COLLECT_ARTIFACTS', 'EXIT_BLOCKED', 'EXIT_BUDGET_EXCEEDED'],
  COLLECT_ARTIFACTS: ['CHECK_HALTING', 'EXIT_BLOCKED'],
  CHECK_HALTING: ['ACCUMULATE_LEARNINGS', 'EXIT_NEED_INFO'],
  ACCUMULATE_LEARNINGS: ['GLOW_CHECK', 'EXIT_BLOCKED'],
  GLOW_CHECK: ['EXIT_BLOCKED', 'BUDGET_CHECK'],
  BUDGET_CHECK: ['EXIT_CONVERGED', 'EXIT_DIVERGED', 'EXIT_BUDGET_EXCEEDED', 'EXIT_BLOCKED', 'SPAWN_SUBAGENT'],
  EXIT_CONVERGED: [],
  EXIT_DIVERGED: [],
  EXIT_BUDGET_EXCEEDED: [],
  EXIT_BLOCKED: [],
  EXIT_NEED_INFO: [],
};

export function isTerminal(s: State): s is TerminalState {
  return TRANSITIONS[s].length === 0;
}

export class Fsm {
  state: State = 'INIT';
  readonly trace: State[] = ['INIT'];
  /** Told of every state entered (the host's phase events, loop/phase-events.ts). */
  onEnter?: (s: State) => void;

  to(next: State): void {
    if (!TRANSITIONS[this.state].includes(next)) throw new InvariantViolation('ILLEGAL_TRANSITION', `illegal FSM transition ${this.state} → ${next}`);
    this.state = next;
    this.trace.push(next);
    this.onEnter?.(next);
  }

  /** Enters the terminal state, through BUDGET_CHECK when the iteration went that far. */
  finish(exit: TerminalState): void {
    if (this.state === exit) return;
    for (const via of ['CHECK_HALTING', 'ACCUMULATE_LEARNINGS', 'GLOW_CHECK', 'BUDGET_CHECK'] as const) {
      if (TRANSITIONS[this.state].includes(exit)) break;
      if (TRANSITIONS[this.state].includes(via)) this.to(via);
    }
    this.to(exit);
  }

  /** The trace since the last call, for the per-iteration history record. */
  drain(): State[] {
    return this.trace.splice(0, this.trace.length - 1);
  }
}

/** Exit status codes of `phuc-loop run` (and the Action's outcome). */
export const EXIT_CODES: Record<TerminalState, number> & { CRASH: number; USAGE: number } = {
  EXIT_CONVERGED: 0,
  CRASH: 1,
  USAGE: 2,
  EXIT_DIVERGED: 10,
  EXIT_BUDGET_EXCEEDED: 11,
  EXIT_BLOCKED: 12,
  EXIT_NEED_INFO: 13,
};
