// The PR comment: one sticky comment found by a hidden marker, written as the run starts and
// rewritten at each phase (or one comment per iteration, or none). It shows the iteration table,
// GLOW and the residual in one compact chart with a legend (mermaid, rendered by GitHub), the status
// and links to the run and the evidence artifact.
// Writes are idempotent: a comment is never created twice (see CommentPublisher).
import { setTimeout as sleep } from 'node:timers/promises';
import { count, num, usd } from '../engine/common/display.js';
import { inert, inertCode } from '../engine/common/markdown.js';
import type { BaselineRow, FailingChecks } from './evidence-view.js';
import { apiError, apiStatus, isTransient, type Octokit } from './github.js';
import { pauseNote, type Pause } from './pause.js';
import type { IterationRow } from './progress.js';
import type { RepoRef } from './pull-request.js';

export const STICKY_MARKER = '<!-- phuc-loop:comment -->';
export const ITERATION_MARKER = '<!-- phuc-loop:iteration -->';
export const FINAL_MARKER = '<!-- phuc-loop:final -->';
const ARTIFACT_OPEN = '<!-- phuc-loop:artifact -->';
const ARTIFACT_CLOSE = '<!-- /phuc-loop:artifact -->';
/** GitHub refuses comment bodies over 65,536 characters. */
const MAX_BODY = 65_000;

export type CommentMode = 'sticky' | 'per-iteration' | 'off';

export interface CommentView {
  status: string;
  stopReason?: string | null;
  detail?: string | null;
  goal?: string | null;
  rows: IterationRow[];
  budget?: string | null;
  runUrl: string;
  repoUrl: string;
  artifactName: string;
  stopLabel: string;
  /** Known once the post step uploaded the evidence. */
  artifactUrl?: string | null;
  /** For per-iteration comments: the iteration this comment is about. */
  iteration?: number;
  /** Set when the run ended paused (EXIT_BLOCKED(BACKPRESSURE_SIGNAL)): by what and how to go on. */
  pause?: Pause | null;
  /** While running: the status line of the phase the run is in (progress.ts phaseLine). */
  phase?: string | null;
  /** HEAD judged before any agent (evidence-view.ts): the table's first row. */
  baseline?: BaselineRow | null;
  /** The latest round's failing checks with the first lines of their logs. */
  failing?: FailingChecks | null;
}

/**
 * The failing checks, each with the first lines of its log in a fence no line can close: the
 * output is the checks', not the loop's, so it stays text (no HTML, link or mention).
 */
function failingSection(f: FailingChecks, runUrl: string): string[] {
  const out = [`**Failing checks (${f.round}):** the logs are in the evidence artifact of the [workflow run](${runUrl}).`, ''];
  for (const c of f.checks) {
    out.push(`\`${inertCode(c.id)}\` — \`${inertCode(c.evidence)}\`${c.lines.length ? ', first lines:' : ' (no output)'}`, '');
    if (!c.lines.length) continue;
    // eslint-disable-next-line no-control-regex -- control characters are not the log's text
    const lines = c.lines.map((l) => l.replace(/[\u0000-\u0008\u000b-\u001f\u007f\u2028\u2029]/g, ' '));
    const fence = '`'.repeat(Math.max(3, ...lines.flatMap((l) => [...l.matchAll(/`+/g)].map((m) => m[0].length + 1))));
    out.push(`${fence}text`, ...lines, fence, '');
  }
  if (f.more) out.push(`… and ${f.more} more failing check(s) in the artifact.`, '');
  return out;
}

const cell = (v: string | number | null | undefined) => (v === null || v === undefined || v === '' ? '—' : inert(String(v)).replace(/\|/g, '\\|'));

/** GLOW with its four parts in one cell ("50 (10·5·20·15)"): a comment's width has no room for five columns. */
const glowCell = (r: IterationRow) => `${cell(r.total)} (${[r.G, r.L, r.O, r.W].map(cell).join('·')})`;

/** What the agent reported for the step: cost and tokens ("$0.25 · 1.23M"), a dash for what it did not. */
const costCell = (r: IterationRow) => `${cell(usd(r.cost_usd, '—'))} · ${cell(count(r.tokens, '—'))}`;

/** The chart's colours, named in the legend under it (mermaid's xychart draws no legend itself). */
const GLOW_COLOUR = '#60a5fa';
const RESIDUAL_COLOUR = '#ef4444';

/**
 * One compact chart: GLOW (G + L + O + W, 0–100) as bars and the residual as a line, scaled to the
 * largest residual shown (100 %), with a legend. Decimal strings are plotted as numbers for the
 * picture only; the table and the evidence keep the values.
 */
function chart(rows: IterationRow[]): string[] {
  const shown = rows.filter((r) => r.total !== null || (r.residual !== null && Number.isFinite(Number(r.residual))));
  if (!shown.length) return [];
  const residuals = shown.map((r) => (r.residual === null ? null : Number(r.residual)));
  const largest = Math.max(0, ...residuals.filter((v): v is number => v !== null && Number.isFinite(v)));
  const pct = (v: number | null) => (v === null || !Number.isFinite(v) ? 0 : largest > 0 ? Math.round((v / largest) * 100) : 0);
  const hasResidual = residuals.some((v) => v !== null);
  return [
    '```mermaid',
    `%%{init: {"xyChart": {"width": 480, "height": 200}, "themeVariables": {"xyChart": {"plotColorPalette": "${GLOW_COLOUR}, ${RESIDUAL_COLOUR}"}}}}%%`,
    'xychart-beta',
    `  x-axis "iteration" [${shown.map((r) => r.iteration).join(', ')}]`,
    '  y-axis 0 --> 100',
    `  bar [${shown.map((r) => r.total ?? 0).join(', ')}]`,
    ...(hasResidual ? [`  line [${residuals.map(pct).join(', ')}]`] : []),
    '```',
    `<sub>🟦 bars: GLOW = G + L + O + W, each 0–25 (G growth: criteria newly met · L learning · O output: diff and report · W wins: toward the Northstar)` +
      (hasResidual ? ` · 🟥 line: residual, % of the largest shown (${num(String(largest))}); lower is better` : '') +
      '</sub>',
  ];
}

export function artifactLine(v: Pick<CommentView, 'artifactName' | 'artifactUrl'>): string {
  const inner = v.artifactUrl
    ? `Evidence artifact: [\`${v.artifactName}\`](${v.artifactUrl})`
    : `Evidence artifact: \`${v.artifactName}\` (uploaded when the job ends)`;
  return `${ARTIFACT_OPEN}${inner}${ARTIFACT_CLOSE}`;
}

/** Replaces the artifact line of a rendered body (the post step knows the artifact's id). */
export function withArtifactLink(body: string, name: string, url: string): string {
  const re = new RegExp(`${ARTIFACT_OPEN}[\\s\\S]*?${ARTIFACT_CLOSE}`);
  return re.test(body) ? body.replace(re, artifactLine({ artifactName: name, artifactUrl: url })) : body;
}

export function renderComment(v: CommentView, marker = STICKY_MARKER): string {
  const last = v.rows.at(-1);
  const head =
    v.iteration !== undefined
      ? `phuc-loop · iteration ${v.iteration} · ${v.status}`
      : `phuc-loop · ${v.status}${v.phase ? ` · ${v.phase}` : v.status === 'RUNNING' && last ? ` · iteration ${last.iteration} done` : ''}`;
  const out: string[] = [marker, `### ${head}${v.stopReason ? ` (${v.stopReason})` : ''}`, ''];
  if (v.pause) out.push(pauseNote(v.pause), '');
  // The goal (a pull request's configuration) and the detail (agent output, file names) are not the loop's text: inert.
  if (v.goal) out.push(`**Goal:** ${inert(v.goal)}`, '');
  if (v.detail) out.push(`**Why:** ${inert(v.detail)}`, '');
  let rows = v.rows;
  let dropped = 0;
  const table = () => [
    '| iter | GLOW (G·L·O·W) | residual | certificate | northstar | cost · tokens |',
    '|---:|---:|---:|---|---:|---:|',
    ...(v.baseline ? [`| baseline | — | ${cell(num(v.baseline.residual, '—'))} | ${v.baseline.met}/${v.baseline.criteria} met | — | — |`] : []),
    ...(dropped ? [`| … | | | ${dropped} earlier iteration(s) in the artifact | | |`] : []),
    ...rows.map(
      (r) =>
        `| ${r.commit ? `[${r.iteration}](${v.repoUrl}/commit/${r.commit} "commit ${r.commit.slice(0, 7)}")` : r.iteration} | ${glowCell(r)} | ${cell(num(r.residual, '—'))} | ${cell(r.certificate)} | ${cell(num(r.northstar_distance, '—'))} | ${costCell(r)} |`,
    ),
  ];
  const tail = [
    ...(v.budget ? [`Budget used: ${v.budget}`, ''] : []),
    `[Workflow run](${v.runUrl}) · ${artifactLine(v)}`,
    '',
    `<sub>Add the \`${v.stopLabel}\` label to stop the loop. ${marker === STICKY_MARKER ? 'This comment is rewritten as the run goes on.' : ''}</sub>`,
  ];
  let body = '';
  for (;;) {
    body = [
      ...out,
      ...(rows.length || dropped || v.baseline ? [...table(), ''] : []),
      ...(rows.length || dropped ? [] : ['_No iteration has finished yet._', '']),
      ...(v.failing ? failingSection(v.failing, v.runUrl) : []),
      ...chart(rows),
      '',
      ...tail,
    ].join('\n');
    if (body.length <= MAX_BODY || rows.length <= 1) break;
    const cut = Math.max(1, Math.floor(rows.length / 4));
    dropped += cut;
    rows = rows.slice(cut);
  }
  return body;
}

export interface PublishedComment {
  id: number;
  url: string;
}

interface ListedComment {
  id: number;
  body?: string | null;
  html_url: string;
  user?: { login?: string; type?: string } | null;
}

/** Attempts at creating one comment; between them the comment is looked up (it may exist by then). */
const CREATE_ATTEMPTS = 4;

const isSticky = (body: string) => body.startsWith(STICKY_MARKER);

/**
 * Finds, creates and rewrites the action's comment(s); a failure is a warning, never a stop.
 *
 * A create (POST) is never retried blindly: a 5xx, a dropped connection or a timeout may come after
 * GitHub created the comment, so the comment is looked up (by its marker; by its exact body for
 * per-iteration comments) before any create and again after every failed one, and created again
 * only when it is not there. An update (PATCH) is idempotent: the client retries it with back-off.
 * A lookup that finds more than one sticky comment of the same author keeps the oldest and deletes
 * the others, so there is never more than one.
 */
export class CommentPublisher {
  private id: number | null = null;
  /** Whether the comment's existence is known (a lookup ran, or this publisher wrote it). */
  private known = false;
  lastBody: string | null = null;

  constructor(
    private readonly o: {
      octokit: Octokit;
      repo: RepoRef;
      issue: number;
      mode: CommentMode;
      warn: (m: string) => void;
      scrub: (s: string) => string;
      knownId?: number | null;
      /** Base of the back-off between create attempts (attempt k waits k² × base ms). */
      retryBaseMs?: number;
    },
  ) {
    if (o.knownId) {
      this.id = o.knownId;
      this.known = true;
    }
  }

  get commentId(): number | null {
    return this.id;
  }

  /** Publishes a body; returns the comment, or null when the mode is off or the API failed. */
  async publish(body: string): Promise<PublishedComment | null> {
    if (this.o.mode === 'off') return null;
    const text = this.o.scrub(body);
    try {
      const c = this.o.mode === 'per-iteration' ? await this.create(text, (b) => b === text) : await this.upsert(text);
      this.lastBody = text;
      return c;
    } catch (e) {
      this.o.warn(`could not write the pull request comment (${apiError(e)}); the loop goes on`);
      return null;
    }
  }

  private async upsert(text: string): Promise<PublishedComment> {
    if (!this.known) {
      this.id = (await this.lookup(isSticky))?.id ?? null;
      this.known = true;
    }
    if (this.id !== null) {
      const updated = await this.update(this.id, text);
      if (updated) return updated;
      this.id = null; // deleted by someone meanwhile: write a new one
    }
    const c = await this.create(text, isSticky);
    this.id = c.id;
    // A sticky comment found by the lookup may hold an older body.
    return c.body === text ? c : ((await this.update(c.id, text)) ?? c);
  }

  /** null when the comment no longer exists. */
  private async update(id: number, text: string): Promise<PublishedComment | null> {
    try {
      const { data } = await this.o.octokit.rest.issues.updateComment({ ...this.o.repo, comment_id: id, body: text });
      return { id: data.id, url: data.html_url };
    } catch (e) {
      if (apiStatus(e) === 404) return null;
      throw e;
    }
  }

  /** Creates the comment unless a failed attempt did; `mine` recognises it in a lookup. */
  private async create(text: string, mine: (body: string) => boolean): Promise<PublishedComment & { body: string }> {
    for (let attempt = 1; ; attempt++) {
      try {
        const { data } = await this.o.octokit.rest.issues.createComment({ ...this.o.repo, issue_number: this.o.issue, body: text, request: { retries: 0 } });
        this.known = true;
        return { id: data.id, url: data.html_url, body: text };
      } catch (e) {
        // It may exist all the same: until a lookup says, the next publish looks before it writes.
        this.known = false;
        if (!isTransient(e) || attempt >= CREATE_ATTEMPTS) throw e;
        await sleep(attempt * attempt * (this.o.retryBaseMs ?? 1000));
        const found = await this.lookup(mine);
        this.known = true;
        if (found) return { id: found.id, url: found.html_url, body: found.body ?? '' };
      }
    }
  }

  /** The comment `mine` recognises (sticky: the oldest of its author's, the others deleted). */
  private async lookup(mine: (body: string) => boolean): Promise<ListedComment | undefined> {
    const all: ListedComment[] = await this.o.octokit.paginate(this.o.octokit.rest.issues.listComments, {
      ...this.o.repo,
      issue_number: this.o.issue,
      per_page: 100,
    });
    const matching = all.filter((c) => mine(c.body ?? '')).sort((a, b) => a.id - b.id);
    if (this.o.mode !== 'sticky') return matching.at(0);
    // The action's own comments are written by a bot (the workflow token); a marker in a person's
    // comment only counts when no bot wrote one.
    const byBot = matching.filter((c) => c.user?.type === 'Bot');
    const candidates = byBot.length ? byBot : matching;
    const keep = candidates.at(0);
    for (const dup of candidates.slice(1).filter((c) => c.user?.login === keep?.user?.login)) {
      try {
        await this.o.octokit.rest.issues.deleteComment({ ...this.o.repo, comment_id: dup.id });
      } catch (e) {
        if (apiStatus(e) !== 404) this.o.warn(`could not delete the duplicate pull request comment ${dup.id} (${apiError(e)})`);
      }
    }
    return keep;
  }
}
