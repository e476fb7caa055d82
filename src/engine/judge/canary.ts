// The runner proves itself honest every round (SPEC §7, runner canary). For each criterion that
// passed and whose test runner the loop recognises, the loop writes a test that must fail — in the
// runner's own style, beside one of the tree's tests (protected ones first) so that the same
// discovery, configuration, conftest.py and setup files apply, under a random name — and runs the
// criterion's command again, unchanged. The runner must report a failure. If the command exits 0
// although the canary ran (it leaves a mark), something in the run turns failures into passes
// (a plugin, a setup file, a patched assertion library): RUNNER_COMPROMISED. So is a canary that
// ran at an earlier round of the run (or on the baseline's tree, probed) and now leaves no mark:
// something stops the runner before its tests, or erases what they wrote.
//
// The canary exercises the code under test as the tests do: where the runner allows it (pytest,
// unittest, node:test, jest, vitest, mocha, cargo), it is the neighbouring test file itself — its
// imports, its fixtures, its link to the crate's library — with one more test appended that fails
// through the mechanism the tests use (pytest's rewritten `assert`, unittest's assertEqual,
// node:assert, the file's own `expect`/`assert` under jest, vitest and mocha — chai's included —,
// Rust's assert_eq!, JUnit's assertEquals);
// Go's canary is in the package's own test binary. So code that patches the runner or the assertion
// library for the tests that use it patches the canary too. Not an inverted copy of a protected
// assertion: that may fail for reasons of its own (fixtures, a skipped branch) or never be reached;
// the appended test fails by construction, so a pass says only that the runner lies. Its name is
// random per round; what it contains is the loop's alone and recorded nowhere the agent reads.
//
// Whether the command reaches the canary at all is asked of the baseline's tree (the user's code,
// before any agent step) only when it matters: when a round's canary left no mark and no earlier
// round of the run ran it. Then a fresh checkout of the baseline runs the canary (a probe): reached
// there, the round's silence is the code under test's doing (RUNNER_COMPROMISED). A canary that ran
// needs no probe, so a run whose canaries run pays for none (it used to probe at the baseline, one
// suite run more, wherever a criterion failed there).
//
// The canary catches a runner subverted for every test; code under test that silences only the
// tests that failed (their names are in the agent's prompt) leaves it failing. So the same run also
// carries loop-owned copies of the tests each criterion reported failing earlier in the run
// (judge/shadow.ts), under names as random as the canary's, beside a canary of their own, with
// node:assert sealed (judge/seal.ts): a copy that fails, or does not run where its canary ran,
// while the round passes is RUNNER_COMPROMISED. One suite run per criterion and round, as before.
//
// What no canary can see: code that behaves only when it is not judged (it recognises the judge's
// user or workspace) or only when no canary is present, or that recognises a copy by its body
// (docs/security.md, limits).
import { randomBytes } from 'node:crypto';
import { readdir, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import picomatch from 'picomatch';
import { z } from 'zod';
import type { Criterion } from '../config/config.js';
import type { ProcessRunner } from '../os/ports.js';
import { lstatOrNull, readRegular } from '../os/tree-file.js';
import type { CheckResult } from './checks.js';
import { copyOutcomeSchema, readShadows, removeShadows, shadowCanaryRan, writeShadows, type CopyOutcome } from './shadow.js';
import { builtin, jsTestCall } from './shadow-js.js';
import { seal, unseal } from './seal.js';

export const CANARY_RUNNERS = ['pytest', 'unittest', 'go test', 'jest', 'vitest', 'node:test', 'mocha', 'cargo test', 'maven', 'gradle'] as const;
export type CanaryRunner = (typeof CANARY_RUNNERS)[number];

/**
 * What the canary of one criterion gave: `failed` (the runner reported the failure: honest),
 * `passed` (compromised), `not_run` (the command never ran the canary and it was never reached
 * earlier in the run: its discovery does not reach a new test file, and the round says nothing of
 * the runner's honesty; after an earlier round reached it, compromised), `no_runner` (no runner
 * recognised in the command, or no test file of its kind in the tree to put the canary beside).
 */
export const canaryOutcomeSchema = z.object({
  criterion: z.string(),
  runner: z.enum(CANARY_RUNNERS).nullable(),
  outcome: z.enum(['failed', 'passed', 'not_run', 'no_runner']),
  /** The loop's copies of the tests that failed earlier in the run, run with the canary (judge/shadow.ts); absent where none was made. */
  copies: z.array(copyOutcomeSchema).optional(),
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
  /**
   * The criteria whose canary ran at an earlier round of this run (the loop adds to it): for them
   * `not_run` is compromised.
   */
  reached?: Set<string>;
  /**
   * Whether the baseline's tree reaches the criterion's canary (probeCanary there; the caller keeps
   * the answer for the run): asked when a canary left no mark and none ran before in the run.
   */
  baselineReaches?: (criterion: Criterion) => Promise<boolean>;
  /** The tests each criterion's runner reported failing earlier in the run, by name: copied into the canary run (judge/shadow.ts). */
  failing?: ReadonlyMap<string, readonly string[]>;
}

/** A round's canary outcome as the loop weighs it: `reachedBefore`, and the copy that says the runner lies (never recorded). */
export type CanaryVerdict = CanaryOutcome & { reachedBefore?: boolean; lyingCopy?: CopyOutcome };

/**
 * Whether an outcome refuses the round: a pass, a canary reached before that no longer runs, or a
 * copy of an earlier failing test that fails (or is kept from running) while the round passes.
 */
export const compromised = (c: CanaryVerdict): boolean =>
  c.outcome === 'passed' || (c.outcome === 'not_run' && c.reachedBefore === true) || c.lyingCopy !== undefined;

/**
 * The canaries of a round: one per criterion that ran and passed. The round is refused where one
 * is `compromised` (the first such, with `reachedBefore`, first).
 */
export async function runCanaries(criteria: readonly Criterion[], checks: readonly CheckResult[], c: CanaryContext): Promise<CanaryVerdict[]> {
  const out: CanaryVerdict[] = [];
  for (const check of checks) {
    const criterion = criteria.find((k) => k.id === check.id);
    if (!criterion || check.reused_from_iteration !== null || !check.met) continue;
    out.push(await runCanary(criterion, c, false));
  }
  return out;
}

/**
 * Whether the criterion's command reaches a canary in the tree `c` holds (the baseline's): the
 * canary runs there whatever the criterion gives, and only its mark counts.
 */
export async function probeCanary(criterion: Criterion, c: CanaryContext): Promise<boolean> {
  return (await runCanary(criterion, c, true)).outcome === 'failed';
}

async function runCanary(criterion: Criterion, c: CanaryContext, probe: boolean): Promise<CanaryVerdict> {
  const runner = await recogniseRunner(criterion.run, c.cwd);
  const tests = runner ? testFiles(runner, c.files) : [];
  const sibling = runner && pickSibling(tests, c.protectedGlobs);
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
  await writeFile(file, await canaryBytes(runner, token, mark, join(c.cwd, sibling)), { flag: 'wx', mode: 0o644 });
  // The tests that failed earlier in the run, copied (a probe only asks whether the canary is reached).
  // The name under which the seal keeps the assertions as they were before the code under test loaded.
  const key = `k${randomBytes(6).toString('hex')}`;
  const made = await writeShadows(runner, probe ? [] : (c.failing?.get(criterion.id) ?? []), {
    cwd: c.cwd,
    testFiles: tests,
    key,
    canary: (at, from) => canaryBytes(runner, randomBytes(6).toString('hex'), at, from),
  });
  const sealed = await seal(runner, dir, c.env, key);
  try {
    const r = await c.runner.run({
      command: criterion.run,
      cwd: c.cwd,
      env: sealed.env,
      timeoutMs: criterion.timeout_seconds * 1000,
      signal: c.signal,
      maxOutputBytes: 64 * 1024,
    });
    const ran = lstatOrNull(mark) !== null || shadowCanaryRan(made?.shadows);
    // Asked of the baseline only where it decides: a canary that left no mark, never run before.
    const reachedBefore = c.reached?.has(criterion.id) === true || (!ran && !probe && (await c.baselineReaches?.(criterion)) === true);
    if (ran) c.reached?.add(criterion.id);
    const outcome = canaryOutcome({ exit: r.exitCode, timedOut: r.timedOut, ran, reachedBefore, probe });
    const copies = made ? await readShadows(made.shadows) : [];
    // A copy that failed, or did not run though the canary in its file did, while the round passed.
    const lyingCopy = copies.find((k) => k.outcome === 'failed' || (k.outcome === 'not_run' && k.besideRan));
    const copied = copies.map(({ test, outcome: o }) => ({ test, outcome: o }));
    c.log?.(
      `runner canary (${runner}) for \`${criterion.id}\`: ${says(outcome, reachedBefore, probe)}${made ? `; ${copiesSay(copied, made.notCopied)}` : ''} (${(r.durationMs / 1000).toFixed(1)} s)`,
    );
    return {
      criterion: criterion.id,
      runner,
      outcome,
      ...(copied.length ? { copies: copied } : {}),
      ...(reachedBefore ? { reachedBefore } : {}),
      ...(lyingCopy ? { lyingCopy: { test: lyingCopy.test, outcome: lyingCopy.outcome } } : {}),
    };
  } finally {
    await rm(file, { force: true });
    await rm(mark, { force: true });
    if (made) await removeShadows(made.shadows);
    await unseal(sealed);
    await removeBuildOutputs(runner, sibling, token, c.cwd);
    // The snapshot file jest and vitest write for a copied `toMatchSnapshot` would be found obsolete later.
    await rm(join(dir, '__snapshots__', `${basename(file)}.snap`), { force: true });
    c.after?.(`the runner canary of \`${criterion.id}\``);
  }
}

/**
 * A canary that ran and made the command fail is honest; one that ran in a command that exited 0
 * passed. One that left no mark in a failing command fails honestly only where it was never reached
 * (the copy of a test file may not build): after an earlier round reached it, nothing but the code
 * under test (an exit before the tests, the mark erased) keeps it from running. A probe (the
 * criterion failed) tells only whether the canary is reached.
 */
function canaryOutcome(o: { exit: number | null; timedOut: boolean; ran: boolean; reachedBefore: boolean; probe: boolean }): CanaryOutcome['outcome'] {
  if (o.probe) return o.ran ? 'failed' : 'not_run';
  if (o.timedOut || (o.exit !== 0 && (o.ran || !o.reachedBefore))) return 'failed';
  return o.ran ? 'passed' : 'not_run';
}

/** What the copies did, for the log. */
function copiesSay(copies: CopyOutcome[], notCopied: readonly string[]): string {
  const bad = copies.filter((k) => k.outcome !== 'passed');
  const told = bad.length
    ? bad.map((k) => `the copy of \`${k.test}\` ${k.outcome === 'failed' ? 'FAILED' : 'DID NOT RUN'}`).join(', ')
    : `copies of ${copies.length} earlier failing test(s) passed`;
  return notCopied.length ? `${told} (not copied, no top-level declaration found: ${notCopied.map((n) => `\`${n}\``).join(', ')})` : told;
}

function says(outcome: CanaryOutcome['outcome'], reachedBefore: boolean, probe: boolean): string {
  if (outcome === 'failed') return probe ? 'reached by the command (the criterion fails; the canary is known to run)' : 'failed, as it must';
  if (outcome === 'passed') return 'PASSED — the runner reports a failing test as passing';
  if (reachedBefore) return 'NOT RUN, though an earlier round of this run ran it — something in the run keeps the runner from its tests or erases their marks';
  return "not run by the command, and never reached in this run (its discovery does not reach a new test file): this round says nothing of the runner's honesty";
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

/** The tracked test files of the runner's kind, by name. */
const testFiles = (runner: CanaryRunner, files: readonly string[]) =>
  files.filter((f) => TEST_FILE[runner].test(f) && !f.split('/').includes('node_modules')).sort();

/** A test file to put the canary beside: a protected one first, then the first by name. */
function pickSibling(tests: readonly string[], protectedGlobs: readonly string[]): string | null {
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
      // Run before the other integration tests (cargo runs them by name and stops at the first that
      // fails): the baseline, whose tests fail, still reaches it.
      return `_canary_${token}.rs`;
    case 'maven':
    case 'gradle':
      return `${javaClass(token)}.java`;
    default:
      // Named as the sibling is (`x.spec.ts` → `<token>.spec.ts`): the runner's discovery finds it as it finds the sibling.
      return `${token}${/\.(?:test|spec)\.[cm]?[jt]sx?$/.exec(sibling)?.[0] ?? extname(sibling)}`;
  }
}

const MESSAGE = 'phuc-loop runner canary: this test must fail';

/** The canary's class name: Maven's surefire and Gradle run a class named *Test. */
const javaClass = (token: string) => `X${token}Test`;

/** Which JUnit the sibling test class is written for: JUnit 5 (Jupiter) when it imports it, else JUnit 4. */
const jupiter = (text: string) => /\borg\.junit\.jupiter\b/.test(text);

/** The runners whose canary is the neighbouring test file with a failing test appended (see the header). */
const APPENDED: ReadonlySet<CanaryRunner> = new Set(['pytest', 'unittest', 'node:test', 'cargo test', 'jest', 'vitest', 'mocha']);

/** The runners of JS test files that may be TypeScript a transformer type-checks (ts-jest): the copy is not checked. */
const NOCHECK: ReadonlySet<CanaryRunner> = new Set(['jest', 'vitest', 'mocha']);

/** The canary's bytes: the sibling's own (as they are: their encoding is theirs) and the failing test, or the failing test alone. */
async function canaryBytes(runner: CanaryRunner, token: string, mark: string, sibling: string): Promise<Buffer> {
  const own = await readRegular(sibling, 1024 * 1024);
  const test = Buffer.from(canaryText(runner, token, mark, own?.toString('utf8') ?? ''));
  if (!own || !APPENDED.has(runner)) return test;
  // A first line `// @ts-nocheck` (never before a `#!` line, which must stay first).
  const nocheck = NOCHECK.has(runner) && !own.subarray(0, 2).equals(Buffer.from('#!')) ? Buffer.from('// @ts-nocheck\n') : Buffer.alloc(0);
  return Buffer.concat([nocheck, own, Buffer.from('\n\n\n'), test]);
}

/**
 * The test appended to a jest, vitest or mocha file: it calls the test function and the assertion
 * the file itself uses, by the names the file gives them (imported, required or global), so a
 * no-op `expect` or `assert` the code under test makes for the file is the canary's too — chai's
 * `expect(…).to.equal`, else the `toBe` of jest's and vitest's `expect`, else `assert.strictEqual`
 * (node's or chai's); a file with neither gets a thrown error.
 */
function jsAppended(token: string, at: string, sibling: string): string {
  const fail = /(?:^|[^.\w$])expect\s*\(/m.test(sibling)
    ? /['"]chai['"]/.test(sibling)
      ? `expect(1).to.equal(2, '${MESSAGE}')`
      : 'expect(1).toBe(2)'
    : /(?:^|[^.\w$])assert\s*[.(]/m.test(sibling)
      ? `assert.strictEqual(1, 2, '${MESSAGE}')`
      : `throw new Error('${MESSAGE}')`;
  return `;${jsTestCall(sibling)}('${token}', () => {\n  ${builtin('fs')}.writeFileSync(${at}, '');\n  ${fail};\n});\n`;
}

/** The failing test, in the runner's style; `text` is the sibling's. */
function canaryText(runner: CanaryRunner, token: string, mark: string, text: string): string {
  const at = JSON.stringify(mark);
  switch (runner) {
    case 'pytest':
      // A plain assert, which pytest rewrites in test modules as it does the suite's.
      return `def test_${token}():\n    open(${at}, "w").close()\n    assert 1 == 2, "${MESSAGE}"\n`;
    case 'unittest':
      return `import unittest as unittest_${token}\n\n\nclass Test${token.toUpperCase()}(unittest_${token}.TestCase):\n    def test_${token}(self):\n        open(${at}, "w").close()\n        self.assertEqual(1, 2, "${MESSAGE}")\n`;
    case 'go test': {
      const pkg = /^package\s+(\w+)/m.exec(text)?.[1] ?? 'main';
      return `package ${pkg}\n\nimport (\n\t"os"\n\t"testing"\n)\n\nfunc TestX${token}(t *testing.T) {\n\t_ = os.WriteFile(${at}, nil, 0644)\n\tt.Fatal("${MESSAGE}")\n}\n`;
    }
    case 'cargo test':
      // A Rust string literal: the mark's path is the loop's (hex names), JSON's escapes are Rust's for it.
      return `#[test]\nfn canary_${token}() {\n    let _ = ::std::fs::write(${at}, b"");\n    assert_eq!(1, 2, "${MESSAGE}");\n}\n`;
    case 'maven':
    case 'gradle': {
      const pkg = /^\s*package\s+([\w.]+)\s*;/m.exec(text)?.[1];
      const [test, fail] = jupiter(text)
        ? ['org.junit.jupiter.api.Test', `org.junit.jupiter.api.Assertions.assertEquals(1, 2, "${MESSAGE}")`]
        : ['org.junit.Test', `org.junit.Assert.assertEquals("${MESSAGE}", 1, 2)`];
      return `${pkg ? `package ${pkg};\n\n` : ''}public class ${javaClass(token)} {\n    @${test}\n    public void canary() throws Exception {\n        java.nio.file.Files.write(java.nio.file.Paths.get(${at}), new byte[0]);\n        ${fail};\n    }\n}\n`;
    }
    case 'node:test':
      return `;${builtin('test')}.test('${token}', () => {\n  ${builtin('fs')}.writeFileSync(${at}, '');\n  ${builtin('assert')}.strictEqual(1, 2, '${MESSAGE}');\n});\n`;
    default:
      return jsAppended(token, at, text);
  }
}
