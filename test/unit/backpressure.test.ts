import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DiskUsage, firstStop, SignalStop, StopFile } from '../../src/engine/loop/backpressure.js';

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
});
