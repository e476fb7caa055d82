// The one signal-stop installer: first signal = a stop request, the same signal again = abort now,
// the runner's escalation (SIGINT then SIGTERM) = a short grace for the report, then abort.
import { jest } from '@jest/globals';
import { EventEmitter } from 'node:events';
import { abortExitCode, installSignalStop, trackProcessGroup, type SignalTarget, type StopSignal } from '../../src/engine/os/signals.js';

class Exited extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}

function fakeProcess() {
  const emitter = new EventEmitter();
  const events: string[] = [];
  const target: SignalTarget = {
    on: (e, l) => emitter.on(e, l),
    off: (e, l) => emitter.off(e, l),
    exit: (code) => {
      events.push(`exit ${code}`);
      throw new Exited(code);
    },
    kill: (pid, sig) => events.push(`kill ${pid} ${sig}`),
  };
  /** Delivers a signal; returns the exit code when the handler exited. */
  const send = (sig: StopSignal): number | null => {
    try {
      emitter.emit(sig, sig);
      return null;
    } catch (e) {
      if (e instanceof Exited) return e.code;
      throw e;
    }
  };
  return { target, send, events, listeners: () => emitter.listenerCount('SIGINT') + emitter.listenerCount('SIGTERM') };
}

test('the first signal requests a stop: the AbortSignal fires and the stop source gives the reason', async () => {
  const p = fakeProcess();
  const notes: string[] = [];
  const s = installSignalStop({ meaning: 'workflow cancellation', notify: (m) => notes.push(m), target: p.target });
  expect(await s.stop.check()).toBeNull();
  expect(s.signal.aborted).toBe(false);
  expect(p.send('SIGINT')).toBeNull();
  expect(s.signal.aborted).toBe(true);
  expect(s.received).toBe('SIGINT');
  expect(await s.stop.check()).toBe('SIGINT received (backpressure: workflow cancellation)');
  expect(notes).toEqual([expect.stringMatching(/^SIGINT received \(workflow cancellation\): stopping the agent/)]);
  s.dispose();
  expect(p.listeners()).toBe(0);
});

test('the same signal again aborts at once: the tracked process groups are killed, the host writes its last words, exit 128+n', () => {
  const p = fakeProcess();
  const untrack = trackProcessGroup(424242);
  trackProcessGroup(434343)();
  const last: string[] = [];
  const s = installSignalStop({ meaning: 'x', notify: () => undefined, onAbort: (sig) => last.push(`last words ${sig}`), target: p.target });
  try {
    p.send('SIGINT');
    expect(p.events).toEqual([]);
    expect(p.send('SIGINT')).toBe(130);
    // Only the group still tracked; the last words come after the kill, then the exit.
    expect(p.events).toEqual(['kill -424242 SIGKILL', 'exit 130']);
    expect(last).toEqual(['last words SIGINT']);
  } finally {
    untrack();
    s.dispose();
  }
  expect(abortExitCode('SIGTERM')).toBe(143);
});

test("the runner's escalation (SIGINT, then SIGTERM) gives the report hurryMs more, then aborts", () => {
  jest.useFakeTimers();
  const p = fakeProcess();
  const notes: string[] = [];
  const s = installSignalStop({ meaning: 'x', notify: (m) => notes.push(m), hurryMs: 2000, target: p.target });
  try {
    p.send('SIGINT');
    expect(p.send('SIGTERM')).toBeNull();
    expect(notes[1]).toMatch(/SIGTERM received after SIGINT: finishing the report within 2000 ms/);
    jest.advanceTimersByTime(1999);
    expect(p.events).toEqual([]);
    expect(() => jest.advanceTimersByTime(1)).toThrow(new Exited(143));
    expect(p.events).toEqual(['exit 143']);
  } finally {
    s.dispose();
    jest.useRealTimers();
  }
});

test('a run that ends within the hurry is not aborted (dispose clears the timer)', () => {
  jest.useFakeTimers();
  const p = fakeProcess();
  const s = installSignalStop({ meaning: 'x', notify: () => undefined, hurryMs: 2000, target: p.target });
  p.send('SIGTERM');
  p.send('SIGINT');
  s.dispose();
  jest.advanceTimersByTime(10_000);
  expect(p.events).toEqual([]);
  jest.useRealTimers();
});

test('a third signal during the hurry aborts at once', () => {
  const p = fakeProcess();
  const s = installSignalStop({ meaning: 'x', notify: () => undefined, hurryMs: 60_000, target: p.target });
  p.send('SIGINT');
  p.send('SIGTERM');
  expect(p.send('SIGINT')).toBe(130);
  s.dispose();
});
