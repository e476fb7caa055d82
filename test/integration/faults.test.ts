// Faults of the machine end in a report and a resumable state (issue 30 item 5): the loop's git
// session killed, a read-only folder, a full disk. Real CLI, real repos, scripted agents.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { agent, cli, config, git, makeRepo, NORTHSTAR, readJson } from '../helpers/repo.js';

const sh = promisify(execFile);
const report = (repo: string) => readJson<Record<string, any>>(join(repo, 'evidence/loop/halting_report.json'));

const twoBugs = (agentRun: string) =>
  makeRepo({
    'phuc-loop.yml': config({
      criteria: [1, 2].map((k) => ({ id: `bug${k}`, run: `grep -q fixed-${k} src/status.txt` })),
      agent: agentRun,
    }),
    'NORTHSTAR.md': NORTHSTAR,
    'src/status.txt': 'start\n',
  });

test("the agent kills the loop's git session: EXIT_BLOCKED(GIT_FAILURE) with its report; a plain `run` afterwards converges", async () => {
  const state = await mkdtemp(join(tmpdir(), 'phuc-git-killer-'));
  const repo = await twoBugs(`${agent('git-killer.mjs')} ${state}`);
  const first = await cli(repo, ['run', '--isolation', 'none']);
  expect(first.code).toBe(12);
  const rep = await report(repo);
  expect(rep).toMatchObject({ status: 'EXIT_BLOCKED', stop_reason: 'GIT_FAILURE' });
  expect(rep.detail).toMatch(/the loop's git shell was killed/);
  expect(first.stdout).toMatch(/EXIT_BLOCKED\(GIT_FAILURE\)/);
  const second = await cli(repo, ['run', '--isolation', 'none']);
  expect([second.code, second.stdout]).toEqual([0, expect.stringMatching(/EXIT_CONVERGED/)]);
  expect(await git(repo, 'show', 'HEAD:src/status.txt')).toMatch(/fixed-1\n(.*\n)*fixed-2\n/);
});

/** `dir` as a read-only bind mount of itself (what a read-only folder is to root, whom chmod a-w does not stop). */
async function readOnly(dir: string): Promise<() => Promise<void>> {
  await sh('mount', ['--bind', dir, dir]);
  await sh('mount', ['-o', 'remount,ro,bind', dir]);
  return () => sh('umount', [dir]).then(() => undefined);
}

const asRoot = process.getuid?.() === 0 ? test : test.skip;

asRoot(
  'a read-only loop home, evidence folder or work tree: EXIT_BLOCKED(FOLDER_READ_ONLY) naming it, nothing written; writable again, a plain `run` converges',
  async () => {
    const repo = await twoBugs(agent('fixer.mjs'));
    const head = (await git(repo, 'rev-parse', 'HEAD')).trim();
    await mkdir(join(repo, '.git/phuc-loop'));
    await mkdir(join(repo, 'evidence'));
    for (const [dir, what, reportAt] of [
      [join(repo, '.git/phuc-loop'), "the loop's home", join(repo, 'evidence/loop/halting_report.json')],
      [join(repo, 'evidence'), 'the folder of the published evidence', null],
      [repo, 'the work tree', null],
    ] as const) {
      await rm(join(repo, 'evidence/loop'), { recursive: true, force: true });
      const undo = await readOnly(dir);
      let r;
      try {
        r = await cli(repo, ['run', '--isolation', 'none']);
      } finally {
        await undo();
      }
      expect([what, r.code]).toEqual([what, 12]);
      expect(r.stdout + r.stderr).toContain(`${dir} (${what}) is read-only here (EROFS)`);
      expect(r.stdout).toMatch(/EXIT_BLOCKED\(FOLDER_READ_ONLY\)/);
      if (reportAt) expect(await readJson(reportAt)).toMatchObject({ status: 'EXIT_BLOCKED', stop_reason: 'FOLDER_READ_ONLY' });
      // Nothing spent or written: no agent step, no commit, no loop home content.
      expect((await git(repo, 'rev-parse', 'HEAD')).trim()).toBe(head);
      expect(await readdir(join(repo, '.git/phuc-loop'))).toEqual([]);
      expect(await readFile(join(repo, 'src/status.txt'), 'utf8')).toBe('start\n');
    }
    const r = await cli(repo, ['run', '--isolation', 'none']);
    expect([r.code, r.stdout]).toEqual([0, expect.stringMatching(/EXIT_CONVERGED/)]);
  },
);

asRoot(
  'a full disk: EXIT_BLOCKED with its reason; once space returns, a plain `run` resumes (what the cut-off run wrote is set aside, not called tampering)',
  async () => {
    const state = await mkdtemp(join(tmpdir(), 'phuc-disk-filler-'));
    const made = await twoBugs(`${agent('disk-filler.mjs')} ${state}`);
    // The repository (work tree, .git and the loop's home) on a disk of 3 MB.
    const repo = join(dirname(made), 'small');
    await mkdir(repo);
    await sh('mount', ['-t', 'tmpfs', '-o', 'size=3m', 'tmpfs', repo]);
    try {
      await sh('cp', ['-a', `${made}/.`, repo]);
      const first = await cli(repo, ['run', '--isolation', 'none']);
      expect(first.code).toBe(12);
      expect(first.stdout + first.stderr).toMatch(/no space left on device/i);
      await rm(join(repo, 'fill.bin'));
      const second = await cli(repo, ['run', '--isolation', 'none']);
      expect(second.stdout + second.stderr).not.toMatch(/EVIDENCE_UNVERIFIABLE|added after the loop wrote it/);
      expect([second.code, second.stdout]).toEqual([0, expect.stringMatching(/EXIT_CONVERGED/)]);
      expect((await cli(repo, ['verify'])).code).toBe(0);
    } finally {
      await sh('umount', [repo]);
    }
  },
);

asRoot(
  'a folder made read-only mid-run: the loop home → EXIT_BLOCKED(FOLDER_READ_ONLY) naming it, with its report; the published evidence → a warning; writable again, a plain `run` goes on and publishes',
  async () => {
    for (const [which, what] of [
      ['.git/phuc-loop', "the loop's home"],
      ['evidence', null],
    ] as const) {
      const state = await mkdtemp(join(tmpdir(), 'phuc-ro-maker-'));
      const repo = await twoBugs(`${agent('ro-maker.mjs')} ${state} ${which}`);
      const dir = join(repo, which);
      await mkdir(dir, { recursive: true });
      let first;
      try {
        first = await cli(repo, ['run', '--isolation', 'none']);
      } finally {
        await sh('umount', [dir]);
      }
      expect(first.stderr).not.toMatch(/crashed/);
      if (what) {
        expect(first.code).toBe(12);
        expect(first.stdout).toMatch(/EXIT_BLOCKED\(FOLDER_READ_ONLY\)/);
        expect(first.stderr).toContain(`${dir} (${what}) is read-only here (EROFS)`);
        expect((await cli(repo, ['report'])).stdout).toMatch(/FOLDER_READ_ONLY/);
      } else {
        expect(first.stderr).toMatch(/the evidence could not be published to evidence\/loop: EROFS/);
        await expect(readFile(join(repo, 'evidence/loop/halting_report.json'))).rejects.toThrow(/ENOENT/);
      }
      const second = await cli(repo, ['run', '--isolation', 'none']);
      expect([which, second.code, second.stdout]).toEqual([which, 0, expect.stringMatching(/EXIT_CONVERGED/)]);
      expect(await report(repo)).toMatchObject({ status: 'EXIT_CONVERGED' });
      expect((await cli(repo, ['verify'])).code).toBe(0);
    }
  },
);
