// Benchmark: wall time saved by input-hash reuse on a loop with several slow criteria. Four
// criteria of ~0.5 s each, each with its own input file; the agent fixes one file per iteration.
// Without `inputs` every check runs every iteration; with them a pass is reused while its input is
// unchanged. Runs the built CLI (npm run build first) on real repositories. Prints figures only.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const exec = promisify(execFile);
const CLI = join(import.meta.dirname, '..', 'dist', 'cli', 'index.js');
const N = 4;
const SLEEP = process.env.BENCH_SLEEP ?? '0.5';
const AGENT = `const fs=require('fs');const i=Number(process.env.PHUC_ITERATION);fs.writeFileSync('f'+(i+1)+'.txt','ok\\n');fs.writeFileSync(process.env.PHUC_REPORT_FILE,JSON.stringify({tried:['fixed f'+(i+1)]}))`;

async function loop(withInputs: boolean): Promise<{ seconds: number; checkSeconds: number; runs: number; reused: number }> {
  const repo = await mkdtemp(join(tmpdir(), 'phuc-bench-reuse-'));
  const criteria = Array.from({ length: N }, (_, k) =>
    [`  - id: c${k + 1}`, `    run: sleep ${SLEEP}; grep -qx ok f${k + 1}.txt`, ...(withInputs ? [`    inputs: [f${k + 1}.txt]`] : [])].join('\n'),
  );
  await writeFile(join(repo, 'agent.cjs'), AGENT);
  await writeFile(
    join(repo, 'phuc-loop.yml'),
    `version: 2\ngoal: fix every file\nacceptance_criteria:\n${criteria.join('\n')}\ncertificates: [EXACT]\nrung_target: 641\nbudget:\n  max_iterations: ${N + 1}\nagent:\n  use: command\n  run: node agent.cjs\nprotected: [agent.cjs]\n`,
  );
  await writeFile(
    join(repo, 'NORTHSTAR.md'),
    '| id | metric | current | target | measure |\n|---|---|---|---|---|\n| residual | failing | 4 | 0 | residual |\n',
  );
  for (let k = 1; k <= N; k++) await writeFile(join(repo, `f${k}.txt`), 'broken\n');
  for (const args of [
    ['init', '-q', '-b', 'main'],
    ['add', '-A'],
    ['-c', 'user.name=b', '-c', 'user.email=b@b', 'commit', '-qm', 'init'],
  ])
    await exec('git', args, { cwd: repo });
  const t0 = performance.now();
  await exec(process.execPath, [CLI, 'run'], { cwd: repo }).catch((e: unknown) => {
    throw new Error(`the loop did not converge:\n${(e as { stdout?: string }).stdout ?? String(e)}`);
  });
  const seconds = (performance.now() - t0) / 1000;
  let checkMs = 0;
  let runs = 0;
  let reused = 0;
  for (let i = 0; i < N; i++) {
    const { checks } = JSON.parse(await readFile(join(repo, `evidence/loop/iter_${i}/checks.json`), 'utf8')) as {
      checks: { duration_ms: number; reused_from_iteration: number | null }[];
    };
    for (const c of checks) {
      checkMs += c.duration_ms;
      if (c.reused_from_iteration === null) runs++;
      else reused++;
    }
  }
  return { seconds, checkSeconds: checkMs / 1000, runs, reused };
}

const without = await loop(false);
const withReuse = await loop(true);
console.log(`input-hash reuse — ${N} criteria of ~${SLEEP} s, one fixed per iteration, ${N} iterations to EXACT`);
console.log(`without inputs: ${without.seconds.toFixed(1)} s wall, ${without.checkSeconds.toFixed(1)} s in checks, ${without.runs} check runs`);
console.log(
  `with inputs:    ${withReuse.seconds.toFixed(1)} s wall, ${withReuse.checkSeconds.toFixed(1)} s in checks, ${withReuse.runs} check runs, ${withReuse.reused} reused`,
);
console.log(`saved: ${(without.seconds - withReuse.seconds).toFixed(1)} s wall (${(100 * (1 - withReuse.seconds / without.seconds)).toFixed(0)}%)`);
