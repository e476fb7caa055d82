// At user+pidns the work tree is lent to the agent for its step (and to the checks for a live round)
// and taken back after it (SPEC §7): whatever the role did to it, the loop gets back a tree that is
// its owner's alone and goes on. The agent and the checks try to break the taking back: folders
// nested past PATH_MAX (4 KiB), which a plain `chown path` cannot name; a hard link in the tree to a
// file of the role's outside it, which a chown would hand to the loop; ACLs (a default ACL opens what
// the loop makes in that folder later, a named entry keeps a role's access). Real CLI, real repos,
// both check workspaces, and a second run on the same tree.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, lstat, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { cli, config, DEEP_SH, git, makeRepo, NORTHSTAR } from '../helpers/repo.js';
import { ROLE_USERS } from '../../src/engine/os/sandbox.js';
import { isolationFacts } from '../helpers/isolation.js';

const run = promisify(execFile);
const facts = await isolationFacts();
const SETFACL = ['/usr/bin/setfacl', '/bin/setfacl'].find((p) => existsSync(p));
const skipped =
  process.getuid?.() !== 0
    ? 'user+pidns as root only (test/hostile/sudo.test.ts covers sudo)'
    : facts.userPidns !== null
      ? `user+pidns is not available: ${facts.userPidns}`
      : !SETFACL
        ? 'setfacl is not installed (apt-get install acl; .ci/run installs it)'
        : null;
if (skipped) console.warn(`test/hostile/tree-return.test.ts skipped: ${skipped}`);

/** The agent: every attack at once, then a report (it never fixes status.txt, so each run ends on its budget). */
const agentScript = (out: string) => `${DEEP_SH}
set -e
deep .
k=$(ls -d linked-* 2>/dev/null | wc -l)
echo "outside $(id -u) $k" > ${out}/outside-$k && ln ${out}/outside-$k linked-$k
mkdir -p acl-dir && setfacl -d -m o::rwx acl-dir && setfacl -m u:${ROLE_USERS.check}:rwx acl-dir
echo acl > acl-file-$k && setfacl -m u:nobody:rw acl-file-$k
printf '%s' '{"tried":["x"],"claims":[],"failures":[],"open_questions":[],"can_further_iteration_help":true}' > "$PHUC_REPORT_FILE"
`;

/** The criterion: the checks (which run the agent's code) nest folders in the tree and in their HOME too. */
const checkScript = `${DEEP_SH}
deep . && deep "$HOME" && deep "$TMPDIR"
grep -q done status.txt
`;

(skipped ? describe.skip : describe).each(['live', 'clean'])('checks.workspace: %s', (workspace) => {
  test('the loop takes back a tree nested past PATH_MAX, with hard links and ACLs of the roles in it, and a second run goes on', async () => {
    // The role's own folder outside the tree, in the same writable mount as the tree (agent.writable
    // names their common parent): only there can a hard link join the two.
    const repo = await makeRepo({ 'NORTHSTAR.md': NORTHSTAR, 'check.sh': checkScript, 'status.txt': 'start\n' });
    const out = join(dirname(repo), 'out');
    await mkdir(out, { mode: 0o777 });
    await chmod(out, 0o777);
    await writeFile(join(repo, 'agent.sh'), agentScript(out));
    await writeFile(
      join(repo, 'phuc-loop.yml'),
      config({ criteria: [{ id: 'done', run: 'sh check.sh' }], agent: 'sh agent.sh', writable: [dirname(repo)], extra: `checks:\n  workspace: ${workspace}` }),
    );
    await git(repo, 'add', '-A');
    await git(repo, 'commit', '-qm', 'loop files');
    const before = await lstat(repo);
    try {
      const first = await cli(repo, ['run', '--isolation', 'user+pidns', '--max-iterations', '2']);
      expect(first.stdout + first.stderr).not.toMatch(/crashed/);
      expect(first.stdout).toMatch(/halt: EXIT_BUDGET_EXCEEDED/);
      // The tree: its top folder with its owner and mode, nothing in it a role's, no ACL left.
      const after = await lstat(repo);
      expect([after.uid, after.mode]).toEqual([before.uid, before.mode]);
      expect((await run('find', [repo, '!', '-uid', String(before.uid)], { maxBuffer: 1 << 24 })).stdout).toBe('');
      // getfacl -R names each file by its full path: from each folder instead, as the loop does.
      expect((await run('find', [repo, '-execdir', 'getfacl', '--skip-base', '--absolute-names', '{}', '+'], { maxBuffer: 1 << 24 })).stdout).toBe('');
      // The role's file outside the tree is still the role's; the tree holds a copy of its own.
      const agentUid = Number((await run('id', ['-u', ROLE_USERS.agent])).stdout);
      const { stdout: names } = await run('find', [out, '-name', 'outside-*']);
      const outside = names.trim().split('\n');
      expect(outside).toHaveLength(2);
      for (const o of outside) {
        const st = await lstat(o);
        expect([st.uid, st.nlink]).toEqual([agentUid, 1]);
        const inTree = join(repo, `linked-${o.split('-').at(-1) ?? ''}`);
        const copy = await lstat(inTree);
        expect([copy.uid, copy.nlink]).toEqual([before.uid, 1]);
        expect(await readFile(inTree, 'utf8')).toBe(await readFile(o, 'utf8'));
      }
      // A second run on the same tree (and the same check workspace) goes on where the first ended.
      await writeFile(join(repo, 'status.txt'), 'done\n');
      const second = await cli(repo, ['run', '--isolation', 'user+pidns', '--max-iterations', '4']);
      expect(second.stdout + second.stderr).not.toMatch(/crashed/);
      expect(second.stdout).toMatch(/halt: EXIT_/);
      expect((await run('find', [repo, '!', '-uid', String(before.uid)], { maxBuffer: 1 << 24 })).stdout).toBe('');
    } finally {
      await run('rm', ['-rf', '--', dirname(repo)]);
    }
  }, 180_000);
});
