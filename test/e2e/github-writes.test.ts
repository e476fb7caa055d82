// Idempotent GitHub writes: the action's comment publisher (the real @actions/github client with its
// retry plugin and time limit) against the GitHub emulator failing a write before or after applying
// it, with 502, 500, a dropped connection or no answer at all. Every case ends with exactly one
// comment carrying the marker, holding the last body. A whole job (main + post) is run once with a
// lost create answer and a lost update answer.
import { startGitHubEmulator, type Fault, type FaultPhase, type GitHubEmulator } from '../harness/github-emulator.js';
import { assertBuilt, debugJob, fixtureAgent, loopFiles, REPO, runJob, scenario } from './helpers.js';

type CommentModule = typeof import('../../src/action/comment.js');
type GitHubModule = typeof import('../../src/action/github.js');

let gh: GitHubEmulator;
let comment: CommentModule;
let client: GitHubModule;
let nextIssue = 100;

beforeAll(async () => {
  gh = await startGitHubEmulator();
  gh.addRepo(REPO);
  // @actions/github reads the API URL when it loads; the client's limits come from the environment.
  process.env['GITHUB_API_URL'] = gh.url;
  process.env['PHUC_LOOP_API_RETRY_BASE_MS'] = '5';
  process.env['PHUC_LOOP_API_TIMEOUT_MS'] = '400';
  client = await import('../../src/action/github.js');
  comment = await import('../../src/action/comment.js');
});

afterAll(async () => {
  await gh?.close();
});

afterEach(() => {
  expect(gh.violations).toEqual([]);
  gh.clearFaults();
});

const [owner, repo] = REPO.split('/') as [string, string];

function publisher(issue: number, mode: 'sticky' | 'per-iteration' = 'sticky', knownId: number | null = null) {
  const warnings: string[] = [];
  const p = new comment.CommentPublisher({
    octokit: client.createClient('ghs_writesToken0123456789').octokit,
    repo: { owner, repo },
    issue,
    mode,
    knownId,
    warn: (m) => warnings.push(m),
    scrub: (s) => s,
    retryBaseMs: 5,
  });
  return { p, warnings };
}

function pullRequest(): number {
  const number = nextIssue++;
  gh.addPull(REPO, { number, head: { ref: `pr-${number}`, sha: 'a'.repeat(40) } });
  return number;
}

const body = (n: number) => `${comment.STICKY_MARKER}\n### phuc-loop · RUNNING · iteration ${n} done\n`;
const marked = (issue: number) => gh.commentsOn(REPO, issue).filter((c) => c.body.startsWith(comment.STICKY_MARKER));
const statuses = (since: number, operation: string) =>
  gh.calls
    .slice(since)
    .filter((c) => c.operation === operation)
    .map((c) => (c.timedOut ? 'timeout' : c.status));

interface Case {
  name: string;
  operation: 'issues/create-comment' | 'issues/update-comment' | 'issues/list-comments';
  faults: Fault[];
  phase: FaultPhase;
  /** Statuses the operation's calls get, in order ('timeout' where no answer came). */
  expectCalls: (number | 'timeout')[];
}

const cases: Case[] = [
  { name: 'create: 502 twice before it is applied', operation: 'issues/create-comment', faults: [502, 502], phase: 'before', expectCalls: [502, 502, 201] },
  { name: 'create: applied, then 502 (the answer is lost)', operation: 'issues/create-comment', faults: [502], phase: 'after', expectCalls: [502] },
  { name: 'create: applied, then 500', operation: 'issues/create-comment', faults: [500], phase: 'after', expectCalls: [500] },
  { name: 'create: applied, then the connection drops', operation: 'issues/create-comment', faults: [0], phase: 'after', expectCalls: [0] },
  { name: 'create: applied, then no answer (timeout)', operation: 'issues/create-comment', faults: ['timeout'], phase: 'after', expectCalls: ['timeout'] },
  {
    name: 'create: no answer before it is applied (timeout)',
    operation: 'issues/create-comment',
    faults: ['timeout'],
    phase: 'before',
    expectCalls: ['timeout', 201],
  },
  { name: 'update: 502 twice before it is applied', operation: 'issues/update-comment', faults: [502, 502], phase: 'before', expectCalls: [502, 502, 200] },
  { name: 'update: applied, then 502 twice', operation: 'issues/update-comment', faults: [502, 502], phase: 'after', expectCalls: [502, 502, 200] },
  { name: 'update: applied, then no answer (timeout)', operation: 'issues/update-comment', faults: ['timeout'], phase: 'after', expectCalls: ['timeout', 200] },
  { name: 'lookup: 502 twice', operation: 'issues/list-comments', faults: [502, 502], phase: 'before', expectCalls: [502, 502, 200] },
];

describe('the sticky comment stays one comment whatever fails', () => {
  test.each(cases)('$name', async (c) => {
    const issue = pullRequest();
    const { p, warnings } = publisher(issue);
    const mark = gh.calls.length;
    gh.failNext({ operation: c.operation }, c.faults, { phase: c.phase });
    // The update faults apply to the second publish (the first one creates).
    expect(await p.publish(body(0))).not.toBeNull();
    expect(await p.publish(body(1))).not.toBeNull();
    expect(warnings).toEqual([]);
    expect(statuses(mark, c.operation)).toEqual(c.expectCalls);
    expect(marked(issue).map((m) => m.body)).toEqual([body(1)]);
  });

  test('a lost create whose lookup fails too: the publish gives up with a warning, and the next one finds the comment instead of creating a second', async () => {
    const issue = pullRequest();
    const { p, warnings } = publisher(issue);
    await p.publish(body(0));
    gh.failNext({ operation: 'issues/create-comment' }, [502], { phase: 'after' });
    // Someone deleted the comment: the update answers 404, the create is applied but its answer lost,
    // and every attempt of the lookup after it fails (1 + 3 retries).
    gh.comments.delete(marked(issue)[0].id);
    gh.failNext({ operation: 'issues/list-comments' }, [502, 502, 502, 502]);
    expect(await p.publish(body(1))).toBeNull();
    expect(warnings).toEqual([expect.stringMatching(/could not write the pull request comment \(HTTP 502/)]);
    expect(marked(issue)).toHaveLength(1);
    const mark = gh.calls.length;
    expect(await p.publish(body(2))).not.toBeNull();
    expect(statuses(mark, 'issues/create-comment')).toEqual([]);
    expect(marked(issue).map((m) => m.body)).toEqual([body(2)]);
  });

  test('duplicates left by an older version are folded into the oldest; other people’s comments stay', async () => {
    const issue = pullRequest();
    gh.addComment(REPO, issue, 'a human comment', { user: 'alice' });
    const first = gh.addComment(REPO, issue, body(0), { user: 'github-actions[bot]' });
    gh.addComment(REPO, issue, body(0), { user: 'github-actions[bot]' });
    gh.addComment(REPO, issue, body(0), { user: 'github-actions[bot]' });
    const { p } = publisher(issue);
    await p.publish(body(1));
    expect(marked(issue).map((m) => [m.id, m.body])).toEqual([[first.id, body(1)]]);
    expect(gh.commentsOn(REPO, issue).map((m) => m.user)).toEqual(['alice', 'github-actions[bot]']);
  });

  test('the post step with a known id rewrites it; if that comment was deleted, it looks before it creates', async () => {
    const issue = pullRequest();
    const known = gh.addComment(REPO, issue, body(0), { user: 'github-actions[bot]' });
    await publisher(issue, 'sticky', known.id).p.publish(body(1));
    expect(marked(issue).map((m) => [m.id, m.body])).toEqual([[known.id, body(1)]]);
    gh.comments.delete(known.id);
    gh.failNext({ operation: 'issues/create-comment' }, [502], { phase: 'after' });
    await publisher(issue, 'sticky', known.id).p.publish(body(2));
    expect(marked(issue).map((m) => m.body)).toEqual([body(2)]);
  });

  test('a refusal (422) is not retried', async () => {
    const issue = pullRequest();
    const { p, warnings } = publisher(issue);
    const mark = gh.calls.length;
    gh.failNext({ operation: 'issues/create-comment' }, [422]);
    expect(await p.publish(body(0))).toBeNull();
    expect(statuses(mark, 'issues/create-comment')).toEqual([422]);
    expect(warnings).toEqual([expect.stringMatching(/HTTP 422/)]);
    expect(marked(issue)).toHaveLength(0);
  });
});

test('per-iteration comments: a lost create answer does not post the iteration twice', async () => {
  const issue = pullRequest();
  const { p } = publisher(issue, 'per-iteration');
  const it = (n: number) => `${comment.ITERATION_MARKER}\n### phuc-loop · iteration ${n} · RUNNING\n`;
  gh.failNext({ operation: 'issues/create-comment' }, [502, 'timeout'], { phase: 'after' });
  await p.publish(it(0));
  await p.publish(it(1));
  expect(gh.commentsOn(REPO, issue).map((c) => c.body)).toEqual([it(0), it(1)]);
});

test('a whole job: the create answer and an update answer are lost; one comment, with the final status and the artifact link', async () => {
  assertBuilt();
  const s = await scenario(gh, 140, loopFiles(fixtureAgent('fixer.mjs'), { criteria: 2 }));
  gh.setPermission(REPO, 'alice', 'write');
  gh.failNext({ operation: 'issues/create-comment' }, [502], { phase: 'after' });
  gh.failNext({ operation: 'issues/update-comment' }, ['timeout'], { phase: 'after' });
  const job = await runJob(s, { env: { PHUC_LOOP_API_TIMEOUT_MS: '1000' } });
  if (job.main.exitCode !== 0) throw new Error(debugJob(job));
  const comments = gh.commentsOn(REPO, 140);
  expect(comments).toHaveLength(1);
  expect(comments[0].body).toMatch(/EXIT_CONVERGED \(EXACT\)/);
  expect(comments[0].body).toContain(`/artifacts/${job.post?.outputs['artifact-id']}`);
  // Main: the create (applied, answer lost) is found by the lookup, never sent twice; the update
  // (applied, no answer) is sent again. Post: the final update with the artifact link.
  expect(statuses(job.callsBefore, 'issues/create-comment')).toEqual([502]);
  const updates = statuses(job.callsBefore, 'issues/update-comment');
  expect(updates.slice(0, 2)).toEqual(['timeout', 200]);
  expect(new Set(updates.slice(2))).toEqual(new Set([200]));
}, 60_000);
