// init for Python projects: pytest or unittest, a virtual environment for checks.setup, the runner's
// configuration protected.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { shellQuote } from '../engine/common/shell-quote.js';
import { onPath } from './init-programs.js';
import { type InitPlan } from './templates.js';
import { REPORT, LOOP_FILES, type Project, has, unique } from './init-project.js';

export const PY_MARKERS = ['pyproject.toml', 'setup.py', 'setup.cfg', 'tox.ini', 'noxfile.py', 'pytest.ini', 'conftest.py', 'Pipfile'];
export const isRequirements = (n: string) => /^(.*[-_])?requirements([-_.].*)?\.txt$/.test(n);

/**
 * `--system-site-packages` reaches the base interpreter only; when the python3 on PATH is itself a
 * virtual environment (the reusable workflow's, the dependencies installed), a .pth file names its
 * site-packages in .venv's, after .venv's own and before the base's.
 */
const OUTER_ENV = `python3 -c "import site, sys; sys.prefix == sys.base_prefix or open('.venv/lib/python%d.%d/site-packages/outer-env.pth' % sys.version_info[:2], 'w').write('\\n'.join(site.getsitepackages()))"`;

export async function pythonPlan(p: Project, env: NodeJS.ProcessEnv): Promise<InitPlan> {
  const pyproject = (await p.read('pyproject.toml')) ?? '';
  const setupCfg = (await p.read('setup.cfg')) ?? '';
  const requirements = [...p.names].filter(isRequirements).sort();
  const texts = [pyproject, setupCfg, (await p.read('tox.ini')) ?? '', ...(await Promise.all(requirements.map(async (r) => (await p.read(r)) ?? '')))].join(
    '\n',
  );
  const tox = has(p, 'tox.ini') || /^\[tool\.tox\]/m.test(pyproject) || /^\[tox:tox\]/m.test(setupCfg);
  const usesPytest =
    has(p, 'pytest.ini', '.pytest.ini', 'conftest.py') || /\bpytest\b/.test(texts) || (await testFilesImport(p, /^\s*(import|from)\s+pytest\b/m));
  const unittestOnly = !usesPytest && (await testFilesImport(p, /^\s*(import|from)\s+unittest\b/m));

  let run: string;
  let label: string;
  let junit: string | null = null;
  // An environment tool only where it is installed: the criterion would otherwise exit 127 at the baseline.
  const envTools = [...(has(p, 'noxfile.py') ? ['nox'] : []), ...(tox ? ['tox'] : [])];
  const found: string[] = [];
  for (const t of envTools) if (await onPath(t, env)) found.push(t);
  const missing = envTools.filter((t) => !found.includes(t));
  const runNote = missing.length
    ? `${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} configured but not installed here: \`python3 -m pip install ${missing.join(' ')}\`, then \`phuc-loop init --force\` runs ${missing.length > 1 ? 'them' : 'it'}`
    : undefined;
  if (found[0] === 'nox') [run, label] = ['nox', 'nox (the noxfile.py sessions)'];
  else if (found[0] === 'tox') [run, label] = ['tox', 'tox (the tox environments)'];
  else if (unittestOnly) [run, label] = ['python3 -m unittest discover', 'unittest'];
  else [run, label, junit] = [`python3 -m pytest --junitxml=${REPORT}`, 'pytest', REPORT];

  // Dependencies: the requirement files, then the package itself (with its test extra, if it has one).
  const installable = /^\[project\]/m.test(pyproject) || /^\[tool\.poetry\]/m.test(pyproject) || has(p, 'setup.py') || /^\[metadata\]/m.test(setupCfg);
  const extras = /^\[project\.optional-dependencies\]([\s\S]*?)(^\[|(?![\s\S]))/m.exec(pyproject)?.[1] ?? '';
  const extra = ['test', 'tests', 'testing', 'dev'].find((e) => new RegExp(`^${e}\\s*=`, 'm').test(extras));
  const pipArgs = [...requirements.flatMap((r) => ['-r', shellQuote(r)]), ...(installable ? ['-e', shellQuote(extra ? `.[${extra}]` : '.')] : [])];
  const envTool = run === 'nox' || run === 'tox';
  // Into a virtual environment of the checks' own in their workspace (.venv, kept and sealed between
  // rounds), never into the Python on PATH: the system's refuses pip (PEP 668), and one prepared by
  // the reusable workflow or the user is not the checks' user's to write. It sees what that Python has
  // (OUTER_ENV), so pip installs only what is missing there: on the runner, the project itself.
  const setup =
    pipArgs.length && !envTool
      ? {
          run: `python3 -m venv --system-site-packages .venv && ${OUTER_ENV} && .venv/bin/python -m pip install ${pipArgs.join(' ')}`,
          inputs: [...requirements, ...['pyproject.toml', 'setup.py', 'setup.cfg'].filter((n) => has(p, n))],
        }
      : null;
  // Through PATH: the tree holds no .venv/bin/python (the loop refuses a criterion that runs a program outside it).
  if (setup) run = `PATH="$PWD/.venv/bin:$PATH" ${run}`;
  // pytest from the setup's own installs (a requirements file or the package's extra naming it) needs no machine install.
  const pytestInstalled = run.includes('pytest') && !(setup && /\bpytest\b/.test(texts));
  return {
    type: 'python',
    runner: label,
    run,
    needs: envTool ? [] : ['python3', ...(pytestInstalled ? (['pytest'] as const) : [])],
    ...(runNote ? { runNote } : {}),
    junit,
    setup,
    setupNote: envTool
      ? `${run} builds its own environments (it needs the package index and must be installed where the checks run)`
      : setup
        ? "needs the package index; the criterion runs the .venv it makes (first on the criterion's PATH)"
        : 'nothing to install was found (no requirements*.txt, no installable pyproject.toml or setup.py)',
    protected: unique([
      ...LOOP_FILES,
      'tests/**',
      'test/**',
      '**/test_*.py',
      '**/*_test.py',
      '**/conftest.py',
      'pytest.ini',
      '.pytest.ini',
      'pyproject.toml',
      'setup.cfg',
      'tox.ini',
      'noxfile.py',
      ...requirements,
    ]),
  };
}

/** True when a test file at the root or in tests/ or test/ matches `re`. */
async function testFilesImport(p: Project, re: RegExp): Promise<boolean> {
  for (const folder of ['.', 'tests', 'test']) {
    const names = await readdir(join(p.dir, folder)).catch(() => [] as string[]);
    for (const n of names.filter((x) => /^test_.*\.py$|_test\.py$/.test(x)))
      if (re.test(await readFile(join(p.dir, folder, n), 'utf8').catch(() => ''))) return true;
  }
  return false;
}
