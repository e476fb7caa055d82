// Independent criteria run side by side (issue 33 item 3), with the built CLI on real repositories:
// two criteria that each wait for the other's mark can both pass only when they run at the same
// time; and which of two criteria ends first leaves no trace in the evidence (config order).
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { checkStateDir, cli, config, makeRepo, NORTHSTAR, readJson } from '../helpers/repo.js';

// HEAD already meets the criteria (nothing for Northstar to move), judged again by both replays.
const UNMOVED = { rung: 274177, extra: 'northstar_neutral_reason: the test checks how criteria are scheduled\n' };

// `wait.sh ME OTHER`: leaves its mark in the workspace, then waits (at most 30 s) for the other's.
const WAIT = `touch ".mark-$1"; i=0; while [ ! -e ".mark-$2" ]; do i=$((i + 1)); [ $i -gt 300 ] && exit 1; sleep 0.1; done\n`;

test('two criteria that each wait for the other both pass: they ran side by side', async () => {
  const repo = await makeRepo({
    'phuc-loop.yml': config({
      criteria: [
        { id: 'left', run: 'sh test/wait.sh left right' },
        { id: 'right', run: 'sh test/wait.sh right left' },
      ],
      agent: 'true',
      ...UNMOVED,
    }),
    'NORTHSTAR.md': NORTHSTAR,
    'test/wait.sh': WAIT,
  });
  const r = await cli(repo, ['run']);
  // HEAD meets both: certified without an agent step, both replays agreeing.
  expect(r.stdout).toMatch(/already meets the criteria/);
  expect(r.code).toBe(0);
  const report = await readJson<{ status: string; halting_certificate: { type: string } }>(join(repo, 'evidence/loop/halting_report.json'));
  expect(report).toMatchObject({ status: 'EXIT_CONVERGED', halting_certificate: { type: 'EXACT' } });
});

test('which criterion ends first leaves the certificate and the report byte for byte the same', async () => {
  // order.sh ME OTHER: the one named in the shared state file ends at once, the other after its mark.
  const state = await checkStateDir();
  const order = `touch ".mark-$1"; if [ "$(cat ${state}/first)" != "$1" ]; then i=0; while [ ! -e ".mark-$2-done" ]; do i=$((i + 1)); [ $i -gt 300 ] && exit 1; sleep 0.1; done; fi; touch ".mark-$1-done"\n`;
  const files = {
    'phuc-loop.yml': config({
      criteria: [
        { id: 'alpha', run: 'sh test/order.sh alpha beta' },
        { id: 'beta', run: 'sh test/order.sh beta alpha' },
      ],
      agent: 'true',
      writable: [state],
      ...UNMOVED,
    }),
    'NORTHSTAR.md': NORTHSTAR,
    'test/order.sh': order,
  };
  const runs: { repo: string; out: string }[] = [];
  for (const first of ['beta', 'alpha']) {
    const repo = await makeRepo(files);
    await writeFile(join(state, 'first'), first);
    const r = await cli(repo, ['run']);
    expect(r.code).toBe(0);
    runs.push({ repo, out: r.stdout });
  }
  await rm(state, { recursive: true, force: true });
  const ev = (repo: string, f: string) => readFile(join(repo, 'evidence/loop', f), 'utf8');
  // Commit ids carry the commit time: each checkout has its own, and every hash over them differs.
  const untimed = (t: string) =>
    t
      .replace(/"(commit|tree|judged_tree)": "[0-9a-f]{40}"/g, '"$1": C')
      .replace(/#[0-9a-f]{64}/g, '#H')
      .replace(/"(sha256|previous_certificate_sha256)": "[0-9a-f]{64}"/g, '"$1": H')
      .replace(/"duration_ms": \d+/g, '"duration_ms": D');
  const [a, b] = runs;
  expect(untimed(await ev(a.repo, 'baseline/certificate.json'))).toBe(untimed(await ev(b.repo, 'baseline/certificate.json')));
  const checks = JSON.parse(await ev(a.repo, 'baseline/certificate.json')) as { checklist: { id: string }[] };
  expect(checks.checklist.map((c) => c.id)).toEqual(['alpha', 'beta']);
  const report = async (repo: string) => {
    // Measured durations are evidence too; everything else must match.
    const { total_seconds_elapsed: _t, budget_use: _b, phases: _p, ...rest } = JSON.parse(await ev(repo, 'halting_report.json')) as Record<string, unknown>;
    return untimed(JSON.stringify(rest, null, 2));
  };
  expect(await report(a.repo)).toBe(await report(b.repo));
});

test('the replays run at the same time: each waits for the other to have started', async () => {
  // round.sh: the first round (the baseline) passes alone; a later one leaves its mark and passes
  // only once the baseline's and two replays' marks are there (at most 30 s).
  const state = await checkStateDir();
  const round = `n=$(ls ${state} | wc -l); mktemp ${state}/m.XXXXXX >/dev/null; [ "$n" -eq 0 ] && exit 0; i=0; while [ "$(ls ${state} | wc -l)" -lt 3 ]; do i=$((i + 1)); [ $i -gt 300 ] && exit 1; sleep 0.1; done\n`;
  const repo = await makeRepo({
    'phuc-loop.yml': config({ criteria: [{ id: 'round', run: 'sh test/round.sh' }], agent: 'true', writable: [state], ...UNMOVED }),
    'NORTHSTAR.md': NORTHSTAR,
    'test/round.sh': round,
  });
  const r = await cli(repo, ['run']);
  await rm(state, { recursive: true, force: true });
  expect(r.stdout).toMatch(/replay 1\/2 \(fresh checkout of the commit\): certificate EXACT/);
  expect(r.stdout).toMatch(/replay 2\/2: certificate EXACT, residual 0\n/);
  expect(r.code).toBe(0);
});
