// The `phuc-loop` CLI's commands: the same engine as the Action, on a local checkout with no GitHub at all.
// Loaded by index.ts once the command needs more than the version.
import { access, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { budgetSchema, configJsonSchema, AGENT_PRESETS, ISOLATION_LEVELS, type AgentPresetName, type BudgetOverrides } from '../engine/config/config.js';
import { EXIT_CODES } from '../engine/run/fsm.js';
import { DEFAULT_EVIDENCE_DIR, runLoop } from '../engine/loop/loop.js';
import { NodeProcessRunner } from '../engine/os/process.js';
import { installSignalStop } from '../engine/os/signals.js';
import { closeInheritedDescriptors, inheritedNote } from '../engine/os/descriptors.js';
import { renderReportMarkdown } from '../engine/evidence/report-markdown.js';
import { haltingReportSchema } from '../engine/evidence/report-schema.js';
import { LATEST_RUN_REPORT } from '../engine/store/evidence.js';
import { parseDocument } from '../engine/common/document.js';
import { EvidenceUnverifiable } from '../engine/common/errors.js';
import { certifiedCommit, rerunCertificate } from '../engine/evidence/rerun.js';
import { verifyTree } from '../engine/evidence/verify.js';
import { Git } from '../engine/os/git.js';
import { publishedStanding, type PublishedStanding } from '../engine/loop/publish.js';
import { resolveIsolation, Sandbox } from '../engine/os/sandbox.js';
import { PROJECT_TYPES, runInit } from './init.js';

const HELP = `phuc-loop — run a coding agent in a bounded loop that halts only with a certificate

Usage:
  phuc-loop init [--type T] [--force]      write phuc-loop.yml and NORTHSTAR.md for this project's test runner
      --type T             force the project type (${PROJECT_TYPES.join(' | ')})
      --force              replace existing files (never done without it)
  phuc-loop run [options]                  run the loop in this git checkout
      --config FILE        config file (default phuc-loop.yml)
      --evidence DIR       evidence folder (default ${DEFAULT_EVIDENCE_DIR})
      --agent PRESET       override agent.use (${AGENT_PRESETS.join(' | ')})
      --isolation LEVEL    override agent.isolation (${ISOLATION_LEVELS.join(' | ')})
      --fresh              move an existing evidence tree aside and start a new loop
      --poll-ms N          how often STOP is polled while the agent runs (default 1000)
      --max-iterations N, --max-total-seconds N, --max-seconds-per-iteration N, --max-cost USD
                           budgets taken as if written in the config (part of the loop's contract)
  phuc-loop verify [DIR]                   re-check an evidence tree (default ${DEFAULT_EVIDENCE_DIR})
      --rerun              also run the criteria on a fresh checkout of the certified commit
      --repo DIR           the checkout holding that commit (default: the current folder)
      --config FILE        the config the loop ran with (default phuc-loop.yml), read from that commit
                           plain verify checks the tree's integrity (unkeyed hashes: anyone can write a
                           tree that passes) and that it is the loop-owned copy when .git holds one;
                           --rerun is the trust check: criteria, residual, certificates, R_p and rung
                           come from the config in the certified commit, never from the evidence
  phuc-loop report [DIR] [--json]          print the halting report
  phuc-loop schema                         print the JSON Schema of phuc-loop.yml

Exit status of run: 0 EXIT_CONVERGED · 10 EXIT_DIVERGED · 11 EXIT_BUDGET_EXCEEDED ·
12 EXIT_BLOCKED · 13 EXIT_NEED_INFO · 1 crash · 2 usage error.
verify: 0 when every check holds, 12 when one fails, 13 when there is no tree.`;

const out = (s: string) => process.stdout.write(s.endsWith('\n') ? s : s + '\n');
const err = (s: string) => process.stderr.write(s.endsWith('\n') ? s : s + '\n');

class UsageError extends Error {}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

async function run(argv: string[], inherited: number[]): Promise<number> {
  if (inherited.length) out(`phuc-loop: ${inheritedNote(inherited)}`);
  const { values } = parseArgs({
    args: argv,
    options: {
      config: { type: 'string' },
      evidence: { type: 'string' },
      agent: { type: 'string' },
      isolation: { type: 'string' },
      fresh: { type: 'boolean', default: false },
      'poll-ms': { type: 'string' },
      'max-iterations': { type: 'string' },
      'max-total-seconds': { type: 'string' },
      'max-seconds-per-iteration': { type: 'string' },
      'max-cost': { type: 'string' },
    },
  });
  if (values.agent !== undefined && !(AGENT_PRESETS as readonly string[]).includes(values.agent))
    throw new UsageError(`--agent: got "${values.agent}"; allowed: ${AGENT_PRESETS.join(' | ')}`);
  if (values.isolation !== undefined && !(ISOLATION_LEVELS as readonly string[]).includes(values.isolation))
    throw new UsageError(`--isolation: got "${values.isolation}"; allowed: ${ISOLATION_LEVELS.join(' | ')}`);
  const pollMs = values['poll-ms'] === undefined ? 1000 : Number(values['poll-ms']);
  if (!Number.isInteger(pollMs) || pollMs < 50) throw new UsageError(`--poll-ms: got "${values['poll-ms']}"; expected an integer ≥ 50`);
  const budgetOverrides = parseBudgetFlags({
    max_iterations: values['max-iterations'],
    max_total_seconds: values['max-total-seconds'],
    max_seconds_per_iteration: values['max-seconds-per-iteration'],
    max_total_cost_usd: values['max-cost'],
  });
  const signals = installSignalStop({ meaning: 'user interrupt or workflow cancellation', notify: (m) => err(`phuc-loop: ${m}`) });
  const outcome = await runLoop({
    cwd: process.cwd(),
    configPath: values.config,
    evidenceDir: values.evidence,
    runner: new NodeProcessRunner(),
    clock: { monotonicMs: () => performance.now() },
    log: { info: (m) => out(`phuc-loop: ${m}`), warn: (m) => err(`phuc-loop: warning: ${m}`), error: (m) => err(`phuc-loop: error: ${m}`) },
    env: process.env,
    stopSources: [signals.stop],
    signal: signals.signal,
    agentOverride: values.agent as AgentPresetName | undefined,
    isolation: values.isolation as (typeof ISOLATION_LEVELS)[number] | undefined,
    budgetOverrides,
    fresh: values.fresh,
    pollMs,
  });
  out(`phuc-loop: ${outcome.status}(${outcome.stop_reason}) — exit ${outcome.exitCode}`);
  return outcome.exitCode;
}

const FLAG_OF: Record<string, string> = {
  max_iterations: '--max-iterations',
  max_total_seconds: '--max-total-seconds',
  max_seconds_per_iteration: '--max-seconds-per-iteration',
  max_total_cost_usd: '--max-cost',
};

/** Budget flags, validated by the config's own budget schema (a cost stays a Decimal string). */
function parseBudgetFlags(raw: Record<string, string | undefined>): BudgetOverrides {
  const given = Object.fromEntries(
    Object.entries(raw)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, k === 'max_total_cost_usd' ? v : /^\d+$/.test(v!) ? Number(v) : v]),
  );
  const r = budgetSchema.safeParse(given);
  if (r.success) return r.data;
  const i = r.error.issues[0];
  throw new UsageError(
    `${FLAG_OF[String(i.path[0])]}: got "${raw[String(i.path[0])]}"; ${i.message.replace(/^Invalid input: expected number, received string$/, 'expected a positive integer')}`,
  );
}

async function verify(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { rerun: { type: 'boolean', default: false }, repo: { type: 'string' }, config: { type: 'string' } },
  });
  const dir = resolve(positionals[0] ?? DEFAULT_EVIDENCE_DIR);
  if (!(await exists(dir))) {
    err(`phuc-loop verify: ${dir} does not exist (\`phuc-loop run\` writes it; or name the evidence folder: \`phuc-loop verify DIR\`)`);
    return EXIT_CODES.EXIT_NEED_INFO;
  }
  const repo = resolve(values.repo ?? '.');
  const runner = new NodeProcessRunner();
  const git = new Git(runner, repo);
  // The published tree sits in the work tree, which the agent can write: it is the loop's only when
  // it is the loop-owned copy in .git/phuc-loop.
  const standing = await publishedStanding(git, dir);
  const notOwn = notTheLoops(dir, standing);
  if (notOwn) {
    err(`FAIL ${notOwn}`);
    return EXIT_CODES.EXIT_BLOCKED;
  }
  const r = await verifyTree(dir);
  if (!r.ok) {
    for (const p of r.problems) err(`FAIL ${p}`);
    err(`phuc-loop verify: ${r.problems.length} problem(s)`);
    return EXIT_CODES.EXIT_BLOCKED;
  }
  out(`verified: ${r.iterations.length} iteration(s), every sha256, the certificate chain, the Triangle and the Phuc Test hold`);
  out(
    standing.own
      ? `read: ${dir}, the same tree as the loop-owned copy in ${standing.own}`
      : `read: ${dir}, with no loop-owned copy to compare it with: the checks above are its integrity (anyone can write a tree that passes them); --rerun is the trust check`,
  );
  // Only a converged run claims its certificate (a withheld one, CONFIRMATION_FAILED say, names a
  // commit that a fresh checkout did not confirm): said before anything about that commit.
  const claimed = r.halted?.status === 'EXIT_CONVERGED';
  if (!claimed)
    out(
      `the run halted ${r.halted ? `${r.halted.status}${r.halted.stop_reason ? `(${r.halted.stop_reason})` : ''}` : 'with no report'}: it certifies no commit` +
        (r.certificate ? ` (its last certificate, ${r.certificate.type}, is no claim)` : ''),
    );
  // The certificate names a commit: in a checkout, that commit must exist and hold the certified tree.
  if (r.certificate?.commit && (await git.head().catch(() => null))) {
    const c = await certifiedCommit(git, r.certificate);
    if ('problem' in c) {
      err(`FAIL ${c.problem}`);
      return EXIT_CODES.EXIT_BLOCKED;
    }
    out(`${claimed ? 'certified commit' : "the last certificate's commit"} ${c.id.slice(0, 12)} is in the repository and holds the certified tree`);
  }
  if (!values.rerun) return 0;
  if (!r.certificate) {
    err('FAIL --rerun: the evidence tree holds no certificate to rerun');
    return EXIT_CODES.EXIT_BLOCKED;
  }
  // The criteria execute the certified code: as the check user in its own PID namespace where the
  // machine allows (the same isolation the loop uses).
  // The checkout that holds the commit is hidden from the criteria, as the loop hides its work tree.
  // Their network is the one the certificate records (a certificate without one: the machine's, as then).
  const checksNetwork = r.certificate.network?.checks ?? 'open';
  const sandbox = await Sandbox.create(await resolveIsolation('auto'), { workTree: repo, network: { agent: 'open', checks: checksNetwork } });
  let rr: Awaited<ReturnType<typeof rerunCertificate>>;
  try {
    out(`rerun: isolation ${sandbox.level}, the checks' network ${checksNetwork}${sandbox.network.enforced ? '' : ' (not enforced here)'}`);
    rr = await rerunCertificate(dir, r.certificate, {
      repo,
      runner,
      configFile: values.config,
      run: async (spec) => runner.run(await sandbox.wrap(spec, 'check')),
      handOver: sandbox.user('check') ? (d) => sandbox.grant('check', d) : undefined,
      takeBack: (d) => sandbox.takeBack(d),
      confine: (d) => sandbox.confine('check', d),
    });
  } finally {
    await sandbox.dispose();
  }
  for (const l of rr.lines) out(l);
  if (rr.ok) {
    out(`rerun: a fresh checkout of the ${claimed ? 'certified' : "last certificate's"} commit gives the certificate's outcome`);
    return 0;
  }
  for (const p of rr.problems) err(`FAIL rerun: ${p}`);
  err(`phuc-loop verify --rerun: the outcome differs from the certificate (${rr.problems.length} problem(s))`);
  return EXIT_CODES.EXIT_BLOCKED;
}

async function report(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({ args: argv, allowPositionals: true, options: { json: { type: 'boolean', default: false } } });
  let dir = resolve(positionals[0] ?? DEFAULT_EVIDENCE_DIR);
  // A published tree that is not the loop's own (see verify) is never shown as the loop's report.
  const standing = await publishedStanding(new Git(new NodeProcessRunner(), process.cwd()), dir);
  const notOwn = notTheLoops(dir, standing);
  if (notOwn) {
    if (!standing.own || standing.running) {
      err(`phuc-loop report: ${notOwn}`);
      return EXIT_CODES.EXIT_BLOCKED;
    }
    err(`phuc-loop report: ${notOwn}; this is the report of the loop-owned copy in ${standing.own}`);
    dir = standing.own;
  }
  // The latest run stopped before it wrote evidence of its own: its report is the current one.
  const latest = await readFile(join(dir, LATEST_RUN_REPORT), 'utf8').catch(() => null);
  if (latest !== null)
    err(
      `phuc-loop report: the latest run stopped before it wrote evidence (${LATEST_RUN_REPORT}); the evidence tree in ${dir} is of an earlier run (\`phuc-loop verify\` checks it)`,
    );
  const file = latest === null ? 'halting_report.json' : LATEST_RUN_REPORT;
  const text = latest ?? (await readFile(join(dir, file), 'utf8').catch(() => null));
  if (text === null) {
    err(`phuc-loop report: no halting_report.json in ${dir} (\`phuc-loop run\` writes it; or name the evidence folder: \`phuc-loop report DIR\`)`);
    return EXIT_CODES.EXIT_NEED_INFO;
  }
  let parsed;
  try {
    parsed = parseDocument(join(dir, file), text, haltingReportSchema);
  } catch (e) {
    if (!(e instanceof EvidenceUnverifiable)) throw e;
    err(`phuc-loop report: ${e.message}`);
    return EXIT_CODES.EXIT_BLOCKED;
  }
  if (values.json) out(text);
  else out(renderReportMarkdown(parsed, (latest === null && (await readFile(join(dir, 'agents_md_final.md'), 'utf8').catch(() => undefined))) || undefined));
  return 0;
}

/** Why the tree at `dir` is not the one the loop wrote, or null. */
function notTheLoops(dir: string, s: PublishedStanding): string | null {
  if (s.own && s.running && !s.matches) return `${dir} is not yet the tree of the run in progress (its evidence is in ${s.own} until it ends)`;
  if (s.own && !s.matches)
    return `${dir} is not the evidence the loop wrote: ${s.link ? 'it is a symbolic link (the loop publishes a folder)' : 'its manifest.json differs from the loop-owned copy'}; the loop's own tree is in ${s.own}`;
  if (s.link) return `${dir} is a symbolic link: the loop never publishes one; name the folder it points to if you mean to check that tree`;
  return null;
}

async function main(argv: string[]): Promise<number> {
  // Before anything starts a process (run, and verify --rerun, start the checks); said by run only.
  const closed = closeInheritedDescriptors();
  const [command, ...rest] = argv;
  switch (command) {
    case 'init':
      return runInit(rest, { cwd: process.cwd(), out, err });
    case 'run':
      return run(rest, closed);
    case 'verify':
      return verify(rest);
    case 'report':
      return report(rest);
    case 'schema':
      out(JSON.stringify(configJsonSchema(), null, 2));
      return 0;
    case undefined:
    case '--help':
    case '-h':
    case 'help':
      out(HELP);
      return command === undefined ? EXIT_CODES.USAGE : 0;
    default:
      throw new UsageError(`unknown command "${command}"; allowed: init | run | verify | report | schema`);
  }
}

/** Runs the command in `argv` and sets the exit code; never rejects. */
export async function start(argv: string[]): Promise<void> {
  try {
    process.exitCode = await main(argv);
  } catch (e) {
    if (e instanceof UsageError || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      err(`phuc-loop: ${(e as Error).message}\n\n${HELP}`);
      process.exitCode = EXIT_CODES.USAGE;
    } else {
      err(`phuc-loop: crashed: ${(e as Error).stack ?? String(e)}`);
      process.exitCode = EXIT_CODES.CRASH;
    }
  }
}
