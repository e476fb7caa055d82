// Benchmark: start-up of the bundles (dist/), as the CPU seconds (the whole process, every thread)
// the Action's main and the CLI's --version have used at their first output, from
// process.cpuUsage() at its first write to stdout; and the CPU of whole starts — main and post without
// inputs or state (main refuses, post has nothing to upload) — beside a bare `node -e 0`; and the
// size of each bundle and of its lazily loaded chunks. Targets (issue 31): main ≤ 0.3 s and
// --version ≤ 0.15 s to the first output. CPU, not wall time: the machine is shared. Prints
// figures; asserts nothing.
//
//   npm run bench:startup
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ROUNDS = Number(process.env['ROUNDS'] ?? 7);

/** The CPU seconds (user + system) of `node args…`, from bash's `times` for its finished child. */
function cpuOf(args: string[], env: Record<string, string>): Promise<number> {
  const quoted = ['node', ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', `${quoted} >/dev/null 2>&1; times`], {
      cwd: ROOT,
      env: { PATH: process.env['PATH'] ?? '', ...env },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', () => {
      // `times`: the shell's user and system time, then its children's.
      const m = /\n(\d+)m([\d.]+)s (\d+)m([\d.]+)s\s*$/.exec(out);
      if (!m) return reject(new Error(`no times in ${JSON.stringify(out)}`));
      resolve(Number(m[1]) * 60 + Number(m[2]) + Number(m[3]) * 60 + Number(m[4]));
    });
  });
}

// Loaded before the program (--import): at the first write to stdout, the process's CPU so far
// (every thread, process.cpuUsage) goes to descriptor 3.
const FIRST_OUTPUT_PROBE = `data:text/javascript,${encodeURIComponent(`import { writeSync } from 'node:fs';
const write = process.stdout.write;
process.stdout.write = function (...a) {
  process.stdout.write = write;
  const u = process.cpuUsage();
  writeSync(3, String((u.user + u.system) / 1e6));
  return write.apply(this, a);
};`)}`;

/** The CPU seconds `node args…` has used when it first writes to stdout. */
function cpuAtFirstOutput(args: string[], env: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', FIRST_OUTPUT_PROBE, ...args], {
      cwd: ROOT,
      env: { PATH: process.env['PATH'] ?? '', ...env },
      stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
    });
    let out = '';
    child.stdio[3]!.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', () => (out ? resolve(Number(out)) : reject(new Error(`node ${args.join(' ')} wrote nothing to stdout`))));
  });
}

async function median(label: string, args: string[], env: Record<string, string> = {}, target?: number, measure: typeof cpuOf = cpuOf): Promise<void> {
  const s: number[] = [];
  for (let i = 0; i < ROUNDS; i++) s.push(await measure(args, env));
  s.sort((a, b) => a - b);
  const m = s[Math.floor(s.length / 2)];
  console.log(`${label.padEnd(44)} ${m.toFixed(3).padStart(7)} s CPU (median of ${ROUNDS})${target ? `  target ≤ ${target} s` : ''}`);
}

function sizes(dir: string): void {
  const files = readdirSync(join(ROOT, dir)).filter((f) => /\.m?js$/.test(f));
  const mb = (f: string) => (statSync(join(ROOT, dir, f)).size / 1e6).toFixed(2);
  console.log(`${dir.padEnd(12)} ${files.map((f) => `${f} ${mb(f)} MB`).join(', ')}`);
}

for (const d of ['dist/main', 'dist/post', 'dist/cli']) sizes(d);
// A runner-like step environment without inputs: main refuses at once (no token), post finds no state.
const step = { RUNNER_TEMP: '/tmp', GITHUB_ACTIONS: 'true' };
await median('node -e 0 (the floor)', ['-e', '0']);
await median("the Action's main, to its first output", ['dist/main/index.js'], step, 0.3, cpuAtFirstOutput);
await median('phuc-loop --version, to its first output', ['dist/cli/index.js', '--version'], {}, 0.15, cpuAtFirstOutput);
await median("the Action's main, to its end (refusing)", ['dist/main/index.js'], step);
await median("the Action's post, to its end (no state)", ['dist/post/index.js'], step);
await median('phuc-loop --version, to its end', ['dist/cli/index.js', '--version']);
