// What a criterion's command line names, and so what the guard protects: the test-runner
// configuration, the programs and scripts it runs, their rule files, the package scripts it calls.
import { type LoopConfig } from './config.js';

/**
 * Test-runner configuration, always protected (SPEC §7): a runner told to skip, filter or stub
 * tests makes a weaker suite pass. The workflows are protected too (they run with the repository's
 * token).
 */
export const RUNNER_CONFIGS = [
  '**/jest.config.*',
  '**/vitest.config.*',
  '**/vitest.workspace.*',
  '**/vite.config.*',
  '**/.mocharc*',
  '**/karma.conf.*',
  '**/playwright.config.*',
  '**/cypress.config.*',
  '**/.nycrc*',
  '**/pytest.ini',
  '**/.pytest.ini',
  '**/pytest.toml',
  '**/.pytest.toml',
  '**/.cargo/config',
  '**/.cargo/config.toml',
  '**/babel.config.*',
  '**/.babelrc*',
  '**/conftest.py',
  '**/tox.ini',
  '**/noxfile.py',
  '**/.npmrc',
  '**/.yarnrc*',
  '**/.coveragerc',
  '**/ava.config.*',
  '**/.taprc',
  '**/.config/nextest.toml',
  '**/bunfig.toml',
  '**/phpunit.xml',
  '**/phpunit.xml.dist',
  '**/.rspec',
  'go.work',
  '.github/**',
  // What a runner takes its programs and dependencies from before the tests: `npm test` runs
  // node_modules/.bin first on PATH (an agent's `node` there ran instead), Go builds from vendor/
  // once vendor/modules.txt exists, a virtualenv's site-packages, Python's startup hooks, and the
  // version pins of toolchain managers (rustup, asdf, mise, nvm, pyenv).
  '**/node_modules/**',
  '**/vendor/**',
  '**/.venv/**',
  '**/sitecustomize.py',
  '**/usercustomize.py',
  '**/*.pth',
  '**/rust-toolchain',
  '**/rust-toolchain.toml',
  '**/.tool-versions',
  '**/mise.toml',
  '**/.mise.toml',
  '**/.nvmrc',
  '**/.node-version',
  '**/.python-version',
];

/** Programs that run the file named after their options (`node x.js`, `bash -e check.sh`). */
const INTERPRETERS = new Set([
  'sh',
  'bash',
  'zsh',
  'dash',
  'node',
  'deno',
  'bun',
  'tsx',
  'ts-node',
  'python',
  'python3',
  'ruby',
  'perl',
  'php',
  'pwsh',
  'source',
  '.',
]);
/** Programs that run the command after them (`timeout 60 ./check.sh`, `env A=1 node x.js`). */
const WRAPPERS = new Set(['env', 'timeout', 'nice', 'time', 'exec', 'command', 'xvfb-run', 'sudo']);

/** The module of `-m MODULE` among an interpreter's options (after the script, `-m` is the script's). */
function moduleOption(args: string[]): string | null {
  for (let j = 0; j < args.length; j++) {
    if (args[j] === '-m') return /^[A-Za-z_][\w.]*$/.test(args[j + 1] ?? '') ? args[j + 1] : null;
    if (args[j] === '-W' || args[j] === '-X') j++;
    else if (!args[j].startsWith('-')) return null;
  }
  return null;
}

/** Each simple command of a shell line: the program it starts and, for an interpreter, the script (or `-m` module). */
export function programsOf(command: string): { program: string; script: string | null; module: string | null }[] {
  const out: { program: string; script: string | null; module: string | null }[] = [];
  for (const segment of command.split(/[;&|()\n`]+|\$\(/)) {
    const words = segment.split(/[\s'"]+/).filter(Boolean);
    let i = 0;
    while (
      i < words.length &&
      (/^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]) || WRAPPERS.has(words[i]) || (i > 0 && WRAPPERS.has(words[i - 1]) && /^(-|\d)/.test(words[i])))
    )
      i++;
    const program = words[i];
    if (program === undefined) continue;
    const script = INTERPRETERS.has(program.replace(/^.*\//, '')) ? (words.slice(i + 1).find((w) => !w.startsWith('-')) ?? null) : null;
    out.push({ program, script, module: moduleOption(words.slice(i + 1)) });
  }
  return out;
}

/**
 * The files a command runs (`./check.sh`, `sh test/check.sh`, `node scripts/score.js`), when they
 * exist in the tree: the check's own code. A file it only reads (`grep -q ok src/status.txt`) is
 * the work the agent is asked to do, so it stays the agent's.
 */
export function filesNamedBy(command: string, files: ReadonlySet<string>): string[] {
  const inTree = (w: string | null) => (w !== null && files.has(w.replace(/^\.\//, '')) ? [w.replace(/^\.\//, '')] : []);
  return [...new Set(programsOf(command).flatMap((p) => [...inTree(p.program), ...inTree(p.script)]))];
}

/** What a script file of the tree looks like: a relative path, or a name with a script's extension. */
const SCRIPT_FILE = /^(?!\.\.?\/\.\.|\/|~)[\w.@+/-]+$/;
const SCRIPT_EXT = /\.(sh|bash|zsh|js|mjs|cjs|ts|mts|cts|py|rb|pl|php|ps1|lua|tcl)$/;

/**
 * The files of the tree a command runs by path, present or not: `./check.sh`, `sh test/check.sh`,
 * `node scripts/score.js` (never an installed program, an absolute path or inline code such as `sh -c 'exit 0'`).
 */
export function filesRunBy(command: string): string[] {
  const looksLikeFile = (w: string | null): w is string => w !== null && SCRIPT_FILE.test(w) && !w.startsWith('../') && (w.includes('/') || SCRIPT_EXT.test(w));
  return [
    ...new Set(
      programsOf(command)
        .flatMap((p) => [p.program.includes('/') ? p.program : null, p.script])
        .filter(looksLikeFile)
        .map((w) => w.replace(/^\.\//, '')),
    ),
  ];
}

/**
 * Criteria whose program is not in the tree (`files`) and not marked `agent_writes`: the agent would
 * write the judge of its own work. Each with what the user can do.
 */
export function criteriaToWrite(criteria: readonly { id: string; run: string; agent_writes?: boolean }[], files: ReadonlySet<string>) {
  return criteria.flatMap((c) => {
    // A folder the tree holds (`node --test test/`) is no program the agent could write.
    const held = (f: string) => files.has(f) || [...files].some((t) => t.startsWith(`${f.replace(/\/+$/, '')}/`));
    const absent = c.agent_writes ? [] : filesRunBy(c.run).filter((f) => !held(f));
    return absent.length
      ? [
          {
            id: c.id,
            reason: `\`${c.run}\` runs ${absent.join(', ')}, which the tree does not hold: a program the agent writes would judge its own work — commit it, or set agent_writes: true on the criterion if the agent is to write it (it is protected once it exists)`,
          },
        ]
      : [];
  });
}

/** The files the `agent_writes` criteria run: once a commit holds one, no one changes it. */
export function judgesToWrite(criteria: readonly { run: string; agent_writes?: boolean | null }[]): string[] {
  return criteria.filter((c) => c.agent_writes).flatMap((c) => filesRunBy(c.run));
}

/** Packages a module runner loads before any test does: `pytest/` alone would leave these to shadow. */
const RUNNER_PACKAGES: Readonly<Record<string, readonly string[]>> = { pytest: ['_pytest', 'pluggy', 'py'], unittest: [], nose2: [] };

/**
 * The files a task runner reads its rules from, by the name it looks for first: an agent's
 * `GNUmakefile` beside the user's `Makefile` is what `make test` runs.
 */
const MAKE_FILES = ['GNUmakefile', 'makefile', 'Makefile', '**/*.mk'];
const RULE_FILES: Readonly<Record<string, readonly string[]>> = {
  make: MAKE_FILES,
  gmake: MAKE_FILES,
  just: ['justfile', 'Justfile', '.justfile'],
  rake: ['Rakefile', 'rakefile', 'Rakefile.rb', 'rakefile.rb', 'rakelib/**'],
  task: ['Taskfile.yml', 'Taskfile.yaml', 'taskfile.yml', 'taskfile.yaml'],
};

/**
 * What a criterion's runner reads before any test runs, protected whether or not it exists: the
 * rule files of a task runner (`make`: GNUmakefile, makefile, Makefile), and what would stand in
 * for the module of `python -m pytest`, which imports from the folder it starts in before the
 * installed packages (a `pytest/`, `pytest.py`, `.pyc`, `.so` the agent adds there runs instead
 * of pytest and reports whatever it likes).
 */
export function runnerFilesOf(command: string): string[] {
  const out: string[] = [];
  for (const { program, module } of programsOf(command)) {
    const name = program.replace(/^.*\//, '');
    out.push(...(RULE_FILES[name] ?? []));
    if (module === null || !/^python[0-9.]*$/.test(name)) continue;
    const top = module.split('.')[0];
    for (const pkg of [top, ...(RUNNER_PACKAGES[top] ?? [])]) out.push(`${pkg}.*`, `${pkg}/**`);
  }
  return [...new Set(out)];
}

/**
 * Every path the agent may not change: the user's globs, the loop's own inputs, the runner
 * configurations and the files the criteria, residual, Northstar, critic and security commands name.
 */
export function protectedGlobs(config: LoopConfig, configPath: string, files: ReadonlySet<string> = new Set()): string[] {
  const commands = [
    ...config.acceptance_criteria.map((c) => c.run),
    config.residual.run ?? '',
    config.critic?.run ?? '',
    config.security?.gate ?? '',
    config.security?.api_surface ?? '',
    config.security?.paraphrase ?? '',
    config.checks.setup ?? '',
  ];
  return [
    ...new Set([
      ...config.protected,
      configPath,
      config.northstar,
      ...(config.mission_context ? [config.mission_context] : []),
      ...RUNNER_CONFIGS,
      ...commands.flatMap((c) => [...filesNamedBy(c, files), ...runnerFilesOf(c)]),
    ]),
  ];
}

/** The package.json scripts the criteria run (`npm test` → test, pretest, posttest; `npm run x` → x, prex, postx). */
export function scriptsRunBy(commands: string[]): string[] {
  const names = new Set<string>();
  for (const c of commands) {
    for (const m of c.matchAll(/\b(?:npm|pnpm|yarn|bun)\s+(?:run(?:-script)?\s+)?([A-Za-z0-9:_.-]+)/g)) {
      const name = m[1] === 't' ? 'test' : m[1];
      if (['install', 'ci', 'exec', 'x', 'dlx', 'add', 'i'].includes(name)) continue;
      names.add(name).add(`pre${name}`).add(`post${name}`);
    }
  }
  return [...names].sort();
}
