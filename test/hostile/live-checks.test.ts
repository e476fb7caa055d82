// `checks.workspace: live` judges the agent's own work tree, and its checks still run the agent's
// code (SPEC §7): as the check user in a namespace of its own at user+pidns, in a namespace of its
// own at pidns. A test the agent plants, run by the criterion, tries what code run as the loop could:
// read the loop's secret through /proc/<pid>/environ, reach the loop's state, leave a process behind.
// Afterwards the work tree is its owner's again, with its mode. Real CLI, real repos.
import { randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { readdir, lstat, readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { checkStateDir, cli, config, makeRepo, NORTHSTAR, until } from '../helpers/repo.js';
import { cliAtPidns, createLoopUser, deleteLoopUser, ROOT } from '../helpers/users.js';
import { ROLE_USERS } from '../../src/engine/os/sandbox.js';
import { isolationFacts } from '../helpers/isolation.js';

const facts = await isolationFacts();
// pidns is refused to a root loop: as root it runs as a user of the test's own (cliAtPidns).
const LEVELS = (['user+pidns', 'pidns'] as const).filter((l) => (l === 'user+pidns' ? ROOT && facts.userPidns : ROOT ? null : facts.pidns) === null);
const run = promisify(execFile);

/** What the planted test does, as whoever runs it: each probe's outcome goes to $OUT. */
const probe = (out: string) => `#!/bin/sh
OUT=${out}
id -u > $OUT/uid
# The loop's secret, in its environment (GITHUB_TOKEN here), as the loop's own processes hold it.
hits=0; for f in /proc/[0-9]*/environ; do grep -qa "$PHUC_PROBE_NEEDLE" "$f" 2>/dev/null && hits=$((hits + 1)); done
echo $hits > $OUT/environ-hits
ls .git/phuc-loop > $OUT/state-ls 2>&1; echo $? >> $OUT/state-ls
touch .git/phuc-loop/planted 2>/dev/null; echo $? > $OUT/state-write
# A survivor: its own session, no environment, holding a lock until it dies.
( setsid env -i /usr/bin/flock $OUT/lock /bin/sleep 120 < /dev/null > /dev/null 2>&1 & )
i=0; while /usr/bin/flock -n $OUT/lock true && [ $i -lt 1000 ]; do i=$((i + 1)); sleep 0.01; done
/usr/bin/flock -n $OUT/lock true || echo started > $OUT/survivor
exit 1
`;

describe.each(LEVELS)('isolation %s, checks.workspace: live', (level) => {
  test("the agent's test, run by the checks, reads no loop secret, reaches no loop state and outlives nothing; the tree comes back", async () => {
    const out = await checkStateDir();
    const needle = randomBytes(12).toString('hex');
    // The agent plants the test (not a protected path) and a report; the criterion runs every planted test.
    const agent = `mkdir -p probe && cat > probe/t.sh <<'EOF'\n${probe(out).replace('$PHUC_PROBE_NEEDLE', needle)}EOF
printf '%s' '{"tried":["x"],"claims":[],"failures":[],"open_questions":[],"can_further_iteration_help":true}' > "$PHUC_REPORT_FILE"
`;
    const repo = await makeRepo({
      'phuc-loop.yml': config({
        criteria: [{ id: 'tests', run: 'for f in probe/*.sh; do [ -f "$f" ] && sh "$f"; done; false' }],
        agent: 'sh agent.sh',
        writable: [out],
        extra: 'checks:\n  workspace: live',
      }),
      'NORTHSTAR.md': NORTHSTAR,
      'agent.sh': agent,
    });
    const before = await lstat(repo);
    const user = level === 'pidns' && ROOT ? await createLoopUser() : null;
    try {
      const args = ['run', '--max-iterations', '1'];
      const env = { GITHUB_TOKEN: `ghs_${needle}` };
      const r = await (level === 'pidns' ? cliAtPidns(user, repo, args, env) : cli(repo, [...args, '--isolation', level], env));
      expect(r.stdout + r.stderr).toMatch(/halt: EXIT_BUDGET_EXCEEDED/);
      expect(await readFile(join(out, 'survivor'), 'utf8')).toBe('started\n');
      // Never the loop's uid at user+pidns; at pidns the uid is mapped inside (0) and has no capability.
      const uid = Number(await readFile(join(out, 'uid'), 'utf8'));
      if (level === 'user+pidns') expect(uid).toBe(Number((await run('id', ['-u', ROLE_USERS.check])).stdout));
      expect((await readFile(join(out, 'environ-hits'), 'utf8')).trim()).toBe('0');
      // The loop's state: out of reach of another user (at pidns the checks have the loop's uid: docs/security.md).
      if (level === 'user+pidns') {
        expect((await readFile(join(out, 'state-ls'), 'utf8')).trim().split('\n').at(-1)).not.toBe('0');
        expect((await readFile(join(out, 'state-write'), 'utf8')).trim()).not.toBe('0');
        expect((await readdir(join(repo, '.git', 'phuc-loop'))).includes('planted')).toBe(false);
      }
      // Nothing holds the lock once the run is over: the survivor died with the check's namespace.
      await until(
        async () =>
          await run('/usr/bin/flock', ['-n', join(out, 'lock'), 'true']).then(
            () => true,
            () => false,
          ),
        10_000,
        'the lock to be free',
      );
      // The tree is its owner's again, the top folder with its mode; nothing in it is a role's.
      const after = await lstat(repo);
      expect([after.uid, after.mode]).toEqual([before.uid, before.mode]);
      const foreign = (await run('find', [repo, '!', '-uid', String(before.uid)])).stdout.trim();
      expect(foreign).toBe('');
    } finally {
      await deleteLoopUser(user ?? undefined);
      await rm(out, { recursive: true, force: true });
      await rm(dirname(repo), { recursive: true, force: true });
    }
  }, 120_000);
});
