// Nothing the agent does to the work tree makes the loop's staging fail and block the run: a
// deleted untracked file has nothing to stage (the user's version stays in refs/phuc-loop/user-work);
// a path git refuses to stage is put back with git's reason and the loop goes on; a git failure no
// path accounts for (a lock) blocks, and the next run goes on once it is fixed (no "nothing to do").
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { cli, config, git, makeRepo, NORTHSTAR, readJson } from '../helpers/repo.js';

const REPORT = `echo '{"tried":["fix"],"claims":["done"],"failures":[],"open_questions":[],"can_further_iteration_help":false}' > "$PHUC_REPORT_FILE"`;

/** A repository whose criterion wants src/status.txt to say "fixed", and whose agent runs `script` (test/agent.sh, protected). */
function repoWith(script: string): Promise<string> {
  return makeRepo({
    'phuc-loop.yml': config({ criteria: [{ id: 'tests', run: 'grep -qx fixed src/status.txt' }], agent: 'sh test/agent.sh' }),
    'NORTHSTAR.md': NORTHSTAR,
    'src/status.txt': 'broken\n',
    'test/agent.sh': `${script}\necho fixed > src/status.txt\n${REPORT}\n`,
  });
}

const artifacts = (repo: string) => readJson<Record<string, any>>(join(repo, 'evidence/loop/iter_0/artifacts.json'));

test("the agent deletes the user's untracked file: nothing to stage, the run goes on, the user's version is in refs/phuc-loop/user-work", async () => {
  const repo = await repoWith('rm -f notes.txt');
  await writeFile(join(repo, 'notes.txt'), 'my notes\n');
  const r = await cli(repo, ['run']);
  expect(r.stdout + r.stderr).not.toMatch(/GIT_FAILURE|did not match/);
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/the agent deleted notes\.txt \(uncommitted, never tracked\): nothing to stage/);
  expect(existsSync(join(repo, 'notes.txt'))).toBe(false);
  expect(await git(repo, 'show', 'refs/phuc-loop/user-work:notes.txt')).toBe('my notes\n');
  expect(await artifacts(repo)).toMatchObject({ changed_paths: ['src/status.txt'], untracked_deleted: ['notes.txt'], reverted: [] });
  expect(await git(repo, 'show', '--name-only', '--format=', 'HEAD')).toMatch(/src\/status\.txt/);
  expect(await readFile(join(repo, 'AGENTS.md'), 'utf8')).toMatch(/deleted the user's uncommitted file\(s\) notes\.txt \(kept in refs\/phuc-loop\/user-work/);
  expect((await cli(repo, ['verify'])).code).toBe(0);
});

test('a .gitattributes that makes git refuse a file (UTF-16 without a byte-order mark): the attributes are put back with the reason, the rest is judged', async () => {
  const repo = await repoWith(
    [
      'mkdir -p p',
      `printf 'p/b.txt working-tree-encoding=UTF-16\\np/a.txt text eol=crlf\\n' > .gitattributes`,
      `printf 'f\\000i\\000x\\000\\n\\000' > p/b.txt`,
      'echo fixed > p/a.txt',
    ].join('\n'),
  );
  const r = await cli(repo, ['run']);
  expect(r.stdout + r.stderr).not.toMatch(/GIT_FAILURE|staging failed/);
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/changes git refused to stage, put back: \.gitattributes \(with it git refused to stage p\/b\.txt \(.*BOM/);
  const a = await artifacts(repo);
  expect(a.reverted).toEqual([expect.objectContaining({ path: '.gitattributes', why: 'unstageable' })]);
  expect(existsSync(join(repo, '.gitattributes'))).toBe(false);
  const committed = await git(repo, 'show', '--name-only', '--format=', 'HEAD');
  expect(committed).toMatch(/p\/b\.txt/);
  expect(committed).not.toMatch(/\.gitattributes/);
  expect(await readFile(join(repo, 'AGENTS.md'), 'utf8')).toMatch(/- \[A\] changes git refused to stage, put back: \.gitattributes/);
  expect((await cli(repo, ['verify'])).code).toBe(0);
});

test('a git failure no path accounts for (a held index.lock) blocks; the run says how to go on, and the next run goes on without a commit', async () => {
  const repo = await repoWith('');
  await writeFile(join(repo, '.git/index.lock'), '');
  const first = await cli(repo, ['run']);
  expect(first.code).toBe(12);
  expect(first.stdout).toMatch(/EXIT_BLOCKED\(GIT_FAILURE\)/);
  expect(first.stdout).toMatch(
    /to go on: fix what git failed at .*left uncommitted in the work tree \(`git status`\): commit it to have it judged, or discard it; then `phuc-loop run` tries again/,
  );
  await rm(join(repo, '.git/index.lock'));
  await git(repo, 'checkout', '--', 'src/status.txt');
  const second = await cli(repo, ['run']);
  expect(second.stdout).not.toMatch(/nothing to do/);
  expect(second.code).toBe(0);
  expect(second.stdout).toMatch(/EXIT_CONVERGED/);
});

test("a diff driver of the user's that fails, named by the agent's .gitattributes, does not reach the step's patch: the diff is made without the tree's attributes, the run goes on and the evidence verifies", async () => {
  const repo = await repoWith("printf '* diff=bad\\n' > .gitattributes");
  const home = join(repo, '..', 'home');
  await rm(home, { recursive: true, force: true });
  await mkdir(home);
  await writeFile(join(home, '.gitconfig'), '[diff "bad"]\n\ttextconv = false\n[user]\n\tname = t\n\temail = t@t\n');
  const r = await cli(repo, ['run'], { HOME: home });
  expect(r.stdout + r.stderr).not.toMatch(/GIT_FAILURE/);
  // The text change is in the patch as text, whatever the tree's attributes say.
  expect(await readFile(join(repo, 'evidence/loop/iter_0/diff.patch'), 'utf8')).toMatch(/^\+fixed$/m);
  const v = await cli(repo, ['verify'], { HOME: home });
  expect(v.stdout + v.stderr).toMatch(/verified/);
  expect(v.code).toBe(0);
});
