// SPAWN_SUBAGENT and COLLECT_ARTIFACTS: one fresh agent process per iteration, stopped by its time
// limit or by backpressure, then its changes attributed, guarded, staged and hashed.
import { readFile, rm, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import picomatch from 'picomatch';
import { agentEnvironment, agentInvocation, isRateLimited, parseAgentUsage } from './agents.js';
import { sha256 } from './canonical.js';
import type { AgentPresetName } from './config.js';
import type { EvidenceStore, ManifestEntry } from './evidence.js';
import type { ChangedPath, Git } from './git.js';
import type { ProcessRunner, RunResult, StopSource } from './ports.js';
import { firstStop } from './backpressure.js';
import { InvariantViolation } from './fsm.js';

export interface AgentSpec {
  preset: AgentPresetName;
  run?: string;
  model?: string;
  args: string[];
  maxTurns: number;
}

/** Content fingerprints of the dirty paths, so only what the agent changed is attributed to it. */
export type DirtySnapshot = Map<string, string | null>;

export async function snapshotDirty(git: Git, cwd: string): Promise<DirtySnapshot> {
  const snap: DirtySnapshot = new Map();
  for (const c of await git.status()) snap.set(c.path, await fingerprint(cwd, c));
  return snap;
}

async function fingerprint(cwd: string, c: ChangedPath): Promise<string | null> {
  try {
    return sha256(await readFile(join(cwd, c.path)));
  } catch {
    return null; // deleted (or unreadable): the absence is the fingerprint
  }
}

/** Paths whose content differs from the snapshot taken before the agent ran. */
export async function changedSince(git: Git, cwd: string, before: DirtySnapshot): Promise<string[]> {
  const now = await git.status();
  const out: string[] = [];
  const seen = new Set<string>();
  for (const c of now) {
    seen.add(c.path);
    if (!before.has(c.path) || before.get(c.path) !== (await fingerprint(cwd, c))) out.push(c.path);
  }
  // A path that was dirty before and is clean now was restored by the agent: also its change.
  for (const p of before.keys()) if (!seen.has(p)) out.push(p);
  return out.sort();
}

export function protectedMatcher(globs: string[]): (path: string) => boolean {
  const m = picomatch(globs, { dot: true });
  return (p) => m(p);
}

export interface AgentRun {
  result: RunResult;
  backpressure: string | null;
  costUsd: string | null;
  turns: number | null;
  rateLimited: boolean;
}

export interface SpawnOptions {
  runner: ProcessRunner;
  cwd: string;
  spec: AgentSpec;
  prompt: string;
  promptFile: string;
  capsuleFile: string;
  reportFile: string;
  iteration: number;
  baseEnv: Record<string, string | undefined>;
  timeoutMs: number;
  stopSources: readonly StopSource[];
  pollMs: number;
  /** Aborted when the process itself is asked to stop (signals). */
  signal?: AbortSignal;
  /** PHUC_ROLE of the process (the agent, or the critic). */
  role?: string;
}

let activeAgents = 0;

/** Runs the agent as a fresh process; STOP sources are polled while it runs. */
export async function spawnAgent(o: SpawnOptions): Promise<AgentRun> {
  // STACKED_SPECULATIVE_ITERATIONS (seed §3.6): never more than one agent at a time.
  if (activeAgents > 0) throw new InvariantViolation('STACKED_SPECULATIVE_ITERATIONS: an agent is already running');
  await rm(o.reportFile, { force: true });
  await mkdir(join(o.reportFile, '..'), { recursive: true });
  const inv = agentInvocation({ preset: o.spec.preset, run: o.spec.run, model: o.spec.model, extraArgs: o.spec.args, maxTurns: o.spec.maxTurns, promptFile: o.promptFile });
  const env = agentEnvironment(o.baseEnv, {
    PHUC_PROMPT_FILE: o.promptFile,
    PHUC_CAPSULE_FILE: o.capsuleFile,
    PHUC_REPORT_FILE: o.reportFile,
    PHUC_ITERATION: String(o.iteration),
    PHUC_ROLE: o.role ?? 'Scout→Solver',
  });
  const stop = new AbortController();
  let backpressure: string | null = null;
  const onSignal = () => {
    backpressure ??= 'the loop was asked to stop (signal)';
    stop.abort();
  };
  o.signal?.addEventListener('abort', onSignal, { once: true });
  if (o.signal?.aborted) onSignal();
  const timer = setInterval(() => {
    void firstStop(o.stopSources).then((reason) => {
      if (reason && !backpressure) {
        backpressure = reason;
        stop.abort();
      }
    });
  }, o.pollMs);
  activeAgents++;
  let result: RunResult;
  try {
    result = await o.runner.run({
      command: inv.command,
      args: inv.args,
      cwd: o.cwd,
      env,
      stdin: inv.promptOnStdin ? o.prompt : undefined,
      timeoutMs: o.timeoutMs,
      signal: stop.signal,
      maxOutputBytes: 4 * 1024 * 1024,
    });
  } finally {
    activeAgents--;
    clearInterval(timer);
    o.signal?.removeEventListener('abort', onSignal);
  }
  const usage = parseAgentUsage(result.stdout);
  const rateLimited = result.exitCode !== 0 && !result.aborted && isRateLimited(result.stdout + '\n' + result.stderr);
  if (rateLimited) backpressure ??= 'the agent hit a rate limit';
  return { result, backpressure, costUsd: usage.costUsd, turns: usage.turns, rateLimited };
}

export type ReportState = { state: 'valid'; report: AgentReport } | { state: 'malformed'; error: string } | { state: 'absent' };

export interface AgentReport {
  tried?: unknown;
  claims?: unknown;
  failures?: unknown;
  open_questions?: unknown;
  can_further_iteration_help?: unknown;
}

const REPORT_FIELDS = ['tried', 'claims', 'failures', 'open_questions', 'can_further_iteration_help'];

export function parseReport(text: string | null): ReportState {
  if (text === null) return { state: 'absent' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { state: 'malformed', error: `not JSON: ${(e as Error).message}` };
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return { state: 'malformed', error: 'not a JSON object' };
  const known = Object.keys(value).filter((k) => REPORT_FIELDS.includes(k));
  if (known.length === 0) return { state: 'malformed', error: `none of the fields ${REPORT_FIELDS.join(', ')}` };
  for (const k of ['tried', 'claims', 'failures', 'open_questions'])
    if (k in value && !Array.isArray((value as Record<string, unknown>)[k])) return { state: 'malformed', error: `${k} is not a list` };
  return { state: 'valid', report: value as AgentReport };
}

export interface Collected {
  changed: string[];
  reverted: string[];
  diff: string;
  diffFiles: number;
  report: ReportState;
  artifacts: (ManifestEntry & { role: string })[];
  agentCommitsFolded: number;
  /** Git settings files the agent changed (restored), and paths whose hiding index bits were cleared. */
  settingsChanged: string[];
  unflagged: string[];
  /** The git tree the checks run on (the index after staging the agent's changes). */
  tree: string;
}

export interface CollectOptions {
  git: Git;
  cwd: string;
  evidence: EvidenceStore;
  dir: string;
  before: DirtySnapshot;
  startHead: string;
  /** Git's settings as they were before the agent ran (see Git.snapshotSettings). */
  settings: Map<string, string | null>;
  isProtected: (path: string) => boolean;
  agent: AgentRun;
  reportFile: string;
  scrub: (text: string) => string;
}

export async function collectArtifacts(o: CollectOptions): Promise<Collected> {
  // An agent that committed on its own: fold its commits back into the index, so the guardrail and
  // the diff see every change and the loop makes the one commit of the iteration.
  // Git's settings and index bits can make git run commands or hide changes: put them back first.
  const settingsChanged = await o.git.restoreSettings(o.settings);
  const unflagged = await o.git.clearIndexFlags();
  const { head } = await o.git.position();
  let folded = 0;
  if (head && head !== o.startHead) {
    folded = await o.git.countCommits(o.startHead, head).catch(() => 0);
    await o.git.resetSoft(o.startHead);
  }
  const changed = await changedSince(o.git, o.cwd, o.before);
  const reverted = changed.filter(o.isProtected);
  if (reverted.length) await o.git.restoreFromHead(reverted);
  const kept = changed.filter((p) => !o.isProtected(p));
  const { tree, diff } = await o.git.stage(kept);
  const artifacts: Collected['artifacts'] = [];
  const r = o.agent.result;
  const log = `$ agent (exit ${r.exitCode ?? r.signal}${r.timedOut ? ', timed out' : ''}${r.aborted ? ', stopped' : ''})\n--- stdout ---\n${r.stdout}\n--- stderr ---\n${r.stderr}\n`;
  artifacts.push({ ...(await o.evidence.write(`${o.dir}/agent.log`, o.scrub(log))), role: 'log' });
  if (diff) artifacts.push({ ...(await o.evidence.write(`${o.dir}/diff.patch`, diff)), role: 'artifact' });
  const reportText = await readFile(o.reportFile, 'utf8').catch(() => null);
  const report = parseReport(reportText);
  if (reportText !== null) artifacts.push({ ...(await o.evidence.write(`${o.dir}/agent_report.json`, o.scrub(reportText))), role: 'artifact' });
  await o.evidence.writeJson(`${o.dir}/artifacts.json`, {
    agent_commits_folded: folded,
    git_settings_restored: settingsChanged,
    index_flags_cleared: unflagged,
    artifacts: artifacts.map((a) => ({ path: a.path, sha256: a.sha256, bytes: a.bytes, role: a.role })),
    changed_paths: kept,
    report: report.state === 'malformed' ? { state: 'malformed', error: report.error } : { state: report.state },
    reverted_protected_paths: reverted,
  });
  return { changed: kept, reverted, diff, diffFiles: kept.length, report, artifacts, agentCommitsFolded: folded, tree, settingsChanged, unflagged };
}
