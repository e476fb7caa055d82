// GitHub-flavoured markdown as a person sees it on github.com, in a real headless browser: Debian's
// chromium driven by puppeteer-core, the markdown rendered by marked (GFM) under GitHub's own
// stylesheet (github-markdown-css), and ```mermaid blocks drawn by mermaid, as GitHub draws them.
// Offline: every script and stylesheet is read from node_modules; the page loads nothing.
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Marked, type Tokens } from 'marked';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';

const require = createRequire(import.meta.url);
const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

/** Screenshots are kept here (git-ignored) for a person or CI to look at. */
export const ARTIFACTS = join(dirname(new URL(import.meta.url).pathname), '..', '..', 'test-artifacts');

/** The width of a comment's body in a pull request's conversation on a 1280-pixel-wide window. */
export const COMMENT_WIDTH = 780;

export const chromiumPath = (): string | undefined => [process.env['CHROMIUM_PATH'] ?? '', ...CANDIDATES].find((p) => p && existsSync(p));

/** Why the browser tests cannot run here; never in CI, which installs chromium (.ci/run): there they fail. */
export const browserMissing = (): string | null =>
  chromiumPath() || process.env['CI'] ? null : 'no chromium on this machine (apt-get install chromium; .ci/run installs it)';

export async function launch(): Promise<Browser> {
  const executablePath = chromiumPath();
  if (!executablePath) throw new Error(`chromium is missing: looked for ${CANDIDATES.join(', ')} (and $CHROMIUM_PATH)`);
  // --no-sandbox: the tests run as root, where chromium refuses its own sandbox.
  return puppeteer.launch({ executablePath, headless: true, args: ['--no-sandbox', '--disable-gpu', '--font-render-hinting=none'] });
}

const marked = new Marked({ gfm: true, breaks: false });
marked.use({
  renderer: {
    // GitHub draws a mermaid fence as its diagram; the source goes to mermaid as text.
    code(t: Tokens.Code) {
      if (t.lang !== 'mermaid') return false;
      const text = t.text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
      return `<div class="chart"><pre class="mermaid">${text}</pre></div>`;
    },
  },
});

/**
 * Opens `markdown` rendered as GitHub renders a comment, in a box of `width` pixels, with every
 * mermaid diagram drawn (a diagram mermaid cannot parse throws, naming mermaid's error).
 */
export async function renderMarkdown(browser: Browser, markdown: string, width = COMMENT_WIDTH): Promise<Page> {
  const css = await readFile(require.resolve('github-markdown-css/github-markdown-light.css'), 'utf8');
  const html = await marked.parse(markdown);
  const page = await browser.newPage();
  await page.setViewport({ width: width + 64, height: 800 });
  // Nothing but what is set here reaches the page.
  await page.setRequestInterception(true);
  page.on('request', (r) => void (r.url().startsWith('data:') || r.url() === 'about:blank' ? r.continue() : r.abort()));
  await page.setContent(
    `<!doctype html><html><head><meta charset="utf-8"><style>${css}
body { margin: 0; padding: 16px 32px; background: #fff; }
.markdown-body { box-sizing: border-box; width: ${width}px; padding: 16px; border: 1px solid #d0d7de; border-radius: 6px; }
</style></head><body><article class="markdown-body">${html}</article></body></html>`,
  );
  await page.addScriptTag({ path: join(dirname(require.resolve('mermaid/package.json')), 'dist', 'mermaid.min.js') });
  const error = await page.evaluate(async () => {
    const m = (globalThis as unknown as { mermaid: { initialize(c: object): void; run(o: object): Promise<void> } }).mermaid;
    m.initialize({ startOnLoad: false, theme: 'default' });
    try {
      await m.run({ querySelector: 'pre.mermaid', suppressErrors: false });
      return null;
    } catch (e) {
      return e instanceof Error ? e.message : String(e);
    }
  });
  if (error) throw new Error(`mermaid could not draw the chart: ${error}`);
  return page;
}

/** A PNG of the rendered markdown, kept under test-artifacts/; returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  const box = await page.$('.markdown-body');
  if (!box) throw new Error('nothing rendered');
  await box.screenshot({ path });
  return path;
}
