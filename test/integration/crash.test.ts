// Crash consistency (SPEC §7): the loop is SIGKILLed at each point of an iteration (an environment
// switch makes it kill itself there); the next run must never certify a commit that fails its
// criteria in a fresh clone, and never lose a committed iteration.
import { appendFile, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync } from 'node:fs';
import { agent, cli, config, git, makeRepo, NORTHSTAR, readJson, startCli, until } from '../helpers/repo.js';

const sh = promisify(execFile);
const CRITERIA = [
  { id: 'one', run: 'grep -q fixed-1 src/status.txt' },
  { id: 'two', run: 'grep -q fixed-2 src/status.txt' },
  { id: 'three', run: 'grep -q fixed-3 src/status.txt' },
];
const loopCommits = async (repo: string) => (await git(repo, 'log', '--format=%s')).split('\n').filter((l) => l.startsWith('phuc-loop: iteration')).length;

// 'state' is reached after the iteration counter moved on: its iteration number is the next one.
// The start of a run (iteration 0): after the plan, after the baseline's checks, after the
// baseline's plan, after its state; then the first iteration's points.
const START = ['plan:0', 'head:0', 'head-plan:0', 'head-state:0', 'capsule:0', 'state:1'];
const POINTS = [...START, 'capsule:1', 'agent:1', 'collect:1', 'checks:1', 'agents-md:1', 'commit:1', 'certificate:1', 'state:2'];

test.each(POINTS.map((p) => [p]))('killed at %s: the next run converges on a commit that passes in a fresh clone', async (point) => {
  const repo = await makeRepo({
    'phuc-loop.yml': config({ criteria: CRITERIA, agent: agent('fixer.mjs') }),
    'NORTHSTAR.md': NORTHSTAR,
    'src/status.txt': 'start\n',
  });
  const crashed = await cli(repo, ['run'], { PHUC_TEST_CRASH_AT: point });
  expect(crashed.code).toBeNull(); // killed by SIGKILL
  const committed = await loopCommits(repo);
  const r = await cli(repo, ['run']);
  expect(r.stdout + r.stderr).toMatch(/halt: EXIT_CONVERGED/);
  expect(r.code).toBe(0);
  // Killed before the baseline was on record: the start is made again, said so, never refused.
  if (['plan:0', 'head:0', 'head-plan:0'].includes(point)) expect(r.stdout).toMatch(/the previous run was cut off before its baseline was on record/);
  expect(await loopCommits(repo)).toBeGreaterThanOrEqual(committed);
  expect((await cli(repo, ['verify'])).code).toBe(0);
  // The certified commit, cloned fresh, passes every criterion.
  const rep = await readJson<{ halting_certificate: { commit: string } }>(join(repo, 'evidence/loop/halting_report.json'));
  const clone = join(await mkdtemp(join(tmpdir(), 'phuc-clone-')), 'c');
  await sh('git', ['clone', '-q', repo, clone]);
  await sh('git', ['-C', clone, 'checkout', '-q', rep.halting_certificate.commit]);
  for (const c of CRITERIA) await sh('sh', ['-c', c.run], { cwd: clone });
});

test('killed twice, the second time while the resumed run judges HEAD: the third run converges', async () => {
  const repo = await makeRepo({
    'phuc-loop.yml': config({ criteria: CRITERIA, agent: agent('fixer.mjs') }),
    'NORTHSTAR.md': NORTHSTAR,
    'src/status.txt': 'start\n',
  });
  expect((await cli(repo, ['run'], { PHUC_TEST_CRASH_AT: 'capsule:1' })).code).toBeNull();
  const second = await cli(repo, ['run'], { PHUC_TEST_CRASH_AT: 'head:1' });
  expect(second.code).toBeNull();
  expect(second.stdout).toMatch(/resuming from evidence\/loop/);
  const r = await cli(repo, ['run']);
  expect(r.stdout + r.stderr).toMatch(/halt: EXIT_CONVERGED/);
  expect(r.code).toBe(0);
  expect((await cli(repo, ['verify'])).code).toBe(0);
});

test('a redo of a paused attempt cut off after rewriting its files (an open tail, not an edit): the next run resumes', async () => {
  const { rm, chmod, mkdir } = await import('node:fs/promises');
  const signals = await mkdtemp(join(tmpdir(), 'phuc-stopper-'));
  await chmod(signals, 0o777);
  const repo = await makeRepo({
    'phuc-loop.yml': config({ criteria: CRITERIA, agent: `${agent('stopper.mjs')} ${signals}`, writable: [signals] }),
    'NORTHSTAR.md': NORTHSTAR,
    'src/status.txt': 'start\n',
  });
  // The user stops the attempt before it changed anything.
  const run = startCli(repo, ['run', '--poll-ms', '100']);
  await until(() => existsSync(join(signals, 'started')), 30_000, 'the agent to start');
  await mkdir(join(repo, 'scratch'), { recursive: true });
  await writeFile(join(repo, 'scratch/STOP'), '');
  const first = await run.done;
  expect(first.code).toBe(12);
  expect(first.stdout).toMatch(/after 0 iteration\(s\)/);
  // The paused attempt's prompt is on record under iter_0; a redo that was killed had rewritten it.
  const [name] = await readdir(join(repo, '.git/phuc-loop'));
  await appendFile(join(repo, '.git/phuc-loop', name, 'evidence/iter_0/prompt.md'), 'rewritten by the redo\n');
  await rm(join(repo, 'scratch'), { recursive: true, force: true });
  const next = await cli(repo, ['run', '--poll-ms', '100']);
  expect(next.stdout + next.stderr).not.toMatch(/does not verify/);
  expect(next.stdout).toMatch(/resuming from evidence\/loop: 0 iteration\(s\) on record, next is 0/);
  expect((await cli(repo, ['verify'])).code).toBe(0);
});

test("killed during the agent step: its partial work is the agent's on the next run (judged, committed), the user's own uncommitted file stays theirs", async () => {
  // Fixes once; finds nothing to do when the fix is already there (as a real agent would).
  const once = `sh -c 'grep -q fixed src/status.txt || echo fixed > src/status.txt; echo agent-was-here >> notes.txt; echo "{\\"tried\\":[\\"fix\\"]}" > "$PHUC_REPORT_FILE"'`;
  const repo = await makeRepo({
    'phuc-loop.yml': config({ criteria: [{ id: 'fixed', run: 'grep -q fixed src/status.txt' }], agent: once }),
    'NORTHSTAR.md': NORTHSTAR,
    'src/status.txt': 'broken\n',
  });
  await writeFile(join(repo, 'notes.txt'), 'mine\n');
  expect((await cli(repo, ['run'], { PHUC_TEST_CRASH_AT: 'agent:0' })).code).toBeNull();
  const r = await cli(repo, ['run']);
  expect(r.stdout).toMatch(/the previous run was killed during this iteration's agent step/);
  expect(r.stdout + r.stderr).toMatch(/halt: EXIT_CONVERGED/);
  const rep = await readJson<{ halting_certificate: { commit: string } }>(join(repo, 'evidence/loop/halting_report.json'));
  expect(await git(repo, 'show', `${rep.halting_certificate.commit}:src/status.txt`)).toBe('fixed\n');
  // The user's file, untracked before the killed step, was kept as theirs: its first version is in the user-work ref.
  expect(await git(repo, 'show', 'refs/phuc-loop/user-work:notes.txt')).toMatch(/^mine\n/);
});

test("killed during an agent step that edited a protected test: the next run names the edit as possibly the agent's and never advises committing it", async () => {
  const weaken = `sh -c 'echo weakened > test/keep.txt; echo "{\\"tried\\":[\\"x\\"]}" > "$PHUC_REPORT_FILE"'`;
  const repo = await makeRepo({
    'phuc-loop.yml': config({ criteria: [{ id: 'fixed', run: 'grep -q fixed src/status.txt' }], agent: weaken }),
    'NORTHSTAR.md': NORTHSTAR,
    'src/status.txt': 'broken\n',
    'test/keep.txt': 'committed\n',
  });
  expect((await cli(repo, ['run'], { PHUC_TEST_CRASH_AT: 'agent:0' })).code).toBeNull();
  expect(await readFile(join(repo, 'test/keep.txt'), 'utf8')).toBe('weakened\n');
  const r = await cli(repo, ['run']);
  expect(r.code).toBe(12);
  expect(r.stderr).toMatch(
    /protected paths have uncommitted changes \(test\/keep\.txt\) and the previous run was killed during an agent step: they may be the agent's edits/,
  );
  expect(r.stderr).not.toMatch(/or commit them/);
  // Restored as advised, the next run goes on, and the cut-off step's other changes are the agent's.
  await git(repo, 'checkout', '--', 'test/keep.txt');
  const next = await cli(repo, ['run', '--max-iterations', '1']);
  expect(next.stdout).toMatch(/the previous run was killed during this iteration's agent step/);
  expect(await git(repo, 'show', 'HEAD:test/keep.txt')).toBe('committed\n');
});

test('killed between an append to history.jsonl and the manifest that records it: verify names the tail, the next run cuts it off and goes on', async () => {
  const repo = await makeRepo({
    'phuc-loop.yml': config({ criteria: CRITERIA, agent: agent('fixer.mjs') }),
    'NORTHSTAR.md': NORTHSTAR,
    'src/status.txt': 'start\n',
  });
  expect((await cli(repo, ['run', '--max-iterations', '1'])).code).not.toBe(0);
  const [name] = await readdir(join(repo, '.git/phuc-loop'));
  const own = join(repo, '.git/phuc-loop', name, 'evidence');
  const recorded = await readFile(join(own, 'history.jsonl'), 'utf8');
  expect(recorded.split('\n').filter(Boolean)).toHaveLength(1);
  // What a kill in the middle of the next line's append leaves: a torn line past the manifest.
  await appendFile(join(own, 'history.jsonl'), '{"iteration":1,"fsm":["SPAWN');
  const plain = await cli(repo, ['verify', own]);
  expect(plain.code).not.toBe(0);
  expect(plain.stdout + plain.stderr).toMatch(/history\.jsonl: holds lines past what the manifest records/);
  const next = await cli(repo, ['run', '--max-iterations', '2']);
  expect(next.stdout + next.stderr).not.toMatch(/does not verify/);
  expect(next.stdout).toMatch(/resuming from evidence\/loop: 1 iteration\(s\) on record, next is 1/);
  const history = await readFile(join(own, 'history.jsonl'), 'utf8');
  expect(history.startsWith(recorded)).toBe(true);
  expect(
    history
      .split('\n')
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as { iteration: number }).iteration),
  ).toEqual([0, 1]);
  expect((await cli(repo, ['verify'])).code).toBe(0);
});

test("a committed iteration's step start does not outlive it: a new loop after a reset takes the user's uncommitted edits for theirs", async () => {
  const repo = await makeRepo({
    'phuc-loop.yml': config({ criteria: CRITERIA, agent: agent('fixer.mjs') }),
    'NORTHSTAR.md': NORTHSTAR,
    'src/status.txt': 'start\n',
  });
  const initial = (await git(repo, 'rev-parse', 'HEAD')).trim();
  expect((await cli(repo, ['run', '--max-iterations', '1'])).code).not.toBe(0);
  // The user undoes the loop's commit and starts a new loop with a draft of their own.
  await git(repo, 'reset', '-q', '--hard', initial);
  await writeFile(join(repo, 'mine.txt'), 'a draft of mine\n');
  const r = await cli(repo, ['run', '--fresh', '--max-iterations', '1']);
  expect(r.stdout).not.toMatch(/killed during this iteration's agent step/);
  expect(await git(repo, 'log', '--format=%s', '-1')).toMatch(/^phuc-loop: iteration 0/);
  await expect(git(repo, 'show', 'HEAD:mine.txt')).rejects.toThrow();
  expect(await readFile(join(repo, 'mine.txt'), 'utf8')).toBe('a draft of mine\n');
});
