// An agent CLI's error in plain text: its last error line, and whether it says the model service
// rate limited it (usage.ts decides with these where no structure says). Whether the service answers
// at all is never read from the agent's words: the loop probes it (downstream.ts).

/** The longest error text kept, one line. */
export const ERROR_TEXT_MAX = 600;

const NOISE =
  /^(?:at\s|[\]})(,;]+$|\.\.\.|YOLO mode is enabled|Warning: 256-color|Ripgrep is not available|\[STARTUP\]|WARNING: proceeding, even though we could not create PATH aliases)/;
const ERRORISH =
  /error|fail|invalid|denied|refus|cannot|can't|could not|not found|unauthori[sz]ed|forbidden|quota|rate.?limit|exceeded|missing|must|please set/i;

/** The CLI's own last error line in free text: the last error-looking line, else the last line. */
export function lastErrorLine(text: string): string | null {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !NOISE.test(l) && !/^\w+: .*[,{]$|^\w+: \d+,?$/.test(l));
  for (let i = lines.length - 1; i >= 0; i--) if (ERRORISH.test(lines[i])) return lines[i];
  return lines.at(-1) ?? null;
}

export function oneLine(text: string): string {
  const flat = text.replace(/\s*\n\s*/g, ' · ').trim();
  return flat.length > ERROR_TEXT_MAX ? `${flat.slice(0, ERROR_TEXT_MAX - 1)}…` : flat;
}

// Messages seen in the CLIs themselves (runs against a local server answering 429, and the strings
// in their builds) and in the provider APIs' documented error bodies.
const RATE_LIMIT_PATTERNS: readonly RegExp[] = [
  /\brate_limit_(?:error|exceeded)\b/i, // Anthropic error type; OpenAI error code
  /\b(?:usage_limit_reached|insufficient_quota)\b/i, // Codex / OpenAI error codes
  /\bRESOURCE_EXHAUSTED\b/, // Google RPC status (Gemini)
  /\b(?:Terminal|Retryable)QuotaError\b/, // Gemini CLI error classes
  /\boverloaded_error\b|\b529 Overloaded\b/i, // Anthropic 529 ("Repeated 529 Overloaded errors")
  /\b(?:status(?: code)?|http|error|code)["']?\s*[:=]?\s*["']?429\b/i, // "last status: 429", "code": 429
  /\bHTTP\/\d(?:\.\d)?\s+429\b/i,
  /\b(?:rejected|failed)\s*\(429\)/i, // Claude Code "API Error: Request rejected (429)"
  /\b429\b[^\n]{0,40}\btoo many requests\b|\btoo many requests\b[^\n]{0,40}\b429\b/i,
  /\brate[ -]?limits?\s+(?:reached|exceeded)\b/i, // "Rate limit reached for gpt-…", "rate limit exceeded"
  /\bexceed(?:ed|s)?\s+(?:the\s+|your\s+)?rate[ -]?limit/i, // "would exceed the rate limit for your organization"
  /(?<!disk\s)\bquota\s+exceeded\b/i, // not errno EDQUOT "Disk quota exceeded"
  /\bexceeded your current quota\b/i, // OpenAI and Gemini API
  /\byou(?:'|’)?ve (?:hit|reached) your (?:[\w-]+ ){0,2}limit\b/i, // Codex / Claude plan limits
  /\b(?:usage|5-hour|weekly|daily|session) limit reached\b/i,
  /\bselected model is at capacity\b/i, // Codex
  /\bhas rate limited you\b/i, // aider
  /\bRateLimitError\b/, // litellm (aider)
];

export function textSaysRateLimited(text: string): boolean {
  return RATE_LIMIT_PATTERNS.some((re) => re.test(text));
}
