// The agent's turn of an iteration (iteration.ts): the step start kept (the user's uncommitted work
// and ignored files first), the agent run in its sandbox, then collect: only what the agent changed
// is its work; protected paths, git settings and the loop's own paths are put back, and what was
// put back is the iteration's guardrail.
import { dirname, join, resolve } from 'node:path';
import { type DirtySnapshot, snapshotDirty, spawnAgent, unchangedSince, userRepos } from '../agent/agent-step.js';
import { printablePath, protectedMatcher } from '../agent/path-names.js';
import { collectArtifacts, unstageable } from '../agent/collect.js';
import { lastErrorLine, REPORT_PATH } from '../agent/agents.js';
import { allowList, shadowNames } from '../agent/allow-list.js';
import { exposeEvidence } from '../agent/evidence-view.js';
import { usd } from '../common/display.js';
import { listSome } from '../common/markdown.js';
import { LOOP_SCRATCH_DIR } from '../config/plan.js';
import { judgesToWrite, scriptsRunBy } from '../config/protected.js';
import type { Stage } from '../evidence/phases.js';
import { iterDir } from '../store/evidence.js';
import { evidenceFolder, type prepareCapsule } from './capsule-build.js';
import { agentRunContext, agentSpec, type Ctx, elapsedMs, scrubber, secretScrubber } from './context.js';
import { crashPoint } from './crash-point.js';
import { countUsage } from './budget-use.js';
import { ownPaths } from './own-paths.js';
import { cutOffStepStart, saveStepStart, stepStartFile } from './step-start.js';
import { type PutBack, type TakeOptions, UserFiles, userFilesStore } from '../agent/user-files.js';
import { DEFAULT_REGENERABLE } from '../config/regenerable.js';
import { listEntries, setAsideUnseen } from '../agent/unseen-entries.js';
import { type Ctimes, ctimesOf, restoreStamps } from '../agent/entry-stamps.js';
import { unstageUserIndex } from './user-staged.js';

type Prepared = Exclude<Awaited<ReturnType<typeof prepareCapsule>>, { problems: unknown }>;

/** What the agent's turn left for the judge and the record. */
export interface AgentTurn {
  /** The step start's marker file: cleared once the iteration is committed. */
  marker: string;
  startHead: string | null;
  /** The work tree's dirty paths before the step (the user's). */
  before: DirtySnapshot;
  isProtected: (path: string) => boolean;
  collected: Awaited<ReturnType<typeof collectArtifacts>>;
  agent: Awaited<ReturnType<typeof spawnAgent>>;
  agentFailure: string | null;
  guardrail: string | null;
}

/** The agent's step and the collection of its work; `invariant`: the step broke one (nothing to record). */
export async function agentTurn(ctx: Ctx, n: number, stage: Stage, prepared: Prepared): Promise<AgentTurn | { invariant: string }> {
  const { o, ev, git, fsm, plan, state } = ctx;
  const dir = iterDir(n);
  // The agent. Its start is kept until the iteration is committed: a run killed meanwhile leaves
  // the agent's partial work, which the next run attributes to this iteration's step, not the user.
  const marker = stepStartFile(ev.root);
  const { head: startHead, branch } = await git.position();
  const prefetched = ctx.dirtyAfter?.head === startHead ? await ctx.dirtyAfter.snapshot.catch(() => null) : null;
  ctx.dirtyAfter = undefined;
  const now = prefetched && (await unchangedSince(ctx.cwd, prefetched)) ? prefetched : await snapshotDirty(git, ctx.cwd);
  await unstageUserIndex(
    git,
    [...now].filter(([, v]) => v.staged).map(([p]) => p),
    o.log,
    n,
  );
  const work = await keepUserWork(ctx, now);
  const userFiles = await keepUserFiles(ctx);
  // A step cut off by a kill can only be this run's first: a later one's start is this run's own.
  const cut = n === ctx.run.first ? await cutOffStepStart(git, marker, n, startHead) : null;
  if (cut) o.log.info(`iter ${n}: the previous run was killed during this iteration's agent step: its changes since that step began are the agent's`);
  // AGENTS.md is the loop's own (rewritten every iteration), whatever a cut-off iteration left of it.
  const before: DirtySnapshot = cut ? new Map([...cut].filter(([p]) => p !== 'AGENTS.md')) : now;
  if (cut && now.has('AGENTS.md')) before.set('AGENTS.md', now.get('AGENTS.md')!);
  if (!cut) await saveStepStart(marker, n, startHead, before, work);
  ctx.userRepos = userRepos(before.keys());
  const settings = await git.snapshotSettings();
  userFiles.stepStarts();
  const own = ownPaths(ctx.cwd, resolve(ctx.cwd, ctx.evRel), regenerableOf(ctx));
  const unseen = unseenOf(ctx, own.whyOwn);
  const entries = unseen.list();
  const stamps: { lent: Ctimes; ending: Ctimes } = { lent: new Map(), ending: new Map() };
  const remainingMs = plan.budget.max_total_seconds * 1000 - elapsedMs(ctx);
  const idleS = ctx.intake.config.agent.idle_seconds;
  await exposeEvidence(ctx.exchangeDir, prepared.capsule.artifact_links, evidenceFolder(ctx), (rel) => ev.readText(rel));
  stage.lap('step start');
  const agent = await spawnAgent({
    ...agentRunContext(ctx),
    spec: agentSpec(ctx, n),
    prompt: prepared.prompt,
    capsule: prepared.text,
    iteration: n,
    timeoutMs: Math.max(1000, Math.min(plan.budget.max_seconds_per_iteration * 1000, remainingMs)),
    idleMs: idleS === undefined ? undefined : idleS * 1000,
    heartbeat: (s) => o.log.info(`iter ${n}: agent working, ${s} s`),
    protect: ctx.userRepos,
    holding: {
      lent: () => void (stamps.lent = ctimesOf(ctx.cwd, entries)),
      ending: () => void (stamps.ending = ctimesOf(ctx.cwd, entries)),
    },
  });
  const ar = agent.result;
  const out = agent.outcome;
  // The agent's own process, and around it the work tree lent to the agent user and taken back.
  stage.lap('work tree hand-over', { phase: 'agent', ms: ar.durationMs });
  crashPoint(ctx, 'agent');
  const agentFailure = ar.idle
    ? `the agent printed nothing for ${idleS} s (agent.idle_seconds) and was stopped`
    : ar.timedOut
      ? `the agent was killed at the ${Math.round(Math.min(plan.budget.max_seconds_per_iteration * 1000, remainingMs) / 1000)} s limit`
      : !ar.aborted && (ar.exitCode !== 0 || out.failed)
        ? failureText(ar, out.errorText, agentSpec(ctx, n).preset)
        : null;
  o.log.info(
    `iter ${n}: agent ${(ar.durationMs / 1000).toFixed(1)} s, ${ar.timedOut ? 'killed at the time limit' : ar.aborted ? 'stopped' : `exit ${ar.exitCode ?? ar.signal}`}` +
      `${out.costUsd ? `, ${usd(out.costUsd)}` : ''}${out.tokens ? `, ${out.tokens.input + out.tokens.output} tokens` : ''}${out.toolCalls !== null ? `, ${out.toolCalls} tool call(s)` : ''}${agent.backpressure ? ` — backpressure: ${agent.backpressure}` : ''}${agentFailure ? ` — ${agentFailure}` : ''}`,
  );

  // Collect: only what the agent changed is its; protected paths are put back.
  fsm.to('COLLECT_ARTIFACTS');
  const after = await git.position();
  if (branch !== after.branch) return { invariant: `the agent switched the branch from ${branch} to ${after.branch}` };
  // A criterion's program the agent was to write is protected from the iteration after it was committed.
  const toWrite = judgesToWrite(plan.acceptance_criteria);
  const judges = toWrite.length ? [...(await git.inHead(toWrite))] : [];
  const isProtected = protectedMatcher(judges.length ? [...plan.protected, ...judges] : plan.protected);
  const allowed = plan.may_change ? allowList(plan.may_change, ctx.cwd, await shadowNames(ctx.cwd, ctx.o.runner)) : null;
  const collected = await collectArtifacts({
    git,
    cwd: ctx.cwd,
    evidence: ev,
    dir,
    before,
    startHead: startHead!,
    settings,
    // A user's ignored file the agent made part of its change (its .gitignore line removed) would be
    // committed and pushed: reverted as a protected path.
    isProtected: (p) => isProtected(p) || userFiles.has(p),
    userFiles: (ignored) => userFiles.putBack(isProtected, ignored),
    agent,
    scrub: scrubber(ctx.secrets),
    holdsSecret: (data) => secretScrubber(ctx.secrets).contains(data),
    guardedScripts: scriptsRunBy(plan.acceptance_criteria.map((c) => c.run)),
    allowList: allowed,
    unseen: async (kept, ignored, changed) => {
      const aside = await setAsideUnseen({
        cwd: ctx.cwd,
        before: entries,
        after: unseen.list(false),
        kept,
        ignored,
        regenerable: unseen.regenerable,
        isProtected,
        allowList: allowed,
        store: join(dirname(ev.root), 'set-aside', `iter_${n}`),
      });
      const again = await restoreStamps(ctx.cwd, entries, stamps.lent, stamps.ending, new Set(changed));
      return { ...aside, restamped: again.restamped, failed: [...aside.failed, ...again.failed] };
    },
    loopOwned: own.whyOwn,
    reserved: own.whyReserved,
  });
  countUsage(state, out);
  const guardrail =
    [
      ...(
        [
          ['protected', 'protected paths changed and reverted'],
          ['loop-owned', "the loop's own paths changed and reverted"],
          ['not-allowed', 'changes outside agent.may_change reverted'],
          ['shadow', 'modules that would run in place of a library or at interpreter start reverted'],
          ['runner-config', 'runner configuration changed and reverted (suite integrity)'],
          ['outside', 'changes reaching outside the tree reverted'],
          ['secret', 'changes holding a secret value reverted'],
        ] as const
      ).map(([why, what]) => {
        const paths = collected.reverted.filter((r) => r.why === why).map((r) => (r.detail ? `${printablePath(r.path)} (${r.detail})` : printablePath(r.path)));
        return paths.length ? `${what}: ${listSome(paths)}` : '';
      }),
      collected.settingsChanged.length ? `git settings changed and restored: ${collected.settingsChanged.join(', ')}` : '',
    ]
      .filter(Boolean)
      .join('; ') || null;
  o.log.info(
    `iter ${n}: ${collected.diffFiles} file(s) changed, report ${collected.report.state}` +
      `${guardrail ? ` — GUARDRAIL: ${guardrail}` : ''}${collected.agentCommitsFolded ? `, ${collected.agentCommitsFolded} agent commit(s) folded in` : ''}`,
  );
  // Not a guardrail: an ordinary change git cannot stage (its attributes ask for a conversion that
  // fails) is put back and said, and the loop goes on (AGENTS.md tells the next agent why).
  const unstaged = unstageable(collected);
  if (unstaged) o.log.info(`iter ${n}: ${unstaged}`);
  if (collected.untrackedDeleted.length)
    o.log.info(
      `iter ${n}: the agent deleted ${collected.untrackedDeleted.map(printablePath).join(', ')} (uncommitted, never tracked): nothing to stage; ` +
        `the user's version is kept in ${USER_WORK_REF} (\`git checkout ${work ? work.slice(0, 12) : USER_WORK_REF} -- <path>\` brings it back)`,
    );
  logUserFiles(o, n, collected.userFiles);
  const aside = collected.unseen;
  if (aside?.paths.length) o.log.info(`iter ${n}: what the agent made that git does not see, set aside: ${listSome(aside.paths.map(printablePath))}`);
  if (aside?.restamped?.length) o.log.info(`iter ${n}: times, modes or attributes the agent changed put back: ${listSome(aside.restamped.map(printablePath))}`);
  for (const f of aside?.failed ?? []) o.log.warn(`iter ${n}: ${printablePath(f.path)} could not be set aside: ${f.error}`);
  crashPoint(ctx, 'collect');
  stage.lap('collect');
  return { marker, startHead, before, isProtected, collected, agent, agentFailure, guardrail };
}

/** The CLI's own words for why it failed: its error result or last error line, not only "exit 1". */
function failureText(r: { exitCode: number | null; signal: string | null; stdout: string; stderr: string }, errorText: string | null, preset: string): string {
  if (r.exitCode === 127) return `exit 127: the agent command was not found — install the ${preset} CLI or set agent.run`;
  const last = errorText ?? lastErrorLine(`${r.stdout}\n${r.stderr}`);
  return `exit ${r.exitCode ?? r.signal}${last ? `: ${last}` : ''}`;
}

/** Where the user's uncommitted work is kept (local only: the loop pushes its branch, never this ref). */
export const USER_WORK_REF = 'refs/phuc-loop/user-work';

/**
 * Whatever the agent then does to the user's uncommitted files (edit, delete, overwrite), the
 * user's version stays in git: kept before every agent step in which there is any.
 */
async function keepUserWork(ctx: Ctx, before: DirtySnapshot): Promise<string | null> {
  const paths = [...before.keys()].filter((p) => !p.endsWith('/'));
  if (!paths.length) return null;
  const kept = await ctx.git.keepWork(paths, USER_WORK_REF, `phuc-loop: uncommitted work before iteration ${ctx.state.next_iteration}`);
  if (kept.made)
    ctx.o.log.info(
      // The commit, not the ref: a later step's keep moves the ref (this commit stays its parent).
      `uncommitted work (${paths.length} path(s)) kept in ${USER_WORK_REF} (${kept.commit.slice(0, 12)}): \`git checkout ${kept.commit.slice(0, 12)} -- <path>\` brings a file back`,
    );
  return kept.commit;
}

/**
 * The user's git-ignored files, kept once per run before its first agent step and put back after
 * each one (user-files.ts); the loop's own folders and the regenerable ones are left out.
 */
async function keepUserFiles(ctx: Ctx): Promise<UserFiles> {
  if (ctx.userFiles) return ctx.userFiles;
  const scope = userFilesScope(ctx.cwd, ctx.evRel, ctx.intake.config);
  const copyAll = ctx.isolation !== 'user+pidns';
  const started = ctx.o.clock.monotonicMs();
  const files = await UserFiles.take({ git: ctx.git, cwd: ctx.cwd, store: userFilesStore(ctx.ev.root), ...scope, copyAll });
  const regenerable = scope.regenerable;
  ctx.userFiles = files;
  if (files.count)
    ctx.o.log.info(
      `git-ignored files of the user's: ${files.count} kept in .git/phuc-loop (hard links${copyAll ? ', and copies of the small ones' : ''}; ` +
        `${Math.round(ctx.o.clock.monotonicMs() - started)} ms), put back after every agent step; folders named ${regenerable.join(', ') || '(none)'} are left out (user_files.regenerable)`,
    );
  for (const note of files.notes) ctx.o.log.warn(note);
  return files;
}

/**
 * The tree's entries around a step (unseen-entries.ts), past .git and the loop's own paths: scratch/,
 * the report channel's folder and file, the evidence folders and published trees, the agent CLIs'
 * state (put back or removed by the user-files step).
 */
function unseenOf(ctx: Ctx, whyOwn: (path: string) => string | null) {
  const regenerable = new Set(regenerableOf(ctx));
  const report = dirname(REPORT_PATH);
  const leaveOut = (p: string) => p === report || p === REPORT_PATH || whyOwn(p) !== null;
  return { regenerable, list: (stats?: boolean) => listEntries(ctx.cwd, leaveOut, regenerable, stats) };
}

/** The names a tool rebuilds (user_files.regenerable): neither kept nor removed. */
const regenerableOf = (ctx: Ctx): readonly string[] => regenerableIn(ctx.intake.config);
const regenerableIn = (config: Ctx['intake']['config']): readonly string[] => config.user_files?.regenerable ?? DEFAULT_REGENERABLE;

/**
 * Which git-ignored files are the user's to keep (user-files.ts), for the take and for the recovery
 * after a run cut off during a step: what the loop writes there during the run (scratch/STOP, the
 * report channel) is left out; what stands under the names it keeps for itself (evidence/, its
 * published trees, the agent CLIs' state) is kept, and what the agent makes there is removed
 * (own-paths.ts whyReserved).
 */
export function userFilesScope(cwd: string, evRel: string, config: Ctx['intake']['config']): Omit<TakeOptions, 'git' | 'cwd' | 'store' | 'copyAll'> {
  const own = [LOOP_SCRATCH_DIR, dirname(REPORT_PATH)];
  const regenerable = regenerableIn(config);
  const { whyReserved, reservedIn } = ownPaths(cwd, resolve(cwd, evRel), regenerable);
  return {
    regenerable,
    loopOwned: (p) => own.some((l) => p === l || p.startsWith(`${l}/`)),
    reserved: (p) => whyReserved(p) !== null,
    reservedIn,
  };
}

/** What the loop did about the user's ignored files after a step, in the log (artifacts.json has the full lists). */
export function logUserFiles(o: Pick<Ctx['o'], 'log'>, n: number | null, done: PutBack | null | undefined): void {
  if (!done) return;
  const at = n === null ? '' : `iter ${n}: `;
  const few = (paths: string[]) => `${paths.slice(0, 5).join(', ')}${paths.length > 5 ? `, and ${paths.length - 5} more` : ''}`;
  if (done.restored.length)
    o.log.info(
      `${at}the agent deleted, replaced or changed ${done.restored.length} git-ignored file(s) of the user's: put back as they were (${few(done.restored)})`,
    );
  if (done.protectedRemoved.length) o.log.info(`${at}git-ignored file(s) the agent made under protected paths removed: ${few(done.protectedRemoved)}`);
  if (done.reservedRemoved.length) o.log.info(`${at}file(s) the agent made under the names the loop keeps for itself removed: ${few(done.reservedRemoved)}`);
  for (const f of done.failed) o.log.warn(`${at}the user's git-ignored file ${f.path} could not be put back: ${f.error}`);
}
