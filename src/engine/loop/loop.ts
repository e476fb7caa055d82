// The driver of a run: take the lock, restore (or start) the evidence, judge HEAD, then one
// iteration after another until decide() halts. Effects happen here and in iteration.ts; which
// exit wins is decide.ts's alone. The evidence is written in a loop-private folder (see home.ts)
// and published to `evidence/loop` when the run ends.
import { homedir, hostname, tmpdir } from 'node:os';
import { dirname, relative, resolve } from 'node:path';
import { userRepos } from '../agent/agent-step.js';
import { removeReportFolder } from '../agent/agent-report.js';
import { scrubbingLogger, secretValues } from '../os/secrets.js';
import { IsolationUnavailableError, type Isolation, resolveIsolation, Sandbox } from '../os/sandbox.js';
import type { RunSpec } from '../os/ports.js';
import { type KeyProxy, keyProxyTarget, startKeyProxy } from '../agent/key-proxy.js';
import { PhucError, Stopped } from '../common/errors.js';
import { DEFAULT_CONFIG_FILE } from '../config/config.js';
import { PROTECTED_ONLY_WARNING } from '../agent/allow-list.js';
import { baselinePending, LOOP_SCRATCH_DIR, type Plan } from '../config/plan.js';
import { intake, type Intake } from '../config/intake.js';
import { EvidenceStore } from '../store/evidence.js';
import { Git } from '../os/git.js';
import type { StopSource } from '../os/ports.js';
import { DiskUsage, firstStop, StopFile } from '../os/stops.js';
import { budgetExhausted, type Ctx, scrubber } from './context.js';
import { DEFAULT_EVIDENCE_DIR, type LoopOptions, type LoopOutcome } from './options.js';
import { initialState } from '../evidence/state.js';
import { decideBeforeIteration } from '../run/decide.js';
import { Fsm } from '../run/fsm.js';
import { blockedEarly, finish, needInfo, recordNeedInfo } from './halt.js';
import { networkPolicy } from '../os/network.js';
import { loopExcludes } from './own-paths.js';
import { judgeRoot, sweepJudgeRoots } from '../judge/judge-root.js';
import { acquireLock, assertRealFolders, homeFolders, loopHome } from './home.js';
import { publishRun, userFilesInPublished } from './publish.js';
import { adoptPrevious, archiveEvidence, publishPrevious } from './previous-trees.js';
import { restoreEvidence } from './restore.js';
import { FOLDER_READ_ONLY, readOnlyFolder } from './read-only.js';
import { iterate } from './iteration.js';
import { logUserFiles, userFilesScope } from './agent-turn.js';
import { crashPoint } from './crash-point.js';
import { UserFiles, userFilesStore } from '../agent/user-files.js';
import { cleanJudge, liveJudge } from './judge-space.js';
import { endStage } from './records.js';
import { Stage } from '../evidence/phases.js';
import { announcePhases } from './phase-events.js';
import { continueRecord, newPlan } from './open-record.js';
import { judgeHead } from './judge-head.js';
import { startingTree } from './starting-tree.js';
import { preflight } from './preflight.js';

export async function runLoop(options: LoopOptions): Promise<LoopOutcome> {
  // One scrubber for everything that leaves the loop: the console here, evidence and AGENTS.md below.
  const o: LoopOptions = { ...options, log: scrubbingLogger(options.log, scrubber(secretValues(options.env))) };
  const start = new Stage('start', o.clock);
  const fsm = new Fsm();
  const git = new Git(o.runner, o.cwd, o.env);
  const cwd = await git.toplevel().catch(() => null);
  const evRel = o.evidenceDir ?? DEFAULT_EVIDENCE_DIR;
  const published = new EvidenceStore(resolve(cwd ?? o.cwd, evRel));
  const configPath = o.configPath ?? DEFAULT_CONFIG_FILE;
  fsm.to('INTAKE_GOAL');
  if (!cwd || !(await git.head())) {
    fsm.to('EXIT_NEED_INFO');
    // No git at all is not an uncommitted checkout: "commit first" would send the user the wrong way.
    const found = cwd ? 0 : (await o.runner.run({ command: 'git --version', cwd: o.cwd, env: { PATH: o.env.PATH ?? '' } }).catch(() => null))?.exitCode;
    if (found !== 0)
      return recordNeedInfo(
        published,
        needInfo(
          {
            stop_reason: 'NULL_INPUT',
            missing_fields: ['git'],
            messages: ['git was not found on PATH (`git --version` did not run): install git, then `phuc-loop run`'],
          },
          o,
        ),
      );
    return recordNeedInfo(
      published,
      needInfo(
        {
          stop_reason: 'NULL_INPUT',
          missing_fields: ['repository'],
          messages: [
            `${o.cwd} is not a git checkout with at least one commit: commit first (\`git init && git add -A && git commit\`), then \`phuc-loop run\``,
          ],
        },
        o,
      ),
    );
  }
  // The folders the loop writes, what each is for the message: checked before anything is written,
  // and again when a write fails mid-run, to name the one that became read-only.
  const writes: [string, string][] = [
    [cwd, 'the work tree'],
    [await git.commonDir(), "the git directory, which holds the loop's home"],
    ...(await homeFolders(git, evRel)).map((dir): [string, string] => [dir, "the loop's home"]),
    [dirname(published.root), 'the folder of the published evidence'],
    [published.root, 'the published evidence'],
  ];
  const readOnly = await readOnlyFolder(writes);
  if (readOnly) {
    o.log.error(readOnly);
    // Its report where one can be written (not in a read-only evidence folder).
    return recordNeedInfo(published, blockedEarly(FOLDER_READ_ONLY, readOnly)).catch(() => blockedEarly(FOLDER_READ_ONLY, readOnly));
  }
  // Loop-owned folders leave git's view before anything is written (a config error included).
  await git.exclude(loopExcludes(cwd, published.root));
  fsm.to('NULL_CHECK');
  const got = await intake(cwd, configPath, o.agentOverride, o.budgetOverrides, o.modelOverride);
  if ('stop_reason' in got) {
    fsm.to('EXIT_NEED_INFO');
    return recordNeedInfo(published, needInfo(got, o));
  }
  // The evidence folder and its parents must be folders: a link, FIFO or device there would take the loop's writes elsewhere.
  const notFolder = await assertRealFolders(cwd, published.root).then(
    () => null,
    (e: unknown) => (e instanceof Error ? e.message : String(e)),
  );
  if (notFolder) {
    o.log.error(notFolder);
    return blockedEarly('EVIDENCE_UNVERIFIABLE', notFolder);
  }
  const home = await loopHome(git, evRel);
  const ev = new EvidenceStore(home.evidence);
  ev.scrub = scrubber(secretValues(o.env));
  const lock = await acquireLock(home, hostname());
  if (typeof lock === 'string') {
    o.log.error(lock);
    return blockedEarly('STACKED_SPECULATIVE_ITERATIONS', lock);
  }
  // Published when the run got past the restore: a refused tree stays as it is for the user to see.
  const progress = { publish: false };
  let outcome: LoopOutcome | undefined;
  try {
    await git.openSession();
    return (outcome = await runLocked(o, { fsm, git, cwd, ev, evRel, published, intake: got, configPath, judgeName: home.judge, start }, progress));
  } catch (e) {
    // A folder made read-only mid-run (a remount, chmod by the user) is the cause, whatever write met it first: named, like at the start.
    const readOnlyNow = await readOnlyFolder(writes);
    if (readOnlyNow) {
      o.log.error(readOnlyNow);
      return (outcome = blockedEarly(FOLDER_READ_ONLY, readOnlyNow));
    }
    // A git failure, a full disk, a forbidden state: a report and a resumable state, never a crash.
    if (!(e instanceof PhucError)) throw e;
    o.log.error(e.message);
    return (outcome = blockedEarly(e.code, e.message));
  } finally {
    await git.close();
    if (progress.publish)
      await publishRun(ev, published.root, cwd).then(
        (notes) => notes.forEach((n) => o.log.warn(n)),
        (e: unknown) => o.log.warn(`the evidence could not be published to ${evRel}: ${e instanceof Error ? e.message : String(e)}`),
      );
    // The earlier trees (`run --fresh`) the loop keeps: one the agent deleted or edited is published again.
    if (progress.publish)
      await publishPrevious(ev, published.root, cwd).then(
        (notes) => notes.forEach((n) => o.log.warn(n)),
        (e: unknown) =>
          o.log.warn(
            `the earlier evidence trees could not be published: ${e instanceof Error ? e.message : String(e)}; the loop's copies are in .git/phuc-loop`,
          ),
      );
    // A run that could not start (no plan: its report is not the tree's) says so after the publication, which would drop it.
    if (outcome?.report.goal === null && (outcome.status === 'EXIT_NEED_INFO' || RECORDED_EARLY.has(outcome.stop_reason)))
      await recordNeedInfo(published, outcome).catch((e: unknown) =>
        o.log.warn(`the report could not be written: ${e instanceof Error ? e.message : String(e)}`),
      );
    // A lock the loop could not remove (its folder read-only now) is a dead loop's to the next run, which takes it over.
    await lock().catch((e: unknown) => o.log.warn(`the run's lock could not be removed: ${e instanceof Error ? e.message : String(e)}`));
  }
}

/** Halts before a plan whose report is still written (beside an earlier loop's evidence, never over it). */
const RECORDED_EARLY = new Set([FOLDER_READ_ONLY, 'AGENT_FAILED', 'BACKPRESSURE_SIGNAL']);

interface Base {
  fsm: Fsm;
  git: Git;
  cwd: string;
  ev: EvidenceStore;
  evRel: string;
  published: EvidenceStore;
  intake: Intake;
  configPath: string;
  /** The name the run's check workspace folder starts with (judge/judge-root.ts). */
  judgeName: string;
  /** The run's start (intake, sandbox, restore, plan), timed until HEAD is judged. */
  start: Stage;
}

async function runLocked(o: LoopOptions, base: Base, progress: { publish: boolean }): Promise<LoopOutcome> {
  const { cwd, intake: got } = base;
  // Isolation: the agent (and the checks, which run its code) as unprivileged users in their own
  // PID namespaces where the machine allows it (SPEC §7); what a weaker level leaves open is said.
  let iso: Isolation;
  try {
    iso = await resolveIsolation(o.isolation ?? got.config.agent.isolation);
  } catch (e) {
    if (!(e instanceof IsolationUnavailableError)) throw e;
    const how = 'set agent.isolation in the config (or `phuc-loop run --isolation LEVEL`) to a level available here, then run again';
    return needInfo({ stop_reason: 'CONFIG_INVALID', missing_fields: ['agent.isolation'], messages: [e.message, how] }, o);
  }
  const sandbox = await Sandbox.create(iso, {
    env: o.env,
    writable: got.config.agent.writable,
    workTree: cwd,
    network: networkPolicy(got.config, !!((o.keyProxy ?? got.config.agent.key_proxy) && keyProxyTarget(got.config.agent.use, o.env))),
    onRefused: (host, how) =>
      o.log.warn(`network: the agent asked for ${host} (${how}), which agent.network does not allow; add the host to agent.network to let it through`),
  });
  try {
    // A run that crashed while the agent held the work tree is repaired before anything else; the
    // user's ignored files its agent step left deleted or changed are put back (user-files.ts).
    await sandbox.reclaimWorkTree(cwd);
    const recovered = await UserFiles.recover(userFilesStore(base.ev.root), cwd, { git: base.git, ...userFilesScope(cwd, base.evRel, got.config) });
    if (recovered) o.log.info('the previous run was cut off during an agent step: the git-ignored files of the user it kept are checked');
    logUserFiles(o, null, recovered);
    o.log.info(`isolation: ${iso.level} (${iso.reason}); not guaranteed at this level: ${sandbox.limits.length} point(s), listed in the halting report`);
    if (!got.config.agent.may_change) o.log.warn(PROTECTED_ONLY_WARNING);
    return await runSandboxed(o, base, progress, iso, sandbox);
  } finally {
    await sandbox.reclaimWorkTree(cwd).catch(() => undefined);
    await sandbox.dispose();
  }
}

async function runSandboxed(o: LoopOptions, base: Base, progress: { publish: boolean }, iso: Isolation, sandbox: Sandbox): Promise<LoopOutcome> {
  const { fsm, git, cwd, ev, evRel, intake: got, configPath } = base;
  await git.ensureIdentity();
  const stops: StopSource[] = [...(o.stopSources ?? []), new StopFile(resolve(cwd, LOOP_SCRATCH_DIR, 'STOP'), `${LOOP_SCRATCH_DIR}/STOP`), new DiskUsage(cwd)];

  // The published folder is replaced whole at the end (moved aside by --fresh): a user's committed file there is refused first.
  const theirs = await userFilesInPublished(git, cwd, base.published.root, evRel);
  if (theirs) return (o.log.error(theirs), blockedEarly('GUARDRAIL_VIOLATION', theirs));
  // Before any agent step: only the earlier trees the loop keeps count from here on (planted ones never).
  await adoptPrevious(ev, base.published.root, cwd);
  if (o.fresh) {
    const kept = await archiveEvidence(ev, base.published.root, got.config.keep_previous_evidence, cwd);
    if (kept) o.log.info(`fresh start: the previous evidence tree was moved to ${relative(cwd, kept)}`);
  }
  // Restore: a previous tree is verified first and never replaced silently.
  let restored = await restoreEvidence(ev, base.published, { contract: got.contract, configPath, evRel });
  if ('replan' in restored) {
    const kept = await archiveEvidence(ev, base.published.root, got.config.keep_previous_evidence, cwd);
    o.log.info(
      `${restored.replan}: a new plan is made and the loop starts again at iteration 0${kept ? ` (the previous evidence tree is kept in ${relative(cwd, kept)})` : ''}`,
    );
    restored = { resumed: null };
  }
  if ('problem' in restored) {
    o.log.error(restored.problem);
    return blockedEarly(restored.code, restored.problem);
  }
  const resumed = restored.resumed;
  if (restored.note) o.log.info(restored.note);
  progress.publish = true;
  // The work tree's dirty paths as the run starts: the user's nested repositories among them are
  // lent to no role from the baseline's checks on (the steps update the list: userRepos).
  const from = await startingTree(o, base, resumed);
  if ('outcome' in from) return from.outcome;
  const started = from.started;

  let keyProxy: KeyProxy | null = null;
  // This run's check workspaces: a folder of its own, closed to the agent, removed when it ends.
  let judgeDir: string | null = null;
  try {
    const preset = got.config.agent.use;
    const target = (o.keyProxy ?? got.config.agent.key_proxy) ? keyProxyTarget(preset, o.env) : null;
    if (target) {
      keyProxy = await startKeyProxy(target);
      await sandbox.useKeyProxy(Number(new URL(keyProxy.baseUrl).port));
    }
    const ready = await preflight(o, got, sandbox, iso, cwd, target);
    if ('outcome' in ready) return ready.outcome;
    const version = ready.version;
    // The checks run the agent's code: as the check user, wherever they run (SPEC §7).
    const runAsCheck = async (spec: RunSpec) => o.runner.run(await sandbox.wrap(spec, 'check'));
    const ctx: Ctx = {
      o,
      cwd,
      git,
      userRepos: userRepos(started.map((c) => c.path)),
      ev,
      evRel,
      fsm,
      intake: got,
      plan: resumed?.plan ?? (null as unknown as Plan),
      state: resumed?.state ?? initialState(),
      entries: [],
      stops,
      secrets: secretValues(o.env),
      // Host paths the capsule must not carry; a path the user wrote in the config is the user's choice.
      hostPaths: [cwd, ev.root, sandbox.base, ...hostDirs()].filter((p) => p.length > 1 && !got.configText.includes(p)),
      judge:
        got.config.checks.workspace === 'clean'
          ? await cleanJudge({
              o,
              cwd,
              root: (judgeDir = await openJudgeRoot(o, sandbox, base.judgeName)),
              checks: got.config.checks,
              run: runAsCheck,
              // Nothing to hand over where the checks run as the loop's user (no fresh stat to record either).
              handOver: sandbox.user('check') ? (dir, skip) => sandbox.grant('check', dir, skip) : undefined,
              seal: sandbox.user('check') ? (path) => sandbox.reclaim(path) : undefined,
              takeBack: (dir) => sandbox.takeBack(dir),
            })
          : liveJudge(o, cwd, sandbox, runAsCheck, () => ctx.userRepos ?? []),
      isolation: iso.level,
      sandbox,
      exchangeDir: await sandbox.exchangeDir('agent'),
      keyProxy,
      cliVersion: version,
      iterations: [],
      run: { first: resumed?.state.next_iteration ?? 0, resumed: !!resumed, rebaseline: null },
      startMs: o.clock.monotonicMs(),
      previousTotalMs: resumed?.state.total_ms ?? 0,
      pendingLogs: [],
      stages: [],
      canaryReached: new Set(),
    };
    announcePhases(ctx, !!resumed && !baselinePending(resumed.plan));
    fsm.to('DREAM_GOAL');
    try {
      return await drive(ctx, configPath, !!resumed, base.start);
    } catch (e) {
      // A git failure, a full disk, a failed setup: the run ends blocked with its report and a state
      // the next run continues from (an unfinished iteration is redone).
      if (!(e instanceof PhucError) || !ctx.plan) throw e;
      // A stop that cut short what the loop ran for a judgement is a pause, never a verdict.
      if (e instanceof Stopped) return await finish(ctx, decideBeforeIteration({ stop: (await firstStop(ctx.stops)) ?? e.message, budget: null })!);
      o.log.error(e.message);
      return await finish(ctx, {
        status: 'EXIT_BLOCKED',
        stop_reason: e.code,
        detail: e.message,
        record: false,
        fired: [{ kind: 'INVARIANT', code: e.code, reason: e.message }],
      });
    } finally {
      removeReportFolder(cwd);
      await ctx.judge.dispose();
      // A step cut short before its collect (a stop, an error) is put back here; then the store goes.
      logUserFiles(
        o,
        null,
        await ctx.userFiles?.close().catch((e: unknown) => {
          o.log.warn(`the user's git-ignored files could not all be checked: ${e instanceof Error ? e.message : String(e)}`);
          return null;
        }),
      );
    }
  } finally {
    await keyProxy?.close();
    if (judgeDir)
      await sandbox
        .remove(judgeDir)
        .catch((e: unknown) => o.log.warn(`the check workspace ${judgeDir} could not be removed: ${e instanceof Error ? e.message : String(e)}`));
  }
}

/**
 * The run's own folder for its check workspaces (judge/judge-root.ts), closed to every user but
 * the check user; the folders of runs that were killed go first (never a live run's).
 */
async function openJudgeRoot(o: LoopOptions, sandbox: Sandbox, name: string): Promise<string> {
  const swept = await sweepJudgeRoots((dir) => sandbox.remove(dir));
  if (swept.length) o.log.info(`removed ${swept.length} check workspace folder(s) left by runs that ended without removing them`);
  const root = await judgeRoot(name, { confine: (dir) => sandbox.confine('check', dir) });
  if (root.warning) o.log.warn(root.warning);
  return root.path;
}

async function drive(ctx: Ctx, configPath: string, resumed: boolean, runStart: Stage): Promise<LoopOutcome> {
  const { state } = ctx;
  if (resumed) await continueRecord(ctx);
  else ctx.plan = await newPlan(ctx, configPath);
  crashPoint(ctx, 'plan');
  runStart.lap('intake, sandbox, restore, plan');
  await endStage(ctx, runStart);
  // Every run judges HEAD before an agent starts: whatever the evidence says, no certificate is
  // issued without checks run in this run on the commit it names (and a HEAD that already passes
  // ends the run at once). A plan whose baseline was never recorded (a stop during it) gets it now.
  const start = await judgeHead(ctx, !resumed || baselinePending(ctx.plan) ? 'baseline' : `resume_${state.next_iteration}`);
  if (start) return start;

  for (;;) {
    const pre = decideBeforeIteration({ stop: await firstStop(ctx.stops), budget: budgetExhausted(ctx, 0) });
    if (pre) return finish(ctx, pre);
    ctx.fsm.to('SPAWN_SUBAGENT');
    const decision = await iterate(ctx, state.next_iteration);
    if (decision.halt) return finish(ctx, decision);
  }
}

function hostDirs(): string[] {
  return [homedir(), tmpdir()];
}

export { DEFAULT_EVIDENCE_DIR, type LoopHost, type LoopPhase, type LoopOptions, type LoopOutcome } from './options.js';
export type { IterationRow, LoopState } from '../evidence/state.js';
