// A certificate names a commit that passes in a fresh checkout (SPEC §7): nothing the agent or an
// earlier round of checks left on the machine may count. Here the agent leaves a mark in every
// folder any user may write (/tmp, /var/tmp, /dev/shm, /run/lock and one the machine's admin made),
// a key in each of its keyrings (session, user, user session; readable by everyone) and an ignored
// file in its work tree, whose absolute path it commits; the criterion (standing for the agent's
// code) passes as soon as it finds one; failing, it leaves marks and keys itself for the next round. At user+pidns and pidns the run must not converge and no
// mark reaches the machine; at `none` (where the limits say so) the same run converges, which shows
// the attack is real. Real CLI, real repos.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { cli, config, makeRepo, NORTHSTAR } from '../helpers/repo.js';
import { cliAtPidns, createLoopUser, deleteLoopUser, ROOT } from '../helpers/users.js';
import { isolationFacts } from '../helpers/isolation.js';

const run = promisify(execFile);
const facts = await isolationFacts();
const available = { 'user+pidns': ROOT && facts.userPidns === null, pidns: (ROOT ? facts.userPidns : facts.pidns) === null };
const LEVELS = (['user+pidns', 'pidns'] as const).filter((l) => available[l]);
const FOLDERS = ['/tmp', '/var/tmp', '/dev/shm', '/run/lock'].filter((f) => existsSync(f));

// add_key(2) and keyctl(2), called through perl (whose syscall() needs no module).
const SYSCALLS: Partial<Record<string, [number, number]>> = { x64: [248, 250], arm64: [217, 219] };
const PERL = ['/usr/bin/perl', '/bin/perl'].find((p) => existsSync(p));
const keyed = PERL !== undefined && SYSCALLS[process.arch] !== undefined;
/**
 * keys.pl add DESC: a key in the session keyring (so possessed), every permission to all, linked into
 * the user and user session keyrings; keys.pl find DESC: exit 0 when one is there or listed; keys.pl
 * drop DESC: invalidates those of the caller's keyrings.
 */
const keysPl = () => {
  const [add, ctl] = SYSCALLS[process.arch]!;
  return `my ($op, $d) = @ARGV; my $t = "user"; my $p = "x";
if ($op eq "add") { my $id = syscall(${add}, $t, $d, $p, 1, -3); exit 0 if $id <= 0; syscall(${ctl}, 5, $id, 0x3f3f3f3f); syscall(${ctl}, 8, $id, $_) for (-4, -5); exit 0; }
for my $r (-3, -4, -5) { my $id = syscall(${ctl}, 10, $r, $t, $d, 0); next if $id <= 0; syscall(${ctl}, 21, $id) if $op eq "drop"; exit 0 if $op eq "find"; }
open(my $f, "<", "/proc/keys") or exit 1; while (<$f>) { exit 0 if index($_, " $d:") >= 0; } exit 1;
`;
};

const REPORT = `printf '%s' '{"tried":["x"],"claims":[],"failures":[],"open_questions":[],"can_further_iteration_help":true}' > "$PHUC_REPORT_FILE"`;

/** A repo whose agent marks every shared folder and whose criterion passes on any mark (and leaves them when it fails). */
async function leftoverRepo(folders: string[], mark: string): Promise<string> {
  const places = folders.map((f) => join(f, mark)).join(' ');
  const keys = (op: string) => (keyed ? `${PERL} keys.pl ${op} ${mark}` : 'false');
  return makeRepo({
    'phuc-loop.yml': config({ criteria: [{ id: 'marked', run: 'sh check.sh' }], agent: 'sh agent.sh', extra: 'budget:\n  max_iterations: 2\n' }),
    'NORTHSTAR.md': NORTHSTAR,
    'keys.pl': keyed ? keysPl() : '',
    '.gitignore': 'build/\n',
    // Also an ignored file in its work tree, whose path it commits (where.txt): no clone holds it.
    'agent.sh': `for p in ${places}; do echo agent > "$p"; done 2>/dev/null; ${keys('add')}; mkdir -p build && echo agent > build/${mark} && echo "$PWD/build/${mark}" > where.txt; ${REPORT}\n`,
    'check.sh': `for p in ${places} $(cat where.txt 2>/dev/null); do [ -e "$p" ] && exit 0; done\n${keys('find')} && exit 0\nfor p in ${places}; do echo check > "$p"; done 2>/dev/null\n${keys('add')}\nexit 1\n`,
  });
}

describe('what the agent or a check leaves outside the checkout never passes a check', () => {
  let shared: string;
  beforeAll(async () => {
    // A folder every user may write, made by the machine's admin (as /opt/pipx on some runners).
    shared = await mkdtemp(join(ROOT ? '/var/lib' : homedir(), 'phuc-shared-'));
    await chmod(shared, 0o1777);
  });
  afterAll(async () => {
    await rm(shared, { recursive: true, force: true });
  });

  const marksLeft = (mark: string) => [...FOLDERS, shared].map((f) => join(f, mark)).filter((p) => existsSync(p));
  const removeMarks = async (mark: string) => {
    // As root, through rm: the marks of another user in a sticky folder.
    for (const p of [...FOLDERS, shared].map((f) => join(f, mark))) await run('rm', ['-f', p]).catch(() => undefined);
  };

  test.each(LEVELS)(
    'isolation %s: the run does not converge, and no mark is left on the machine',
    async (level) => {
      const mark = `phuc-mark-${randomBytes(6).toString('hex')}`;
      const repo = await leftoverRepo([...FOLDERS, shared], mark);
      const user = level === 'pidns' && ROOT ? await createLoopUser() : null;
      try {
        const r = level === 'pidns' ? await cliAtPidns(user, repo, ['run']) : await cli(repo, ['run', '--isolation', level]);
        expect(r.stdout + r.stderr).toMatch(/halt: EXIT_BUDGET_EXCEEDED/);
        expect(r.stdout).not.toMatch(/certificate EXACT/);
        expect(marksLeft(mark)).toEqual([]);
      } finally {
        await removeMarks(mark);
        await deleteLoopUser(user ?? undefined);
        await rm(dirname(repo), { recursive: true, force: true });
      }
    },
    120_000,
  );

  test('isolation none (its limits say so): the same run converges on the marks', async () => {
    const mark = `phuc-mark-${randomBytes(6).toString('hex')}`;
    const repo = await leftoverRepo([...FOLDERS, shared], mark);
    try {
      const r = await cli(repo, ['run', '--isolation', 'none']);
      expect(r.stdout + r.stderr).toMatch(/halt: EXIT_CONVERGED/);
      const report = await readFile(join(repo, 'evidence/loop/halting_report.json'), 'utf8');
      expect(report).toContain('/tmp, /var/tmp, /dev/shm and any other) are shared');
      expect(marksLeft(mark).length).toBeGreaterThan(0);
    } finally {
      await removeMarks(mark);
      // The keys the run made in this process's own keyrings (at none the agent is the loop's user).
      if (keyed) await run(PERL, [join(repo, 'keys.pl'), 'drop', mark]).catch(() => undefined);
      await rm(dirname(repo), { recursive: true, force: true });
    }
  }, 120_000);
});
