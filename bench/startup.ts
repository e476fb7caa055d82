// Benchmark: start-up of the bundles (dist/), as CPU seconds of a start that ends at its first output —
// the Action's main and post without inputs or state (main refuses, post has nothing to upload) and
// the CLI's --version — beside a bare `node -e 0`; and the size of each bundle and of its lazily
// loaded chunks (the engine, the artifact client). Targets (issue 31): main ≤ 0.3 s, --version ≤
// 0.15 s. CPU, not wall time: the machine is shared. Prints figures; asserts nothing.
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

async function median(label: string, args: string[], env: Record<string, string> = {}, target?: number): Promise<void> {
  const s: number[] = [];
  for (let i = 0; i < ROUNDS; i++) s.push(await cpuOf(args, env));
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
await median("the Action's main, to its first output", ['dist/main/index.js'], step, 0.3);
await median("the Action's post, to its end (no state)", ['dist/post/index.js'], step);
await median('phuc-loop --version', ['dist/cli/index.js', '--version'], {}, 0.15);
