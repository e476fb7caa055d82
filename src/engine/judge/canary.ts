// The runner proves itself honest every round (SPEC §7, runner canary). For each criterion that
// passed and whose test runner the loop recognises, the loop writes a test that must fail — in the
// runner's own style, beside one of the tree's tests (protected ones first) so that the same
// discovery, configuration, conftest.py and setup files apply, under a random name — and runs the
// criterion's command again, unchanged. The runner must report a failure. If the command exits 0
// although the canary ran (it leaves a mark), something in the run turns failures into passes
// (a plugin, a setup file, a patched assertion library): RUNNER_COMPROMISED.
//
// A loop-written failing test, not a copy of a protected test with one assertion inverted: an
// inverted copy may fail for reasons of its own (fixtures, relative imports, a name clash with the
// original, a skipped branch), or not fail at all where its assertion is never reached; the written
// test fails by construction, so a pass says only that the runner lies. Its name is random per
// round; what it contains is the loop's alone and recorded nowhere the agent reads. Where a test file
// is a program of its own (a cargo integration test: its own crate), the canary is the sibling's
// text with the failing test added, so that the same imports apply (a `#[macro_use] extern crate`
// whose crate exports an `assert_eq!` that asserts nothing); it fails through the assertion the tests
// use (assert_eq!, JUnit's assertEquals), which the code under test might have made a no-op.
import { randomBytes } from 'node:crypto';
import { readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, extname, join } from 'node:path';
import picomatch from 'picomatch';
import { z } from 'zod';
import type { Criterion } from '../config/config.js';
import type { ProcessRunner } from '../os/ports.js';
import { lstatOrNull, readRegular } from '../os/tree-file.js';
import type { CheckResult } from './checks.js';

export const CANARY_RUNNERS = ['pytest', 'unittest', 'go test', 'jest', 'vitest', 'node:test', 'mocha', 'cargo test', 'maven', 'gradle'] as const;
export type CanaryRunner = (typeof CANARY_RUNNERS)[number];

/**
 * What the canary of one criterion gave: `failed` (the runner reported the failure: honest),
 * `passed` (compromised), `not_run` (the command exited 0 but never ran the canary: its discovery
 * does not reach a new test file), `no_runner` (no runner recognised in the command, or no test
 * file of its kind in the tree to put the canary beside).
 */
export const canaryOutcomeSchema = z.object({
  criterion: z.string(),
  runner: z.enum(CANARY_RUNNERS).nullable(),
  outcome: z.enum(['failed', 'passed', 'not_run', 'no_runner']),
});
export type CanaryOutcome = z.infer<typeof canaryOutcomeSchema>;

export interface CanaryContext {
  runner: ProcessRunner;
  cwd: string;
  env: Record<string, string>;
  /** The tracked files of the tree judged. */
  files: readonly string[];
  /** The config's protected globs: a canary goes beside a protected test when there is one. */
  protectedGlobs: readonly string[];
  signal?: AbortSignal;
  /** Called after each canary run (the judged tree must still be the committed tree). */
  after?: (step: string) => void;
  /** Told each canary's outcome and how long it took. */
  log?: (line: string) => void;
}

/** The canaries of a round: one per criterion that ran and passed. */
export async function runCanaries(criteria: readonly Criterion[], checks: readonly CheckResult[], c: CanaryContext): Promise<CanaryOutcome[]> {
  const out: CanaryOutcome[] = [];
  for (const check of checks) {
    const criterion = criteria.find((k) => k.id === check.id);
    if (!criterion || !check.met || check.reused_from_iteration !== null) continue;
    out.push(await runCanary(criterion, c));
  }
  return out;
}

async function runCanary(criterion: Criterion, c: CanaryContext): Promise<CanaryOutcome> {
  const runner = await recogniseRunner(criterion.run, c.cwd);
  const sibling = runner && pickSibling(runner, c.files, c.protectedGlobs);
  if (!runner || !sibling) {
    c.log?.(
      `runner canary for \`${criterion.id}\`: ${runner ? `no ${runner} test file in the tree to put it beside` : 'no test runner recognised in its command'}`,
    );
    return { criterion: criterion.id, runner, outcome: 'no_runner' };
  }
  const token = randomBytes(6).toString('hex');
  const dir = join(c.cwd, dirname(sibling));
  const mark = join(dir, `.${randomBytes(6).toString('hex')}`);
  const file = join(dir, canaryName(runner, token, sibling));
  // The folder is the check user's, checked to be a folder (not a link) after the last check.
  if (!lstatOrNull(dir)?.isDirectory()) return { criterion: criterion.id, runner, outcome: 'no_runner' };
  await writeFile(file, await canaryText(runner, token, mark, join(c.cwd, sibling)), { flag: 'wx', mode: 0o644 });
  try {
    const r = await c.runner.run({
      command: criterion.run,
      cwd: c.cwd,
      env: c.env,
      timeoutMs: criterion.timeout_seconds * 1000,
      signal: c.signal,
      maxOutputBytes: 64 * 1024,
    });
    const ran = lstatOrNull(mark) !== null;
    const outcome = r.exitCode !== 0 || r.timedOut ? 'failed' : ran ? 'passed' : 'not_run';
    c.log?.(
      `runner canary (${runner}) for \`${criterion.id}\`: ${outcome === 'failed' ? 'failed, as it must' : outcome === 'passed' ? 'PASSED — the runner reports a failing test as passing' : 'not run by the command (its discovery does not reach a new test file)'} (${(r.durationMs / 1000).toFixed(1)} s)`,
    );
    return { criterion: criterion.id, runner, outcome };
  } finally {
    await rm(file, { force: true });
    await rm(mark, { force: true });
    await removeBuildOutputs(runner, sibling, token, c.cwd);
    c.after?.(`the runner canary of \`${criterion.id}\``);
  }
}

/**
 * What the build made of a compiled canary (Maven's target/, Gradle's build/ beside its src/test/java:
 * its class files and its JUnit report): a later run of the same suite would find the class and the
 * report and count the canary's failure as the project's.
 */
async function removeBuildOutputs(runner: CanaryRunner, sibling: string, token: string, cwd: string): Promise<void> {
  if (runner !== 'maven' && runner !== 'gradle') return;
  const root = join(cwd, sibling.slice(0, Math.max(0, sibling.search(/(?:^|\/)src\/test\/java\//))));
  for (const out of ['target', 'build']) {
    const dir = join(root, out);
    if (!lstatOrNull(dir)?.isDirectory()) continue;
    const made = (await readdir(dir, { recursive: true })).filter((f) => f.includes(token));
    await Promise.all(made.map((f) => rm(join(dir, f), { recursive: true, force: true })));
  }
}

/** A JUnit test class as Maven's surefire and Gradle find them: under src/test/java, named Test*, *Test, *Tests or *TestCase. */
const JAVA_TEST = /(?:^|\/)src\/test\/java\/(?:[^/]+\/)*(?:Test[^/]*|[^/]*Tests?|[^/]*TestCase)\.java$/;
const JS_TEST = /(?:\.(?:test|spec)\.[cm]?[jt]sx?$)|(?:(?:^|\/)(?:test|tests|__tests__)\/[^/]+\.[cm]?[jt]sx?$)/;
const TEST_FILE: Record<CanaryRunner, RegExp> = {
  pytest: /(?:^|\/)(?:test_[^/]*|[^/]*_test)\.py$/,
  unittest: /(?:^|\/)test[^/]*\.py$/,
  'go test': /_test\.go$/,
  jest: JS_TEST,
  vitest: JS_TEST,
  'node:test': JS_TEST,
  mocha: JS_TEST,
  // An integration test (each file its own crate, found by cargo): a unit test lives inside a module
  // the loop would have to edit, so a crate with inline tests alone gets no canary.
  'cargo test': /(?:^|\/)tests\/[^/]+\.rs$/,
  maven: JAVA_TEST,
  gradle: JAVA_TEST,
};

/** A tracked test file of the runner's kind to put the canary beside: a protected one first, then the first by name. */
function pickSibling(runner: CanaryRunner, files: readonly string[], protectedGlobs: readonly string[]): string | null {
  const tests = files.filter((f) => TEST_FILE[runner].test(f) && !f.split('/').includes('node_modules')).sort();
  const isProtected = picomatch([...protectedGlobs], { dot: true });
  return tests.find((f) => isProtected(f)) ?? tests[0] ?? null;
}

/** The runner a criterion's command runs: named in it, or in the package script it runs (a few levels). */
export async function recogniseRunner(command: string, cwd: string, depth = 0): Promise<CanaryRunner | null> {
  if (/\bgo\s+test\b/.test(command)) return 'go test';
  if (/\bcargo\s+(?:\+\S+\s+)?(?:-\S+\s+)*(?:test|nextest)\b/.test(command)) return 'cargo test';
  if (/(?:^|[\s/;&|(])(?:mvn|mvnw)\b[^|;&]*\s(?:test|verify|install|package)(?=$|[\s;&|)])/.test(command)) return 'maven';
  if (/(?:^|[\s/;&|(])(?:gradle|gradlew)\b[^|;&]*\s(?::?[\w:-]*test|check|build)(?=$|[\s;&|)])/i.test(command)) return 'gradle';
  if (/\bpy\.?test\b/.test(command)) return 'pytest';
  if (/\bunittest\b/.test(command)) return 'unittest';
  if (/\bvitest\b/.test(command)) return 'vitest';
  if (/\bjest\b/.test(command)) return 'jest';
  if (/\bmocha\b/.test(command)) return 'mocha';
  if (/\bnode\b[^|;&]*\s--test\b/.test(command)) return 'node:test';
  const script = /\b(?:npm|pnpm|yarn)(?:\s+-{1,2}[\w-]+)*\s+(?:(?:run|run-script)(?:\s+-{1,2}[\w-]+)*\s+)?([\w:.-]+)/.exec(command)?.[1];
  if (!script || depth > 3) return null;
  const pkg = (await readRegular(join(cwd, 'package.json'), 1024 * 1024))?.toString('utf8');
  let scripts: Record<string, unknown> = {};
  try {
    scripts = (JSON.parse(pkg ?? '{}') as { scripts?: Record<string, unknown> }).scripts ?? {};
  } catch {
    return null;
  }
  const text = scripts[script === 't' ? 'test' : script];
  return typeof text === 'string' ? recogniseRunner(text, cwd, depth + 1) : null;
}

function canaryName(runner: CanaryRunner, token: string, sibling: string): string {
  switch (runner) {
    case 'pytest':
    case 'unittest':
      return `test_${token}.py`;
    case 'go test':
      return `${token}_test.go`;
    case 'cargo test':
      return `canary_${token}.rs`;
    case 'maven':
    case 'gradle':
      return `${javaClass(token)}.java`;
    case 'node:test':
      return `${token}.test.mjs`;
    default:
      return `${token}.test${extname(sibling)}`;
  }
}

const MESSAGE = 'phuc-loop runner canary: this test must fail';

/** The canary's class name: Maven's surefire and Gradle run a class named *Test. */
const javaClass = (token: string) => `X${token}Test`;

/** Which JUnit the sibling test class is written for: JUnit 5 (Jupiter) when it imports it, else JUnit 4. */
const jupiter = (text: string) => /\borg\.junit\.jupiter\b/.test(text);

async function canaryText(runner: CanaryRunner, token: string, mark: string, sibling: string): Promise<string> {
  const at = JSON.stringify(mark);
  switch (runner) {
    case 'pytest':
    case 'unittest':
      return `import unittest\n\n\nclass Test${token.toUpperCase()}(unittest.TestCase):\n    def test_${token}(self):\n        open(${at}, "w").close()\n        self.assertEqual(1, 2, "${MESSAGE}")\n`;
    case 'go test': {
      const text = (await readRegular(sibling, 1024 * 1024))?.toString('utf8') ?? '';
      const pkg = /^package\s+(\w+)/m.exec(text)?.[1] ?? 'main';
      return `package ${pkg}\n\nimport (\n\t"os"\n\t"testing"\n)\n\nfunc TestX${token}(t *testing.T) {\n\t_ = os.WriteFile(${at}, nil, 0644)\n\tt.Fatal("${MESSAGE}")\n}\n`;
    }
    case 'cargo test': {
      // A Rust string literal: the mark's path is the loop's (hex names), JSON's escapes are Rust's for it.
      const text = (await readRegular(sibling, 1024 * 1024))?.toString('utf8') ?? '';
      return `${text}\n#[test]\nfn canary_${token}() {\n    let _ = std::fs::write(${at}, b"");\n    assert_eq!(1, 2, "${MESSAGE}");\n}\n`;
    }
    case 'maven':
    case 'gradle': {
      const text = (await readRegular(sibling, 1024 * 1024))?.toString('utf8') ?? '';
      const pkg = /^\s*package\s+([\w.]+)\s*;/m.exec(text)?.[1];
      const [test, fail] = jupiter(text)
        ? ['org.junit.jupiter.api.Test', `org.junit.jupiter.api.Assertions.assertEquals(1, 2, "${MESSAGE}")`]
        : ['org.junit.Test', `org.junit.Assert.assertEquals("${MESSAGE}", 1, 2)`];
      return `${pkg ? `package ${pkg};\n\n` : ''}public class ${javaClass(token)} {\n    @${test}\n    public void canary() throws Exception {\n        java.nio.file.Files.write(java.nio.file.Paths.get(${at}), new byte[0]);\n        ${fail};\n    }\n}\n`;
    }
    case 'node:test':
      return `import test from 'node:test';\nimport { writeFileSync } from 'node:fs';\n\ntest('${token}', () => {\n  writeFileSync(${at}, '');\n  throw new Error('${MESSAGE}');\n});\n`;
    case 'vitest':
      return `// @ts-nocheck\nimport { test } from 'vitest';\nimport { writeFileSync } from 'node:fs';\n\ntest('${token}', () => {\n  writeFileSync(${at}, '');\n  throw new Error('${MESSAGE}');\n});\n`;
    default: {
      // jest and mocha give their globals to CommonJS and ES modules alike; fs comes without an import.
      const it = runner === 'jest' ? 'test' : 'it';
      return `// @ts-nocheck\nconst fs = globalThis.process.getBuiltinModule?.('node:fs') ?? require('node:fs');\n\n${it}('${token}', () => {\n  fs.writeFileSync(${at}, '');\n  throw new Error('${MESSAGE}');\n});\n`;
    }
  }
}
