// The PR comment: one sticky comment found by a hidden marker and rewritten after every iteration
// (or one comment per iteration, or none). It shows the iteration table, a chart of GLOW and the
// residual (mermaid, rendered by GitHub), the status and links to the run and the evidence artifact.
import { Decimal } from '../engine/decimal.js';
import { apiError, type Octokit } from './github.js';
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
}

/** Long Decimal strings shortened for the eye (the evidence keeps them exact). */
export function shortDecimal(v: string | null): string | null {
  if (v === null || v.length <= 10) return v;
  try {
    return new Decimal(v).toSignificantDigits(6).toString();
  } catch {
    return v;
  }
}

const cell = (v: string | number | null | undefined) => (v === null || v === undefined || v === '' ? '—' : String(v).replace(/\|/g, '\\|').replace(/\n/g, ' '));

function chart(rows: IterationRow[]): string[] {
  const glow = rows.filter((r) => r.total !== null);
  // Decimal strings are plotted as numbers for the picture only; the table keeps the exact values.
  const residual = rows.filter((r) => r.residual !== null && Number.isFinite(Number(r.residual)));
  if (!glow.length && !residual.length) return [];
  const out = ['```mermaid', 'xychart-beta', '  title "GLOW (bars, 0-100) per iteration"', `  x-axis "iteration" [${glow.map((r) => r.iteration).join(', ')}]`, '  y-axis "GLOW" 0 --> 100', `  bar [${glow.map((r) => r.total).join(', ')}]`, '```'];
  if (residual.length) {
    const values = residual.map((r) => Number(r.residual));
    const max = Math.max(...values, 0);
    out.push(
      '```mermaid',
      'xychart-beta',
      '  title "residual per iteration"',
      `  x-axis "iteration" [${residual.map((r) => r.iteration).join(', ')}]`,
      `  y-axis "residual" 0 --> ${max > 0 ? max : 1}`,
      `  line [${values.join(', ')}]`,
      '```',
    );
  }
  return out;
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
      : `phuc-loop · ${v.status}${v.status === 'RUNNING' && last ? ` · iteration ${last.iteration} done` : ''}`;
  const out: string[] = [marker, `### ${head}${v.stopReason ? ` (${v.stopReason})` : ''}`, ''];
  if (v.goal) out.push(`**Goal:** ${v.goal}`, '');
  if (v.detail) out.push(`**Why:** ${v.detail}`, '');
  let rows = v.rows;
  let dropped = 0;
  const table = () => [
    '| iter | G | L | O | W | GLOW | residual | certificate | northstar distance | commit |',
    '|---:|---:|---:|---:|---:|---:|---:|---|---:|---|',
    ...(dropped ? [`| … | | | | | | | ${dropped} earlier iteration(s) in the artifact | | |`] : []),
    ...rows.map(
      (r) =>
        `| ${r.iteration} | ${cell(r.G)} | ${cell(r.L)} | ${cell(r.O)} | ${cell(r.W)} | ${cell(r.total)} | ${cell(shortDecimal(r.residual))} | ${cell(r.certificate)} | ${cell(shortDecimal(r.northstar_distance))} | ${r.commit ? `[\`${r.commit.slice(0, 7)}\`](${v.repoUrl}/commit/${r.commit})` : '—'} |`,
    ),
  ];
  const tail = [
    ...(v.budget ? [`Budget used: ${v.budget}`, ''] : []),
    `[Workflow run](${v.runUrl}) · ${artifactLine(v)}`,
    '',
    `<sub>Add the \`${v.stopLabel}\` label to stop the loop. ${marker === STICKY_MARKER ? 'This comment is rewritten after every iteration.' : ''}</sub>`,
  ];
  let body = '';
  for (;;) {
    body = [...out, ...(rows.length || dropped ? [...table(), ''] : ['_No iteration has finished yet._', '']), ...chart(rows), '', ...tail].join('\n');
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

/** Finds, creates and rewrites the action's comment(s); a failure is a warning, never a stop. */
export class CommentPublisher {
  private id: number | null = null;
  private found = false;
  lastBody: string | null = null;

  constructor(
    private readonly o: { octokit: Octokit; repo: RepoRef; issue: number; mode: CommentMode; warn: (m: string) => void; scrub: (s: string) => string; knownId?: number | null },
  ) {
    if (o.knownId) {
      this.id = o.knownId;
      this.found = true;
    }
  }

  get commentId(): number | null {
    return this.id;
  }

  /** Sticky mode: the existing comment with the marker (one paginated listing per run). */
  private async find(): Promise<void> {
    if (this.found) return;
    this.found = true;
    const comments = await this.o.octokit.paginate(this.o.octokit.rest.issues.listComments, { ...this.o.repo, issue_number: this.o.issue, per_page: 100 });
    const mine = comments.filter((c) => (c.body ?? '').startsWith(STICKY_MARKER));
    const byBot = mine.filter((c) => c.user?.type === 'Bot');
    const pick = (byBot.length ? byBot : mine).at(-1);
    if (pick) this.id = pick.id;
  }

  /** Publishes a body; returns the comment, or null when the mode is off or the API failed. */
  async publish(body: string): Promise<PublishedComment | null> {
    if (this.o.mode === 'off') return null;
    const text = this.o.scrub(body);
    try {
      if (this.o.mode === 'per-iteration') {
        const { data } = await this.o.octokit.rest.issues.createComment({ ...this.o.repo, issue_number: this.o.issue, body: text });
        this.lastBody = text;
        this.id = data.id;
        return { id: data.id, url: data.html_url };
      }
      await this.find();
      if (this.id !== null) {
        try {
          const { data } = await this.o.octokit.rest.issues.updateComment({ ...this.o.repo, comment_id: this.id, body: text });
          this.lastBody = text;
          return { id: data.id, url: data.html_url };
        } catch (e) {
          // Deleted by someone meanwhile: write a new one.
          if ((e as { status?: number }).status !== 404) throw e;
          this.id = null;
        }
      }
      const { data } = await this.o.octokit.rest.issues.createComment({ ...this.o.repo, issue_number: this.o.issue, body: text });
      this.id = data.id;
      this.lastBody = text;
      return { id: data.id, url: data.html_url };
    } catch (e) {
      this.o.warn(`could not write the pull request comment (${apiError(e)}); the loop goes on`);
      return null;
    }
  }
}
