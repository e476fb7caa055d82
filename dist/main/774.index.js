export const id = 774;
export const ids = [774];
export const modules = {

/***/ 88641:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   C1: () => (/* binding */ setFailed),
/* harmony export */   hF: () => (/* binding */ input),
/* harmony export */   uH: () => (/* binding */ setOutput)
/* harmony export */ });
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(77598);
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_crypto__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(73024);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__webpack_require__.n(node_fs__WEBPACK_IMPORTED_MODULE_1__);
// The few runner commands the main step writes before the run starts, without @actions/core (which
// loads undici: ~0.4 s of CPU): the inputs (INPUT_<NAME>), the outputs (GITHUB_OUTPUT) and the step's
// failure (::error::). A refusal of bad inputs needs nothing else (bench/startup.ts measures it); the
// run itself sets its outputs through here too, so both write them the same way.


/** An input as the runner passes it: INPUT_<NAME>, upper-cased, spaces to `_`; undefined when unset. */
const input = (name) => process.env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`];
/** A workflow command's data, escaped as the runner reads it back. */
const escapeData = (s) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
/** A step output: GITHUB_OUTPUT's heredoc form (a fresh delimiter the value cannot hold), else the old ::set-output. */
function setOutput(name, value) {
    const file = process.env['GITHUB_OUTPUT'];
    if (!file) {
        process.stdout.write(`\n::set-output name=${name}::${escapeData(value)}\n`);
        return;
    }
    const delimiter = `ghadelimiter_${(0,node_crypto__WEBPACK_IMPORTED_MODULE_0__.randomUUID)()}`;
    if (name.includes(delimiter) || value.includes(delimiter))
        throw new Error(`output ${name}: the value holds its delimiter`);
    (0,node_fs__WEBPACK_IMPORTED_MODULE_1__.appendFileSync)(file, `${name}<<${delimiter}\n${value}\n${delimiter}\n`);
}
/** Fails the step: an error annotation and exit code 1 (the caller may set a more precise one). */
function setFailed(message) {
    process.exitCode = 1;
    process.stdout.write(`::error::${escapeData(message)}\n`);
}


/***/ }),

/***/ 81729:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Ko: () => (/* binding */ readInputs),
/* harmony export */   P$: () => (/* binding */ budgetOverrides),
/* harmony export */   dz: () => (/* binding */ InputError)
/* harmony export */ });
/* unused harmony exports COMMENT_MODES, inputSchema, INPUT_NAMES, INPUT_DEFAULTS, parseInputs */
/* harmony import */ var zod__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(23905);
/* harmony import */ var _engine_config_config_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(33855);
/* harmony import */ var _file_commands_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(88641);
// The action's inputs (action.yml), read once and validated with zod. Every error names the input,
// the value it got and what is allowed, so a typo in `with:` fails before anything runs.



const COMMENT_MODES = ['sticky', 'per-iteration', 'off'];
const TRUE = ['true', 'True', 'TRUE', 'yes', 'on', '1'];
const FALSE = ['false', 'False', 'FALSE', 'no', 'off', '0'];
const bool = () => zod__WEBPACK_IMPORTED_MODULE_2__/* .string */ .YjP().transform((v, ctx) => {
    if (TRUE.includes(v))
        return true;
    if (FALSE.includes(v))
        return false;
    ctx.addIssue({ code: 'custom', message: `must be true or false` });
    return zod__WEBPACK_IMPORTED_MODULE_2__/* .NEVER */ .tmp;
});
const number = (opts) => zod__WEBPACK_IMPORTED_MODULE_2__/* .string */ .YjP().transform((v, ctx) => {
    const n = v.trim() === '' ? NaN : Number(v);
    if (!Number.isFinite(n) || n < opts.min || n > opts.max || (opts.int && !Number.isInteger(n))) {
        ctx.addIssue({ code: 'custom', message: `must be ${opts.int ? 'an integer' : 'a number'} ${opts.what} between ${opts.min} and ${opts.max}` });
        return zod__WEBPACK_IMPORTED_MODULE_2__/* .NEVER */ .tmp;
    }
    return n;
});
const optionalInt = (max) => zod__WEBPACK_IMPORTED_MODULE_2__/* .string */ .YjP()
    .trim()
    .transform((v, ctx) => {
    if (v === '')
        return undefined;
    if (!/^[1-9][0-9]*$/.test(v) || Number(v) > max) {
        ctx.addIssue({ code: 'custom', message: `must be empty (the config's budget) or an integer between 1 and ${max}` });
        return zod__WEBPACK_IMPORTED_MODULE_2__/* .NEVER */ .tmp;
    }
    return Number(v);
});
/** Login names: GitHub logins plus the `[bot]` suffix of apps. */
const LOGIN = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})(?:\[bot\])?$/;
/** The suffix added to artifact-name: `-pr-<number>`, so it must leave room and stay a valid name. */
const ARTIFACT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$/;
const inputSchema = zod__WEBPACK_IMPORTED_MODULE_2__/* .object */ .Ikc({
    config: zod__WEBPACK_IMPORTED_MODULE_2__/* .string */ .YjP().trim().min(1, { error: 'must be a path to the loop config, e.g. phuc-loop.yml' }),
    'github-token': zod__WEBPACK_IMPORTED_MODULE_2__/* .string */ .YjP().trim().min(1, { error: 'is empty: pass a token (the default is ${{ github.token }})' }),
    'push-token': zod__WEBPACK_IMPORTED_MODULE_2__/* .string */ .YjP()
        .trim()
        .transform((v) => (v === '' ? undefined : v)),
    'claude-code-oauth-token': zod__WEBPACK_IMPORTED_MODULE_2__/* .string */ .YjP()
        .trim()
        .transform((v) => (v === '' ? undefined : v)),
    model: zod__WEBPACK_IMPORTED_MODULE_2__/* .string */ .YjP()
        .trim()
        .transform((v, ctx) => {
        if (v === '')
            return undefined;
        if (/\s/.test(v)) {
            ctx.addIssue({ code: 'custom', message: "must be empty (the config's agent.model) or one model name without spaces, e.g. claude-sonnet-4-5" });
            return zod__WEBPACK_IMPORTED_MODULE_2__/* .NEVER */ .tmp;
        }
        return v;
    }),
    agent: zod__WEBPACK_IMPORTED_MODULE_2__/* .string */ .YjP()
        .trim()
        .transform((v, ctx) => {
        if (v === '')
            return undefined;
        if (!_engine_config_config_js__WEBPACK_IMPORTED_MODULE_0__/* .AGENT_PRESETS */ .VC.includes(v)) {
            ctx.addIssue({ code: 'custom', message: `must be empty (use the config's agent.use) or one of ${_engine_config_config_js__WEBPACK_IMPORTED_MODULE_0__/* .AGENT_PRESETS */ .VC.join(' | ')}` });
            return zod__WEBPACK_IMPORTED_MODULE_2__/* .NEVER */ .tmp;
        }
        return v;
    }),
    'stop-label': zod__WEBPACK_IMPORTED_MODULE_2__/* .string */ .YjP().trim().min(1, { error: 'must name a label, e.g. STOP' }).max(50, { error: 'must be at most 50 characters (a GitHub label name)' }),
    comment: zod__WEBPACK_IMPORTED_MODULE_2__/* ["enum"] */ .k5n(COMMENT_MODES, { error: `must be one of ${COMMENT_MODES.join(' | ')}` }),
    'artifact-name': zod__WEBPACK_IMPORTED_MODULE_2__/* .string */ .YjP().trim().regex(ARTIFACT_NAME, { error: 'must be letters, digits, ".", "_" or "-" (the action appends -pr-<number>)' }),
    'retention-days': number({ min: 1, max: 90, int: true, what: 'of days' }),
    push: bool(),
    'poll-seconds': number({ min: 0.5, max: 3600, what: 'of seconds' }),
    'working-directory': zod__WEBPACK_IMPORTED_MODULE_2__/* .string */ .YjP()
        .trim()
        .transform((v) => (v === '' ? '.' : v)),
    'allowed-bots': zod__WEBPACK_IMPORTED_MODULE_2__/* .string */ .YjP().transform((v, ctx) => {
        const names = v
            .split(/[\s,]+/)
            .map((s) => s.trim())
            .filter(Boolean);
        for (const n of names)
            if (!LOGIN.test(n)) {
                ctx.addIssue({ code: 'custom', message: `"${n}" is not a GitHub login (e.g. renovate[bot]); separate names with commas or new lines` });
                return zod__WEBPACK_IMPORTED_MODULE_2__/* .NEVER */ .tmp;
            }
        return names.map((n) => n.toLowerCase());
    }),
    'pull-request': zod__WEBPACK_IMPORTED_MODULE_2__/* .string */ .YjP()
        .trim()
        .transform((v, ctx) => {
        if (v === '')
            return undefined;
        if (!/^[1-9][0-9]{0,9}$/.test(v)) {
            ctx.addIssue({ code: 'custom', message: 'must be empty or a pull request number' });
            return zod__WEBPACK_IMPORTED_MODULE_2__/* .NEVER */ .tmp;
        }
        return Number(v);
    }),
    fresh: bool(),
    isolation: zod__WEBPACK_IMPORTED_MODULE_2__/* ["enum"] */ .k5n(_engine_config_config_js__WEBPACK_IMPORTED_MODULE_0__/* .ISOLATION_LEVELS */ .l$, { error: `must be one of ${_engine_config_config_js__WEBPACK_IMPORTED_MODULE_0__/* .ISOLATION_LEVELS */ .l$.join(' | ')}` }),
    'key-proxy': bool(),
    'max-iterations': optionalInt(10_000),
    'max-seconds-per-iteration': optionalInt(86_400),
    'max-total-seconds': optionalInt(30 * 86_400),
    'max-total-cost-usd': zod__WEBPACK_IMPORTED_MODULE_2__/* .string */ .YjP()
        .trim()
        .transform((v, ctx) => {
        if (v === '')
            return undefined;
        const r = _engine_config_config_js__WEBPACK_IMPORTED_MODULE_0__/* .budgetSchema */ .ZH.shape.max_total_cost_usd.safeParse(v);
        if (!r.success) {
            ctx.addIssue({ code: 'custom', message: "must be empty (the config's budget) or a Decimal amount of US dollars such as 25 or 2.50" });
            return zod__WEBPACK_IMPORTED_MODULE_2__/* .NEVER */ .tmp;
        }
        return v;
    }),
});
/** The budget inputs as overrides of the config's budget (empty inputs keep the config's). */
function budgetOverrides(i) {
    const o = {
        max_iterations: i['max-iterations'],
        max_seconds_per_iteration: i['max-seconds-per-iteration'],
        max_total_seconds: i['max-total-seconds'],
        max_total_cost_usd: i['max-total-cost-usd'],
    };
    return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}
const INPUT_NAMES = Object.keys(inputSchema.shape);
/** Defaults as in action.yml, for inputs the runner did not set (a runner always sets them all). */
const INPUT_DEFAULTS = {
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
const SECRET_INPUTS = new Set(['github-token', 'push-token', 'claude-code-oauth-token']);
class InputError extends Error {
    problems;
    constructor(problems) {
        super(`invalid input${problems.length > 1 ? 's' : ''}:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
        this.problems = problems;
    }
}
/** Validates raw values (name → string); throws InputError naming every bad input. */
function parseInputs(raw) {
    const values = Object.fromEntries(INPUT_NAMES.map((n) => [n, raw[n] ?? INPUT_DEFAULTS[n]]));
    const r = inputSchema.safeParse(values);
    if (r.success)
        return r.data;
    const problems = r.error.issues.map((i) => {
        const name = String(i.path[0] ?? '?');
        const got = SECRET_INPUTS.has(name) ? '(hidden)' : JSON.stringify(values[name] ?? '');
        return `input "${name}": got ${got}; ${i.message}`;
    });
    throw new InputError(problems);
}
/** Reads every input (INPUT_<NAME>) and validates them once. */
function readInputs() {
    const raw = {};
    for (const n of INPUT_NAMES) {
        const v = (0,_file_commands_js__WEBPACK_IMPORTED_MODULE_1__/* .input */ .hF)(n);
        if (v !== undefined)
            raw[n] = v;
    }
    return parseInputs(raw);
}


/***/ }),

/***/ 18948:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   n: () => (/* binding */ setOutputs)
/* harmony export */ });
/* unused harmony export OUTPUTS */
/* harmony import */ var _file_commands_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(88641);
// The action's outputs (action.yml), all of them set at every end: a missing one reads as empty.

const OUTPUTS = [
    'status',
    'stop-reason',
    'certificate',
    'residual',
    'iterations',
    'glow',
    'report-path',
    'certified-commit',
    'cost-usd',
    'tokens',
];
function setOutputs(values, scrub) {
    for (const name of OUTPUTS)
        (0,_file_commands_js__WEBPACK_IMPORTED_MODULE_0__/* .setOutput */ .uH)(name, scrub(values[name] ?? ''));
}


/***/ }),

/***/ 81774:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   start: () => (/* binding */ start)
/* harmony export */ });
/* harmony import */ var _engine_run_fsm_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(42502);
/* harmony import */ var _file_commands_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(88641);
/* harmony import */ var _inputs_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(81729);
/* harmony import */ var _outputs_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(18948);
// The main step up to its run: the inputs read and checked with nothing but the runner's file
// commands (file-commands.ts). Bad inputs are refused here, before @actions/core, the toolkit and the
// engine load (bench/startup.ts measures it); run.ts, loaded once the inputs are valid, brings them.




/** Never rejects: a bad input is EXIT_NEED_INFO(INVALID_INPUT), anything else a crash (exit code 1). */
async function start() {
    let inputs;
    try {
        inputs = (0,_inputs_js__WEBPACK_IMPORTED_MODULE_2__/* .readInputs */ .Ko)();
    }
    catch (e) {
        if (!(e instanceof _inputs_js__WEBPACK_IMPORTED_MODULE_2__/* .InputError */ .dz)) {
            (0,_file_commands_js__WEBPACK_IMPORTED_MODULE_1__/* .setFailed */ .C1)(`phuc-loop crashed: ${e instanceof Error ? e.message : String(e)}`);
            process.exitCode = _engine_run_fsm_js__WEBPACK_IMPORTED_MODULE_0__/* .EXIT_CODES */ .ai.CRASH;
            return;
        }
        // No secret is registered yet: the message names secret inputs without their values (inputs.ts).
        (0,_outputs_js__WEBPACK_IMPORTED_MODULE_3__/* .setOutputs */ .n)({ status: 'EXIT_NEED_INFO', 'stop-reason': 'INVALID_INPUT', certificate: 'NONE', iterations: '0' }, (s) => s);
        (0,_file_commands_js__WEBPACK_IMPORTED_MODULE_1__/* .setFailed */ .C1)(`phuc-loop: ${e.message}`);
        process.exitCode = _engine_run_fsm_js__WEBPACK_IMPORTED_MODULE_0__/* .EXIT_CODES */ .ai.EXIT_NEED_INFO;
        return;
    }
    const { run } = await Promise.all(/* import() */[__webpack_require__.e(356), __webpack_require__.e(407)]).then(__webpack_require__.bind(__webpack_require__, 32407));
    await run(inputs);
}


/***/ }),

/***/ 69665:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   $Q: () => (/* binding */ parseDecimal),
/* harmony export */   Is: () => (/* binding */ dstr),
/* harmony export */   Ww: () => (/* binding */ Decimal),
/* harmony export */   Zl: () => (/* binding */ seedChecksum),
/* harmony export */   Zw: () => (/* binding */ isDecimalString)
/* harmony export */ });
/* unused harmony export SEED_CHECKSUM_EXPECTED */
/* harmony import */ var decimal_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(91219);
// Exact arithmetic: residuals, R_p, distances and costs are Decimal, never JS floats (a float
// comparison could certify a residual that is not below R_p).

const Decimal = decimal_js__WEBPACK_IMPORTED_MODULE_0__/* .Decimal */ .W.clone({ precision: 40, rounding: decimal_js__WEBPACK_IMPORTED_MODULE_0__/* .Decimal */ .W.ROUND_HALF_EVEN, toExpNeg: -30, toExpPos: 40 });
const DECIMAL_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
/** Parses a Decimal from text; anything but a plain decimal literal (NaN, "", "1,5", "0x1") is refused. */
function parseDecimal(text) {
    const t = text.trim();
    return DECIMAL_TEXT.test(t) ? new Decimal(t) : null;
}
function isDecimalString(value) {
    return typeof value === 'string' && DECIMAL_TEXT.test(value) && value.trim() === value;
}
/** The canonical string form used in every certificate and report. */
function dstr(d) {
    return d.toString();
}
/** The seed checksum 641 × 274177 × 65537 (docs/glossary.md): an exact integer product, computed with BigInt. */
const SEED_CHECKSUM_EXPECTED = 11517961089409n;
function seedChecksum() {
    const product = 641n * 274177n * 65537n;
    return { product: product.toString(), verified: product === SEED_CHECKSUM_EXPECTED };
}


/***/ }),

/***/ 72251:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   C9: () => (/* binding */ Stopped),
/* harmony export */   FC: () => (/* binding */ PhucError),
/* harmony export */   Ol: () => (/* binding */ EvidenceUnverifiable),
/* harmony export */   XS: () => (/* binding */ GitError),
/* harmony export */   aq: () => (/* binding */ StorageError),
/* harmony export */   bW: () => (/* binding */ TreeChanged),
/* harmony export */   fu: () => (/* binding */ RunnerCompromised),
/* harmony export */   pH: () => (/* binding */ SetupFailed),
/* harmony export */   wM: () => (/* binding */ InvariantViolation),
/* harmony export */   xL: () => (/* binding */ ConfigError)
/* harmony export */ });
// The errors the engine tells apart. The driver decides on `code`, never on message text, and
// every one of them ends a run in a halting report (EXIT_BLOCKED with the code as stop reason),
// not in a crash: see loop/decide.ts for where each lands.
class PhucError extends Error {
}
/** A forbidden state of the loop (an illegal FSM transition, a second agent, a missing certificate…). */
class InvariantViolation extends PhucError {
    code;
    constructor(code, message) {
        super(`${code}: ${message}`);
        this.code = code;
    }
}
/** An evidence file or persisted document that does not verify or does not parse. */
class EvidenceUnverifiable extends PhucError {
    file;
    code = 'EVIDENCE_UNVERIFIABLE';
    constructor(file, message) {
        super(`${file}: ${message}`);
        this.file = file;
    }
}
class GitError extends PhucError {
    code = 'GIT_FAILURE';
    kind;
    constructor(message, stderr = '') {
        const kind = /index\.lock|Unable to create '.*\.lock'/.test(stderr)
            ? 'index_lock'
            : /No space left on device|ENOSPC|Disk quota exceeded/i.test(stderr)
                ? 'disk_full'
                : 'other';
        super(`${capped(message)}${ADVICE[kind]}`);
        this.kind = kind;
    }
    static ended(message) {
        const e = new GitError(message);
        e.kind = 'helper_ended';
        return e;
    }
}
/** A git failure's text as logs and reports carry it: what git printed about thousands of paths is cut short. */
const MESSAGE_CHARS = 2000;
function capped(message) {
    return message.length <= MESSAGE_CHARS ? message : `${message.slice(0, MESSAGE_CHARS)} … (${message.length - MESSAGE_CHARS} more characters)`;
}
const ADVICE = {
    index_lock: ' (another git process holds .git/index.lock, or one crashed: remove the lock file once no git runs, then run again)',
    disk_full: ' (the disk is full: free space, then run again; the loop resumes from its evidence)',
    helper_ended: '; what it was doing may be half done: `phuc-loop run` again resumes from the evidence',
    other: '',
};
/** Writing evidence or state failed (a full disk, a path that is not a regular file…). */
class StorageError extends PhucError {
    code = 'STORAGE_FAILURE';
}
/** checks.setup failed: the tree cannot be judged (an environment problem, not the agent's fail). */
class SetupFailed extends PhucError {
    code = 'SETUP_FAILED';
}
/**
 * The judged tree stopped being the committed tree: checks.setup or a check changed tracked files
 * in the check workspace (SPEC §7). What the round measured is not the commit's: it is refused.
 */
class TreeChanged extends PhucError {
    step;
    paths;
    code = 'JUDGED_TREE_CHANGED';
    constructor(step, paths) {
        const named = paths.slice(0, 5).join(', ') + (paths.length > 5 ? ` and ${paths.length - 5} more` : '');
        super(`the judged tree is not the committed tree: ${step} changed ${named} in the check workspace (compared by content with the tree judged); the round is refused`);
        this.step = step;
        this.paths = paths;
    }
}
/**
 * The runner canary (judge/canary.ts) passed: a test that must fail was reported as passing when a
 * criterion ran the suite, so its passes say nothing (SPEC §7). The round is refused.
 */
class RunnerCompromised extends PhucError {
    code = 'RUNNER_COMPROMISED';
    constructor(round, criterion, runner, notRun = false, copy) {
        super(copy
            ? `the test runner is compromised (round ${round}): the loop's copy of \`${copy.test}\`, a test that failed earlier in this run, run with the canary under a name the agent cannot predict, ${copy.outcome === 'failed' ? 'failed' : 'did not run though the canary beside it ran'} while the round reported the criterion \`${criterion}\` passing (${runner}); the round is refused`
            : `the test runner is compromised (round ${round}): the loop's canary, a test that must fail placed beside the suite under a name the agent cannot predict, ${notRun ? 'ran at an earlier round of this run but did not run' : 'passed'} when the criterion \`${criterion}\` ran the suite (${runner}); the round is refused`);
    }
}
/**
 * A stop (signal, STOP file, label) cut short something the loop was running for a judgement
 * (checks.setup): what ran proves nothing, so the run pauses (EXIT_BLOCKED(BACKPRESSURE_SIGNAL)).
 */
class Stopped extends PhucError {
    code = 'BACKPRESSURE_SIGNAL';
}
/** phuc-loop.yml (or NORTHSTAR.md) does not say what the loop needs: EXIT_NEED_INFO. */
class ConfigError extends PhucError {
    file;
    problems;
    code = 'CONFIG_INVALID';
    constructor(file, problems) {
        super(`${file}:\n` + problems.map((p) => `  - ${p.field || '(file)'}: ${p.message}`).join('\n'));
        this.file = file;
        this.problems = problems;
    }
}


/***/ }),

/***/ 33855:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Cu: () => (/* binding */ DEFAULT_CONFIG_FILE),
/* harmony export */   EX: () => (/* binding */ RESIDUAL_METRICS),
/* harmony export */   KJ: () => (/* binding */ CERTIFICATE_TYPES),
/* harmony export */   Q$: () => (/* binding */ RUNGS),
/* harmony export */   VC: () => (/* binding */ AGENT_PRESETS),
/* harmony export */   Z9: () => (/* binding */ loadConfig),
/* harmony export */   ZH: () => (/* binding */ budgetSchema),
/* harmony export */   jI: () => (/* binding */ PROFILES),
/* harmony export */   l$: () => (/* binding */ ISOLATION_LEVELS)
/* harmony export */ });
/* unused harmony exports SUCCESS_CERTIFICATES, CHECK_WORKSPACES, configSchema, parseConfig, configJsonSchema */
/* harmony import */ var yaml__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(38815);
/* harmony import */ var zod__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(23905);
/* harmony import */ var _common_decimal_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(69665);
/* harmony import */ var _common_errors_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(72251);
/* harmony import */ var _os_tree_file_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(34720);
// phuc-loop.yml (SPEC §3): parsed once with zod into a typed config. Every error names the field,
// the value found and what is allowed; nothing the loop's guarantees rest on is defaulted silently
// (goal, criteria, certificates, R_p for CONVERGED): without them no run could halt with a proof.





const CERTIFICATE_TYPES = ['EXACT', 'CONVERGED', 'TIMEOUT', 'BACKPRESSURE', 'DIVERGED'];
const SUCCESS_CERTIFICATES = ['EXACT', 'CONVERGED'];
const RESIDUAL_METRICS = ['failing_criteria', 'failing_tests_fraction', 'command'];
const PROFILES = ['strict', 'fast', 'benchmark_adapt'];
const AGENT_PRESETS = ['claude', 'codex', 'gemini', 'aider', 'command'];
const RUNGS = [641, 274177, 65537];
const ISOLATION_LEVELS = ['auto', 'user+pidns', 'pidns', 'none'];
const CHECK_WORKSPACES = ['clean', 'live'];
/** Fields that hold Decimals: their YAML source text is taken verbatim so no float ever parses them. */
const DECIMAL_FIELDS = [['R_p'], ['budget', 'max_total_cost_usd']];
const decimalString = () => zod__WEBPACK_IMPORTED_MODULE_4__/* .string */ .YjP({ error: 'must be a Decimal such as "1e-4"' }).refine((s) => (0,_common_decimal_js__WEBPACK_IMPORTED_MODULE_1__/* .parseDecimal */ .$Q)(s) !== null, {
    error: 'must be a Decimal such as "1e-4" (digits, optional point and exponent; not NaN, not "1,5")',
});
/** A Decimal in (0, max] (`positive`) or [0, max]; its canonical form must stay a Decimal string (certificates carry it). */
const boundedDecimal = (o) => decimalString().refine((s) => {
    const d = (0,_common_decimal_js__WEBPACK_IMPORTED_MODULE_1__/* .parseDecimal */ .$Q)(s);
    return d === null || ((o.positive ? d.gt(0) : d.gte(0)) && d.lte(o.max) && (0,_common_decimal_js__WEBPACK_IMPORTED_MODULE_1__/* .isDecimalString */ .Zw)((0,_common_decimal_js__WEBPACK_IMPORTED_MODULE_1__/* .dstr */ .Is)(d)));
}, { error: `must be a Decimal ${o.positive ? 'above 0' : 'of 0 or more'} and at most ${o.max}` });
const positiveInt = (max) => zod__WEBPACK_IMPORTED_MODULE_4__/* .number */ .aig().int().min(1).max(max);
const criterionSchema = zod__WEBPACK_IMPORTED_MODULE_4__/* .strictObject */ .rej({
    id: zod__WEBPACK_IMPORTED_MODULE_4__/* .string */ .YjP().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, {
        error: 'must be 1-64 characters of letters, digits, "_", "." or "-", starting with a letter or digit',
    }),
    description: zod__WEBPACK_IMPORTED_MODULE_4__/* .string */ .YjP().optional(),
    run: zod__WEBPACK_IMPORTED_MODULE_4__/* .string */ .YjP().trim().min(1, { error: 'must be a non-empty shell command' }),
    timeout_seconds: positiveInt(86_400).default(900),
    retries: zod__WEBPACK_IMPORTED_MODULE_4__/* .number */ .aig().int().min(0).max(5).default(0),
    /** Globs of the files this check depends on: while their hash is unchanged, a pass is reused. */
    inputs: zod__WEBPACK_IMPORTED_MODULE_4__/* .array */ .YOg(zod__WEBPACK_IMPORTED_MODULE_4__/* .string */ .YjP().min(1)).min(1, { error: 'must list at least one glob (or leave inputs out)' }).optional(),
    /**
     * The files this criterion runs are the agent's to write: without it, a criterion whose program is
     * not in the tree at the baseline is refused (the agent would write its own judge). Protected once they exist.
     */
    agent_writes: zod__WEBPACK_IMPORTED_MODULE_4__/* .boolean */ .zMY().optional(),
    /** Criteria (listed before this one) that must end before it starts; the others run side by side with it. */
    after: zod__WEBPACK_IMPORTED_MODULE_4__/* .array */ .YOg(zod__WEBPACK_IMPORTED_MODULE_4__/* .string */ .YjP().min(1)).optional(),
});
const agentFields = {
    use: zod__WEBPACK_IMPORTED_MODULE_4__/* ["enum"] */ .k5n(AGENT_PRESETS),
    run: zod__WEBPACK_IMPORTED_MODULE_4__/* .string */ .YjP().min(1).optional(),
    model: zod__WEBPACK_IMPORTED_MODULE_4__/* .string */ .YjP().min(1).optional(),
    args: zod__WEBPACK_IMPORTED_MODULE_4__/* .array */ .YOg(zod__WEBPACK_IMPORTED_MODULE_4__/* .string */ .YjP()).default([]),
};
/** Budgets a user may write (or override from the command line / action inputs). */
const budgetSchema = zod__WEBPACK_IMPORTED_MODULE_4__/* .strictObject */ .rej({
    max_iterations: positiveInt(10_000).optional(),
    max_seconds_per_iteration: positiveInt(86_400).optional(),
    max_total_seconds: positiveInt(30 * 86_400).optional(),
    max_total_cost_usd: boundedDecimal({ positive: false, max: '1000000' }).optional(),
    max_tool_calls_per_iteration: positiveInt(100_000).optional(),
    max_total_tool_calls: positiveInt(10_000_000).optional(),
});
const configSchema = zod__WEBPACK_IMPORTED_MODULE_4__/* .strictObject */ .rej({
    version: zod__WEBPACK_IMPORTED_MODULE_4__/* .literal */ .euz(2, { error: 'must be 2 (this is phuc-loop v2)' }),
    goal: zod__WEBPACK_IMPORTED_MODULE_4__/* .string */ .YjP().trim().min(1, { error: 'must state the goal of the loop' }),
    acceptance_criteria: zod__WEBPACK_IMPORTED_MODULE_4__/* .array */ .YOg(criterionSchema).min(1, { error: 'must list at least one criterion' }),
    certificates: zod__WEBPACK_IMPORTED_MODULE_4__/* .array */ .YOg(zod__WEBPACK_IMPORTED_MODULE_4__/* ["enum"] */ .k5n(CERTIFICATE_TYPES))
        .min(1, { error: 'must declare at least one certificate type' })
        .refine((list) => list.some((c) => SUCCESS_CERTIFICATES.includes(c)), {
        error: 'must include EXACT or CONVERGED: without a success certificate the loop could never halt converged',
    }),
    residual: zod__WEBPACK_IMPORTED_MODULE_4__/* .strictObject */ .rej({
        metric: zod__WEBPACK_IMPORTED_MODULE_4__/* ["enum"] */ .k5n(RESIDUAL_METRICS).default('failing_criteria'),
        junit: zod__WEBPACK_IMPORTED_MODULE_4__/* .string */ .YjP().min(1).optional(),
        run: zod__WEBPACK_IMPORTED_MODULE_4__/* .string */ .YjP().min(1).optional(),
        timeout_seconds: positiveInt(86_400).default(300),
    })
        .default({ metric: 'failing_criteria', timeout_seconds: 300 }),
    R_p: boundedDecimal({ positive: true, max: '1000000000' }).optional(),
    rung_target: zod__WEBPACK_IMPORTED_MODULE_4__/* .union */ .KCZ(RUNGS.map((r) => zod__WEBPACK_IMPORTED_MODULE_4__/* .literal */ .euz(r)), {
        error: 'must be one of 641 | 274177 | 65537',
    })
        .default(274177),
    profile: zod__WEBPACK_IMPORTED_MODULE_4__/* ["enum"] */ .k5n(PROFILES).default('strict'),
    budget: budgetSchema.default({}),
    northstar: zod__WEBPACK_IMPORTED_MODULE_4__/* .string */ .YjP().min(1).default('NORTHSTAR.md'),
    agent: zod__WEBPACK_IMPORTED_MODULE_4__/* .strictObject */ .rej({
        ...agentFields,
        /** How the agent (and the checks, which run its code) are kept from the loop: SPEC §7. */
        isolation: zod__WEBPACK_IMPORTED_MODULE_4__/* ["enum"] */ .k5n(ISOLATION_LEVELS).default('auto'),
        /**
         * The allow-list (SPEC §7): globs of the work tree the agent may change; any other change is
         * reverted and ends the run (GUARDRAIL_VIOLATION). Unset: every path but the protected ones.
         */
        may_change: zod__WEBPACK_IMPORTED_MODULE_4__/* .array */ .YOg(zod__WEBPACK_IMPORTED_MODULE_4__/* .string */ .YjP()
            .min(1)
            .refine((g) => !g.startsWith('/') && !g.split('/').includes('..'), {
            error: 'must be a glob relative to the repository root (no leading "/", no "..")',
        }))
            .min(1, { error: 'must list at least one glob such as "src/**" (or leave may_change out)' })
            .optional(),
        /** Hold the agent's API key in a local proxy; the agent gets a placeholder and the proxy's URL. */
        key_proxy: zod__WEBPACK_IMPORTED_MODULE_4__/* .boolean */ .zMY().default(false),
        /**
         * What the agent's network namespace reaches besides the key proxy (and, without it, its preset's
         * model API): these hosts (`host` or `host:port`, through HTTPS_PROXY), or `open` for the machine's network.
         */
        network: zod__WEBPACK_IMPORTED_MODULE_4__/* .union */ .KCZ([zod__WEBPACK_IMPORTED_MODULE_4__/* .literal */ .euz('open'), zod__WEBPACK_IMPORTED_MODULE_4__/* .array */ .YOg(zod__WEBPACK_IMPORTED_MODULE_4__/* .string */ .YjP().regex(/^[A-Za-z0-9.-]+(:\d{1,5})?$/, { error: 'must be a host name or host:port' })).max(100)], {
            error: 'must be open or a list of hosts (host or host:port)',
        })
            .default([]),
        /**
         * Folders outside the work tree that the agent and the checks may write at pidns and user+pidns (a
         * build cache); the rest of the machine is read-only to them. What one leaves there, later ones see.
         */
        writable: zod__WEBPACK_IMPORTED_MODULE_4__/* .array */ .YOg(zod__WEBPACK_IMPORTED_MODULE_4__/* .string */ .YjP().regex(/^\/./, { error: 'must be an absolute path to a folder' }))
            .max(4, { error: 'may list at most 4 folders' })
            .default([]),
        /**
         * Variables of the loop's environment the agent is given beyond the allowlist (locale, terminal, its
         * preset's own), also when their names look secret (NPM_TOKEN…); `FOO_*` names every variable starting with FOO_.
         */
        pass_env: zod__WEBPACK_IMPORTED_MODULE_4__/* .array */ .YOg(zod__WEBPACK_IMPORTED_MODULE_4__/* .string */ .YjP().regex(/^[A-Za-z_][A-Za-z0-9_]*\*?$/, { error: 'must be an environment variable name, or a prefix followed by *' }))
            .default([]),
        /** No output and no file change for this long stops the agent (an agent failure). */
        idle_seconds: positiveInt(86_400).optional(),
        /** A stronger agent or model the loop switches to after two stalled iterations. */
        escalate: zod__WEBPACK_IMPORTED_MODULE_4__/* .strictObject */ .rej({
            use: zod__WEBPACK_IMPORTED_MODULE_4__/* ["enum"] */ .k5n(AGENT_PRESETS).optional(),
            run: zod__WEBPACK_IMPORTED_MODULE_4__/* .string */ .YjP().min(1).optional(),
            model: zod__WEBPACK_IMPORTED_MODULE_4__/* .string */ .YjP().min(1).optional(),
            args: zod__WEBPACK_IMPORTED_MODULE_4__/* .array */ .YOg(zod__WEBPACK_IMPORTED_MODULE_4__/* .string */ .YjP()).optional(),
        })
            .refine((e) => e.use || e.run || e.model || e.args, { error: 'must name at least one of use, run, model, args' })
            .optional(),
    }),
    /** An optional critic after the checks: its JSON verdict is Lane C (docs/glossary.md "Critic"). */
    critic: zod__WEBPACK_IMPORTED_MODULE_4__/* .strictObject */ .rej({ ...agentFields, timeout_seconds: positiveInt(86_400).default(600) }).optional(),
    /** Known fixes for repeated failure signatures: `match` is a substring, or /regex/, of the signature or its text. */
    detours: zod__WEBPACK_IMPORTED_MODULE_4__/* .array */ .YOg(zod__WEBPACK_IMPORTED_MODULE_4__/* .strictObject */ .rej({ match: zod__WEBPACK_IMPORTED_MODULE_4__/* .string */ .YjP().min(1), instruction: zod__WEBPACK_IMPORTED_MODULE_4__/* .string */ .YjP().min(1) })).default([]),
    stall_iterations: zod__WEBPACK_IMPORTED_MODULE_4__/* .number */ .aig().int().min(2).max(100).default(3),
    /** A mission-context file (DEGA ideology rule): advisory framing in the prompt, never a gate. */
    mission_context: zod__WEBPACK_IMPORTED_MODULE_4__/* .string */ .YjP().min(1).optional(),
    protected: zod__WEBPACK_IMPORTED_MODULE_4__/* .array */ .YOg(zod__WEBPACK_IMPORTED_MODULE_4__/* .string */ .YjP().min(1)).default([]),
    replays: zod__WEBPACK_IMPORTED_MODULE_4__/* .number */ .aig().int().min(2).max(10).default(2),
    /** Where the criteria are judged: a loop-owned checkout of the iteration's commit (clean) or the work tree (live). */
    checks: zod__WEBPACK_IMPORTED_MODULE_4__/* .strictObject */ .rej({
        workspace: zod__WEBPACK_IMPORTED_MODULE_4__/* ["enum"] */ .k5n(CHECK_WORKSPACES).default('clean'),
        /** Installs dependencies in the workspace (e.g. `npm ci`); re-run only when its inputs change. */
        setup: zod__WEBPACK_IMPORTED_MODULE_4__/* .string */ .YjP().trim().min(1).optional(),
        /** Globs whose content decides when setup re-runs; default: the common lockfiles and manifests. */
        setup_inputs: zod__WEBPACK_IMPORTED_MODULE_4__/* .array */ .YOg(zod__WEBPACK_IMPORTED_MODULE_4__/* .string */ .YjP().min(1)).min(1).optional(),
        setup_timeout_seconds: positiveInt(86_400).default(1800),
        /** Variables the checks get (besides PATH, LANG and a fresh HOME): nothing else of the loop's environment. */
        env: zod__WEBPACK_IMPORTED_MODULE_4__/* .record */ .g1P(zod__WEBPACK_IMPORTED_MODULE_4__/* .string */ .YjP().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), zod__WEBPACK_IMPORTED_MODULE_4__/* .string */ .YjP()).default({}),
        /** JUnit XML files the criteria write: the tests they ran are counted (suite integrity) and named in failures. */
        junit: zod__WEBPACK_IMPORTED_MODULE_4__/* .string */ .YjP().min(1).optional(),
        /** A human-approved drop in the number of tests the suite runs (the suite-integrity guard). */
        allow_fewer_tests: zod__WEBPACK_IMPORTED_MODULE_4__/* .boolean */ .zMY().default(false),
        /** The checks' network: loopback only, or the machine's (`checks.setup` always has the machine's). */
        network: zod__WEBPACK_IMPORTED_MODULE_4__/* ["enum"] */ .k5n(['loopback', 'open']).default('loopback'),
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
    user_files: zod__WEBPACK_IMPORTED_MODULE_4__/* .strictObject */ .rej({
        regenerable: zod__WEBPACK_IMPORTED_MODULE_4__/* .array */ .YOg(zod__WEBPACK_IMPORTED_MODULE_4__/* .string */ .YjP()
            .regex(/^[^/\\]+$/, { error: 'must be a folder or file name (no "/"): every ignored folder or file of that name is left out' })
            .refine((n) => n !== '.' && n !== '..', {
            error: 'must be a folder or file name, not "." or ".."',
        })),
    })
        .optional(),
    northstar_neutral_reason: zod__WEBPACK_IMPORTED_MODULE_4__/* .string */ .YjP().min(1).optional(),
    security: zod__WEBPACK_IMPORTED_MODULE_4__/* .strictObject */ .rej({
        gate: zod__WEBPACK_IMPORTED_MODULE_4__/* .string */ .YjP().min(1),
        api_surface: zod__WEBPACK_IMPORTED_MODULE_4__/* .string */ .YjP().min(1),
        drift_explanation: zod__WEBPACK_IMPORTED_MODULE_4__/* .string */ .YjP().min(1).default('API_CHANGES.md'),
        /**
         * Rung 65537's adversarial paraphrase: a command that reads the goal and criteria (JSON on
         * stdin) and prints the goal restated with each requirement mapped to a criterion id
         * (judge/rung65537.ts), or `agent`: the configured agent restates it, as in its own step;
         * without it the rung is not reached.
         */
        paraphrase: zod__WEBPACK_IMPORTED_MODULE_4__/* .string */ .YjP().min(1).optional(),
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
    if (c.agent.use === 'command' && !c.agent.run)
        ctx.addIssue({ code: 'custom', path: ['agent', 'run'], message: 'is required when agent.use is command' });
    if (c.agent.escalate?.use === 'command' && !c.agent.escalate.run)
        ctx.addIssue({ code: 'custom', path: ['agent', 'escalate', 'run'], message: 'is required when agent.escalate.use is command' });
    if (c.critic?.use === 'command' && !c.critic.run)
        ctx.addIssue({ code: 'custom', path: ['critic', 'run'], message: 'is required when critic.use is command' });
    c.detours.forEach((d, i) => {
        const re = /^\/(.*)\/([a-z]*)$/.exec(d.match);
        if (re)
            try {
                new RegExp(re[1], re[2]);
            }
            catch (e) {
                ctx.addIssue({ code: 'custom', path: ['detours', i, 'match'], message: `is not a valid regular expression: ${e.message}` });
            }
    });
    if (c.rung_target === 65537 && !c.security)
        ctx.addIssue({ code: 'custom', path: ['security'], message: 'is required for rung_target 65537 (gate and api_surface commands)' });
    const ids = c.acceptance_criteria.map((a) => a.id);
    ids.forEach((id, i) => {
        if (ids.indexOf(id) !== i)
            ctx.addIssue({ code: 'custom', path: ['acceptance_criteria', i, 'id'], message: `duplicates id "${id}"; ids must be unique` });
    });
    // Only earlier criteria: the order the user wrote is one the criteria can run in (no cycle).
    c.acceptance_criteria.forEach((a, i) => a.after?.forEach((dep, j) => {
        if (!ids.slice(0, i).includes(dep))
            ctx.addIssue({
                code: 'custom',
                path: ['acceptance_criteria', i, 'after', j],
                message: `must be the id of a criterion listed before this one (${ids
                    .slice(0, i)
                    .map((x) => JSON.stringify(x))
                    .join(', ') || 'none is'}), got ${JSON.stringify(dep)}`,
            });
    }));
});
function describeValue(value) {
    if (value === undefined)
        return 'nothing';
    const text = JSON.stringify(value);
    return text.length > 80 ? text.slice(0, 77) + '...' : text;
}
function valueAt(root, path) {
    let v = root;
    for (const key of path) {
        if (v === null || typeof v !== 'object')
            return undefined;
        v = v[key];
    }
    return v;
}
function problemsFrom(error, raw) {
    const out = [];
    for (const issue of error.issues) {
        if (issue.code === 'unrecognized_keys') {
            const allowed = allowedKeysAt(issue.path).join(', ');
            for (const key of issue.keys)
                out.push({ field: [...issue.path, key].join('.'), message: `is not a known field; allowed here: ${allowed}` });
            continue;
        }
        const field = issue.path.join('.');
        const got = valueAt(raw, issue.path);
        let message = issue.message;
        if (issue.code === 'invalid_value' && 'values' in issue)
            message = `${got === undefined ? 'is required' : `got ${describeValue(got)}`}; allowed: ${issue.values.map(String).join(' | ')}`;
        else if (issue.code === 'invalid_type')
            message = got === undefined ? `is required (${issue.expected})` : `got ${describeValue(got)}; expected ${issue.expected}`;
        else if (issue.code !== 'custom' && got !== undefined)
            message = `got ${describeValue(got)}; ${issue.message}`;
        out.push({ field, message });
    }
    return out;
}
/** The keys a strict object accepts at `path`, for "allowed here" in unknown-key messages. */
function allowedKeysAt(path) {
    let node = unwrap(configSchema);
    for (const key of path) {
        const def = node._zod.def;
        const next = typeof key === 'number' ? def.element : def.shape?.[key];
        if (!next)
            return [];
        node = unwrap(next);
    }
    return Object.keys(node._zod.def.shape ?? {});
}
function unwrap(node) {
    let n = node;
    while (n._zod.def.innerType)
        n = n._zod.def.innerType;
    return n;
}
const MAX_ALIASES = 100;
/** Reads the YAML so that Decimal fields keep their source text (YAML `1e-4` would otherwise be a float). */
function readYaml(text) {
    const lines = new yaml__WEBPACK_IMPORTED_MODULE_0__/* .LineCounter */ .HN();
    const doc = (0,yaml__WEBPACK_IMPORTED_MODULE_0__/* .parseDocument */ .Tp)(text, { prettyErrors: false, uniqueKeys: true, lineCounter: lines });
    const at = (e) => {
        const { line, col } = lines.linePos(e.pos[0]);
        return ` at line ${line}, column ${col}`;
    };
    if (doc.errors.length)
        return { value: undefined, errors: doc.errors.map((e) => ({ field: '', message: `YAML syntax${at(e)}: ${e.message.split('\n')[0]}` })) };
    for (const path of DECIMAL_FIELDS) {
        const node = doc.getIn(path, true);
        if ((0,yaml__WEBPACK_IMPORTED_MODULE_0__/* .isScalar */ .jn)(node) && typeof node.value === 'number' && node.source !== undefined) {
            doc.setIn(path, node.source);
        }
    }
    if (!(0,yaml__WEBPACK_IMPORTED_MODULE_0__/* .isMap */ .jh)(doc.contents))
        return { value: undefined, errors: [{ field: '', message: 'must be a YAML mapping of fields (see phuc-loop init)' }] };
    try {
        return { value: doc.toJS({ maxAliasCount: MAX_ALIASES }), errors: [] };
    }
    catch (e) {
        // An alias bomb (aliases of aliases, billions of nodes): refused, never expanded.
        if (!(e instanceof ReferenceError))
            throw e;
        return { value: undefined, errors: [{ field: '', message: `YAML aliases: ${e.message}; at most ${MAX_ALIASES} are expanded` }] };
    }
}
/** The config file a loop reads when none is named. */
const DEFAULT_CONFIG_FILE = 'phuc-loop.yml';
function parseConfig(text, file = DEFAULT_CONFIG_FILE) {
    const { value, errors } = readYaml(text);
    if (errors.length)
        throw new _common_errors_js__WEBPACK_IMPORTED_MODULE_2__/* .ConfigError */ .xL(file, errors);
    const result = configSchema.safeParse(value);
    if (!result.success)
        throw new _common_errors_js__WEBPACK_IMPORTED_MODULE_2__/* .ConfigError */ .xL(file, problemsFrom(result.error, value));
    return result.data;
}
async function loadConfig(path, displayName) {
    const data = await (0,_os_tree_file_js__WEBPACK_IMPORTED_MODULE_3__/* .readRegular */ .VX)(path);
    if (data === null)
        throw new _common_errors_js__WEBPACK_IMPORTED_MODULE_2__/* .ConfigError */ .xL(displayName, [{ field: '', message: 'not found as a regular file (run `phuc-loop init` to write one)' }]);
    return parseConfig(data.toString('utf8'), displayName);
}
/** JSON Schema of the config for editors, generated from the zod schema. */
function configJsonSchema() {
    const schema = z.toJSONSchema(configSchema, { io: 'input', unrepresentable: 'any' });
    return { ...schema, $id: 'https://phuc-loop.dev/schema/phuc-loop.schema.json', title: 'phuc-loop.yml (version 2)' };
}


/***/ }),

/***/ 34720:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Cm: () => (/* binding */ linkTarget),
/* harmony export */   Cq: () => (/* binding */ readOr),
/* harmony export */   D5: () => (/* binding */ ancestorInTheWay),
/* harmony export */   F3: () => (/* binding */ readAsGit),
/* harmony export */   VX: () => (/* binding */ readRegular),
/* harmony export */   Wy: () => (/* binding */ readRegularSync),
/* harmony export */   YT: () => (/* binding */ readAsGitIn),
/* harmony export */   Zo: () => (/* binding */ linkLeavesTree),
/* harmony export */   dM: () => (/* binding */ removeTree),
/* harmony export */   gT: () => (/* binding */ readRegularIn),
/* harmony export */   ib: () => (/* binding */ isLinkIn),
/* harmony export */   lf: () => (/* binding */ openRegular),
/* harmony export */   mq: () => (/* binding */ readHeadSync),
/* harmony export */   nd: () => (/* binding */ lstatOrNull)
/* harmony export */ });
/* harmony import */ var node_child_process__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(31421);
/* harmony import */ var node_child_process__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_child_process__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(73024);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__webpack_require__.n(node_fs__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(51455);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_2___default = /*#__PURE__*/__webpack_require__.n(node_fs_promises__WEBPACK_IMPORTED_MODULE_2__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(76760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_3___default = /*#__PURE__*/__webpack_require__.n(node_path__WEBPACK_IMPORTED_MODULE_3__);
// Reading what the agent could have planted. The loop reads the work tree as root: a path there may
// be a link to any file of the machine, a FIFO that blocks an open() for ever, or a device. Every
// read of such a path goes through here: never through a link, never blocking, never more than asked.
// And removing it: a folder nested past PATH_MAX.




/** lstat, or null when there is nothing at `path` (or it cannot be looked at: ENOTDIR, EACCES...). */
function lstatOrNull(path) {
    try {
        return (0,node_fs__WEBPACK_IMPORTED_MODULE_1__.lstatSync)(path, { throwIfNoEntry: false }) ?? null;
    }
    catch {
        return null;
    }
}
/** A link's target text, or null when `path` is not a link that can be read. */
function linkTarget(path) {
    try {
        return (0,node_fs__WEBPACK_IMPORTED_MODULE_1__.readlinkSync)(path);
    }
    catch {
        return null;
    }
}
/**
 * A regular file's bytes (at most `maxBytes`), opened with O_NOFOLLOW (a link at the final name is
 * refused) and O_NONBLOCK (a FIFO does not hang the open); anything else is refused with why.
 */
async function openRegular(path, maxBytes = Infinity) {
    let fh;
    try {
        fh = await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_2__.open)(path, node_fs__WEBPACK_IMPORTED_MODULE_1__.constants.O_RDONLY | node_fs__WEBPACK_IMPORTED_MODULE_1__.constants.O_NOFOLLOW | node_fs__WEBPACK_IMPORTED_MODULE_1__.constants.O_NONBLOCK);
    }
    catch (e) {
        const code = e.code;
        return { refused: code === 'ELOOP' ? 'it is a symbolic link' : code === 'ENOENT' ? 'it does not exist' : `it cannot be opened (${code})` };
    }
    try {
        const stat = await fh.stat();
        if (!stat.isFile())
            return { refused: 'it is not a regular file' };
        if (stat.size > maxBytes)
            return { refused: `it is larger than ${maxBytes} bytes` };
        return { data: await fh.readFile(), stat };
    }
    finally {
        await fh.close();
    }
}
/** A regular file's bytes, or null for anything else (absent, a link, a FIFO, too large). */
async function readRegular(path, maxBytes = Infinity) {
    const r = await openRegular(path, maxBytes);
    return 'data' in r ? r.data : null;
}
/**
 * readRegular from the loop's thread, for git's small files (HEAD, refs, the index, a new object):
 * a FIFO planted there must not block the open (nor, read synchronously, the whole loop).
 */
function readRegularSync(path, maxBytes = Infinity) {
    return withRegularSync(path, (fd, size) => (size <= maxBytes ? (0,node_fs__WEBPACK_IMPORTED_MODULE_1__.readFileSync)(fd) : null));
}
/** At most the first `bytes` bytes of a regular file, read as readRegularSync reads (a small file the agent left: its report). */
function readHeadSync(path, bytes) {
    return withRegularSync(path, (fd, size) => {
        const buf = Buffer.alloc(Math.min(size, bytes));
        return buf.subarray(0, (0,node_fs__WEBPACK_IMPORTED_MODULE_1__.readSync)(fd, buf, 0, buf.length, 0));
    });
}
function withRegularSync(path, read) {
    let fd;
    try {
        fd = (0,node_fs__WEBPACK_IMPORTED_MODULE_1__.openSync)(path, node_fs__WEBPACK_IMPORTED_MODULE_1__.constants.O_RDONLY | node_fs__WEBPACK_IMPORTED_MODULE_1__.constants.O_NOFOLLOW | node_fs__WEBPACK_IMPORTED_MODULE_1__.constants.O_NONBLOCK);
    }
    catch {
        return null;
    }
    try {
        const stat = (0,node_fs__WEBPACK_IMPORTED_MODULE_1__.fstatSync)(fd);
        return stat.isFile() ? read(fd, stat.size) : null;
    }
    catch {
        return null;
    }
    finally {
        (0,node_fs__WEBPACK_IMPORTED_MODULE_1__.closeSync)(fd);
    }
}
/**
 * A work-tree path as git sees it: a link's target text (what git commits for it, never what it
 * points to), a regular file's bytes; null when absent or neither (git ignores FIFOs and devices).
 */
async function readAsGit(path) {
    const st = lstatOrNull(path);
    if (st?.isSymbolicLink())
        return Buffer.from(await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_2__.readlink)(path).catch(() => ''));
    return st?.isFile() ? readRegular(path) : null;
}
// Work-tree paths are names the agent chose, under folders the agent could have replaced by links.
// The loop (root) reads, writes and deletes only where every folder on the way is a real folder:
// each ancestor is looked at with lstat, from the tree's root down (the agent has stopped by then).
// lstat and readlink never block (a FIFO is not opened) and cost microseconds synchronously, where
// each asynchronous call costs round trips through the thread pool, several per changed path.
/** The first folder on the way to `rel` (relative to `root`) that exists but is not a real folder; null when none. */
function ancestorInTheWay(root, rel) {
    const parts = rel.split('/').filter((p) => p !== '' && p !== '.');
    for (let i = 1; i < parts.length; i++) {
        const path = parts.slice(0, i).join('/');
        if (parts[i - 1] === '..')
            return { path, what: 'a step out of the tree' };
        const st = lstatOrNull((0,node_path__WEBPACK_IMPORTED_MODULE_3__.join)(root, path));
        if (!st)
            return null; // missing: nothing below it exists either; a write creates real folders
        if (!st.isDirectory())
            return { path, what: st.isSymbolicLink() ? 'a symbolic link' : 'not a folder' };
    }
    return null;
}
/** readAsGit for a work-tree path, never through a folder that is a link (then: null, as git sees it). */
async function readAsGitIn(root, rel) {
    return ancestorInTheWay(root, rel) ? null : readAsGit((0,node_path__WEBPACK_IMPORTED_MODULE_3__.join)(root, rel));
}
/** readRegular for a work-tree path, never through a folder that is a link. */
async function readRegularIn(root, rel, maxBytes = Infinity) {
    return ancestorInTheWay(root, rel) ? null : readRegular((0,node_path__WEBPACK_IMPORTED_MODULE_3__.join)(root, rel), maxBytes);
}
/** Whether a work-tree path is a link itself (never looked at through a folder that is a link). */
function isLinkIn(root, rel) {
    if (ancestorInTheWay(root, rel))
        return false;
    return !!lstatOrNull((0,node_path__WEBPACK_IMPORTED_MODULE_3__.join)(root, rel))?.isSymbolicLink();
}
/** At most this many links on the way, as the kernel allows (ELOOP beyond). */
const MAX_LINKS = 40;
/**
 * Where the link at `rel` leads, resolved as the kernel would from its place in the tree: every link
 * on the way followed (links to links, any depth, `..` after a link climbs from where that link
 * led). Returns why it leaves the tree (an absolute target, a climb above the root, into .git, more
 * links than the kernel follows, a link it cannot read), or null when it ends inside the tree. A
 * missing step is taken as a plain folder (a clean checkout may create it), so `..` after it is judged
 * lexically, never more leniently.
 */
function linkLeavesTree(root, rel) {
    const pending = rel.split('/');
    const at = [];
    let links = 0;
    let missing = false;
    while (pending.length) {
        const c = pending.shift();
        if (c === '' || c === '.')
            continue;
        if (c === '..') {
            if (!at.length)
                return 'it climbs out of the tree';
            at.pop();
            continue;
        }
        at.push(c);
        if (at.length === 1 && c.toLowerCase() === '.git')
            return 'it leads into .git';
        if (missing)
            continue;
        const here = (0,node_path__WEBPACK_IMPORTED_MODULE_3__.join)(root, ...at);
        const st = lstatOrNull(here);
        if (!st) {
            missing = true;
            continue;
        }
        if (st.isSymbolicLink()) {
            if (++links > MAX_LINKS)
                return `more than ${MAX_LINKS} links on the way`;
            const target = linkTarget(here);
            if (target === null)
                return 'a link on the way cannot be read';
            if ((0,node_path__WEBPACK_IMPORTED_MODULE_3__.isAbsolute)(target))
                return `a link on the way is absolute (${at.join('/')} -> ${target})`;
            at.pop();
            pending.unshift(...target.split('/'));
        }
        else if (!st.isDirectory())
            missing = pending.some((p) => p !== '' && p !== '.'); // ENOTDIR for the kernel
    }
    return null;
}
const RM = ['/usr/bin/rm', '/bin/rm'].find((p) => (0,node_fs__WEBPACK_IMPORTED_MODULE_1__.existsSync)(p)) ?? 'rm';
/**
 * Removes `path` and everything in it, where a role may have written. Node's rm names each entry by
 * its full path and gives up past PATH_MAX (folders nested 4 KiB deep): coreutils' rm, which works
 * from each folder in turn, removes what it left.
 */
async function removeTree(path) {
    try {
        await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_2__.rm)(path, { recursive: true, force: true });
    }
    catch (e) {
        if (e.code !== 'ENAMETOOLONG')
            throw e;
        await new Promise((resolve, reject) => {
            (0,node_child_process__WEBPACK_IMPORTED_MODULE_0__.execFile)(RM, ['-rf', '--', path], { env: { LC_ALL: 'C' }, timeout: 300_000, killSignal: 'SIGKILL' }, (err, _out, stderr) => err ? reject(new Error(`rm -rf ${path} failed: ${stderr.trim() || err.message}`)) : resolve());
        });
    }
}
/** `read()`, or `fallback` when it throws. */
function readOr(read, fallback) {
    try {
        return read();
    }
    catch {
        return fallback;
    }
}


/***/ }),

/***/ 42502:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   ai: () => (/* binding */ EXIT_CODES),
/* harmony export */   kl: () => (/* binding */ TERMINAL_STATES),
/* harmony export */   pY: () => (/* binding */ Fsm),
/* harmony export */   xj: () => (/* binding */ STATES)
/* harmony export */ });
/* unused harmony exports TRANSITIONS, isTerminal */
/* harmony import */ var _common_errors_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(72251);
// The loop's finite state machine (ARCHITECTURE.md): every state, every allowed transition, five terminal exits.
// An illegal transition is an invariant violation, never silently followed.

const STATES = [
    'INIT',
    'INTAKE_GOAL',
    'NULL_CHECK',
    'DREAM_GOAL',
    'SPAWN_SUBAGENT',
    'COLLECT_ARTIFACTS',
    'CHECK_HALTING',
    'ACCUMULATE_LEARNINGS',
    'GLOW_CHECK',
    'BUDGET_CHECK',
    'EXIT_CONVERGED',
    'EXIT_DIVERGED',
    'EXIT_BUDGET_EXCEEDED',
    'EXIT_BLOCKED',
    'EXIT_NEED_INFO',
];
const TERMINAL_STATES = STATES.filter((s) => s.startsWith('EXIT_'));
const TRANSITIONS = {
    INIT: ['INTAKE_GOAL'],
    INTAKE_GOAL: ['NULL_CHECK', 'EXIT_NEED_INFO'],
    NULL_CHECK: ['EXIT_NEED_INFO', 'DREAM_GOAL'],
    // Resuming from evidence re-enters at DREAM_GOAL (the plan is read back, not rewritten).
    // The judgement HEAD starts from may already converge, or be stopped.
    DREAM_GOAL: ['SPAWN_SUBAGENT', 'EXIT_CONVERGED', 'EXIT_BLOCKED', 'EXIT_BUDGET_EXCEEDED', 'EXIT_NEED_INFO'],
    SPAWN_SUBAGENT: ['COLLECT_ARTIFACTS', 'EXIT_BLOCKED', 'EXIT_BUDGET_EXCEEDED'],
    COLLECT_ARTIFACTS: ['CHECK_HALTING', 'EXIT_BLOCKED'],
    CHECK_HALTING: ['ACCUMULATE_LEARNINGS', 'EXIT_NEED_INFO'],
    ACCUMULATE_LEARNINGS: ['GLOW_CHECK', 'EXIT_BLOCKED'],
    GLOW_CHECK: ['EXIT_BLOCKED', 'BUDGET_CHECK'],
    BUDGET_CHECK: ['EXIT_CONVERGED', 'EXIT_DIVERGED', 'EXIT_BUDGET_EXCEEDED', 'EXIT_BLOCKED', 'SPAWN_SUBAGENT'],
    EXIT_CONVERGED: [],
    EXIT_DIVERGED: [],
    EXIT_BUDGET_EXCEEDED: [],
    EXIT_BLOCKED: [],
    EXIT_NEED_INFO: [],
};
function isTerminal(s) {
    return TRANSITIONS[s].length === 0;
}
class Fsm {
    state = 'INIT';
    trace = ['INIT'];
    /** Told of every state entered (the host's phase events, loop/phase-events.ts). */
    onEnter;
    to(next) {
        if (!TRANSITIONS[this.state].includes(next))
            throw new _common_errors_js__WEBPACK_IMPORTED_MODULE_0__/* .InvariantViolation */ .wM('ILLEGAL_TRANSITION', `illegal FSM transition ${this.state} → ${next}`);
        this.state = next;
        this.trace.push(next);
        this.onEnter?.(next);
    }
    /** Enters the terminal state, through BUDGET_CHECK when the iteration went that far. */
    finish(exit) {
        if (this.state === exit)
            return;
        for (const via of ['CHECK_HALTING', 'ACCUMULATE_LEARNINGS', 'GLOW_CHECK', 'BUDGET_CHECK']) {
            if (TRANSITIONS[this.state].includes(exit))
                break;
            if (TRANSITIONS[this.state].includes(via))
                this.to(via);
        }
        this.to(exit);
    }
    /** The trace since the last call, for the per-iteration history record. */
    drain() {
        return this.trace.splice(0, this.trace.length - 1);
    }
}
/** Exit status codes of `phuc-loop run` (and the Action's outcome). */
const EXIT_CODES = {
    EXIT_CONVERGED: 0,
    CRASH: 1,
    USAGE: 2,
    EXIT_DIVERGED: 10,
    EXIT_BUDGET_EXCEEDED: 11,
    EXIT_BLOCKED: 12,
    EXIT_NEED_INFO: 13,
};


/***/ })

};
