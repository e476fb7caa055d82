// Secrets never reach a commit, AGENTS.md or the evidence; a user's uncommitted file the agent
// touches is put back as the user had it, never deleted (SPEC §7).
import { existsSync } from 'node:fs';
import { lstat, mkdir, readFile, writeFile, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { agent, cli, config, FIXTURES, git, makeRepo, NORTHSTAR, readJson } from '../helpers/repo.js';
import { cliAtPidns, createLoopUser, deleteLoopUser, ROOT } from '../helpers/users.js';

const KEY = 'sk-ant-api03-leakytestkey0123456789';

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await filesUnder(p)));
    else if ((await stat(p)).isFile()) out.push(p);
  }
  return out;
}

test('a change holding the agent key (plain or base64) is reverted: no commit, no AGENTS.md line, no evidence file holds it', async () => {
  const repo = await makeRepo({
    // The command preset gets the key only because agent.pass_env names it.
    'phuc-loop.yml': config({ criteria: [{ id: 'never', run: 'false' }], agent: agent('leaker.mjs') }).replace(
      '  use: command\n',
      '  use: command\n  pass_env: [ANTHROPIC_API_KEY]\n',
    ),
    'NORTHSTAR.md': NORTHSTAR,
    'src/.keep': '',
  });
  const r = await cli(repo, ['run'], { ANTHROPIC_API_KEY: KEY });
  expect(r.code).toBe(12);
  const rep = await readJson<Record<string, any>>(join(repo, 'evidence/loop/halting_report.json'));
  expect(rep).toMatchObject({ stop_reason: 'GUARDRAIL_VIOLATION' });
  expect(rep.detail).toMatch(/changes holding a secret value reverted: src\/leak\.txt/);
  const history = await git(repo, 'log', '-p', '--all');
  expect(history).toContain('an honest change');
  const b64 = Buffer.from(KEY).toString('base64');
  for (const text of [history, await readFile(join(repo, 'AGENTS.md'), 'utf8'), r.stdout + r.stderr]) {
    expect(text).not.toContain(KEY);
    expect(text).not.toContain(b64.slice(0, 20));
  }
  for (const f of await filesUnder(join(repo, 'evidence'))) expect(await readFile(f, 'utf8')).not.toContain(KEY);
  expect((await cli(repo, ['verify'])).code).toBe(0);
});

test("the agent edits the user's uncommitted NORTHSTAR.md: it is restored to the user's version, not deleted", async () => {
  const repo = await makeRepo({ 'phuc-loop.yml': config({ criteria: [{ id: 'never', run: 'false' }], agent: agent('leaker.mjs') }), 'src/.keep': '' });
  const mine = `${NORTHSTAR}| notes | my own row | 1 | 0 | |\n`;
  await writeFile(join(repo, 'NORTHSTAR.md'), mine);
  const r = await cli(repo, ['run'], { PHUC_TEST_AGENT_MODE: 'northstar' });
  expect(r.code).toBe(12);
  expect(await readFile(join(repo, 'NORTHSTAR.md'), 'utf8')).toBe(mine);
  expect((await readJson<Record<string, any>>(join(repo, 'evidence/loop/halting_report.json'))).stop_reason).toBe('GUARDRAIL_VIOLATION');
});

test('an evidence path that is a FIFO or a link is refused with a clear error, and nothing is written through it', async () => {
  const { mkdir, symlink, readdir: ls } = await import('node:fs/promises');
  const { execFile } = await import('node:child_process');
  const { promisify } = await import('node:util');
  const repo = await makeRepo({
    'phuc-loop.yml': config({ criteria: [{ id: 'never', run: 'false' }], agent: agent('leaker.mjs') }),
    'NORTHSTAR.md': NORTHSTAR,
  });
  await mkdir(join(repo, 'evidence'));
  await promisify(execFile)('mkfifo', [join(repo, 'evidence/loop')]);
  const fifo = await cli(repo, ['run']);
  expect(fifo.code).toBe(12);
  expect(fifo.stderr).toMatch(/evidence\/loop is not a folder \(a special file\)/);
  await (await import('node:fs/promises')).rm(join(repo, 'evidence/loop'));
  const elsewhere = join(repo, 'src');
  await mkdir(elsewhere, { recursive: true });
  await symlink(elsewhere, join(repo, 'evidence/loop'));
  const link = await cli(repo, ['run']);
  expect(link.code).toBe(12);
  expect(link.stderr).toMatch(/evidence\/loop is not a folder \(a symbolic link\)/);
  expect(await ls(elsewhere)).toEqual([]);
});

test("the user's uncommitted work the agent deletes or overwrites stays in git (refs/phuc-loop/user-work)", async () => {
  const repo = await makeRepo({
    'phuc-loop.yml': config({
      criteria: [{ id: 'fixed', run: 'grep -q fixed src/status.txt' }],
      agent: `sh ${JSON.stringify(join(FIXTURES, 'hostile', 'user-work.sh'))}`,
    }),
    'NORTHSTAR.md': NORTHSTAR,
    'src/status.txt': 'broken\n',
    'README.md': 'readme v1\n',
  });
  await writeFile(join(repo, 'README.md'), 'readme v1\nUSER EDIT, not committed\n');
  await writeFile(join(repo, 'notes.txt'), 'the user notes\n');
  const r = await cli(repo, ['run']);
  // The command names the commit (the ref moves with a later step's keep; this commit stays its parent).
  const kept =
    /uncommitted work \(2 path\(s\)\) kept in refs\/phuc-loop\/user-work \(([0-9a-f]{12})\): `git checkout ([0-9a-f]{12}) -- <path>` brings a file back/.exec(
      r.stdout,
    );
  expect(kept?.[2]).toBe(kept?.[1]);
  expect(await git(repo, 'show', `${kept![1]}:notes.txt`)).toBe('the user notes\n');
  expect(await git(repo, 'show', 'refs/phuc-loop/user-work:README.md')).toBe('readme v1\nUSER EDIT, not committed\n');
  expect(await git(repo, 'show', 'refs/phuc-loop/user-work:notes.txt')).toBe('the user notes\n');
  // Kept aside, not committed on the branch, not pushed with it.
  expect(await git(repo, 'log', '--format=%s', 'main')).not.toMatch(/uncommitted work/);
  await git(repo, 'checkout', 'refs/phuc-loop/user-work', '--', 'README.md', 'notes.txt');
  expect(await readFile(join(repo, 'notes.txt'), 'utf8')).toBe('the user notes\n');
});

test("the user's own uncommitted edit to a protected file does not stop the next run from resuming; a later hand edit does", async () => {
  const repo = await makeRepo({
    'phuc-loop.yml': config({
      criteria: [{ id: 'never', run: 'false' }],
      agent: agent('busy.mjs'),
      extra: 'stall_iterations: 100\nbudget:\n  max_iterations: 1\n',
    }),
    'NORTHSTAR.md': NORTHSTAR,
    'src/busy.txt': '',
    'test/keep.txt': 'committed\n',
  });
  await writeFile(join(repo, 'test/keep.txt'), 'mine, not committed\n');
  expect((await cli(repo, ['run'])).code).toBe(11);
  // The same edit the loop kept before its agent step: the user's, so the loop goes on.
  const second = await cli(repo, ['run', '--max-iterations', '2']);
  expect(second.stderr).not.toMatch(/protected paths have uncommitted changes/);
  expect(second.stdout).toMatch(/next is 1/);
  expect(second.code).toBe(11);
  expect(await readFile(join(repo, 'test/keep.txt'), 'utf8')).toBe('mine, not committed\n');
  expect(await git(repo, 'show', 'HEAD:test/keep.txt')).toBe('committed\n');
  // An edit the loop never saw may be what a cut-off agent left: refused until the user decides.
  await writeFile(join(repo, 'test/keep.txt'), 'changed again\n');
  const third = await cli(repo, ['run', '--max-iterations', '3']);
  expect(third.code).toBe(12);
  expect(third.stderr).toMatch(/protected paths have uncommitted changes \(test\/keep\.txt\)/);
});

test('a secret-looking variable of the loop (NPM_TOKEN) never reaches the agent, so no encoding carries it out; agent.pass_env gives it on purpose', async () => {
  const TOKEN = 'npm_Secret0123456789abcdefXYZ';
  const rot13 = TOKEN.replace(/[a-z]/gi, (c) => String.fromCharCode(((c.toLowerCase().charCodeAt(0) - 97 + 13) % 26) + (c === c.toLowerCase() ? 97 : 65)));
  // ROT13 is none of the forms the scrubber knows: only withholding the variable stops it.
  const exfiltrate =
    `sh -c 'printf %s "$NPM_TOKEN" | tr A-Za-z N-ZA-Mn-za-m > src/out.txt; ` +
    `echo "{\\"tried\\":[\\"x\\"],\\"claims\\":[],\\"failures\\":[],\\"open_questions\\":[],\\"can_further_iteration_help\\":true}" > "$PHUC_REPORT_FILE"'`;
  for (const pass of [false, true]) {
    const repo = await makeRepo({
      'phuc-loop.yml': config({
        criteria: [{ id: 'never', run: 'false' }],
        agent: exfiltrate,
        extra: 'budget:\n  max_iterations: 1\n',
      }).replace('  use: command\n', `  use: command\n${pass ? '  pass_env: [NPM_TOKEN]\n' : ''}`),
      'NORTHSTAR.md': NORTHSTAR,
      'src/.keep': '',
    });
    const r = await cli(repo, ['run'], { NPM_TOKEN: TOKEN });
    expect(r.code).toBe(11);
    const history = await git(repo, 'log', '-p', '--all');
    expect(history).toContain('src/out.txt');
    if (pass)
      expect(history).toContain(rot13); // given on purpose, it is the agent's: the test can fail
    else expect(history).not.toContain(rot13);
    expect(history).not.toContain(TOKEN);
  }
});

test("a tracked file under a folder the loop keeps out of status (scratch/) with the user's uncommitted edit: kept aside, left uncommitted, the run goes on", async () => {
  const repo = await makeRepo({
    'phuc-loop.yml': config({ criteria: [{ id: 'fixed', run: 'grep -q fixed src/status.txt' }], agent: agent('fixer.mjs') }),
    'NORTHSTAR.md': NORTHSTAR,
    'src/status.txt': 'broken\n',
    'scratch/todo.md': 'todo list\n',
  });
  await writeFile(join(repo, 'scratch/todo.md'), 'todo list\n- new item\n');
  const r = await cli(repo, ['run']);
  expect(r.code).toBe(0);
  expect(await git(repo, 'show', 'refs/phuc-loop/user-work:scratch/todo.md')).toBe('todo list\n- new item\n');
  expect(await git(repo, 'show', 'HEAD:scratch/todo.md')).toBe('todo list\n');
  expect(await readFile(join(repo, 'scratch/todo.md'), 'utf8')).toBe('todo list\n- new item\n');
});

/** A repository whose user has git-ignored files of their own: a secret, a dataset, a local config, notes, and one under test/. */
async function repoWithIgnoredFiles(): Promise<string> {
  const repo = await makeRepo({
    'phuc-loop.yml': config({
      criteria: [{ id: 'fixed', run: 'grep -q fixed src/status.txt' }],
      agent: `sh ${JSON.stringify(join(FIXTURES, 'hostile', 'ignored-files.sh'))}`,
    }),
    'NORTHSTAR.md': NORTHSTAR,
    'src/status.txt': 'broken\n',
    '.gitignore': '.env\ndata/\n*.local\nlocal.cfg\nnotes\nnode_modules/\n',
    'test/keep.txt': 'committed\n',
  });
  await writeFile(join(repo, '.env'), 'DB_PASSWORD=hunter2\n');
  await mkdir(join(repo, 'data', 'raw'), { recursive: true });
  await writeFile(join(repo, 'data', 'raw', 'results.csv'), 'hours of work\n');
  await writeFile(join(repo, 'local.cfg'), 'mine\n');
  await mkdir(join(repo, 'notes'));
  await writeFile(join(repo, 'notes', 'todo.md'), 'my notes\n');
  await writeFile(join(repo, 'test', 'fixture.local'), 'the user fixture\n');
  // A regenerable folder: left out, the agent's builds may write it.
  await mkdir(join(repo, 'node_modules', 'x'), { recursive: true });
  await writeFile(join(repo, 'node_modules', 'x', 'index.js'), 'dependency\n');
  return repo;
}

const USER_IGNORED: [string, string][] = [
  ['.env', 'DB_PASSWORD=hunter2\n'],
  ['data/raw/results.csv', 'hours of work\n'],
  ['local.cfg', 'mine\n'],
  ['notes/todo.md', 'my notes\n'],
  ['test/fixture.local', 'the user fixture\n'],
];

test.each([['user+pidns'], ['pidns'], ['none']])(
  "at %s the agent deleting or overwriting the user's git-ignored files loses nothing: each is put back as it was and named in artifacts.json",
  async (level) => {
    const repo = await repoWithIgnoredFiles();
    const user = level === 'pidns' && ROOT ? await createLoopUser() : null;
    const r = await (level === 'pidns' ? cliAtPidns(user, repo, ['run']) : cli(repo, ['run', '--isolation', level])).finally(() =>
      deleteLoopUser(user ?? undefined),
    );
    for (const [path, text] of USER_IGNORED) expect(await readFile(join(repo, path), 'utf8')).toBe(text);
    expect(r.stdout).toMatch(/git-ignored files of the user's: 5 kept in \.git\/phuc-loop/);
    expect(r.code).toBe(0);
    expect((await lstat(join(repo, 'notes'))).isDirectory()).toBe(true);
    expect(await readFile(join(repo, 'node_modules', 'x', 'index.js'), 'utf8')).toBe('dependency\n');
    const artifacts = await readJson<Record<string, any>>(join(repo, 'evidence/loop/iter_0/artifacts.json'));
    // At user+pidns the agent cannot write the user's file in place (it is not handed over) nor remove .env from the sticky top folder.
    const changed = level === 'user+pidns' ? ['data/raw/results.csv', 'notes/todo.md'] : ['.env', 'data/raw/results.csv', 'local.cfg', 'notes/todo.md'];
    expect(artifacts.user_files_restored).toEqual(changed);
    expect(r.stdout).toMatch(/iter 0: the agent deleted, replaced or changed \d git-ignored file\(s\) of the user's: put back as they were/);
    // The store goes when the run ends.
    expect(existsSync(join(repo, '.git/phuc-loop/evidence_loop/user-files'))).toBe(false);
  },
);

test.each([['user+pidns'], ['none']])(
  'at %s a protected glob holds for git-ignored files: the edit is put back, a new one removed, and the run ends GUARDRAIL_VIOLATION',
  async (level) => {
    const repo = await repoWithIgnoredFiles();
    const r = await cli(repo, ['run', '--isolation', level], { PHUC_TEST_PROTECTED: '1' });
    expect(r.code).toBe(12);
    const rep = await readJson<Record<string, any>>(join(repo, 'evidence/loop/halting_report.json'));
    expect(rep.stop_reason).toBe('GUARDRAIL_VIOLATION');
    expect(rep.detail).toMatch(/protected paths changed and reverted: .*test\/fixture\.local .*test\/planted\.local/);
    expect(await readFile(join(repo, 'test', 'fixture.local'), 'utf8')).toBe('the user fixture\n');
    expect(existsSync(join(repo, 'test', 'planted.local'))).toBe(false);
  },
);
