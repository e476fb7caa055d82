// Benchmark: the loop's cost per iteration with real processes, against the shell floor (issue 12,
// "Speed"). The built CLI (`node dist/cli/index.js run`) runs on a small temporary git repository
// with a scripted agent (one small change and a report per iteration), one criterion that never
// passes (`test -f x`), a residual command and a Northstar row that follows the residual. A plain
// shell script that starts the same processes per iteration (the agent, the check, the residual,
// `git status`, `git add -A`, `git commit`) runs in the same bench, interleaved with the loop runs.
//
// Why the loop runs to its budget: the residual (work left) falls by one every iteration, so no
// STALLED, no repeated failure without progress (no detour, no STUCK), no divergence, and the
// Northstar distance falls (W > 0, no NORTHSTAR_DRIFT); `failing_criteria` would stay at 1 and
// stall out (stall_iterations is at most 100). The certificates are EXACT only and the residual
// never reaches 0, so the only exit left is MAX_ITERS. The residual names the folder `work`, not
// the file the agent changes: a file a residual command names is protected from the agent.
//
// Per iteration: the median interval between consecutive `iter N: GLOW` lines of the CLI (time of
// arrival on its stdout), and wall/N (which also holds the CLI's start, the baseline and the final
// audits). The floor prints one line per iteration with the shell's builtin echo (no extra process).
// The CLI is copied once at the start, so a rebuild of dist/ during the bench does not mix builds.
// Prints figures; asserts nothing (target: at most 2.5× the floor at N = 200, flat in N).
//
// The network policy's cost is the same loop (clean workspace) with agent.network and checks.network open.
// A change's effect: BENCH_FLOOR_BEFORE names a copy of dist/ made before it; its loops run too,
// interleaved with this build's (same load), marked "before".
//
//   npm run bench:floor     env: BENCH_FLOOR_N=10,50,200 BENCH_FLOOR_ISOLATION=none,user+pidns BENCH_FLOOR_ROUNDS=1
//                                BENCH_FLOOR_WORKSPACES=live,clean BENCH_FLOOR_NET_OPEN=1
//                                BENCH_FLOOR_BEFORE=/path/to/an/earlier/dist
import { execFile, spawn } from 'node:child_process';
import { access, chmod, cp, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const BUILT = join(import.meta.dirname, '..', 'dist', 'cli');
const SIZES = (process.env.BENCH_FLOOR_N ?? '10,50,200').split(',').map(Number);
const ROOT = process.getuid?.() === 0;
// user+pidns needs root (or passwordless sudo, which this bench does not assume).
const ISOLATIONS = (process.env.BENCH_FLOOR_ISOLATION ?? (ROOT ? 'none,user+pidns' : 'none')).split(',');
const WORKSPACES = (process.env.BENCH_FLOOR_WORKSPACES ?? 'live,clean').split(',');
/** Whether the loop runs with the network open too (the policy's cost); BENCH_FLOOR_NET_OPEN=0 leaves those runs out on a busy day. */
const NET_OPEN = process.env.BENCH_FLOOR_NET_OPEN !== '0';
const ROUNDS = Number(process.env.BENCH_FLOOR_ROUNDS ?? 1);
/** What the loop's sandbox adds around the agent, the check and the residual: bubblewrap's PID, IPC and mount namespaces with their own /proc. */
const PIDNS = 'bwrap --die-with-parent --unshare-pid --unshare-ipc --dev-bind / / --proc /proc --';

const AGENT = `#!/bin/sh
# One small change per iteration: one less unit of work left; and the report the loop reads.
n=$(($(cat work/left) - 1))
echo "$n" > work/left
printf '{"tried":["step %s"],"claims":[],"failures":[],"open_questions":[],"can_further_iteration_help":true}\\n' "$n" > "$PHUC_REPORT_FILE"
`;

/**
 * The same processes as one loop iteration, started by sh: agent.run, the criterion and the residual
 * are shell commands (`sh -c`, as the loop starts them); `$WRAP` is empty or the PID namespace wrapper.
 */
const FLOOR = `#!/bin/sh
i=0
while [ "$i" -lt "$N" ]; do
  PHUC_REPORT_FILE="$REPORT" $WRAP sh -c 'sh "$AGENT"'
  $WRAP sh -c 'test -f x'
  $WRAP sh -c 'cat work/*' > /dev/null
  git status --porcelain > /dev/null
  git add -A
  git commit -q -m "iteration $i"
  echo "iter $i"
  i=$((i + 1))
done
`;

const config = (n: number, workspace: string, isolation: string, agent: string, network: 'policy' | 'open') => `version: 2
goal: Benchmark the loop's cost per iteration with real processes.
acceptance_criteria:
  - id: x
    run: test -f x
certificates: [EXACT]
residual:
  metric: command
  run: cat work/*
rung_target: 641
stall_iterations: 100
budget:
  max_iterations: ${n}
agent:
  use: command
  run: sh ${agent}
  isolation: ${isolation}
${network === 'open' ? '  network: open\n' : ''}checks:
  workspace: ${workspace}
${network === 'open' ? '  network: open\n' : ''}`;

interface Timed {
  code: number | null;
  wallMs: number;
  /** User + system CPU time of the command and every process it waited for (the shell's `times`). */
  cpuMs: number;
  /** Arrival time of each stdout line matching the mark. */
  marks: number[];
  lines: string[];
  /** The command's stderr (the shell's `times` at its end). */
  stderr: string;
}

/** Runs a command and timestamps each stdout line matching `mark` as it arrives. */
function timed(argv: string[], cwd: string, env: NodeJS.ProcessEnv, mark: RegExp): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    // CPU time is what a busy machine does not inflate (much): wall time includes waiting for a core.
    const child = spawn('sh', ['-c', '"$@"; s=$?; times >&2; exit $s', 'sh', ...argv], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const marks: number[] = [];
    const lines: string[] = [];
    let partial = '';
    child.stdout.on('data', (d: Buffer) => {
      const now = performance.now();
      const parts = (partial + d.toString()).split('\n');
      partial = parts.pop() ?? '';
      for (const line of parts) {
        lines.push(line);
        if (mark.test(line)) marks.push(now);
      }
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = performance.now() - t0;
      const children = /(\d+)m([\d.]+)s (\d+)m([\d.]+)s\s*$/.exec(stderr);
      if (!children || (code !== 0 && marks.length === 0)) reject(new Error(`${argv.join(' ')} failed (exit ${code}):\n${stderr.slice(-2000)}`));
      else
        resolve({
          code,
          wallMs,
          cpuMs: (Number(children[1]) * 60 + Number(children[2]) + Number(children[3]) * 60 + Number(children[4])) * 1000,
          marks,
          lines,
          stderr,
        });
    });
  });
}

/**
 * The runs' folders, removed when the bench ends, not between runs: ext4 without a journal (this
 * kind of VM) skips inodes freed in the last minutes when it makes a file, one by one, so removing
 * a run's few thousand files would tax every file the next run creates (the loop makes some 50 an
 * iteration, the floor 10) with what is no part of either.
 */
const leftovers: string[] = [];

const exec = promisify(execFile);
const git = (cwd: string, ...args: string[]) => exec('git', args, { cwd });

/** A repository holding the work counter, under a 0755 folder the sandbox users can traverse; the agent script beside it. */
async function workspace(withConfig: ((agent: string) => string) | null): Promise<{ base: string; repo: string; agent: string }> {
  const base = await mkdtemp(join(tmpdir(), 'phuc-bench-floor-'));
  await chmod(base, 0o755);
  const repo = join(base, 'repo');
  const agent = join(base, 'agent.sh');
  await mkdir(repo);
  await writeFile(agent, AGENT);
  await mkdir(join(repo, 'work'));
  await writeFile(join(repo, 'work', 'left'), '1000000\n');
  if (withConfig) {
    await writeFile(join(repo, 'phuc-loop.yml'), withConfig(agent));
    await writeFile(
      join(repo, 'NORTHSTAR.md'),
      '| id | metric | current | target | measure |\n|---|---|---|---|---|\n| left | work left | 1000000 | 0 | residual |\n',
    );
  }
  await git(repo, 'init', '-q', '-b', 'main');
  await git(repo, 'config', 'user.name', 'bench');
  await git(repo, 'config', 'user.email', 'bench@example.com');
  await git(repo, 'add', '-A');
  await git(repo, 'commit', '-q', '-m', 'initial');
  return { base, repo, agent };
}

interface Figures {
  name: string;
  /** How each run ended (the CLI's final status), distinct values only. */
  exit: string;
  iterations: number;
  median: number;
  wallPerIteration: number;
  cpuPerIteration: number;
  first10: number;
  last10: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN;
};

/** Intervals pooled over the rounds; wall/N and CPU/N the median over the rounds. */
function figures(name: string, runs: { exit: string; r: Timed }[]): Figures {
  const intervals = runs.map(({ r }) => r.marks.slice(1).map((t, i) => t - r.marks[i]));
  const perRun = (f: (r: Timed) => number) => median(runs.map(({ r }) => f(r) / Math.max(1, r.marks.length)));
  return {
    name,
    exit: [...new Set(runs.map((x) => x.exit))].join(', '),
    iterations: Math.min(...runs.map(({ r }) => r.marks.length)),
    median: median(intervals.flat()),
    wallPerIteration: perRun((r) => r.wallMs),
    cpuPerIteration: perRun((r) => r.cpuMs),
    first10: median(intervals.flatMap((x) => x.slice(0, 10))),
    last10: median(intervals.flatMap((x) => x.slice(-10))),
  };
}

async function floor(n: number, wrap: string): Promise<{ exit: string; r: Timed }> {
  const w = await workspace(null);
  try {
    const script = join(w.base, 'floor.sh');
    await writeFile(script, FLOOR);
    const env = { ...process.env, N: String(n), WRAP: wrap, AGENT: w.agent, REPORT: join(w.base, 'report.json') };
    const r = await timed(['sh', script], w.repo, env, /^iter \d+$/);
    return { exit: r.code === 0 ? '-' : `exit ${r.code}`, r };
  } finally {
    leftovers.push(w.base);
  }
}

async function loop(cli: string, n: number, ws: string, isolation: string, network: 'policy' | 'open'): Promise<{ exit: string; r: Timed }> {
  const w = await workspace((agent) => config(n, ws, isolation, agent, network));
  try {
    const r = await timed([process.execPath, cli, 'run'], w.repo, process.env, /^phuc-loop: iter \d+: GLOW /);
    const exit = r.lines.findLast((l) => /^phuc-loop: EXIT_\w+\(/.test(l))?.replace(/^phuc-loop: (\S+).*$/, '$1') ?? `crash (exit ${r.code})`;
    // An early stop is measured all the same (over the iterations that ran); say why it stopped.
    if (exit !== 'EXIT_BUDGET_EXCEEDED(MAX_ITERS)') {
      // A halt line, or a crash's message on stderr (not its stack, which says only where); else the last lines.
      const why = [...r.lines, ...r.stderr.split('\n')].filter((l) => /GUARDRAIL|INVARIANT|halt:|error/i.test(l) && !/^\s+at /.test(l));
      console.log(
        `      (loop ${ws} ${isolation} net ${network} at N=${n} stopped early: ${(why.length ? why : [...r.lines, ...r.stderr.trim().split('\n').slice(0, -2)]).slice(-3).join(' | ')})`,
      );
    }
    return { exit, r };
  } finally {
    leftovers.push(w.base);
  }
}

/** A copy of a build's CLI (so that a rebuild during the bench does not mix builds), with the programs the sandbox runs. */
async function copyCli(dist: string): Promise<string> {
  const built = join(dist, 'cli');
  try {
    await access(join(built, 'index.js'));
  } catch {
    throw new Error(`${built}/index.js is missing: run npm run build first`);
  }
  const copy = await mkdtemp(join(tmpdir(), 'phuc-bench-cli-'));
  leftovers.push(copy);
  await cp(built, copy, { recursive: true });
  // Found beside the bundle's folder or in it (os/programs.ts); an earlier build may lack a program of today's list (or have one no longer in it).
  for (const name of await readdir(dist)) if (/\.(mjs|pl|sh)$/.test(name)) await cp(join(dist, name), join(copy, name));
  return join(copy, 'index.js');
}
const BUILDS = [
  { mark: '', cli: await copyCli(join(BUILT, '..')) },
  ...(process.env.BENCH_FLOOR_BEFORE ? [{ mark: ' before', cli: await copyCli(process.env.BENCH_FLOOR_BEFORE) }] : []),
];

const ms = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : 'n/a');
const times = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
const load0 = loadavg()[0];
console.log(`phuc-loop per-iteration cost with real processes vs the shell floor (built CLI, ${ROOT ? 'root' : 'not root'}, ${ROUNDS} round(s) per figure)`);
console.log(
  'ms/iter: median interval between iterations · wall/N, cpu/N: whole run (start, baseline, final audits) / iterations; cpu = user+sys of all its processes',
);
console.log(
  `${'N'.padStart(4)}  ${'run'.padEnd(40)}${'exit'.padEnd(32)}${'iters'.padStart(6)}${'ms/iter'.padStart(9)}${'wall/N'.padStart(9)}${'cpu/N'.padStart(9)}` +
    `${'first10'.padStart(9)}${'last10'.padStart(9)}  ratio to the floor (ms/iter, cpu/N)`,
);
const print = (n: number, f: Figures, floors: Figures[]) => {
  const ratio = floors
    .map(
      (fl) => `${times(f.median, fl.median)} ${times(f.cpuPerIteration, fl.cpuPerIteration)}${floors.length > 1 ? ` (${fl.name.replace('shell ', '')})` : ''}`,
    )
    .join(' · ');
  const flat = f.iterations >= 20 ? `${floors.length ? ' · ' : ''}last10/first10 ${(f.last10 / f.first10).toFixed(2)}` : '';
  console.log(
    `${String(n).padStart(4)}  ${f.name.padEnd(40)}${f.exit.padEnd(32)}${String(f.iterations).padStart(6)}${ms(f.median).padStart(9)}${ms(f.wallPerIteration).padStart(9)}` +
      `${ms(f.cpuPerIteration).padStart(9)}${ms(f.first10).padStart(9)}${ms(f.last10).padStart(9)}  ${ratio}${flat}`,
  );
};
const results: { n: number; f: Figures; floors: Figures[] }[] = [];
for (const n of SIZES) {
  // The rounds interleave every kind of run, so a change in the machine's load touches them alike.
  const kinds = [
    { name: 'shell floor', run: () => floor(n, '') },
    ...(ISOLATIONS.some((i) => i !== 'none') ? [{ name: 'shell floor + pidns', run: () => floor(n, PIDNS) }] : []),
    ...BUILDS.flatMap(({ mark, cli }) => [
      ...ISOLATIONS.flatMap((isolation) =>
        WORKSPACES.map((ws) => ({ name: `loop ${ws} ${isolation}${mark}`, run: () => loop(cli, n, ws, isolation, 'policy') })),
      ),
      // The network policy's cost: the same loop with agent.network and checks.network open (no namespace, no forwarder).
      ...ISOLATIONS.filter((i) => i !== 'none' && NET_OPEN).map((isolation) => ({
        name: `loop clean ${isolation} net open${mark}`,
        run: () => loop(cli, n, 'clean', isolation, 'open'),
      })),
    ]),
  ];
  const runs = new Map<string, { exit: string; r: Timed }[]>(kinds.map((k) => [k.name, []]));
  for (let round = 0; round < ROUNDS; round++) for (const k of kinds) runs.get(k.name)?.push(await k.run());
  const byName = new Map(kinds.map((k) => [k.name, figures(k.name, runs.get(k.name) ?? [])]));
  const plain = byName.get('shell floor');
  const pidns = byName.get('shell floor + pidns');
  if (!plain) throw new Error('no floor');
  for (const f of byName.values()) {
    const floors = f === plain ? [] : f === pidns || / none( before)?$/.test(f.name) || !pidns ? [plain] : [plain, pidns];
    print(n, f, floors);
    if (f.name.startsWith('loop ')) results.push({ n, f, floors });
  }
}

// Issue 9's figure: what judging a clean checkout of each commit costs over judging the work tree.
console.log('checks.workspace clean vs live (ms/iter, median):');
for (const n of SIZES)
  for (const isolation of ISOLATIONS) {
    const at = (ws: string) => results.find((r) => r.n === n && r.f.name === `loop ${ws} ${isolation}`)?.f;
    const live = at('live');
    const clean = at('clean');
    if (live && clean)
      console.log(
        `  N=${n} ${isolation}: live ${ms(live.median)} · clean ${ms(clean.median)} · clean costs ${ms(clean.median - live.median)} ms/iter more (cpu/N ${ms(clean.cpuPerIteration - live.cpuPerIteration)})`,
      );
  }
console.log("the network policy's cost (agent.network and checks.network as by default vs open; ms/iter and cpu/N, median):");
for (const n of SIZES)
  for (const isolation of ISOLATIONS.filter((i) => i !== 'none')) {
    const on = results.find((r) => r.n === n && r.f.name === `loop clean ${isolation}`)?.f;
    const off = results.find((r) => r.n === n && r.f.name === `loop clean ${isolation} net open`)?.f;
    if (on && off)
      console.log(
        `  N=${n} ${isolation}: policy ${ms(on.median)} · open ${ms(off.median)} · the policy costs ${ms(on.median - off.median)} ms/iter (cpu/N ${ms(on.cpuPerIteration - off.cpuPerIteration)})`,
      );
  }
if (BUILDS.length > 1) {
  console.log('this build vs the one before (ms/iter and cpu/N, median):');
  for (const r of results.filter((x) => !x.f.name.endsWith(' before'))) {
    const was = results.find((x) => x.n === r.n && x.f.name === `${r.f.name} before`)?.f;
    if (was)
      console.log(`  N=${r.n} ${r.f.name}: ${ms(was.median)} → ${ms(r.f.median)} ms/iter · cpu/N ${ms(was.cpuPerIteration)} → ${ms(r.f.cpuPerIteration)}`);
  }
}
const largest = Math.max(...SIZES);
console.log(`target: at most 2.5× the shell floor at N = ${largest} (ms/iter), flat in N (last10/first10 near 1):`);
for (const r of results.filter((x) => x.n === largest)) {
  const ratio = r.f.median / r.floors[0].median;
  console.log(`  ${r.f.name}: ${ratio.toFixed(2)}× — ${ratio <= 2.5 ? 'met' : 'NOT met'}; last10/first10 ${(r.f.last10 / r.f.first10).toFixed(2)}`);
}
console.log(
  `load average (1 min): ${load0.toFixed(2)} at the start, ${loadavg()[0].toFixed(2)} at the end (wall times on a busy machine are inflated; cpu/N much less)`,
);
await Promise.all(leftovers.map((d) => rm(d, { recursive: true, force: true })));
