// Pre-flight: a criterion whose program is not installed where the checks run is the user's to fix
// (EXIT_NEED_INFO naming it) before any agent step, and the next run goes on once it is installed.
import { chmod, copyFile, mkdtemp, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agent, cli, config, FIXTURES, git, makeRepo, NORTHSTAR, readJson } from '../helpers/repo.js';

async function binDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'phuc-bin-'));
  await chmod(dir, 0o755);
  return dir;
}

test('a criterion program missing where the checks run: EXIT_NEED_INFO naming the criterion, no agent step; installed, the next run goes on', async () => {
  const repo = await makeRepo({
    'phuc-loop.yml': config({ criteria: [{ id: 'lint', run: 'phuc-frobnicate --check src' }], agent: agent('fixer.mjs') }),
    'NORTHSTAR.md': NORTHSTAR,
    'src/status.txt': 'bugs: 1\n',
  });
  const bin = await binDir();
  const PATH = `${bin}:${process.env.PATH ?? ''}`;
  const r = await cli(repo, ['run'], { PATH });
  expect(r.code).toBe(13);
  expect(r.stdout).toMatch(/EXIT_NEED_INFO\(CRITERION_COMMAND_MISSING\)/);
  expect(r.stderr).toMatch(/criterion lint: `phuc-frobnicate --check src` exited 127 \(command not found\) — install phuc-frobnicate where the checks run/);
  expect(existsSync(join(repo, 'evidence/loop/iter_0'))).toBe(false);
  const rep = await readJson<Record<string, any>>(join(repo, 'evidence/loop/halting_report.json'));
  expect(rep).toMatchObject({ status: 'EXIT_NEED_INFO', stop_reason: 'CRITERION_COMMAND_MISSING', iterations_completed: 0 });

  // Installed (on the PATH the checks get): the same checkout is judged again, not "nothing to do".
  await writeFile(join(bin, 'phuc-frobnicate'), '#!/bin/sh\nexit 0\n');
  await chmod(join(bin, 'phuc-frobnicate'), 0o755);
  const again = await cli(repo, ['run'], { PATH });
  expect(again.stdout).toMatch(/HEAD judged: 1\/1 criteria met/);
  expect(again.stdout).toMatch(/EXIT_CONVERGED\(EXACT\) — exit 0/);
  expect(again.code).toBe(0);
});

// Issue 29 item 4: a criterion whose program the baseline does not hold would be written by the agent it judges.
test('a criterion whose script is not in the tree at the baseline is refused, naming the criterion and agent_writes; no agent step', async () => {
  const repo = await makeRepo({
    'phuc-loop.yml': config({ criteria: [{ id: 'hello', run: './hello.sh' }], agent: agent('noop.mjs'), extra: 'budget:\n  max_iterations: 1' }),
    'NORTHSTAR.md': NORTHSTAR,
  });
  const r = await cli(repo, ['run']);
  expect(r.code).toBe(13);
  expect(r.stdout).toMatch(/EXIT_NEED_INFO\(CRITERION_COMMAND_MISSING\)/);
  expect(r.stderr).toMatch(
    /criterion hello: `\.\/hello\.sh` runs hello\.sh, which the tree does not hold: a program the agent writes would judge its own work — commit it, or set agent_writes: true on the criterion/,
  );
  expect(r.stdout).not.toMatch(/iter 0: agent/);
  expect(existsSync(join(repo, 'evidence/loop/iter_0'))).toBe(false);
});

test('marked agent_writes: the agent writes the script, which is protected from the next iteration on', async () => {
  const writer = `sh ${JSON.stringify(join(FIXTURES, 'hostile', 'judge-writer.sh'))}`;
  const repo = await makeRepo({
    'phuc-loop.yml': config({ criteria: [{ id: 'hello', run: 'sh checks/hello.sh' }], agent: writer }).replace(
      '    timeout_seconds: 60',
      '    timeout_seconds: 60\n    agent_writes: true',
    ),
    'NORTHSTAR.md': NORTHSTAR,
    'src/status.txt': 'broken\n',
  });
  const r = await cli(repo, ['run']);
  expect(r.stdout).not.toMatch(/CRITERION_COMMAND_MISSING/);
  expect(r.stdout).toMatch(/iter 0: checks 0\/1/);
  expect(r.code).toBe(12);
  const rep = await readJson<Record<string, any>>(join(repo, 'evidence/loop/halting_report.json'));
  expect(rep).toMatchObject({ stop_reason: 'GUARDRAIL_VIOLATION' });
  expect(rep.detail).toMatch(/protected paths changed and reverted: checks\/hello\.sh/);
  expect(rep.halting_certificate.type).toBe('NONE');
  expect(await git(repo, 'show', 'HEAD:checks/hello.sh')).toBe('grep -q fixed src/status.txt\n');
});

test('a program the config names in a folder the agent or check user cannot enter: EXIT_NEED_INFO naming the path, the folder and the rule', async () => {
  if (process.getuid?.() !== 0) return; // user+pidns: the roles are other users
  const hidden = await mkdtemp(join(tmpdir(), 'phuc-private-')); // 0700, as mkdtemp makes it
  await copyFile(join(FIXTURES, 'agents', 'fixer.mjs'), join(hidden, 'agent.mjs'));
  await writeFile(join(hidden, 'check.sh'), 'grep -q fixed src/status.txt\n');
  const repo = await makeRepo({
    'phuc-loop.yml': config({
      criteria: [{ id: 'fixed', run: `sh ${join(hidden, 'check.sh')}` }],
      agent: `node ${join(hidden, 'agent.mjs')}`,
      extra: 'budget:\n  max_iterations: 1',
    }),
    'NORTHSTAR.md': NORTHSTAR,
    'src/status.txt': 'bugs: 1\n',
  });
  const r = await cli(repo, ['run', '--isolation', 'user+pidns']);
  expect(r.code).toBe(13);
  const rep = await readJson<Record<string, any>>(join(repo, 'evidence/loop/halting_report.json'));
  expect(rep).toMatchObject({ status: 'EXIT_NEED_INFO', stop_reason: 'CONFIG_INVALID', missing_fields: ['agent.run', 'acceptance_criteria[fixed].run'] });
  const text = (rep.messages as string[]).join('\n');
  expect(text).toContain(`agent.run: ${join(hidden, 'agent.mjs')} lies under ${hidden} (mode 0700), which phuc-agent cannot enter`);
  expect(text).toContain(`acceptance_criteria[fixed].run: ${join(hidden, 'check.sh')} lies under ${hidden} (mode 0700), which phuc-check cannot enter`);
  expect(text).toMatch(/sees only what every user may reach/);
  expect(existsSync(join(repo, 'evidence/loop/iter_0'))).toBe(false);
});

// A toolchain installed only in the loop user's home (rustup's cargo under /root): found on the loop's
// PATH, dropped from the checks' (their user cannot enter the folder). The loop says where it is and why
// the checks cannot run it, not only "command not found".
test("a criterion's program found only in a folder the check user cannot enter: EXIT_NEED_INFO says where the loop's copy is and why it is out of reach", async () => {
  if (process.getuid?.() !== 0) return; // user+pidns: the checks run as another user
  const hidden = await mkdtemp(join(tmpdir(), 'phuc-toolchain-')); // 0700, as mkdtemp makes it (like /root)
  await writeFile(join(hidden, 'phuc-cargo'), '#!/bin/sh\nexit 0\n');
  await chmod(join(hidden, 'phuc-cargo'), 0o755);
  const repo = await makeRepo({
    'phuc-loop.yml': config({ criteria: [{ id: 'tests', run: 'phuc-cargo test' }], agent: agent('fixer.mjs'), extra: 'budget:\n  max_iterations: 1' }),
    'NORTHSTAR.md': NORTHSTAR,
    'src/status.txt': 'bugs: 1\n',
  });
  const r = await cli(repo, ['run', '--isolation', 'user+pidns'], { PATH: `${hidden}:${process.env.PATH ?? ''}` });
  expect(r.code).toBe(13);
  expect(r.stderr).toContain(
    `criterion tests: \`phuc-cargo test\` exited 127 (command not found) — install phuc-cargo where the checks run as the check user (isolation user+pidns, checks.workspace clean) (the loop's own phuc-cargo is there but out of the check user's reach: ${join(hidden, 'phuc-cargo')} lies under ${hidden} (mode 0700), which phuc-check cannot enter: install it where every user can reach it, e.g. under /usr or /opt)`,
  );
  expect(existsSync(join(repo, 'evidence/loop/iter_0'))).toBe(false);
});
