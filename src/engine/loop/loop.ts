// The driver of a run: take the lock, restore (or start) the evidence, judge HEAD, then one
// iteration after another until decide() halts. Effects happen here and in iteration.ts; which
// exit wins is decide.ts's alone. The evidence is written in a loop-private folder (see home.ts)
// and published to `evidence/loop` when the run ends.
import { homedir, hostname, tmpdir } from 'node:os';
import { dirname, relative, resolve } from 'node:path';
import { userRepos } from '../agent/agent-step.js';
import { protectedMatcher } from '../agent/path-names.js';
import { removeReportFolder } from '../agent/agent-report.js';
import { scrubbingLogger, secretValues } from '../os/secrets.js';
import { IsolationUnavailableError, type Isolation, resolveIsolation, Sandbox } from '../os/sandbox.js';
import type { RunSpec } from '../os/ports.js';
import { AGENT_STATE_EXCLUDES, cliVersion } from '../agent/agents.js';
import { probeModelApi } from '../agent/api-probe.js';
import { type KeyProxy, keyProxyBaseUrlVar, keyProxyTarget, startKeyProxy } from '../agent/key-proxy.js';
import { canonicalJson } from '../common/canonical.js';
import { dstr } from '../common/decimal.js';
import { num } from '../common/display.js';
import { PhucError, Stopped } from '../common/errors.js';
import { listSome } from '../common/markdown.js';
import { DEFAULT_CONFIG_FILE } from '../config/config.js';
import { PROTECTED_ONLY_WARNING } from '../agent/allow-list.js';
import { BASELINE_PENDING, baselinePending, buildPlan, criteriaToWrite, intake, type Intake, LOOP_SCRATCH_DIR, type Plan } from '../config/plan.js';
import { EvidenceStore } from '../store/evidence.js';
import { type HaltingReport } from '../evidence/report.js';
import { howToGoOn, notCounted } from '../evidence/run-accounting.js';
import { iterDir } from '../judge/audit.js';
import { updatePasses } from '../judge/checks.js';
import { snapshot } from '../judge/northstar.js';
import { type ChangedPath, Git } from '../os/git.js';
import type { StopSource } from '../os/ports.js';
import { DiskUsage, firstStop, StopFile } from '../os/stops.js';
import { allInputsHash, budgetExhausted, checkRound, type Ctx, scrub, scrubber, measureAll } from './context.js';
import { DEFAULT_EVIDENCE_DIR, type LoopOptions, type LoopOutcome } from './options.js';
import { initialState, type LoopState } from '../evidence/state.js';
import { decideBeforeIteration, decideHead, downstreamUnavailable, iterationsUsed } from '../run/decide.js';
import { EXIT_CODES, Fsm } from '../run/fsm.js';
import { blockedEarly, finish, needInfo, pausedEarly, recordNeedInfo, startCertificate } from './halt.js';
import { programsOutOfView } from './out-of-view.js';
import { networkPolicy } from '../os/network.js';
import { judgeRoot, sweepJudgeRoots } from '../judge/judge-root.js';
import { acquireLock, adoptPrevious, archiveEvidence, assertRealFolders, homeFolders, loopHome, publishPrevious, publishRun, restoreEvidence } from './home.js';
import { FOLDER_READ_ONLY, readOnlyFolder } from './read-only.js';
import { iterate } from './iteration.js';
import { logUserFiles, USER_WORK_REF } from './agent-turn.js';
import { crashPoint } from './crash-point.js';
import { UserFiles, userFilesStore } from './user-files.js';
import { cleanJudge, liveJudge } from './judge-space.js';
import { junitMissing, runnersMissing } from './runner-missing.js';
import { initialProgress } from '../run/progress.js';
import { keepBaseline, reuseBaseline } from './baseline-reuse.js';
import { endStage, saveState } from './records.js';
import { Stage } from '../evidence/phases.js';
import { announcePhases } from './phase-events.js';
import { headFacts } from './learn.js';
import { unmeasuredWarnings } from '../config/measured.js';
import { recordFailures } from '../memory/failures.js';

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
  await git.exclude([`/${relative(cwd, published.root).split('/')[0]}/`, `/${LOOP_SCRATCH_DIR}/`, ...AGENT_STATE_EXCLUDES]);
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
    const recovered = await UserFiles.recover(userFilesStore(base.ev.root), cwd);
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
  let started: ChangedPath[];
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
      const problem = `protected paths have uncommitted changes (${listSome(dirtyProtected)}); restore them (\`git checkout -- <path>\`) or commit them, then \`phuc-loop run\` again`;
      o.log.error(problem);
      return blockedEarly('GUARDRAIL_VIOLATION', problem);
    }
    const nothing = await nothingToDo(git, cwd, got, resumed);
    if (nothing) {
      o.log.info(nothing.why);
      return nothing.outcome;
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
    const unseen = await programsOutOfView(got.config, sandbox, cwd);
    if (unseen.messages.length) return needInfo({ stop_reason: 'CONFIG_INVALID', missing_fields: unseen.fields, messages: unseen.messages }, o);
    // Pre-flight: the agent CLI must start as the agent user before any iteration is spent on it.
    const asAgent = { run: async (spec: RunSpec) => o.runner.run(await sandbox.wrap({ ...spec, env: {} }, 'agent')) };
    const [version, unreachable] = await Promise.all([
      cliVersion(preset, asAgent, { run: got.config.agent.run, env: {}, cwd }),
      target ? probeModelApi(target.upstream) : null,
    ]);
    if (unreachable) {
      // A pause, not a verdict: nothing is judged or spent, and a plain `run` starts here again.
      const why = downstreamUnavailable(
        `the model API ${target!.upstream.origin}`,
        `it cannot be reached from here (${unreachable}): check the network, a proxy or the base URL (${keyProxyBaseUrlVar(target!.provider)}), then \`phuc-loop run\` goes on`,
      );
      o.log.error(why);
      return pausedEarly(why);
    }
    if (preset !== 'command' && version === null)
      return needInfo(
        {
          stop_reason: 'CONFIG_INVALID',
          missing_fields: ['agent.use'],
          messages: [
            `agent.use: the ${preset} CLI did not answer \`${got.config.agent.run ?? preset} --version\` as the agent user (isolation ${iso.level}): install it where that user can run it, or set agent.run`,
          ],
        },
        o,
      );
    for (const w of unmeasuredWarnings(preset, got.budget.explicit)) o.log.warn(w);
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

/** A resumed run: the budget may have changed; the recorded iterations and entries are read back. */
async function continueRecord(ctx: Ctx): Promise<void> {
  const { ev, o, state } = ctx;
  state.terminal = null;
  const budget = ctx.intake.budget.budget;
  if (canonicalJson(ctx.plan.budget) !== canonicalJson(budget)) {
    o.log.info(`budget changed on resume: ${JSON.stringify(ctx.plan.budget)} → ${JSON.stringify(budget)}`);
    ctx.plan.budget = budget;
    ctx.plan.budget_revisions = [...(ctx.plan.budget_revisions ?? []), { from_iteration: state.next_iteration, budget }];
    await ev.writeJson('plan.json', ctx.plan);
  }
  ctx.iterations = Array.from({ length: state.next_iteration }, (_, n) => n).filter((n) => ev.entry(`${iterDir(n)}/certificate.json`));
  for (const n of ctx.iterations) {
    const text = (await ev.readText(`${iterDir(n)}/agents_md_entry.md`)) ?? '';
    ctx.entries.push({ iteration: n, text, link: ev.link(`${iterDir(n)}/agents_md_entry.md`) });
  }
  const head = await ctx.git.head();
  if (state.last_commit === null) {
    o.log.info('no iteration committed yet: HEAD is judged afresh');
    rebaseline(state);
  } else if (state.last_commit !== head) {
    const descends = head !== null && (await ctx.git.isAncestor(state.last_commit, head));
    ctx.run.rebaseline = descends
      ? `HEAD has new commits since the loop's last one (${state.last_commit.slice(0, 12)}): progress windows start again from a new measurement of HEAD`
      : `HEAD ${head?.slice(0, 12)} does not descend from the loop's last commit ${state.last_commit.slice(0, 12)}: HEAD is judged afresh and the progress windows start again`;
    o.log.info(ctx.run.rebaseline);
    rebaseline(state);
  }
  const skipped = notCounted(state.stopped_before_checks);
  o.log.info(
    `resuming from ${ctx.evRel}: ${ctx.iterations.length} iteration(s) on record, next is ${state.next_iteration}; budgets count every run of this loop ` +
      `(${iterationsUsed(state.next_iteration, state.stopped_before_checks)} of ${budget.max_iterations} iterations used${skipped ? `; ${skipped}` : ''})`,
  );
}

/** Progress state belongs to the HEAD it was measured on: a new HEAD starts new windows. */
function rebaseline(state: LoopState): void {
  state.progress = initialProgress(null);
  state.window = { residuals: state.residual_history.length, rows: state.rows.length };
}

/** DREAM_GOAL for a new loop: plan.json before iteration 0 (the baseline judgement follows). */
async function newPlan(ctx: Ctx, configPath: string): Promise<Plan> {
  const { intake: i, ev, o } = ctx;
  await ev.clear();
  o.log.info(
    `plan: ${i.config.acceptance_criteria.length} criteria, certificates ${i.config.certificates.join('/')}, rung ${i.config.rung_target}, agent ${i.config.agent.use}`,
  );
  // On record before the baseline runs: a run that ends during it still has its plan (Triangle),
  // with a state and a manifest, so that a run killed during the baseline is recognised as an
  // unfinished start (home.ts) and started again, never refused.
  const plan = buildPlan(i, configPath, { residual: null, residual_detail: BASELINE_PENDING, criteria: [] }, {}, null, new Set(await ctx.git.listFiles()));
  await ev.writeJson('plan.json', plan);
  ctx.plan = plan;
  await saveState(ctx);
  return plan;
}

/** The API surface of the baseline (security), read in the judge space; a link to its evidence file. */
async function apiSurfaceBefore(ctx: Ctx, cwd: string, command: string): Promise<string> {
  const r = await ctx.judge.runner.run({ command, cwd, env: ctx.judge.env, timeoutMs: 600_000 });
  return ctx.ev.link((await ctx.ev.write('api_surface_before.txt', scrub(ctx, r.stdout))).path);
}

/**
 * Judges HEAD's tree (the baseline of a new loop, or the start of a resumed run): criteria,
 * residual, Northstar. Returns the outcome when that already ends the run.
 */
async function judgeHead(ctx: Ctx, dir: string): Promise<LoopOutcome | null> {
  const { ev, o, state, plan } = ctx;
  const stage = new Stage(dir, o.clock);
  const tree = await ctx.git.headTree();
  // A later round's canary that leaves no mark is probed on the baseline's tree (the user's code), reused or not.
  if (dir === 'baseline') ctx.canaryBaseline = { tree, reaches: new Map() };
  if (dir === 'baseline' && (await reuseBaseline(ctx, tree))) {
    stage.lap('record');
    await endStage(ctx, stage);
    await saveState(ctx);
    return null;
  }
  const round = await checkRound(ctx, dir, tree, { signal: o.signal, stage });
  crashPoint(ctx, 'head');
  if (round.aborted) await ctx.judge.release();
  if (round.aborted) await endStage(ctx, stage);
  if (round.aborted) return finish(ctx, decideBeforeIteration({ stop: (await firstStop(ctx.stops)) ?? 'the loop was asked to stop', budget: null })!);
  const residual = 'value' in round.residual ? round.residual.value : null;
  const met = new Map(round.checks.map((c) => [c.id, c.met]));
  await recordFailures(ctx, dir, round);
  // The tests HEAD's suite runs: the count and ids no later round may fall below (SPEC §7). A new
  // HEAD (a human commit) sets a new baseline; a resumed run on the loop's own commit keeps the old one.
  if (round.junit && 'tests' in round.junit && (dir === 'baseline' || !state.suite_baseline || state.last_commit !== (await ctx.git.head())))
    state.suite_baseline = round.junit.tests.map((t) => ({ id: t.id, status: t.status }));
  stage.lap('checks');
  const readings = await measureAll(ctx, round.cwd, residual, met);
  stage.lap('northstar');
  const apiBefore = dir === 'baseline' && ctx.intake.config.security ? await apiSurfaceBefore(ctx, round.cwd, ctx.intake.config.security.api_surface) : null;
  await ctx.judge.release();
  stage.lap('hand-back');
  state.passes = updatePasses(state.passes, round.checks, dir === 'baseline' ? 'baseline' : state.next_iteration);
  state.criteria_met = Object.fromEntries(met);
  state.last_facts = headFacts(round.checks);
  const measured = {
    residual: residual ? dstr(residual) : null,
    residual_detail: 'value' in round.residual ? round.residual.detail : round.residual.error,
    criteria: round.checks.map((c) => ({ id: c.id, met: c.met, evidence: c.evidence })),
  };
  if (dir === 'baseline') {
    const values: Record<string, string> = {};
    readings.forEach((r, k) => (values[ctx.intake.northstar[k].id] = r.value ?? ctx.intake.northstar[k].current));
    ctx.plan = buildPlan(ctx.intake, plan.config_file, measured, values, apiBefore, new Set(await ctx.git.listFiles()));
    await ev.writeJson('plan.json', ctx.plan);
    crashPoint(ctx, 'head-plan');
    if (ctx.intake.budget.reductions.length) await ev.write('budget_reduction.log', ctx.intake.budget.reductions.join('\n') + '\n');
    state.progress = initialProgress(ctx.plan.baseline.residual);
    state.last_northstar = snapshot(ctx.intake.northstar, readings, new Map(Object.entries(values)));
  } else {
    await ev.writeJson(`${dir}/judgement.json`, measured);
    state.last_northstar = snapshot(ctx.intake.northstar, readings, new Map(Object.entries(ctx.plan.northstar.baseline)));
    if (state.progress.best_residual === null && residual) state.progress = initialProgress(dstr(residual));
    state.start_residual = residual ? dstr(residual) : null;
  }
  const failing = round.checks.filter((c) => !c.met);
  o.log.info(
    `${dir === 'baseline' ? 'baseline' : 'HEAD judged'}: ${round.checks.length - failing.length}/${round.checks.length} criteria met, residual ${residual ? num(dstr(residual)) : `unavailable (${measured.residual_detail})`}` +
      (failing.length ? ` — failing: ${failing.map((c) => `${c.id} (${c.timed_out ? 'timed out' : `exit ${c.exit_code}`})`).join(', ')}` : ''),
  );
  stage.lap('record');
  await endStage(ctx, stage);
  await saveState(ctx);
  crashPoint(ctx, 'head-state');
  // A runner missing where the checks run (a program, a Python module, the JUnit files), or a
  // criterion program the agent could write, stops the run before an agent step.
  const absent = await runnersMissing(ctx, round.checks);
  const unwritten = criteriaToWrite(ctx.intake.config.acceptance_criteria, new Set(await ctx.git.listFiles()));
  const missing = decideHead([...absent, ...unwritten]);
  const index = (id: string) => ctx.intake.config.acceptance_criteria.findIndex((c) => c.id === id);
  const fields = [...absent.map((m) => `acceptance_criteria.${index(m.id)}.run`), ...unwritten.map((m) => `acceptance_criteria.${index(m.id)}.agent_writes`)];
  if (missing) return finish(ctx, { ...missing, missing_fields: fields });
  const noJunit = decideHead(await junitMissing(ctx, 'error' in round.residual ? round.residual.error : null, round.checks), 'RESIDUAL_UNAVAILABLE');
  if (noJunit) return finish(ctx, { ...noJunit, missing_fields: ['residual.junit'] });
  // A HEAD that already satisfies the criteria is certified without spawning an agent.
  const cert = await startCertificate(ctx, dir, tree, round, residual);
  if (cert) return finish(ctx, cert.decision, { certificateRel: cert.rel });
  if (dir === 'baseline') await keepBaseline(ctx, tree);
  return null;
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

function hostDirs(): string[] {
  return [homedir(), tmpdir()];
}

export { DEFAULT_EVIDENCE_DIR, type LoopHost, type LoopPhase, type LoopOptions, type LoopOutcome } from './options.js';
export type { IterationRow, LoopState } from '../evidence/state.js';
