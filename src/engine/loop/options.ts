// What a host (the CLI, the Action) gives the loop and gets back: its ports and overrides, the
// phases it is told of, and the outcome. The engine's only contract with its hosts.
import type { AgentPresetName, BudgetOverrides } from '../config/config.js';
import type { HaltingReport } from '../evidence/report.js';
import type { IterationRow } from '../evidence/state.js';
import type { Clock, Logger, ProcessRunner, StopSource } from '../os/ports.js';
import type { TerminalState } from '../run/fsm.js';

export interface LoopHost {
  /** After each iteration's commit (push it, update the PR comment); a string ends the loop blocked. */
  afterIteration?(i: { iteration: number; commit: string; report: HaltingReport }): Promise<string | null>;
  /** As the loop enters a phase (the PR comment's status line): never awaited, a failure is only logged. */
  phase?(p: LoopPhase): void;
}

/**
 * A phase of the run: HEAD judged before any agent (`baseline` for a new loop, `head` when a run
 * resumes one), then per iteration the agent's step and the checks of its change. `rows`: the
 * iterations on record so far (earlier runs' included).
 */
export interface LoopPhase {
  phase: 'baseline' | 'head' | 'agent' | 'checks';
  /** The iteration the phase belongs to (for baseline and head: the next one to run). */
  iteration: number;
  goal: string;
  rows: readonly IterationRow[];
  /** The evidence tree as it is written (the loop home's; published to the work tree at the end): the host may read it. */
  evidenceRoot: string;
}

export interface LoopOptions {
  cwd: string;
  configPath?: string;
  evidenceDir?: string;
  runner: ProcessRunner;
  clock: Clock;
  log: Logger;
  env: Record<string, string | undefined>;
  /** Extra stop sources (signals, the STOP label); the STOP file and disk use are always watched. */
  stopSources?: StopSource[];
  /** Aborted when the process is asked to stop: the agent is killed at once. */
  signal?: AbortSignal;
  host?: LoopHost;
  agentOverride?: AgentPresetName;
  /** agent.model given outside the config (the action's model input). */
  modelOverride?: string;
  /** agent.isolation and agent.key_proxy given outside the config (CLI flags, action inputs). */
  isolation?: 'auto' | 'user+pidns' | 'pidns' | 'none';
  keyProxy?: boolean;
  /** Budgets given outside the config (CLI flags, action inputs): taken as written, part of the contract. */
  budgetOverrides?: BudgetOverrides;
  /** Archive an existing evidence tree and start over (never done silently). */
  fresh?: boolean;
  pollMs?: number;
}

export interface LoopOutcome {
  status: TerminalState;
  stop_reason: string;
  exitCode: number;
  report: HaltingReport;
  /** Set when nothing ran because nothing changed since the last terminal exit. */
  nothingToDo?: string;
}

export const DEFAULT_EVIDENCE_DIR = 'evidence/loop';
