#!/usr/bin/env node
// The demo: copies examples/calculator (three failing checks) into a fresh git repository and runs
// the real CLI with a deterministic example agent to EXIT_CONVERGED, then verifies the evidence.
import { execFile } from 'node:child_process';
import { cp, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));
const cli = join(here, '..', 'dist', 'cli', 'index.js');
const repo = join(await mkdtemp(join(tmpdir(), 'phuc-loop-demo-')), 'calculator');
await cp(join(here, 'calculator'), repo, { recursive: true });
for (const args of [
  ['init', '-q', '-b', 'main'],
  ['add', '-A'],
  ['-c', 'user.name=demo', '-c', 'user.email=demo@example.com', 'commit', '-q', '-m', 'calculator with three bugs'],
])
  await run('git', args, { cwd: repo });
console.log(`demo repository: ${repo}\n`);

const step = (args) =>
  new Promise((resolve) => {
    const child = execFile(process.execPath, [cli, ...args], { cwd: repo }, () => {});
    child.stdout.pipe(process.stdout);
    child.stderr.pipe(process.stderr);
    child.on('exit', (code) => resolve(code));
  });

const code = await step(['run']);
console.log('');
const verified = await step(['verify']);
console.log(`\nrun exited ${code}${code === 0 ? ' (EXIT_CONVERGED)' : ''}; verify exited ${verified}. Evidence: ${join(repo, 'evidence/loop')}`);
console.log(`See the report: (cd ${repo} && node ${cli} report)`);
process.exitCode = code === 0 && verified === 0 ? 0 : 1;
