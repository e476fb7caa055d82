// Shared set-up for the end-to-end tests of the Action: the committed-style bundle (dist/) run by the
// runner stand-in against the GitHub emulator (REST + artifact service) and a bare-repo origin.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startGitHubEmulator, type EmulatedRun, type GitHubEmulator } from '../harness/github-emulator.js';
import { cloneWorkspace, createOrigin, isolatedGitEnv, log, redirectEnv, type Origin } from '../harness/git-origin.js';
import { runActionJob, type JobResult, type StepHandle } from '../harness/runner.js';
import { config, NORTHSTAR } from '../helpers/repo.js';
export { until } from '../helpers/repo.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const TOKEN = 'ghs_e2eLoopToken0123456789abcdefXYZ';
export const REPO = 'octo/widgets';
export const e2eAgent = (name: string) => `node ${JSON.stringify(join(ROOT, 'test/e2e/fixtures/agents', name))}`;
export const fixtureAgent = (name: string) => `node ${JSON.stringify(join(ROOT, 'test/fixtures/agents', name))}`;
export const b64Token = Buffer.from(`x-access-token:${TOKEN}`).toString('base64');

export function assertBuilt(): void {
  for (const f of ['dist/main/index.js', 'dist/post/index.js'])
    if (!existsSync(join(ROOT, f))) throw new Error(`${f} is missing: run \`npm run build\` before the e2e tests (they run the bundle, as the runner does)`);
}

/**
 * The GitHub emulator of an e2e file: started before its tests with octo/widgets (and what `setUp`
 * adds), handed to `use`, closed after them; every test ends with no request or answer off
 * GitHub's description.
 */
export function useEmulator(use: (gh: GitHubEmulator) => void): void {
  let gh: GitHubEmulator | undefined;
  beforeAll(async () => {
    assertBuilt();
    gh = await startGitHubEmulator();
    gh.addRepo(REPO);
    use(gh);
  });
  afterAll(async () => {
    await gh?.close();
  });
  afterEach(() => expect(gh?.violations).toEqual([]));
}

/** Three criteria (bug1..3), each met once src/status.txt has its fixed-N line (after running `before`, when given). */
export function loopFiles(
  agentCommand: string,
  opts: { criteria?: number; maxIterations?: number; secondsPerIteration?: number; before?: string; writable?: string[] } = {},
): Record<string, string> {
  const criteria = Array.from({ length: opts.criteria ?? 3 }, (_, i) => ({
    id: `bug${i + 1}`,
    run: `${opts.before ? `${opts.before}; ` : ''}grep -q fixed-${i + 1} src/status.txt`,
  }));
  const extra = [
    'budget:',
    `  max_iterations: ${opts.maxIterations ?? 5}`,
    `  max_seconds_per_iteration: ${opts.secondsPerIteration ?? 60}`,
    '  max_total_seconds: 900',
  ].join('\n');
  return {
    'phuc-loop.yml': config({ criteria, agent: agentCommand, rung: 641, extra, writable: opts.writable }) + '\n',
    'NORTHSTAR.md': NORTHSTAR,
    'src/status.txt': 'bugs: 3\n',
    'AGENTS.md': '# Project rules\n\nKeep changes small.\n',
  };
}

export interface Scenario {
  gh: GitHubEmulator;
  origin: Origin;
  number: number;
}

/** A PR `number` on octo/widgets whose head branch `pr-<number>` holds the loop files. */
export async function scenario(
  gh: GitHubEmulator,
  number: number,
  files: Record<string, string>,
  opts: { headRepo?: string; labels?: string[] } = {},
): Promise<Scenario> {
  const origin = await createOrigin({ fullName: REPO, files: { 'README.md': '# widgets\n' }, pr: { branch: `pr-${number}`, files } });
  gh.addPull(REPO, { number, title: `PR ${number}`, head: { ref: `pr-${number}`, sha: origin.headSha!, repo: opts.headRepo }, labels: opts.labels });
  return { gh, origin, number };
}

export interface JobOptions {
  inputs?: Record<string, string | number | boolean>;
  event?: Record<string, unknown>;
  env?: Record<string, string>;
  runOpts?: Parameters<GitHubEmulator['createRun']>[1];
  /** Called once main has started, with its work tree (the checkout the agent works in). */
  onMainStarted?: (h: StepHandle, workspace: string) => void | Promise<void>;
  /** Reuse a workspace (default: a fresh clone of the branch tip, as actions/checkout makes it). */
  workspace?: string;
}

export interface Job extends JobResult {
  run: EmulatedRun;
  workspace: string;
  callsBefore: number;
}

/** One workflow run: a fresh checkout of the PR head, then main and post of the action. */
export async function runJob(s: Scenario, o: JobOptions = {}): Promise<Job> {
  const { gh, origin, number } = s;
  const pull = gh.pull(REPO, number);
  const run = gh.createRun(REPO, { headBranch: pull.head.ref, headSha: pull.head.sha, ...o.runOpts });
  const workspace = o.workspace ?? (await cloneWorkspace(origin, { token: TOKEN, branch: pull.head.ref }));
  const callsBefore = gh.calls.length;
  const job = await runActionJob({
    actionDir: ROOT,
    workspace,
    token: TOKEN,
    inputs: { 'poll-seconds': '1', ...o.inputs },
    env: { ...run.env({ token: TOKEN }), ...isolatedGitEnv(), ...redirectEnv([origin], { token: TOKEN }), PHUC_LOOP_API_RETRY_BASE_MS: '20', ...o.env },
    eventPayload: o.event ?? gh.pullRequestEvent(REPO, number),
    onMainStarted: o.onMainStarted && ((h) => o.onMainStarted!(h, workspace)),
  });
  gh.completeRun(run.id, job.main.exitCode === 0 ? 'success' : 'failure');
  return { ...job, run, workspace, callsBefore };
}

/**
 * The run after a pause, on the branch tip as the pause left it: it restores the evidence artifact,
 * continues the numbering (`onRecord` iterations on record) and converges after `iterations` in all;
 * the one PR comment of the paused run is updated, not duplicated.
 */
export async function resumesAndConverges(s: Scenario, o: { onRecord: number; iterations: number; env?: Record<string, string> }): Promise<void> {
  const { gh, origin, number } = s;
  gh.setPullHead(REPO, number, (await log(origin, `pr-${number}`, { max: 1 }))[0].sha);
  const paused = gh.commentsOn(REPO, number).map((c) => c.id);
  expect(paused).toHaveLength(1);
  const next = await runJob(s, { env: o.env });
  if (next.main.exitCode !== 0) throw new Error(debugJob(next));
  expect(next.main.summary).toMatch(/Evidence restored from artifact/);
  expect(next.main.stdout).toMatch(new RegExp(`resuming from evidence/loop: ${o.onRecord} iteration\\(s\\) on record, next is ${o.onRecord}`));
  expect(next.main.outputs).toMatchObject({ status: 'EXIT_CONVERGED', iterations: String(o.iterations) });
  const comments = gh.commentsOn(REPO, number);
  expect(comments.map((c) => c.id)).toEqual(paused);
  expect(comments[0].body).toMatch(/EXIT_CONVERGED/);
}

/** Everything that left the runner for GitHub or the job page. */
export function leftTheRunner(gh: GitHubEmulator, job: Job): string {
  const parts = [job.main.summary, job.post?.summary ?? '', JSON.stringify(job.main.outputs), JSON.stringify(job.post?.outputs ?? {})];
  for (const c of gh.comments.values()) parts.push(c.body);
  for (const a of gh.listArtifacts()) if (a.blob) for (const [, data] of gh.artifactFiles(a.id)) parts.push(data.toString('latin1'));
  return parts.join('\n');
}

/** REST calls (operation → count) from a mark on. */
export function restCalls(gh: GitHubEmulator, since: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const c of gh.calls.slice(since)) if (c.kind === 'rest') out[c.operation ?? c.path] = (out[c.operation ?? c.path] ?? 0) + 1;
  return out;
}

export function debugJob(job: JobResult): string {
  return [
    `main exit ${job.main.exitCode}`,
    job.main.stdout.slice(-6000),
    job.main.stderr.slice(-3000),
    `post exit ${job.post?.exitCode}`,
    job.post?.stdout.slice(-3000) ?? '',
    job.post?.stderr.slice(-2000) ?? '',
  ].join('\n');
}

/**
 * The API-call figure of one run of N iterations (sticky comment): calls made once per run (evidence
 * restore, comment lookup, the STOP checks before the first comment and before the first iteration,
 * the comment as the run starts and the final one), STOP polls while an agent ran, and what remains
 * per iteration.
 */
export function apiFigure(
  calls: Record<string, number>,
  iterations: number,
): { total: number; oncePerRun: number; stopPolls: number; perIteration: number; amortized: number } {
  const total = Object.values(calls).reduce((a, b) => a + b, 0);
  const labelChecks = calls['issues/list-labels-on-issue'] ?? 0;
  const stopPolls = Math.max(0, labelChecks - (iterations + 2));
  const firstAndFinalComment = Math.min(2, (calls['issues/update-comment'] ?? 0) + (calls['issues/create-comment'] ?? 0));
  const oncePerRun =
    (calls['actions/list-artifacts-for-repo'] ?? 0) +
    (calls['actions/download-artifact'] ?? 0) +
    (calls['issues/list-comments'] ?? 0) +
    (calls['pulls/get'] ?? 0) +
    (calls['repos/get-collaborator-permission-level'] ?? 0) +
    2 /* STOP checks before the first comment and before the first iteration */ +
    firstAndFinalComment;
  const perIteration = (total - oncePerRun - stopPolls) / iterations;
  return { total, oncePerRun, stopPolls, perIteration, amortized: Number((total / iterations).toFixed(2)) };
}
