// The loop never deletes a file of the user's (SPEC §7). A nested git repository of the user's in the
// work tree (untracked, with its own history and an uncommitted edit) is one git cannot keep: no
// commit of the loop holds its files, so nothing could put it back. The agent, then the checks
// (checks.workspace: live) try to delete it and to move it away. At user+pidns and pidns it is lent
// to no role and is a read-only mount in their namespace: it comes through whole. At none the report
// says that it is gone and could not be put back (and the limits of none say so). Real CLI, real repos.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { lstat, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { cli, config, git, makeRepo, NORTHSTAR, readJson } from '../helpers/repo.js';
import { cliAtPidns, createLoopUser, deleteLoopUser, ROOT } from '../helpers/users.js';
import { isolationFacts } from '../helpers/isolation.js';

const run = promisify(execFile);
const facts = await isolationFacts();
const available = { 'user+pidns': ROOT && facts.userPidns === null, pidns: (ROOT ? facts.userPidns : facts.pidns) === null, none: true };
const LEVELS = (['user+pidns', 'pidns', 'none'] as const).filter((l) => available[l]);

const ATTACK = 'mv tools moved 2>/dev/null; rm -rf tools moved 2>/dev/null; echo planted > tools/planted 2>/dev/null';
const REPORT = `printf '%s' '{"tried":["x"],"claims":[],"failures":[],"open_questions":[],"can_further_iteration_help":true}' > "$PHUC_REPORT_FILE"`;

test.each(LEVELS)(
  "isolation %s: the user's nested repository survives the agent and the checks, or the report says it could not",
  async (level) => {
    const repo = await makeRepo({
      // At none the checks' attack would come first (the baseline): there only the agent's is shown.
      'phuc-loop.yml': config({
        criteria: [{ id: 'never', run: level === 'none' ? 'false' : `${ATTACK}; false` }],
        agent: `${ATTACK}; ${REPORT}`,
        extra: `${level === 'none' ? '' : 'checks:\n  workspace: live\n'}budget:\n  max_iterations: 1\n`,
      }),
      'NORTHSTAR.md': NORTHSTAR,
    });
    const tools = join(repo, 'tools');
    await run('git', ['init', '-q', tools]);
    await writeFile(join(tools, 'tool.txt'), 'v1\n');
    await git(tools, 'add', '-A');
    await git(tools, '-c', 'user.name=u', '-c', 'user.email=u@example.com', 'commit', '-qm', 'unpushed');
    await writeFile(join(tools, 'tool.txt'), 'v1\nedit\n');
    const user = level === 'pidns' && ROOT ? await createLoopUser() : null;
    try {
      const r = level === 'pidns' ? await cliAtPidns(user, repo, ['run']) : await cli(repo, ['run', '--isolation', level]);
      expect(r.stdout).toMatch(new RegExp(`isolation: ${level.replace('+', '\\+')}`));
      expect(r.stdout).toMatch(/halt: EXIT_/);
      if (level === 'none') {
        // The agent runs as the loop's user beside it: the repository is gone, and the report says so.
        expect(existsSync(tools)).toBe(false);
        const report = await readJson<{ detail: string }>(join(repo, 'evidence/loop/halting_report.json'));
        expect(report.detail).toContain("tools/ (the user's own, deleted by the agent: git keeps none of its files, so the loop could not put it back)");
        return;
      }
      expect(await readFile(join(tools, 'tool.txt'), 'utf8')).toBe('v1\nedit\n');
      expect(await git(tools, 'log', '--format=%s')).toBe('unpushed\n');
      expect(existsSync(join(tools, 'planted'))).toBe(false);
      expect(existsSync(join(repo, 'moved'))).toBe(false);
    } finally {
      await deleteLoopUser(user ?? undefined);
      await rm(dirname(repo), { recursive: true, force: true });
    }
  },
  120_000,
);

// Git keeps no read bits: a file of the user's that group and others may not read (0600), which the
// agent opens to them, would stay open after the run. At user+pidns the loop puts those bits back.
(available['user+pidns'] ? test : test.skip)(
  "user+pidns: the user's private files and folders are closed again after the agent opened them",
  async () => {
    const repo = await makeRepo({
      'phuc-loop.yml': config({
        criteria: [{ id: 'never', run: 'false' }],
        agent: `chmod 644 secret.txt private.txt "$(printf 'raw\\377.txt')"; chmod 755 privdir; chmod 700 tool.sh; ${REPORT}`,
        extra: 'budget:\n  max_iterations: 1\n',
      }),
      'NORTHSTAR.md': NORTHSTAR,
      'secret.txt': 'committed\n',
      'tool.sh': 'echo tool\n',
    });
    try {
      await writeFile(join(repo, 'private.txt'), 'untracked\n');
      // A name that is not UTF-8 (bytes, as the loop must take it).
      const raw = Buffer.concat([Buffer.from(`${repo}/raw`), Buffer.from([0xff]), Buffer.from('.txt')]);
      await writeFile(raw, 'raw\n', { mode: 0o600 });
      await run('mkdir', ['-m', '700', join(repo, 'privdir')]);
      await writeFile(join(repo, 'privdir', 'x'), 'x\n');
      await run('chmod', ['600', join(repo, 'secret.txt'), join(repo, 'private.txt'), join(repo, 'privdir', 'x'), join(repo, 'tool.sh')]);
      const r = await cli(repo, ['run', '--isolation', 'user+pidns']);
      expect(r.stdout).toMatch(/halt: EXIT_/);
      const mode = async (p: string) => ((await lstat(join(repo, p))).mode & 0o7777).toString(8);
      expect(await mode('secret.txt')).toBe('600');
      expect(await mode('private.txt')).toBe('600');
      expect(await mode('privdir')).toBe('700');
      expect(((await lstat(raw)).mode & 0o7777).toString(8)).toBe('600');
      // The owner's bits are the agent's change (git keeps the executable bit): tool.sh stays 0700.
      expect(await mode('tool.sh')).toBe('700');
    } finally {
      await rm(dirname(repo), { recursive: true, force: true });
    }
  },
  120_000,
);
