// init for npm, pnpm and yarn projects: the test script's runner (vitest, jest, mocha, node:test), its
// JUnit reporter, its configs protected, the package manager's install as checks.setup.
import { type InitPlan } from './templates.js';
import { REPORT, LOOP_FILES, type Project, has, protectNamed, unique } from './init-project.js';

interface Word {
  /** As written in the script (quotes kept): re-emitted verbatim, so globbing and quoting are unchanged. */
  raw: string;
  value: string;
}

/** Words of a simple command line; null when it uses anything but words and plain quotes (&&, |, $, ;, >…). */
export function simpleWords(line: string): Word[] | null {
  const words: Word[] = [];
  let raw: string | null = null;
  let value = '';
  const s = line.trim();
  for (let i = 0; i < s.length;) {
    const c = s[i];
    if (/\s/.test(c)) {
      if (raw !== null) words.push({ raw, value });
      raw = null;
      value = '';
      i++;
    } else if (c === "'" || c === '"') {
      const j = s.indexOf(c, i + 1);
      if (j < 0) return null;
      const body = s.slice(i + 1, j);
      if (c === '"' && /[$`\\]/.test(body)) return null;
      raw = (raw ?? '') + s.slice(i, j + 1);
      value += body;
      i = j + 1;
    } else if (/[\w@%+=:,./*?[\]{}^~-]/.test(c)) {
      raw = (raw ?? '') + c;
      value += c;
      i++;
    } else return null;
  }
  if (raw !== null) words.push({ raw, value });
  return words;
}

type NodeRunner = 'vitest' | 'jest' | 'mocha' | 'node:test';

/** The runner a test script invokes directly, its env assignments and its arguments; null for anything else. */
function scriptRunner(script: string): { runner: NodeRunner; env: Word[]; args: Word[] } | null {
  const words = simpleWords(script);
  if (!words) return null;
  const env: Word[] = [];
  while (words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0].value)) env.push(words.shift()!);
  if (words[0]?.value === 'npx') words.shift();
  const head = words.shift()?.value;
  if (head === 'node' && words.some((w) => w.value === '--test')) return { runner: 'node:test', env, args: words };
  if (head === 'vitest' || head === 'jest' || head === 'mocha') return { runner: head, env, args: words };
  return null;
}

const NODE_RUNNER_CONFIGS: Record<NodeRunner, string[]> = {
  vitest: ['vitest.config.*', 'vitest.workspace.*', 'vite.config.*'],
  jest: ['jest.config.*', 'babel.config.*', '.babelrc*'],
  mocha: ['.mocharc*'],
  'node:test': [],
};

/** node's junit reporter exists from 20.11 (and 21.3). */
function nodeHasJunitReporter(version = process.versions.node): boolean {
  const [major, minor] = version.split('.').map(Number);
  return major > 21 || (major === 21 && minor >= 3) || (major === 20 && minor >= 11);
}

const flagGiven = (args: Word[], ...flags: string[]) =>
  args.some((a) => flags.some((f) => a.value === f || a.value.startsWith(`${f}=`) || a.value.startsWith(`${f}.`)));

export async function nodePlan(p: Project, forced: 'npm' | 'pnpm' | 'yarn' | null): Promise<InitPlan> {
  let pkg: { scripts?: Record<string, string>; devDependencies?: Record<string, string>; dependencies?: Record<string, string>; packageManager?: string } = {};
  try {
    pkg = JSON.parse((await p.read('package.json')) ?? '{}') as typeof pkg;
  } catch {
    // An unreadable package.json: detect from the lockfiles alone.
  }
  const declared = /^(npm|pnpm|yarn)@(\d+)/.exec(pkg.packageManager ?? '');
  const pm: 'npm' | 'pnpm' | 'yarn' =
    forced ??
    (has(p, 'pnpm-lock.yaml')
      ? 'pnpm'
      : has(p, 'yarn.lock')
        ? 'yarn'
        : has(p, 'package-lock.json', 'npm-shrinkwrap.json')
          ? 'npm'
          : ((declared?.[1] as 'npm' | 'pnpm' | 'yarn') ?? 'npm'));
  const lockfile = { npm: has(p, 'npm-shrinkwrap.json') ? 'npm-shrinkwrap.json' : 'package-lock.json', pnpm: 'pnpm-lock.yaml', yarn: 'yarn.lock' }[pm];
  const locked = has(p, lockfile);
  const berry = pm === 'yarn' && (has(p, '.yarnrc.yml') || (declared?.[1] === 'yarn' && Number(declared[2]) >= 2));
  const frozen = { npm: 'npm ci', pnpm: 'pnpm install --frozen-lockfile', yarn: berry ? 'yarn install --immutable' : 'yarn install --frozen-lockfile' }[pm];
  const exec = { npm: 'npx', pnpm: 'pnpm exec', yarn: 'yarn' }[pm];

  const deps = { ...pkg.dependencies, ...pkg.devDependencies };
  const script = pkg.scripts?.test;
  const noScript = !script || /no test specified/.test(script);
  const fromScript = script && !noScript ? scriptRunner(script) : null;
  const depRunner = (['vitest', 'jest', 'mocha'] as const).find((r) => r in deps) ?? null;
  const runner: NodeRunner | null = fromScript?.runner ?? (noScript ? depRunner : null);
  const env = (fromScript?.env ?? []).map((w) => w.raw);
  let args = (fromScript?.args ?? []).filter((a) => !['--watch', '--watchAll', '-w'].includes(a.value));

  let run: string | null = null;
  let junit: string | null = null;
  let label: string;
  const line = (...parts: (string | string[])[]) => parts.flat().filter(Boolean).join(' ');
  switch (runner) {
    case 'vitest': {
      if (args[0]?.value === 'run' || args[0]?.value === 'watch') args = args.slice(1);
      const canJunit = !flagGiven(args, '--outputFile');
      junit = canJunit ? REPORT : null;
      const reporters = canJunit ? [...(flagGiven(args, '--reporter') ? [] : ['--reporter=default']), '--reporter=junit', `--outputFile.junit=${REPORT}`] : [];
      run = line(
        env,
        exec,
        'vitest run',
        args.map((a) => a.raw),
        reporters,
      );
      label = `vitest${pm === 'npm' ? '' : ` through ${pm}`}`;
      break;
    }
    case 'jest': {
      // jest has no JUnit reporter of its own: jest-junit is the common one.
      const canJunit = 'jest-junit' in deps;
      junit = canJunit ? REPORT : null;
      const reporters = canJunit ? [...(flagGiven(args, '--reporters') ? [] : ['--reporters=default']), '--reporters=jest-junit'] : [];
      run = line(
        canJunit ? ['JEST_JUNIT_OUTPUT_DIR=reports', 'JEST_JUNIT_OUTPUT_NAME=junit.xml'] : [],
        env,
        exec,
        'jest --ci',
        args.map((a) => a.raw),
        reporters,
      );
      label = `jest${pm === 'npm' ? '' : ` through ${pm}`}`;
      break;
    }
    case 'mocha': {
      // mocha runs one reporter: xunit (JUnit-shaped) into the file, unless the script picked its own.
      const canJunit = !flagGiven(args, '--reporter', '-R');
      junit = canJunit ? REPORT : null;
      run = line(
        canJunit ? 'mkdir -p reports &&' : '',
        env,
        exec,
        'mocha',
        args.map((a) => a.raw),
        canJunit ? `--reporter=xunit --reporter-option=output=${REPORT}` : '',
      );
      label = `mocha${pm === 'npm' ? '' : ` through ${pm}`}`;
      break;
    }
    case 'node:test': {
      const canJunit = nodeHasJunitReporter() && !flagGiven(args, '--test-reporter');
      junit = canJunit ? REPORT : null;
      const words = args.map((a) => a.raw);
      const at = words.indexOf('--test');
      // node does not create the reporter's folder.
      const reporters = canJunit
        ? ['--test-reporter=spec', '--test-reporter-destination=stdout', '--test-reporter=junit', `--test-reporter-destination=${REPORT}`]
        : [];
      run = line(canJunit ? 'mkdir -p reports &&' : '', env, 'node', [...words.slice(0, at + 1), ...reporters, ...words.slice(at + 1)]);
      label = 'node:test';
      break;
    }
    default:
      run = noScript ? null : `${pm} test`;
      label = noScript ? 'the test suite' : `the package's test script (${pm} test)`;
  }

  // The files the command names (test folders, globs, config files) are protected with it.
  const named = (fromScript?.args ?? []).filter((a) => !a.value.startsWith('-') && /[/.*]/.test(a.value)).map((a) => a.value);
  const protectedSet = [
    ...LOOP_FILES,
    'package.json',
    ...(locked ? [lockfile] : []),
    ...(pm === 'pnpm' ? ['pnpm-workspace.yaml', '.pnpmfile.cjs'] : []),
    ...(pm === 'yarn' ? ['.yarnrc', '.yarnrc.yml'] : []),
    '.npmrc',
    'test/**',
    'tests/**',
    '**/__tests__/**',
    '**/*.test.*',
    '**/*.spec.*',
    ...(runner ? NODE_RUNNER_CONFIGS[runner] : Object.values(NODE_RUNNER_CONFIGS).flat()),
    ...(await protectNamed(p, named)),
  ];
  return {
    type: pm,
    needs: pm === 'npm' ? ['npm'] : ['npm', pm],
    runner: label,
    run,
    junit,
    setup: { run: locked ? frozen : `${pm} install`, inputs: ['package.json', ...(locked ? [lockfile] : [])] },
    setupNote: locked ? null : `no ${lockfile}: a lockfile makes this reproducible (${frozen})`,
    protected: unique(protectedSet),
  };
}
