// phuc-loop.yml (SPEC §3): parsed once with zod into a typed config. Every error names the field,
// the value found and what is allowed; nothing the loop's guarantees rest on is defaulted silently
// (goal, criteria, certificates, R_p for CONVERGED): without them no run could halt with a proof.
import { isMap, isScalar, LineCounter, parseDocument } from 'yaml';
import { z } from 'zod';
import { dstr, isDecimalString, parseDecimal } from '../common/decimal.js';
import { ConfigError, type ConfigProblem } from '../common/errors.js';
import { readRegular } from '../os/tree-file.js';

export const CERTIFICATE_TYPES = ['EXACT', 'CONVERGED', 'TIMEOUT', 'BACKPRESSURE', 'DIVERGED'] as const;
export const SUCCESS_CERTIFICATES = ['EXACT', 'CONVERGED'] as const;
export const RESIDUAL_METRICS = ['failing_criteria', 'failing_tests_fraction', 'command'] as const;
export const PROFILES = ['strict', 'fast', 'benchmark_adapt'] as const;
export const AGENT_PRESETS = ['claude', 'codex', 'gemini', 'aider', 'command'] as const;
export const RUNGS = [641, 274177, 65537] as const;
export const ISOLATION_LEVELS = ['auto', 'user+pidns', 'pidns', 'none'] as const;
export const CHECK_WORKSPACES = ['clean', 'live'] as const;

/** Fields that hold Decimals: their YAML source text is taken verbatim so no float ever parses them. */
const DECIMAL_FIELDS: string[][] = [['R_p'], ['budget', 'max_total_cost_usd']];

const decimalString = () =>
  z.string({ error: 'must be a Decimal such as "1e-4"' }).refine((s) => parseDecimal(s) !== null, {
    error: 'must be a Decimal such as "1e-4" (digits, optional point and exponent; not NaN, not "1,5")',
  });

/** A Decimal in (0, max] (`positive`) or [0, max]; its canonical form must stay a Decimal string (certificates carry it). */
const boundedDecimal = (o: { positive: boolean; max: string }) =>
  decimalString().refine(
    (s) => {
      const d = parseDecimal(s);
      return d === null || ((o.positive ? d.gt(0) : d.gte(0)) && d.lte(o.max) && isDecimalString(dstr(d)));
    },
    { error: `must be a Decimal ${o.positive ? 'above 0' : 'of 0 or more'} and at most ${o.max}` },
  );

const positiveInt = (max: number) => z.number().int().min(1).max(max);

const criterionSchema = z.strictObject({
  id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, {
    error: 'must be 1-64 characters of letters, digits, "_", "." or "-", starting with a letter or digit',
  }),
  description: z.string().optional(),
  run: z.string().trim().min(1, { error: 'must be a non-empty shell command' }),
  timeout_seconds: positiveInt(86_400).default(900),
  retries: z.number().int().min(0).max(5).default(0),
  /** Globs of the files this check depends on: while their hash is unchanged, a pass is reused. */
  inputs: z.array(z.string().min(1)).min(1, { error: 'must list at least one glob (or leave inputs out)' }).optional(),
  /**
   * The files this criterion runs are the agent's to write: without it, a criterion whose program is
   * not in the tree at the baseline is refused (the agent would write its own judge). Protected once they exist.
   */
  agent_writes: z.boolean().optional(),
  /** Criteria (listed before this one) that must end before it starts; the others run side by side with it. */
  after: z.array(z.string().min(1)).optional(),
});

const agentFields = {
  use: z.enum(AGENT_PRESETS),
  run: z.string().min(1).optional(),
  model: z.string().min(1).optional(),
  args: z.array(z.string()).default([]),
};

/** Budgets a user may write (or override from the command line / action inputs). */
export const budgetSchema = z.strictObject({
  max_iterations: positiveInt(10_000).optional(),
  max_seconds_per_iteration: positiveInt(86_400).optional(),
  max_total_seconds: positiveInt(30 * 86_400).optional(),
  max_total_cost_usd: boundedDecimal({ positive: false, max: '1000000' }).optional(),
  max_tool_calls_per_iteration: positiveInt(100_000).optional(),
  max_total_tool_calls: positiveInt(10_000_000).optional(),
});
export type BudgetOverrides = z.infer<typeof budgetSchema>;

export const configSchema = z
  .strictObject({
    version: z.literal(2, { error: 'must be 2 (this is phuc-loop v2)' }),
    goal: z.string().trim().min(1, { error: 'must state the goal of the loop' }),
    acceptance_criteria: z.array(criterionSchema).min(1, { error: 'must list at least one criterion' }),
    certificates: z
      .array(z.enum(CERTIFICATE_TYPES))
      .min(1, { error: 'must declare at least one certificate type' })
      .refine((list) => list.some((c) => (SUCCESS_CERTIFICATES as readonly string[]).includes(c)), {
        error: 'must include EXACT or CONVERGED: without a success certificate the loop could never halt converged',
      }),
    residual: z
      .strictObject({
        metric: z.enum(RESIDUAL_METRICS).default('failing_criteria'),
        junit: z.string().min(1).optional(),
        run: z.string().min(1).optional(),
        timeout_seconds: positiveInt(86_400).default(300),
      })
      .default({ metric: 'failing_criteria', timeout_seconds: 300 }),
    R_p: boundedDecimal({ positive: true, max: '1000000000' }).optional(),
    rung_target: z
      .union(RUNGS.map((r) => z.literal(r)) as [z.ZodLiteral<641>, z.ZodLiteral<274177>, z.ZodLiteral<65537>], {
        error: 'must be one of 641 | 274177 | 65537',
      })
      .default(274177),
    profile: z.enum(PROFILES).default('strict'),
    budget: budgetSchema.default({}),
    northstar: z.string().min(1).default('NORTHSTAR.md'),
    agent: z.strictObject({
      ...agentFields,
      /** How the agent (and the checks, which run its code) are kept from the loop: SPEC §7. */
      isolation: z.enum(ISOLATION_LEVELS).default('auto'),
      /**
       * The allow-list (SPEC §7): globs of the work tree the agent may change; any other change is
       * reverted and ends the run (GUARDRAIL_VIOLATION). Unset: every path but the protected ones.
       */
      may_change: z
        .array(
          z
            .string()
            .min(1)
            .refine((g) => !g.startsWith('/') && !g.split('/').includes('..'), {
              error: 'must be a glob relative to the repository root (no leading "/", no "..")',
            }),
        )
        .min(1, { error: 'must list at least one glob such as "src/**" (or leave may_change out)' })
        .optional(),
      /** Hold the agent's API key in a local proxy; the agent gets a placeholder and the proxy's URL. */
      key_proxy: z.boolean().default(false),
      /**
       * What the agent's network namespace reaches besides the key proxy (and, without it, its preset's
       * model API): these hosts (`host` or `host:port`, through HTTPS_PROXY), or `open` for the machine's network.
       */
      network: z
        .union([z.literal('open'), z.array(z.string().regex(/^[A-Za-z0-9.-]+(:\d{1,5})?$/, { error: 'must be a host name or host:port' })).max(100)], {
          error: 'must be open or a list of hosts (host or host:port)',
        })
        .default([]),
      /**
       * Folders outside the work tree that the agent and the checks may write at pidns and user+pidns (a
       * build cache); the rest of the machine is read-only to them. What one leaves there, later ones see.
       */
      writable: z
        .array(z.string().regex(/^\/./, { error: 'must be an absolute path to a folder' }))
        .max(4, { error: 'may list at most 4 folders' })
        .default([]),
      /**
       * Variables of the loop's environment the agent is given beyond the allowlist (locale, terminal, its
       * preset's own), also when their names look secret (NPM_TOKEN…); `FOO_*` names every variable starting with FOO_.
       */
      pass_env: z
        .array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*\*?$/, { error: 'must be an environment variable name, or a prefix followed by *' }))
        .default([]),
      /** No output and no file change for this long stops the agent (an agent failure). */
      idle_seconds: positiveInt(86_400).optional(),
      /** A stronger agent or model the loop switches to after two stalled iterations. */
      escalate: z
        .strictObject({
          use: z.enum(AGENT_PRESETS).optional(),
          run: z.string().min(1).optional(),
          model: z.string().min(1).optional(),
          args: z.array(z.string()).optional(),
        })
        .refine((e) => e.use || e.run || e.model || e.args, { error: 'must name at least one of use, run, model, args' })
        .optional(),
    }),
    /** An optional critic after the checks: its JSON verdict is Lane C (docs/glossary.md "Critic"). */
    critic: z.strictObject({ ...agentFields, timeout_seconds: positiveInt(86_400).default(600) }).optional(),
    /** Known fixes for repeated failure signatures: `match` is a substring, or /regex/, of the signature or its text. */
    detours: z.array(z.strictObject({ match: z.string().min(1), instruction: z.string().min(1) })).default([]),
    stall_iterations: z.number().int().min(2).max(100).default(3),
    /** A mission-context file (DEGA ideology rule): advisory framing in the prompt, never a gate. */
    mission_context: z.string().min(1).optional(),
    protected: z.array(z.string().min(1)).default([]),
    replays: z.number().int().min(2).max(10).default(2),
    /** Where the criteria are judged: a loop-owned checkout of the iteration's commit (clean) or the work tree (live). */
    checks: z
      .strictObject({
        workspace: z.enum(CHECK_WORKSPACES).default('clean'),
        /** Installs dependencies in the workspace (e.g. `npm ci`); re-run only when its inputs change. */
        setup: z.string().trim().min(1).optional(),
        /** Globs whose content decides when setup re-runs; default: the common lockfiles and manifests. */
        setup_inputs: z.array(z.string().min(1)).min(1).optional(),
        setup_timeout_seconds: positiveInt(86_400).default(1800),
        /** Variables the checks get (besides PATH, LANG and a fresh HOME): nothing else of the loop's environment. */
        env: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), z.string()).default({}),
        /** JUnit XML files the criteria write: the tests they ran are counted (suite integrity) and named in failures. */
        junit: z.string().min(1).optional(),
        /** A human-approved drop in the number of tests the suite runs (the suite-integrity guard). */
        allow_fewer_tests: z.boolean().default(false),
        /** The checks' network: loopback only, or the machine's (`checks.setup` always has the machine's). */
        network: z.enum(['loopback', 'open']).default('loopback'),
      })
      .default({ workspace: 'clean', setup_timeout_seconds: 1800, env: {}, allow_fewer_tests: false, network: 'loopback' }),
    /** Earlier evidence trees kept as loop.previous.N by `run --fresh`; unset keeps every one. */
    keep_previous_evidence: positiveInt(1000).optional(),
    /**
     * The user's git-ignored files: kept by the loop before the first agent step and put back after
     * each one (loop/user-files.ts), except in folders of these names (regenerable: dependencies,
     * build output, caches), which the agent's builds may write freely. Unset: DEFAULT_REGENERABLE.
     * No default here: an unset field stays out of the plan's contract.
     */
    user_files: z
      .strictObject({
        regenerable: z.array(
          z
            .string()
            .regex(/^[^/\\]+$/, { error: 'must be a folder or file name (no "/"): every ignored folder or file of that name is left out' })
            .refine((n) => n !== '.' && n !== '..', {
              error: 'must be a folder or file name, not "." or ".."',
            }),
        ),
      })
      .optional(),
    northstar_neutral_reason: z.string().min(1).optional(),
    security: z
      .strictObject({
        gate: z.string().min(1),
        api_surface: z.string().min(1),
        drift_explanation: z.string().min(1).default('API_CHANGES.md'),
        /**
         * Rung 65537's adversarial paraphrase: a command that reads the goal and criteria (JSON on
         * stdin) and prints the goal restated with each requirement mapped to a criterion id
         * (judge/rung65537.ts), or `agent`: the configured agent restates it, as in its own step;
         * without it the rung is not reached.
         */
        paraphrase: z.string().min(1).optional(),
      })
      .optional(),
  })
  .superRefine((c, ctx) => {
    if (c.certificates.includes('CONVERGED') && c.R_p === undefined)
      ctx.addIssue({ code: 'custom', path: ['R_p'], message: 'is required when certificates include CONVERGED (a Decimal such as "1e-4")' });
    if (c.residual.metric === 'failing_tests_fraction' && !c.residual.junit)
      ctx.addIssue({
        code: 'custom',
        path: ['residual', 'junit'],
        message: 'is required for metric failing_tests_fraction (a glob of JUnit XML files the checks write)',
      });
    if (c.residual.metric === 'command' && !c.residual.run)
      ctx.addIssue({ code: 'custom', path: ['residual', 'run'], message: 'is required for metric command (its last output line is the residual)' });
    if (c.agent.use === 'command' && !c.agent.run) ctx.addIssue({ code: 'custom', path: ['agent', 'run'], message: 'is required when agent.use is command' });
    if (c.agent.escalate?.use === 'command' && !c.agent.escalate.run)
      ctx.addIssue({ code: 'custom', path: ['agent', 'escalate', 'run'], message: 'is required when agent.escalate.use is command' });
    if (c.critic?.use === 'command' && !c.critic.run)
      ctx.addIssue({ code: 'custom', path: ['critic', 'run'], message: 'is required when critic.use is command' });
    c.detours.forEach((d, i) => {
      const re = /^\/(.*)\/([a-z]*)$/.exec(d.match);
      if (re)
        try {
          new RegExp(re[1], re[2]);
        } catch (e) {
          ctx.addIssue({ code: 'custom', path: ['detours', i, 'match'], message: `is not a valid regular expression: ${(e as Error).message}` });
        }
    });
    if (c.rung_target === 65537 && !c.security)
      ctx.addIssue({ code: 'custom', path: ['security'], message: 'is required for rung_target 65537 (gate and api_surface commands)' });
    const ids = c.acceptance_criteria.map((a) => a.id);
    ids.forEach((id, i) => {
      if (ids.indexOf(id) !== i) ctx.addIssue({ code: 'custom', path: ['acceptance_criteria', i, 'id'], message: `duplicates id "${id}"; ids must be unique` });
    });
    // Only earlier criteria: the order the user wrote is one the criteria can run in (no cycle).
    c.acceptance_criteria.forEach((a, i) =>
      a.after?.forEach((dep, j) => {
        if (!ids.slice(0, i).includes(dep))
          ctx.addIssue({
            code: 'custom',
            path: ['acceptance_criteria', i, 'after', j],
            message: `must be the id of a criterion listed before this one (${
              ids
                .slice(0, i)
                .map((x) => JSON.stringify(x))
                .join(', ') || 'none is'
            }), got ${JSON.stringify(dep)}`,
          });
      }),
    );
  });

export type LoopConfig = z.infer<typeof configSchema>;
export type Criterion = LoopConfig['acceptance_criteria'][number];
export type CertificateType = (typeof CERTIFICATE_TYPES)[number];
/** The type a certificate is issued with (NONE: no certificate's conditions held). */
export type IssuedType = CertificateType | 'NONE';
export type AgentPresetName = (typeof AGENT_PRESETS)[number];

function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value);
  return text.length > 80 ? text.slice(0, 77) + '...' : text;
}

function valueAt(root: unknown, path: PropertyKey[]): unknown {
  let v: unknown = root;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

function problemsFrom(error: z.ZodError, raw: unknown): ConfigProblem[] {
  const out: ConfigProblem[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      const allowed = allowedKeysAt(issue.path).join(', ');
      for (const key of issue.keys) out.push({ field: [...issue.path, key].join('.'), message: `is not a known field; allowed here: ${allowed}` });
      continue;
    }
    const field = issue.path.join('.');
    const got = valueAt(raw, issue.path);
    let message = issue.message;
    if (issue.code === 'invalid_value' && 'values' in issue)
      message = `${got === undefined ? 'is required' : `got ${describeValue(got)}`}; allowed: ${(issue.values as unknown[]).map(String).join(' | ')}`;
    else if (issue.code === 'invalid_type')
      message = got === undefined ? `is required (${issue.expected})` : `got ${describeValue(got)}; expected ${issue.expected}`;
    else if (issue.code !== 'custom' && got !== undefined) message = `got ${describeValue(got)}; ${issue.message}`;
    out.push({ field, message });
  }
  return out;
}

/** The keys a strict object accepts at `path`, for "allowed here" in unknown-key messages. */
function allowedKeysAt(path: PropertyKey[]): string[] {
  let node = unwrap(configSchema);
  for (const key of path) {
    const def = node._zod.def;
    const next = typeof key === 'number' ? def.element : def.shape?.[key as string];
    if (!next) return [];
    node = unwrap(next);
  }
  return Object.keys(node._zod.def.shape ?? {});
}

type ZodNode = { _zod: { def: { innerType?: ZodNode; element?: ZodNode; shape?: Record<string, ZodNode> } } };
function unwrap(node: unknown): ZodNode {
  let n = node as ZodNode;
  while (n._zod.def.innerType) n = n._zod.def.innerType;
  return n;
}

const MAX_ALIASES = 100;

/** Reads the YAML so that Decimal fields keep their source text (YAML `1e-4` would otherwise be a float). */
function readYaml(text: string): { value: unknown; errors: ConfigProblem[] } {
  const lines = new LineCounter();
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: true, lineCounter: lines });
  const at = (e: (typeof doc.errors)[number]) => {
    const { line, col } = lines.linePos(e.pos[0]);
    return ` at line ${line}, column ${col}`;
  };
  if (doc.errors.length)
    return { value: undefined, errors: doc.errors.map((e) => ({ field: '', message: `YAML syntax${at(e)}: ${e.message.split('\n')[0]}` })) };
  for (const path of DECIMAL_FIELDS) {
    const node = doc.getIn(path, true);
    if (isScalar(node) && typeof node.value === 'number' && node.source !== undefined) {
      doc.setIn(path, node.source);
    }
  }
  if (!isMap(doc.contents)) return { value: undefined, errors: [{ field: '', message: 'must be a YAML mapping of fields (see phuc-loop init)' }] };
  try {
    return { value: doc.toJS({ maxAliasCount: MAX_ALIASES }), errors: [] };
  } catch (e) {
    // An alias bomb (aliases of aliases, billions of nodes): refused, never expanded.
    if (!(e instanceof ReferenceError)) throw e;
    return { value: undefined, errors: [{ field: '', message: `YAML aliases: ${e.message}; at most ${MAX_ALIASES} are expanded` }] };
  }
}

/** The config file a loop reads when none is named. */
export const DEFAULT_CONFIG_FILE = 'phuc-loop.yml';

export function parseConfig(text: string, file = DEFAULT_CONFIG_FILE): LoopConfig {
  const { value, errors } = readYaml(text);
  if (errors.length) throw new ConfigError(file, errors);
  const result = configSchema.safeParse(value);
  if (!result.success) throw new ConfigError(file, problemsFrom(result.error, value));
  return result.data;
}

export async function loadConfig(path: string, displayName: string): Promise<LoopConfig> {
  const data = await readRegular(path);
  if (data === null) throw new ConfigError(displayName, [{ field: '', message: 'not found as a regular file (run `phuc-loop init` to write one)' }]);
  return parseConfig(data.toString('utf8'), displayName);
}

/** JSON Schema of the config for editors, generated from the zod schema. */
export function configJsonSchema(): unknown {
  const schema = z.toJSONSchema(configSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return { ...schema, $id: 'https://phuc-loop.dev/schema/phuc-loop.schema.json', title: 'phuc-loop.yml (version 2)' };
}
