// The errors the engine tells apart. The driver decides on `code`, never on message text, and
// every one of them ends a run in a halting report (EXIT_BLOCKED with the code as stop reason),
// not in a crash: see loop/decide.ts for where each lands.

export abstract class PhucError extends Error {
  abstract readonly code: string;
}

/** A forbidden state of the loop (an illegal FSM transition, a second agent, a missing certificate…). */
export class InvariantViolation extends PhucError {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(`${code}: ${message}`);
  }
}

/** An evidence file or persisted document that does not verify or does not parse. */
export class EvidenceUnverifiable extends PhucError {
  readonly code = 'EVIDENCE_UNVERIFIABLE';
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(`${file}: ${message}`);
  }
}

/** Why a git call failed, as far as the loop can tell: each has its own advice in the report. */
export type GitFailureKind = 'index_lock' | 'disk_full' | 'helper_ended' | 'other';

export class GitError extends PhucError {
  readonly code = 'GIT_FAILURE';
  readonly kind: GitFailureKind;
  constructor(message: string, stderr = '') {
    const kind: GitFailureKind = /index\.lock|Unable to create '.*\.lock'/.test(stderr)
      ? 'index_lock'
      : /No space left on device|ENOSPC|Disk quota exceeded/i.test(stderr)
        ? 'disk_full'
        : 'other';
    super(`${capped(message)}${ADVICE[kind]}`);
    this.kind = kind;
  }

  static ended(message: string): GitError {
    const e = new GitError(message);
    (e as { kind: GitFailureKind }).kind = 'helper_ended';
    return e;
  }
}

/** A git failure's text as logs and reports carry it: what git printed about thousands of paths is cut short. */
const MESSAGE_CHARS = 2000;
function capped(message: string): string {
  return message.length <= MESSAGE_CHARS ? message : `${message.slice(0, MESSAGE_CHARS)} … (${message.length - MESSAGE_CHARS} more characters)`;
}

const ADVICE: Record<GitFailureKind, string> = {
  index_lock: ' (another git process holds .git/index.lock, or one crashed: remove the lock file once no git runs, then run again)',
  disk_full: ' (the disk is full: free space, then run again; the loop resumes from its evidence)',
  helper_ended: '; what it was doing may be half done: `phuc-loop run` again resumes from the evidence',
  other: '',
};

/** Writing evidence or state failed (a full disk, a path that is not a regular file…). */
export class StorageError extends PhucError {
  readonly code = 'STORAGE_FAILURE';
}

/** checks.setup failed: the tree cannot be judged (an environment problem, not the agent's fail). */
export class SetupFailed extends PhucError {
  readonly code = 'SETUP_FAILED';
}

/**
 * The judged tree stopped being the committed tree: checks.setup or a check changed tracked files
 * in the check workspace (SPEC §7). What the round measured is not the commit's: it is refused.
 */
export class TreeChanged extends PhucError {
  readonly code = 'JUDGED_TREE_CHANGED';
  constructor(
    readonly step: string,
    readonly paths: readonly string[],
  ) {
    const named = paths.slice(0, 5).join(', ') + (paths.length > 5 ? ` and ${paths.length - 5} more` : '');
    super(
      `the judged tree is not the committed tree: ${step} changed ${named} in the check workspace (compared by content with the tree judged); the round is refused`,
    );
  }
}

/**
 * The runner canary (judge/canary.ts) passed: a test that must fail was reported as passing when a
 * criterion ran the suite, so its passes say nothing (SPEC §7). The round is refused.
 */
export class RunnerCompromised extends PhucError {
  readonly code = 'RUNNER_COMPROMISED';
  constructor(round: string, criterion: string, runner: string, notRun = false, copy?: { test: string; outcome: string }) {
    super(
      copy
        ? `the test runner is compromised (round ${round}): the loop's copy of \`${copy.test}\`, a test that failed earlier in this run, run with the canary under a name the agent cannot predict, ${copy.outcome === 'failed' ? 'failed' : 'did not run though the canary beside it ran'} while the round reported the criterion \`${criterion}\` passing (${runner}); the round is refused`
        : `the test runner is compromised (round ${round}): the loop's canary, a test that must fail placed beside the suite under a name the agent cannot predict, ${notRun ? 'ran at an earlier round of this run but did not run' : 'passed'} when the criterion \`${criterion}\` ran the suite (${runner}); the round is refused`,
    );
  }
}

/**
 * A stop (signal, STOP file, label) cut short something the loop was running for a judgement
 * (checks.setup): what ran proves nothing, so the run pauses (EXIT_BLOCKED(BACKPRESSURE_SIGNAL)).
 */
export class Stopped extends PhucError {
  readonly code = 'BACKPRESSURE_SIGNAL';
}

export interface ConfigProblem {
  /** Dotted path of the field ("acceptance_criteria.0.run"), or "" for the file itself. */
  field: string;
  message: string;
}

/** phuc-loop.yml (or NORTHSTAR.md) does not say what the loop needs: EXIT_NEED_INFO. */
export class ConfigError extends PhucError {
  readonly code = 'CONFIG_INVALID';
  constructor(
    readonly file: string,
    readonly problems: ConfigProblem[],
  ) {
    super(`${file}:\n` + problems.map((p) => `  - ${p.field || '(file)'}: ${p.message}`).join('\n'));
  }
}
