// `phuc-loop init` (docs/init.md): finds the project type, writes a phuc-loop.yml whose criterion runs
// the project's own test runner (with a JUnit reporter where the runner has one), its dependency setup,
// its default protected set, and a NORTHSTAR.md labelled with the residual chosen. It never invents a
// command: where it finds none, it writes a placeholder and exits EXIT_NEED_INFO naming the field.
import { access, appendFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { shellQuote } from '../engine/common/shell-quote.js';
import { EXIT_CODES } from '../engine/run/fsm.js';
import { Git } from '../engine/os/git.js';
import { NodeProcessRunner } from '../engine/os/process.js';
import { missingPrograms, onPath } from './init-programs.js';
import { proposeMayChange } from './may-change.js';
import { securitySurfaces } from './surfaces.js';
import { configTemplate, northstarTemplate, type InitPlan } from './templates.js';

export const PROJECT_TYPES = ['npm', 'pnpm', 'yarn', 'python', 'go', 'rust', 'maven', 'gradle', 'make', 'generic'] as const;
export type ProjectType = (typeof PROJECT_TYPES)[number];

/** Where the JUnit reporters init configures write (a folder init keeps out of git). */
const REPORT = 'reports/junit.xml';
/** Always protected: the loop's own inputs and the CI that runs it (SPEC §7). */
const LOOP_FILES = ['phuc-loop.yml', 'NORTHSTAR.md', '.github/**'];

interface Project {
  dir: string;
  /** Names in the project's root folder. */
  names: Set<string>;
  read(name: string): Promise<string | null>;
}

async function openProject(dir: string): Promise<Project> {
  const names = new Set(await readdir(dir).catch(() => [] as string[]));
  return { dir, names, read: (name) => readFile(join(dir, name), 'utf8').catch(() => null) };
}

const has = (p: Project, ...names: string[]) => names.some((n) => p.names.has(n));

// ---------- npm / pnpm / yarn ----------

interface Word {
  /** As written in the script (quotes kept): re-emitted verbatim, so globbing and quoting are unchanged. */
  raw: string;
  value: string;
}

/** Words of a simple command line; null when it uses anything but words and plain quotes (&&, |, $, ;, >…). */
export function simpleWords(line: string): Word[] | null {
  const words: Word[] = [];
  let raw: string | null = null;
  let value = '';
  const s = line.trim();
  for (let i = 0; i < s.length;) {
    const c = s[i];
    if (/\s/.test(c)) {
      if (raw !== null) words.push({ raw, value });
      raw = null;
      value = '';
      i++;
    } else if (c === "'" || c === '"') {
      const j = s.indexOf(c, i + 1);
      if (j < 0) return null;
      const body = s.slice(i + 1, j);
      if (c === '"' && /[$`\\]/.test(body)) return null;
      raw = (raw ?? '') + s.slice(i, j + 1);
      value += body;
      i = j + 1;
    } else if (/[\w@%+=:,./*?[\]{}^~-]/.test(c)) {
      raw = (raw ?? '') + c;
      value += c;
      i++;
    } else return null;
  }
  if (raw !== null) words.push({ raw, value });
  return words;
}

type NodeRunner = 'vitest' | 'jest' | 'mocha' | 'node:test';

/** The runner a test script invokes directly, its env assignments and its arguments; null for anything else. */
function scriptRunner(script: string): { runner: NodeRunner; env: Word[]; args: Word[] } | null {
  const words = simpleWords(script);
  if (!words) return null;
  const env: Word[] = [];
  while (words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0].value)) env.push(words.shift()!);
  if (words[0]?.value === 'npx') words.shift();
  const head = words.shift()?.value;
  if (head === 'node' && words.some((w) => w.value === '--test')) return { runner: 'node:test', env, args: words };
  if (head === 'vitest' || head === 'jest' || head === 'mocha') return { runner: head, env, args: words };
  return null;
}

const NODE_RUNNER_CONFIGS: Record<NodeRunner, string[]> = {
  vitest: ['vitest.config.*', 'vitest.workspace.*', 'vite.config.*'],
  jest: ['jest.config.*', 'babel.config.*', '.babelrc*'],
  mocha: ['.mocharc*'],
  'node:test': [],
};

/** node's junit reporter exists from 20.11 (and 21.3). */
function nodeHasJunitReporter(version = process.versions.node): boolean {
  const [major, minor] = version.split('.').map(Number);
  return major > 21 || (major === 21 && minor >= 3) || (major === 20 && minor >= 11);
}

const flagGiven = (args: Word[], ...flags: string[]) =>
  args.some((a) => flags.some((f) => a.value === f || a.value.startsWith(`${f}=`) || a.value.startsWith(`${f}.`)));

async function nodePlan(p: Project, forced: 'npm' | 'pnpm' | 'yarn' | null): Promise<InitPlan> {
  let pkg: { scripts?: Record<string, string>; devDependencies?: Record<string, string>; dependencies?: Record<string, string>; packageManager?: string } = {};
  try {
    pkg = JSON.parse((await p.read('package.json')) ?? '{}') as typeof pkg;
  } catch {
    // An unreadable package.json: detect from the lockfiles alone.
  }
  const declared = /^(npm|pnpm|yarn)@(\d+)/.exec(pkg.packageManager ?? '');
  const pm: 'npm' | 'pnpm' | 'yarn' =
    forced ??
    (has(p, 'pnpm-lock.yaml')
      ? 'pnpm'
      : has(p, 'yarn.lock')
        ? 'yarn'
        : has(p, 'package-lock.json', 'npm-shrinkwrap.json')
          ? 'npm'
          : ((declared?.[1] as 'npm' | 'pnpm' | 'yarn') ?? 'npm'));
  const lockfile = { npm: has(p, 'npm-shrinkwrap.json') ? 'npm-shrinkwrap.json' : 'package-lock.json', pnpm: 'pnpm-lock.yaml', yarn: 'yarn.lock' }[pm];
  const locked = has(p, lockfile);
  const berry = pm === 'yarn' && (has(p, '.yarnrc.yml') || (declared?.[1] === 'yarn' && Number(declared[2]) >= 2));
  const frozen = { npm: 'npm ci', pnpm: 'pnpm install --frozen-lockfile', yarn: berry ? 'yarn install --immutable' : 'yarn install --frozen-lockfile' }[pm];
  const exec = { npm: 'npx', pnpm: 'pnpm exec', yarn: 'yarn' }[pm];

  const deps = { ...pkg.dependencies, ...pkg.devDependencies };
  const script = pkg.scripts?.test;
  const noScript = !script || /no test specified/.test(script);
  const fromScript = script && !noScript ? scriptRunner(script) : null;
  const depRunner = (['vitest', 'jest', 'mocha'] as const).find((r) => r in deps) ?? null;
  const runner: NodeRunner | null = fromScript?.runner ?? (noScript ? depRunner : null);
  const env = (fromScript?.env ?? []).map((w) => w.raw);
  let args = (fromScript?.args ?? []).filter((a) => !['--watch', '--watchAll', '-w'].includes(a.value));

  let run: string | null = null;
  let junit: string | null = null;
  let label: string;
  const line = (...parts: (string | string[])[]) => parts.flat().filter(Boolean).join(' ');
  switch (runner) {
    case 'vitest': {
      if (args[0]?.value === 'run' || args[0]?.value === 'watch') args = args.slice(1);
      const canJunit = !flagGiven(args, '--outputFile');
      junit = canJunit ? REPORT : null;
      const reporters = canJunit ? [...(flagGiven(args, '--reporter') ? [] : ['--reporter=default']), '--reporter=junit', `--outputFile.junit=${REPORT}`] : [];
      run = line(
        env,
        exec,
        'vitest run',
        args.map((a) => a.raw),
        reporters,
      );
      label = `vitest${pm === 'npm' ? '' : ` through ${pm}`}`;
      break;
    }
    case 'jest': {
      // jest has no JUnit reporter of its own: jest-junit is the common one.
      const canJunit = 'jest-junit' in deps;
      junit = canJunit ? REPORT : null;
      const reporters = canJunit ? [...(flagGiven(args, '--reporters') ? [] : ['--reporters=default']), '--reporters=jest-junit'] : [];
      run = line(
        canJunit ? ['JEST_JUNIT_OUTPUT_DIR=reports', 'JEST_JUNIT_OUTPUT_NAME=junit.xml'] : [],
        env,
        exec,
        'jest --ci',
        args.map((a) => a.raw),
        reporters,
      );
      label = `jest${pm === 'npm' ? '' : ` through ${pm}`}`;
      break;
    }
    case 'mocha': {
      // mocha runs one reporter: xunit (JUnit-shaped) into the file, unless the script picked its own.
      const canJunit = !flagGiven(args, '--reporter', '-R');
      junit = canJunit ? REPORT : null;
      run = line(
        canJunit ? 'mkdir -p reports &&' : '',
        env,
        exec,
        'mocha',
        args.map((a) => a.raw),
        canJunit ? `--reporter=xunit --reporter-option=output=${REPORT}` : '',
      );
      label = `mocha${pm === 'npm' ? '' : ` through ${pm}`}`;
      break;
    }
    case 'node:test': {
      const canJunit = nodeHasJunitReporter() && !flagGiven(args, '--test-reporter');
      junit = canJunit ? REPORT : null;
      const words = args.map((a) => a.raw);
      const at = words.indexOf('--test');
      // node does not create the reporter's folder.
      const reporters = canJunit
        ? ['--test-reporter=spec', '--test-reporter-destination=stdout', '--test-reporter=junit', `--test-reporter-destination=${REPORT}`]
        : [];
      run = line(canJunit ? 'mkdir -p reports &&' : '', env, 'node', [...words.slice(0, at + 1), ...reporters, ...words.slice(at + 1)]);
      label = 'node:test';
      break;
    }
    default:
      run = noScript ? null : `${pm} test`;
      label = noScript ? 'the test suite' : `the package's test script (${pm} test)`;
  }

  // The files the command names (test folders, globs, config files) are protected with it.
  const named = (fromScript?.args ?? []).filter((a) => !a.value.startsWith('-') && /[/.*]/.test(a.value)).map((a) => a.value);
  const protectedSet = [
    ...LOOP_FILES,
    'package.json',
    ...(locked ? [lockfile] : []),
    ...(pm === 'pnpm' ? ['pnpm-workspace.yaml', '.pnpmfile.cjs'] : []),
    ...(pm === 'yarn' ? ['.yarnrc', '.yarnrc.yml'] : []),
    '.npmrc',
    'test/**',
    'tests/**',
    '**/__tests__/**',
    '**/*.test.*',
    '**/*.spec.*',
    ...(runner ? NODE_RUNNER_CONFIGS[runner] : Object.values(NODE_RUNNER_CONFIGS).flat()),
    ...(await protectNamed(p, named)),
  ];
  return {
    type: pm,
    needs: pm === 'npm' ? ['npm'] : ['npm', pm],
    runner: label,
    run,
    junit,
    setup: { run: locked ? frozen : `${pm} install`, inputs: ['package.json', ...(locked ? [lockfile] : [])] },
    setupNote: locked ? null : `no ${lockfile}: a lockfile makes this reproducible (${frozen})`,
    protected: unique(protectedSet),
  };
}

/** Paths a command names become protected globs: a folder with everything under it. */
async function protectNamed(p: Project, named: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const n of named) {
    const path = n.replace(/^\.\//, '').replace(/\/$/, '');
    if (/[*?[{]/.test(path)) out.push(path);
    else
      out.push(
        (await readdir(join(p.dir, path)).then(
          () => true,
          () => false,
        ))
          ? `${path}/**`
          : path,
      );
  }
  return out;
}

const unique = (xs: string[]) => [...new Set(xs)];

// ---------- Python ----------

const PY_MARKERS = ['pyproject.toml', 'setup.py', 'setup.cfg', 'tox.ini', 'noxfile.py', 'pytest.ini', 'conftest.py', 'Pipfile'];
const isRequirements = (n: string) => /^(.*[-_])?requirements([-_.].*)?\.txt$/.test(n);

async function pythonPlan(p: Project, env: NodeJS.ProcessEnv): Promise<InitPlan> {
  const pyproject = (await p.read('pyproject.toml')) ?? '';
  const setupCfg = (await p.read('setup.cfg')) ?? '';
  const requirements = [...p.names].filter(isRequirements).sort();
  const texts = [pyproject, setupCfg, (await p.read('tox.ini')) ?? '', ...(await Promise.all(requirements.map(async (r) => (await p.read(r)) ?? '')))].join(
    '\n',
  );
  const tox = has(p, 'tox.ini') || /^\[tool\.tox\]/m.test(pyproject) || /^\[tox:tox\]/m.test(setupCfg);
  const usesPytest =
    has(p, 'pytest.ini', '.pytest.ini', 'conftest.py') || /\bpytest\b/.test(texts) || (await testFilesImport(p, /^\s*(import|from)\s+pytest\b/m));
  const unittestOnly = !usesPytest && (await testFilesImport(p, /^\s*(import|from)\s+unittest\b/m));

  let run: string;
  let label: string;
  let junit: string | null = null;
  // An environment tool only where it is installed: the criterion would otherwise exit 127 at the baseline.
  const envTools = [...(has(p, 'noxfile.py') ? ['nox'] : []), ...(tox ? ['tox'] : [])];
  const found: string[] = [];
  for (const t of envTools) if (await onPath(t, env)) found.push(t);
  const missing = envTools.filter((t) => !found.includes(t));
  const runNote = missing.length
    ? `${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} configured but not installed here: \`python3 -m pip install ${missing.join(' ')}\`, then \`phuc-loop init --force\` runs ${missing.length > 1 ? 'them' : 'it'}`
    : undefined;
  if (found[0] === 'nox') [run, label] = ['nox', 'nox (the noxfile.py sessions)'];
  else if (found[0] === 'tox') [run, label] = ['tox', 'tox (the tox environments)'];
  else if (unittestOnly) [run, label] = ['python3 -m unittest discover', 'unittest'];
  else [run, label, junit] = [`python3 -m pytest --junitxml=${REPORT}`, 'pytest', REPORT];

  // Dependencies: the requirement files, then the package itself (with its test extra, if it has one).
  const installable = /^\[project\]/m.test(pyproject) || /^\[tool\.poetry\]/m.test(pyproject) || has(p, 'setup.py') || /^\[metadata\]/m.test(setupCfg);
  const extras = /^\[project\.optional-dependencies\]([\s\S]*?)(^\[|(?![\s\S]))/m.exec(pyproject)?.[1] ?? '';
  const extra = ['test', 'tests', 'testing', 'dev'].find((e) => new RegExp(`^${e}\\s*=`, 'm').test(extras));
  const pipArgs = [...requirements.flatMap((r) => ['-r', shellQuote(r)]), ...(installable ? ['-e', shellQuote(extra ? `.[${extra}]` : '.')] : [])];
  const envTool = run === 'nox' || run === 'tox';
  // Into a virtual environment of the checks' own in their workspace (.venv, kept and sealed between
  // rounds), never into the Python on PATH: the system's refuses pip (PEP 668), and one prepared by
  // the reusable workflow or the user is not the checks' user's to write. It sees what that Python has.
  const setup =
    pipArgs.length && !envTool
      ? {
          run: `python3 -m venv --system-site-packages .venv && .venv/bin/python -m pip install ${pipArgs.join(' ')}`,
          inputs: [...requirements, ...['pyproject.toml', 'setup.py', 'setup.cfg'].filter((n) => has(p, n))],
        }
      : null;
  // Through PATH: the tree holds no .venv/bin/python (the loop refuses a criterion that runs a program outside it).
  if (setup) run = `PATH="$PWD/.venv/bin:$PATH" ${run}`;
  // pytest from the setup's own installs (a requirements file or the package's extra naming it) needs no machine install.
  const pytestInstalled = run.includes('pytest') && !(setup && /\bpytest\b/.test(texts));
  return {
    type: 'python',
    runner: label,
    run,
    needs: envTool ? [] : ['python3', ...(pytestInstalled ? (['pytest'] as const) : [])],
    ...(runNote ? { runNote } : {}),
    junit,
    setup,
    setupNote: envTool
      ? `${run} builds its own environments (it needs the package index and must be installed where the checks run)`
      : setup
        ? "needs the package index; the criterion runs the .venv it makes (first on the criterion's PATH)"
        : 'nothing to install was found (no requirements*.txt, no installable pyproject.toml or setup.py)',
    protected: unique([
      ...LOOP_FILES,
      'tests/**',
      'test/**',
      '**/test_*.py',
      '**/*_test.py',
      '**/conftest.py',
      'pytest.ini',
      '.pytest.ini',
      'pyproject.toml',
      'setup.cfg',
      'tox.ini',
      'noxfile.py',
      ...requirements,
    ]),
  };
}

/** True when a test file at the root or in tests/ or test/ matches `re`. */
async function testFilesImport(p: Project, re: RegExp): Promise<boolean> {
  for (const folder of ['.', 'tests', 'test']) {
    const names = await readdir(join(p.dir, folder)).catch(() => [] as string[]);
    for (const n of names.filter((x) => /^test_.*\.py$|_test\.py$/.test(x)))
      if (re.test(await readFile(join(p.dir, folder, n), 'utf8').catch(() => ''))) return true;
  }
  return false;
}

// ---------- Go, Rust, Java, make ----------

async function goPlan(p: Project, env: NodeJS.ProcessEnv): Promise<InitPlan> {
  // go test writes no JUnit itself; go-junit-report (v2) converts its output when it is installed.
  const converter = await onPath('go-junit-report', env);
  const vendored = await access(join(p.dir, 'vendor', 'modules.txt')).then(
    () => true,
    () => false,
  );
  return {
    type: 'go',
    needs: ['go'],
    runner: converter ? 'go test with go-junit-report' : 'go test',
    run: converter ? `mkdir -p reports && go test -v ./... 2>&1 | go-junit-report -set-exit-code -iocopy -out ${REPORT}` : 'go test ./...',
    junit: converter ? REPORT : null,
    setup: has(p, 'go.sum') && !vendored ? { run: 'go mod download', inputs: ['go.mod', 'go.sum'] } : null,
    setupNote: vendored ? 'dependencies are vendored' : has(p, 'go.sum') ? null : 'no go.sum: the module has no dependencies to download',
    protected: unique([...LOOP_FILES, '**/*_test.go', '**/testdata/**', 'go.mod', 'go.sum', 'go.work', 'go.work.sum']),
  };
}

async function rustPlan(p: Project): Promise<InitPlan> {
  const workspace = /^\[workspace\]/m.test((await p.read('Cargo.toml')) ?? '');
  return {
    type: 'rust',
    needs: ['cargo'],
    runner: 'cargo test',
    run: workspace ? 'cargo test --workspace' : 'cargo test',
    junit: null,
    setup: has(p, 'Cargo.lock') ? { run: 'cargo fetch --locked', inputs: ['Cargo.toml', 'Cargo.lock'] } : null,
    setupNote: has(p, 'Cargo.lock') ? null : 'no Cargo.lock: cargo test resolves dependencies itself',
    // .cargo/config.toml can set a test runner (e.g. `runner = "true"`): protected with the manifests.
    protected: unique([...LOOP_FILES, '**/tests/**', '**/benches/**', '**/Cargo.toml', 'Cargo.lock', '.cargo/**', 'rust-toolchain', 'rust-toolchain.toml']),
  };
}

// Java takes its home (user.home) from the account, not from $HOME. The checks' own user (phuc-check,
// isolation user+pidns) has no home (/nonexistent), so a bare `mvn test` fails before any test ("Could not create local
// repository at /nonexistent/.m2/repository") and Gradle cannot create ~/.gradle: the commands point
// both at the checks' own fresh HOME, where the docs say they resolve dependencies.
const JAVA_HOME_NOTE = "Java takes its home from the account, not $HOME (the checks' own user has none): this points it at the checks' HOME";

function mavenPlan(p: Project): InitPlan {
  return {
    type: 'maven',
    needs: ['java', ...(has(p, 'mvnw') ? [] : (['mvn'] as const))],
    runner: 'Maven surefire',
    run: `MAVEN_OPTS="-Duser.home=$HOME" ${has(p, 'mvnw') ? './mvnw' : 'mvn'} -B test`,
    runNote: JAVA_HOME_NOTE,
    junit: '**/target/surefire-reports/TEST-*.xml',
    setup: null,
    setupNote: 'Maven resolves dependencies during the test run',
    protected: unique([...LOOP_FILES, '**/pom.xml', '**/src/test/**', '.mvn/**', 'mvnw', 'mvnw.cmd']),
  };
}

function gradlePlan(p: Project): InitPlan {
  return {
    type: 'gradle',
    needs: ['java', ...(has(p, 'gradlew') ? [] : (['gradle'] as const))],
    runner: 'Gradle test',
    run: `GRADLE_USER_HOME="$HOME/.gradle" ${has(p, 'gradlew') ? './gradlew' : 'gradle'} test`,
    runNote: JAVA_HOME_NOTE,
    junit: '**/build/test-results/test/TEST-*.xml',
    setup: null,
    setupNote: 'Gradle resolves dependencies during the test run',
    protected: unique([
      ...LOOP_FILES,
      '**/build.gradle',
      '**/build.gradle.kts',
      'settings.gradle',
      'settings.gradle.kts',
      'gradle.properties',
      'gradlew',
      'gradlew.bat',
      'gradle/**',
      'buildSrc/**',
      '**/src/test/**',
    ]),
  };
}

const MAKEFILES = ['GNUmakefile', 'makefile', 'Makefile'];

async function makeTestTarget(p: Project): Promise<string | null> {
  for (const m of MAKEFILES) if (/^test\s*:/m.test((await p.read(m)) ?? '')) return m;
  return null;
}

async function makePlan(p: Project): Promise<InitPlan> {
  const file = (await makeTestTarget(p)) ?? 'Makefile';
  return {
    type: 'make',
    needs: ['make'],
    runner: `make test (${file})`,
    run: 'make test',
    junit: null,
    setup: null,
    setupNote: 'init cannot tell what the make target needs installed',
    protected: unique([...LOOP_FILES, file, 'test/**', 'tests/**']),
  };
}

function genericPlan(): InitPlan {
  return {
    type: 'generic',
    runner: 'the test suite',
    run: null,
    junit: null,
    setup: null,
    setupNote: 'init cannot tell what this project needs installed',
    protected: [...LOOP_FILES, 'test/**', 'tests/**'],
  };
}

/** The project types whose marker files are in `p`, most specific first. */
async function detectedTypes(p: Project): Promise<ProjectType[]> {
  const out: ProjectType[] = [];
  if (has(p, 'package.json')) out.push(has(p, 'pnpm-lock.yaml') ? 'pnpm' : has(p, 'yarn.lock') ? 'yarn' : 'npm');
  if (has(p, ...PY_MARKERS) || [...p.names].some(isRequirements)) out.push('python');
  if (has(p, 'go.mod')) out.push('go');
  if (has(p, 'Cargo.toml')) out.push('rust');
  if (has(p, 'pom.xml')) out.push('maven');
  if (has(p, 'build.gradle', 'build.gradle.kts', 'settings.gradle', 'settings.gradle.kts')) out.push('gradle');
  if (await makeTestTarget(p)) out.push('make');
  return out;
}

/** Decides what init writes for the project in `dir` (as `type` when given). */
export async function planInit(
  dir: string,
  type: ProjectType | null,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ plan: InitPlan; detected: ProjectType[] }> {
  const p = await openProject(dir);
  const detected = await detectedTypes(p);
  const t = type ?? detected[0] ?? 'generic';
  const plan = await (async (): Promise<InitPlan> => {
    switch (t) {
      case 'npm':
      case 'pnpm':
      case 'yarn':
        return nodePlan(p, type === null ? null : t);
      case 'python':
        return pythonPlan(p, env);
      case 'go':
        return goPlan(p, env);
      case 'rust':
        return rustPlan(p);
      case 'maven':
        return mavenPlan(p);
      case 'gradle':
        return gradlePlan(p);
      case 'make':
        return makePlan(p);
      case 'generic':
        return genericPlan();
    }
  })();
  return { plan: { ...plan, mayChange: await proposeMayChange(dir, t), surfaces: await securitySurfaces(dir) }, detected };
}

export interface InitIO {
  cwd: string;
  out(line: string): void;
  err(line: string): void;
  env?: NodeJS.ProcessEnv;
}

export async function runInit(argv: string[], io: InitIO): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { force: { type: 'boolean', default: false }, type: { type: 'string' } } });
  if (values.type !== undefined && !(PROJECT_TYPES as readonly string[]).includes(values.type)) {
    io.err(`phuc-loop init: --type: got "${values.type}"; allowed: ${PROJECT_TYPES.join(' | ')}`);
    return EXIT_CODES.USAGE;
  }
  const { plan, detected } = await planInit(io.cwd, (values.type as ProjectType | undefined) ?? null, io.env ?? process.env);
  if (values.type === undefined)
    io.out(
      detected.length
        ? `detected project type ${plan.type}: ${plan.run === null ? 'no test command found' : plan.runner}${detected.length > 1 ? ` (also found: ${detected.slice(1).join(', ')}; \`phuc-loop init --type <t>\` writes that one instead)` : ''}`
        : 'no known project type found (package.json, pyproject.toml/setup.py/requirements*.txt, go.mod, Cargo.toml, pom.xml, build.gradle, a Makefile with a test target)',
    );
  else if (!detected.includes(plan.type as ProjectType) && plan.type !== 'generic')
    io.err(`phuc-loop init: warning: --type ${plan.type} given, but none of its marker files is here`);

  let wroteConfig = false;
  for (const [name, text] of [
    ['phuc-loop.yml', configTemplate(plan)],
    ['NORTHSTAR.md', northstarTemplate(plan)],
  ] as const) {
    const path = join(io.cwd, name);
    if (
      !values.force &&
      (await access(path).then(
        () => true,
        () => false,
      ))
    ) {
      io.err(`${name} exists; not overwritten (use --force to replace it)`);
      continue;
    }
    await writeFile(path, text);
    io.out(`wrote ${name}`);
    if (name === 'phuc-loop.yml') wroteConfig = true;
  }
  if (!wroteConfig) return 0;

  io.out(`  criterion tests: ${plan.run ?? '(placeholder)'}`);
  io.out(`  residual: ${plan.junit ? `failing_tests_fraction from ${plan.junit}` : 'failing_criteria'}`);
  io.out(`  checks.setup: ${plan.setup?.run ?? `none (${plan.setupNote})`}`);
  if (plan.runNote && plan.type === 'python') io.out(`  note: ${plan.runNote}`);
  for (const line of await missingPrograms(plan.needs ?? [], io.env ?? process.env)) io.err(`phuc-loop init: warning: ${line}`);
  if (plan.mayChange) io.out(`  agent.may_change: ${plan.mayChange.globs.join(', ')} (${plan.mayChange.how})`);
  if (plan.surfaces?.length) io.out(`  security.paraphrase: agent proposed, commented out (a security or API surface: ${plan.surfaces.join(', ')})`);
  if (plan.junit) await excludeReports(io, plan.junit);
  if (plan.run === null) {
    io.err(
      'phuc-loop init: fill in acceptance_criteria[0].run in phuc-loop.yml (the command that runs your tests; exit 0 = pass), ' +
        `or run \`phuc-loop init --force --type <${PROJECT_TYPES.filter((t) => t !== 'generic').join('|')}>\`; phuc-loop run refuses the file until then`,
    );
    return EXIT_CODES.EXIT_NEED_INFO;
  }
  // What a new user does next (README, quick start): the certificate's commit must hold the loop's inputs.
  io.out(`  agent: claude (agent.use in phuc-loop.yml: claude | codex | gemini | aider | command; its CLI must be installed)`);
  io.out('next: git add phuc-loop.yml NORTHSTAR.md && git commit -m "phuc-loop config", then phuc-loop run');
  return 0;
}

/** The JUnit reports are the checks' output, never the agent's commit: their folder goes into .git/info/exclude. */
async function excludeReports(io: InitIO, junit: string): Promise<void> {
  const folder = junit.replace(/^\*\*\//, '').split('/')[0] + '/';
  const git = new Git(new NodeProcessRunner(), io.cwd, io.env ?? process.env);
  const excludePath = (await git.run(['rev-parse', '--git-path', 'info/exclude'], { allowFail: true })).trim();
  if (!excludePath) {
    io.out(`  not a git repository: add ${folder} to its ignore file (the checks write ${junit})`);
    return;
  }
  const sample = junit.replace(/\*\*\//g, '').replace(/\*/g, 'x');
  if ((await git.run(['check-ignore', '--no-index', sample], { allowFail: true })).trim()) return;
  const file = resolve(io.cwd, excludePath);
  await mkdir(dirname(file), { recursive: true });
  const before = (await readFile(file, 'utf8').catch(() => '')) ?? '';
  await appendFile(file, `${before && !before.endsWith('\n') ? '\n' : ''}# phuc-loop init: JUnit reports the checks write\n${folder}\n`);
  io.out(`  added ${folder} to ${excludePath} (a clone elsewhere needs it in .gitignore)`);
}
