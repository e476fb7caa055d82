// The PR comment from the first minute: it appears while the baseline runs, before any agent step
// ends, and is rewritten at each phase with one status line (one comment, edited); its table shows
// each iteration's cost and tokens as the agent reported them.
import { chmod, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallRecord, GitHubEmulator } from '../harness/github-emulator.js';
import { branchSha } from '../harness/git-origin.js';
import { apiFigure, debugJob, e2eAgent, loopFiles, REPO, restCalls, runJob, scenario, until, useEmulator } from './helpers.js';

let gh: GitHubEmulator;
useEmulator((g) => (gh = g));

const isCommentWrite = (c: CallRecord) => c.operation === 'issues/create-comment' || c.operation === 'issues/update-comment';
const bodyOf = (c: CallRecord) => (c.body as { body: string }).body;
const statusLine = (body: string) => body.split('\n')[1];

test('the comment is there before iteration 0 ends, follows every phase, and shows cost and tokens per iteration', async () => {
  const gate = await mkdtemp(join(tmpdir(), 'phuc-e2e-gate-'));
  await chmod(gate, 0o777);
  const s = await scenario(gh, 70, loopFiles(`${e2eAgent('paid-fixer.mjs')} ${gate}`, { criteria: 2, writable: [gate] }));
  const mark = gh.calls.length;
  const job = runJob(s);
  // Iteration 0's agent waits for the gate: the comment must already say what the run is doing.
  await until(() => /iteration 0: the agent is working/.test(gh.commentsOn(REPO, 70)[0]?.body ?? ''), 60_000, 'the comment of iteration 0');
  expect(await branchSha(s.origin, 'pr-70')).toBe(s.origin.headSha);
  await writeFile(join(gate, 'go'), '');
  const done = await job;
  if (done.main.exitCode !== 0) throw new Error(debugJob(done));
  expect(done.main.outputs).toMatchObject({ status: 'EXIT_CONVERGED', iterations: '2', 'cost-usd': '0.5', tokens: '2500' });

  // One comment, created once (as the baseline started) and edited from then on, in the run's order.
  const writes = gh.calls.slice(mark).filter(isCommentWrite);
  expect(writes.map((c) => c.operation)).toEqual(['issues/create-comment', ...writes.slice(1).map(() => 'issues/update-comment')]);
  expect(gh.commentsOn(REPO, 70)).toHaveLength(1);
  const lines = writes.map((c) => statusLine(bodyOf(c)));
  expect(lines).toEqual([
    '### phuc-loop · RUNNING · baseline: the criteria run on the branch head',
    '### phuc-loop · RUNNING · iteration 0: the agent is working',
    "### phuc-loop · RUNNING · iteration 0: the checks run on the agent's change",
    '### phuc-loop · RUNNING · iteration 1: the agent is working',
    "### phuc-loop · RUNNING · iteration 1: the checks run on the agent's change",
    '### phuc-loop · EXIT_CONVERGED (EXACT)',
  ]);
  expect(bodyOf(writes[0])).toContain('_No iteration has finished yet._');
  // From iteration 0 on: the baseline row first, and the latest round's failing checks with their logs' paths.
  expect(bodyOf(writes[1])).toContain('| baseline | — | 2 | 0/2 met | — | — |');
  expect(bodyOf(writes[1])).toContain('**Failing checks (baseline):**');
  expect(bodyOf(writes[1])).toContain('`bug1` — `baseline/checks/bug1.log`');
  expect(bodyOf(writes[3])).toContain('**Failing checks (iteration 0):**');
  expect(bodyOf(writes[3])).toContain('`bug2` — `iter_0/checks/bug2.log`');
  expect(bodyOf(writes[3])).not.toContain('`bug1` — ');
  // Iteration 0's row (cost, tokens, the pushed commit) comes with the next phase.
  const row = (n: number, certificate: string) =>
    new RegExp(
      `^\\| \\[${n}\\]\\([^ ]+/commit/[0-9a-f]{40} "commit [0-9a-f]{7}"\\) \\| \\d+ \\(\\d+·\\d+·\\d+·\\d+\\) \\| ${1 - n} \\| ${certificate} \\| [^|]+ \\| \\$0\\.25 · 1250 \\|$`,
      'm',
    );
  expect(bodyOf(writes[3])).toMatch(row(0, 'NONE|BACKPRESSURE|[A-Z_]+'));
  expect(bodyOf(writes[3])).not.toMatch(/^\| (?:\[1\]\(|1 \|)/m);
  const final = gh.commentsOn(REPO, 70)[0].body;
  expect(final).toMatch(row(0, '[A-Z_]+'));
  expect(final).toMatch(row(1, 'EXACT'));
  expect(final).toContain('| cost · tokens |');
  expect(final).toContain('| baseline | — | 2 | 0/2 met | — | — |');
  expect(final).not.toContain('Failing checks');

  // Calls: per iteration one STOP check and two phase updates; once per run the lookup, the first and the final write.
  const figure = apiFigure(restCalls(gh, mark), 2);
  expect(figure.perIteration).toBe(3);
}, 180_000);
