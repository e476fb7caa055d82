// ESLint 9 flat config. TypeScript is linted with typescript-eslint's strict, type-aware rule set;
// the .mjs/.js scripts, fixtures and examples with ESLint's recommended rules. Layout is Prettier's
// job (prettier.config.js): no rule here is about formatting.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'build/', 'coverage/'] },
  js.configs.recommended,
  {
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: { ...globals.node } },
  },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.strictTypeChecked],
    languageOptions: {
      parserOptions: {
        // bench/ is outside tsconfig.json's include: typed with the same compiler options.
        projectService: { allowDefaultProject: ['bench/*.ts'], defaultProject: 'tsconfig.json' },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // Counts, exit codes, iteration numbers and yes/no flags are what the output prints; null and
      // undefined stay errors (they would print "null" to a user).
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
      // `(m) => core.warning(m)` callbacks and `return fail(...)` early exits of void handlers.
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true, ignoreVoidReturningFunctions: true }],
      // `const { budget: _budget, ...rest } = x` drops a field on purpose.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
      // `map.get(k)!` right after the code has checked `k`: an assertion reads better than a branch that cannot run.
      '@typescript-eslint/no-non-null-assertion': 'off',
      // Documents read back from disk (state, plan, certificates) are typed by a cast until each is
      // parsed by a schema; the checks this rule calls unnecessary are the fail-closed ones on them.
      '@typescript-eslint/no-unnecessary-condition': 'off',
    },
  },
  {
    files: ['test/**/*.ts'],
    languageOptions: { globals: { ...globals.jest } },
    rules: {
      // A test reads evidence files back with JSON.parse and asserts on them: a wrong shape fails
      // the assertion, so typing every parsed document would add casts without adding safety.
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // `found!.field` in a test: a missing value fails the test with a TypeError, which is the point.
      '@typescript-eslint/no-non-null-assertion': 'off',
      // Emulated API payloads and parsed evidence in assertions.
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
);
