import { guardedParts, hasGuardedParts } from '../../src/engine/config/runner-config.js';

const pkg = (o: Record<string, unknown>) => JSON.stringify({ name: 'x', version: '1.0.0', ...o });

describe('the runner configuration inside shared project files', () => {
  test.each([
    ['package.json', pkg({ scripts: { test: 'jest' } }), pkg({ scripts: { test: 'jest' }, dependencies: { a: '1' } }), false],
    ['package.json', pkg({ scripts: { test: 'jest' } }), pkg({ scripts: { test: 'jest --testPathIgnorePatterns=slow' } }), true],
    ['package.json', pkg({ scripts: { test: 'jest', lint: 'x' } }), pkg({ scripts: { test: 'jest', lint: 'y' } }), false],
    ['package.json', pkg({}), pkg({ jest: { testPathIgnorePatterns: ['fail'] } }), true],
    ['packages/a/package.json', pkg({}), pkg({ mocha: { spec: 'none' } }), true],
    ['package.json', pkg({}), '{ not json', true],
    ['pyproject.toml', '[project]\nname = "a"\n', '[project]\nname = "a"\ndependencies = ["b"]\n', false],
    ['pyproject.toml', '[project]\nname = "a"\n', '[project]\nname = "a"\n[tool.pytest.ini_options]\naddopts = "-p x"\n', true],
    // The same table written as an inline table under [tool]: parsed, not pattern-matched.
    ['pyproject.toml', '[project]\nname = "a"\n', '[tool]\npytest = { ini_options = { addopts = "-p x" } }\n[project]\nname = "a"\n', true],
    ['pyproject.toml', '[tool.black]\nline-length = 88\n', '[tool.black]\nline-length = 100\n', false],
    ['setup.cfg', '[metadata]\nname = a\n', '[metadata]\nname = b\n', false],
    ['setup.cfg', '[metadata]\nname = a\n', '[metadata]\nname = a\n[tool:pytest]\naddopts = -p x\n', true],
  ])('%s: %s → %s changed the runner: %s', (path, before, after, changed) => {
    expect(hasGuardedParts(path)).toBe(true);
    expect(guardedParts(path, before, ['test']) !== guardedParts(path, after, ['test'])).toBe(changed);
  });

  test('other files have no guarded parts', () => {
    expect(hasGuardedParts('src/package.json.bak')).toBe(false);
    expect(hasGuardedParts('Cargo.toml')).toBe(false);
  });
});
