import { parseVerdict } from '../../src/engine/judge/critic.js';
import { Decimal } from '../../src/engine/common/decimal.js';
import { improvement, initialProgress, passStopped, trackSignatures, trackStall } from '../../src/engine/run/progress.js';
import { detourFor, failureSignature, normalizeFailure } from '../../src/engine/run/signature.js';
import { inert } from '../../src/engine/common/markdown.js';
import { sanitizeAgentText } from '../../src/engine/memory/agents-md.js';

describe('failure signatures', () => {
  test('paths, line numbers, timings and hex ids are stripped; the message stays', () => {
    const a = failureSignature('t', 'FAIL /home/a/repo/src/x.test.js:12:5\nAssertionError: expected 5 got 3 (34ms) commit 1a2b3c4d5e6f');
    const b = failureSignature('t', 'FAIL /tmp/other/src/x.test.js:99:1\nAssertionError: expected 5 got 3 (1.2 s) commit deadbeefcafe');
    expect(a.signature).toBe(b.signature);
    expect(a.text).toContain('AssertionError: expected 5 got 3');
    expect(failureSignature('t', 'AssertionError: expected 6 got 3').signature).not.toBe(a.signature);
    expect(normalizeFailure('$ npm test\n--- stdout ---\nError at line 7\n--- exit 1 ---\n')).toBe('Error at line <n>');
  });
  test('timestamps, dates, clock times, durations and pids in the output do not change the signature (the learnings normaliser)', () => {
    const log = (stamp: string, day: string, clock: string, took: string, pid: number) =>
      [
        `[${stamp}] FAIL test/calc.test.js`,
        'AssertionError: expected 5 got 3',
        `run on ${day} at ${clock}, took ${took} (pid ${pid})`,
        `report written to /tmp/jest_${pid}/junit.xml`,
      ].join('\n');
    const a = failureSignature('t', log('2024-05-01T12:34:56.789Z', 'Wed May 1, 2024', '12:34:56', '1m30s', 4242));
    const b = failureSignature('t', log('2025-11-23 08:01:02+01:00', 'Sun Nov 23, 2025', '08:01:02', '2m5s', 977));
    expect(a.signature).toBe(b.signature);
    expect(a.text).toBe(normalizeFailure(log('2025-11-23 08:01:02+01:00', 'Sun Nov 23, 2025', '08:01:02', '2m5s', 977)));
    expect(a.text).toContain('AssertionError: expected 5 got 3');
    // The one normaliser: what becomes <time>, <date>, <duration>, <pid> in an AGENTS.md learning does here too.
    const line = 'run on Wed May 1, 2024 at 12:34:56, took 1m30s (pid 4242)';
    expect(inert(normalizeFailure(line))).toBe(sanitizeAgentText(line, []));
    expect(failureSignature('t', log('2024-05-01T12:34:56.789Z', 'Wed May 1, 2024', '12:34:56', '1m30s', 4242).replace('got 3', 'got 4')).signature).not.toBe(
      a.signature,
    );
  });
  test('detours match a substring or a /regex/ of the signature or its text', () => {
    const s = failureSignature('lint', 'error: missing import os');
    expect(detourFor([{ match: 'missing import', instruction: 'add it' }], s)).toBe('add it');
    expect(detourFor([{ match: '/MISSING IMPORT \\w+/i', instruction: 'rx' }], s)).toBe('rx');
    expect(detourFor([{ match: 'type_mismatch', instruction: 'x' }], s)).toBeNull();
  });
  test('a failure that repeats while the residual falls (other criteria being fixed) is not stuck', () => {
    const p = initialProgress('3');
    const s1 = failureSignature('c4', '');
    for (let i = 0; i < 4; i++) expect(trackSignatures(p, [s1], [], i, true)).toEqual({ stuck: [], detour: null });
  });
  test('twice in a row opens a detour; the same again is STUCK; a different failure clears it', () => {
    const p = initialProgress('2');
    const s1 = failureSignature('t', 'boom');
    expect(trackSignatures(p, [s1], [], 0, false)).toEqual({ stuck: [], detour: null });
    expect(trackSignatures(p, [s1], [], 1, false).detour).toMatchObject({ iteration: 2, repeated: [{ signature: s1.signature, instruction: null }] });
    expect(trackSignatures(p, [s1], [], 2, false).stuck).toEqual([s1]);
    const q = initialProgress('2');
    trackSignatures(q, [s1], [], 0, false);
    trackSignatures(q, [s1], [], 1, false);
    expect(trackSignatures(q, [failureSignature('t', 'other')], [], 2, false)).toEqual({ stuck: [], detour: null });
  });
  test('an iteration a stop cut short before its checks: the detour meant for it goes to the next; no counter moves', () => {
    const p = initialProgress('2');
    const s1 = failureSignature('t', 'boom');
    const o = { stallIterations: 3, canEscalate: false, iteration: 0 };
    trackSignatures(p, [s1], [], 0, false);
    trackStall(p, new Decimal(2), o);
    trackSignatures(p, [s1], [], 1, false);
    trackStall(p, new Decimal(2), o);
    const before = structuredClone(p);
    // Iteration 2 (which was to get the detour) is stopped before its checks.
    passStopped(p, 2);
    expect(p).toEqual({ ...before, detour: { ...before.detour, iteration: 3 } });
    // A detour meant for another iteration stays where it is.
    passStopped(p, 7);
    expect(p.detour?.iteration).toBe(3);
    // Iteration 3 gets the detour; the same failure after it is STUCK, and the stall count goes on from 2.
    expect(trackSignatures(p, [s1], [], 3, false).stuck).toEqual([s1]);
    expect(trackStall(p, new Decimal(2), o).stalledOut).toBe(true);
  });
});

describe('stall and escalation', () => {
  test('stalls out after stall_iterations without a new best residual', () => {
    const p = initialProgress('3');
    const o = { stallIterations: 3, canEscalate: false, iteration: 0 };
    expect(trackStall(p, new Decimal(2), o)).toEqual({ escalate: false, stalledOut: false });
    expect(trackStall(p, new Decimal(2), o).stalledOut).toBe(false);
    expect(trackStall(p, new Decimal('2.5'), o).stalledOut).toBe(false);
    expect(trackStall(p, new Decimal(2), o).stalledOut).toBe(true);
  });
  test('escalates once after two stalled iterations; the stall count goes on (no new window after an escalation)', () => {
    const p = initialProgress('1');
    const o = { stallIterations: 4, canEscalate: true, iteration: 4 };
    trackStall(p, new Decimal(1), o);
    expect(trackStall(p, new Decimal(1), o)).toEqual({ escalate: true, stalledOut: false });
    expect(p.escalated_at).toBe(5);
    expect(trackStall(p, new Decimal(1), o)).toEqual({ escalate: false, stalledOut: false });
    expect(trackStall(p, new Decimal(1), o)).toEqual({ escalate: false, stalledOut: true });
    expect(p.stalled).toBe(4);
  });
  test('DEGA improvement: class rank, then residual, then fail-closed signals', () => {
    const base = { class: 'margin_limited' as const, residual: '2', failClosed: 0 };
    expect(improvement(null, base)).toBe('first');
    expect(improvement(base, { ...base, class: 'candidate_pass_found' })).toBe('better');
    expect(improvement(base, { ...base, class: 'applicability_limited' })).toBe('worse');
    expect(improvement(base, { ...base, residual: '1' })).toBe('better');
    expect(improvement(base, { ...base, failClosed: 1 })).toBe('worse');
    expect(improvement(base, base)).toBe('same');
  });
});

describe('critic verdicts', () => {
  test('a verdict from the report file, with routing.can_further_iteration_help', () => {
    const v = parseVerdict(
      JSON.stringify({
        status: 'UNVERIFIED',
        routing: { can_further_iteration_help: false, reason: 'arch' },
        concerns: [{ file: 'a.ts', line: 3, severity: 'high', recommendation: 'r' }],
      }),
      '',
    );
    expect(v).toEqual({
      state: 'valid',
      verdict: {
        status: 'UNVERIFIED',
        can_further_iteration_help: false,
        reason: 'arch',
        concerns: [{ file: 'a.ts', line: 3, severity: 'high', recommendation: 'r' }],
      },
    });
  });
  test('or the last JSON object printed', () => {
    const v = parseVerdict(null, 'thinking...\n{"status":"VERIFIED","can_further_iteration_help":true,"concerns":[]}\n');
    expect(v).toMatchObject({ state: 'valid', verdict: { status: 'VERIFIED', can_further_iteration_help: true } });
  });
  test.each([
    ['not JSON', '{nope', '', /not JSON/],
    ['bad status', JSON.stringify({ status: 'OK', can_further_iteration_help: true }), '', /status/],
    ['no judgment', JSON.stringify({ status: 'VERIFIED' }), '', /can_further_iteration_help/],
    ['prose only', null, 'looks fine to me', /no JSON verdict/],
  ])('malformed (%s) is recorded, not thrown', (_n, file, stdout, re) => {
    const v = parseVerdict(file, stdout);
    expect(v.state).toBe('malformed');
    expect((v as { error: string }).error).toMatch(re);
  });
  test('no output at all is absent', () => {
    expect(parseVerdict(null, '')).toEqual({ state: 'absent' });
  });
});
