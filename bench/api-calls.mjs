#!/usr/bin/env node
// Benchmark: REST API calls per iteration of the Action, measured on the offline GitHub emulator
// (test/harness) with the built dist/ run the way the runner runs it. Target: at most 3 calls per
// iteration plus one per STOP poll while the agent runs.
//
//   npm run build && npx tsx bench/api-calls.mjs [iterations=3] [agent-ms=2500] [poll-seconds=1]
import { startGitHubEmulator } from '../test/harness/github-emulator.js';
import { apiFigure, assertBuilt, e2eAgent, loopFiles, REPO, restCalls, runJob, scenario } from '../test/e2e/helpers.js';

const iterations = Number(process.argv[2] ?? 3);
const agentMs = Number(process.argv[3] ?? 2500);
const pollSeconds = Number(process.argv[4] ?? 1);

assertBuilt();
const gh = await startGitHubEmulator();
gh.addRepo(REPO);
const rows = [];
try {
  const cases = [
    { name: 'first run, fast agent', pr: 51, agentMs: 0, trigger: 'pull_request' },
    { name: `first run, agent works ${agentMs} ms (STOP polled every ${pollSeconds} s)`, pr: 52, agentMs, trigger: 'pull_request' },
  ];
  for (const c of cases) {
    const s = await scenario(gh, c.pr, loopFiles(e2eAgent('slow-fixer.mjs'), { criteria: iterations, maxIterations: iterations + 2 }));
    const job = await runJob(s, { inputs: { 'poll-seconds': String(pollSeconds) }, env: { E2E_AGENT_MS: String(c.agentMs) } });
    if (job.main.outputs.status !== 'EXIT_CONVERGED')
      throw new Error(`${c.name}: ended ${job.main.outputs.status}(${job.main.outputs['stop-reason']})\n${job.main.stdout.slice(-3000)}`);
    const n = Number(job.main.outputs.iterations);
    const calls = restCalls(gh, job.callsBefore);
    rows.push({ case: c.name, iterations: n, ...apiFigure(calls, n), calls });
  }
} finally {
  await gh.close();
}
if (gh.violations.length) throw new Error(`OpenAPI violations: ${JSON.stringify(gh.violations, null, 2)}`);

console.log('REST API calls of one workflow run (main + post), measured on the emulator\n');
console.log('| case | iterations | total | once per run | STOP polls while the agent ran | per iteration (besides polls) | total / iterations |');
console.log('|---|---:|---:|---:|---:|---:|---:|');
for (const r of rows) console.log(`| ${r.case} | ${r.iterations} | ${r.total} | ${r.oncePerRun} | ${r.stopPolls} | ${r.perIteration} | ${r.amortized} |`);
console.log('\nby operation:');
for (const r of rows) console.log(`  ${r.case}: ${JSON.stringify(r.calls)}`);
const worst = Math.max(...rows.map((r) => r.perIteration));
console.log(`\nper iteration: ${worst} call(s) + 1 per STOP poll (target ≤ 3 + polls): ${worst <= 3 ? 'OK' : 'OVER'}`);
process.exitCode = worst <= 3 ? 0 : 1;
