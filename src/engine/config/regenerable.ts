// Regenerable folders: one list for every part of the loop that must not spend a round walking
// what a tool regenerates (dependencies, virtual environments, build output, caches). The user's
// ignored files outside them are kept and put back around agent steps (loop/user-files.ts,
// `user_files.regenerable` replaces the list there); no JUnit report is looked for inside them but
// in the build outputs, where test runners write theirs (judge/junit.ts).

/** Where builds and test runners write their output, reports included (surefire, Gradle, jest-junit, coverage). */
const BUILD_OUTPUTS = ['target', 'dist', 'build', '.next', 'coverage', 'htmlcov'];

/**
 * Folder (or file) names whose ignored content is regenerable; `user_files.regenerable` replaces the
 * list for the user's files. The files are the caches a tool rewrites in place at the top of a
 * project (coverage.py's data, ESLint's and tsc's caches): kept, the agent at user+pidns could not write them.
 */
export const DEFAULT_REGENERABLE: readonly string[] = [
  '.coverage',
  'htmlcov',
  '.hypothesis',
  '.eslintcache',
  'tsconfig.tsbuildinfo',
  '.turbo',
  '.parcel-cache',
  '.DS_Store',
  // aider's repo map cache (its own files, rebuilt when missing).
  '.aider.tags.cache.v4',
  'node_modules',
  '.venv',
  'venv',
  '__pycache__',
  '.tox',
  '.nox',
  '.mypy_cache',
  '.pytest_cache',
  '.ruff_cache',
  'target',
  'dist',
  'build',
  '.gradle',
  '.next',
  '.cache',
  'coverage',
];

/** The regenerable names no test report is written under (all but the build outputs): never searched for one. */
export const NO_REPORT_FOLDERS: readonly string[] = DEFAULT_REGENERABLE.filter((n) => !BUILD_OUTPUTS.includes(n));
