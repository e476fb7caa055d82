// The reusable workflow's toolchain steps for a Node, a Python, a Go, a Rust (cargo) and a Java
// (Maven) project, then the action on the PATH they leave: the checks run as phuc-check
// (user+pidns), which reaches neither the runner user's HOME (here root's: pyenv's Python, rustup's
// Rust, as a runner's rustup lives in its user's HOME) nor a pip of the system Python. Each project
// converges, with the PR comment there before iteration 0 ends and the outputs set. The official
// setup actions (uses:) are not run offline: the machine's toolchains stand in for them, and
// Debian's /usr/share/maven-repo for Maven Central (named by the project's .mvn/settings.xml).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { GitHubEmulator } from '../harness/github-emulator.js';
import { cloneWorkspace, traversableTempDir } from '../harness/git-origin.js';
import { runSteps, workflowSteps } from '../harness/workflow-steps.js';
import { parseDocument } from 'yaml';
import { cli, config, makeRepo, NORTHSTAR } from '../helpers/repo.js';
import { debugJob, fixtureAgent, REPO, ROOT, runJob, scenario, useEmulator } from './helpers.js';

let gh: GitHubEmulator;
useEmulator((g) => (gh = g));

const WORKFLOW = join(ROOT, '.github/workflows/phuc-loop.yml');
// This machine's offline package index (pip's default index is out of reach here).
const PIP_INDEX = '/opt/pypi/simple';
// Debian's stand-in for Maven Central: the plugins `mvn test` runs by default and JUnit 5.
const DEBIAN_REPO = '/usr/share/maven-repo';
const MAVEN_PLUGINS = [
  'org/apache/maven/plugins/maven-resources-plugin/2.6',
  'org/apache/maven/plugins/maven-compiler-plugin/3.1',
  'org/apache/maven/plugins/maven-surefire-plugin/2.12.4',
  'org/apache/maven/surefire/surefire-junit-platform',
  'org/junit/jupiter/junit-jupiter/5.9.2',
];
const POM = `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>calc</groupId>
  <artifactId>calc</artifactId>
  <version>1.0</version>
  <properties>
    <maven.compiler.release>17</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <dependencies>
    <dependency>
      <groupId>org.junit.jupiter</groupId>
      <artifactId>junit-jupiter</artifactId>
      <version>5.9.2</version>
      <scope>test</scope>
    </dependency>
  </dependencies>
</project>
`;

/** null when `program` is on this PATH, else what is missing. */
function onPath(program: string): string | null {
  try {
    execFileSync('bash', ['-c', `command -v ${program}`], { stdio: 'ignore' });
    return null;
  } catch {
    return `${program} is not installed here (.ci/run installs it)`;
  }
}

interface Project {
  kind: string;
  /** Why this machine cannot run it, or null. */
  missing: () => string | null;
  files: Record<string, string>;
  check: string;
  /** The planted bug the agent fixes: file, from, to. */
  fix: [string, string, string];
}

const PROJECTS: Project[] = [
  {
    kind: 'node',
    files: {
      'package.json': '{ "name": "calc", "type": "module", "scripts": { "test": "node --test test/" } }\n',
      'src/calc.js': 'export const add = (a, b) => a - b;\n',
      'test/calc.test.js':
        "import test from 'node:test';\nimport assert from 'node:assert';\nimport { add } from '../src/calc.js';\ntest('add', () => assert.strictEqual(add(2, 3), 5));\n",
    },
    check: 'node --test test/',
    fix: ['src/calc.js', 'a - b', 'a + b'],
    missing: () => null,
  },
  {
    kind: 'python',
    files: {
      // A dependency the system Python lacks: only the workflow's virtual environment has it.
      'pyproject.toml': '[project]\nname = "calc"\nversion = "0.1.0"\ndependencies = ["toolz"]\n\n[project.optional-dependencies]\ntest = ["pytest"]\n',
      'calc.py': 'import toolz\n\n\ndef add(a, b):\n    return toolz.identity(a) - b\n',
      'test/test_calc.py': 'from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n',
    },
    check: 'python3 -m pytest -q -p no:cacheprovider test',
    fix: ['calc.py', ') - b', ') + b'],
    missing: () => (existsSync(PIP_INDEX) ? null : `no offline package index in ${PIP_INDEX}`),
  },
  {
    kind: 'go',
    files: {
      'go.mod': 'module calc\n\ngo 1.19\n',
      'calc.go': 'package calc\n\nfunc Add(a, b int) int { return a - b }\n',
      'test/calc_test.go':
        'package calc_test\n\nimport (\n\t"testing"\n\n\t"calc"\n)\n\nfunc TestAdd(t *testing.T) {\n\tif calc.Add(2, 3) != 5 {\n\t\tt.Fatal("2 + 3")\n\t}\n}\n',
    },
    check: 'go test ./...',
    fix: ['calc.go', 'a - b', 'a + b'],
    missing: () => onPath('go'),
  },
  {
    kind: 'rust',
    files: {
      'Cargo.toml': '[package]\nname = "calc"\nversion = "0.1.0"\nedition = "2021"\n',
      // As cargo writes it (a lockfile it would rewrite is a change to the judged tree).
      'Cargo.lock':
        '# This file is automatically @generated by Cargo.\n# It is not intended for manual editing.\nversion = 3\n\n[[package]]\nname = "calc"\nversion = "0.1.0"\n',
      '.gitignore': '/target\n',
      'src/lib.rs': 'pub fn add(a: i64, b: i64) -> i64 {\n    a - b\n}\n',
      'tests/add.rs': 'use calc::add;\n\n#[test]\nfn adds() {\n    assert_eq!(add(2, 3), 5);\n}\n',
    },
    check: 'cargo test --offline',
    fix: ['src/lib.rs', 'a - b', 'a + b'],
    missing: () => onPath('cargo') ?? onPath('rustc'),
  },
  {
    kind: 'java',
    files: {
      'pom.xml': POM,
      '.mvn/maven.config': '-s .mvn/settings.xml\n',
      '.mvn/settings.xml': `<settings>\n  <mirrors>\n    <mirror>\n      <id>debian</id>\n      <mirrorOf>*</mirrorOf>\n      <url>file://${DEBIAN_REPO}</url>\n    </mirror>\n  </mirrors>\n</settings>\n`,
      '.gitignore': 'target/\n',
      'src/main/java/calc/Calc.java': 'package calc;\n\npublic class Calc {\n    public static int add(int a, int b) {\n        return a - b;\n    }\n}\n',
      'src/test/java/calc/CalcTest.java':
        'package calc;\n\nimport static org.junit.jupiter.api.Assertions.assertEquals;\n\nimport org.junit.jupiter.api.Test;\n\npublic class CalcTest {\n    @Test\n    public void adds() {\n        assertEquals(5, Calc.add(2, 3));\n    }\n}\n',
    },
    // init's Maven criterion: Java takes its home from the account (phuc-check has none), not $HOME.
    check: 'MAVEN_OPTS="-Duser.home=$HOME" mvn -B -q test',
    fix: ['src/main/java/calc/Calc.java', 'a - b', 'a + b'],
    missing: () =>
      onPath('javac') ??
      onPath('mvn') ??
      MAVEN_PLUGINS.map((d) => (existsSync(join(DEBIAN_REPO, d)) ? null : `${DEBIAN_REPO}/${d} (.ci/run installs it)`)).find(Boolean) ??
      null,
  },
];

/**
 * PR `number` holding `files`, run as the reusable workflow runs it: the toolchain steps (auto),
 * then the action on the PATH they leave. Converges at iteration 0 with the comment there while it
 * ran and the outputs set.
 */
async function workflowConverges(number: number, files: Record<string, string>, kind: string): Promise<void> {
  const s = await scenario(gh, number, files);
  // The runner's layout: the action beside the pull request's checkout, a tool cache.
  const runnerWorkspace = await traversableTempDir('wf-workspace-');
  await symlink(ROOT, join(runnerWorkspace, 'phuc-loop-action'));
  const toolCache = await traversableTempDir('wf-toolcache-');
  try {
    const workspace = await cloneWorkspace(s.origin, { token: 'unused', branch: `pr-${number}` });
    const steps = await workflowSteps(WORKFLOW, 'loop');
    const env: Record<string, string> = {
      PATH: process.env['PATH'] ?? '',
      HOME: process.env['HOME'] ?? '',
      GITHUB_WORKSPACE: runnerWorkspace,
      RUNNER_TOOL_CACHE: toolCache,
      PIP_INDEX_URL: `file://${PIP_INDEX}`,
      PIP_RETRIES: '0',
    };
    const prepared = await runSteps(steps, ['toolchain', 'toolchain-path'], {
      cwd: workspace,
      inputs: { toolchain: 'auto', 'working-directory': '.' },
      env,
    });
    expect(prepared.outputs['toolchain']).toEqual({ kind });
    expect(prepared.path.length).toBe(1);

    const job = await runJob(s, {
      workspace,
      env: { ...prepared.env, PATH: [...prepared.path, env.PATH].join(':') },
    });
    if (job.main.exitCode !== 0) throw new Error(`${prepared.log}\n${debugJob(job)}`);
    expect(job.main.outputs).toMatchObject({ status: 'EXIT_CONVERGED', iterations: '1', certificate: 'EXACT' });
    expect(job.main.outputs['certified-commit']).toMatch(/^[0-9a-f]{40}$/);
    // The comment was there while the run was RUNNING, before iteration 0 ended; then the final one.
    const writes = gh.calls
      .slice(job.callsBefore)
      .filter((c) => c.operation === 'issues/create-comment' || c.operation === 'issues/update-comment')
      .map((c) => (c.body as { body: string }).body.split('\n')[1]);
    expect(writes[0]).toMatch(/RUNNING/);
    expect(writes[0]).not.toMatch(/iteration 0 done/);
    expect(writes.at(-1)).toMatch(/EXIT_CONVERGED/);
    expect(gh.commentsOn(REPO, number)).toHaveLength(1);
    expect(job.main.stdout).toMatch(/isolation: user\+pidns/);
  } finally {
    // A toolchain copied out of the runner user's HOME (rustup's: ~50,000 links) is not left behind.
    await rm(toolCache, { recursive: true, force: true });
  }
}

const fixer = (fix: [string, string, string]) => `${fixtureAgent('replace.mjs')} ${fix.map((a) => JSON.stringify(a)).join(' ')}`;

describe.each(PROJECTS.map((p) => [p.kind, p] as const))('%s project', (kind, p) => {
  const missing = p.missing();
  (missing ? test.skip : test)(
    `the workflow finds and prepares its toolchain; the loop converges with the checks as phuc-check${missing ? ` [skipped: ${missing}]` : ''}`,
    () =>
      workflowConverges(
        300 + PROJECTS.indexOf(p),
        { ...p.files, 'phuc-loop.yml': config({ criteria: [{ id: 'tests', run: p.check }], agent: fixer(p.fix) }) + '\n', 'NORTHSTAR.md': NORTHSTAR },
        kind,
      ),
    600_000,
  );
});

// `phuc-loop init`'s own config for a Python project with dependencies: its checks.setup runs as
// phuc-check, which cannot write the workflow's virtual environment (the runner user's), so it makes
// one of the checks' own in their workspace and its criterion runs that one. Only the agent (a
// scripted fixer) and the package index (this machine's offline stand-in for PyPI) are the test's.
const python = PROJECTS.find((p) => p.kind === 'python')!;
(python.missing() ? test.skip : test)(
  `python project with the config phuc-loop init writes: its setup and criterion work against the workflow's read-only virtual environment${python.missing() ? ` [skipped: ${python.missing()}]` : ''}`,
  async () => {
    const project = { ...python.files, '.gitignore': '.venv/\n__pycache__/\nreports/\n' };
    const repo = await makeRepo(project);
    const init = await cli(repo, ['init']);
    expect(init.code).toBe(0);
    const doc = parseDocument(await readFile(join(repo, 'phuc-loop.yml'), 'utf8'));
    expect(doc.getIn(['checks', 'setup'])).toBe("python3 -m venv --system-site-packages .venv && .venv/bin/python -m pip install -e '.[test]'");
    expect(doc.getIn(['acceptance_criteria', 0, 'run'])).toBe('PATH="$PWD/.venv/bin:$PATH" python3 -m pytest --junitxml=reports/junit.xml');
    doc.setIn(['agent', 'use'], 'command');
    doc.setIn(['agent', 'run'], fixer(python.fix));
    doc.setIn(['checks', 'env'], { PIP_INDEX_URL: `file://${PIP_INDEX}`, PIP_RETRIES: '0' });
    await workflowConverges(310, { ...project, 'phuc-loop.yml': String(doc), 'NORTHSTAR.md': await readFile(join(repo, 'NORTHSTAR.md'), 'utf8') }, 'python');
  },
  600_000,
);
