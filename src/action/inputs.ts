// The action's inputs (action.yml), read once and validated with zod. Every error names the input,
// the value it got and what is allowed, so a typo in `with:` fails before anything runs.
import { z } from 'zod';
import { AGENT_PRESETS, budgetSchema, ISOLATION_LEVELS, type BudgetOverrides } from '../engine/config/config.js';
import { input } from './file-commands.js';

export const COMMENT_MODES = ['sticky', 'per-iteration', 'off'] as const;

const TRUE = ['true', 'True', 'TRUE', 'yes', 'on', '1'];
const FALSE = ['false', 'False', 'FALSE', 'no', 'off', '0'];

const bool = () =>
  z.string().transform((v, ctx) => {
    if (TRUE.includes(v)) return true;
    if (FALSE.includes(v)) return false;
    ctx.addIssue({ code: 'custom', message: `must be true or false` });
    return z.NEVER;
  });

const number = (opts: { min: number; max: number; int?: boolean; what: string }) =>
  z.string().transform((v, ctx) => {
    const n = v.trim() === '' ? NaN : Number(v);
    if (!Number.isFinite(n) || n < opts.min || n > opts.max || (opts.int && !Number.isInteger(n))) {
      ctx.addIssue({ code: 'custom', message: `must be ${opts.int ? 'an integer' : 'a number'} ${opts.what} between ${opts.min} and ${opts.max}` });
      return z.NEVER;
    }
    return n;
  });

const optionalInt = (max: number) =>
  z
    .string()
    .trim()
    .transform((v, ctx) => {
      if (v === '') return undefined;
      if (!/^[1-9][0-9]*$/.test(v) || Number(v) > max) {
        ctx.addIssue({ code: 'custom', message: `must be empty (the config's budget) or an integer between 1 and ${max}` });
        return z.NEVER;
      }
      return Number(v);
    });

/** Login names: GitHub logins plus the `[bot]` suffix of apps. */
const LOGIN = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})(?:\[bot\])?$/;
/** The suffix added to artifact-name: `-pr-<number>`, so it must leave room and stay a valid name. */
const ARTIFACT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$/;

export const inputSchema = z.object({
  config: z.string().trim().min(1, { error: 'must be a path to the loop config, e.g. phuc-loop.yml' }),
  'github-token': z.string().trim().min(1, { error: 'is empty: pass a token (the default is ${{ github.token }})' }),
  'push-token': z
    .string()
    .trim()
    .transform((v) => (v === '' ? undefined : v)),
  'claude-code-oauth-token': z
    .string()
    .trim()
    .transform((v) => (v === '' ? undefined : v)),
  model: z
    .string()
    .trim()
    .transform((v, ctx) => {
      if (v === '') return undefined;
      if (/\s/.test(v)) {
        ctx.addIssue({ code: 'custom', message: "must be empty (the config's agent.model) or one model name without spaces, e.g. claude-sonnet-4-5" });
        return z.NEVER;
      }
      return v;
    }),
  agent: z
    .string()
    .trim()
    .transform((v, ctx) => {
      if (v === '') return undefined;
      if (!(AGENT_PRESETS as readonly string[]).includes(v)) {
        ctx.addIssue({ code: 'custom', message: `must be empty (use the config's agent.use) or one of ${AGENT_PRESETS.join(' | ')}` });
        return z.NEVER;
      }
      return v as (typeof AGENT_PRESETS)[number];
    }),
  'stop-label': z.string().trim().min(1, { error: 'must name a label, e.g. STOP' }).max(50, { error: 'must be at most 50 characters (a GitHub label name)' }),
  comment: z.enum(COMMENT_MODES, { error: `must be one of ${COMMENT_MODES.join(' | ')}` }),
  'artifact-name': z.string().trim().regex(ARTIFACT_NAME, { error: 'must be letters, digits, ".", "_" or "-" (the action appends -pr-<number>)' }),
  'retention-days': number({ min: 1, max: 90, int: true, what: 'of days' }),
  push: bool(),
  'poll-seconds': number({ min: 0.5, max: 3600, what: 'of seconds' }),
  'working-directory': z
    .string()
    .trim()
    .transform((v) => (v === '' ? '.' : v)),
  'allowed-bots': z.string().transform((v, ctx) => {
    const names = v
      .split(/[\s,]+/)
      .map((s) => s.trim())
      .filter(Boolean);
    for (const n of names)
      if (!LOGIN.test(n)) {
        ctx.addIssue({ code: 'custom', message: `"${n}" is not a GitHub login (e.g. renovate[bot]); separate names with commas or new lines` });
        return z.NEVER;
      }
    return names.map((n) => n.toLowerCase());
  }),
  'pull-request': z
    .string()
    .trim()
    .transform((v, ctx) => {
      if (v === '') return undefined;
      if (!/^[1-9][0-9]{0,9}$/.test(v)) {
        ctx.addIssue({ code: 'custom', message: 'must be empty or a pull request number' });
        return z.NEVER;
      }
      return Number(v);
    }),
  fresh: bool(),
  isolation: z.enum(ISOLATION_LEVELS, { error: `must be one of ${ISOLATION_LEVELS.join(' | ')}` }),
  'key-proxy': bool(),
  'max-iterations': optionalInt(10_000),
  'max-seconds-per-iteration': optionalInt(86_400),
  'max-total-seconds': optionalInt(30 * 86_400),
  'max-total-cost-usd': z
    .string()
    .trim()
    .transform((v, ctx) => {
      if (v === '') return undefined;
      const r = budgetSchema.shape.max_total_cost_usd.safeParse(v);
      if (!r.success) {
        ctx.addIssue({ code: 'custom', message: "must be empty (the config's budget) or a Decimal amount of US dollars such as 25 or 2.50" });
        return z.NEVER;
      }
      return v;
    }),
});

/** The budget inputs as overrides of the config's budget (empty inputs keep the config's). */
export function budgetOverrides(i: ActionInputs): BudgetOverrides {
  const o: BudgetOverrides = {
    max_iterations: i['max-iterations'],
    max_seconds_per_iteration: i['max-seconds-per-iteration'],
    max_total_seconds: i['max-total-seconds'],
    max_total_cost_usd: i['max-total-cost-usd'],
  };
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

export type ActionInputs = z.output<typeof inputSchema>;
export type InputName = keyof z.input<typeof inputSchema>;
export const INPUT_NAMES = Object.keys(inputSchema.shape) as InputName[];

/** Defaults as in action.yml, for inputs the runner did not set (a runner always sets them all). */
export const INPUT_DEFAULTS: Record<InputName, string> = {
  config: 'phuc-loop.yml',
  'github-token': '',
  'push-token': '',
  'claude-code-oauth-token': '',
  model: '',
  agent: '',
  'stop-label': 'STOP',
  comment: 'sticky',
  'artifact-name': 'phuc-loop-evidence',
  'retention-days': '30',
  push: 'true',
  'poll-seconds': '30',
  'working-directory': '.',
  'allowed-bots': '',
  'pull-request': '',
  fresh: 'false',
  isolation: 'auto',
  'key-proxy': 'true',
  'max-iterations': '',
  'max-seconds-per-iteration': '',
  'max-total-seconds': '',
  'max-total-cost-usd': '',
};

/** Inputs whose values never appear in an error message. */
const SECRET_INPUTS = new Set<string>(['github-token', 'push-token', 'claude-code-oauth-token']);

export class InputError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid input${problems.length > 1 ? 's' : ''}:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** Validates raw values (name → string); throws InputError naming every bad input. */
export function parseInputs(raw: Partial<Record<InputName, string>>): ActionInputs {
  const values = Object.fromEntries(INPUT_NAMES.map((n) => [n, raw[n] ?? INPUT_DEFAULTS[n]]));
  const r = inputSchema.safeParse(values);
  if (r.success) return r.data;
  const problems = r.error.issues.map((i) => {
    const name = String(i.path[0] ?? '?');
    const got = SECRET_INPUTS.has(name) ? '(hidden)' : JSON.stringify(values[name] ?? '');
    return `input "${name}": got ${got}; ${i.message}`;
  });
  throw new InputError(problems);
}

/** Reads every input (INPUT_<NAME>) and validates them once. */
export function readInputs(): ActionInputs {
  const raw: Partial<Record<InputName, string>> = {};
  for (const n of INPUT_NAMES) {
    const v = input(n);
    if (v !== undefined) raw[n] = v;
  }
  return parseInputs(raw);
}
