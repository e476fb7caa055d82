// What the evidence tree can and cannot vouch for. Its hashes are unkeyed: anyone who can write a
// tree can rewrite it and rehash it, so a plain `verify` checks integrity only, and `verify --rerun`
// is the trust check — it judges the certified commit by the config committed in that commit, never
// by what the evidence says. The published folder (`evidence/loop`) lies in the work tree, which
// the agent can write: what it puts there never stands as the loop's evidence.
import { execFile } from 'node:child_process';
import { appendFile, cp, lstat, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { cli, config, FIXTURES, git, makeRepo, NORTHSTAR, readJson, twoBugRepo } from '../helpers/repo.js';

const sh = promisify(execFile);
const FORGE = join(FIXTURES, 'hostile', 'forge-evidence.mjs');
const fixer = (file: string) => `sh -c ${JSON.stringify(`echo fixed > ${file}`)}`;

/** A loop certified on a fixed commit, then a later commit that fails its criterion (`bad`). */
async function certifiedThenBroken(): Promise<{ repo: string; bad: string; badTree: string }> {
  const repo = await makeRepo({
    'phuc-loop.yml': config({ criteria: [{ id: 'c1', run: 'grep -q fixed src/status.txt' }], agent: fixer('src/status.txt') }),
    'NORTHSTAR.md': NORTHSTAR,
    'src/status.txt': 'broken\n',
  });
  expect((await cli(repo, ['run'])).code).toBe(0);
  await sh('sh', ['-c', 'echo broken > src/status.txt && git commit -qam "break it"'], { cwd: repo });
  return { repo, bad: (await git(repo, 'rev-parse', 'HEAD')).trim(), badTree: (await git(repo, 'rev-parse', 'HEAD^{tree}')).trim() };
}

describe('verify --rerun judges by the config in the certified commit', () => {
  let repo: string;
  let bad: string;
  let badTree: string;
  beforeAll(async () => {
    ({ repo, bad, badTree } = await certifiedThenBroken());
  });

  async function forged(name: string, ...criterion: string[]): Promise<string> {
    const copy = join(dirname(repo), name);
    await cp(join(repo, 'evidence/loop'), copy, { recursive: true });
    await sh(process.execPath, [FORGE, copy, bad, badTree, ...criterion]);
    // Every hash recomputed: the tree's integrity holds.
    const plain = await cli(repo, ['verify', copy]);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain('with no loop-owned copy to compare it with: the checks above are its integrity');
    return copy;
  }

  test('a certificate re-pointed at a failing commit: the criteria fail on a fresh checkout', async () => {
    const r = await cli(repo, ['verify', '--rerun', await forged('forged-commit')]);
    expect(r.code).toBe(12);
    expect(r.stderr).toContain('FAIL rerun: c1: not met on a fresh checkout, met in the certificate');
  });

  test('…and a plan whose criterion was replaced by `true`: the committed criterion is run, the plan field named', async () => {
    const r = await cli(repo, ['verify', '--rerun', await forged('forged-plan', 'true')]);
    expect(r.code).toBe(12);
    expect(r.stdout).toContain('rerun: c1 `grep -q fixed src/status.txt`: failed (exit 1) — certificate: met');
    expect(r.stderr).toMatch(
      /FAIL rerun: plan\.json acceptance_criteria\[c1\]\.run: "true" in the evidence, "grep -q fixed src\/status\.txt" from phuc-loop\.yml in commit [0-9a-f]{12}/,
    );
    expect(r.stderr).toMatch(/FAIL rerun: the certificate says EXACT; a fresh checkout of [0-9a-f]{40} gives NONE/);
  });

  test('declared certificates, R_p and rung the commit does not vouch for are named', async () => {
    const copy = join(dirname(repo), 'forged-contract');
    await cp(join(repo, 'evidence/loop'), copy, { recursive: true });
    const plan = await readJson(join(copy, 'plan.json'));
    Object.assign(plan, { R_p: '0.5', rung_target: 274177, halting_certificates_applicable: ['EXACT'] });
    await writeFile(join(copy, 'plan.json'), JSON.stringify(plan, null, 2) + '\n');
    // Rehash only (the certificate keeps its commit, which passes).
    const head = (await git(repo, 'rev-parse', 'HEAD~1')).trim();
    await sh(process.execPath, [FORGE, copy, head, (await git(repo, 'rev-parse', 'HEAD~1^{tree}')).trim()]);
    const r = await cli(repo, ['verify', '--rerun', copy]);
    expect(r.code).toBe(12);
    for (const field of ['R_p', 'rung_target', 'halting_certificates_applicable'])
      expect(r.stderr).toMatch(new RegExp(`FAIL rerun: plan\\.json ${field}: .* in the evidence, .* from phuc-loop\\.yml in commit`));
    // The commit itself passes its committed criteria.
    expect(r.stdout).toContain('rerun: c1 `grep -q fixed src/status.txt`: met — certificate: met');
  });
});

test('the agent plants a forged tree at the published path: the loop publishes its own, verify and report do not vouch for the forgery', async () => {
  const repo = await makeRepo({
    'phuc-loop.yml': config({
      criteria: [{ id: 'c1', run: 'grep -q fixed src/status.txt' }],
      agent: `sh ${JSON.stringify(join(FIXTURES, 'hostile', 'forge-published.sh'))} ${JSON.stringify(FORGE)}`,
      extra: 'budget:\n  max_iterations: 1\n',
    }),
    'NORTHSTAR.md': NORTHSTAR,
    'src/status.txt': 'broken\n',
  });
  expect((await cli(repo, ['run'])).code).toBe(0);
  // The user regresses the code and starts a new loop; its agent forges the archived tree.
  await sh('sh', ['-c', 'echo broken > src/status.txt && git commit -qam regression'], { cwd: repo });
  const run = await cli(repo, ['run', '--fresh']);
  expect(run.code).not.toBe(0);
  // The link at the published path is the agent's, made in a tree only the loop writes: removed with the step, a guardrail naming it.
  expect(run.stdout).toMatch(
    /the loop's own paths changed and reverted: .*evidence\/loop \(made in evidence\/loop, an evidence tree only the loop writes: removed\)/,
  );
  // The published path holds the loop's own tree again (a folder), with the loop's verdict.
  expect((await lstat(join(repo, 'evidence/loop'))).isDirectory()).toBe(true);
  // The forged tree itself was the agent's, made under evidence/: removed with the step (no hiding place there).
  await expect(readdir(join(repo, 'evidence/forged'))).rejects.toThrow(/ENOENT/);
  const report = await readJson<{ status: string }>(join(repo, 'evidence/loop/halting_report.json'));
  expect(report.status).not.toBe('EXIT_CONVERGED');
  expect((await cli(repo, ['verify'])).code).toBe(0);
  const rep = await cli(repo, ['report']);
  expect(rep.stdout).not.toMatch(/EXIT_CONVERGED/);
  // The rerun confirms the loop's own verdict (no success certificate), not the forgery's EXACT.
  const rerun = await cli(repo, ['verify', '--rerun']);
  expect(rerun.stdout).toMatch(/read: .*evidence\/loop, the same tree as the loop-owned copy/);
  expect(rerun.stdout).not.toMatch(/— certificate: (EXACT|CONVERGED)/);
});

test('a published tree that is not the loop-owned copy (a link, or other content) is refused by verify and not reported as the loop’s', async () => {
  const { repo, bad } = await certifiedThenBroken();
  // After the run (as an agent of a later run, or anyone with the work tree, could): a forged tree
  // through a link at the published path.
  await cp(join(repo, 'evidence/loop'), join(repo, 'evidence/forged'), { recursive: true });
  await sh(process.execPath, [FORGE, join(repo, 'evidence/forged'), bad, (await git(repo, 'rev-parse', 'HEAD^{tree}')).trim(), 'true']);
  await sh('sh', ['-c', 'mv evidence/loop evidence/real && ln -s forged evidence/loop'], { cwd: repo });
  const v = await cli(repo, ['verify', '--rerun']);
  expect(v.code).toBe(12);
  expect(v.stderr).toMatch(
    /FAIL .*evidence\/loop is not the evidence the loop wrote: it is a symbolic link \(the loop publishes a folder\); the loop's own tree is in .*\.git\/phuc-loop\/evidence_loop\/evidence/,
  );
  const r = await cli(repo, ['report']);
  expect(r.stderr).toMatch(/this is the report of the loop-owned copy in/);
  expect(r.stdout).toContain((await git(repo, 'rev-parse', 'HEAD~1')).trim().slice(0, 12));
  expect(r.stdout).not.toContain(bad.slice(0, 12));
  // A folder whose content is not the loop's: the same.
  await sh('sh', ['-c', 'rm evidence/loop && cp -r evidence/forged evidence/loop'], { cwd: repo });
  const v2 = await cli(repo, ['verify']);
  expect(v2.code).toBe(12);
  expect(v2.stderr).toMatch(/evidence\/loop is not the evidence the loop wrote: its manifest\.json differs from the loop-owned copy/);
  // The loop's own copy verifies and names the honest commit.
  expect((await cli(repo, ['verify', join(repo, '.git/phuc-loop/evidence_loop/evidence')])).code).toBe(0);
});

test('a line added to a log of the published tree is no tail to cut off: the tree is moved aside whole (the line kept), the loop goes on from its own copy', async () => {
  const repo = await twoBugRepo('fixer.mjs');
  expect((await cli(repo, ['run', '--max-iterations', '1'])).code).not.toBe(0);
  const line = '{"note":"a line someone added to the published log"}\n';
  await appendFile(join(repo, 'evidence/loop/history.jsonl'), line);
  const verify = await cli(repo, ['verify']);
  expect(verify.code).not.toBe(0);
  expect(verify.stdout + verify.stderr).toMatch(/history\.jsonl: holds lines past what the manifest records/);
  const next = await cli(repo, ['run', '--max-iterations', '2']);
  expect(next.stdout + next.stderr).toMatch(
    /does not verify: history\.jsonl: holds lines past what the manifest records .*: moved aside to evidence\/loop\.not-loop-evidence-/,
  );
  const aside = (await readdir(join(repo, 'evidence'))).find((n) => n.startsWith('loop.not-loop-evidence-'))!;
  expect(await readFile(join(repo, 'evidence', aside, 'history.jsonl'), 'utf8')).toMatch(new RegExp(`${line.replace(/[{}.]/g, '\\$&')}$`));
  expect(await readFile(join(repo, 'evidence/loop/history.jsonl'), 'utf8')).not.toContain('someone added');
  expect((await cli(repo, ['verify'])).code).toBe(0);
});

test('a forged tree taken in where the loop has no copy of its own (another clone, a restored artifact): HEAD is judged again, its verdict never stands as "nothing to do"', async () => {
  const { repo, bad, badTree } = await certifiedThenBroken();
  // The published tree re-pointed at the failing commit, every hash recomputed; no loop-owned copy.
  await sh(process.execPath, [FORGE, join(repo, 'evidence/loop'), bad, badTree]);
  await rm(join(repo, '.git/phuc-loop'), { recursive: true, force: true });
  const r = await cli(repo, ['run']);
  expect(r.stdout + r.stderr).not.toMatch(/nothing to do/);
  expect(r.stdout).toContain("came with evidence this clone's loop did not write: HEAD is judged again before anything stands");
  // Judged, the commit fails its criterion there: the agent's next step fixes it in a new commit. (The
  // forged history below it does not earn the run its rung: the run ends blocked, never converged on `bad`.)
  expect(r.stdout).toContain('HEAD judged: 0/1 criteria met, residual 1 — failing: c1');
  expect(r.stdout).not.toMatch(/halt: EXIT_CONVERGED/);
  expect((await git(repo, 'rev-parse', 'HEAD')).trim()).not.toBe(bad);
  expect((await readFile(join(repo, 'src/status.txt'), 'utf8')).trim()).toBe('fixed');
});
