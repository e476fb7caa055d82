// How a round's criteria are scheduled (judge/checks.ts runChecks): side by side up to a bound,
// `after` waited for, results in the config's order, and the look after each naming every
// criterion that could have changed the workspace. The runner is a port the test holds: each
// command ends when the test says so, so the order of events is the test's, never the clock's.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runChecks } from '../../src/engine/judge/checks.js';
import { EvidenceStore } from '../../src/engine/store/evidence.js';
import { configSchema, type Criterion } from '../../src/engine/config/config.js';
import type { RunResult, RunSpec } from '../../src/engine/os/ports.js';

/** A runner whose commands run until end(command) is called; `started` lists them as they start. */
function heldRunner() {
  const started: string[] = [];
  const ends = new Map<string, (code: number) => void>();
  const waiters: { command: string; resolve: () => void }[] = [];
  const run = (spec: RunSpec) =>
    new Promise<RunResult>((resolve) => {
      started.push(spec.command);
      for (const w of waiters.filter((x) => x.command === spec.command)) w.resolve();
      const finish = (code: number) =>
        resolve({ exitCode: code, signal: null, timedOut: false, aborted: false, stdout: `${spec.command}\n`, stderr: '', durationMs: 1 });
      ends.set(spec.command, finish);
      spec.signal?.addEventListener('abort', () =>
        resolve({ exitCode: null, signal: 'SIGTERM', timedOut: false, aborted: true, stdout: '', stderr: '', durationMs: 1 }),
      );
    });
  return {
    runner: { run },
    started,
    /** Resolves once `command` has started. */
    startedP: (command: string) => (started.includes(command) ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ command, resolve }))),
    end: (command: string, code = 0) => ends.get(command)!(code),
  };
}

const criterion = (id: string, after?: string[]): Criterion => ({ id, run: `run-${id}`, timeout_seconds: 60, retries: 0, ...(after ? { after } : {}) });

async function context(runner: ReturnType<typeof heldRunner>['runner'], afterRun?: (id: string, suspects: string[]) => void) {
  const ev = new EvidenceStore(join(await mkdtemp(join(tmpdir(), 'phuc-sched-')), 'loop'));
  return {
    ev,
    ctx: {
      runner,
      cwd: '/nonexistent',
      env: {},
      evidence: ev,
      dir: 'iter_0/checks',
      tree: 'a'.repeat(40),
      scrub: (t: string) => t,
      afterRun: afterRun && ((c: { id: string }, suspects: string[]) => afterRun(c.id, suspects)),
    },
  };
}

describe('runChecks scheduling', () => {
  test('independent criteria start side by side; the results keep the config order when the last listed ends first', async () => {
    const h = heldRunner();
    const { ctx } = await context(h.runner);
    const round = runChecks([criterion('a'), criterion('b')], { ...ctx, concurrency: 2 });
    await Promise.all([h.startedP('run-a'), h.startedP('run-b')]);
    h.end('run-b', 1);
    h.end('run-a', 0);
    const results = await round;
    expect(results.map((r) => [r.id, r.met])).toEqual([
      ['a', true],
      ['b', false],
    ]);
  });

  test('no more run at once than the bound; the next starts when one ends', async () => {
    const h = heldRunner();
    const { ctx } = await context(h.runner);
    const round = runChecks([criterion('a'), criterion('b'), criterion('c')], { ...ctx, concurrency: 2 });
    await Promise.all([h.startedP('run-a'), h.startedP('run-b')]);
    expect(h.started).toEqual(['run-a', 'run-b']);
    h.end('run-b');
    await h.startedP('run-c');
    h.end('run-a');
    h.end('run-c');
    expect((await round).map((r) => r.id)).toEqual(['a', 'b', 'c']);
  });

  test('a criterion with `after` starts only once those have ended (and been looked at)', async () => {
    const h = heldRunner();
    const looks: [string, string[]][] = [];
    let looked = () => {};
    const { ctx } = await context(h.runner, (id, suspects) => {
      looks.push([id, suspects]);
      looked();
    });
    const nextLook = () => new Promise<void>((resolve) => (looked = resolve));
    const round = runChecks([criterion('build'), criterion('lint'), criterion('test', ['build'])], { ...ctx, concurrency: 4 });
    await Promise.all([h.startedP('run-build'), h.startedP('run-lint')]);
    expect(h.started).not.toContain('run-test');
    h.end('run-build');
    await h.startedP('run-test');
    // build's look came before test started, and named lint too: it was running meanwhile.
    expect(looks).toEqual([['build', ['build', 'lint']]]);
    const lintLooked = nextLook();
    h.end('run-lint');
    await lintLooked;
    h.end('run-test');
    await round;
    expect(looks).toEqual([
      ['build', ['build', 'lint']],
      ['lint', ['lint', 'test']],
      ['test', ['test']],
    ]);
  });

  test('a look that refuses the round stops the criteria still running, and is the round’s error', async () => {
    const h = heldRunner();
    const { ctx } = await context(h.runner, (id) => {
      if (id === 'a') throw new Error('a changed the tree');
    });
    const round = runChecks([criterion('a'), criterion('b')], { ...ctx, concurrency: 2 });
    await Promise.all([h.startedP('run-a'), h.startedP('run-b')]);
    h.end('run-a');
    // b is never ended by the test: the refusal aborts it.
    await expect(round).rejects.toThrow('a changed the tree');
  });
});

describe('acceptance_criteria[].after', () => {
  const yml = (criteria: object[]) => ({
    version: 2,
    goal: 'g',
    acceptance_criteria: criteria,
    certificates: ['EXACT'],
    agent: { use: 'command', run: 'true' },
  });
  test('names only criteria listed before it', () => {
    const bad = configSchema.safeParse(
      yml([
        { id: 'a', run: 'true', after: ['b'] },
        { id: 'b', run: 'true' },
      ]),
    );
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]).toMatchObject({
      path: ['acceptance_criteria', 0, 'after', 0],
      message: expect.stringMatching(/must be the id of a criterion listed before this one \(none is\), got "b"/),
    });
    const good = configSchema.safeParse(
      yml([
        { id: 'a', run: 'true' },
        { id: 'b', run: 'true', after: ['a'] },
      ]),
    );
    expect(good.success).toBe(true);
  });
});
