// COLLECT_ARTIFACTS: the agent's changes after its step, attributed, guarded (revert.ts), staged and hashed.
import { join } from 'node:path';
import { z } from 'zod';
import { REPORT_PATH, type InvocationRecord } from './agents.js';
import { manifestEntrySchema, type EvidenceStore, type ManifestEntry } from '../store/evidence.js';
import type { GitSettings } from '../os/git.js';
import type { RunResult } from '../os/ports.js';
import type { PutBack } from './user-files.js';
import type { SetAside } from './unseen-entries.js';
import { GitError } from '../common/errors.js';
import { listSome } from '../common/markdown.js';
import { lstatOrNull } from '../os/tree-file.js';
import { parseReport, takeReport, type ReportState } from './agent-report.js';
import { changedSince } from './dirty-snapshot.js';
import { printablePath } from './path-names.js';
import {
  firstLinkOut,
  linksAmong,
  presentIn,
  putBack,
  removeNestedGitFolders,
  removeSecretFolders,
  revertReason,
  type Reverted,
  type RevertContext,
} from './revert.js';

/** iter_N/artifacts.json: what the collect step kept, put back and hashed. */
export const artifactsSchema = z.object({
  agent_commits_folded: z.number().int().min(0),
  git_settings_restored: z.array(z.string()),
  index_flags_cleared: z.array(z.string()),
  artifacts: z.array(manifestEntrySchema.extend({ role: z.string() })),
  changed_paths: z.array(z.string()),
  report: z.object({ state: z.enum(['valid', 'malformed', 'absent']), error: z.string().optional() }),
  reverted: z.array(
    z.object({
      path: z.string(),
      why: z.enum(['protected', 'loop-owned', 'outside', 'not-allowed', 'shadow', 'runner-config', 'secret', 'unstageable']),
      detail: z.string().optional(),
    }),
  ),
  /** Files of the user's that git never tracked and the agent deleted: nothing to stage (kept in refs/phuc-loop/user-work). */
  untracked_deleted: z.array(z.string()).optional(),
  /** The user's git-ignored files the agent deleted, replaced or changed: put back as they were (loop/user-files.ts). */
  user_files_restored: z.array(z.string()).optional(),
  /** Those that could not be put back, with why. */
  user_files_not_restored: z.array(z.object({ path: z.string(), error: z.string() })).optional(),
  /** What the agent made that git does not see (an empty folder, a FIFO, an ignored file, a chain past PATH_MAX): set aside (unseen-entries.ts). */
  set_aside: z.array(z.string()).optional(),
  /** The user's entries whose times, mode or extended attributes the agent changed (not their content): made again as they were (entry-stamps.ts). */
  restamped: z.array(z.string()).optional(),
});
type Artifacts = z.infer<typeof artifactsSchema>;

export interface Collected {
  changed: string[];
  /** Untracked files of the user's the agent deleted: nothing to stage; the user's version is in refs/phuc-loop/user-work. */
  untrackedDeleted: string[];
  /** The agent's changes put back as they were, each with why. */
  reverted: Reverted[];
  /** Whether the step changed the tree (staged, against HEAD). */
  produced: boolean;
  /** The staged patch, made while the checks run. */
  diff: Promise<string>;
  /** Settles once the step's evidence files (the patch, the logs, artifacts.json) are recorded; `artifacts` is complete then. */
  recorded: Promise<void>;
  diffFiles: number;
  report: ReportState;
  artifacts: (ManifestEntry & { role: string })[];
  agentCommitsFolded: number;
  /** Git settings files the agent changed (restored), and paths whose hiding index bits were cleared. */
  settingsChanged: string[];
  unflagged: string[];
  /** The git tree the checks run on (the index after staging the agent's changes). */
  tree: string;
  /** What was done about the user's git-ignored files (null: the loop keeps none). */
  userFiles: PutBack | null;
  /** What the agent made that git does not see, set aside (null: not looked at). */
  unseen: SetAside | null;
}

/** The agent's changes git refused to stage (put back), as one sentence, or null. */
export function unstageable(collected: Collected): string | null {
  const paths = collected.reverted
    .filter((r) => r.why === 'unstageable')
    .map((r) => (r.detail ? `${printablePath(r.path)} (${r.detail})` : printablePath(r.path)));
  return paths.length ? `changes git refused to stage, put back: ${listSome(paths)}` : null;
}

export interface CollectOptions extends RevertContext {
  evidence: EvidenceStore;
  dir: string;
  startHead: string;
  /** Git's settings as they were before the agent ran (see Git.snapshotSettings). */
  settings: GitSettings;
  /** The step's run (agent-step.ts's AgentRun): its output and how it was started. */
  agent: { result: RunResult; invocation: InvocationRecord };
  scrub: (text: string) => string;
  /** Puts the user's git-ignored files back after the step (loop/user-files.ts). */
  userFiles?: (ignored: string[]) => Promise<PutBack>;
  /** Sets aside what the step made that git does not see, given the kept paths and git's ignored ones (unseen-entries.ts). */
  unseen?: (kept: string[], ignored: string[], changed: string[]) => Promise<SetAside>;
}

const isAttributes = (p: string) => p === '.gitattributes' || p.endsWith('/.gitattributes');

/**
 * Stages `paths`. A path git refuses to stage (its attributes ask for a conversion that fails, it
 * lies beyond a link...) is the agent's change that cannot be judged: put back with git's reason
 * (an `unstageable` revert), after the .gitattributes the agent changed in the step, whose
 * attributes are the likely cause, so that its other changes stay. Only a failure no path
 * accounts for (a lock, a full disk) still ends the run.
 */
async function stageOrRevert(o: CollectOptions, paths: string[], reverted: Reverted[]): Promise<string> {
  try {
    return await o.git.stage(paths);
  } catch (e) {
    if (!(e instanceof GitError) || e.kind !== 'other') throw e;
    let left = paths;
    let refused = await o.git.refusedToStage(left);
    const attributes = left.filter(isAttributes);
    if (refused.length && attributes.length && !refused.every((r) => isAttributes(r.path))) {
      const why = `with it git refused to stage ${listSome(refused.map((r) => r.path))} (${refused[0].error})`;
      const more = attributes.map((path) => ({ path, why: 'unstageable' as const, detail: why }));
      reverted.push(...more);
      await putBack(o, more, reverted);
      left = left.filter((p) => !reverted.some((r) => r.path === p));
      refused = await o.git.refusedToStage(left);
    }
    if (refused.length) {
      const more = refused.map((r) => ({ path: r.path, why: 'unstageable' as const, detail: `git refused to stage it: ${r.error}` }));
      reverted.push(...more);
      await putBack(o, more, reverted);
    }
    const rest = left.filter((p) => !reverted.some((r) => r.path === p));
    if (rest.length === paths.length) throw e;
    return o.git.stage(rest);
  }
}

export async function collectArtifacts(o: CollectOptions): Promise<Collected> {
  // An agent that committed on its own: fold its commits back into the index, so the guardrail and
  // the diff see every change and the loop makes the one commit of the iteration.
  // Git's settings and index bits can make git run commands or hide changes: put them back first.
  const settingsChanged = await o.git.restoreSettings(o.settings);
  const unflagged = await o.git.clearIndexFlags(o.settings);
  const { head } = await o.git.position();
  let folded = 0;
  if (head && head !== o.startHead) {
    folded = await o.git.countCommits(o.startHead, head).catch(() => 0);
    await o.git.resetSoft(o.startHead);
  }
  // The report is the loop's channel, not the agent's work: read (never through a link), then removed.
  const reportText = takeReport(o.cwd, true);
  // Ignored files are listed by the same git call, for the user-files step below (one git process less).
  const ignored: string[] | undefined = o.userFiles || o.unseen ? [] : undefined;
  const changed = (await changedSince(o.git, o.cwd, o.before, ignored)).filter((p) => p !== REPORT_PATH);
  const reverted: Reverted[] = [];
  // Only a new module can shadow a library, only a new file under a reserved folder is the agent's:
  // one HEAD or the user's dirty tree held is the user's.
  const askHead = o.allowList ? changed : changed.filter((p) => o.reserved?.(p));
  const inHead = askHead.length ? await o.git.inHead(askHead) : new Set<string>();
  for (const p of changed) {
    const why = await revertReason(o, p, !inHead.has(p) && !o.before.has(p));
    if (why) reverted.push({ path: p, ...why });
  }
  await putBack(o, reverted, reverted);
  // A nested repository of the user's that the agent removed (possible at isolation none only):
  // git keeps none of its files, so nothing put it back, and the report must not say it did.
  for (const r of reverted)
    if (r.path.endsWith('/') && o.before.has(r.path) && !lstatOrNull(join(o.cwd, r.path)))
      r.detail = "the user's own, deleted by the agent: git keeps none of its files, so the loop could not put it back";
  await removeSecretFolders(o, reverted);
  await removeNestedGitFolders(o, reverted);
  // A link the agent kept can change where another link leads (a folder made a link to a shallower
  // one: `..` after it climbs higher than it reads). Then every link it kept goes back.
  const keptLinks = linksAmong(
    o.cwd,
    changed.filter((p) => !reverted.some((r) => r.path === p)),
  );
  const astray = keptLinks.length ? await firstLinkOut(o, keptLinks) : null;
  if (astray) {
    const more = keptLinks.map((path) => ({ path, why: 'outside' as const, detail: `with it, ${astray.path} leads out of the tree (${astray.why})` }));
    reverted.push(...more);
    await putBack(o, more, reverted);
  }
  // An untracked file (the user's, kept in refs/phuc-loop/user-work before the step) the agent
  // deleted: neither in the index nor in the work tree, so nothing to stage (git would refuse its name).
  const candidates = changed.filter((p) => !reverted.some((r) => r.path === p));
  const gone: string[] = [];
  for (const p of candidates) if (o.before.has(p) && !presentIn(o.cwd, p)) gone.push(p);
  const indexed = await o.git.indexed(gone);
  const untrackedDeleted = gone.filter((p) => !indexed.has(p));
  const tree = await stageOrRevert(
    o,
    candidates.filter((p) => !untrackedDeleted.includes(p)),
    reverted,
  );
  const revertedPaths = new Set(reverted.map((r) => r.path));
  const kept = candidates.filter((p) => !revertedPaths.has(p) && !untrackedDeleted.includes(p));
  // A change is a staged tree other than HEAD's (what a non-empty staged diff says). Its patch is made
  // by the git shell while the checks run; its evidence is written when it comes (flush() waits for it).
  const produced = kept.length > 0 && tree !== (await o.git.commitTree(o.startHead));
  const diff = produced ? o.git.stagedDiff(tree) : Promise.resolve('');
  // Its failure is met where it is awaited (after the checks): not an unhandled rejection meanwhile.
  diff.catch(() => undefined);
  // The user's git-ignored files: put back whatever the agent did to them; under a protected glob
  // that (and an ignored file the agent made there, removed) is reverted as a tracked path would be.
  const userFiles = o.userFiles ? await o.userFiles(ignored ?? []) : null;
  const ignoredReverts = [
    ...(userFiles?.protectedChanged ?? []).map((path) => ({ path, detail: "a git-ignored file of the user's, put back as it was" })),
    ...(userFiles?.protectedRemoved ?? []).map((path) => ({ path, detail: 'a git-ignored file made under a protected path, removed' })),
  ];
  for (const r of ignoredReverts) if (!revertedPaths.has(r.path)) reverted.push({ ...r, why: 'protected' });
  for (const path of userFiles?.reservedRemoved ?? [])
    if (!revertedPaths.has(path)) reverted.push({ path, why: 'loop-owned', detail: o.reserved?.(path) ?? '' });
  const unseen = o.unseen ? await o.unseen(kept, ignored ?? [], changed) : null;
  reverted.push(...(unseen?.reverted ?? []));
  const artifacts: Collected['artifacts'] = [];
  const r = o.agent.result;
  const log = `$ agent (exit ${r.exitCode ?? r.signal}${r.timedOut ? ', timed out' : ''}${r.aborted ? ', stopped' : ''})\n--- stdout ---\n${r.stdout}\n--- stderr ---\n${r.stderr}\n`;
  const report = parseReport(reportText);
  const recorded = diff.then(async (patch) => {
    artifacts.push({ ...(await o.evidence.write(`${o.dir}/agent.log`, o.scrub(log))), role: 'log' });
    if (produced) artifacts.push({ ...(await o.evidence.write(`${o.dir}/diff.patch`, o.scrub(patch))), role: 'artifact' });
    artifacts.push({ ...(await o.evidence.writeJson(`${o.dir}/agent_invocation.json`, o.agent.invocation)), role: 'log' });
    if (reportText !== null) artifacts.push({ ...(await o.evidence.write(`${o.dir}/agent_report.json`, o.scrub(reportText))), role: 'artifact' });
    await o.evidence.writeJson(`${o.dir}/artifacts.json`, {
      agent_commits_folded: folded,
      git_settings_restored: settingsChanged,
      index_flags_cleared: unflagged,
      artifacts: artifacts.map((a) => ({ path: a.path, sha256: a.sha256, bytes: a.bytes, role: a.role })),
      changed_paths: kept,
      report: report.state === 'malformed' ? { state: 'malformed', error: report.error } : { state: report.state },
      reverted: reverted.map((r) => ({ path: r.path, why: r.why, ...(r.detail ? { detail: r.detail } : {}) })),
      ...(untrackedDeleted.length ? { untracked_deleted: untrackedDeleted } : {}),
      ...(userFiles?.restored.length ? { user_files_restored: userFiles.restored } : {}),
      ...(userFiles?.failed.length ? { user_files_not_restored: userFiles.failed } : {}),
      ...(unseen?.paths.length ? { set_aside: unseen.paths } : {}),
      ...(unseen?.restamped?.length ? { restamped: unseen.restamped } : {}),
    } satisfies Artifacts);
  });
  o.evidence.hold(recorded);
  return {
    changed: kept,
    untrackedDeleted,
    reverted,
    produced,
    diff,
    recorded,
    diffFiles: kept.length,
    report,
    artifacts,
    agentCommitsFolded: folded,
    tree,
    settingsChanged,
    unflagged,
    userFiles,
    unseen,
  };
}
