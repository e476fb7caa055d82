// Every phase timed: the built CLI on a real repository records where each stage's time went
// (iter_N/phases.json, phases.jsonl), hashed like all evidence, and the halting report has the table.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { agent, cli, config, makeRepo, NORTHSTAR, readJson } from '../helpers/repo.js';
import type { StagePhases } from '../../src/engine/evidence/phases.js';

// One criterion sleeps: its recorded time has a floor the test can rely on (never a ceiling).
const criteria = [
  { id: 'bug1', run: 'sleep 0.3; grep -q fixed-1 src/status.txt' },
  { id: 'bug2', run: 'grep -q fixed-2 src/status.txt' },
];

describe('every phase timed', () => {
  let repo: string;
  let run: Awaited<ReturnType<typeof cli>>;
  beforeAll(async () => {
    repo = await makeRepo({
      'phuc-loop.yml': config({ criteria, agent: agent('fixer.mjs'), rung: 274177 }),
      'NORTHSTAR.md': NORTHSTAR,
      'src/status.txt': 'bugs: 2\n',
    });
    run = await cli(repo, ['run']);
  });
  const ev = () => join(repo, 'evidence/loop');

  test('each iteration records its phases, each criterion inside its round', async () => {
    expect(run.code).toBe(0);
    for (const n of [0, 1]) {
      const s = await readJson<StagePhases>(join(ev(), `iter_${n}/phases.json`));
      expect(s.stage).toBe(`iter_${n}`);
      const names = s.phases.filter((p) => p.part_of === undefined).map((p) => p.phase);
      expect(names).toEqual(
        expect.arrayContaining([
          'capsule',
          'step start',
          'agent',
          'work tree hand-over',
          'collect',
          'workspace update',
          'setup',
          'checks',
          'residual',
          'skeptic',
          'northstar',
          'hand-back',
          'learn',
          'commit',
        ]),
      );
      const ms = (phase: string, partOf?: string) => s.phases.find((p) => p.phase === phase && p.part_of === partOf)!.ms;
      expect(ms('bug1', 'checks')).toBeGreaterThanOrEqual(250);
      expect(ms('checks')).toBeGreaterThanOrEqual(ms('bug1', 'checks'));
      expect(s.phases.find((p) => p.phase === 'bug2')?.part_of).toBe('checks');
      // Top-level phases account for the stage's wall time (nested ones are inside them): what is
      // left is the moment between the last phase's end and the record.
      const left = s.wall_ms - s.phases.filter((p) => p.part_of === undefined).reduce((a, p) => a + p.ms, 0);
      expect(left).toBeGreaterThanOrEqual(0);
      expect(left).toBeLessThanOrEqual(20);
      // The time since the stage before (the baseline, the last iteration's records) is on record.
      expect(s.before_ms).toEqual(expect.any(Number));
    }
  });

  test("the run's other stages are in phases.jsonl, the replays within its end", async () => {
    const lines = (await readFile(join(ev(), 'phases.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as StagePhases & { run_first_iteration: number });
    expect(lines.map((l) => [l.stage, l.within ?? null])).toEqual([
      ['start', null],
      ['baseline', null],
      ['confirmation', 'end'],
      ['replay 2', 'end'],
      ['end', null],
    ]);
    expect(lines.every((l) => l.run_first_iteration === 0)).toBe(true);
    const confirmation = lines[2];
    expect(confirmation.phases.map((p) => p.phase)).toEqual(expect.arrayContaining(['workspace update', 'setup', 'checks', 'bug1', 'residual']));
  });

  test('the timings are hashed evidence, and the report has the one-table breakdown', async () => {
    const manifest = await readJson<{ files: { path: string }[] }>(join(ev(), 'manifest.json'));
    expect(manifest.files.map((f) => f.path)).toContain('phases.jsonl');
    const iter = await readJson<{ files: { path: string }[] }>(join(ev(), 'iter_0/manifest.json'));
    expect(iter.files.map((f) => f.path)).toContain('iter_0/phases.json');
    expect((await cli(repo, ['verify'])).code).toBe(0);

    const report = await cli(repo, ['report']);
    const table = report.stdout.slice(report.stdout.indexOf('### Time by phase'));
    expect(table).toMatch(/^\| phase \| start \| baseline \| iter_0 \| iter_1 \| confirmation \(in end\) \| replay 2 \(in end\) \| end \| total \|$/m);
    expect(table).toMatch(/^\| ↳ bug1 \| — \| [\d.]+ \| [\d.]+ \| [\d.]+ \| [\d.]+ \| [\d.]+ \| — \| [\d.]+ \|$/m);
    // What no phase covers, and what came between stages, are rows of their own.
    expect(table).toMatch(/^\| not in a phase \| [\d.]+ \|/m);
    expect(table).toMatch(/^\| between stages \| — \| [\d.]+ \| [\d.]+ \| [\d.]+ \| — \| — \| [\d.]+ \| [\d.]+ \|$/m);
    expect(table).toMatch(/^\| \*\*wall\*\* \|/m);
    expect(run.stdout).toMatch(/time by phase: .*\d+\.\d s \(\d+ %\).* of \d+\.\d s/);
  });

  test('no timing reaches a capsule or a certificate', async () => {
    for (const f of ['iter_1/cnf_capsule.json', 'iter_1/certificate.json']) {
      const text = await readFile(join(ev(), f), 'utf8');
      expect(text).not.toMatch(/wall_ms|"phases"|hand-over/);
    }
  });
});
