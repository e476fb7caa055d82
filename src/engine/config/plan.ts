// INTAKE_GOAL, NULL_CHECK and DREAM_GOAL: the config and NORTHSTAR.md are read and checked for
// nulls before anything runs (a missing input is EXIT_NEED_INFO, never a guessed default);
// plan.json (the Triangle's REMIND vertex) anchors the contract.
import { join } from 'node:path';
import { z } from 'zod';
import { budgetRecordSchema, resolveBudget, type ResolvedBudget } from './budget.js';
import { sha256 } from '../common/canonical.js';
import { ConfigError } from '../common/errors.js';
import {
  AGENT_PRESETS,
  CERTIFICATE_TYPES,
  loadConfig,
  PROFILES,
  RESIDUAL_METRICS,
  type AgentPresetName,
  type BudgetOverrides,
  type LoopConfig,
} from './config.js';
import { canonicalJson } from '../common/canonical.js';
import { seedChecksum } from '../common/decimal.js';
import { decimalString } from '../common/document.js';
import { VERSION } from '../common/version.js';
import { NorthstarError, parseNorthstar, type NorthstarMetric } from './northstar.js';
import { readRegular } from '../os/tree-file.js';

export const LOOP_SCRATCH_DIR = 'scratch';

/** plan.baseline.residual_detail of a plan whose baseline is not on record yet. */
export const BASELINE_PENDING = 'not measured yet';

/** The baseline of this plan was never recorded (the run that made it was cut off or stopped during it). */
export const baselinePending = (plan: Pick<Plan, 'baseline'>) => plan.baseline.residual_detail === BASELINE_PENDING && plan.baseline.criteria.length === 0;

export interface NeedInfo {
  stop_reason: 'NULL_INPUT' | 'HALTING_CRITERIA_MISSING' | 'NORTHSTAR_MISSING' | 'CONFIG_INVALID';
  missing_fields: string[];
  messages: string[];
}

export interface Intake {
  config: LoopConfig;
  configText: string;
  /** See contractHash. */
  contract: string;
  northstar: NorthstarMetric[];
  budget: ResolvedBudget;
}

const HALTING_FIELDS = new Set(['certificates', 'R_p']);
const NULL_FIELDS = new Set(['goal', 'acceptance_criteria', 'version']);

/** Reads and null-checks the inputs; returns what is missing instead of guessing. */
/**
 * The contract a plan is made from: the parsed config without its budget and agent. A resumed loop
 * must have the same contract; a raised budget or another agent is a legitimate continuation.
 */
export function contractHash(config: LoopConfig): string {
  const { budget: _budget, agent, ...contract } = config;
  // What the agent may change is the contract's (a config without it hashes as before).
  return sha256(canonicalJson(agent.may_change ? { ...contract, may_change: agent.may_change } : contract));
}

export async function intake(
  cwd: string,
  configPath: string,
  agentOverride?: AgentPresetName,
  budgetOverrides: BudgetOverrides = {},
  modelOverride?: string,
): Promise<Intake | NeedInfo> {
  let config: LoopConfig;
  let configText: string;
  try {
    configText = (await readRegular(join(cwd, configPath)))?.toString('utf8') ?? '';
    config = await loadConfig(join(cwd, configPath), configPath);
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    const fields = e.problems.map((p) => p.field || configPath);
    const top = fields.map((f) => f.split('.')[0]);
    const stop_reason = top.some((f) => HALTING_FIELDS.has(f))
      ? 'HALTING_CRITERIA_MISSING'
      : top.some((f) => NULL_FIELDS.has(f) || f === configPath)
        ? 'NULL_INPUT'
        : 'CONFIG_INVALID';
    return {
      stop_reason,
      missing_fields: fields,
      messages: e.message
        .split('\n')
        .slice(1)
        .map((l) => l.replace(/^\s*- /, `${configPath}: `)),
    };
  }
  if (agentOverride) config = { ...config, agent: { ...config.agent, use: agentOverride } };
  if (modelOverride) config = { ...config, agent: { ...config.agent, model: modelOverride } };
  // A budget given on the command line (or as an action input) counts as written in the file.
  config = { ...config, budget: { ...config.budget, ...budgetOverrides } };
  if (config.agent.use === 'command' && !config.agent.run)
    return { stop_reason: 'CONFIG_INVALID', missing_fields: ['agent.run'], messages: [`${configPath}: agent.run: is required when agent.use is command`] };
  const northstarText = (await readRegular(join(cwd, config.northstar)))?.toString('utf8');
  if (northstarText === undefined) {
    return {
      stop_reason: 'NORTHSTAR_MISSING',
      missing_fields: ['northstar'],
      messages: [`${config.northstar}: not found; the loop cannot start without its Northstar (run \`phuc-loop init\` for a starting file)`],
    };
  }
  try {
    const northstar = parseNorthstar(
      northstarText,
      config.acceptance_criteria.map((c) => c.id),
    );
    return { config, configText, contract: contractHash(config), northstar, budget: resolveBudget(config) };
  } catch (e) {
    if (!(e instanceof NorthstarError)) throw e;
    return { stop_reason: 'NORTHSTAR_MISSING', missing_fields: ['northstar'], messages: [`${config.northstar}: ${e.message}`] };
  }
}

const agentRecord = z.object({ use: z.enum(AGENT_PRESETS), model: z.string().nullable() });

const measureSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('static') }),
  z.object({ kind: z.literal('command'), run: z.string() }),
  z.object({ kind: z.literal('residual') }),
  z.object({ kind: z.literal('criterion'), id: z.string() }),
]);

const northstarMetricSchema = z.object({
  id: z.string(),
  metric: z.string(),
  current: decimalString,
  target: decimalString,
  measure: measureSchema,
}) satisfies z.ZodType<NorthstarMetric>;

/** plan.json: the contract of a loop, written once at its start and read back when it resumes. */
export const planSchema = z.object({
  schema_version: z.literal('2.0'),
  skill: z.literal('phuc-loop'),
  version: z.string(),
  goal: z.string(),
  acceptance_criteria: z.array(
    z.object({
      id: z.string(),
      description: z.string(),
      run: z.string(),
      timeout_seconds: z.number().int().min(1),
      retries: z.number().int().min(0),
      inputs: z.array(z.string()).nullable(),
      /** The agent is to write what it runs (config agent_writes); absent: false. */
      agent_writes: z.literal(true).optional(),
    }),
  ),
  halting_certificates_applicable: z.array(z.enum(CERTIFICATE_TYPES)),
  R_p: decimalString.nullable(),
  rung_target: z.number().int(),
  residual: z.object({
    metric: z.enum(RESIDUAL_METRICS),
    junit: z.string().optional(),
    run: z.string().optional(),
    timeout_seconds: z.number().int().min(1),
  }),
  profile: z.enum(PROFILES),
  budget: budgetRecordSchema,
  /** Budgets changed when the loop was resumed: from which iteration, and what they became. */
  budget_revisions: z.array(z.object({ from_iteration: z.number().int().min(0), budget: budgetRecordSchema })),
  budget_explicit: z.array(z.string()),
  budget_reductions: z.array(z.string()),
  northstar: z.object({ file: z.string(), metrics: z.array(northstarMetricSchema), baseline: z.record(z.string(), decimalString) }),
  baseline: z.object({
    residual: decimalString.nullable(),
    residual_detail: z.string(),
    criteria: z.array(z.object({ id: z.string(), met: z.boolean(), evidence: z.string() })),
  }),
  protected: z.array(z.string()),
  /** agent.may_change: the allow-list that judged the agent's changes; absent: the protected paths alone. */
  may_change: z.array(z.string()).optional(),
  agent: agentRecord,
  replays: z.number().int().min(1),
  critic: agentRecord.nullable(),
  detours: z.array(z.object({ match: z.string(), instruction: z.string() })),
  stall_iterations: z.number().int().min(1),
  escalate: z.object({ use: z.enum(AGENT_PRESETS).nullable(), model: z.string().nullable() }).nullable(),
  mission_context: z.string().nullable(),
  non_goals: z.array(z.string()),
  stop_rules: z.array(z.string()),
  config_file: z.string(),
  config_sha256: z.string(),
  seed_checksum: z.object({ formula: z.string(), product: z.string(), verified: z.boolean() }),
  security: z
    .object({
      gate: z.string(),
      api_surface: z.string(),
      drift_explanation: z.string(),
      api_surface_before: z.string().nullable(),
      paraphrase: z.string().optional(),
    })
    .nullable(),
});
export type Plan = z.infer<typeof planSchema>;

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

export function buildPlan(
  i: Intake,
  configPath: string,
  baseline: Plan['baseline'],
  northstarBaseline: Record<string, string>,
  apiSurfaceBefore: string | null,
  files: ReadonlySet<string> = new Set(),
): Plan {
  const c = i.config;
  const seed = seedChecksum();
  const guarded = protectedGlobs(c, configPath, files);
  return {
    schema_version: '2.0',
    skill: 'phuc-loop',
    version: VERSION,
    goal: c.goal,
    acceptance_criteria: c.acceptance_criteria.map((a) => ({
      id: a.id,
      description: a.description ?? a.run,
      run: a.run,
      timeout_seconds: a.timeout_seconds,
      retries: a.retries,
      inputs: a.inputs ?? null,
      ...(a.agent_writes ? { agent_writes: true as const } : {}),
    })),
    halting_certificates_applicable: c.certificates,
    R_p: c.R_p ?? null,
    rung_target: c.rung_target,
    residual: c.residual,
    profile: c.profile,
    budget: i.budget.budget,
    budget_revisions: [],
    budget_explicit: i.budget.explicit,
    budget_reductions: i.budget.reductions,
    northstar: { file: c.northstar, metrics: i.northstar, baseline: northstarBaseline },
    baseline,
    protected: guarded,
    ...(c.agent.may_change ? { may_change: c.agent.may_change } : {}),
    agent: { use: c.agent.use, model: c.agent.model ?? null },
    replays: c.replays,
    critic: c.critic ? { use: c.critic.use, model: c.critic.model ?? null } : null,
    detours: c.detours,
    stall_iterations: c.stall_iterations,
    escalate: c.agent.escalate ? { use: c.agent.escalate.use ?? null, model: c.agent.escalate.model ?? null } : null,
    mission_context: c.mission_context ?? null,
    non_goals: [
      ...(c.agent.may_change ? [`no change outside ${c.agent.may_change.join(', ')}`] : []),
      `no change under ${guarded.join(', ')}`,
      'no weakened, skipped or deleted test or check',
      'no commit, push or history rewrite by the agent',
    ],
    stop_rules: [
      'invariant or guardrail violation → EXIT_BLOCKED',
      'EXACT or CONVERGED certificate → EXIT_CONVERGED',
      'three strictly increasing residuals → EXIT_DIVERGED',
      'critic: no further iteration can help while criteria fail → EXIT_BLOCKED(NO_VIABLE_FIX_PATH)',
      'the same failure signature after a detour → EXIT_BLOCKED(STUCK)',
      `no better residual for stall_iterations (after escalation, if configured) → EXIT_BLOCKED(STALLED)`,
      'backpressure (STOP label, scratch/STOP, signal, disk > 90%, rate limit) → EXIT_BLOCKED(BACKPRESSURE_SIGNAL)',
      'three iterations with W = 0 → EXIT_BLOCKED(NORTHSTAR_DRIFT)',
      'budget exhausted → EXIT_BUDGET_EXCEEDED',
    ],
    config_file: configPath,
    config_sha256: i.contract,
    seed_checksum: { formula: '641 × 274177 × 65537', product: seed.product, verified: seed.verified },
    security: c.security ? { ...c.security, api_surface_before: apiSurfaceBefore } : null,
  };
}
