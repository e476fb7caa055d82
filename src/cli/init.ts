// `phuc-loop init` (docs/init.md): finds the project type, writes a phuc-loop.yml whose criterion runs
// the project's own test runner (with a JUnit reporter where the runner has one), its dependency setup,
// its default protected set, and a NORTHSTAR.md labelled with the residual chosen. It never invents a
// command: where it finds none, it writes a placeholder and exits EXIT_NEED_INFO naming the field.
import { access, appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { EXIT_CODES } from '../engine/run/fsm.js';
import { Git } from '../engine/os/git.js';
import { NodeProcessRunner } from '../engine/os/process.js';
import { missingPrograms, onPath } from './init-programs.js';
import { proposeMayChange } from './may-change.js';
import { securitySurfaces } from './surfaces.js';
import { configTemplate, northstarTemplate, type InitPlan } from './templates.js';
import { REPORT, LOOP_FILES, type Project, openProject, has, unique } from './init-project.js';
import { nodePlan } from './init-node.js';
import { PY_MARKERS, isRequirements, pythonPlan } from './init-python.js';

export const PROJECT_TYPES = ['npm', 'pnpm', 'yarn', 'python', 'go', 'rust', 'maven', 'gradle', 'make', 'generic'] as const;
export type ProjectType = (typeof PROJECT_TYPES)[number];

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
