// The parts of shared project files that configure how the criteria run. The agent may edit these
// files (dependencies, metadata) but not these parts: a runner told to load a plugin, skip files
// or run a weaker script passes a suite that has not changed a byte (SPEC §7, suite integrity).
import { parse as parseToml } from 'smol-toml';
import { canonicalJson } from '../common/canonical.js';

/** package.json keys the test runners and their helpers read. */
const PACKAGE_RUNNER_KEYS = ['jest', 'mocha', 'ava', 'tap', 'nyc', 'c8', 'babel'];
/** pyproject.toml `[tool.*]` tables of the Python runners and task runners. */
const PYPROJECT_TOOLS = ['pytest', 'coverage', 'tox', 'nox', 'hatch', 'poe'];
/** setup.cfg sections read by pytest and coverage. */
const SETUP_CFG_SECTION = /^(tool:pytest|coverage:.*)$/;

const base = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/** Whether `path` is a file with guarded parts (at any depth: a monorepo's packages have their own). */
export function hasGuardedParts(path: string): boolean {
  return ['package.json', 'pyproject.toml', 'setup.cfg'].includes(base(path));
}

/**
 * The guarded parts of `text` as one canonical string (compare before and after); text that does
 * not parse is compared whole, so an unparseable edit counts as a change (fail closed).
 */
export function guardedParts(path: string, text: string | null, scripts: readonly string[]): string {
  if (text === null) return 'absent';
  try {
    switch (base(path)) {
      case 'package.json': {
        const v = JSON.parse(text) as Record<string, unknown>;
        const s = (v.scripts ?? {}) as Record<string, unknown>;
        // Only the root package's scripts are run by the criteria (`npm test`).
        const named = path === 'package.json' ? Object.fromEntries(scripts.map((n) => [n, s[n] ?? null])) : {};
        return canonicalJson({ scripts: named, ...Object.fromEntries(PACKAGE_RUNNER_KEYS.map((k) => [k, v[k] ?? null])) });
      }
      case 'pyproject.toml': {
        const tool = (parseToml(text).tool ?? {}) as Record<string, unknown>;
        return canonicalJson(Object.fromEntries(PYPROJECT_TOOLS.map((k) => [k, tool[k] ?? null])));
      }
      case 'setup.cfg':
        return iniSections(text)
          .filter((s) => SETUP_CFG_SECTION.test(s.name))
          .map((s) => `[${s.name}]\n${s.lines.join('\n')}`)
          .join('\n');
      default:
        return '';
    }
  } catch {
    return `unparseable:${text}`;
  }
}

/** INI sections with their meaningful lines (comments and blank lines do not configure anything). */
function iniSections(text: string): { name: string; lines: string[] }[] {
  const out: { name: string; lines: string[] }[] = [{ name: '', lines: [] }];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trimEnd();
    const header = /^\s*\[([^\]]*)\]/.exec(line);
    if (header) out.push({ name: header[1].trim(), lines: [] });
    else if (line.trim() && !/^\s*[#;]/.test(line)) out.at(-1)!.lines.push(line);
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
