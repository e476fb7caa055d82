// Benchmark on real projects (issue 33): what a certified run costs against a naive loop. Two
// projects are built in temporary folders, each with 3 planted bugs and `init`'s default config:
//
// - js: an npm project with a lockfile, vitest and a node_modules of thousands of files (installed
//   once from the registry into a cache folder, then copied);
// - python: a pytest project (a package under src/ and parametrised tests).
//
// The built CLI (`dist/`, run `npm run build` first) runs each to a certified halt with a scripted
// agent that fixes one planted bug per iteration. Beside it a naive shell loop runs the same agent
// steps in a copy of the same checkout and the criteria once after each, until they pass, with the
// PATH the loop's checks get (the folders the check user can reach). Printed:
// both wall times, their ratio, how often each ran the criteria (the loop's rounds and runner
// canaries), the load average around each, the loop's halting line, and its
// per-phase table (the halting report's, summed from the run's iter_N/phases.json and phases.jsonl).
// Asserts nothing; a failed run prints its output and exits 1.
//
//   npm run bench:trial      env: BENCH_TRIAL=js,python  BENCH_TRIAL_ISOLATION=<level> (default: the config's)
import { execFile, spawn } from 'node:child_process';
import { access, chmod, cp, mkdir, mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';

const exec = promisify(execFile);
const CLI = join(import.meta.dirname, '..', 'dist', 'cli', 'index.js');
const PROJECTS = (process.env.BENCH_TRIAL ?? 'js,python').split(',');
const ISOLATION = process.env.BENCH_TRIAL_ISOLATION;
/** As root, at user+pidns (auto's choice), the loop's checks run as a user of their own, who reaches only some of PATH. */
const ROOT = process.getuid?.() === 0 && (!ISOLATION || ISOLATION === 'user+pidns');
/** Where the npm project's node_modules is installed once (a second run of the bench needs no network). */
const CACHE = join(tmpdir(), 'phuc-bench-trial-cache');

/** One planted bug: the buggy text in `file`, and what the agent writes instead. */
interface Bug {
  file: string;
  bad: string;
  good: string;
}

interface Project {
  name: string;
  files: Record<string, string>;
  bugs: Bug[];
  /** Builds what is not in git (node_modules, the lockfile) into `dir`. */
  prepare?: (dir: string) => Promise<void>;
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

// 3 functions, each with a bug that fails its own 60 tests (180 in all, 3 files).
const JS: Project = {
  name: 'js',
  files: {
    'package.json': JSON.stringify(
      { name: 'trial-js', version: '1.0.0', private: true, type: 'module', scripts: { test: 'vitest run' }, devDependencies: { vitest: '3.2.4' } },
      null,
      2,
    ),
    '.gitignore': 'node_modules/\n',
    'src/lib.js': [
      'export const add = (a, b) => a + b + 1; // bug 1',
      'export const clamp = (x, lo, hi) => Math.min(Math.max(x, lo), hi + 1); // bug 2',
      "export const slug = (s) => s.trim().toLowerCase().replace(/\\s+/g, '_'); // bug 3",
      '',
    ].join('\n'),
    'test/add.test.js': vitestFile('add', (i) => `expect(add(${i}, ${i * 2})).toBe(${i * 3});`),
    'test/clamp.test.js': vitestFile('clamp', (i) => `expect(clamp(${i * 7}, 0, 100)).toBe(${Math.min(i * 7, 100)});`),
    'test/slug.test.js': vitestFile('slug', (i) => `expect(slug(' Word ${i} Here ')).toBe('word-${i}-here');`),
  },
  bugs: [
    { file: 'src/lib.js', bad: 'a + b + 1; // bug 1', good: 'a + b;' },
    { file: 'src/lib.js', bad: 'hi + 1); // bug 2', good: 'hi);' },
    { file: 'src/lib.js', bad: "'_'); // bug 3", good: "'-');" },
  ],
  async prepare(dir) {
    // node_modules and the lockfile from the registry once, then copied (a developer's checkout has both).
    const cached = join(CACHE, 'js');
    if (!(await exists(join(cached, 'package-lock.json')))) {
      await mkdir(cached, { recursive: true });
      await writeFile(join(cached, 'package.json'), JS.files['package.json']);
      await exec('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: cached, maxBuffer: 1 << 26 });
    }
    await cp(join(cached, 'package-lock.json'), join(dir, 'package-lock.json'));
    await cp(join(cached, 'node_modules'), join(dir, 'node_modules'), { recursive: true, verbatimSymlinks: true });
  },
};

function vitestFile(fn: string, body: (i: number) => string): string {
  return [
    `import { test, expect } from 'vitest';`,
    `import { ${fn} } from '../src/lib.js';`,
    ...range(60).map((i) => `test('${fn} ${i}', () => { ${body(i)} });`),
    '',
  ].join('\n');
}

const PY: Project = {
  name: 'python',
  files: {
    'pytest.ini': '[pytest]\ntestpaths = tests\npythonpath = src\n',
    '.gitignore': '__pycache__/\n.pytest_cache/\n',
    'src/calc/__init__.py': [
      'def add(a, b):',
      '    return a + b + 1  # bug 1',
      '',
      'def clamp(x, lo, hi):',
      '    return min(max(x, lo), hi + 1)  # bug 2',
      '',
      'def slug(s):',
      "    return '_'.join(s.split()).lower()  # bug 3",
      '',
    ].join('\n'),
    'tests/test_add.py': pytestFile('add', 'i, i * 2', 'i * 3'),
    'tests/test_clamp.py': pytestFile('clamp', 'i * 7, 0, 100', 'min(i * 7, 100)'),
    'tests/test_slug.py': pytestFile('slug', "f' Word {i} Here '", "f'word-{i}-here'"),
  },
  bugs: [
    { file: 'src/calc/__init__.py', bad: 'a + b + 1  # bug 1', good: 'a + b' },
    { file: 'src/calc/__init__.py', bad: 'hi + 1)  # bug 2', good: 'hi)' },
    { file: 'src/calc/__init__.py', bad: "'_'.join(s.split()).lower()  # bug 3", good: "'-'.join(s.split()).lower()" },
  ],
};

function pytestFile(fn: string, args: string, want: string): string {
  return [
    'import pytest',
    `from calc import ${fn}`,
    '',
    "@pytest.mark.parametrize('i', range(60))",
    `def test_${fn}(i):`,
    `    assert ${fn}(${args}) == ${want}`,
    '',
  ].join('\n');
}

/** The scripted agent: the first planted bug still there is fixed, and the loop's report written. */
function agentScript(bugs: Bug[]): string {
  return `import { readFileSync, writeFileSync } from 'node:fs';
const bugs = ${JSON.stringify(bugs)};
const bug = bugs.find((b) => readFileSync(b.file, 'utf8').includes(b.bad));
if (bug) writeFileSync(bug.file, readFileSync(bug.file, 'utf8').replace(bug.bad, bug.good));
const tried = bug ? ['fixed bug ' + (bugs.indexOf(bug) + 1)] : [];
if (process.env.PHUC_REPORT_FILE) writeFileSync(process.env.PHUC_REPORT_FILE, JSON.stringify({ tried, claims: [], failures: [], open_questions: [], can_further_iteration_help: !!bug }));
`;
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

async function git(cwd: string, ...args: string[]): Promise<void> {
  await exec('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.com', ...args], { cwd });
}

/** A checkout of `p` (committed, its untracked build beside it) in a folder every user can reach; the agent script beside it. */
async function checkout(p: Project): Promise<{ repo: string; agent: string }> {
  const base = await mkdtemp(join(tmpdir(), `phuc-trial-${p.name}-`));
  await chmod(base, 0o755);
  const repo = join(base, 'repo');
  for (const [path, text] of Object.entries(p.files)) {
    await mkdir(join(repo, path, '..'), { recursive: true });
    await writeFile(join(repo, path), text);
  }
  await p.prepare?.(repo);
  const agent = join(base, 'agent.mjs');
  await writeFile(agent, agentScript(p.bugs));
  await git(repo, 'init', '-q', '-b', 'main');
  await git(repo, 'add', '-A');
  await git(repo, 'commit', '-qm', 'a project with 3 planted bugs');
  return { repo, agent };
}

/** Runs `command` in `cwd`, its output kept; resolves with the exit code. */
function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('close', (code) => resolve({ code, out }));
  });
}

interface Criterion {
  id: string;
  run: string;
}

/**
 * PATH as the loop's checks see it: the sandbox keeps only the folders its users can reach (a
 * toolchain under a 0700 /root is not theirs). The naive loop gets the same, so both run the same
 * interpreter (a pyenv shim in /root and the system python3 are not the same work).
 */
async function reachablePath(): Promise<string> {
  const reachable = async (dir: string) => {
    for (let d = resolve(dir); ; d = dirname(d)) {
      const st = await stat(d).catch(() => null);
      if (!st || (st.mode & 0o001) === 0) return false;
      if (d === dirname(d)) return true;
    }
  };
  const dirs = (process.env.PATH ?? '').split(':').filter(Boolean);
  const kept = [];
  for (const d of dirs) if (await reachable(d)) kept.push(d);
  return kept.join(':');
}

/** The naive loop: the agent's step, then each criterion once, until all pass. */
async function naive(repo: string, agent: string, criteria: Criterion[], maxIterations: number): Promise<{ seconds: number; iterations: number }> {
  const path = ROOT ? await reachablePath() : (process.env.PATH ?? '');
  const t0 = performance.now();
  for (let i = 0; i < maxIterations; i++) {
    const step = await run(process.execPath, [agent], repo, { PHUC_ITERATION: String(i) });
    if (step.code !== 0) throw new Error(`naive loop: the agent failed:\n${step.out}`);
    let pass = true;
    for (const c of criteria) pass = (await run('/bin/sh', ['-c', c.run], repo, { PATH: path })).code === 0 && pass;
    if (pass) return { seconds: (performance.now() - t0) / 1000, iterations: i + 1 };
  }
  throw new Error(`naive loop: the criteria still fail after ${maxIterations} iterations`);
}

/** The criteria `init` wrote (YAML read by the CLI's own schema command would be heavier: the lines are simple). */
function criteriaOf(yml: string): Criterion[] {
  const out: Criterion[] = [];
  for (const m of yml.matchAll(/^ {2}- id: (\S+)\n(?: {4}\w+: .*\n)*? {4}run: (.+)$/gm))
    out.push({ id: m[1], run: m[2].startsWith('"') ? (JSON.parse(m[2]) as string) : m[2] });
  if (!out.length) throw new Error(`no acceptance_criteria found in phuc-loop.yml:\n${yml}`);
  return out;
}

const load = () => loadavg()[0].toFixed(2);

async function trial(p: Project): Promise<void> {
  const loopSide = await checkout(p);
  const init = await run(process.execPath, [CLI, 'init'], loopSide.repo);
  if (init.code !== 0) throw new Error(`${p.name}: init failed:\n${init.out}`);
  const yml = await readFile(join(loopSide.repo, 'phuc-loop.yml'), 'utf8');
  // The scripted agent stands in for the model; everything else is init's default.
  await writeFile(
    join(loopSide.repo, 'phuc-loop.yml'),
    yml.replace(/^( {2}use: ).*$/m, '$1command').replace(/^agent:\n/m, `agent:\n  run: node ${loopSide.agent}\n`),
  );
  await git(loopSide.repo, 'add', '-A');
  await git(loopSide.repo, 'commit', '-qm', 'phuc-loop init');
  const criteria = criteriaOf(yml);
  const naiveSide = await checkout(p);

  const loadBefore = load();
  const t0 = performance.now();
  const loop = await run(process.execPath, [CLI, 'run', ...(ISOLATION ? ['--isolation', ISOLATION] : [])], loopSide.repo);
  const loopSeconds = (performance.now() - t0) / 1000;
  if (loop.code !== 0) throw new Error(`${p.name}: the loop did not converge (exit ${loop.code}):\n${loop.out}`);
  const loadLoop = load();
  const plain = await naive(naiveSide.repo, naiveSide.agent, criteria, p.bugs.length + 1);
  const loadNaive = load();

  const report = (await run(process.execPath, [CLI, 'report'], loopSide.repo)).out;
  // How often the suite ran: the loop's rounds of checks (baseline, iterations, replays) and its runner canaries.
  const { phases } = JSON.parse(await readFile(join(loopSide.repo, 'evidence/loop/halting_report.json'), 'utf8')) as {
    phases: { phases: { phase: string }[] }[];
  };
  const rounds = phases.filter((s) => s.phases.some((x) => x.phase === 'checks')).length;
  const canaries = loop.out.match(/: runner canary \(/g)?.length ?? 0;
  const table = report.slice(report.indexOf('### Time by phase'));
  const halt = loop.out.split('\n').filter((l) => /halt:|time by phase:|isolation/.test(l));
  console.log(`\n## ${p.name}: ${criteria.map((c) => c.id).join(', ')} (${p.bugs.length} planted bugs)`);
  console.log(
    `loop to a certified halt: ${loopSeconds.toFixed(1)} s · naive loop (${plain.iterations} iterations): ${plain.seconds.toFixed(1)} s · ratio ${(loopSeconds / plain.seconds).toFixed(2)}×`,
  );
  console.log(`criteria runs: the loop ${rounds} rounds + ${canaries} runner canaries · the naive loop ${plain.iterations} rounds`);
  // The machine may be shared: a ratio means little without the load it was measured under.
  console.log(`load average (1 min): ${loadBefore} before the loop, ${loadLoop} after it, ${loadNaive} after the naive loop`);
  for (const l of halt) console.log(l);
  console.log(`\n${table.slice(0, table.indexOf('\n\n', table.indexOf('| phase')) + 1 || undefined).trim()}`);
}

console.log(`bench:trial — ${cpus().length} cores, load ${load()} at the start`);
for (const p of [JS, PY].filter((x) => PROJECTS.includes(x.name))) await trial(p);
