// Benchmark: the loop's own work per iteration (capsule, evidence, hashing, checks bookkeeping,
// certificate, GLOW, AGENTS.md, git add/diff/write-tree/commit), with a no-op agent and a no-op
// check answered in-process, over 200 iterations of a real git repository. Prints figures; asserts
// nothing (targets: median < 50 ms per iteration, flat from iteration 1 to 200, learnings < 8,000 tokens).
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { countTokens } from '../src/engine/memory/agents-md.js';
import { runLoop } from '../src/engine/loop/loop.js';
import { NodeProcessRunner } from '../src/engine/os/process.js';
import type { ProcessRunner, RunResult, RunSpec } from '../src/engine/os/ports.js';

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 200);
const exec = promisify(execFile);
const repo = await mkdtemp(join(tmpdir(), 'phuc-bench-'));
await writeFile(
  join(repo, 'phuc-loop.yml'),
  `version: 2
goal: Benchmark the loop's own work.
acceptance_criteria:
  - id: noop
    run: noop-check
certificates: [EXACT]
# A residual that keeps falling: the loop neither stalls nor gets stuck, it runs to its budget.
residual:
  metric: command
  run: progress
rung_target: 641
budget:
  max_iterations: ${ITERATIONS}
agent:
  use: command
  run: noop-agent
  # The runner below answers the agent, the check and the measure by name: a sandbox would wrap them.
  isolation: none
`,
);
await writeFile(
  join(repo, 'NORTHSTAR.md'),
  '| id | metric | current | target | measure |\n|---|---|---|---|---|\n| progress | work left | 100000 | 0 | progress |\n',
);
await writeFile(join(repo, 'work.txt'), '0\n');
for (const args of [
  ['init', '-q', '-b', 'main'],
  ['add', '-A'],
  ['-c', 'user.name=b', '-c', 'user.email=b@b', 'commit', '-qm', 'init'],
])
  await exec('git', args, { cwd: repo });

/** Real processes for git; the agent, the check and the measure are answered without spawning. */
const real = new NodeProcessRunner();
let work = 0;
const done = (stdout = ''): RunResult => ({ exitCode: 1, signal: null, timedOut: false, aborted: false, stdout, stderr: '', durationMs: 0 });
const runner: ProcessRunner = {
  async run(spec: RunSpec) {
    if (spec.command === 'noop-agent') {
      work++;
      await writeFile(join(repo, 'work.txt'), `${work}\n`);
      await writeFile(
        spec.env.PHUC_REPORT_FILE,
        JSON.stringify({ tried: [`step ${work}`], claims: [], failures: [], open_questions: ['next?'], can_further_iteration_help: true }),
      );
      return { ...done(), exitCode: 0 };
    }
    if (spec.command === 'noop-check') return done();
    if (spec.command === 'progress') return { ...done(`${100000 - work}\n`), exitCode: 0 };
    const t = performance.now();
    const r = await real.run(spec);
    spawned.push([label(spec), performance.now() - t]);
    return r;
  },
};
const spawned: [string, number][] = [];
/** `git -c k=v … rev-parse --x` (git calls are shell scripts now) → `git rev-parse`. */
const label = (spec: RunSpec) =>
  `${spec.command} ${spec.args?.[0] ?? ''}`
    .replace(/ -c \S+/g, '')
    .replace(/ --?[\w-]+(=\S*)?/g, '')
    .split(' ')
    .slice(0, 2)
    .join(' ');

const marks: number[] = [];
const log = {
  info: (m: string) => {
    if (/^iter \d+: GLOW/.test(m)) marks.push(performance.now());
  },
  warn: () => undefined,
  error: (m: string) => process.stderr.write(m + '\n'),
};
const mem0 = process.memoryUsage().rss;
const t0 = performance.now();
const outcome = await runLoop({ cwd: repo, runner, clock: { monotonicMs: () => performance.now() }, log, env: process.env });
const total = performance.now() - t0;
if (marks.length < 2) throw new Error(`the loop stopped before a second iteration: ${outcome.status}(${outcome.stop_reason})`);
const per = marks.slice(1).map((t, i) => t - marks[i]);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)];
const last = marks.length - 1;
const capsule = (n: number) =>
  readFile(join(repo, `evidence/loop/iter_${n}/cnf_capsule.json`), 'utf8').then(
    (t) => (JSON.parse(t) as { accumulated_learnings: string }).accumulated_learnings,
  );
const first10 = per.slice(0, 10);
const last10 = per.slice(-10);
console.log(`phuc-loop loop overhead — ${marks.length} iterations, no-op agent and check, real git`);
console.log(`outcome: ${outcome.status}(${outcome.stop_reason}) in ${(total / 1000).toFixed(1)} s`);
console.log(
  `per iteration (ms): median ${median(per).toFixed(1)} · p95 ${p95(per).toFixed(1)} · first 10 median ${median(first10).toFixed(1)} · last 10 median ${median(last10).toFixed(1)}`,
);
console.log(
  `learnings in the capsule (cl100k tokens): iteration 1 ${countTokens(await capsule(1))} · iteration ${last} ${countTokens(await capsule(last))} (limit 8000)`,
);
const byCmd = new Map<string, [number, number]>();
for (const [k, ms] of spawned) byCmd.set(k, [(byCmd.get(k)?.[0] ?? 0) + 1, (byCmd.get(k)?.[1] ?? 0) + ms]);
console.log(
  `process spawns through the runner (git calls in the long-lived git shell session are not seen here): ${spawned.length} (${(spawned.length / marks.length).toFixed(1)} per iteration), ${[...byCmd].map(([k, [n, ms]]) => `${k.trim()} ×${n} ${(ms / n).toFixed(1)} ms`).join(' · ')}`,
);
console.log(`rss growth: ${((process.memoryUsage().rss - mem0) / 1048576).toFixed(1)} MiB`);
