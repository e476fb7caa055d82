// The phase timer: laps, phases timed whole or side by side, and the one-table breakdown that says
// what no phase covers instead of hiding it.
import { phaseRows, phaseSummary, phaseTable, Stage, type StagePhases } from '../../src/engine/evidence/phases.js';
import type { Clock } from '../../src/engine/os/ports.js';

/** A clock the test moves by hand: durations are exact. */
function handClock(): Clock & { advance(ms: number): void } {
  let now = 1000;
  return { monotonicMs: () => now, advance: (ms) => (now += ms) };
}

const cell = (s: string) => s.replace(/\|/g, '\\|');

describe('Stage', () => {
  test('a lap gives the time since the last phase ended, less what was recorded apart', () => {
    const clock = handClock();
    const s = new Stage('iter_0', clock);
    clock.advance(5);
    s.lap('capsule');
    clock.advance(1000);
    s.lap('hand-over', { phase: 'agent', ms: 900 });
    // Measured apart on another clock, an inner phase is never longer than its lap.
    clock.advance(10);
    s.lap('collect', { phase: 'agent', ms: 12 });
    expect(s.record().record).toEqual({
      stage: 'iter_0',
      wall_ms: 1015,
      phases: [
        { phase: 'capsule', ms: 5 },
        { phase: 'agent', ms: 910 },
        { phase: 'hand-over', ms: 100 },
        { phase: 'collect', ms: 0 },
      ],
    });
  });

  test('laps on a clock with fractions of a millisecond add up to the wall time exactly', () => {
    const clock = handClock();
    const s = new Stage('iter_0', clock);
    for (let i = 0; i < 20; i++) {
      clock.advance(0.5);
      s.lap(`p${i}`);
    }
    const { record } = s.record();
    expect(record.phases.reduce((a, p) => a + p.ms, 0)).toBe(record.wall_ms);
  });

  test('the time since the stage before ended is on record, not for a stage within another', () => {
    const clock = handClock();
    const first = new Stage('start', clock);
    clock.advance(40);
    const { end } = first.record();
    clock.advance(15);
    const next = new Stage('baseline', clock);
    const within = new Stage('confirmation', clock, 'end');
    clock.advance(5);
    expect(next.record(end).record).toEqual({ stage: 'baseline', wall_ms: 5, phases: [], before_ms: 15 });
    expect(within.record(end).record.before_ms).toBeUndefined();
  });

  test('a timed phase ends where the next lap starts; nested phases do not; a repeated phase is summed', async () => {
    const clock = handClock();
    const s = new Stage('baseline', clock);
    await s.time('setup', () => {
      clock.advance(200);
      return Promise.resolve();
    });
    // Two criteria side by side: both start, 50 ms pass, both end.
    let release = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const both = Promise.all(['a', 'b'].map((id) => s.time(id, () => gate, 'checks')));
    clock.advance(50);
    release();
    await both;
    clock.advance(7);
    s.lap('setup');
    const r = s.record().record;
    expect(r.phases).toEqual([
      { phase: 'setup', ms: 257 },
      { phase: 'a', ms: 50, part_of: 'checks' },
      { phase: 'b', ms: 50, part_of: 'checks' },
    ]);
    expect(r.wall_ms).toBe(257);
  });

  test('a phase that throws is still timed', async () => {
    const clock = handClock();
    const s = new Stage('x', clock);
    await expect(
      s.time('setup', () => {
        clock.advance(30);
        return Promise.reject(new Error('boom'));
      }),
    ).rejects.toThrow('boom');
    expect(s.record().record.phases).toEqual([{ phase: 'setup', ms: 30 }]);
  });
});

describe('the breakdown', () => {
  const stages: StagePhases[] = [
    {
      stage: 'iter_0',
      wall_ms: 3000,
      phases: [
        { phase: 'agent', ms: 1000 },
        { phase: 'checks', ms: 1500 },
        { phase: 'unit|x', ms: 1400, part_of: 'checks' },
      ],
    },
    { stage: 'end', wall_ms: 2500, phases: [{ phase: 'audits', ms: 100 }], before_ms: 300 },
    {
      stage: 'confirmation',
      wall_ms: 2000,
      within: 'end',
      phases: [
        { phase: 'setup', ms: 600 },
        { phase: 'checks', ms: 1300 },
      ],
    },
  ];

  test('nested phases follow their holder; what no phase covers is a row of its own, a stage within another counted once', () => {
    expect(phaseRows(stages)).toEqual([
      // The run's order (setup before checks), then phases it does not know.
      { phase: 'agent', ms: [1000, null, null] },
      { phase: 'setup', ms: [null, null, 600] },
      { phase: 'checks', ms: [1500, null, 1300] },
      { phase: 'unit|x', part_of: 'checks', ms: [1400, null, null] },
      { phase: 'audits', ms: [null, 100, null] },
      { phase: 'not in a phase', ms: [500, 400, 100] },
      { phase: 'between stages', ms: [null, 300, null] },
    ]);
  });

  test('renders one markdown table in seconds with a total column and the wall row', () => {
    const table = phaseTable(stages, cell);
    expect(table[0]).toBe('| phase | iter_0 | end | confirmation (in end) | total |');
    expect(table).toContain('| checks | 1.5 | — | 1.3 | 2.8 |');
    expect(table).toContain('| ↳ unit\\|x | 1.4 | — | — | 1.4 |');
    expect(table).toContain('| between stages | — | 0.3 | — | 0.3 |');
    // A column runs from the end of the stage before it: the total is the run's wall time.
    expect(table.at(-1)).toBe('| **wall** | **3.0** | **2.8** | **2.0** | **5.8** |');
    expect(phaseTable([], cell)).toEqual([]);
  });

  test('the closing note names the largest phases with their share of the wall time', () => {
    expect(phaseSummary(stages, 2)).toBe('checks 2.8 s (48 %), agent 1.0 s (17 %) of 5.8 s');
    expect(phaseSummary([])).toBeNull();
  });
});
