// Where a run starts from: the work tree's dirty paths, refused where a run cut off mid-step left an
// agent's edit to a protected path or a user's file stands in the report channel; a finished run with nothing changed since ends at once; a new
// loop whose inputs are not committed is warned.
import { relative, resolve } from 'node:path';
import { protectedMatcher } from '../agent/path-names.js';
import { canonicalJson } from '../common/canonical.js';
import { listSome } from '../common/markdown.js';
import { type Plan } from '../config/plan.js';
import { type Intake } from '../config/intake.js';
import { type HaltingReport } from '../evidence/report.js';
import { howToGoOn } from '../evidence/run-accounting.js';
import { type ChangedPath, Git } from '../os/git.js';
import { allInputsHash } from './context.js';
import { type LoopOptions, type LoopOutcome } from './options.js';
import { type LoopState } from '../evidence/state.js';
import { EXIT_CODES } from '../run/fsm.js';
import { blockedEarly } from './halt.js';
import { USER_WORK_REF } from './agent-turn.js';
import { cutOffStepStart, stepStartFile } from './step-start.js';
import { type EvidenceStore } from '../store/evidence.js';
import { userInReportChannel } from './report-channel.js';

/** The dirty paths as the run starts, or the outcome that ends it before anything runs. */
export async function startingTree(
  o: LoopOptions,
  { git, cwd, ev, intake: got, configPath }: { git: Git; cwd: string; ev: EvidenceStore; intake: Intake; configPath: string },
  resumed: { plan: Plan; state: LoopState; report: HaltingReport | null; adopted: boolean } | null,
): Promise<{ started: ChangedPath[] } | { outcome: LoopOutcome }> {
  let started: ChangedPath[];
  const channel = await userInReportChannel(cwd, {
    tracked: (paths) => git.indexed(paths),
    cutOffStep: async () => !!resumed && (await cutOffStepStart(git, stepStartFile(ev.root), resumed.state.next_iteration, await git.head())) !== null,
  });
  if (channel) {
    o.log.error(channel);
    return { outcome: blockedEarly('GUARDRAIL_VIOLATION', channel) };
  }
  if (resumed) {
    // A loop cut off mid-iteration may have left an agent's edit to a protected path in the work tree:
    // it would be taken for the starting state and never reverted. Refuse until it is cleaned up;
    // the user's own edit, as kept before the last agent step, is theirs and stays.
    await git.clearIndexFlags();
    const isProtected = protectedMatcher(resumed.plan.protected);
    started = await git.status();
    const changed = started.filter((c) => isProtected(c.path));
    const users = await git.sameAs(
      USER_WORK_REF,
      changed.filter((c) => c.code !== '??').map((c) => c.path),
    );
    const dirtyProtected = changed.map((c) => c.path).filter((p) => !users.has(p));
    if (dirtyProtected.length) {
      // After a step cut off by a kill they may be the agent's: committing them would have the checks
      // judge an agent's edit to a protected path as the user's (the step's own revert never ran).
      const cut = (await cutOffStepStart(git, stepStartFile(ev.root), resumed.state.next_iteration, await git.head())) !== null;
      const problem = cut
        ? `protected paths have uncommitted changes (${listSome(dirtyProtected)}) and the previous run was killed during an agent step: they may be the agent's edits (\`git diff -- <path>\` shows them); restore them (\`git checkout -- <path>\`), and commit one only if you made it yourself, then \`phuc-loop run\` again`
        : `protected paths have uncommitted changes (${listSome(dirtyProtected)}); restore them (\`git checkout -- <path>\`) or commit them, then \`phuc-loop run\` again`;
      o.log.error(problem);
      return { outcome: blockedEarly('GUARDRAIL_VIOLATION', problem) };
    }
    // A verdict taken in from elsewhere (no run of this home wrote it) is judged again, never taken as one.
    if (resumed.adopted && resumed.state.terminal)
      o.log.info(
        `the last run's verdict (${resumed.state.terminal.status}) came with evidence this clone's loop did not write: HEAD is judged again before anything stands`,
      );
    const nothing = resumed.adopted ? null : await nothingToDo(git, cwd, got, resumed);
    if (nothing) {
      o.log.info(nothing.why);
      return { outcome: nothing.outcome };
    }
  } else {
    // The loop's inputs are the contract a certificate is re-checked against: outside the commit it
    // names, `verify --rerun` cannot read them and the next run refuses them as uncommitted changes.
    const inputs = new Set([configPath, got.config.northstar].map((p) => relative(cwd, resolve(cwd, p))));
    started = await git.status();
    const uncommitted = started.map((c) => c.path).filter((p) => inputs.has(p));
    if (uncommitted.length)
      o.log.warn(
        `${uncommitted.join(', ')} not committed: the certified commit will not hold ${uncommitted.length > 1 ? 'them' : 'it'}, so \`phuc-loop verify --rerun\` cannot re-check it and the next run refuses to resume; commit ${uncommitted.length > 1 ? 'them' : 'it'} first`,
      );
  }
  return { started };
}

/** When the last run ended terminal and nothing has changed since, there is nothing to do: say what would go on. */
async function nothingToDo(git: Git, cwd: string, got: Intake, resumed: { plan: Plan; state: LoopState; report: HaltingReport | null }) {
  const t = resumed.state.terminal;
  if (!t) return null;
  // A backpressure stop is a pause, a missing program may have been installed since (HEAD is
  // judged again), a git failure (a lock, a full disk) or an agent that failed before changing
  // anything (an unreachable API) may be gone with nothing committed, and a budget exit continues
  // with a changed budget: none of them is a verdict.
  const paused =
    ['BACKPRESSURE_SIGNAL', 'GIT_FAILURE', 'AGENT_FAILED', 'RESIDUAL_UNAVAILABLE'].includes(t.stop_reason) ||
    t.status === 'EXIT_NEED_INFO' ||
    (t.status === 'EXIT_BUDGET_EXCEEDED' && canonicalJson(resumed.plan.budget) !== canonicalJson(got.budget.budget));
  if (paused) return null;
  const head = await git.head();
  const sameInputs = !!t.inputs_hash && t.inputs_hash === (await allInputsHash(cwd, got.config.acceptance_criteria, await git.listFiles()));
  if (t.head !== head && !sameInputs) return null;
  const how = howToGoOn(t.status, t.stop_reason, resumed.state.next_iteration, resumed.state.stopped_before_checks);
  const why =
    `nothing to do: the last run ended ${t.status}(${t.stop_reason}) at ${t.head?.slice(0, 12)} and ` +
    `${t.head === head ? 'the checkout has not changed since' : 'the inputs of every criterion are unchanged since'}; ${how}`;
  const report = resumed.report ?? blockedEarly(t.stop_reason, why).report;
  return { why, outcome: { status: t.status, stop_reason: t.stop_reason, exitCode: EXIT_CODES[t.status], report, nothingToDo: why } };
}
