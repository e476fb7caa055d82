// Text the loop did not write (the agent's report, logs and check output quoted in failure texts,
// file names the agent chose, a pull request's text) is rendered into markdown: AGENTS.md, the
// halting report, the job summary, the PR comment. There it must stay text: no HTML (a heading, a
// closed <details>, a remote image), no link or image, no @mention that pings someone, no line
// break that starts a block of its own. `inert` is the one function that makes it so.

/** U+2060 WORD JOINER: invisible, so the text reads as it was written, yet no markup can start at it. */
export const JOINER = '\u2060';

/**
 * `text` as inert markdown/HTML text on one line, still readable: control characters and line
 * breaks become spaces; a joiner goes after a `<` that could open a tag, comment or autolink (a
 * letter, `/`, `!` or `?` next: `>` then closes nothing; `2 < 3` stays as it is), after an `&` that would start a character reference, after an `@` that
 * would start a mention, after the `!` of `![` (no image) and between `](` (no inline link).
 * Idempotent: text made inert stays as it is. Inside a code span or fenced block use only the
 * fence protection (backticks), not this.
 */
export function inert(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex -- control characters and line breaks become spaces
      .replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, ' ')
      .replace(/<(?=[A-Za-z/!?])/g, `<${JOINER}`)
      .replace(/&(?=[#A-Za-z0-9])/g, `&${JOINER}`)
      .replace(/@(?=[A-Za-z0-9_-])/g, `@${JOINER}`)
      .replace(/!\[/g, `!${JOINER}[`)
      .replace(/\]\(/g, `]${JOINER}(`)
  );
}

/** An untrusted text inside a code span: inert there once no backtick can close the span early. */
export function inertCode(text: string): string {
  // eslint-disable-next-line no-control-regex -- one line, as a code span is
  return text.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, ' ').replace(/`/g, "'");
}

/** `items` joined by commas for a log line or a report, at most `max` of them: an agent's ten thousand paths are counted, not listed. */
export function listSome(items: string[], max = 20): string {
  return items.length <= max ? items.join(', ') : `${items.slice(0, max).join(', ')} and ${items.length - max} more`;
}
