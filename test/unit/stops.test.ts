import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DiskUsage, firstStop, pauseStep, SignalStop, StopFile, watchStops } from '../../src/engine/os/stops.js';

describe('backpressure', () => {
  test('scratch/STOP stops when it exists', async () => {
    const d = await mkdtemp(join(tmpdir(), 'phuc-stop-'));
    const s = new StopFile(join(d, 'STOP'), 'scratch/STOP');
    expect(await s.check()).toBeNull();
    await writeFile(join(d, 'STOP'), '');
    expect(await s.check()).toBe('scratch/STOP exists');
  });
  test('disk use over 90% stops; at 90% it does not', async () => {
    expect(await new DiskUsage('/', 0.9, () => Promise.resolve({ blocks: 1000, bavail: 99 })).check()).toBe('disk use 90% is over 90%');
    expect(await new DiskUsage('/', 0.9, () => Promise.resolve({ blocks: 1000, bavail: 100 })).check()).toBeNull();
    expect(await new DiskUsage('/').check()).toBeNull();
  });
  test('a signal stop aborts and is reported first-come', async () => {
    const s = new SignalStop();
    expect(await firstStop([s])).toBeNull();
    s.request('SIGTERM');
    s.request('SIGINT');
    expect(s.controller.signal.aborted).toBe(true);
    expect(await firstStop([s])).toBe('SIGTERM');
  });
  test('what to do before a run goes on names only the stop that is there', () => {
    expect(pauseStep('scratch/STOP exists')).toBe('delete scratch/STOP, then ');
    expect(pauseStep('the STOP label is on pull request #7')).toBe('remove the STOP label, then ');
    expect(pauseStep('disk use 95% is over 90%')).toBe('free disk space, then ');
    expect(pauseStep('the agent hit a rate limit: 429')).toBe("wait until the agent's rate limit resets, then ");
    for (const nothing of ['SIGINT received (backpressure: user interrupt)', 'the loop was asked to stop (signal)', null]) expect(pauseStep(nothing)).toBe('');
  });
  test("a watched step stopped by a signal says the signal's own words", () => {
    const s = new SignalStop();
    const w = watchStops([], 60_000, s.controller.signal);
    s.request('SIGINT received (backpressure: user interrupt)');
    expect(w.reason()).toBe('SIGINT received (backpressure: user interrupt)');
    w.close();
  });
});
