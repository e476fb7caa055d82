// `phuc-loop init` per project type (docs/init.md): the config it writes for real minimal projects,
// and, for every type whose toolchain this machine has, a first `run` of exactly that config (with a
// scripted fixer as the agent) that reaches a certificate on a planted bug.
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import picomatch from 'picomatch';
import { parseDocument } from 'yaml';
import { parseConfig, type LoopConfig } from '../../src/engine/config/config.js';
import { parseNorthstar } from '../../src/engine/config/northstar.js';
import { agent, cli, git, makeRepo, ROOT } from '../helpers/repo.js';
import { BUILD_GRADLE, CALC_JAVA, CALC_JAVA_PATH, calcTestJava, GRADLE, MAVEN, MAVEN_MIRROR, POM } from '../helpers/java.js';

// Debian's toolchains under /usr only: the checks run as an unprivileged user that cannot reach the
// toolchains installed under /root (pyenv, rustup), so they are kept off the PATH here too.
const PATH = [...new Set([dirname(process.execPath), '/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'])].join(':');
const ENV = { PATH };
const LONG = 300_000;

async function init(repo: string, args: string[] = [], env: Record<string, string> = ENV) {
  const r = await cli(repo, ['init', ...args], env);
  const text = await readFile(join(repo, 'phuc-loop.yml'), 'utf8').catch(() => '');
  return { ...r, text };
}

const NEVER_ALLOWED = [
  'phuc-loop.yml',
  'NORTHSTAR.md',
  '.github/workflows/ci.yml',
  'package.json',
  'package-lock.json',
  'pnpm-lock.yaml',
  'jest.config.js',
  'vitest.config.ts',
  'test/calc.test.js',
  'tests/test_calc.py',
  'conftest.py',
  'pyproject.toml',
  'setup.cfg',
  'setup.py',
  'requirements.txt',
  'go.mod',
  'go.sum',
  'Cargo.toml',
  'Cargo.lock',
  'build.rs',
  'pom.xml',
  'build.gradle',
  'Makefile',
  'scripts/test.sh',
];

async function written(repo: string): Promise<LoopConfig> {
  const config = parseConfig(await readFile(join(repo, 'phuc-loop.yml'), 'utf8'));
  const metrics = parseNorthstar(
    await readFile(join(repo, 'NORTHSTAR.md'), 'utf8'),
    config.acceptance_criteria.map((c) => c.id),
  );
  // NORTHSTAR.md's first metric is the residual the config chose, target 0, labelled as that residual.
  expect(metrics[0]).toMatchObject({ id: 'residual', target: '0', measure: { kind: 'residual' } });
  expect(metrics[0].metric).toBe(
    config.residual.metric === 'failing_tests_fraction' ? `failing tests / tests run (JUnit ${config.residual.junit})` : 'failing acceptance criteria',
  );
  // Residual and suite-integrity counting read the same JUnit files.
  expect(config.checks.junit).toBe(config.residual.junit);
  expect(config.checks.workspace).toBe('clean');
  for (const always of ['phuc-loop.yml', 'NORTHSTAR.md', '.github/**']) expect(config.protected).toContain(always);
  // The allow-list: never the tests, runner configs, scripts, manifests, lockfiles or the loop's own files.
  const allowed = picomatch(config.agent.may_change ?? [], { dot: true });
  expect(config.agent.may_change?.length).toBeGreaterThan(0);
  for (const f of NEVER_ALLOWED) expect(`${f}: ${allowed(f)}`).toBe(`${f}: false`);
  return config;
}

/** Hands the written config to a scripted fixer (everything else as init wrote it), commits it, runs the loop. */
async function runWithFixer(repo: string, fix: [file: string, from: string, to: string], edit?: (doc: ReturnType<typeof parseDocument>) => void) {
  const doc = parseDocument(await readFile(join(repo, 'phuc-loop.yml'), 'utf8'));
  doc.setIn(['agent', 'use'], 'command');
  doc.setIn(['agent', 'run'], `${agent('replace.mjs')} ${fix.map((w) => `'${w}'`).join(' ')}`);
  edit?.(doc);
  await writeFile(join(repo, 'phuc-loop.yml'), String(doc));
  await git(repo, 'add', '-A');
  await git(repo, 'commit', '-q', '-m', 'phuc-loop init');
  expect(await git(repo, 'status', '--porcelain')).toBe('');
  return cli(repo, ['run'], ENV);
}

function expectConverged(r: { code: number | null; stdout: string; stderr: string }) {
  if (r.code !== 0) throw new Error(`phuc-loop run exited ${r.code}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`);
  // The planted bug fails the written criterion at baseline; the fixer's commit passes it.
  expect(r.stdout).toMatch(/baseline: 0\/1 criteria met/);
  expect(r.stdout).toMatch(/EXIT_CONVERGED\((EXACT|CONVERGED)\) — exit 0/);
}

/** Runs `fn` only where the toolchain is installed; otherwise the test is skipped and says why. */
function withToolchain(present: boolean, what: string) {
  return present
    ? test
    : (name: string, fn: () => Promise<void>, t?: number) => test.skip(`${name} [skipped: ${what} missing here; .ci/run installs it]`, fn, t);
}

const CALC_TEST_JS = `const test = require('node:test');
const assert = require('node:assert');
const { add } = require('../src/calc.js');

test('adds', () => assert.strictEqual(add(2, 3), 5));
test('adds zero', () => assert.strictEqual(add(4, 0), 4));
`;
const CALC_JS = 'exports.add = (a, b) => a - b;\n';

describe('npm', () => {
  test(
    'node:test: runs node --test with a JUnit reporter, npm ci as setup, and the first run converges',
    async () => {
      const repo = await makeRepo({
        'package.json': JSON.stringify({ name: 'calc', version: '1.0.0', private: true, scripts: { test: 'node --test' } }, null, 2),
        'package-lock.json': JSON.stringify(
          { name: 'calc', version: '1.0.0', lockfileVersion: 3, requires: true, packages: { '': { name: 'calc', version: '1.0.0' } } },
          null,
          2,
        ),
        'src/calc.js': CALC_JS,
        'test/calc.test.js': CALC_TEST_JS,
      });
      const r = await init(repo);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('detected project type npm: node:test');
      const c = await written(repo);
      expect(c.acceptance_criteria[0].run).toBe(
        'mkdir -p reports && node --test --test-reporter=spec --test-reporter-destination=stdout --test-reporter=junit --test-reporter-destination=reports/junit.xml',
      );
      expect(c.residual).toMatchObject({ metric: 'failing_tests_fraction', junit: 'reports/junit.xml' });
      expect(c.checks).toMatchObject({ setup: 'npm ci', setup_inputs: ['package.json', 'package-lock.json'], junit: 'reports/junit.xml' });
      for (const g of ['package.json', 'package-lock.json', '.npmrc', 'test/**', '**/*.test.*']) expect(c.protected).toContain(g);
      // The reports the checks write are kept out of the agent's commits.
      expect(await readFile(join(repo, '.git/info/exclude'), 'utf8')).toMatch(/^reports\/$/m);
      expect(r.stdout).toContain('added reports/ to .git/info/exclude');
      expectConverged(await runWithFixer(repo, ['src/calc.js', 'a - b', 'a + b']));
      expect(await git(repo, 'show', 'HEAD:src/calc.js')).toBe('exports.add = (a, b) => a + b;\n');
    },
    LONG,
  );

  test(
    "jest (from this repository's node_modules): runs jest --ci, npm install as setup without a lockfile, and converges",
    async () => {
      const repo = await makeRepo({
        'package.json': JSON.stringify(
          { name: 'calc', version: '1.0.0', private: true, scripts: { test: 'jest' }, devDependencies: { jest: '30.2.0' } },
          null,
          2,
        ),
        '.gitignore': 'node_modules\n',
        'src/calc.js': CALC_JS,
        '__tests__/calc.test.js': "const { add } = require('../src/calc.js');\n\ntest('adds', () => expect(add(2, 3)).toBe(5));\n",
      });
      const r = await init(repo);
      expect(r.code).toBe(0);
      const c = await written(repo);
      // Without jest-junit jest writes no JUnit: the residual counts failing criteria.
      expect(c.acceptance_criteria[0].run).toBe('npx jest --ci');
      expect(c.residual.metric).toBe('failing_criteria');
      expect(c.checks).toMatchObject({ setup: 'npm install', setup_inputs: ['package.json'] });
      expect(c.checks.junit).toBeUndefined();
      for (const g of ['package.json', 'jest.config.*', 'babel.config.*', '**/__tests__/**']) expect(c.protected).toContain(g);
      expect(r.text).toContain('no package-lock.json: a lockfile makes this reproducible (npm ci)');
      // The registry is not the test's to use: setup links this repository's node_modules, where jest is.
      const res = await runWithFixer(repo, ['src/calc.js', 'a - b', 'a + b'], (doc) =>
        doc.setIn(['checks', 'setup'], `ln -sfn ${join(ROOT, 'node_modules')} node_modules`),
      );
      expectConverged(res);
    },
    LONG,
  );

  test('vitest through pnpm, mocha through yarn, jest with jest-junit: the runner with its JUnit reporter and the frozen-lockfile install', async () => {
    const vitest = await makeRepo({
      'package.json': JSON.stringify({ scripts: { test: 'vitest --watch' }, devDependencies: { vitest: '3.2.4' } }),
      'pnpm-lock.yaml': "lockfileVersion: '9.0'\n",
    });
    expect((await init(vitest)).code).toBe(0);
    let c = await written(vitest);
    expect(c.acceptance_criteria[0].run).toBe('pnpm exec vitest run --reporter=default --reporter=junit --outputFile.junit=reports/junit.xml');
    expect(c.checks).toMatchObject({ setup: 'pnpm install --frozen-lockfile', setup_inputs: ['package.json', 'pnpm-lock.yaml'], junit: 'reports/junit.xml' });
    for (const g of ['vitest.config.*', 'vite.config.*', 'pnpm-lock.yaml', 'pnpm-workspace.yaml']) expect(c.protected).toContain(g);

    const mocha = await makeRepo({
      'package.json': JSON.stringify({ scripts: { test: "mocha 'spec/**/*.spec.js'" }, devDependencies: { mocha: '11.0.0' } }),
      'yarn.lock': '# yarn lockfile v1\n',
    });
    expect((await init(mocha)).code).toBe(0);
    c = await written(mocha);
    expect(c.acceptance_criteria[0].run).toBe("mkdir -p reports && yarn mocha 'spec/**/*.spec.js' --reporter=xunit --reporter-option=output=reports/junit.xml");
    expect(c.checks.setup).toBe('yarn install --frozen-lockfile');
    // The files the command names are protected with it.
    for (const g of ['.mocharc*', 'spec/**/*.spec.js', 'yarn.lock']) expect(c.protected).toContain(g);

    const jest = await makeRepo({
      'package.json': JSON.stringify({ devDependencies: { jest: '30.2.0', 'jest-junit': '16.0.0' } }),
      'package-lock.json': '{}',
    });
    expect((await init(jest)).code).toBe(0);
    c = await written(jest);
    expect(c.acceptance_criteria[0].run).toBe(
      'JEST_JUNIT_OUTPUT_DIR=reports JEST_JUNIT_OUTPUT_NAME=junit.xml npx jest --ci --reporters=default --reporters=jest-junit',
    );
    expect(c.residual).toMatchObject({ metric: 'failing_tests_fraction', junit: 'reports/junit.xml' });
  });

  test("node:test keeps the script's variables, flags and paths, and protects the paths it names", async () => {
    const repo = await makeRepo({
      'package.json': JSON.stringify({ scripts: { test: 'NODE_OPTIONS=--no-warnings node --require ./setup/env.js --test --test-concurrency=1 unit/' } }),
      'package-lock.json': '{}',
      'setup/env.js': '',
      'unit/a.test.js': '',
    });
    expect((await init(repo)).code).toBe(0);
    const c = await written(repo);
    expect(c.acceptance_criteria[0].run).toBe(
      'mkdir -p reports && NODE_OPTIONS=--no-warnings node --require ./setup/env.js --test --test-reporter=spec --test-reporter-destination=stdout --test-reporter=junit --test-reporter-destination=reports/junit.xml --test-concurrency=1 unit/',
    );
    for (const g of ['setup/env.js', 'unit/**']) expect(c.protected).toContain(g);
  });

  test("a test script that is more than one runner call is run as the package's own script, with failing_criteria", async () => {
    const repo = await makeRepo({ 'package.json': JSON.stringify({ scripts: { test: 'tsc && node --test dist/' } }), 'package-lock.json': '{}' });
    expect((await init(repo)).code).toBe(0);
    const c = await written(repo);
    expect(c.acceptance_criteria[0]).toMatchObject({ run: 'npm test', description: "the package's test script (npm test) exits 0" });
    expect(c.residual.metric).toBe('failing_criteria');
    expect(c.protected).toContain('package.json');
  });
});

describe('python', () => {
  const pytest = existsSync('/usr/lib/python3/dist-packages/pytest');
  withToolchain(pytest, "Debian's python3-pytest")(
    'pytest: python3 -m pytest --junitxml, conftest.py and the pytest configuration protected, no setup needed, and converges',
    async () => {
      const repo = await makeRepo({
        'pyproject.toml': '[tool.pytest.ini_options]\ntestpaths = ["tests"]\n',
        'conftest.py': '',
        '.gitignore': '__pycache__/\n.pytest_cache/\n',
        'calc.py': 'def add(a, b):\n    return a - b\n',
        'tests/test_calc.py': 'from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n\n\ndef test_add_zero():\n    assert add(4, 0) == 4\n',
      });
      const r = await init(repo);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('detected project type python: pytest');
      const c = await written(repo);
      expect(c.acceptance_criteria[0].run).toBe('python3 -m pytest --junitxml=reports/junit.xml');
      expect(c.residual).toMatchObject({ metric: 'failing_tests_fraction', junit: 'reports/junit.xml' });
      expect(c.checks.setup).toBeUndefined();
      for (const g of ['**/conftest.py', 'pytest.ini', 'pyproject.toml', 'setup.cfg', 'tox.ini', 'tests/**', '**/test_*.py']) expect(c.protected).toContain(g);
      expect(r.text).not.toContain('run-tests.sh');
      expectConverged(await runWithFixer(repo, ['calc.py', 'a - b', 'a + b']));
    },
    LONG,
  );

  test('requirements files and an installable package with a test extra become one pip setup; tox and nox are used when configured and installed, else pytest and how to install them', async () => {
    const repo = await makeRepo({
      'pyproject.toml': '[project]\nname = "calc"\nversion = "0.1"\n\n[project.optional-dependencies]\ntest = ["pytest"]\n',
      'requirements.txt': 'attrs\n',
      'requirements-dev.txt': 'pytest\n',
    });
    expect((await init(repo)).code).toBe(0);
    const c = await written(repo);
    expect(c.checks).toMatchObject({
      // Layered on the Python on PATH when that is a virtual environment (the reusable workflow's): pip finds its dependencies there.
      setup: `python3 -m venv --system-site-packages .venv && python3 -c "import site, sys; sys.prefix == sys.base_prefix or open('.venv/lib/python%d.%d/site-packages/outer-env.pth' % sys.version_info[:2], 'w').write('\\n'.join(site.getsitepackages()))" && .venv/bin/python -m pip install -r requirements-dev.txt -r requirements.txt -e '.[test]'`,
      setup_inputs: ['requirements-dev.txt', 'requirements.txt', 'pyproject.toml'],
    });
    for (const g of ['requirements.txt', 'requirements-dev.txt']) expect(c.protected).toContain(g);
    // The criterion runs the environment the setup made, not the Python on PATH it could not install into.
    expect(c.acceptance_criteria[0].run).toBe('PATH="$PWD/.venv/bin:$PATH" python3 -m pytest --junitxml=reports/junit.xml');

    // tox and nox where they are installed (stand-ins on the PATH here); otherwise pytest, saying how to install them.
    const bin = join(dirname(repo), 'bin');
    await mkdir(bin);
    for (const t of ['tox', 'nox']) {
      await writeFile(join(bin, t), '#!/bin/sh\n');
      await chmod(join(bin, t), 0o755);
    }
    const withTools = { PATH: `${bin}:${PATH}` };
    const tox = await makeRepo({ 'tox.ini': '[tox]\nenvlist = py3\n[testenv]\ncommands = pytest\n', 'setup.py': 'from setuptools import setup\nsetup()\n' });
    expect((await init(tox, [], withTools)).code).toBe(0);
    const t = await written(tox);
    expect(t.acceptance_criteria[0].run).toBe('tox');
    expect(t.residual.metric).toBe('failing_criteria');
    expect(t.checks.setup).toBeUndefined();

    const nox = await makeRepo({ 'noxfile.py': 'import nox\n', 'tox.ini': '[tox]\n' });
    expect((await init(nox, [], withTools)).code).toBe(0);
    expect((await written(nox)).acceptance_criteria[0].run).toBe('nox');

    const absent = await init(nox, ['--force']);
    expect(absent.code).toBe(0);
    expect((await written(nox)).acceptance_criteria[0].run).toBe('python3 -m pytest --junitxml=reports/junit.xml');
    expect(absent.stdout).toContain(
      'note: nox and tox are configured but not installed here: `python3 -m pip install nox tox`, then `phuc-loop init --force` runs them',
    );
    expect(absent.text).toContain('# nox and tox are configured but not installed here');
  });
});

describe('go', () => {
  const files = {
    'go.mod': 'module example.com/calc\n\ngo 1.19\n',
    'calc.go': 'package calc\n\nfunc Add(a, b int) int {\n\treturn a - b\n}\n',
    'calc_test.go':
      'package calc\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\tif got := Add(2, 3); got != 5 {\n\t\tt.Fatalf("Add(2, 3) = %d; want 5", got)\n\t}\n}\n',
  };
  withToolchain(existsSync('/usr/bin/go'), "Debian's golang-go")(
    'go test ./..., the _test.go files and go.mod protected, and converges',
    async () => {
      const repo = await makeRepo(files);
      const r = await init(repo);
      expect(r.code).toBe(0);
      const c = await written(repo);
      expect(c.acceptance_criteria[0].run).toBe('go test ./...');
      expect(c.residual.metric).toBe('failing_criteria');
      expect(c.checks.setup).toBeUndefined();
      for (const g of ['**/*_test.go', '**/testdata/**', 'go.mod', 'go.sum']) expect(c.protected).toContain(g);
      expectConverged(await runWithFixer(repo, ['calc.go', 'a - b', 'a + b']));
    },
    LONG,
  );

  test('with go-junit-report on the PATH its JUnit file is the residual; go.sum makes `go mod download` the setup', async () => {
    const repo = await makeRepo({ ...files, 'go.sum': '' });
    const bin = join(dirname(repo), 'bin');
    await mkdir(bin);
    await writeFile(join(bin, 'go-junit-report'), '#!/bin/sh\n');
    await chmod(join(bin, 'go-junit-report'), 0o755);
    expect((await init(repo, [], { PATH: `${bin}:${PATH}` })).code).toBe(0);
    const c = await written(repo);
    expect(c.acceptance_criteria[0].run).toBe('mkdir -p reports && go test -v ./... 2>&1 | go-junit-report -set-exit-code -iocopy -out reports/junit.xml');
    expect(c.residual).toMatchObject({ metric: 'failing_tests_fraction', junit: 'reports/junit.xml' });
    expect(c.checks).toMatchObject({ setup: 'go mod download', setup_inputs: ['go.mod', 'go.sum'] });
  });
});

describe('rust', () => {
  withToolchain(existsSync('/usr/bin/cargo'), "Debian's cargo")(
    'cargo test, cargo fetch --locked as setup, Cargo.toml, tests/ and .cargo/ protected, and converges',
    async () => {
      const repo = await makeRepo({
        'Cargo.toml': '[package]\nname = "calc"\nversion = "0.1.0"\nedition = "2021"\n',
        'Cargo.lock':
          '# This file is automatically @generated by Cargo.\n# It is not intended for manual editing.\nversion = 3\n\n[[package]]\nname = "calc"\nversion = "0.1.0"\n',
        '.gitignore': '/target\n',
        'src/lib.rs': 'pub fn add(a: i64, b: i64) -> i64 {\n    a - b\n}\n',
        'tests/add.rs': 'use calc::add;\n\n#[test]\nfn adds() {\n    assert_eq!(add(2, 3), 5);\n}\n',
      });
      const r = await init(repo);
      expect(r.code).toBe(0);
      const c = await written(repo);
      expect(c.acceptance_criteria[0].run).toBe('cargo test');
      expect(c.residual.metric).toBe('failing_criteria');
      expect(c.checks).toMatchObject({ setup: 'cargo fetch --locked', setup_inputs: ['Cargo.toml', 'Cargo.lock'] });
      for (const g of ['**/tests/**', '**/Cargo.toml', 'Cargo.lock', '.cargo/**']) expect(c.protected).toContain(g);
      expectConverged(await runWithFixer(repo, ['src/lib.rs', 'a - b', 'a + b']));
    },
    LONG,
  );
});

// The checks' user has no home of its own: Java would look for ~/.m2 and ~/.gradle under /nonexistent.
const JAVA_HOME_NOTE = "    # Java takes its home from the account, not $HOME (the checks' own user has none): this points it at the checks' HOME\n";

describe('java', () => {
  withToolchain(MAVEN, "Debian's maven, default-jdk-headless, libmaven-resources-plugin-java, libmaven-compiler-plugin-java or libsurefire-java")(
    "Maven: mvn -B test with the checks' HOME as Java's, the surefire reports as JUnit; the poms, src/test and .mvn protected, and converges",
    async () => {
      const repo = await makeRepo({
        'pom.xml': POM,
        '.mvn/maven.config': '-s .mvn/settings.xml\n',
        '.mvn/settings.xml': MAVEN_MIRROR,
        [CALC_JAVA_PATH]: CALC_JAVA,
        'src/test/java/com/example/calc/CalcTest.java': calcTestJava(5),
      });
      const r = await init(repo);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('detected project type maven: Maven surefire');
      const c = await written(repo);
      expect(c.acceptance_criteria[0].run).toBe('MAVEN_OPTS="-Duser.home=$HOME" mvn -B test');
      expect(r.text).toContain(`${JAVA_HOME_NOTE}    run: MAVEN_OPTS="-Duser.home=$HOME" mvn -B test\n`);
      expect(c.residual).toMatchObject({ metric: 'failing_tests_fraction', junit: '**/target/surefire-reports/TEST-*.xml' });
      expect(c.checks.setup).toBeUndefined();
      for (const g of ['**/pom.xml', '**/src/test/**', '.mvn/**', 'mvnw']) expect(c.protected).toContain(g);
      expect(await readFile(join(repo, '.git/info/exclude'), 'utf8')).toMatch(/^target\/$/m);
      const res = await runWithFixer(repo, [CALC_JAVA_PATH, 'a - b', 'a + b']);
      expectConverged(res);
      // The residual is read from surefire's reports: one test of two fails at baseline.
      expect(res.stdout).toMatch(/baseline: 0\/1 criteria met, residual 0\.5 /);
      expect(await git(repo, 'show', `HEAD:${CALC_JAVA_PATH}`)).toContain('return a + b;');
    },
    LONG,
  );

  withToolchain(GRADLE, "Debian's gradle, default-jdk-headless or junit4")(
    "Gradle: gradle test with its user home in the checks' HOME, build/test-results as JUnit, the build files protected, and converges",
    async () => {
      const repo = await makeRepo({
        'build.gradle': BUILD_GRADLE,
        'settings.gradle': "rootProject.name = 'calc'\n",
        '.gitignore': '.gradle/\n',
        [CALC_JAVA_PATH]: CALC_JAVA,
        'src/test/java/com/example/calc/CalcTest.java': calcTestJava(4),
      });
      const r = await init(repo);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('detected project type gradle: Gradle test');
      const c = await written(repo);
      expect(c.acceptance_criteria[0].run).toBe('GRADLE_USER_HOME="$HOME/.gradle" gradle test');
      expect(r.text).toContain(`${JAVA_HOME_NOTE}    run: GRADLE_USER_HOME="$HOME/.gradle" gradle test\n`);
      expect(c.residual).toMatchObject({ metric: 'failing_tests_fraction', junit: '**/build/test-results/test/TEST-*.xml' });
      expect(c.checks.setup).toBeUndefined();
      for (const g of ['**/build.gradle', 'settings.gradle', 'gradle.properties', 'gradle/**', '**/src/test/**']) expect(c.protected).toContain(g);
      expect(await readFile(join(repo, '.git/info/exclude'), 'utf8')).toMatch(/^build\/$/m);
      const res = await runWithFixer(repo, [CALC_JAVA_PATH, 'a - b', 'a + b']);
      expectConverged(res);
      expect(res.stdout).toMatch(/baseline: 0\/1 criteria met, residual 0\.5 /);
    },
    LONG,
  );

  test('the wrappers when there are: ./mvnw and ./gradlew, with the same homes', async () => {
    const maven = await makeRepo({ 'pom.xml': '<project/>\n', mvnw: '#!/bin/sh\n' });
    expect((await init(maven)).code).toBe(0);
    expect((await written(maven)).acceptance_criteria[0].run).toBe('MAVEN_OPTS="-Duser.home=$HOME" ./mvnw -B test');

    const gradle = await makeRepo({ 'build.gradle.kts': 'plugins { java }\n', gradlew: '#!/bin/sh\n' });
    expect((await init(gradle)).code).toBe(0);
    const c = await written(gradle);
    expect(c.acceptance_criteria[0].run).toBe('GRADLE_USER_HOME="$HOME/.gradle" ./gradlew test');
    for (const g of ['**/build.gradle.kts', 'gradlew', 'gradle/**', '**/src/test/**']) expect(c.protected).toContain(g);
  });
});

describe('the programs a proposed config runs', () => {
  /** A PATH holding git and stand-ins for `programs`, nothing else. */
  async function pathWith(programs: string[]): Promise<Record<string, string>> {
    const bin = await mkdtemp(join(tmpdir(), 'phuc-init-bin-'));
    await symlink('/usr/bin/git', join(bin, 'git'));
    for (const p of programs) await symlink('/bin/true', join(bin, p));
    return { PATH: bin };
  }
  const missing = (stderr: string) => [...stderr.matchAll(/warning: (\S+) is not installed here/g)].map((m) => m[1]);

  test('each one missing from PATH is named with how to install it; one on PATH, or one the setup installs, is not', async () => {
    const cases: [files: Record<string, string>, onPath: string[], expected: string[]][] = [
      [{ 'go.mod': 'module example.com/m\n\ngo 1.19\n' }, [], ['go']],
      [{ 'go.mod': 'module example.com/m\n\ngo 1.19\n' }, ['go'], []],
      [{ 'Cargo.toml': '[package]\nname = "m"\nversion = "0.1.0"\n' }, [], ['cargo']],
      [{ 'pom.xml': '<project/>\n', mvnw: '#!/bin/sh\n' }, [], ['java']],
      [{ 'build.gradle': '' }, ['java'], ['gradle']],
      [{ 'setup.py': 'from setuptools import setup\nsetup()\n' }, ['python3'], ['pytest']],
      [{ 'requirements.txt': 'pytest==8.3.3\n' }, ['python3'], []],
      [{ 'package.json': '{"scripts":{"test":"node --test"}}', 'pnpm-lock.yaml': '' }, ['npm'], ['pnpm']],
      [{ Makefile: 'test:\n\ttrue\n' }, [], ['make']],
    ];
    for (const [files, onPath, expected] of cases) {
      const repo = await makeRepo(files);
      const r = await init(repo, [], await pathWith(onPath));
      expect([Object.keys(files), r.code, missing(r.stderr)]).toEqual([Object.keys(files), 0, expected]);
    }
    const go = await init(await makeRepo(cases[0][0]), [], await pathWith([]));
    expect(go.stderr).toContain('go is not installed here (the checks run it): apt-get install golang-go, or https://go.dev/dl/');
  });
});

describe('anything else', () => {
  test('a security or API surface in the layout: rung 65537 with `paraphrase: agent` proposed (commented: init invents no gate); none without one', async () => {
    const repo = await makeRepo({ Makefile: 'test:\n\tsh check.sh\n', 'src/auth/login.js': 'export {};\n', 'api/openapi.yaml': 'openapi: 3.0.0\n' });
    const r = await init(repo);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('security.paraphrase: agent proposed, commented out (a security or API surface: api, src/auth)');
    expect(r.text).toMatch(
      /# This project has a security or API surface \(api, src\/auth\)[\s\S]*\n# security:\n# {3}gate: .*\n# {3}api_surface: .*\n# {3}paraphrase: agent\n/,
    );
    expect(await written(repo)).not.toHaveProperty('security');
    // Uncommented with the user's commands, it is a valid config asking for the agent's paraphrase.
    const filled = r.text
      .replace('rung_target: 274177', 'rung_target: 65537')
      .replace('# security:', 'security:')
      .replace(/# {3}gate: .*/, '  gate: "true"')
      .replace(/# {3}api_surface: .*/, '  api_surface: "cat api/openapi.yaml"')
      .replace('#   paraphrase: agent', '  paraphrase: agent');
    expect(parseConfig(filled, 'phuc-loop.yml').security).toMatchObject({ paraphrase: 'agent' });

    const plain = await makeRepo({ Makefile: 'test:\n\tsh check.sh\n', 'src/calc.js': 'export {};\n' });
    const p = await init(plain);
    expect(p.text).not.toMatch(/paraphrase|# security:/);
    expect(p.stdout).not.toContain('security.paraphrase');
  });

  test('a Makefile with a test target: make test', async () => {
    const repo = await makeRepo({ Makefile: 'test:\n\tsh check.sh\n' });
    expect((await init(repo)).code).toBe(0);
    const c = await written(repo);
    expect(c.acceptance_criteria[0].run).toBe('make test');
    expect(c.protected).toContain('Makefile');
  });

  test('no known type: a marked placeholder, exit 13 naming the field to fill, and run refuses the file', async () => {
    const repo = await makeRepo({ 'README.md': 'hello\n' });
    const r = await init(repo);
    expect(r.code).toBe(13);
    expect(r.stdout).toContain('no known project type found');
    expect(r.stderr).toContain('fill in acceptance_criteria[0].run in phuc-loop.yml');
    expect(r.text).toContain("# FILL IN: the command that runs this project's tests");
    expect(r.text).toContain('run: ""');
    expect(parseNorthstar(await readFile(join(repo, 'NORTHSTAR.md'), 'utf8'))[0]).toMatchObject({ id: 'residual', metric: 'failing acceptance criteria' });
    await git(repo, 'add', '-A');
    await git(repo, 'commit', '-q', '-m', 'init');
    const run = await cli(repo, ['run'], ENV);
    expect(run.code).toBe(13);
    expect(run.stderr).toMatch(/phuc-loop\.yml: acceptance_criteria\.0\.run: got ""; must be a non-empty shell command/);
  });

  test('a package.json without any test runner or script is the placeholder too, with its npm setup', async () => {
    const repo = await makeRepo({ 'package.json': '{"name":"x","scripts":{"test":"echo \\"Error: no test specified\\" && exit 1"}}' });
    const r = await init(repo);
    expect(r.code).toBe(13);
    const doc = parseDocument(r.text).toJS();
    expect(doc.acceptance_criteria[0].run).toBe('');
    expect(doc.checks.setup).toBe('npm install');
  });

  test('--type forces a type; an unknown type is a usage error naming the allowed values', async () => {
    const repo = await makeRepo({ 'package.json': '{"scripts":{"test":"jest"}}', 'go.mod': 'module x\n' });
    const detected = await init(repo);
    expect(detected.stdout).toContain('also found: go');
    const forced = await init(repo, ['--type', 'go', '--force']);
    expect(forced.code).toBe(0);
    expect((await written(repo)).acceptance_criteria[0].run).toBe('go test ./...');
    const bad = await init(repo, ['--type', 'cobol']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--type: got "cobol"; allowed: npm | pnpm | yarn | python | go | rust | maven | gradle | make | generic');
  });

  test('never overwrites an existing file, and says so', async () => {
    const repo = await makeRepo({ 'go.mod': 'module x\n', 'phuc-loop.yml': 'mine\n' });
    const r = await init(repo);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('phuc-loop.yml exists; not overwritten (use --force to replace it)');
    expect(r.stdout).toContain('wrote NORTHSTAR.md');
    expect(await readFile(join(repo, 'phuc-loop.yml'), 'utf8')).toBe('mine\n');
  });
});

describe('agent.may_change: the source folders of each project type', () => {
  test.each([
    [
      'npm, source folders',
      { 'package.json': '{"scripts":{"test":"node --test"}}', 'package-lock.json': '{}', 'src/a.js': '', 'lib/b.js': '', 'test/a.test.js': '' },
      ['lib/**', 'src/**'],
    ],
    [
      'npm, modules at the root',
      { 'package.json': '{"main":"./calc.js","scripts":{"test":"node --test"}}', 'calc.js': '', 'util.mjs': '', 'jest.config.js': '', 'a.test.js': '' },
      ['calc.js', 'util.mjs'],
    ],
    [
      'pnpm workspace',
      {
        'package.json': '{"scripts":{"test":"vitest"}}',
        'pnpm-lock.yaml': '',
        'packages/core/src/a.ts': '',
        'packages/core/test/a.test.ts': '',
        'apps/web/src/b.ts': '',
      },
      ['apps/web/src/**', 'packages/core/src/**'],
    ],
    ['python, src layout (pytest)', { 'pyproject.toml': '[tool.pytest.ini_options]\n', 'src/calc/__init__.py': '', 'tests/test_calc.py': '' }, ['src/**']],
    [
      'python, flat packages and modules (pytest)',
      {
        'pyproject.toml': '[project]\nname = "calc"\n',
        'calc/__init__.py': '',
        'util.py': '',
        'setup.py': '',
        'conftest.py': '',
        'tests/__init__.py': '',
        'test_x.py': '',
      },
      ['calc/**', 'util.py'],
    ],
    ['python, unittest', { 'setup.py': '', 'calc.py': '', 'tests/test_calc.py': 'import unittest\n' }, ['calc.py']],
    ['go', { 'go.mod': 'module x\n', 'calc.go': '', 'calc_test.go': '' }, ['**/*.go']],
    [
      'rust workspace',
      { 'Cargo.toml': '[workspace]\n', 'crates/core/Cargo.toml': '', 'crates/core/src/lib.rs': '', 'cli/Cargo.toml': '', 'cli/src/main.rs': '' },
      ['cli/src/**', 'crates/core/src/**'],
    ],
    ['maven', { 'pom.xml': '<project/>\n', 'src/main/java/A.java': '' }, ['**/src/main/**']],
    ['gradle', { 'build.gradle': '', 'src/main/java/A.java': '' }, ['**/src/main/**']],
  ] as const)('%s', async (_name, files, globs) => {
    const repo = await makeRepo({ ...files });
    const r = await init(repo);
    expect(r.code).toBe(0);
    const c = await written(repo);
    expect(c.agent.may_change).toEqual(globs);
    expect(r.stdout).toContain(`agent.may_change: ${globs.join(', ')}`);
    // The written config says why and how to widen it.
    expect(r.text).toMatch(/# The allow-list: the agent may change only these paths\.[\s\S]*To widen it, add a glob/);
  });
});
