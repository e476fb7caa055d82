// The runner proves itself honest every round (SPEC §7): a loop-owned test that must fail is run
// with the suite, the way the criterion runs it. Real CLI, real repositories, the real runner
// (python3 -m unittest), at the isolation level the machine gives (user+pidns as root).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { cli, config, makeRepo, NORTHSTAR, readJson } from '../helpers/repo.js';
import { ROOT as ROOT_USER } from '../helpers/users.js';
import { isolationFacts } from '../helpers/isolation.js';

const AGENT_REPORT = `echo '{"tried":["t"],"claims":["c"],"failures":[],"open_questions":[],"can_further_iteration_help":true}' > "$PHUC_REPORT_FILE"`;
const TEST = 'import unittest\nimport calc\n\n\nclass TestCalc(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(calc.add(1, 2), 3)\n';
const report = (repo: string) => readJson<Record<string, any>>(join(repo, 'evidence/loop/halting_report.json'));

function repoWith(agentSh: string): Promise<string> {
  return makeRepo({
    'phuc-loop.yml': config({ criteria: [{ id: 'tests', run: 'python3 -m unittest discover -s test' }], agent: 'sh agent.sh' }),
    'NORTHSTAR.md': NORTHSTAR,
    'agent.sh': `${agentSh}\n${AGENT_REPORT}\n`,
    'calc.py': 'def add(a, b):\n    return a - b\n',
    'test/test_calc.py': TEST,
  });
}

test('an agent whose code forces the runner to exit 0 (failures and all) gets no certificate: RUNNER_COMPROMISED names the round', async () => {
  // The bug stays; the module under test makes every run of the suite exit 0 (no protected file touched).
  const repo = await repoWith(`printf 'import atexit, os\\natexit.register(lambda: os._exit(0))\\n\\n\\ndef add(a, b):\\n    return a - b\\n' > calc.py`);
  const r = await cli(repo, ['run']);
  expect(r.code).toBe(12);
  const rep = await report(repo);
  expect(rep).toMatchObject({ status: 'EXIT_BLOCKED', stop_reason: 'RUNNER_COMPROMISED' });
  // The copy of the test that failed at the baseline fails too: either may be named first.
  expect(rep.detail).toMatch(/the test runner is compromised \(round iter_0\).*criterion `tests` (ran the suite|passing) \(unittest\)/);
  expect(r.stdout + r.stderr).toMatch(/iter_0: runner canary \(unittest\) for `tests`: PASSED/);
  expect(rep.halting_certificate.type).not.toMatch(/EXACT|CONVERGED/);
});

test('an honest fix converges; the certificate records the canary, and verify --rerun runs it again', async () => {
  const repo = await repoWith(`printf 'def add(a, b):\\n    return a + b\\n' > calc.py`);
  const r = await cli(repo, ['run']);
  expect(r.stdout + r.stderr).toMatch(/halt: EXIT_CONVERGED/);
  expect(r.stdout + r.stderr).toMatch(/iter_0: runner canary \(unittest\) for `tests`: failed, as it must/);
  const cert = await readJson<Record<string, any>>(join(repo, 'evidence/loop/iter_0/certificate.json'));
  // With the copy of the test the baseline saw fail, which passes once the bug is fixed.
  expect(cert.canary).toEqual([{ criterion: 'tests', runner: 'unittest', outcome: 'failed', copies: [{ test: 'TestCalc.test_add', outcome: 'passed' }] }]);
  const v = await cli(repo, ['verify', '--rerun']);
  expect(v.stdout + v.stderr).toMatch(/rerun: runner canary \(unittest\) for `tests`: failed, as it must/);
  expect(v.code).toBe(0);
});

// Cargo, Maven (surefire, JUnit 5) and Gradle (JUnit 4): the agent leaves the bug and makes the build
// tool's own configuration swallow the failures (no protected file touched). At `none`: the
// toolchains and the offline Maven repository (~/.m2) are the loop user's, out of the check user's
// reach at user+pidns (a CI machine that has them for all users runs these at every level).
const M2 = join(homedir(), '.m2', 'repository');
const found = (cmd: string) => (spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0 ? null : `${cmd} is not installed`);
const inM2 = (...paths: string[]) => (paths.every((p) => existsSync(join(M2, p))) ? null : `the offline Maven repository lacks ${paths.join(', ')}`);
const JUNIT5 = [
  'org/junit/jupiter/junit-jupiter/5.11.4',
  'org/apache/maven/plugins/maven-surefire-plugin/3.5.2',
  'org/apache/maven/surefire/surefire-junit-platform/3.5.2',
];
const POM = `<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>calc</groupId>
  <artifactId>calc</artifactId>
  <version>1.0</version>
  <properties>
    <maven.compiler.release>17</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <dependencies>
    <dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter</artifactId><version>5.11.4</version><scope>test</scope></dependency>
  </dependencies>
  <build><plugins>
    <plugin><artifactId>maven-resources-plugin</artifactId><version>3.3.1</version></plugin>
    <plugin><artifactId>maven-compiler-plugin</artifactId><version>3.13.0</version></plugin>
    <plugin><artifactId>maven-surefire-plugin</artifactId><version>3.5.2</version>
      <dependencies><dependency><groupId>org.codehaus.plexus</groupId><artifactId>plexus-utils</artifactId><version>3.5.1</version></dependency></dependencies>
    </plugin>
  </plugins></build>
</project>
`;
const CALC_JAVA = 'package calc;\n\npublic class Calc {\n    public static int add(int a, int b) {\n        return a - b;\n    }\n}\n';
const JVM_RUNNERS: {
  runner: string;
  skip: string | null;
  files: Record<string, string>;
  run: string;
  env: Record<string, string>;
  attack: string;
  honest?: boolean;
}[] = [
  {
    runner: 'cargo test',
    skip: found('cargo'),
    files: {
      'Cargo.toml': '[package]\nname = "calc"\nversion = "0.1.0"\nedition = "2021"\n',
      'Cargo.lock':
        '# This file is automatically @generated by Cargo.\n# It is not intended for manual editing.\nversion = 4\n\n[[package]]\nname = "calc"\nversion = "0.1.0"\n',
      '.gitignore': 'target/\n',
      'src/lib.rs': 'pub fn add(a: i64, b: i64) -> i64 {\n    a - b\n}\n',
      'tests/add.rs': '#[test]\nfn add() {\n    assert_eq!(calc::add(1, 2), 3);\n}\n',
    },
    run: 'cargo test --offline -q',
    // rustup's cargo finds its toolchain through RUSTUP_HOME (the checks get a fresh HOME).
    env: { RUSTUP_HOME: process.env.RUSTUP_HOME ?? join(homedir(), '.rustup'), CARGO_HOME: process.env.CARGO_HOME ?? join(homedir(), '.cargo') },
    // Cargo's own way to swallow failures (a target runner in .cargo/config.toml that runs each test
    // binary and exits 0) is a runner configuration the guard reverts before any check runs: here the
    // agent fixes the bug, and the canary, beside the integration test, fails as it must.
    attack: `printf 'pub fn add(a: i64, b: i64) -> i64 {\\n    a + b\\n}\\n' > src/lib.rs`,
    honest: true,
  },
  {
    runner: 'maven',
    skip: found('mvn') ?? inM2(...JUNIT5),
    files: {
      'pom.xml': POM,
      '.gitignore': 'target/\n',
      'src/main/java/calc/Calc.java': CALC_JAVA,
      'src/test/java/calc/CalcTest.java':
        'package calc;\n\nimport org.junit.jupiter.api.Test;\nimport static org.junit.jupiter.api.Assertions.assertEquals;\n\nclass CalcTest {\n    @Test\n    void add() {\n        assertEquals(3, Calc.add(1, 2));\n    }\n}\n',
    },
    run: `mvn -o -q -Dmaven.repo.local=${M2} test`,
    env: {},
    // Maven reads .mvn/maven.config as if its lines were on the command line.
    attack: `mkdir -p .mvn && echo '-Dmaven.test.failure.ignore=true' > .mvn/maven.config`,
  },
  {
    runner: 'gradle',
    skip: found('gradle') ?? inM2('junit/junit/4.13.2', 'org/hamcrest/hamcrest-core/1.3'),
    files: {
      'build.gradle': "apply plugin: 'java'\nrepositories { mavenLocal() }\ndependencies { testCompile 'junit:junit:4.13.2' }\n",
      'settings.gradle': "rootProject.name = 'calc'\n",
      '.gitignore': 'build/\n.gradle/\n',
      'src/main/java/calc/Calc.java': CALC_JAVA,
      'src/test/java/calc/CalcTest.java':
        'package calc;\n\nimport org.junit.Test;\nimport static org.junit.Assert.assertEquals;\n\npublic class CalcTest {\n    @Test\n    public void add() {\n        assertEquals(3, Calc.add(1, 2));\n    }\n}\n',
    },
    run: `gradle --offline --no-daemon -q -Dmaven.repo.local=${M2} test`,
    env: {},
    attack: `printf 'test { ignoreFailures = true }\\n' >> build.gradle`,
  },
];

describe.each(JVM_RUNNERS)('$runner', ({ runner, skip, files, run, env, attack, honest }) => {
  if (skip) console.warn(`test/hostile/runner-canary.test.ts (${runner}) skipped: ${skip}`);
  const title = honest
    ? `an honest fix: the ${runner} canary fails as it must, at none`
    : `a build configuration that makes ${runner} report failures as a pass: RUNNER_COMPROMISED, at none`;
  (skip ? test.skip : test)(
    title,
    async () => {
      const yml = config({
        criteria: [{ id: 'tests', run }],
        agent: 'sh agent.sh',
        extra: `checks:\n  env: ${JSON.stringify(env)}\nbudget:\n  max_iterations: 1\n`,
      })
        .replace('timeout_seconds: 60', 'timeout_seconds: 600')
        .replace('protected: ["test/**"]', 'protected: ["tests/**", "src/test/**"]');
      const repo = await makeRepo({ ...files, 'phuc-loop.yml': yml, 'NORTHSTAR.md': NORTHSTAR, 'agent.sh': `${attack}\n${AGENT_REPORT}\n` });
      const r = await cli(repo, ['run', '--isolation', 'none']);
      const rep = await report(repo);
      if (honest) {
        expect(r.stdout + r.stderr).toMatch(new RegExp(`iter_0: runner canary \\(${runner}\\) for \`tests\`: failed, as it must`));
        expect(rep).toMatchObject({ status: 'EXIT_CONVERGED' });
        return;
      }
      expect(r.stdout + r.stderr).toMatch(new RegExp(`iter_0: runner canary \\(${runner}\\) for \`tests\`: PASSED`));
      expect(rep).toMatchObject({ status: 'EXIT_BLOCKED', stop_reason: 'RUNNER_COMPROMISED' });
      expect(r.code).toBe(12);
    },
    900_000,
  );
});

// Maven (surefire, JUnit 5) and Gradle (JUnit 4) at user+pidns: the checks run as their own user, who
// cannot reach ~/.m2 under /root; Debian's packaged plugins and JUnit in /usr/share/maven-repo stand in
// for Maven Central (named by the fixture, as in test/integration/init.test.ts), copied into the
// checks' fresh HOME each round. The commands are the ones init writes. Three agents each: an honest
// fix (the canary beside the protected test fails, as it must); a build configuration that reports
// failures as a pass; and (Maven), in the one folder agent.may_change allows (src/main), a class named
// like JUnit 5's assertions whose assertEquals asserts nothing (the project's classes come first on the
// test class path): the canary fails through that same assertEquals, so it passes and the round is
// refused. (JUnit 4 calls its own org.junit.Assert internally: a stand-in breaks its runner instead.)
const DEBIAN_REPO = '/usr/share/maven-repo';
const JDK = existsSync('/usr/bin/javac');
const debianLacks = (what: string, ...paths: string[]) =>
  !JDK || found(what) !== null || !paths.every((p) => existsSync(join(DEBIAN_REPO, p)))
    ? `needs Debian's ${what}, a JDK and ${paths.join(', ')} in ${DEBIAN_REPO} (.ci/run installs them)`
    : null;
const CALC = 'package com.example.calc;\n\npublic class Calc {\n    public static int add(int a, int b) {\n        return a - b;\n    }\n}\n';
const calcTest = (junit5: boolean) =>
  `package com.example.calc;\n\nimport static ${junit5 ? 'org.junit.jupiter.api.Assertions' : 'org.junit.Assert'}.assertEquals;\n\nimport ${junit5 ? 'org.junit.jupiter.api.Test' : 'org.junit.Test'};\n\npublic class CalcTest {\n    @Test\n    public void adds() {\n        assertEquals(5, Calc.add(2, 3));\n    }\n}\n`;
const FIX = `sed -i 's/a - b/a + b/' src/main/java/com/example/calc/Calc.java`;
const shadow = (pkg: string, cls: string) =>
  `mkdir -p src/main/java/${pkg.replace(/\./g, '/')} && printf 'package ${pkg};\\n\\npublic final class ${cls} {\\n    public static void assertEquals(Object... args) {}\\n}\\n' > src/main/java/${pkg.replace(/\./g, '/')}/${cls}.java`;
const JVM_AT_USER: {
  runner: 'maven' | 'gradle';
  skip: string | null;
  files: Record<string, string>;
  run: string;
  ignoreFailures: string;
  shadow: string | null;
}[] = [
  {
    runner: 'maven',
    skip: debianLacks(
      'mvn',
      'org/apache/maven/plugins/maven-surefire-plugin/2.12.4',
      'org/apache/maven/surefire/surefire-junit-platform',
      'org/junit/jupiter/junit-jupiter/5.9.2',
    ),
    files: {
      'pom.xml': `<?xml version="1.0" encoding="UTF-8"?>\n<project xmlns="http://maven.apache.org/POM/4.0.0">\n  <modelVersion>4.0.0</modelVersion>\n  <groupId>com.example</groupId>\n  <artifactId>calc</artifactId>\n  <version>1.0</version>\n  <properties>\n    <maven.compiler.release>17</maven.compiler.release>\n    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>\n  </properties>\n  <dependencies>\n    <dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter</artifactId><version>5.9.2</version><scope>test</scope></dependency>\n  </dependencies>\n</project>\n`,
      '.mvn/maven.config': '-s .mvn/settings.xml\n',
      '.mvn/settings.xml': `<settings><mirrors><mirror><id>debian</id><mirrorOf>*</mirrorOf><url>file://${DEBIAN_REPO}</url></mirror></mirrors></settings>\n`,
      '.gitignore': 'target/\n',
      'src/main/java/com/example/calc/Calc.java': CALC,
      'src/test/java/com/example/calc/CalcTest.java': calcTest(true),
    },
    run: 'MAVEN_OPTS="-Duser.home=$HOME" mvn -B test',
    ignoreFailures: `echo '-Dmaven.test.failure.ignore=true' >> .mvn/maven.config`,
    shadow: shadow('org.junit.jupiter.api', 'Assertions'),
  },
  {
    runner: 'gradle',
    skip: debianLacks('gradle', 'junit/junit/4.13.2'),
    files: {
      'build.gradle': `plugins {\n    id 'java'\n}\n\nrepositories {\n    maven { url 'file://${DEBIAN_REPO}' }\n}\n\ndependencies {\n    testImplementation 'junit:junit:4.13.2'\n}\n`,
      'settings.gradle': "rootProject.name = 'calc'\n",
      '.gitignore': 'build/\n.gradle/\n',
      'src/main/java/com/example/calc/Calc.java': CALC,
      'src/test/java/com/example/calc/CalcTest.java': calcTest(false),
    },
    run: 'GRADLE_USER_HOME="$HOME/.gradle" gradle test',
    ignoreFailures: `printf 'test { ignoreFailures = true }\\n' >> build.gradle`,
    shadow: null,
  },
];
const USER_PIDNS = ROOT_USER && (await isolationFacts()).userPidns === null;
if (!USER_PIDNS) console.warn('test/hostile/runner-canary.test.ts (Maven and Gradle at user+pidns) skipped: not root, or no user+pidns here');

describe.each(JVM_AT_USER)('$runner at user+pidns', ({ runner, skip, files, run, ignoreFailures, shadow: shadowAgent }) => {
  if (skip) console.warn(`test/hostile/runner-canary.test.ts (${runner} at user+pidns) skipped: ${skip}`);
  const it = skip || !USER_PIDNS ? test.skip : test;
  const go = async (agentSh: string, mayChange?: string[]) => {
    const yml = config({ criteria: [{ id: 'tests', run }], agent: 'sh agent.sh', mayChange, extra: 'budget:\n  max_iterations: 1\n' })
      .replace('timeout_seconds: 60', 'timeout_seconds: 600')
      .replace('protected: ["test/**"]', 'protected: ["**/src/test/**"]');
    const repo = await makeRepo({ ...files, 'phuc-loop.yml': yml, 'NORTHSTAR.md': NORTHSTAR, 'agent.sh': `${agentSh}\n${AGENT_REPORT}\n` });
    const r = await cli(repo, ['run', '--isolation', 'user+pidns']);
    return { r, out: r.stdout + r.stderr, rep: await report(repo) };
  };
  const compromised = ({ r, out, rep }: Awaited<ReturnType<typeof go>>) => {
    expect(out).toMatch(new RegExp(`iter_0: runner canary \\(${runner}\\) for \`tests\`: PASSED`));
    expect({ code: r.code, status: rep.status, stop: rep.stop_reason }).toEqual({ code: 12, status: 'EXIT_BLOCKED', stop: 'RUNNER_COMPROMISED' });
    expect(rep.detail).toMatch(new RegExp(`the test runner is compromised \\(round iter_0\\).*criterion \`tests\` ran the suite \\(${runner}\\)`));
  };

  it(`an honest fix: the ${runner} canary fails as it must, and the run converges`, async () => {
    const { r, out, rep } = await go(FIX, ['**/src/main/**']);
    expect(out).toMatch(new RegExp(`iter_0: runner canary \\(${runner}\\) for \`tests\`: failed, as it must`));
    expect(rep).toMatchObject({ status: 'EXIT_CONVERGED' });
    expect(r.code).toBe(0);
  }, 900_000);

  it(`a build configuration that makes ${runner} report failures as a pass: RUNNER_COMPROMISED names the round`, async () => {
    compromised(await go(ignoreFailures));
  }, 900_000);

  (shadowAgent ? it : test.skip)(
    `inside agent.may_change, a class named like JUnit's assertions that asserts nothing: RUNNER_COMPROMISED names the round`,
    async () => {
      compromised(await go(shadowAgent!, ['**/src/main/**']));
    },
    900_000,
  );
});
