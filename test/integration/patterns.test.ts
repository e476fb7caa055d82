// The other loop designs of the seeds through the built CLI: the critic (microloop), failure
// signatures with a detour then STUCK, stall and escalation (loop contract), DEGA command rails,
// and input-hash reruns (section-loop contract).
import { access, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { agent, checkStateDir, cli, config, git, makeRepo, NORTHSTAR, readJson } from '../helpers/repo.js';

const report = (repo: string) => readJson<Record<string, any>>(join(repo, 'evidence/loop/halting_report.json'));
const exists = (p: string) =>
  access(p).then(
    () => true,
    () => false,
  );

describe('critic', () => {
  test('"no further iteration can help" while criteria fail ends EXIT_BLOCKED(NO_VIABLE_FIX_PATH); the verdict is Lane C', async () => {
    const repo = await makeRepo({
      'phuc-loop.yml': config({
        criteria: [{ id: 'never', run: 'false' }],
        agent: agent('busy.mjs'),
        extra: `critic:\n  use: command\n  run: ${JSON.stringify(agent('critic-giveup.mjs'))}\n`,
      }),
      'NORTHSTAR.md': NORTHSTAR,
      'src/busy.txt': '',
    });
    const r = await cli(repo, ['run']);
    expect(r.code).toBe(12);
    const rep = await report(repo);
    expect(rep).toMatchObject({ status: 'EXIT_BLOCKED', stop_reason: 'NO_VIABLE_FIX_PATH', iterations_completed: 1 });
    expect(rep.halting_certificate.type).toBe('NONE');
    const verdict = await readJson(join(repo, 'evidence/loop/iter_0/critic_verdict.json'));
    expect(verdict).toMatchObject({ state: 'valid', lane: 'C', verdict: { status: 'UNVERIFIED', can_further_iteration_help: false } });
    const entry = await readFile(join(repo, 'evidence/loop/iter_0/agents_md_entry.md'), 'utf8');
    expect(entry).toContain('- [C] critic concern src/busy.txt:1 [high] the design cannot satisfy the check');
    expect(r.stdout).toMatch(/iter 0: critic UNVERIFIED, further iteration can help: false, 1 concern/);
  });

  test("a malformed verdict is recorded and does not crash the loop; a critic's edits are reverted", async () => {
    const repo = await makeRepo({
      'phuc-loop.yml': config({
        criteria: [{ id: 'never', run: 'false' }],
        agent: agent('busy.mjs'),
        extra: `critic:\n  use: command\n  run: ${JSON.stringify(agent('critic-garbage.mjs'))}\nbudget:\n  max_iterations: 1\n`,
      }),
      'NORTHSTAR.md': NORTHSTAR,
      'src/busy.txt': '',
    });
    const r = await cli(repo, ['run']);
    expect(r.code).toBe(11);
    const verdict = await readJson(join(repo, 'evidence/loop/iter_0/critic_verdict.json'));
    expect(verdict).toMatchObject({ state: 'malformed', reverted_paths: ['src/busy.txt'] });
    expect(await readFile(join(repo, 'src/busy.txt'), 'utf8')).toBe('iteration 0\n');
    expect(await git(repo, 'show', 'HEAD:src/busy.txt')).toBe('iteration 0\n');
    const entry = await readFile(join(repo, 'evidence/loop/iter_0/agents_md_entry.md'), 'utf8');
    expect(entry).toMatch(/\[A\] critic verdict malformed/);
    expect(entry).toContain('[A] the critic changed files (reverted): src/busy.txt');
  });
});

test('the same failure signature twice → a detour with the known fix; still the same → EXIT_BLOCKED(STUCK)', async () => {
  // Paths, line numbers, timings and hex ids change every run; the signature must not.
  const check =
    "echo \"AssertionError: expected 5 got 3 at $(pwd)/src/x.js:$(od -An -N2 -tu2 /dev/urandom | tr -d ' ') after $(od -An -N1 -tu1 /dev/urandom | tr -d ' ')ms id $(od -An -N8 -tx1 /dev/urandom | tr -d ' \\n')\"; exit 1";
  const repo = await makeRepo({
    'phuc-loop.yml': config({
      criteria: [{ id: 'calc', run: check }],
      agent: agent('busy.mjs'),
      extra: 'detours:\n  - match: "/AssertionError: expected \\\\d+/"\n    instruction: Fix the arithmetic in src/x.js instead of the formatting.\n',
    }),
    'NORTHSTAR.md': NORTHSTAR,
    'src/busy.txt': '',
  });
  const r = await cli(repo, ['run']);
  expect(r.code).toBe(12);
  const rep = await report(repo);
  expect(rep).toMatchObject({ status: 'EXIT_BLOCKED', stop_reason: 'STUCK', iterations_completed: 3 });
  expect(rep.exits_fired.map((e: { kind: string }) => e.kind)).toEqual(expect.arrayContaining(['STUCK', 'NORTHSTAR_DRIFT']));
  const sigs = (await readFile(join(repo, 'evidence/loop/history.jsonl'), 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l).failure_signatures[0]);
  expect(new Set(sigs).size).toBe(1);
  const capsule = await readJson<any>(join(repo, 'evidence/loop/iter_2/cnf_capsule.json'));
  expect(capsule.current_state_summary.detour).toEqual([
    expect.objectContaining({ criterion: 'calc', signature: sigs[0], known_fix: 'Fix the arithmetic in src/x.js instead of the formatting.' }),
  ]);
  expect(await readFile(join(repo, 'evidence/loop/iter_2/prompt.md'), 'utf8')).toContain('Known fix: Fix the arithmetic in src/x.js');
  expect(r.stdout).toMatch(/iter 1: repeated failure calc:[0-9a-f]{12} — detour next iteration/);
});

describe('stall and escalation', () => {
  const files = (extra: string) => ({
    // The failure text changes every iteration (work left), so this is a stall, not a stuck signature.
    'phuc-loop.yml': config({
      criteria: [{ id: 'solved', run: 'echo "work left: $(cat progress.txt)"; test -f src/solved.txt' }],
      agent: agent('chatty.mjs'),
      extra,
    }),
    'NORTHSTAR.md': NORTHSTAR + '| progress | work left | 100 | 0 | cat progress.txt |\n',
    'progress.txt': '100\n',
  });

  test('no better residual for stall_iterations → EXIT_BLOCKED(STALLED)', async () => {
    const repo = await makeRepo(files('stall_iterations: 3\n'));
    const r = await cli(repo, ['run']);
    expect(r.code).toBe(12);
    const rep = await report(repo);
    expect(rep).toMatchObject({ status: 'EXIT_BLOCKED', stop_reason: 'STALLED', iterations_completed: 3, escalated_at_iteration: null });
    expect(rep.glow_history.every((g: { W: number }) => g.W > 0)).toBe(true); // a stall, not a Northstar drift
  });

  test('with agent.escalate, the loop switches after 2 stalled iterations and the stronger agent converges', async () => {
    const f = files('');
    f['phuc-loop.yml'] = f['phuc-loop.yml'].replace(
      'protected: ["test/**"]',
      `  escalate:\n    run: ${JSON.stringify(agent('solver.mjs'))}\nprotected: ["test/**"]`,
    );
    const repo = await makeRepo(f);
    const r = await cli(repo, ['run']);
    expect(r.code).toBe(0);
    const rep = await report(repo);
    expect(rep).toMatchObject({ status: 'EXIT_CONVERGED', escalated_at_iteration: 2, iterations_completed: 3 });
    expect(rep.dega_cycles.map((c: { agent: string }) => c.agent)).toEqual(['command', 'command', 'command [escalated]']);
    expect(await readFile(join(repo, 'evidence/loop/iter_1/agents_md_entry.md'), 'utf8')).toContain(
      '[A] no better residual for 2 iterations: switching the agent to command [escalated]',
    );
    expect((await readJson<any>(join(repo, 'evidence/loop/iter_2/cnf_capsule.json'))).current_state_summary.escalated).toBe(true);
    expect(r.stdout).toMatch(/iter 1: residual stalled for 2 iterations — escalating to command \[escalated\]/);
  });
});

test('command rails: a time-out is not retried; a transient failure passes on retry and is told apart', async () => {
  // The counter lives outside the repository: the checks run in a clean checkout of each tree.
  const state = await checkStateDir();
  const counter = join(state, 'flappy');
  const flappy = `n=$(cat ${counter} 2>/dev/null || echo 0); echo $((n+1)) > ${counter}; [ "$n" -ge 1 ]`;
  const repo = await makeRepo({
    'phuc-loop.yml': config({
      criteria: [
        { id: 'flappy', run: flappy },
        { id: 'slow', run: 'sleep 5' },
      ],
      agent: agent('busy.mjs'),
      writable: [state],
      extra: 'budget:\n  max_iterations: 1\n',
    })
      .replace('    timeout_seconds: 60\n  - id: slow', '    timeout_seconds: 60\n    retries: 2\n  - id: slow')
      .replace(/(id: slow\n.*\n) {4}timeout_seconds: 60/, '$1    timeout_seconds: 1\n    retries: 2'),
    'NORTHSTAR.md': NORTHSTAR,
    'src/busy.txt': '',
  });
  await cli(repo, ['run']);
  const checks = (await readJson<any>(join(repo, 'evidence/loop/iter_0/checks.json'))).checks;
  // The baseline run consumed the flappy check's first failure and its retry passed; by iteration 0 it passes at once.
  const baseline = await readFile(join(repo, 'evidence/loop/baseline/checks/flappy.log'), 'utf8');
  expect(baseline).toContain('(attempt 2)');
  expect(checks.find((c: { id: string }) => c.id === 'flappy')).toMatchObject({ met: true, attempts: 1, failure_kind: null });
  expect(checks.find((c: { id: string }) => c.id === 'slow')).toMatchObject({ met: false, timed_out: true, attempts: 1, failure_kind: 'timeout' });
  const plan = await readJson<any>(join(repo, 'evidence/loop/plan.json'));
  expect(plan.baseline.criteria.find((c: { id: string }) => c.id === 'flappy').met).toBe(true);
  const history = JSON.parse((await readFile(join(repo, 'evidence/loop/history.jsonl'), 'utf8')).trim().split('\n')[0]);
  expect(history.blocker_class).toBe('evidence_path_blocked');
  await rm(state, { recursive: true, force: true });
});

describe('input-hash reruns', () => {
  const files = () => ({
    'phuc-loop.yml': config({
      criteria: [
        { id: 'a', run: 'grep -qx ok a.txt' },
        { id: 'b', run: 'grep -qx ok b.txt' },
      ],
      agent: agent('inputs-fixer.mjs'),
      rung: 274177,
    })
      .replace('    run: "grep -qx ok a.txt"\n', '    run: "grep -qx ok a.txt"\n    inputs: [a.txt]\n')
      .replace('    run: "grep -qx ok b.txt"\n', '    run: "grep -qx ok b.txt"\n    inputs: [b.txt]\n'),
    'NORTHSTAR.md': NORTHSTAR,
    'a.txt': 'broken\n',
    'b.txt': 'broken\n',
  });

  test('a pass is reused (linked, not re-run) while its inputs are unchanged; the replays still run it', async () => {
    const repo = await makeRepo(files());
    const r = await cli(repo, ['run']);
    expect(r.code).toBe(0);
    const checks = (await readJson<any>(join(repo, 'evidence/loop/iter_1/checks.json'))).checks;
    const a = checks.find((c: { id: string }) => c.id === 'a');
    expect(a).toMatchObject({ met: true, reused_from_iteration: 0, attempts: 0 });
    expect(a.evidence).toMatch(/^iter_0\/checks\/a\.log#/);
    expect(await exists(join(repo, 'evidence/loop/iter_1/checks/a.log'))).toBe(false);
    expect(await exists(join(repo, 'evidence/loop/iter_1/replay_1/checks/a.log'))).toBe(true);
    const capsule = await readJson<any>(join(repo, 'evidence/loop/iter_1/cnf_capsule.json'));
    expect(capsule.current_state_summary.reusable_passes).toEqual([expect.objectContaining({ criterion: 'a', from: 'iteration 0' })]);
    expect((await cli(repo, ['verify'])).code).toBe(0);

    // Unchanged inputs since a terminal exit: a new commit elsewhere changes nothing to check.
    await writeFile(join(repo, 'notes.md'), 'unrelated\n');
    await git(repo, 'add', 'notes.md');
    await git(repo, 'commit', '-qm', 'notes');
    const again = await cli(repo, ['run']);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(
      /nothing to do: the last run ended EXIT_CONVERGED\(EXACT\) at [0-9a-f]{12} and the inputs of every criterion are unchanged since/,
    );
  });

  test('a change to its inputs invalidates the pass: the check runs again', async () => {
    const repo = await makeRepo(files());
    const r = await cli(repo, ['run'], { PHUC_TEST_TOUCH_A: '1' });
    expect(r.code).toBe(0);
    const checks = (await readJson<any>(join(repo, 'evidence/loop/iter_1/checks.json'))).checks;
    expect(checks.find((c: { id: string }) => c.id === 'a')).toMatchObject({ met: true, reused_from_iteration: null, attempts: 1 });
    expect(await exists(join(repo, 'evidence/loop/iter_1/checks/a.log'))).toBe(true);
  });
});

test('a mission-context file frames the prompt as advisory only, and is protected from the agent', async () => {
  const repo = await makeRepo({
    'phuc-loop.yml': config({
      criteria: [{ id: 'bug1', run: 'grep -q fixed-1 src/status.txt' }],
      agent: agent('fixer.mjs'),
      extra: 'mission_context: docs/ethos/ideology.json\n',
    }),
    'NORTHSTAR.md': NORTHSTAR,
    'src/status.txt': '',
    'docs/ethos/ideology.json': '{"mission": "Make arithmetic trustworthy for everyone."}\n',
  });
  expect((await cli(repo, ['run'])).code).toBe(0);
  const prompt = await readFile(join(repo, 'evidence/loop/iter_0/prompt.md'), 'utf8');
  expect(prompt).toContain('## Mission context');
  expect(prompt).toContain('Make arithmetic trustworthy for everyone.');
  expect(prompt).toContain('Ideology context is advisory only and cannot override evidence gates, guardrails, or completion criteria.');
  const plan = await readJson<any>(join(repo, 'evidence/loop/plan.json'));
  expect(plan.protected).toContain('docs/ethos/ideology.json');
});
