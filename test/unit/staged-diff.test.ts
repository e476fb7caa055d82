// The staged diff the loop records (evidence/loop/iter_N/diff.patch) and gives the critic is made
// without the tree's attributes (issue 29, S7): a `.gitattributes` the agent writes with `-diff` or
// `binary` must not turn a text change into a binary patch; a file that is binary by content still is.
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Git } from '../../src/engine/os/git.js';
import { NodeProcessRunner } from '../../src/engine/os/process.js';

test.each([false, true])('a -diff or binary attribute does not hide a text change (git shell session: %s)', async (session) => {
  const repo = await mkdtemp(join(tmpdir(), 'phuc-staged-diff-'));
  const sh = (...args: string[]) => execFileSync('git', args, { cwd: repo, encoding: 'utf8' });
  sh('init', '-q', '-b', 'main');
  await mkdir(join(repo, 'calc'));
  await writeFile(join(repo, 'calc/add.py'), 'def add(a, b):\n    return a - b\n');
  await writeFile(join(repo, 'logo.bin'), Buffer.from([0x89, 0x50, 0, 1, 2]));
  sh('add', '-A');
  sh('-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', 'init');
  await writeFile(join(repo, 'calc/.gitattributes'), '* -diff\n');
  await writeFile(join(repo, '.gitattributes'), '*.py binary\n');
  await writeFile(join(repo, 'calc/add.py'), 'def add(a, b):\n    return a + b\n');
  await writeFile(join(repo, 'logo.bin'), Buffer.from([0x89, 0x50, 0, 1, 3]));
  sh('add', '-A');
  const g = new Git(new NodeProcessRunner(), repo);
  if (session) await g.openSession();
  try {
    const diff = await g.stagedDiff();
    expect(diff).toContain('-    return a - b\n+    return a + b\n');
    expect(diff).toContain('+* -diff\n');
    expect(diff).toMatch(/diff --git a\/logo\.bin b\/logo\.bin\nindex [0-9a-f]+\.\.[0-9a-f]+ 100644\nGIT binary patch\n/);
    // Given the tree stage() wrote, the same patch (the loop's call: no write-tree again).
    expect(await g.stagedDiff(sh('write-tree').trim())).toBe(diff);
    // The index is the staged one, untouched.
    expect(sh('diff', '--cached', '--name-only')).toBe('.gitattributes\ncalc/.gitattributes\ncalc/add.py\nlogo.bin\n');
  } finally {
    await g.close();
  }
});
