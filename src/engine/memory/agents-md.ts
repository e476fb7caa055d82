// AGENTS.md (SPEC §2): the loop writes one lane-typed entry (N.1–N.6) per iteration inside a
// delimited section and leaves everything the user wrote outside it untouched. The section is a
// pure function of the evidence (each entry is kept verbatim in iter_N/agents_md_entry.md), so an
// agent's edit inside it is simply overwritten, and Lane A lines are never rewritten: compaction
// moves old iterations to witness lines that link the verbatim entry by sha256, then to a Lane A ledger.
import { encode, isWithinTokenLimit } from 'gpt-tokenizer/encoding/cl100k_base';
import { inert } from '../common/markdown.js';
import { normalizeVolatile } from '../common/volatile.js';
import { laneALines, ledger } from './lane-a.js';

export { BEGIN, END, extractSection, mergeSection } from './section-markers.js';
export const COMPACTION_LIMIT_TOKENS = 8000;
/** Iterations always kept in full by compaction (docs/glossary.md "Compaction"). */
const KEEP_FULL = 3;

export type Direction = 'IMPROVING' | 'STABLE' | 'DIVERGING';
export type NorthstarDirection = 'IMPROVING' | 'STABLE' | 'DRIFTING';

export interface Fact {
  lane: 'A' | 'B' | 'C';
  text: string;
}

export interface Entry {
  iteration: number;
  tried: string[];
  succeeded: Fact[];
  failed: Fact[];
  residual_metric: string;
  residual_value: string;
  residual_direction: Direction;
  certificate: string;
  /** W and the total are null when unknown (no residual), written as such, never as 0. */
  glow: { total: number | null; G: number; L: number; O: number; W: number | null };
  glow_delta: number | null;
  northstar_distance: string;
  northstar_direction: NorthstarDirection;
  northstar_distance_delta: string | null;
  open_questions: string[];
  gbb: { Z: string; Sigma: string; tau: string; Gc: string; iota: string; Rp: string };
}

export interface Metadata {
  goal: string;
  R_p: string | null;
  max_iterations: number;
  rung_target: number;
  northstar: { id: string; target: string }[];
}

const ABSOLUTE_HINTS = ['as we discussed', 'as discussed earlier', 'as mentioned before', 'like we said', 'as previously discussed'];

/** A temporary directory the loop's own hosts use (tmpdir() on Linux and macOS runners). */
const TEMP_ROOT = /^(?:\/private)?\/(?:var\/)?tmp\/?$|^\/dev\/shm\/?$/;
/**
 * Agent-written text is data: one line, no markup that could open a heading or close the section,
 * inert in markdown and HTML (see inert: no tag, image, link or @mention), no host paths, no
 * volatile text, no references to a conversation the next agent never saw; bounded in length.
 */
export function sanitizeAgentText(text: unknown, hostPaths: readonly string[], max = 300): string {
  let s = typeof text === 'string' ? text : (JSON.stringify(text) ?? '');
  s = s
    // eslint-disable-next-line no-control-regex -- control characters in agent text become spaces
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  // Until nothing changes: one pass over "<!<!---- x --->->" would leave a marker behind.
  for (let prev = ''; prev !== s;) {
    prev = s;
    s = s.replace(/<!--|-->/g, '');
  }
  s = s.replace(/^#+\s*/, '');
  // Longest first, so a path inside another host path keeps its own relative rest; a temporary
  // root is left to the <tmp-path> rule, which takes the whole (volatile) path.
  for (const p of [...hostPaths].sort((a, b) => b.length - a.length)) if (p.length > 1 && !TEMP_ROOT.test(p)) s = s.split(p).join('<host-path>');
  // Volatile text (clock times, dates, durations, pids, temporary paths): the same normaliser as failure signatures.
  s = normalizeVolatile(s);
  for (const h of ABSOLUTE_HINTS) s = s.replace(new RegExp(h, 'gi'), '[reference to an unseen conversation removed]');
  return inert(s.length > max ? s.slice(0, max - 1) + '…' : s);
}

export function sanitizeList(items: unknown, hostPaths: readonly string[], maxItems = 10): string[] {
  if (!Array.isArray(items)) return [];
  return items
    .slice(0, maxItems)
    .map((t) => sanitizeAgentText(t, hostPaths))
    .filter(Boolean);
}

// Every text of an entry may quote what the loop did not write (a file name the agent chose in a
// guardrail line, a failing check's output in a failure signature): inert, on one line.
const bullet = (items: string[], empty: string) => (items.length ? items.map((t) => `- ${inert(t)}`) : [`- ${empty}`]);
const facts = (items: Fact[], empty: string) => (items.length ? items.map((f) => `- [${f.lane}] ${inert(f.text)}`) : [`- ${empty}`]);

export function renderEntry(e: Entry): string {
  const g = e.glow;
  const gbb = Object.fromEntries(Object.entries(e.gbb).map(([k, v]) => [k, inert(v)])) as Entry['gbb'];
  return [
    `## Iteration ${e.iteration}`,
    '',
    '### N.1 What Was Tried [Lane C — guidance only]',
    ...bullet(
      e.tried.map((t) => `[C] ${t}`),
      '[C] (the agent reported nothing)',
    ),
    '',
    '### N.2 What Succeeded [Lane A or B]',
    ...facts(e.succeeded, '(nothing verified)'),
    '',
    '### N.3 What Failed [Lane A — hard failure; Lane C — soft failure mode]',
    ...facts(e.failed, '(no failure)'),
    '',
    '### N.4 Residual / Distance-to-Goal / GLOW',
    `- residual_metric: ${e.residual_metric}`,
    `- residual_value: ${e.residual_value}`,
    `- residual_direction: ${e.residual_direction}`,
    `- certificate: ${e.certificate}`,
    `- glow_score: {total: ${g.total ?? 'unknown'}, G: ${g.G}, L: ${g.L}, O: ${g.O}, W: ${g.W ?? 'unknown'}}`,
    `- glow_delta: ${e.glow_delta === null ? 'n/a (first iteration)' : `${e.glow_delta >= 0 ? '+' : ''}${e.glow_delta}`}`,
    `- northstar_distance: ${e.northstar_distance}`,
    `- northstar_distance_delta: ${e.northstar_distance_delta ?? 'n/a (first iteration)'}`,
    `- northstar_direction: ${e.northstar_direction}`,
    '',
    '### N.5 Open Questions for Next Iteration [Lane C]',
    ...bullet(e.open_questions, '(none)'),
    '',
    '### N.6 GBB Operator Check [Lane A]',
    `- Z (Boundary): capsule_scope = ${gbb.Z}`,
    `- Σ (Symmetry): invariants_held = ${gbb.Sigma}`,
    `- τ (Serialization): artifacts_written = ${gbb.tau}`,
    `- Gc (Compression): agents_md_size_delta = ${gbb.Gc}`,
    `- ι (Irreducibility): artifacts_produced = ${gbb.iota}`,
    `- Rp (Resolution): residual_vs_Rp = ${gbb.Rp}`,
    '',
  ].join('\n');
}

/** The open questions of a rendered entry (N.5), which feed the next capsule (Phuc Test condition 4). */
export function openQuestionsOf(entryText: string): string[] {
  const m = /### N\.5[^\n]*\n([\s\S]*?)\n\n### N\.6/.exec(entryText);
  if (!m) return [];
  return m[1]
    .split('\n')
    .map((l) => l.replace(/^- /, ''))
    .filter((l) => l && l !== '(none)');
}

function field(entryText: string, name: string): string {
  return new RegExp(`^- ${name}: (.*)$`, 'm').exec(entryText)?.[1] ?? '?';
}

const witnessCache = new Map<string, string[]>();

/** One witness line for a compacted iteration, plus its Lane A lines verbatim (entries never change: cached by link). */
export function witness(iteration: number, entryText: string, link: string): string[] {
  const key = `${iteration} ${link}`;
  const hit = witnessCache.get(key);
  if (hit) return hit;
  const lines = witnessOf(iteration, entryText, link);
  if (witnessCache.size > 50_000) witnessCache.clear();
  witnessCache.set(key, lines);
  return lines;
}

function witnessOf(iteration: number, entryText: string, link: string): string[] {
  const glow = /total: (\d+), G: (\d+), L: (\d+), O: (\d+), W: (\d+)/.exec(field(entryText, 'glow_score'));
  const head =
    `- [iter ${iteration}] certificate ${field(entryText, 'certificate')} · residual ${field(entryText, 'residual_value')} ` +
    `(${field(entryText, 'residual_direction')}) · GLOW ${glow ? `${glow[1]} (G${glow[2]} L${glow[3]} O${glow[4]} W${glow[5]})` : '?'} · ` +
    `northstar ${field(entryText, 'northstar_distance')} · entry ${link}`;
  const lines = entryText.split('\n');
  const laneA = lines.filter((l) => l.startsWith('- [A] '));
  // The GBB operator check (N.6) is a structural invariant: compaction keeps it (docs/glossary.md "Compaction").
  const at = lines.findIndex((l) => l.startsWith('### N.6'));
  const n6 = at < 0 ? [] : lines.slice(at + 1).filter((l) => l.startsWith('- '));
  return [head, ...[...laneA, ...n6].map((l) => '  ' + l)];
}

/** Text only: an agent's `<|endoftext|>` is counted as the characters it is, not refused as a special token. */
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

export function countTokens(text: string): number {
  return encode(text, PLAIN_TEXT).length;
}

/**
 * Whether text holds more than `limit` cl100k tokens. Its lines' cached counts bound it from above
 * first: only a text near the limit is tokenized whole (tokenizing stops once past it).
 */
export function overTokenLimit(text: string, limit = COMPACTION_LIMIT_TOKENS): boolean {
  const rendered = sectionBounds.get(text);
  if (rendered !== undefined && rendered <= limit) return false;
  return estimate(text.split('\n')) > limit && isWithinTokenLimit(text, limit, PLAIN_TEXT) === false;
}

// The bounds renderSection computed for the sections it rendered (by whole blocks, tighter than a
// line-by-line bound): the capsule check of the same text then costs no tokenizing. The latest few only.
const sectionBounds = new Map<string, number>();
function rendered(section: Section): Section {
  if (sectionBounds.size >= 4) sectionBounds.delete(sectionBounds.keys().next().value!);
  sectionBounds.set(section.text, section.tokens);
  return section;
}

// Entries and witness lines never change once written: their counts are cached, so compaction
// costs the tokenizer only the new iteration's text.
const tokenCache = new Map<string, number>();
function tokensOf(text: string): number {
  let n = tokenCache.get(text);
  if (n === undefined) {
    n = countTokens(text);
    if (tokenCache.size > 50_000) tokenCache.clear();
    tokenCache.set(text, n);
  }
  return n;
}
/** An upper bound of the tokens of parts joined by newlines (a join can add a token, never remove two). */
const estimate = (parts: string[]) => parts.reduce((sum, p) => sum + tokensOf(p) + 2, 0);

export interface SectionInput {
  meta: Metadata;
  /** Rendered entries, oldest first, with their evidence links. */
  entries: { iteration: number; text: string; link: string }[];
}

export interface Section {
  text: string;
  /** An upper bound of the section's cl100k tokens. */
  tokens: number;
  /** Iterations shown as witness lines (with Lane A lines), and those whose Lane A lines only are kept, in the ledger. */
  witnessed: number[];
  archived: number[];
  compaction: string | null;
}

function renderMeta(m: Metadata): string {
  return [
    '# AGENTS.md — Loop Learnings Log',
    '<!-- Generated by phuc-loop v2. Lane A lines link the evidence file (path#sha256) that backs them. -->',
    '',
    '## Loop Metadata',
    `- goal: ${inert(m.goal.replace(/\s+/g, ' ').trim())}`,
    `- R_p: ${m.R_p ?? 'n/a (EXACT only)'}`,
    `- max_iterations: ${m.max_iterations}`,
    `- rung_target: ${m.rung_target}`,
    `- northstar_metrics: ${inert(m.northstar.map((n) => `${n.id} → ${n.target}`).join(', '))}`,
    '- seed_checksum: 11517961089409',
    '',
  ].join('\n');
}

/** Room for what compaction adds besides the kept text: the [COMPACTION] line, the headings. */
const COMPACTION_OVERHEAD_TOKENS = 160;

/**
 * Renders the loop's section within the token limit, whatever the number and size of the
 * entries: past the limit, as many of the latest three iterations as fit stay in full; the
 * iterations before them (and a latest one too large to fit) become witness lines that keep their
 * Lane A and N.6 lines, newest first; of the oldest, when even those do not fit, only the Lane A
 * lines stay, in a ledger (memory/lane-a.ts): hard facts are never compacted away. A ledger that
 * alone exceeds the limit leaves the section over it, and the capsule is refused rather than a fact dropped.
 */
export function renderSection(input: SectionInput, limit = COMPACTION_LIMIT_TOKENS): Section {
  const meta = renderMeta(input.meta);
  const blocks = input.entries.map(blocksOf);
  const plainTokens = blocks.reduce((sum, b) => sum + b.full.tokens, estimate([meta]));
  if (plainTokens <= limit)
    return rendered({ text: [meta, ...blocks.map((b) => b.full.text)].join('\n'), tokens: plainTokens, witnessed: [], archived: [], compaction: null });

  let budget = limit - estimate([meta]) - COMPACTION_OVERHEAD_TOKENS;
  // Lane A is never compacted away: room for the ledger of every iteration is kept first (the
  // ledger of the iterations it ends up holding, a prefix, is no larger).
  budget -= estimate(ledger(blocks));
  const fits = (part: Counted) => {
    if (part.tokens > budget) return false;
    budget -= part.tokens;
    return true;
  };
  // Entries from firstFull on stay in full.
  let firstFull = blocks.length;
  while (firstFull > Math.max(0, blocks.length - KEEP_FULL) && fits(blocks[firstFull - 1].full)) firstFull--;
  let cut = firstFull;
  // Newest first: the most recent witness lines are the most useful to the next agent.
  while (cut > 0 && fits(blocks[cut - 1].witness())) cut--;
  const keep = blocks.slice(firstFull).map((b) => b.full);
  const build = (cut: number) => {
    const ledgered = input.entries.slice(0, cut).map((e) => e.iteration);
    const body: Counted[] = [counted('## Compacted iterations'), counted('')];
    if (ledgered.length)
      body.push(
        counted(`### Lane A facts of iterations ${ledgered[0]}–${ledgered[ledgered.length - 1]} (their witness lines are in compaction.log)`),
        ...ledger(blocks.slice(0, cut)).map(counted),
        counted(''),
      );
    body.push(...blocks.slice(cut, firstFull).map((b) => b.witness()));
    const around = [counted(meta), counted(''), ...body, counted(''), ...keep];
    const compaction =
      `[COMPACTION] Distilled iterations ${input.entries[0].iteration}-${input.entries[firstFull - 1].iteration} to ${firstFull - cut} witness lines` +
      `${ledgered.length ? ` and the Lane A facts of ${ledgered.length} iterations` : ''}. ` +
      `Original: ${blocks.reduce((sum, b) => sum + b.full.lines, linesOf(meta))} lines → ${around.reduce((sum, p) => sum + p.lines, 1)} lines.`;
    const parts = [around[0], counted(compaction), ...around.slice(1)];
    return { parts, ledgered, compaction, tokens: parts.reduce((sum, p) => sum + p.tokens, 0) };
  };
  let made = build(cut);
  // The reservation is a bound of the ledger's tokens, not of its lines' joins: fold one more witness when needed.
  while (made.tokens > limit && cut < firstFull) made = build(++cut);
  return rendered({
    text: made.parts.map((p) => p.text).join('\n'),
    tokens: made.tokens,
    witnessed: input.entries.slice(cut, firstFull).map((e) => e.iteration),
    archived: made.ledgered,
    compaction: made.compaction,
  });
}

/** A part of the section with its line count and its share of the token bound (see estimate). */
interface Counted {
  text: string;
  lines: number;
  tokens: number;
}

const linesOf = (text: string) => {
  let n = 1;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) n++;
  return n;
};
const counted = (text: string): Counted => ({ text, lines: linesOf(text), tokens: estimate([text]) });

type Logged = SectionInput['entries'][number];
interface Blocks {
  iteration: number;
  text: string;
  laneA: string[];
  full: Counted;
  witness: () => Counted;
}
// An entry's block in full and as witness lines, counted once: entries never change once written,
// so rendering the section costs no more at iteration 200 than at iteration 1 (no walk over every
// entry's text, no tokenizing but the new entry's).
const blocks = new WeakMap<Logged, Blocks>();
function blocksOf(e: Logged): Blocks {
  const known = blocks.get(e);
  if (known && known.text === e.text) return known;
  let w: Counted | undefined;
  const made: Blocks = {
    iteration: e.iteration,
    text: e.text,
    laneA: laneALines(e.text),
    full: counted('---\n\n' + e.text),
    witness: () => (w ??= counted(witness(e.iteration, e.text, e.link).join('\n'))),
  };
  blocks.set(e, made);
  return made;
}
