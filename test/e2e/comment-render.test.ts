// The PR comment as a person sees it: rendered the way GitHub renders it (GFM under GitHub's
// stylesheet, the chart drawn by mermaid) in a real headless chromium at a comment's width. The
// screenshots are kept under test-artifacts/ to look at.
import type { Browser, Page } from 'puppeteer-core';
import { renderComment, type CommentView } from '../../src/action/comment.js';
import type { IterationRow } from '../../src/action/progress.js';
import { browserMissing, COMMENT_WIDTH, launch, renderMarkdown, screenshot } from '../helpers/browser.js';

const missing = browserMissing();
let browser: Browser;
beforeAll(async () => {
  if (!missing) browser = await launch();
}, 60_000);
afterAll(async () => browser?.close());

// The exact Decimal strings the evidence holds: 40 digits and more, as a residual or a Northstar distance can be.
const row = (iteration: number, over: Partial<IterationRow>): IterationRow => ({
  iteration,
  G: 10,
  L: 5,
  O: 20,
  W: 15,
  total: 50,
  certificate: 'NONE',
  residual: '1234.567890123456789012345678901234567891',
  northstar_distance: '0.3333333333333333333333333333333333333333',
  cost_usd: '0.2512345678901234567890',
  tokens: 1_234_567,
  commit: 'a'.repeat(40),
  ...over,
});

const view = (over: Partial<CommentView>): CommentView => ({
  status: 'RUNNING',
  phase: "iteration 3: the checks run on the agent's change",
  goal: 'Make the parser accept every example in docs/grammar.md',
  rows: [
    row(0, { residual: '98765432109876543210987654321098765432.123', total: 35 }),
    row(1, { residual: '1234.567890123456789012345678901234567891', total: 60, G: 20 }),
    row(2, { residual: '0.000012345678901234567890123456789012345678', total: 85, G: 25, W: 25, certificate: 'BACKPRESSURE' }),
  ],
  baseline: { residual: '123456789012345678901234567890123456789012.5', met: 1, criteria: 4 },
  failing: {
    round: 'iteration 2',
    checks: [
      {
        id: 'parser-examples',
        evidence: 'iter_2/checks/parser-examples.log',
        lines: ['FAIL test/grammar.test.ts > example 7 (nested lists)', `expected ${'9'.repeat(150)}`, '  at parse (src/parser.ts:120:11)'],
      },
    ],
    more: 0,
  },
  budget: '$0.75 / $5.00, 3 / 10 iterations',
  runUrl: 'https://github.com/o/r/actions/runs/1',
  repoUrl: 'https://github.com/o/r',
  artifactName: 'phuc-loop-evidence-pr-7',
  stopLabel: 'STOP',
  ...over,
});

// The page's DOM as far as the measurements use it: the project's TypeScript has no DOM library
// (its code runs on Node), and these callbacks run in the browser.
interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
  width: number;
  height: number;
}
interface El {
  textContent: string | null;
  scrollWidth: number;
  clientWidth: number;
  getBoundingClientRect(): Box;
  getAttribute(name: string): string | null;
  querySelector(selector: string): El | null;
  querySelectorAll(selector: string): Iterable<El> & { length: number };
}
declare const document: El;

/** What a person sees of the rendered comment, measured in the page. */
async function measure(page: Page) {
  return page.evaluate(() => {
    const body = document.querySelector('.markdown-body')!;
    const inner = body.getBoundingClientRect();
    const visible = (e: El | null) => {
      const r = e?.getBoundingClientRect();
      return !!r && r.width > 0 && r.height > 0 && r.left >= inner.left && r.right <= inner.right + 0.5;
    };
    const table = body.querySelector('table')!;
    const svg = body.querySelector('.chart svg');
    const legend = [...body.querySelectorAll('sub')].find((s) => s.textContent?.includes('GLOW ='));
    const firstRow = table.querySelector('tbody tr');
    return {
      // GitHub's tables scroll sideways inside the comment when too wide: that is what must not happen.
      tableScrolls: table.scrollWidth > table.clientWidth + 1,
      tableFits: visible(table),
      header: [...table.querySelectorAll('thead th')].map((c) => c.textContent),
      firstRow: firstRow ? [...firstRow.querySelectorAll('td')].map((c) => c.textContent) : [],
      firstRowVisible: visible(firstRow),
      longestCell: Math.max(...[...table.querySelectorAll('td')].map((c) => (c.textContent ?? '').length)),
      chart: svg
        ? {
            fits: visible(svg),
            height: svg.getBoundingClientRect().height,
            bars: svg.querySelectorAll('.bar-plot-0 rect').length,
            lines: svg.querySelectorAll('.line-plot-1 path').length,
            colours: [
              ...[...svg.querySelectorAll('.bar-plot-0 rect')].map((e) => e.getAttribute('fill')),
              ...[...svg.querySelectorAll('.line-plot-1 path')].map((e) => e.getAttribute('stroke')),
            ],
            bottom: svg.getBoundingClientRect().bottom,
          }
        : null,
      legend: legend ? { visible: visible(legend), text: legend.textContent, top: legend.getBoundingClientRect().top } : null,
      // A block that scrolls sideways hides part of itself.
      scrollingBlocks: [...body.querySelectorAll('pre, p, li')].filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent?.slice(0, 40)),
      bodyOverflows: body.scrollWidth > body.clientWidth + 1,
    };
  });
}

(missing ? test.skip : test)(
  `the running comment renders at a glance in a real browser: chart with its legend, the baseline row, a table that fits${missing ? ` [skipped: ${missing}]` : ''}`,
  async () => {
    const page = await renderMarkdown(browser, renderComment(view({})));
    await screenshot(page, 'comment-running');
    const m = await measure(page);
    expect(m.header).toEqual(['iter', 'GLOW (G·L·O·W)', 'residual', 'certificate', 'northstar', 'cost · tokens']);
    // The baseline is the table's first row, on screen, its 42-digit residual rounded to a readable width.
    expect(m.firstRow.slice(0, 4)).toEqual(['baseline', '—', '1.235e+41', '1/4 met']);
    expect(m.firstRowVisible).toBe(true);
    expect(m.longestCell).toBeLessThanOrEqual(20);
    expect(m.tableScrolls).toBe(false);
    expect(m.tableFits).toBe(true);
    // One compact chart: three bars and the residual's line in the legend's colours, inside the comment, the legend under it.
    expect(m.chart).toMatchObject({ fits: true, bars: 3, lines: 1 });
    expect(m.chart!.height).toBeLessThanOrEqual(260);
    expect(new Set(m.chart!.colours.map((c) => c?.toLowerCase()))).toEqual(new Set(['#60a5fa', '#ef4444']));
    expect(m.legend?.visible).toBe(true);
    expect(m.legend!.top).toBeGreaterThanOrEqual(m.chart!.bottom - 1);
    expect(m.legend!.text).toMatch(/bars: GLOW = G \+ L \+ O \+ W.*line: residual/);
    // The failing check's long log line wraps or scrolls inside its own block, never the comment.
    expect(m.bodyOverflows).toBe(false);
    expect(m.scrollingBlocks.every((t) => t?.startsWith('FAIL test/grammar.test.ts'))).toBe(true);
    await page.close();
  },
  60_000,
);

(missing ? test.skip : test)(
  `the final comment of a long run renders in a real browser within the comment's width${missing ? ` [skipped: ${missing}]` : ''}`,
  async () => {
    const rows = Array.from({ length: 30 }, (_, i) => row(i, { total: (i * 7) % 101, residual: String(10 ** 6 / (i + 1)) }));
    const page = await renderMarkdown(
      browser,
      renderComment(
        view({
          status: 'EXIT_CONVERGED',
          stopReason: 'EXACT',
          phase: null,
          failing: null,
          rows,
          artifactUrl: 'https://github.com/o/r/actions/runs/1/artifacts/9',
        }),
      ),
    );
    await screenshot(page, 'comment-final');
    const m = await measure(page);
    expect(m.firstRow[0]).toBe('baseline');
    expect(m.tableScrolls).toBe(false);
    expect(m.bodyOverflows).toBe(false);
    expect(m.chart).toMatchObject({ fits: true, bars: 30, lines: 1 });
    expect(m.legend?.visible).toBe(true);
    expect(m.scrollingBlocks).toEqual([]);
    expect(await page.evaluate((w) => document.querySelector('.markdown-body')!.getBoundingClientRect().width <= w, COMMENT_WIDTH)).toBe(true);
    await page.close();
  },
  60_000,
);
