// A pause at each moment of a run of the Action (SPEC §7: a stop is a pause): during the baseline
// checks, while the agent runs (before and after it changed something), during an iteration's checks
// and while the commit is being pushed. Each time the paused run says so and uploads its evidence,
// nothing is lost, and the next workflow run resumes from the artifact and converges. The moments
// are met, not waited out: the agent, the criteria (test/e2e/fixtures/hold.sh) and a pre-receive
// hook of the origin note where they are in a 0777 folder and hold there until the loop stops them.
import { chmod, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { GitHubEmulator } from '../harness/github-emulator.js';
import { log, showFile } from '../harness/git-origin.js';
import { checkStateDir } from '../helpers/repo.js';
import { debugJob, e2eAgent, loopFiles, REPO, resumesAndConverges, ROOT, runJob, scenario, until, useEmulator } from './helpers.js';

let gh: GitHubEmulator;
useEmulator((g) => (gh = g));

const HOLD = join(ROOT, 'test/e2e/fixtures/hold.sh');

/** Live processes whose command line names `text`. */
async function runningWith(text: string): Promise<string[]> {
  const pids = (await readdir('/proc')).filter((p) => /^\d+$/.test(p));
  const lines = await Promise.all(pids.map((p) => readFile(`/proc/${p}/cmdline`, 'utf8').catch(() => '')));
  return lines.filter((l) => l.includes(text)).map((l) => l.replaceAll('\0', ' '));
}

interface Moment {
  moment: string;
  /** The STOP label (added once the loop is there), or the runner's cancel cascade. */
  stop: 'label' | 'cancel';
  /** What holds the loop there in the first run: the agent (PHUC_TEST_E2E_HOLD), a check round (by its count of fixes), the push. */
  hold: { agent?: 'idle' | 'partial'; check?: number; push?: true };
  /** The event (a line of the events file) that says the loop is there. */
  at: string;
  /** Iterations on record after the pause (the agent's fix of bug 1, committed and pushed, when 1). */
  onRecord: 0 | 1;
}

const MOMENTS: Moment[] = [
  { moment: 'the baseline checks', stop: 'cancel', hold: { check: 0 }, at: 'check 0', onRecord: 0 },
  { moment: 'the agent, before it changed anything', stop: 'label', hold: { agent: 'idle' }, at: 'agent 0', onRecord: 0 },
  { moment: 'the agent, after a partial change', stop: 'label', hold: { agent: 'partial' }, at: 'agent 0', onRecord: 1 },
  { moment: "an iteration's checks", stop: 'cancel', hold: { check: 1 }, at: 'check 1', onRecord: 1 },
  { moment: 'the push', stop: 'cancel', hold: { push: true }, at: 'push 1', onRecord: 1 },
];

test.each(MOMENTS.map((m, i) => ({ ...m, number: 70 + i })))(
  'a pause during $moment ($stop): paused, reported, evidence uploaded, nothing lost; the next run resumes and converges',
  async ({ stop, hold, at, onRecord, number }) => {
    // Written by the agent and check users of the sandbox too.
    const marks = await checkStateDir();
    const events = join(marks, 'events');
    await writeFile(events, '');
    await chmod(events, 0o666);
    const before = `sh ${HOLD} ${marks} check $(grep -c ^fixed- src/status.txt)`;
    const s = await scenario(gh, number, loopFiles(`${e2eAgent('holder.mjs')} ${marks}`, { criteria: 2, before, writable: [marks] }));
    if (hold.check !== undefined) await writeFile(join(marks, 'hold-check'), String(hold.check));
    if (hold.push) {
      await writeFile(join(marks, 'hold-push'), '1');
      const hook = join(s.origin.bareDir, 'hooks/pre-receive');
      await writeFile(hook, `#!/bin/sh\nexec sh ${HOLD} ${marks} push 1\n`);
      await chmod(hook, 0o755);
    }
    const reached = () => until(async () => (await readFile(events, 'utf8')).split('\n').includes(at), 60_000, `the loop to reach "${at}"`);
    const release = () => Promise.all(['hold-check', 'hold-push'].map((f) => rm(join(marks, f), { force: true })));

    const job = await runJob(s, {
      env: hold.agent ? { PHUC_TEST_E2E_HOLD: hold.agent } : {},
      inputs: { 'poll-seconds': '0.5', 'stop-label': 'STOP' },
      onMainStarted: async (h) => {
        await reached();
        expect(await runningWith(marks)).not.toEqual([]);
        if (stop === 'label') return gh.setLabels(REPO, number, ['STOP']);
        const cancelled = h.cancel();
        if (hold.push) {
          // The push goes on once the loop has taken the cancellation in (it ends within the grace).
          await h.waitForOutput(/SIGINT received/);
          await release();
        }
        await cancelled;
      },
    });
    const { main, post } = job;
    if (main.exitCode !== 12) throw new Error(debugJob(job));
    expect(main.outputs).toMatchObject({
      status: 'EXIT_BLOCKED',
      'stop-reason': 'BACKPRESSURE_SIGNAL',
      certificate: 'BACKPRESSURE',
      iterations: String(onRecord),
    });
    // What the loop ran when it stopped (the agent, a held check) was stopped with it. On a busy
    // machine the runner's SIGTERM (7.5 s after SIGINT) may end the step with its last words before
    // the loop has waited for a held check: a sandboxed one then dies with the loop's spawner (bwrap
    // --die-with-parent) just after the exit. A leak would still be there past the deadline.
    await until(async () => (await runningWith(marks)).length === 0, 15_000, 'the processes the loop ran to end with it').catch(async (e: unknown) => {
      throw new Error(`${e instanceof Error ? e.message : String(e)}: ${(await runningWith(marks)).join('\n')}`);
    });
    const paused =
      stop === 'label'
        ? /\*\*Paused:\*\* the `STOP` label is on the pull request\. \*\*To go on:\*\* Remove the `STOP` label, then re-run the job/
        : /\*\*Paused:\*\* the workflow run was cancelled \(SIGINT\)\. \*\*To go on:\*\* Re-run the job/;
    expect(main.summary).toMatch(paused);
    const comments = gh.commentsOn(REPO, number);
    expect(comments).toHaveLength(1);
    expect(comments[0].body).toMatch(/EXIT_BLOCKED \(BACKPRESSURE_SIGNAL\)/);
    expect(comments[0].body).toMatch(paused);
    // The post step uploaded the evidence, report included.
    expect(post?.exitCode).toBe(0);
    const artifact = gh.listArtifacts({ runId: job.run.id })[0];
    expect(comments[0].body).toContain(`/artifacts/${artifact.id}`);
    const files = gh.artifactFiles(artifact.id);
    expect([...files.keys()]).toEqual(expect.arrayContaining(['plan.json', 'state.json', 'halting_report.json']));
    expect(JSON.parse(files.get('halting_report.json')!.toString())).toMatchObject({
      status: 'EXIT_BLOCKED',
      stop_reason: 'BACKPRESSURE_SIGNAL',
    });
    // Nothing lost: the fix the agent made is on the branch; without one, the branch is as it was.
    const commits = await log(s.origin, `pr-${number}`, { since: s.origin.headSha! });
    expect(commits).toHaveLength(onRecord);
    expect(await showFile(s.origin, `refs/heads/pr-${number}`, 'src/status.txt')).toBe(onRecord ? 'bugs: 3\nfixed-1\n' : 'bugs: 3\n');

    await release();
    gh.setLabels(REPO, number, []);
    await resumesAndConverges(s, { onRecord, iterations: 2 });
    await rm(marks, { recursive: true, force: true });
  },
  150_000,
);
