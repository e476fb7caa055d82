// Agent presets: how each coding-agent CLI is run non-interactively, which environment additions it
// gets, how the command line is recorded, and which files of its own it leaves in the repository.
//
// Every flag was checked against the installed CLI (`--help`, its bundled source) and by running it
// against a scripted local stand-in of its provider API (test/presets/, `npm run test:presets`):
// - Claude Code 2.1.330: `-p` reads the prompt from stdin; `--output-format stream-json --verbose`
//   prints one JSON event per line as it works (tool calls and API retries while it runs, a final
//   `result` with cost and usage), which keeps the agent visibly alive for the idle limit;
//   `--dangerously-skip-permissions` (refused as root unless IS_SANDBOX=1); `--max-turns`; `--model`.
//   Claude Code loads AGENTS.md as project instructions when there is no CLAUDE.md, and through
//   `@AGENTS.md` imports: `--settings {"claudeMdExcludes":["**/AGENTS.md"]}` keeps the loop's memory
//   out (CLAUDE.md still loads); CLAUDE_CODE_DISABLE_AUTO_MEMORY=1 turns off its own memory across
//   sessions (~/.claude/projects/…/memory), which would carry one iteration into the next.
// - Codex CLI 0.169.0: `exec --json` (JSONL events), prompt `-` from stdin after `--`; `--sandbox
//   workspace-write` (`--full-auto` is rejected); `--skip-git-repo-check`; `-m/--model`. Codex puts
//   every AGENTS.md from the git root down into its instructions: `-c project_doc_max_bytes=0` turns
//   that off. By default it waits for the network forever, printing "Reconnecting... waiting for
//   network" (so it never looks idle): `-c features.unbounded_connection_retries=false` makes it
//   give up after 5 attempts with its error. Repeating a flag is an error (clap), so a flag the user
//   passes in `args` replaces ours.
// - Gemini CLI 0.61.0: `-p ""` selects headless mode with the prompt from stdin; `-o stream-json`
//   (events as it works, a final `result` with stats); `-y/--yolo`; `--skip-trust` (an untrusted
//   folder fails headless); `-m/--model`. It loads GEMINI.md files (settings `context.fileName`),
//   not AGENTS.md, so the loop's memory is read once unless the user's settings add AGENTS.md.
// - aider (Python, not on npm; aider.chat/docs/config/options.html, Aider-AI/aider args.py):
//   `--message-file F`, `--yes-always`, `--model`, `--file` (a file it may edit: the report file;
//   aider cannot read environment variables and runs no shell without asking), `--no-auto-commits`,
//   `--no-dirty-commits` (the loop commits), `--no-check-update` (with --yes-always it would upgrade
//   itself), `--no-show-release-notes`, `--no-analytics`, `--no-pretty`, `--no-gitignore` (it would
//   edit .gitignore) and history files sent to the null device. aider reads no AGENTS.md of its own.
import { devNull } from 'node:os';
import { isAbsolute } from 'node:path';
import type { ProcessRunner } from '../os/ports.js';
import { shellQuote } from '../common/shell-quote.js';
import { AGENT_KEY_NAMES, type EnvAllowance } from '../os/secrets.js';

export type AgentPreset = 'claude' | 'codex' | 'gemini' | 'aider' | 'command';

/**
 * The report file, relative to the repository: the prompt names it by this path (and by
 * PHUC_REPORT_FILE). It is outside evidence/ and scratch/, which the prompt forbids, and it is not
 * git-ignored: aider refuses to add ignored files to its chat. The loop deletes it before the agent
 * starts and takes it out of the iteration's changes after reading it.
 */
export const REPORT_PATH = '.phuc-loop/report.json';

/**
 * Files the agent CLIs write into the repository for themselves, for .git/info/exclude (written
 * before anything else): the agent's are never committed; the user's own files of those names are
 * kept and put back after every step like any git-ignored file (loop/user-files.ts). aider: its repo-map cache `.aider.tags.cache.v4/` and history files
 * (`.aider*` is aider's own suggestion for .gitignore). Claude Code: `.claude/settings.local.json`
 * (permissions remembered locally). Codex and Gemini CLI wrote nothing into the repository in the
 * conformance runs: their state lives under ~/.codex and ~/.gemini.
 */
export const AGENT_STATE_EXCLUDES: readonly string[] = ['/.aider*', '/.claude/settings.local.json'];

/**
 * The variables of the loop's environment each preset's CLI is given (besides the base allowlist of
 * os/secrets.ts and agent.pass_env), from each CLI's documentation of the variables it reads: its
 * model, endpoint, key and behaviour settings. A name that looks like a credential is still withheld
 * unless it is an agent key (AGENT_KEY_NAMES, withheld too when the key proxy holds the key) or
 * agent.pass_env names it. Cloud credentials (AWS_*, GOOGLE_APPLICATION_CREDENTIALS for Bedrock or
 * Vertex) and proxies (HTTPS_PROXY may hold a password) are not here: agent.pass_env gives them.
 * - claude (code.claude.com/docs/en/env-vars): ANTHROPIC_*, CLAUDE_* (CLAUDE_CODE_*, CLAUDE_CONFIG_DIR),
 *   its unprefixed settings (DISABLE_*, MAX_THINKING_TOKENS, BASH_*_MS, MCP_*, API_TIMEOUT_MS…),
 *   Vertex regions, and IS_SANDBOX (as root it refuses to skip permissions without it).
 * - codex (developers.openai.com/codex/environment-variables): CODEX_*, OPENAI_*, AZURE_OPENAI_*.
 * - gemini (geminicli.com/docs, "Environment variables"): GEMINI_* (GEMINI_CLI_*…), GOOGLE_API_KEY,
 *   GOOGLE_GEMINI_BASE_URL, GOOGLE_CLOUD_PROJECT/LOCATION, GOOGLE_GENAI_USE_VERTEXAI/GCA.
 * - aider (aider.chat/docs/config/dotenv.html): AIDER_*, and the keys and endpoints of the providers
 *   it reaches through litellm (every agent key; OPENAI_*, ANTHROPIC_*, GEMINI_*, OLLAMA_API_BASE…).
 * - command: nothing beyond the base; what its script needs comes through agent.pass_env.
 */
export const PRESET_ENV: Readonly<Record<AgentPreset, EnvAllowance>> = {
  claude: {
    prefixes: ['ANTHROPIC_', 'CLAUDE_', 'DISABLE_', 'VERTEX_REGION_'],
    names: [
      'IS_SANDBOX',
      'API_TIMEOUT_MS',
      'MAX_THINKING_TOKENS',
      'MAX_MCP_OUTPUT_TOKENS',
      'MCP_TIMEOUT',
      'MCP_TOOL_TIMEOUT',
      'BASH_DEFAULT_TIMEOUT_MS',
      'BASH_MAX_TIMEOUT_MS',
      'BASH_MAX_OUTPUT_LENGTH',
      'USE_BUILTIN_RIPGREP',
      'ENABLE_TOOL_SEARCH',
      'CLOUD_ML_REGION',
    ],
  },
  codex: { prefixes: ['CODEX_', 'OPENAI_', 'AZURE_OPENAI_'], names: [] },
  gemini: {
    prefixes: ['GEMINI_'],
    names: ['GOOGLE_API_KEY', 'GOOGLE_GEMINI_BASE_URL', 'GOOGLE_CLOUD_PROJECT', 'GOOGLE_CLOUD_LOCATION', 'GOOGLE_GENAI_USE_VERTEXAI', 'GOOGLE_GENAI_USE_GCA'],
  },
  aider: {
    prefixes: ['AIDER_', 'OPENAI_', 'ANTHROPIC_', 'GEMINI_', 'OPENROUTER_', 'DEEPSEEK_', 'MISTRAL_', 'GROQ_', 'XAI_', 'AZURE_API_', 'AZURE_OPENAI_'],
    names: [...AGENT_KEY_NAMES, 'OLLAMA_API_BASE'],
  },
  command: { prefixes: [], names: [] },
};

export interface AgentInvocationOptions {
  preset: AgentPreset;
  /** For `command`: the shell command line. For a CLI preset: replaces its executable (e.g. `npx -y @openai/codex`). */
  run?: string;
  model?: string;
  extraArgs?: string[];
  maxTurns?: number;
  promptFile: string;
  /** The report file as the agent sees it (REPORT_PATH); aider gets it as a file it may edit. */
  reportFile?: string;
}

export interface AgentInvocation {
  /** An executable (with `args`), or a shell command line (without). */
  command: string;
  args?: string[];
  promptOnStdin: boolean;
  /** Variables the preset adds to the agent's environment. */
  env: Record<string, string>;
}

/** True when `args` already sets one of `flags` (as `--flag value` or `--flag=value`). */
function passes(args: readonly string[], flags: readonly string[]): boolean {
  return args.some((a) => flags.some((f) => a === f || a.startsWith(`${f}=`)));
}

/** True when `args` sets a Codex `-c key=…` override for `key`. */
function overrides(args: readonly string[], key: string): boolean {
  return args.some(
    (a, i) => (a.startsWith(`${key}=`) && ['-c', '--config'].includes(args[i - 1] ?? '')) || a === `--config=${key}` || a.startsWith(`--config=${key}=`),
  );
}

const CLAUDE_SETTINGS = JSON.stringify({ claudeMdExcludes: ['**/AGENTS.md'] });

export function agentInvocation(opts: AgentInvocationOptions): AgentInvocation {
  const extra = opts.extraArgs ?? [];
  const model = opts.model?.trim() || undefined;
  const args: string[] = [];
  const env: Record<string, string> = {};
  // Our default is added only when the user's args do not set the same thing.
  const flag = (aliases: readonly string[], ...value: string[]) => {
    if (!passes(extra, aliases)) args.push(aliases[0], ...value);
  };
  let executable: string;
  let promptOnStdin = true;

  switch (opts.preset) {
    case 'command': {
      if (!opts.run?.trim()) throw new Error('agent.run is required for the command preset');
      return { command: [opts.run, ...extra.map(shellQuote)].join(' '), promptOnStdin: true, env };
    }
    case 'claude': {
      executable = 'claude';
      flag(['-p', '--print']);
      flag(['--output-format'], 'stream-json');
      // stream-json requires --verbose in print mode.
      if (!passes(extra, ['--output-format']) || extra.some((a) => a === 'stream-json' || a === '--output-format=stream-json')) flag(['--verbose']);
      if (!passes(extra, ['--permission-mode', '--dangerously-skip-permissions'])) args.push('--dangerously-skip-permissions');
      if (opts.maxTurns !== undefined && opts.maxTurns > 0) flag(['--max-turns'], String(Math.floor(opts.maxTurns)));
      if (model) flag(['--model'], model);
      flag(['--settings'], CLAUDE_SETTINGS);
      env.CLAUDE_CODE_DISABLE_AUTO_MEMORY = '1';
      args.push(...extra);
      break;
    }
    case 'codex': {
      executable = 'codex';
      args.push('exec');
      flag(['--json']);
      if (!passes(extra, ['--sandbox', '-s', '--dangerously-bypass-approvals-and-sandbox', '--yolo', '--full-auto'])) args.push('--sandbox', 'workspace-write');
      flag(['--skip-git-repo-check']);
      if (!overrides(extra, 'project_doc_max_bytes')) args.push('-c', 'project_doc_max_bytes=0');
      if (!overrides(extra, 'features.unbounded_connection_retries')) args.push('-c', 'features.unbounded_connection_retries=false');
      if (model) flag(['--model', '-m'], model);
      // `--` ends any variadic option of the user's (e.g. --image) before the stdin marker.
      args.push(...extra, '--', '-');
      break;
    }
    case 'gemini': {
      executable = 'gemini';
      // An empty -p selects headless mode; the CLI prepends stdin to it.
      flag(['--prompt', '-p'], '');
      flag(['--output-format', '-o'], 'stream-json');
      if (!passes(extra, ['--yolo', '-y', '--approval-mode'])) args.push('--yolo');
      flag(['--skip-trust']);
      if (model) flag(['--model', '-m'], model);
      args.push(...extra);
      break;
    }
    case 'aider': {
      executable = 'aider';
      promptOnStdin = false;
      args.push('--message-file', opts.promptFile);
      if (opts.reportFile) args.push('--file', opts.reportFile);
      flag(['--yes-always']);
      if (model) flag(['--model'], model);
      args.push('--no-check-update', '--no-show-release-notes', '--no-analytics', '--no-pretty', '--no-gitignore');
      args.push('--input-history-file', devNull, '--chat-history-file', devNull);
      args.push(...extra);
      // Last, so that no user argument turns aider's own commits back on (argparse: last wins).
      args.push('--no-auto-commits', '--no-dirty-commits');
      break;
    }
    default: {
      const never: never = opts.preset;
      throw new Error(`unknown agent preset ${String(never)}`);
    }
  }
  if (opts.run?.trim()) return { command: [opts.run.trim(), ...args.map(shellQuote)].join(' '), promptOnStdin, env };
  return { command: executable, args, promptOnStdin, env };
}

/** What the evidence records about how the agent was started (no secret values, no host paths). */
export interface InvocationRecord {
  /** The argv (executable first), or null when the agent ran through the shell. */
  argv: string[] | null;
  /** The shell command line, when the agent ran through /bin/sh -c. */
  shell: string | null;
  prompt_on_stdin: boolean;
  /** Names of every variable in the agent's environment, sorted (values are never recorded). */
  env_names: string[];
  /** Names of the variables the preset itself added. */
  preset_env: string[];
  /** The first line of `<cli> --version`, or null when it could not be read. */
  cli_version: string | null;
}

/**
 * The invocation as evidence: `mask` hides secret values (e.g. the loop's scrubber); paths inside
 * `root` (the repository) are written relative to it, so the record hashes the same on any machine.
 */
export function describeInvocation(
  inv: AgentInvocation,
  o: { env: Record<string, string>; mask: (text: string) => string; root: string; cliVersion: string | null },
): InvocationRecord {
  const local = (s: string) => o.mask(relativize(s, o.root));
  return {
    argv: inv.args ? [inv.command, ...inv.args].map(local) : null,
    shell: inv.args ? null : local(inv.command),
    prompt_on_stdin: inv.promptOnStdin,
    env_names: Object.keys(o.env).sort(),
    preset_env: Object.keys(inv.env).sort(),
    cli_version: o.cliVersion === null ? null : o.mask(o.cliVersion),
  };
}

function relativize(text: string, root: string): string {
  if (!isAbsolute(root) || root.length < 2) return text;
  const escaped = root.replace(/\/+$/, '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return text.replace(new RegExp(`${escaped}(?=/|$)`, 'g'), '.');
}

/**
 * The CLI's version (`<cli> --version`, first line of its output), or null when it is missing or
 * does not answer: call once per run, before the first iteration. `command` has no version.
 */
export async function cliVersion(
  preset: AgentPreset,
  runner: ProcessRunner,
  o: { run?: string; env: Record<string, string>; cwd: string; timeoutMs?: number },
): Promise<string | null> {
  if (preset === 'command') return null;
  const run = o.run?.trim();
  const r = await runner.run({
    command: run ? `${run} --version` : preset,
    args: run ? undefined : ['--version'],
    cwd: o.cwd,
    env: o.env,
    timeoutMs: o.timeoutMs ?? 30_000,
    maxOutputBytes: 64 * 1024,
  });
  if (r.exitCode !== 0) return null;
  return (
    r.stdout
      .split('\n')
      .map((l) => l.trim())
      .find(Boolean) ?? null
  );
}
