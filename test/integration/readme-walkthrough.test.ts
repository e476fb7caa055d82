// The README's quick start, followed as a new user types it (issue 11): the block between
// `<!-- walkthrough … -->` and `<!-- /walkthrough -->` in README.md is read from the README itself and
// run as written, line by line in one shell, from the folder holding `your-repo`: a small npm project
// whose tests run with `node --test` and fail on a planted bug.
//
// Two things stand in for what a new user has installed, and nothing else differs:
// - `phuc-loop` on PATH is a link to this checkout's built CLI (dist/cli/index.js), as the README's
//   install step (`npm ci && npm link`) leaves it; the install itself is not run here (it would
//   rebuild this checkout's node_modules);
// - `claude` on PATH — the agent `phuc-loop init` picks — is a scripted program (the ONE deviation
//   from a real user's run): a shell script that answers `--version` like the CLI and otherwise
//   fixes the planted bug and writes its report, where Claude Code would do that work.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { cli, CLI, git, readJson, ROOT } from '../helpers/repo.js';

const LONG = 300_000;
// Debian's toolchains under /usr only (the checks run as an unprivileged user that cannot reach /root).
const SYSTEM_PATH = [...new Set([dirname(process.execPath), '/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'])].join(':');

/** The walkthrough block of README.md, as written. */
export function walkthroughBlock(readme: string): string {
  const m = /<!-- walkthrough\b[^>]*-->\n```sh\n([\s\S]*?)```\n<!-- \/walkthrough -->/.exec(readme);
  if (!m) throw new Error('README.md has no ```sh block between <!-- walkthrough --> and <!-- /walkthrough -->');
  return m[1];
}

/** The stand-in for the `claude` CLI (see the header). */
const STAND_IN_CLAUDE = `#!/bin/sh
# Stand-in for Claude Code in the README walkthrough test: a scripted agent, not a model.
case "$1" in --version) echo "0.0.0 (stand-in for Claude Code)"; exit 0 ;; esac
cat >/dev/null                                  # the prompt, on standard input
sed -i 's/a - b/a + b/' src/calc.js             # the planted bug
cat > "$PHUC_REPORT_FILE" <<'JSON'
{"tried": ["changed add in src/calc.js from a - b to a + b"], "claims": ["add(2, 3) is 5"], "failures": [], "open_questions": [], "can_further_iteration_help": false}
JSON
`;

const PROJECT: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'calc', version: '1.0.0', private: true, scripts: { test: 'node --test' } }, null, 2) + '\n',
  'package-lock.json':
    JSON.stringify({ name: 'calc', version: '1.0.0', lockfileVersion: 3, requires: true, packages: { '': { name: 'calc', version: '1.0.0' } } }, null, 2) +
    '\n',
  'src/calc.js': 'exports.add = (a, b) => a - b;\n',
  'test/calc.test.js': `const test = require('node:test');
const assert = require('node:assert');
const { add } = require('../src/calc.js');

test('adds', () => assert.strictEqual(add(2, 3), 5));
test('adds zero', () => assert.strictEqual(add(4, 0), 4));
`,
};

interface Step {
  line: string;
  code: number;
  out: string;
}

/**
 * Runs `block` in one bash from `cwd`, each line as written; stops at the first line that fails.
 * Each line's exit status and output (stdout and stderr) are told apart by markers the wrapper prints.
 */
async function runBlock(block: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ steps: Step[]; all: string }> {
  const lines = block.split('\n').filter((l) => l.trim() && !l.trim().startsWith('#'));
  const MARK = '@@walkthrough@@';
  // Each line's status is printed before the script stops on it.
  const wrapped = lines.map((l, i) => `echo '${MARK} begin ${i}'\n${l}\nrc=$?\necho "${MARK} end ${i} $rc"\n[ "$rc" = 0 ] || exit "$rc"`).join('\n');
  const all = await new Promise<string>((resolve) => {
    const child = execFile('bash', ['-c', `exec 2>&1\n${wrapped}`], { cwd, env, maxBuffer: 64 * 1024 * 1024 }, (_e, stdout) => resolve(stdout));
    child.stdin?.end();
  });
  const steps: Step[] = [];
  const re = new RegExp(`^${MARK} begin (\\d+)\\n([\\s\\S]*?)^${MARK} end \\1 (\\d+)$`, 'gm');
  for (const m of all.matchAll(re)) steps.push({ line: lines[Number(m[1])], code: Number(m[3]), out: m[2] });
  return { steps, all };
}

/** An empty folder made the user's project (a git repository with a real test runner), and what the user has installed. */
async function newUser(): Promise<{ base: string; repo: string; env: Record<string, string> }> {
  const base = await mkdtemp(join(tmpdir(), 'phuc-readme-'));
  await chmod(base, 0o755); // the sandbox's agent and check users must reach the repository
  const repo = join(base, 'your-repo');
  for (const [path, text] of Object.entries(PROJECT)) {
    await mkdir(dirname(join(repo, path)), { recursive: true });
    await writeFile(join(repo, path), text);
  }
  await git(repo, 'init', '-q', '-b', 'main');
  await git(repo, 'config', 'user.email', 'new-user@example.com');
  await git(repo, 'config', 'user.name', 'New User');
  await git(repo, 'add', '-A');
  await git(repo, 'commit', '-q', '-m', 'calc with a failing test');
  // phuc-loop as `npm link` leaves it, and the agent CLI (the stand-in).
  const bin = join(base, 'bin');
  await mkdir(bin, { mode: 0o755 });
  await symlink(CLI, join(bin, 'phuc-loop'));
  await writeFile(join(bin, 'claude'), STAND_IN_CLAUDE, { mode: 0o755 });
  return { base, repo, env: { PATH: `${bin}:${SYSTEM_PATH}` } };
}

test(
  "the README's quick start, run as written in a new npm project, ends EXIT_CONVERGED with a certificate that verify (and verify --rerun) accepts",
  async () => {
    const block = walkthroughBlock(await readFile(join(ROOT, 'README.md'), 'utf8'));
    // The walkthrough is what a new user types: install aside, these are its commands, in this order.
    const commands = block
      .split('\n')
      .map((l) => l.replace(/\s+#.*$/, '').trim())
      .filter(Boolean);
    expect(commands).toEqual([
      'cd your-repo',
      'phuc-loop init',
      'git add phuc-loop.yml NORTHSTAR.md && git commit -m "phuc-loop config"',
      'phuc-loop run',
      'phuc-loop report',
      'phuc-loop verify',
      'phuc-loop verify --rerun',
    ]);

    const { base, repo, env } = await newUser();

    const { steps, all } = await runBlock(block, base, { ...process.env, ...env });
    const step = (line: string) => {
      const s = steps.find((x) => x.line.replace(/\s+#.*$/, '').trim() === line);
      if (!s) throw new Error(`the walkthrough did not reach \`${line}\`; its output:\n${all}`);
      return s;
    };
    const failed = steps.find((s) => s.code !== 0);
    if (failed || steps.length !== commands.length) throw new Error(`the walkthrough stopped at \`${failed?.line ?? '?'}\`; its output:\n${all}`);

    // init found the runner and said what to do next, as the README does.
    const init = step('phuc-loop init');
    expect(init.out).toContain('detected project type npm: node:test');
    expect(init.out).toContain('next: git add phuc-loop.yml NORTHSTAR.md');

    // run: the baseline fails, the agent (through the claude preset) fixes it, the loop converges.
    const run = step('phuc-loop run');
    expect(run.out).toMatch(/phuc-loop: baseline: 0\/1 criteria met/);
    expect(run.out).toMatch(/phuc-loop: halt: EXIT_CONVERGED\((EXACT|CONVERGED)\) after 1 iteration\(s\)/);
    expect(run.out).toMatch(/EXIT_CONVERGED\((EXACT|CONVERGED)\) — exit 0/);
    expect(run.out).not.toContain('not committed');
    const evidence = join(repo, 'evidence', 'loop');
    const report = await readJson<{ status: string; certificate: { type: string } | null }>(join(evidence, 'halting_report.json'));
    expect(report.status).toBe('EXIT_CONVERGED');
    const cert = await readJson<{ type: string; commit: string }>(join(evidence, 'iter_0', 'certificate.json'));
    expect(['EXACT', 'CONVERGED']).toContain(cert.type);
    const invocation = await readJson<{ argv: string[] | null }>(join(evidence, 'iter_0', 'agent_invocation.json'));
    expect(invocation.argv?.slice(0, 4)).toEqual(['claude', '-p', '--output-format', 'stream-json']);
    expect(await git(repo, 'show', 'HEAD:src/calc.js')).toBe('exports.add = (a, b) => a + b;\n');

    expect(step('phuc-loop report').out).toMatch(/## phuc-loop: EXIT_CONVERGED/);
    expect(step('phuc-loop verify').out).toMatch(/^verified: 1 iteration\(s\)/m);
    const rerun = step('phuc-loop verify --rerun');
    expect(rerun.out).not.toMatch(/FAIL|warning/);

    // Nothing the walkthrough made is left for the user to commit or ignore by hand.
    expect(await git(repo, 'status', '--porcelain', '--untracked-files=all')).toBe('');
    expect(existsSync(join(repo, 'reports', 'junit.xml'))).toBe(false); // judged in the loop's own checkout
  },
  LONG,
);

test(
  'a user who skips the commit step is told at `run` why it matters: the certified commit lacks the config, so verify --rerun cannot re-check it',
  async () => {
    const { repo, env } = await newUser();
    expect((await cli(repo, ['init'], env)).code).toBe(0);
    const run = await cli(repo, ['run'], env);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(
      'NORTHSTAR.md, phuc-loop.yml not committed: the certified commit will not hold them, so `phuc-loop verify --rerun` cannot re-check it',
    );
    const rerun = await cli(repo, ['verify', '--rerun'], env);
    expect(rerun.code).toBe(12);
    expect(rerun.stderr).toMatch(/FAIL rerun: phuc-loop\.yml in commit [0-9a-f]{40}/);
  },
  LONG,
);
