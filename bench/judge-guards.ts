// Benchmark: what the two per-round guards of judging cost (issue 29), with real processes on a real
// repository. The runner canary: one more run of a passing criterion's command, with the loop's
// failing test beside the suite (node --test here; its cost is the suite's run time, whatever the
// runner). The tree comparison: every tracked file of the check workspace read by content after
// each check (judge/tracked-tree.ts), for a tree of BENCH_FILES files. Prints figures; asserts nothing.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Criterion } from '../src/engine/config/config.js';
import { runCanaries } from '../src/engine/judge/canary.js';
import type { CheckResult } from '../src/engine/judge/checks.js';
import { changedPaths, parseStaged, readTracked } from '../src/engine/judge/tracked-tree.js';
import { NodeProcessRunner } from '../src/engine/os/process.js';

const FILES = Number(process.env.BENCH_FILES ?? 5000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const exec = promisify(execFile);
const repo = await mkdtemp(join(tmpdir(), 'phuc-bench-guards-'));
// A source tree of FILES small files (1 KiB each) and a node:test suite of 10 files.
for (let i = 0; i < FILES; i++) {
  const dir = join(repo, 'src', `m${i % 50}`);
  if (i < 50) await mkdir(dir, { recursive: true });
  await writeFile(join(dir, `f${i}.mjs`), `export const v${i} = ${i};\n${'// filler\n'.repeat(100)}`);
}
await mkdir(join(repo, 'test'));
for (let i = 0; i < 10; i++)
  await writeFile(
    join(repo, 'test', `t${i}.test.mjs`),
    `import test from 'node:test';\nimport assert from 'node:assert';\nimport { v${i} } from '../src/m${i % 50}/f${i}.mjs';\ntest('v${i}', () => assert.equal(v${i}, ${i}));\n`,
  );
for (const args of [
  ['init', '-q', '-b', 'main'],
  ['add', '-A'],
  ['-c', 'user.name=b', '-c', 'user.email=b@b', 'commit', '-qm', 'init'],
])
  await exec('git', args, { cwd: repo });

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x: number) => `${x.toFixed(1)} ms`;

// The tree comparison: the listing once per round (git ls-files -s), then a reading after each check.
const listing: number[] = [];
const reading: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  const t0 = performance.now();
  const entries = parseStaged((await exec('git', ['ls-files', '-s', '-z'], { cwd: repo, maxBuffer: 1 << 28 })).stdout);
  const t1 = performance.now();
  const before = readTracked(repo, entries);
  const t2 = performance.now();
  if (changedPaths(before, readTracked(repo, entries)).length) throw new Error('the tree changed under the benchmark');
  listing.push(t1 - t0);
  reading.push(t2 - t1);
}

// The canary: the criterion's command once (the check itself), then once with the canary.
const runner = new NodeProcessRunner();
const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: repo };
const criterion = { id: 'tests', run: 'node --test test/', timeout_seconds: 120 } as Criterion;
const passed = { id: 'tests', met: true, reused_from_iteration: null } as CheckResult;
const files = (await exec('git', ['ls-files'], { cwd: repo, maxBuffer: 1 << 28 })).stdout.split('\n').filter(Boolean);
const suite: number[] = [];
const canary: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  const check = await runner.run({ command: criterion.run, cwd: repo, env, timeoutMs: 120_000 });
  if (check.exitCode !== 0) throw new Error(`the suite failed: ${check.stderr}`);
  suite.push(check.durationMs);
  const t0 = performance.now();
  const [outcome] = await runCanaries([criterion], [passed], { runner, cwd: repo, env, files, protectedGlobs: ['test/**'] });
  canary.push(performance.now() - t0);
  if (outcome.outcome !== 'failed') throw new Error(`the canary ${outcome.outcome}`);
}
await rm(repo, { recursive: true, force: true });

console.log(`judging guards per round (${ROUNDS} rounds, medians; real processes):`);
console.log(
  `  tree comparison, ${FILES + 10} tracked files: listing (git ls-files -s) ${ms(median(listing))} once per round, reading by content ${ms(median(reading))} after each check`,
);
console.log(
  `  runner canary (node:test, 10-file suite): ${ms(median(canary))} per passing criterion, beside the suite's own run of ${ms(median(suite))} (x${(median(canary) / median(suite)).toFixed(2)})`,
);
