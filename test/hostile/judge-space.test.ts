// The check workspace is the check user's only (SPEC §7): at user+pidns the agent user cannot list
// or read what the checks wrote, even when the check code opens its workspace to everyone (chmod
// 0777); the shared base is not listable; a run removes its judge folder when it ends, and a run
// that was killed has its folder removed by a later run, never a live run's. Real CLI, real repos.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { lstat, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { checkStateDir, cli, config, makeRepo, NORTHSTAR, readJson, startCli, until } from '../helpers/repo.js';
import { isolationFacts } from '../helpers/isolation.js';

const facts = await isolationFacts();
const strong = process.getuid?.() === 0 && facts.userPidns === null;
const BASE = '/var/lib/phuc-loop';
const maybe = strong ? test : test.skip;

const AGENT_REPORT = `echo '{"tried":["t"],"claims":["c"],"failures":[],"open_questions":[],"can_further_iteration_help":true}' > "$PHUC_REPORT_FILE"`;

/**
 * Iteration 0 leaves the bug; iteration 1 (as phuc-agent) probes the workspace iteration 0's check
 * wrote (its path is in the state folder) and the shared base, then fixes the bug. The check writes
 * a secret into its workspace and opens it (and what it can above) to everyone.
 */
async function probeRepo(state: string, token: string, opts: { waitFor?: string } = {}): Promise<string> {
  const agent = `S=${state}
if [ "$PHUC_ITERATION" = 0 ]; then echo still-broken > src/status.txt; else
  W=$(cat $S/ws-path)
  { id; ls "$W"; echo "ls-ws-rc=$?"; cat "$W/check-secret.txt"; echo "cat-rc=$?"; ls ${BASE}; echo "ls-base-rc=$?"; ls "$(dirname "$(dirname "$W")")"; echo "ls-judge-rc=$?"; } > $S/agent-probe 2>&1
  chmod 666 $S/agent-probe
  echo fixed > src/status.txt
fi
${AGENT_REPORT}
`;
  const wait = opts.waitFor ? `i=0; while [ ! -f ${opts.waitFor} ] && [ $i -lt 900 ]; do sleep 0.1; i=$((i+1)); done\n` : '';
  const check = `#!/bin/sh
echo "check-secret-${token}" > check-secret.txt
chmod -R 0777 . 2>/dev/null; chmod 0777 .. ../.. 2>/dev/null
stat -c %a . > ${state}/ws-mode
pwd > ${state}/ws-path
${wait}grep -qx fixed src/status.txt
`;
  return makeRepo({
    'phuc-loop.yml': config({ criteria: [{ id: 'tests', run: 'sh test/check.sh' }], agent: 'sh agent.sh', writable: [state] }),
    'NORTHSTAR.md': NORTHSTAR,
    'agent.sh': agent,
    'test/check.sh': check,
    'src/status.txt': 'broken\n',
  });
}

maybe('the agent cannot list or read what the checks wrote, even in a workspace they opened 0777; the judge folder is gone when the run ends', async () => {
  const state = await checkStateDir();
  const token = randomBytes(8).toString('hex');
  try {
    const repo = await probeRepo(state, token);
    const r = await cli(repo, ['run']);
    expect(r.stdout + r.stderr).toMatch(/halt: EXIT_CONVERGED/);
    expect(r.code).toBe(0);
    // The check did open its workspace to everyone.
    expect((await readFile(join(state, 'ws-mode'), 'utf8')).trim()).toBe('777');
    const probe = await readFile(join(state, 'agent-probe'), 'utf8');
    expect(probe).toMatch(/uid=\d+\(phuc-agent\)/);
    expect(probe).not.toContain(`check-secret-${token}`);
    expect(probe).not.toMatch(/^check-secret\.txt$/m);
    for (const what of ['ls-ws', 'cat', 'ls-base', 'ls-judge']) expect(probe).not.toMatch(new RegExp(`${what}-rc=0\\b`));
    expect((await lstat(BASE)).mode & 0o777).toBe(0o711);
    // Nothing of the run's check workspaces is left.
    const ws = (await readFile(join(state, 'ws-path'), 'utf8')).trim();
    const judge = dirname(dirname(ws));
    expect(dirname(judge)).toBe(BASE);
    expect(existsSync(judge)).toBe(false);
  } finally {
    await rm(state, { recursive: true, force: true });
  }
});

maybe("a killed run's judge folder is removed by a later run; a live run's is kept", async () => {
  const state = await checkStateDir();
  const release = join(state, 'release');
  // A folder owned by a live process (this test): no run may remove it.
  const live = await mkdtemp(join(BASE, 'judge-livetest-'));
  const start = (await readFile(`/proc/${process.pid}/stat`, 'utf8')).split(') ')[1].split(' ')[19];
  await writeFile(join(live, 'owner.json'), JSON.stringify({ pid: process.pid, start, host: hostname() }));
  try {
    const repo = await probeRepo(state, randomBytes(8).toString('hex'), { waitFor: release });
    const run = startCli(repo, ['run']);
    await until(() => existsSync(join(state, 'ws-path')), 60_000, 'the baseline check to start');
    const judge = dirname(dirname((await readFile(join(state, 'ws-path'), 'utf8')).trim()));
    // Closed to the agent while its run lives (no run sweeps a live run's folder).
    expect((await lstat(judge)).mode & 0o777).toBe(0o710);
    expect(await asAgent(`ls ${judge}`)).not.toBe(0);
    // Killed outright (no report, no clean-up): its folder stays behind until a run sweeps it — this
    // suite's next one, or another suite's run on the machine, which may come first.
    run.child.kill('SIGKILL');
    await run.done;
    await until(async () => !(await processAlive(run.child.pid!)), 10_000, 'the killed run to be gone');
    if (existsSync(judge)) expect(await asAgent(`ls ${judge}`)).not.toBe(0);
    await writeFile(release, '');
    const next = await cli(repo, ['run']);
    // Any run on the machine sweeps the judge root: another suite's run may have been first.
    if (!/removed \d+ check workspace folder\(s\) left by runs/.test(next.stdout + next.stderr)) expect(next.stdout).toMatch(/EXIT_CONVERGED/);
    expect(existsSync(judge)).toBe(false);
    expect(existsSync(live)).toBe(true);
    const out = await readJson<Record<string, any>>(join(repo, 'evidence/loop/halting_report.json'));
    expect(out.status).toBe('EXIT_CONVERGED');
  } finally {
    await rm(live, { recursive: true, force: true });
    await rm(state, { recursive: true, force: true });
  }
});

async function processAlive(pid: number): Promise<boolean> {
  const s = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  return s !== null && s.slice(s.lastIndexOf(')') + 2)[0] !== 'Z';
}

function asAgent(command: string): Promise<number | null> {
  return new Promise((resolve) => {
    const p = spawn('su', ['-s', '/bin/sh', 'phuc-agent', '-c', command], { stdio: 'ignore' });
    p.on('close', (code) => resolve(code));
  });
}
