// Loops on one machine never touch each other (issue 32 item 3): two loops from two repositories run
// at once while a third, started beside them, is killed (SIGKILL on its CLI) in the middle of its
// agent's step. The two converge with their evidence verified; the killed one leaves no process
// behind, and a plain re-`run` of it continues and converges. They share the role users, the judge
// root and the sandbox base: a run sweeps only what a dead run left (judge/judge-root.ts).
import { existsSync } from 'node:fs';
import { readdir, readFile, readlink, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { agent, checkStateDir, cli, config, makeRepo, NORTHSTAR, readJson, startCli, until } from '../helpers/repo.js';
import { isolationFacts } from '../helpers/isolation.js';

const facts = await isolationFacts();
const ROOT = process.getuid?.() === 0;
const LEVEL = ROOT && facts.userPidns === null ? 'user+pidns' : 'none';

const CRITERIA = [
  { id: 'one', run: 'grep -q fixed-1 src/status.txt' },
  { id: 'two', run: 'grep -q fixed-2 src/status.txt' },
];

const repoWith = (agentRun: string, writable?: string[]) =>
  makeRepo({
    'phuc-loop.yml': config({ criteria: CRITERIA, agent: agentRun, writable }),
    'NORTHSTAR.md': NORTHSTAR,
    'src/status.txt': 'start\n',
  });

test(`two loops from two repositories at once, and a third killed mid-step, keep their evidence and verdicts (${LEVEL})`, async () => {
  const state = await checkStateDir();
  // The third's agent: on its first step it says it started and works on (to be killed there);
  // once the test marks the kill, it fixes as the others do.
  const gated = `if [ -e ${state}/killed ]; then ${agent('fixer.mjs')}; else echo partial > src/partial.txt; touch ${state}/started; sleep 120; fi`;
  const repos = [await repoWith(agent('fixer.mjs')), await repoWith(agent('fixer.mjs')), await repoWith(gated, [state])];
  try {
    const args = ['run', '--isolation', LEVEL];
    const [a, b, c] = repos.map((r) => startCli(r, args));
    await until(() => existsSync(join(state, 'started')), 60_000, "the third loop's agent to start");
    c.child.kill('SIGKILL');
    const killed = await c.done;
    expect(killed.code).toBeNull();
    await writeFile(join(state, 'killed'), '');
    // Nothing of the killed step outlives its loop (the agent's namespace dies with it).
    await until(async () => (await gatedAgent(state, repos[2])).length === 0, 30_000, "the killed loop's agent to end");

    for (const [i, run] of [a, b].entries()) {
      const r = await run.done;
      expect([i, r.code, r.stdout.slice(-1500)]).toEqual([i, 0, expect.stringMatching(/halt: EXIT_CONVERGED/)]);
    }
    // The killed loop continues where its evidence stops and converges too.
    const again = await cli(repos[2], args);
    expect([again.code, again.stdout.slice(-1500)]).toEqual([0, expect.stringMatching(/halt: EXIT_CONVERGED/)]);
    expect(again.stdout).toMatch(/resuming from evidence\/loop/);
    for (const repo of repos) {
      const v = await cli(repo, ['verify']);
      expect([repo, v.code, v.stderr]).toEqual([repo, 0, '']);
      const report = await readJson<{ status: string }>(join(repo, 'evidence/loop/halting_report.json'));
      expect(report.status).toBe('EXIT_CONVERGED');
    }
  } finally {
    await rm(state, { recursive: true, force: true });
    for (const r of repos) await rm(dirname(r), { recursive: true, force: true });
  }
}, 300_000);

/** Live processes of the gated agent (its shell names the state folder; its `sleep` works in the third repository). */
async function gatedAgent(state: string, repo: string): Promise<number[]> {
  const found: number[] = [];
  for (const pid of (await readdir('/proc')).filter((n) => /^\d+$/.test(n))) {
    const [cmd, cwd, stat] = await Promise.all([
      readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => ''),
      readlink(`/proc/${pid}/cwd`).catch(() => ''),
      readFile(`/proc/${pid}/stat`, 'utf8').catch(() => ''),
    ]);
    if (/\) Z /.test(stat)) continue;
    if (cmd.includes(`${state}/started`) || (cmd === 'sleep\0' + '120\0' && cwd.startsWith(repo))) found.push(Number(pid));
  }
  return found;
}
