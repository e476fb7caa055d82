// The judged tree is the committed tree (SPEC §7): what checks.setup or a check changes among the
// tracked files of the check workspace ends the round as a refusal naming the file and the step,
// and `verify --rerun` refuses the same. Hostile scripted agents on real repositories, real CLI, at
// the isolation level the machine gives (user+pidns as root).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { cli, config, git, makeRepo, NORTHSTAR, readJson } from '../helpers/repo.js';

const AGENT_REPORT = `echo '{"tried":["t"],"claims":["c"],"failures":[],"open_questions":[],"can_further_iteration_help":true}' > "$PHUC_REPORT_FILE"`;
const CHECK = '#!/bin/sh\ngrep -qx fixed src/status.txt\n';
const report = (repo: string) => readJson<Record<string, any>>(join(repo, 'evidence/loop/halting_report.json'));

/** An npm package without dependencies: `npm ci` runs its lifecycle scripts offline. */
const PACKAGE = JSON.stringify({ name: 'pkg', version: '1.0.0', private: true, scripts: {} }, null, 2) + '\n';
const LOCK =
  JSON.stringify({ name: 'pkg', version: '1.0.0', lockfileVersion: 3, requires: true, packages: { '': { name: 'pkg', version: '1.0.0' } } }, null, 2) + '\n';

test('an agent whose package `prepare` script (run by checks.setup: npm ci) rewrites the protected test in the check workspace gets no certificate: JUDGED_TREE_CHANGED names the file and the setup', async () => {
  // The agent leaves the bug and adds a prepare script that turns the protected check into `exit 0`
  // wherever npm ci runs: only inside the check workspace, never in its own tree.
  const agentSh = `node -e '
const fs = require("fs");
const p = JSON.parse(fs.readFileSync("package.json", "utf8"));
p.scripts.prepare = "printf \\"#!/bin/sh\\\\nexit 0\\\\n\\" > test/check.sh";
fs.writeFileSync("package.json", JSON.stringify(p, null, 2) + "\\n");
'
${AGENT_REPORT}
`;
  const repo = await makeRepo({
    'phuc-loop.yml': config({
      criteria: [{ id: 'tests', run: 'sh test/check.sh' }],
      agent: 'sh agent.sh',
      extra: 'checks:\n  setup: npm ci --no-audit --no-fund --offline',
    }),
    'NORTHSTAR.md': NORTHSTAR,
    'agent.sh': agentSh,
    'package.json': PACKAGE,
    'package-lock.json': LOCK,
    'test/check.sh': CHECK,
    'src/status.txt': 'broken\n',
  });
  const r = await cli(repo, ['run']);
  const out = r.stdout + r.stderr;
  // The baseline's setup ran and said so (its own record, console and evidence).
  expect(out).toMatch(/checks\.setup `npm ci --no-audit --no-fund --offline`: running \(inputs [0-9a-f]{12}\)/);
  expect(out).toMatch(/checks\.setup `npm ci --no-audit --no-fund --offline`: ran in \d+\.\d s \(exit 0; inputs [0-9a-f]{12}\)/);
  const setup = await readJson<Record<string, any>>(join(repo, 'evidence/loop/baseline/setup.json'));
  expect(setup).toMatchObject({
    command: 'npm ci --no-audit --no-fund --offline',
    state: 'ran',
    exit_code: 0,
    log: expect.stringMatching(/^baseline\/setup\.log#/),
  });
  expect(setup.inputs_hash).toMatch(/^[0-9a-f]{64}$/);
  expect(r.code).toBe(12);
  const rep = await report(repo);
  expect(rep).toMatchObject({ status: 'EXIT_BLOCKED', stop_reason: 'JUDGED_TREE_CHANGED' });
  expect(rep.detail).toContain('checks.setup `npm ci --no-audit --no-fund --offline` changed test/check.sh');
  expect(out).toMatch(/the judged tree is not the committed tree: checks\.setup .* changed test\/check\.sh/);
  expect(rep.halting_certificate.type).not.toMatch(/EXACT|CONVERGED/);
  // The user's tree keeps the real test.
  expect(await readFile(join(repo, 'test/check.sh'), 'utf8')).toBe(CHECK);
  expect((await cli(repo, ['verify'])).code).toBe(0);
});

test('a check that rewrites a tracked file (its mtime put back) for the next check gets no certificate: JUDGED_TREE_CHANGED names the file and the check', async () => {
  // build.sh (protected: the criterion names it) runs a helper under src/, which the agent may change.
  const agentSh = `cat > src/gen.sh <<'EOF'
cp -p test/check.sh "$TMPDIR/ref" && printf '#!/bin/sh\\nexit 0\\n' > test/check.sh && touch -r "$TMPDIR/ref" test/check.sh
EOF
${AGENT_REPORT}
`;
  const repo = await makeRepo({
    'phuc-loop.yml': config({
      criteria: [
        { id: 'build', run: 'sh build.sh' },
        // After build: the next check, as written (criteria run side by side otherwise).
        { id: 'tests', run: 'sh test/check.sh', after: ['build'] },
      ],
      agent: 'sh agent.sh',
    }),
    'NORTHSTAR.md': NORTHSTAR,
    'agent.sh': agentSh,
    'build.sh': 'sh src/gen.sh\n',
    'src/gen.sh': 'true\n',
    'test/check.sh': CHECK,
    'src/status.txt': 'broken\n',
  });
  const r = await cli(repo, ['run']);
  expect(r.code).toBe(12);
  const rep = await report(repo);
  expect(rep).toMatchObject({ status: 'EXIT_BLOCKED', stop_reason: 'JUDGED_TREE_CHANGED' });
  expect(rep.detail).toContain('the check `build` changed test/check.sh');
  expect(rep.halting_certificate.type).not.toMatch(/EXACT|CONVERGED/);
  expect(await git(repo, 'show', 'HEAD:test/check.sh')).toBe(CHECK);
});

test('verify --rerun refuses a certificate whose commit has a setup that changes a tracked file in the fresh checkout', async () => {
  // Judged live (where checks.setup does not run), the run converges honestly; the committed config's
  // setup rewrites the protected test in any fresh checkout, which verify --rerun makes.
  const agentSh = `echo fixed > src/status.txt\n${AGENT_REPORT}\n`;
  const repo = await makeRepo({
    'phuc-loop.yml': config({
      criteria: [{ id: 'tests', run: 'sh test/check.sh' }],
      agent: 'sh agent.sh',
      extra: `checks:\n  workspace: live\n  setup: "printf '#!/bin/sh\\\\nexit 0\\\\n' > test/check.sh"`,
    }),
    'NORTHSTAR.md': NORTHSTAR,
    'agent.sh': agentSh,
    'test/check.sh': CHECK,
    'src/status.txt': 'broken\n',
  });
  const r = await cli(repo, ['run']);
  expect(r.stdout + r.stderr).toMatch(/halt: EXIT_CONVERGED/);
  const v = await cli(repo, ['verify', '--rerun']);
  expect(v.code).not.toBe(0);
  expect(v.stdout + v.stderr).toMatch(/the judged tree is not the committed tree: checks\.setup `printf .*` changed test\/check\.sh/);
});
