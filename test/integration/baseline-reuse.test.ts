// Baseline reuse (issue 33): a new loop on exactly the inputs of an earlier run's baseline (the same
// tree, contract, Northstar, isolation, loop) takes that judgement and names where it came from; any
// change to the inputs judges HEAD again. The baseline is never a certificate: every criterion runs
// again in iteration 0. Real CLI, real repos.
import { createHash } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { checkStateDir, cli, config, git, makeRepo, NORTHSTAR, readJson } from '../helpers/repo.js';

const AGENT = `echo '{"tried":["t"],"claims":["c"],"failures":[],"open_questions":[],"can_further_iteration_help":true}' > "$PHUC_REPORT_FILE"\n`;
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

test('run --fresh on the tree an earlier baseline judged reuses the baseline with its evidence named; a changed tree judges HEAD again', async () => {
  const state = await checkStateDir();
  const runs = async () => (await readFile(join(state, 'runs'), 'utf8')).trim().split('\n').length;
  try {
    const repo = await makeRepo({
      'phuc-loop.yml': config({
        criteria: [{ id: 'tests', run: `echo run >> ${state}/runs; grep -qx fixed src/status.txt` }],
        agent: 'sh agent.sh',
        writable: [state],
        extra: 'budget:\n  max_iterations: 1\n',
      }),
      'NORTHSTAR.md': NORTHSTAR,
      'agent.sh': AGENT,
      'src/status.txt': 'broken\n',
    });
    const start = (await git(repo, 'rev-parse', 'HEAD')).trim();
    const first = await cli(repo, ['run']);
    expect(first.stdout + first.stderr).toMatch(/baseline: 0\/1 criteria met/);
    expect(await runs()).toBe(2);
    const firstPlan = await readFile(join(repo, 'evidence/loop/plan.json'), 'utf8');
    const firstChecks = await readFile(join(repo, 'evidence/loop/baseline/checks/tests.json'), 'utf8').catch(() => null);

    // Back to the commit the first loop started from (its iteration committed AGENTS.md), and a new loop.
    await git(repo, 'reset', '-q', '--hard', start);
    const again = await cli(repo, ['run', '--fresh']);
    const out = again.stdout + again.stderr;
    expect(out).toMatch(/baseline: reused \(inputs [0-9a-f]{12} unchanged since the run whose plan\.json is [0-9a-f]{12}\): 0\/1 criteria met/);
    expect(out).toMatch(/halt: /);
    // Iteration 0 ran the criterion; the baseline did not.
    expect(await runs()).toBe(3);
    const reused = await readJson<{ reused: boolean; inputs_hash: string; from: { plan_sha256: string; files: { path: string; sha256: string }[] } }>(
      join(repo, 'evidence/loop/baseline/reused.json'),
    );
    expect(reused.reused).toBe(true);
    expect(reused.from.plan_sha256).toBe(sha(firstPlan));
    expect(reused.from.files.length).toBeGreaterThan(0);
    // The evidence it names is in this run's tree, byte for byte, and the tree verifies.
    for (const f of reused.from.files) expect(sha(await readFile(join(repo, 'evidence/loop', f.path), 'utf8'))).toBe(f.sha256);
    if (firstChecks !== null) expect(await readFile(join(repo, 'evidence/loop/baseline/checks/tests.json'), 'utf8')).toBe(firstChecks);
    expect(JSON.parse(await readFile(join(repo, 'evidence/loop/plan.json'), 'utf8')).baseline).toEqual(JSON.parse(firstPlan).baseline);
    expect((await cli(repo, ['verify'])).code).toBe(0);

    // Another tree: HEAD is judged.
    await writeFile(join(repo, 'src/other.txt'), 'x\n');
    await git(repo, 'add', '-A');
    await git(repo, 'commit', '-qm', 'another tree');
    const third = await cli(repo, ['run', '--fresh']);
    expect(third.stdout + third.stderr).not.toMatch(/baseline: reused/);
    expect(third.stdout + third.stderr).toMatch(/baseline: 0\/1 criteria met/);
    expect(await runs()).toBe(5);
  } finally {
    await rm(state, { recursive: true, force: true });
  }
}, 240_000);

test('a baseline that already meets the criteria is never reused: each run judges HEAD for its certificate', async () => {
  const state = await checkStateDir();
  try {
    const repo = await makeRepo({
      'phuc-loop.yml': config({
        criteria: [{ id: 'tests', run: `echo run >> ${state}/runs; grep -qx fixed src/status.txt` }],
        agent: 'sh agent.sh',
        writable: [state],
      }),
      'NORTHSTAR.md': NORTHSTAR,
      'agent.sh': AGENT,
      'src/status.txt': 'fixed\n',
    });
    expect((await cli(repo, ['run'])).stdout).toMatch(/already meets the criteria/);
    const once = (await readFile(join(state, 'runs'), 'utf8')).trim().split('\n').length;
    const again = await cli(repo, ['run', '--fresh']);
    expect(again.stdout + again.stderr).not.toMatch(/baseline: reused/);
    expect(again.stdout).toMatch(/already meets the criteria/);
    // The second run ran everything the first did: its baseline check, the confirmation and replays.
    expect((await readFile(join(state, 'runs'), 'utf8')).trim().split('\n').length).toBe(2 * once);
  } finally {
    await rm(state, { recursive: true, force: true });
  }
}, 240_000);
