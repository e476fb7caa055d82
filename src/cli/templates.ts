// What `phuc-loop init` writes: a commented config and a NORTHSTAR.md whose first metric is the
// loop's own residual (target 0), so a loop whose residual falls is seen to advance its Northstar.

export function configTemplate(testCommand: string): string {
  return `# phuc-loop configuration (version 2). Schema: schema/phuc-loop.schema.json in the phuc-loop package.
version: 2

# What the loop is for; given verbatim to every agent.
goal: Make the test suite pass without weakening any test.

# Commands the loop runs itself after every agent step. Exit 0 = met. Their logs are the evidence.
acceptance_criteria:
  - id: tests
    description: the test suite exits 0
    run: ${testCommand}
    timeout_seconds: 900

# Which certificates may end the loop. EXACT: every criterion met and residual 0.
# CONVERGED: residual < R_p. DIVERGED: three strictly increasing residuals.
certificates: [EXACT, CONVERGED, DIVERGED]

residual:
  metric: failing_criteria        # failing_criteria | failing_tests_fraction | command
  # junit: "reports/*.xml"        # for failing_tests_fraction: JUnit XML files the checks write
  # run: node scripts/score.js    # for command: its last output line is the residual, a Decimal
R_p: "1e-4"                       # a Decimal string; never a float

rung_target: 274177               # 641 | 274177 (final checks replayed twice) | 65537 (+ security gate)
profile: strict                   # strict | fast | benchmark_adapt

budget:
  max_iterations: 10
  max_seconds_per_iteration: 1800
  max_total_seconds: 14400
  # max_total_cost_usd: "25"      # applied where the agent reports its cost (Claude Code does)

northstar: NORTHSTAR.md

agent:
  use: claude                     # claude | codex | gemini | aider | command
  # run: ./my-agent.sh            # for command: gets the prompt on stdin and PHUC_* variables
  # model: <model name>

# Changes under these globs are reverted and end the loop blocked (the config and NORTHSTAR.md always are).
protected: ["test/**", "tests/**", "phuc-loop.yml", "NORTHSTAR.md", ".github/**"]
`;
}

export function northstarTemplate(): string {
  return `# Northstar

What this loop must move. The loop re-measures every metric each iteration.
\`measure\`: empty (the \`current\` value as written), a shell command whose last output line is a
Decimal, \`residual\` (the loop's own residual) or \`criterion:<id>\` (1 when that criterion passes).

| id | metric | current | target | measure |
|---|---|---|---|---|
| residual | the loop's residual (failing criteria) | 1 | 0 | residual |
| tests | the test suite passes | 0 | 1 | criterion:tests |
`;
}
