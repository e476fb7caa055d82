// What `phuc-loop init` writes (docs/init.md): a commented config for the project type init found,
// and a NORTHSTAR.md whose first metric is the loop's own residual (target 0), labelled with the
// residual the config chose, so a loop whose residual falls is seen to advance its Northstar.
import { stringify } from 'yaml';
import type { Program } from './init-programs.js';

/** What init decided for one project; rendered by configTemplate and northstarTemplate. */
export interface InitPlan {
  /** The project type (a value of `init --type`). */
  type: string;
  /** The programs the criterion and setup run, looked up on PATH when init writes the config. */
  needs?: readonly Program[];
  /** What runs the tests, in words ("vitest through pnpm"). */
  runner: string;
  /** The criterion's command; null when init found none it could name (a placeholder is written). */
  run: string | null;
  /** Why the command is written as it is, where that is not plain (a comment above it). */
  runNote?: string;
  /** Glob of the JUnit XML files the command writes; null when it writes none. */
  junit: string | null;
  /** Installs dependencies in the check workspace; null when the project needs none or init cannot tell. */
  setup: { run: string; inputs: string[] } | null;
  /** Why there is no setup, or what to know about it (written as a comment). */
  setupNote: string | null;
  protected: string[];
  /** The allow-list proposed from the layout (may-change.ts); planInit adds it. */
  mayChange?: { globs: string[]; how: string };
  /** Security or API surfaces the layout names (surfaces.ts): rung 65537 and its paraphrase are proposed. */
  surfaces?: string[];
}

/** A YAML scalar for `s`: plain where that is safe, quoted otherwise; never folded. */
const scalar = (s: string) => stringify(s, { lineWidth: 0 }).trimEnd();

const residualLabel = (p: InitPlan) => (p.junit ? `failing tests / tests run (JUnit ${p.junit})` : 'failing acceptance criteria');

/**
 * Rung 65537 proposed where the project names a security or API surface: the security section with
 * the paraphrase by the configured agent, commented out because init never invents the gate and
 * the API surface commands; nothing where it names none.
 */
function securityBlock(p: InitPlan): string {
  if (!p.surfaces?.length) return '';
  return `# This project has a security or API surface (${p.surfaces.join(', ')}): rung 65537 checks the loop's changes
# to it. To use it, set rung_target: 65537 and uncomment this with your own gate and API surface commands.
# paraphrase: agent has the configured agent restate the goal; the final judgement read through the
# restatement must give the same certificate type (docs/glossary.md, "adversarial paraphrase").
# security:
#   gate: <a command that exits 0 when your security checks pass>
#   api_surface: <a command that prints the public API, one symbol per line>
#   paraphrase: agent

`;
}

/** agent.may_change with why it is safer and how to widen it; commented out when init proposed none. */
function mayChangeBlock(p: InitPlan): string {
  const globs = p.mayChange?.globs ?? ['src/**'];
  return `  # The allow-list: the agent may change only these paths. Any other change (a test, a script, the
  # manifest, a helper the checks import) is reverted and ends the run blocked, whatever its name.
  # init proposed ${p.mayChange?.how ?? 'src/**'}. To widen it, add a glob
  # (e.g. "docs/**"); even here a new module named like a library, *.dist-info, *.pth and sitecustomize are refused.
  may_change:
${globs.map((g) => `    - ${JSON.stringify(g)}`).join('\n')}
`;
}

export function configTemplate(p: InitPlan): string {
  const criterion =
    p.run === null
      ? `    # FILL IN: the command that runs this project's tests (exit 0 = pass). init found none it could
    # name and does not guess; \`phuc-loop run\` refuses this file until the command is filled in.
    run: ""`
      : `${p.runNote ? `    # ${p.runNote}\n` : ''}    run: ${scalar(p.run)}`;
  const residual = p.junit
    ? `residual:
  metric: failing_tests_fraction  # failing tests / tests run, read from the JUnit files the command writes
  junit: ${scalar(p.junit)}`
    : `residual:
  metric: failing_criteria        # this command writes no JUnit file: the residual counts failing criteria
  # Another choice: failing_tests_fraction with junit: "<glob of JUnit XML files the checks write>"`;
  const setup = p.setup
    ? `  setup: ${scalar(p.setup.run)}${p.setupNote ? `  # ${p.setupNote}` : ''}
  setup_inputs: [${p.setup.inputs.map((i) => JSON.stringify(i)).join(', ')}]  # setup re-runs only when these change`
    : `  # setup: <command that installs dependencies>${p.setupNote ? `  # ${p.setupNote}` : ''}`;
  const junit = p.junit
    ? `  junit: ${scalar(p.junit)}        # the tests these files list are counted: the suite may not shrink`
    : `  # junit: "<glob>"                # JUnit files the checks write: their tests are counted (suite integrity)`;
  return `# phuc-loop configuration (version 2), written by \`phuc-loop init\` for project type ${p.type} (${p.runner}).
# Schema: schema/phuc-loop.schema.json in the phuc-loop package; what init writes per project type: docs/init.md.
version: 2

# What the loop is for; given verbatim to every agent.
goal: Make the test suite pass without weakening any test.

# Commands the loop runs itself after every agent step. Exit 0 = met. Their logs are the evidence.
acceptance_criteria:
  - id: tests
    description: ${scalar(`${p.runner} exits 0`)}
${criterion}
    timeout_seconds: 900

# Which certificates may end the loop. EXACT: every criterion met and residual 0.
# CONVERGED: residual < R_p. DIVERGED: three strictly increasing residuals.
certificates: [EXACT, CONVERGED, DIVERGED]

${residual}
R_p: "1e-4"                       # a Decimal string; never a float

rung_target: 274177               # 641 | 274177 (final checks replayed twice) | 65537 (+ security gate)
profile: strict                   # strict | fast | benchmark_adapt: scales the budgets you leave unset

# Unset budgets follow the profile (strict: the values below; fast ×0.5; never under the clamps).
# A budget written here is taken as written, whatever the profile: uncomment only to fix one.
# budget:
#   max_iterations: 10
#   max_seconds_per_iteration: 1800
#   max_total_seconds: 14400
#   max_total_cost_usd: "25"      # applied where the agent reports its cost (Claude Code does)

${securityBlock(p)}northstar: NORTHSTAR.md

agent:
  use: claude                     # claude | codex | gemini | aider | command
  # run: ./my-agent.sh            # for command: gets the prompt on stdin and PHUC_* variables
  # model: <model name>
${mayChangeBlock(p)}
# Changes under these globs are reverted and end the loop blocked (the config and NORTHSTAR.md always are):
# the tests, the runner's configuration, the manifests and files the commands above name.
protected:
${p.protected.map((g) => `  - ${JSON.stringify(g)}`).join('\n')}

# Where the criteria are judged: a loop-owned checkout of each iteration's commit (clean) or the work tree (live).
checks:
  workspace: clean
${setup}
${junit}
  # allow_fewer_tests: true       # only a human sets this: the suite may then run fewer tests than at baseline
`;
}

export function northstarTemplate(p: InitPlan): string {
  return `# Northstar

What this loop must move. The loop re-measures every metric each iteration.
\`measure\`: empty (the \`current\` value as written), a shell command whose last output line is a
Decimal, \`residual\` (the loop's own residual) or \`criterion:<id>\` (1 when that criterion passes).

| id | metric | current | target | measure |
|---|---|---|---|---|
| residual | ${residualLabel(p)} | 1 | 0 | residual |
| tests | ${p.runner} exits 0 | 0 | 1 | criterion:tests |
`;
}
