// Evidence across workflow runs: run 1 pauses after one iteration and its post step uploads the
// evidence; run 2 restores it through the artifact service and continues the numbering; run 3 (nothing
// changed, on a fresh runner) judges HEAD again before its verdict stands; a tampered copy of the
// artifact is refused.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { chmod, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGitHubEmulator, type GitHubEmulator } from '../harness/github-emulator.js';
import { branchSha, cloneWorkspace, git, log, pushAsSomeoneElse } from '../harness/git-origin.js';
import {
  apiFigure,
  assertBuilt,
  b64Token,
  debugJob,
  e2eAgent,
  fixtureAgent,
  leftTheRunner,
  loopFiles,
  REPO,
  restCalls,
  runJob,
  scenario,
  TOKEN,
  type Job,
  type Scenario,
} from './helpers.js';

let gh: GitHubEmulator;
let s: Scenario;
let run1: Job;
let run2: Job;
let stopRequests: string;

/**
 * Runs `job`; when the agent asks for a pause (it cannot write the loop's scratch/ itself), puts
 * scratch/STOP into the work tree it names, as a user would.
 */
async function stopWhenAsked<T>(job: () => Promise<T>): Promise<T> {
  const request = join(stopRequests, 'stop');
  const timer = setInterval(() => {
    if (!existsSync(request)) return;
    clearInterval(timer);
    const tree = readFileSync(request, 'utf8');
    mkdirSync(join(tree, 'scratch'), { recursive: true });
    writeFileSync(join(tree, 'scratch/STOP'), 'pause after the first iteration\n');
  }, 50);
  try {
    return await job();
  } finally {
    clearInterval(timer);
  }
}

beforeAll(async () => {
  assertBuilt();
  gh = await startGitHubEmulator();
  gh.addRepo(REPO);
  stopRequests = await mkdtemp(join(tmpdir(), 'phuc-stop-requests-'));
  await chmod(stopRequests, 0o777);
  s = await scenario(gh, 7, loopFiles(`${e2eAgent('pause-after-first.mjs')} ${stopRequests}`, { writable: [stopRequests] }));
});

afterAll(async () => {
  await gh?.close();
});

afterEach(() => {
  expect(gh.violations).toEqual([]);
});

describe('two consecutive runs hand the evidence over through the artifact service', () => {
  test('run 1: one iteration, paused by scratch/STOP, pushed, commented, evidence uploaded by post', async () => {
    // The pause must come from the check before iteration 1: a poll during the agent's step or
    // iteration 0's checks (one a second) saw scratch/STOP first on a busy machine and cut them short.
    run1 = await stopWhenAsked(() => runJob(s, { inputs: { 'poll-seconds': '300' } }));
    const { main, post } = run1;
    expect(main.exitCode).toBe(12);
    expect(main.outputs).toMatchObject({
      status: 'EXIT_BLOCKED',
      'stop-reason': 'BACKPRESSURE_SIGNAL',
      certificate: 'BACKPRESSURE',
      iterations: '1',
      residual: '2',
    });
    expect(main.outputs['report-path']).toBe(join(run1.workspace, 'evidence/loop/halting_report.json'));
    expect(main.annotations.find((a) => a.level === 'error')?.message).toMatch(/EXIT_BLOCKED\(BACKPRESSURE_SIGNAL\)/);
    expect(main.summary).toContain('## phuc-loop: EXIT_BLOCKED (BACKPRESSURE_SIGNAL)');
    expect(main.summary).toContain('No earlier evidence artifact named `phuc-loop-evidence-pr-7`');
    expect(main.summary).toMatch(/\*\*Paused:\*\* the stop file `scratch\/STOP` exists\. \*\*To go on:\*\* Delete `scratch\/STOP`/);
    // The iteration's commit is on the PR branch, on top of the head the run started from.
    const commits = await log(s.origin, 'pr-7', { since: s.origin.headSha! });
    expect(commits.map((c) => c.subject)).toEqual([expect.stringMatching(/^phuc-loop: iteration 0 — residual 2/)]);
    // Post: one artifact named after the PR, holding a tree that starts with plan.json and iter_0.
    expect(post?.exitCode).toBe(0);
    const artifacts = gh.listArtifacts({ runId: run1.run.id });
    expect(artifacts.map((a) => a.name)).toEqual(['phuc-loop-evidence-pr-7']);
    expect(post?.outputs['artifact-id']).toBe(String(artifacts[0].id));
    const files = [...gh.artifactFiles(artifacts[0].id).keys()];
    expect(files).toEqual(expect.arrayContaining(['plan.json', 'manifest.json', 'state.json', 'iter_0/certificate.json', 'halting_report.json']));
    expect(files).not.toContain('run.lock');
    // One sticky comment, linking the run and (after post) the artifact.
    const comments = gh.commentsOn(REPO, 7);
    expect(comments).toHaveLength(1);
    expect(comments[0].body.startsWith('<!-- phuc-loop:comment -->')).toBe(true);
    expect(comments[0].body).toContain('EXIT_BLOCKED');
    expect(comments[0].body).toMatch(/\| (?:\[0\]\([^)]+\)|0) \| \d+ \(\d+·\d+·\d+·\d+\) \| 2 \| BACKPRESSURE \|/);
    expect(comments[0].body).toContain('xychart-beta');
    expect(comments[0].body).toContain(`/actions/runs/${run1.run.id})`);
    expect(comments[0].body).toContain(`/actions/runs/${run1.run.id}/artifacts/${artifacts[0].id}`);
  });

  test('run 1: the token never reached the agent, the evidence, the comment or the summary; checkout credentials were put back', async () => {
    const agentLog = await readFile(join(run1.workspace, 'evidence/loop/iter_0/agent.log'), 'utf8');
    expect(agentLog).toContain('token absent; input token absent');
    expect(agentLog).toContain('--- .git/config ---');
    expect(agentLog).not.toContain('extraheader');
    const out = leftTheRunner(gh, run1);
    expect(out).not.toContain(TOKEN);
    expect(out).not.toContain(b64Token);
    expect(run1.main.masks).toContain(TOKEN);
    const cfg = (await git(['config', '--local', '--get-all', 'http.https://github.com/.extraheader'], { cwd: run1.workspace })).stdout;
    expect(cfg.trim()).toBe(`AUTHORIZATION: basic ${b64Token}`);
  });

  test('run 2 (after a human commit): restores run 1 artifact, continues at iteration 1 and converges', async () => {
    await pushAsSomeoneElse(s.origin, 'pr-7', { 'docs/note.md': 'a human change between runs\n' });
    gh.setPullHead(REPO, 7, (await branchSha(s.origin, 'pr-7'))!);
    // This time the checkout keeps its credentials the way actions/checkout v6 does: in a file of
    // RUNNER_TEMP that .git/config includes.
    const workspace = await cloneWorkspace(s.origin, { token: TOKEN, branch: 'pr-7', persistCredentials: false });
    const credFile = join(await mkdtemp(join(tmpdir(), 'phuc-e2e-rt-')), 'git-credentials-1234.config');
    await writeFile(credFile, `[http "https://github.com/"]\n\textraheader = AUTHORIZATION: basic ${b64Token}\n`);
    await git(['config', '--local', `includeIf.gitdir:${workspace}/.git.path`, credFile], { cwd: workspace });
    run2 = await runJob(s, { workspace });
    const { main, post } = run2;
    expect({ exit: main.exitCode, out: main.outputs }).toMatchObject({
      exit: 0,
      out: { status: 'EXIT_CONVERGED', 'stop-reason': 'EXACT', certificate: 'EXACT', iterations: '3', residual: '0', glow: expect.stringMatching(/^\d+$/) },
    });
    expect(main.stdout).toMatch(/resuming from evidence\/loop: 1 iteration\(s\) on record, next is 1/);
    expect(main.summary).toContain(`Evidence restored from artifact \`phuc-loop-evidence-pr-7\``);
    expect(main.summary).toContain('## phuc-loop: EXIT_CONVERGED (EXACT)');
    const report = JSON.parse(await readFile(main.outputs['report-path'], 'utf8')) as { iterations: number[] };
    expect(report.iterations).toEqual([0, 1, 2]);
    const subjects = (await log(s.origin, 'pr-7', { since: s.origin.headSha! })).map((c) => c.subject);
    expect(subjects).toEqual([
      expect.stringMatching(/^phuc-loop: iteration 2 — residual 0, certificate EXACT/),
      expect.stringMatching(/^phuc-loop: iteration 1 — residual 1/),
      'concurrent change',
      expect.stringMatching(/^phuc-loop: iteration 0 — residual 2/),
    ]);
    // Still one comment, now with three rows; the second run's artifact is uploaded under the same name.
    const comments = gh.commentsOn(REPO, 7);
    expect(comments).toHaveLength(1);
    for (const n of [0, 1, 2])
      expect(comments[0].body).toMatch(new RegExp(`\\| (?:\\[${n}\\]\\([^)]+\\)|${n}) \\| \\d+ \\(\\d+·\\d+·\\d+·\\d+\\) \\| ${2 - n} \\|`));
    expect(comments[0].body).toContain('EXIT_CONVERGED');
    expect(post?.exitCode).toBe(0);
    expect(gh.listArtifacts({ runId: run2.run.id }).map((a) => a.name)).toEqual(['phuc-loop-evidence-pr-7']);
    expect(leftTheRunner(gh, run2)).not.toContain(TOKEN);
    // The agent did not see the include; it is back in place after the run.
    for (const n of [1, 2]) expect(await readFile(join(workspace, `evidence/loop/iter_${n}/agent.log`), 'utf8')).not.toContain('git-credentials');
    expect((await git(['config', '--local', '--get', `includeIf.gitdir:${workspace}/.git.path`], { cwd: workspace })).stdout.trim()).toBe(credFile);
    // The included credentials file itself was taken away while the agent ran, and is back as it was.
    expect(main.stdout).toMatch(/took \d+ persisted credential setting\(s\) out of \.git\/config while the agent runs/);
    expect(await readFile(credFile, 'utf8')).toBe(`[http "https://github.com/"]\n\textraheader = AUTHORIZATION: basic ${b64Token}\n`);
  });

  test('run 2: API calls per iteration stay within 3 plus one per STOP poll', () => {
    const calls = restCalls(gh, run2.callsBefore);
    const figure = apiFigure(calls, 2);
    process.stdout.write(`e2e API calls, run 2: ${JSON.stringify(calls)} → ${JSON.stringify(figure)}\n`);
    // Once per run: list + download of the evidence, the sticky comment lookup, its update as the run starts and the final one (post).
    expect(calls['actions/list-artifacts-for-repo']).toBe(1);
    expect(calls['actions/download-artifact']).toBe(1);
    expect(calls['issues/list-comments']).toBe(1);
    // Per iteration: one STOP check before it and two comment updates (the agent's phase, the checks').
    expect(figure.perIteration).toBe(3);
    expect(figure.perIteration).toBeLessThanOrEqual(3);
  });

  test("run 3 (nothing changed since run 2 ended, a fresh runner): the artifact's verdict is judged again — HEAD's checks, no agent step, converged", async () => {
    const run3 = await runJob(s);
    expect(run3.main.exitCode).toBe(0);
    expect(run3.main.outputs).toMatchObject({ status: 'EXIT_CONVERGED', 'stop-reason': 'EXACT', iterations: '3' });
    // Evidence restored from an artifact was not written by this runner's loop: its verdict is no
    // reason to stop until this run's checks say so (SPEC §7 Resume).
    expect(run3.main.stdout).toContain("came with evidence this clone's loop did not write: HEAD is judged again before anything stands");
    expect(run3.main.stdout).toMatch(/HEAD judged: 3\/3 criteria met, residual 0/);
    expect(run3.main.stdout).not.toMatch(/iter \d+: agent/);
    expect(run3.main.summary).not.toMatch(/Nothing to do/);
  });
});

describe('a tampered artifact', () => {
  test('is refused: EXIT_BLOCKED(EVIDENCE_UNVERIFIABLE), nothing runs, nothing is uploaded', async () => {
    const t = await scenario(gh, 9, loopFiles(`${e2eAgent('pause-after-first.mjs')} ${stopRequests}`, { writable: [stopRequests] }));
    const genuine = gh.listArtifacts({ runId: run1.run.id })[0];
    const files = Object.fromEntries([...gh.artifactFiles(genuine.id)].map(([k, v]) => [k, v.toString('utf8')]));
    // Someone edits a certificate: the hash in the manifest no longer matches.
    files['iter_0/certificate.json'] = files['iter_0/certificate.json'].replace('"BACKPRESSURE"', '"EXACT"');
    const earlier = gh.createRun(REPO, { headBranch: 'pr-9' });
    gh.addArtifact(earlier.id, 'phuc-loop-evidence-pr-9', { files });
    gh.completeRun(earlier.id, 'success');
    const job = await runJob(t);
    expect(job.main.exitCode).toBe(12);
    expect(job.main.outputs).toMatchObject({ status: 'EXIT_BLOCKED', 'stop-reason': 'EVIDENCE_UNVERIFIABLE', iterations: '0' });
    expect(job.main.summary).toMatch(/does not verify: iter_0\/certificate\.json: sha256 differs/);
    expect(job.main.stdout).not.toMatch(/iter 0: agent/);
    expect(await branchSha(t.origin, 'pr-9')).toBe(t.origin.headSha);
    expect(gh.listArtifacts({ runId: job.run.id })).toEqual([]);
    expect(job.post?.stdout).toMatch(/no evidence of this run to upload/);
  }, 60_000);
});

describe("an artifact a fork's workflow run uploaded under this PR's name", () => {
  test('is not trusted: the loop starts fresh and says why', async () => {
    const t = await scenario(gh, 41, loopFiles(fixtureAgent('fixer.mjs'), { criteria: 1 }));
    gh.addRepo('forker/widgets', { fork: true, parent: REPO });
    const forkRun = gh.createRun(REPO, { headBranch: 'pr-41', headRepo: 'forker/widgets' });
    const genuine = gh.listArtifacts({ runId: run1.run.id })[0];
    const planted = gh.addArtifact(forkRun.id, 'phuc-loop-evidence-pr-41', { files: Object.fromEntries(gh.artifactFiles(genuine.id)) });
    gh.completeRun(forkRun.id, 'success');
    const job = await runJob(t);
    if (job.main.exitCode !== 0) throw new Error(debugJob(job));
    expect(job.main.outputs).toMatchObject({ status: 'EXIT_CONVERGED', iterations: '1' });
    expect(job.main.summary).toContain(`artifact ${planted.id} comes from a run on another repository's head (a fork): not trusted`);
    expect(restCalls(gh, job.callsBefore)['actions/download-artifact']).toBeUndefined();
  }, 60_000);
});
