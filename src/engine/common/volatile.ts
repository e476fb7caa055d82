// Volatile text — clock times, dates, durations, pids, temporary paths — becomes a placeholder. One
// normaliser serves every reader of text the loop does not control: agent-written learnings (the
// same evidence must give the same AGENTS.md entry and capsule bytes, and a timestamp would get the
// capsule refused: docs/glossary.md "CNF capsule", "AGENTS.md entry") and failing checks' output
// (the same failure must give the same signature in every iteration and run: "Failure signature").

const MONTH = '(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)';
const WEEKDAY = '(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]{0,6},?\\s+)?';
const UNIT = '(?:ns|µs|us|ms|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?)';

const VOLATILE: [RegExp, string][] = [
  [/(?<![\w.~/-])(?:\/private)?\/(?:(?:var\/)?tmp|var\/folders|dev\/shm)(?:\/[^\s'"`()<>,;]*)?/g, '<tmp-path>'],
  [/\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?(?![\w:])/g, '<time>'],
  [/(?<![\w:.])\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?(?:\s?[AaPp][Mm])?(?![\w:])/g, '<time>'],
  [/\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}\/\d{1,2}\/\d{4}\b/g, '<date>'],
  [new RegExp(`\\b${WEEKDAY}(?:${MONTH}\\.?\\s+\\d{1,2}(?:st|nd|rd|th)?|\\d{1,2}\\s+${MONTH}\\.?),?\\s+\\d{4}\\b`, 'g'), '<date>'],
  // Compound durations too (1m30s): each part is followed by a digit or a word boundary.
  [new RegExp(`(?<![\\w.])(?:\\d+(?:\\.\\d+)?\\s?${UNIT}(?=\\d|(?![\\w])))+`, 'g'), '<duration>'],
  [/\b(pid)\s*[:=#]?\s*\d+\b/gi, '$1 <pid>'],
];

/** `text` with its clock times, dates, durations, pids and temporary paths replaced by `<time>`, `<date>`, `<duration>`, `<pid>`, `<tmp-path>`. */
export function normalizeVolatile(text: string): string {
  let s = text;
  for (const [re, to] of VOLATILE) s = s.replace(re, to);
  return s;
}
