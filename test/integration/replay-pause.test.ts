// A stop during the final confirmation replay of a certified commit (SPEC backpressure row, §7) is a
// pause: the interrupted replay is never scored (no "DIFFERS", no CONFIRMATION_FAILED), the run ends
// EXIT_BLOCKED(BACKPRESSURE_SIGNAL), and the next `run` confirms the commit again and converges.
// Real CLI, real repos; the check blocks inside the replay's fresh checkout until the test stops it.
import { existsSync } from 'node:fs';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { checkStateDir, cli, config, makeRepo, NORTHSTAR, readJson, startCli, until } from '../helpers/repo.js';

const AGENT = `echo fixed > src/status.txt
echo '{"tried":["fix"],"claims":["done"],"failures":[],"open_questions":[],"can_further_iteration_help":false}' > "$PHUC_REPORT_FILE"
`;

/** A repo whose check, in the final replay's fresh checkout, marks `replay-started` and waits (at most 60 s) for `release`. */
async function replayRepo(state: string): Promise<string> {
  const check = `#!/bin/sh
case "$PWD" in */fresh/*)
  [ -f ${state}/release ] || { touch ${state}/replay-started; i=0; while [ ! -f ${state}/release ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done; } ;;
esac
grep -qx fixed src/status.txt
`;
  return makeRepo({
    'phuc-loop.yml': config({ criteria: [{ id: 'tests', run: 'sh test/check.sh' }], agent: 'sh agent.sh', writable: [state] }),
    'NORTHSTAR.md': NORTHSTAR,
    'agent.sh': AGENT,
    'test/check.sh': check,
    'src/status.txt': 'broken\n',
  });
}

const report = (repo: string) => readJson<Record<string, any>>(join(repo, 'evidence/loop/halting_report.json'));

async function expectPausedThenConverges(repo: string, state: string, first: { code: number | null; stdout: string; stderr: string }) {
  const out = first.stdout + first.stderr;
  expect(out).toMatch(/replay 1\/1: stopped before it ended — not scored/);
  expect(out).not.toMatch(/DIFFERS|CONFIRMATION_FAILED/);
  expect(first.code).toBe(12);
  expect(await report(repo)).toMatchObject({ status: 'EXIT_BLOCKED', stop_reason: 'BACKPRESSURE_SIGNAL' });
  // The interrupted replay left no scored result in the evidence.
  const iter0 = join(repo, 'evidence/loop/iter_0');
  expect(existsSync(join(iter0, 'replay_1/result.json'))).toBe(false);
  expect((await cli(repo, ['verify'])).code).toBe(0);
  await writeFile(join(state, 'release'), '');
  const next = await cli(repo, ['run']);
  expect(next.stdout + next.stderr).not.toMatch(/nothing to do/);
  expect(next.stdout + next.stderr).toMatch(/halt: EXIT_CONVERGED\(EXACT\)/);
  expect(next.code).toBe(0);
  expect(await report(repo)).toMatchObject({ status: 'EXIT_CONVERGED' });
  expect((await cli(repo, ['verify'])).code).toBe(0);
  expect((await readdir(iter0)).length).toBeGreaterThan(0);
}

test('SIGTERM during the final confirmation replay pauses; the next run confirms again and converges', async () => {
  const state = await checkStateDir();
  try {
    const repo = await replayRepo(state);
    const run = startCli(repo, ['run']);
    await until(() => existsSync(join(state, 'replay-started')), 90_000, 'the final replay to start');
    run.child.kill('SIGTERM');
    await expectPausedThenConverges(repo, state, await run.done);
  } finally {
    await rm(state, { recursive: true, force: true });
  }
});

test('a STOP file during the final confirmation replay pauses; removed, the next run converges', async () => {
  const state = await checkStateDir();
  try {
    const repo = await replayRepo(state);
    const run = startCli(repo, ['run', '--poll-ms', '100']);
    await until(() => existsSync(join(state, 'replay-started')), 90_000, 'the final replay to start');
    await mkdir(join(repo, 'scratch'), { recursive: true });
    await writeFile(join(repo, 'scratch/STOP'), '');
    const first = await run.done;
    await rm(join(repo, 'scratch/STOP'));
    await expectPausedThenConverges(repo, state, first);
  } finally {
    await rm(state, { recursive: true, force: true });
  }
});

test('a commit the fresh checkout does not confirm: EXIT_BLOCKED(CONFIRMATION_FAILED), and verify says the run certifies no commit', async () => {
  // Passes in the check workspace, fails in the final replay's fresh checkout (code that looks at where it runs).
  const repo = await makeRepo({
    'phuc-loop.yml': config({ criteria: [{ id: 'tests', run: 'sh test/check.sh' }], agent: 'sh agent.sh' }),
    'NORTHSTAR.md': NORTHSTAR,
    'agent.sh': AGENT,
    'test/check.sh': '#!/bin/sh\ncase "$PWD" in */fresh/*) exit 1 ;; esac\ngrep -qx fixed src/status.txt\n',
    'src/status.txt': 'broken\n',
  });
  const r = await cli(repo, ['run']);
  expect(r.stdout + r.stderr).toMatch(/halt: EXIT_BLOCKED\(CONFIRMATION_FAILED\)/);
  expect(r.code).toBe(12);
  const v = await cli(repo, ['verify']);
  expect(v.code).toBe(0); // the evidence is intact: it records a run that certifies nothing
  expect(v.stdout).toContain('the run halted EXIT_BLOCKED(CONFIRMATION_FAILED): it certifies no commit (its last certificate, EXACT, is no claim)');
  expect(v.stdout).not.toMatch(/certified commit/);
  // Its rerun path is not the loop's fresh checkout, so the rerun agrees with the last certificate;
  // it still names it as no claim.
  const rerun = await cli(repo, ['verify', '--rerun']);
  expect(rerun.stdout).toContain('it certifies no commit');
  expect(rerun.stdout).toContain("a fresh checkout of the last certificate's commit gives the certificate's outcome");
  expect(rerun.stdout).not.toMatch(/certified commit/);
});
