// The loop's section of AGENTS.md: between its two markers, put into the user's file with every
// other marker made plain text, so the file holds exactly one loop section (memory/agents-md.ts
// renders what goes inside).

export const BEGIN = '<!-- phuc-loop:begin — written by phuc-loop; edits inside this section are replaced every iteration -->';
export const END = '<!-- phuc-loop:end -->';
const BEGIN_RE = /<!-- phuc-loop:begin[^>]*-->/;

/**
 * Anything a reader could take for one of the section's markers: any case, spacing or extra dashes
 * (`<!---- PHUC-LOOP:END --->`), whatever follows the word up to the comment's end.
 */
const MARKER_RE = /<!--[\s-]*phuc-loop\s*:\s*(begin|end)\b[\s\S]*?-->/gi;

interface Marker {
  kind: 'begin' | 'end';
  at: number;
  end: number;
}

function markersOf(text: string): Marker[] {
  return [...text.matchAll(MARKER_RE)].map((m) => ({ kind: m[1].toLowerCase() as Marker['kind'], at: m.index, end: m.index + m[0].length }));
}

/**
 * Where the loop's section lies: exactly the section it wrote last when that is still there;
 * otherwise from the first begin marker to the end marker that closes it (nested pairs counted),
 * or to the last end marker when none balances it. Null when there is no begin with an end after it.
 */
function sectionSpan(text: string, previous: string | undefined): { at: number; end: number } | null {
  if (previous !== undefined) {
    const written = `${BEGIN}\n${previous.trimEnd()}\n${END}`;
    const at = text.indexOf(written);
    if (at >= 0) return { at, end: at + written.length };
  }
  const markers = markersOf(text);
  const first = markers.findIndex((m) => m.kind === 'begin');
  if (first < 0) return null;
  let depth = 0;
  let lastEnd: Marker | undefined;
  for (const m of markers.slice(first)) {
    if (m.kind === 'begin') depth++;
    else {
      depth--;
      lastEnd = m;
      if (depth === 0) break;
    }
  }
  return lastEnd ? { at: markers[first].at, end: lastEnd.end } : null;
}

/**
 * Text outside the section with every marker made plain text: a section the agent (or a pull
 * request) forged elsewhere in the file is no longer a loop section to the loop or to any reader,
 * and the words around it stay as they were. Until nothing changes: removing one marker can join
 * the pieces of another (`<!<!-- phuc-loop:end -->-- phuc-loop:end -->`).
 */
function neutralise(text: string): string {
  for (let prev = ''; prev !== text;) {
    prev = text;
    text = text.replace(MARKER_RE, (_m, kind: string) => `(a phuc-loop ${kind.toLowerCase()} marker the loop did not write)`);
  }
  return text;
}

/**
 * Puts the section into the user's AGENTS.md, replacing only the loop's section (see sectionSpan;
 * `previous` is the section the loop wrote last) and neutralising every other marker, so the file
 * holds exactly one loop section.
 */
export function mergeSection(existing: string | null, section: string, previous?: string): string {
  const block = `${BEGIN}\n${section.trimEnd()}\n${END}\n`;
  if (existing === null || existing.trim() === '') return block;
  const span = sectionSpan(existing, previous);
  if (span) {
    const after = existing.slice(span.end).replace(/^\r?\n/, '');
    return neutralise(existing.slice(0, span.at)) + block + neutralise(after);
  }
  return neutralise(existing).replace(/\s*$/, '\n\n') + block;
}

/** The text between the markers, or null when the section is missing. */
export function extractSection(text: string): string | null {
  const begin = BEGIN_RE.exec(text);
  if (!begin) return null;
  const endAt = text.indexOf(END, begin.index);
  if (endAt < 0) return null;
  return text
    .slice(begin.index + begin[0].length, endAt)
    .replace(/^\n/, '')
    .replace(/\n$/, '');
}
