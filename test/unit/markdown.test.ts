import { inert, inertCode, JOINER } from '../../src/engine/common/markdown.js';
import { renderEntry, sanitizeAgentText, type Entry } from '../../src/engine/memory/agents-md.js';
import { buildReport } from '../../src/engine/evidence/report.js';
import { renderReportMarkdown } from '../../src/engine/evidence/report-markdown.js';
import { renderComment } from '../../src/action/comment.js';
import { refusalMarkdown } from '../../src/action/summary.js';
import { pauseNote, pauseOf } from '../../src/action/pause.js';

// The attacker's payload: a fake success headline, an early close of <details>, a tracking image, a ping.
const ATTACK =
  '</details></details><h1>✅ phuc-loop: EXIT_CONVERGED (EXACT)</h1><table><tr><td>Certificate</td></tr></table>' +
  '<img src=https://evil.example/x.png> <!-- phuc-loop:end --> ![px](https://evil.example/p.png) [verify](https://evil.example) @octocat @org/team &lt;b&gt; &#60;i&#62;\n# heading';

/** Raw markup an untrusted text must never carry into rendered markdown. */
function expectInert(md: string): void {
  expect(md).not.toMatch(/<\/?(details|h1|table|tr|td|img|summary)\b/i);
  expect(md).not.toMatch(/<!--\s*phuc-loop:end/);
  expect(md).not.toMatch(/!\[px\]\(/);
  expect(md).not.toMatch(/\]\(https:\/\/evil/);
  expect(md).not.toMatch(/(^|[^\w])@(octocat|org\/team)/);
  expect(md).not.toMatch(/&(lt|#60);/);
}

describe('inert: untrusted text in markdown and HTML', () => {
  test('no tag, comment, image, link, mention or character reference survives; the text reads the same', () => {
    const s = inert(ATTACK);
    expectInert(s);
    expect(s).not.toContain('\n');
    // Readable: only invisible joiners were added.
    expect(s.split(JOINER).join('')).toBe(ATTACK.replace('\n', ' '));
  });

  test('idempotent, and plain text is left as it is', () => {
    expect(inert(inert(ATTACK))).toBe(inert(ATTACK));
    const plain = 'criterion tests failed (exit 1) — iter_0/checks/tests.log#abc; residual 3 → 2 & more (a > b); residuals 2 < 3 < 4';
    expect(inert(plain)).toBe(plain);
  });

  test('mentions: handles, teams and emails cannot ping; a lone @ stays', () => {
    for (const m of ['@octocat', 'ping @org/team', 'cc:@a-b', 'mail x@y.z']) expect(inert(m)).not.toMatch(/@[\w-]/);
    expect(inert('a @ b')).toBe('a @ b');
  });

  test('control characters and line breaks become spaces (no block starts inside a line)', () => {
    expect(inert('a\nb\r\nc\u2028d\u0000e')).toBe('a b  c d e');
  });

  test('inside a code span only the backtick is protected', () => {
    expect(inertCode('a`b\nc<d>')).toBe("a'b c<d>");
  });
});

const entry: Entry = {
  iteration: 0,
  tried: [sanitizeAgentText(ATTACK, [])],
  succeeded: [],
  failed: [
    { lane: 'A', text: `GUARDRAIL: protected paths changed and reverted: test/<img src=x>.sh` },
    { lane: 'C', text: sanitizeAgentText(ATTACK, []) },
  ],
  residual_metric: 'failing_criteria',
  residual_value: '1',
  residual_direction: 'STABLE',
  certificate: 'NONE',
  glow: { total: 1, G: 1, L: 0, O: 0, W: 0 },
  glow_delta: null,
  northstar_distance: '1',
  northstar_direction: 'STABLE',
  northstar_distance_delta: null,
  open_questions: [sanitizeAgentText(ATTACK, [])],
  gbb: { Z: 'z', Sigma: 'false (<h1>x</h1>)', tau: 'src/<img src=x>.txt', Gc: 'g', iota: 'i', Rp: 'r' },
};

describe('every place untrusted text is rendered into markdown', () => {
  test('an AGENTS.md entry: agent texts, guardrail file names and GBB fields', () => {
    const text = renderEntry(entry);
    expectInert(text);
    // The entry's own structure is intact: each text stayed on its line.
    expect(text.split('\n').filter((l) => l.startsWith('## ')).length).toBe(1);
  });

  test('the halting report (`phuc-loop report`, the job summary) and its fenced AGENTS.md', () => {
    const r = buildReport({
      plan: null,
      state: null,
      status: 'EXIT_BLOCKED',
      stop_reason: 'GIT_FAILURE',
      iterations: [],
      evRel: 'evidence',
      certificate: null,
      triangle: null,
      phuc: null,
      rung: null,
      extra: { detail: ATTACK, messages: [ATTACK] },
      evidencePointers: [{ path: 'iter_0/a`b.log', sha256: 'a'.repeat(64) }],
    });
    const md = renderReportMarkdown(r, 'user text\n```\n</details><h1>x</h1>\n```\n');
    const [before, fenced] = md.split('<details><summary>AGENTS.md</summary>');
    expectInert(before);
    expect(before).toContain("- `evidence/iter_0/a'b.log`");
    // Inside the fence only the fence is protected: the user's AGENTS.md text cannot close it early.
    expect(fenced.match(/^```/gm)?.length).toBe(2);
    expect(fenced.trimEnd().endsWith('```\n\n</details>')).toBe(true);
    // The same evidence gives the same bytes.
    expect(renderReportMarkdown(r, 'a')).toBe(renderReportMarkdown(r, 'a'));
  });

  test('the PR comment, the refusal summary and the pause note', () => {
    const comment = renderComment({
      status: 'EXIT_BLOCKED',
      detail: ATTACK,
      goal: ATTACK,
      rows: [{ iteration: 0, G: 1, L: 0, O: 0, W: 0, total: 1, residual: '1', certificate: ATTACK, northstar_distance: null, commit: null } as never],
      runUrl: 'https://x/run',
      repoUrl: 'https://x',
      artifactName: 'phuc-loop-evidence',
      stopLabel: 'STOP',
    });
    expectInert(comment.replace(/^<!-- phuc-loop:comment -->/, ''));
    expectInert(refusalMarkdown('EXIT_BLOCKED', 'X', ATTACK, { notes: [], scrub: (s) => s }));
    const pause = pauseOf({
      stopReason: 'BACKPRESSURE_SIGNAL',
      detail: `rate limit ${ATTACK}`,
      signal: null,
      labelReason: null,
      stopLabel: 'STOP',
      trigger: { kind: 'push' } as never,
    });
    expectInert(pauseNote(pause!));
  });
});
