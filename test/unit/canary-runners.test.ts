// Which runner a criterion's command runs, for the runner canary (judge/canary.ts): the build tools'
// spellings of "run the tests" are recognised, and commands that build without testing are not.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recogniseRunner } from '../../src/engine/judge/canary.js';

const cwd = await mkdtemp(join(tmpdir(), 'phuc-canary-'));

test.each([
  ['cargo test', 'cargo test'],
  ['cargo test --offline -q', 'cargo test'],
  ['cargo +nightly test --workspace', 'cargo test'],
  ['cd crate && cargo -q test', 'cargo test'],
  ['mvn -o -q test', 'maven'],
  ['./mvnw -B verify', 'maven'],
  ['mvn -Dmaven.repo.local=/x/.m2 test', 'maven'],
  ['gradle test --offline', 'gradle'],
  ['./gradlew :app:test', 'gradle'],
  ['./gradlew check', 'gradle'],
  ['gradle integrationTest', 'gradle'],
])('%s runs %s', async (command, runner) => {
  expect(await recogniseRunner(command, cwd)).toBe(runner);
});

test.each(['cargo build', 'cargo clippy', 'mvn -q compile', './gradlew assemble', 'echo mvn test-data'])('%s runs no test runner', async (command) => {
  expect(await recogniseRunner(command, cwd)).toBeNull();
});
