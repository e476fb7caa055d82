export const id = 188;
export const ids = [188];
export const modules = {

/***/ 94832:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   JP: () => (/* binding */ frozen),
/* harmony export */   _s: () => (/* binding */ canonicalJsonOfRecords),
/* harmony export */   dj: () => (/* binding */ canonicalJson),
/* harmony export */   sc: () => (/* binding */ sha256)
/* harmony export */ });
/* unused harmony export canonicalize */
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(77598);
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_crypto__WEBPACK_IMPORTED_MODULE_0__);
// Canonical JSON (sorted keys, two-space indent, LF, trailing newline) and sha256, so the same
// evidence always yields the same bytes and the same hashes.

function canonicalize(value) {
    if (Array.isArray(value))
        return value.map(canonicalize);
    if (value && typeof value === 'object') {
        const out = {};
        for (const key of Object.keys(value).sort()) {
            const v = value[key];
            if (v !== undefined)
                out[key] = canonicalize(v);
        }
        return out;
    }
    if (typeof value === 'number' && !Number.isInteger(value)) {
        throw new Error(`non-integer number ${value} in canonical JSON: use a Decimal string`);
    }
    return value;
}
function canonicalJson(value) {
    return JSON.stringify(canonicalize(value), null, 2) + '\n';
}
function sha256(data) {
    return (0,node_crypto__WEBPACK_IMPORTED_MODULE_0__.createHash)('sha256').update(data).digest('hex');
}
/** `value`, deeply frozen: a record that never changes again (its canonical text may then be reused). */
function frozen(value) {
    if (value && typeof value === 'object' && !Object.isFrozen(value)) {
        for (const v of Object.values(value))
            frozen(v);
        Object.freeze(value);
    }
    return value;
}
/** Canonical text of frozen array elements, as they stand in a top-level array (indented four spaces). */
const elementTexts = new WeakMap();
const indented = (text, pad) => pad + text.replaceAll('\n', `\n${pad}`);
/**
 * canonicalJson(value) of an object whose arrays grow by frozen records (the loop's state: a row and
 * a cycle an iteration): each frozen record is canonicalized once, so writing the document costs the
 * loop's thread no more per iteration at iteration 200 than at iteration 1. The same bytes.
 */
function canonicalJsonOfRecords(value) {
    const members = [];
    for (const key of Object.keys(value).sort()) {
        const v = value[key];
        if (v === undefined)
            continue;
        let text;
        if (Array.isArray(v) && v.some((e) => e && typeof e === 'object' && Object.isFrozen(e))) {
            const elements = v.map((e) => {
                if (!e || typeof e !== 'object' || !Object.isFrozen(e))
                    return indented(JSON.stringify(canonicalize(e), null, 2) ?? 'null', '    ');
                let t = elementTexts.get(e);
                if (t === undefined)
                    elementTexts.set(e, (t = indented(JSON.stringify(canonicalize(e), null, 2), '    ')));
                return t;
            });
            text = `[\n${elements.join(',\n')}\n  ]`;
        }
        else {
            const json = JSON.stringify(canonicalize(v), null, 2);
            if (json === undefined)
                continue;
            text = json.replaceAll('\n', '\n  ');
        }
        members.push(`  ${JSON.stringify(key)}: ${text}`);
    }
    return members.length ? `{\n${members.join(',\n')}\n}\n` : '{}\n';
}


/***/ }),

/***/ 98256:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   M: () => (/* binding */ normalizeVolatile)
/* harmony export */ });
// Volatile text — clock times, dates, durations, pids, temporary paths — becomes a placeholder. One
// normaliser serves every reader of text the loop does not control: agent-written learnings (the
// same evidence must give the same AGENTS.md entry and capsule bytes, and a timestamp would get the
// capsule refused: docs/glossary.md "CNF capsule", "AGENTS.md entry") and failing checks' output
// (the same failure must give the same signature in every iteration and run: "Failure signature").
const MONTH = '(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)';
const WEEKDAY = '(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]{0,6},?\\s+)?';
const UNIT = '(?:ns|µs|us|ms|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?)';
const VOLATILE = [
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
function normalizeVolatile(text) {
    let s = text;
    for (const [re, to] of VOLATILE)
        s = s.replace(re, to);
    return s;
}


/***/ }),

/***/ 67968:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Ek: () => (/* binding */ budgetRecordSchema),
/* harmony export */   ky: () => (/* binding */ resolveBudget)
/* harmony export */ });
/* unused harmony exports DEFAULT_BUDGET, PROFILE_SCALES, CLAMP_MIN */
/* harmony import */ var zod__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(23905);
/* harmony import */ var _common_decimal_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(69665);
/* harmony import */ var _common_document_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(44505);
// Budgets: hard limits (docs/glossary.md "Budget"). A profile scales the defaults and clamps bound
// how far the scaling may reduce them; a value written in the config is taken as written.



/** The limits a run works under, as plan.json records them. */
const budgetRecordSchema = zod__WEBPACK_IMPORTED_MODULE_2__/* .object */ .Ikc({
    max_iterations: zod__WEBPACK_IMPORTED_MODULE_2__/* .number */ .aig().int().min(1),
    max_seconds_per_iteration: zod__WEBPACK_IMPORTED_MODULE_2__/* .number */ .aig().int().min(1),
    max_total_seconds: zod__WEBPACK_IMPORTED_MODULE_2__/* .number */ .aig().int().min(1),
    max_total_cost_usd: _common_document_js__WEBPACK_IMPORTED_MODULE_1__/* .decimalString */ .dw.nullable(),
    max_tool_calls_per_iteration: zod__WEBPACK_IMPORTED_MODULE_2__/* .number */ .aig().int().min(1),
    max_total_tool_calls: zod__WEBPACK_IMPORTED_MODULE_2__/* .number */ .aig().int().min(1),
});
const DEFAULT_BUDGET = {
    max_iterations: 10,
    max_seconds_per_iteration: 1800,
    max_total_seconds: 14400,
    max_total_cost_usd: null,
    max_tool_calls_per_iteration: 80,
    max_total_tool_calls: 500,
};
const KIND = {
    max_iterations: 'iterations',
    max_seconds_per_iteration: 'seconds',
    max_total_seconds: 'seconds',
    max_tool_calls_per_iteration: 'tool_calls',
    max_total_tool_calls: 'tool_calls',
};
const PROFILE_SCALES = {
    strict: { iterations: '1', seconds: '1', tool_calls: '1' },
    fast: { iterations: '0.5', seconds: '0.5', tool_calls: '0.5' },
    benchmark_adapt: { iterations: '0.7', seconds: '0.7', tool_calls: '0.8' },
};
const CLAMP_MIN = { iterations: 3, seconds: 600, tool_calls: 40 };
function resolveBudget(config) {
    const written = config.budget;
    const explicit = Object.keys(written).filter((k) => written[k] !== undefined);
    const budget = { ...DEFAULT_BUDGET, max_total_cost_usd: written.max_total_cost_usd ?? null };
    const reductions = [];
    for (const key of Object.keys(KIND)) {
        const value = written[key];
        if (value !== undefined) {
            budget[key] = value;
            continue;
        }
        const kind = KIND[key];
        const scale = PROFILE_SCALES[config.profile][kind];
        const scaled = new _common_decimal_js__WEBPACK_IMPORTED_MODULE_0__/* .Decimal */ .Ww(DEFAULT_BUDGET[key]).mul(scale).ceil().toNumber();
        const clamped = Math.max(scaled, CLAMP_MIN[kind]);
        if (clamped !== DEFAULT_BUDGET[key])
            reductions.push(`${key}: ${DEFAULT_BUDGET[key]} → ${clamped} (profile ${config.profile}, scale ${scale}` +
                `${clamped !== scaled ? `, raised to clamp_min ${CLAMP_MIN[kind]}` : ''})`);
        budget[key] = clamped;
    }
    return { budget, explicit, reductions };
}


/***/ }),

/***/ 86258:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Fu: () => (/* binding */ planSchema),
/* harmony export */   GZ: () => (/* binding */ BASELINE_PENDING),
/* harmony export */   Gg: () => (/* binding */ buildPlan),
/* harmony export */   Hf: () => (/* binding */ baselinePending),
/* harmony export */   mt: () => (/* binding */ LOOP_SCRATCH_DIR)
/* harmony export */ });
/* harmony import */ var zod__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(23905);
/* harmony import */ var _budget_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(67968);
/* harmony import */ var _config_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(33855);
/* harmony import */ var _common_decimal_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(69665);
/* harmony import */ var _common_document_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(44505);
/* harmony import */ var _common_version_js__WEBPACK_IMPORTED_MODULE_6__ = __webpack_require__(54034);
/* harmony import */ var _protected_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(87503);
// DREAM_GOAL: plan.json (the Triangle's REMIND vertex), the contract of a loop, written once at its
// start from the intake and read back when it resumes.







const LOOP_SCRATCH_DIR = 'scratch';
/** plan.baseline.residual_detail of a plan whose baseline is not on record yet. */
const BASELINE_PENDING = 'not measured yet';
/** The baseline of this plan was never recorded (the run that made it was cut off or stopped during it). */
const baselinePending = (plan) => plan.baseline.residual_detail === BASELINE_PENDING && plan.baseline.criteria.length === 0;
const agentRecord = zod__WEBPACK_IMPORTED_MODULE_5__/* .object */ .Ikc({ use: zod__WEBPACK_IMPORTED_MODULE_5__/* ["enum"] */ .k5n(_config_js__WEBPACK_IMPORTED_MODULE_1__/* .AGENT_PRESETS */ .VC), model: zod__WEBPACK_IMPORTED_MODULE_5__/* .string */ .YjP().nullable() });
const measureSchema = zod__WEBPACK_IMPORTED_MODULE_5__/* .discriminatedUnion */ .gMt('kind', [
    zod__WEBPACK_IMPORTED_MODULE_5__/* .object */ .Ikc({ kind: zod__WEBPACK_IMPORTED_MODULE_5__/* .literal */ .euz('static') }),
    zod__WEBPACK_IMPORTED_MODULE_5__/* .object */ .Ikc({ kind: zod__WEBPACK_IMPORTED_MODULE_5__/* .literal */ .euz('command'), run: zod__WEBPACK_IMPORTED_MODULE_5__/* .string */ .YjP() }),
    zod__WEBPACK_IMPORTED_MODULE_5__/* .object */ .Ikc({ kind: zod__WEBPACK_IMPORTED_MODULE_5__/* .literal */ .euz('residual') }),
    zod__WEBPACK_IMPORTED_MODULE_5__/* .object */ .Ikc({ kind: zod__WEBPACK_IMPORTED_MODULE_5__/* .literal */ .euz('criterion'), id: zod__WEBPACK_IMPORTED_MODULE_5__/* .string */ .YjP() }),
]);
const northstarMetricSchema = zod__WEBPACK_IMPORTED_MODULE_5__/* .object */ .Ikc({
    id: zod__WEBPACK_IMPORTED_MODULE_5__/* .string */ .YjP(),
    metric: zod__WEBPACK_IMPORTED_MODULE_5__/* .string */ .YjP(),
    current: _common_document_js__WEBPACK_IMPORTED_MODULE_3__/* .decimalString */ .dw,
    target: _common_document_js__WEBPACK_IMPORTED_MODULE_3__/* .decimalString */ .dw,
    measure: measureSchema,
});
/** plan.json: the contract of a loop, written once at its start and read back when it resumes. */
const planSchema = zod__WEBPACK_IMPORTED_MODULE_5__/* .object */ .Ikc({
    schema_version: zod__WEBPACK_IMPORTED_MODULE_5__/* .literal */ .euz('2.0'),
    skill: zod__WEBPACK_IMPORTED_MODULE_5__/* .literal */ .euz('phuc-loop'),
    version: zod__WEBPACK_IMPORTED_MODULE_5__/* .string */ .YjP(),
    goal: zod__WEBPACK_IMPORTED_MODULE_5__/* .string */ .YjP(),
    acceptance_criteria: zod__WEBPACK_IMPORTED_MODULE_5__/* .array */ .YOg(zod__WEBPACK_IMPORTED_MODULE_5__/* .object */ .Ikc({
        id: zod__WEBPACK_IMPORTED_MODULE_5__/* .string */ .YjP(),
        description: zod__WEBPACK_IMPORTED_MODULE_5__/* .string */ .YjP(),
        run: zod__WEBPACK_IMPORTED_MODULE_5__/* .string */ .YjP(),
        timeout_seconds: zod__WEBPACK_IMPORTED_MODULE_5__/* .number */ .aig().int().min(1),
        retries: zod__WEBPACK_IMPORTED_MODULE_5__/* .number */ .aig().int().min(0),
        inputs: zod__WEBPACK_IMPORTED_MODULE_5__/* .array */ .YOg(zod__WEBPACK_IMPORTED_MODULE_5__/* .string */ .YjP()).nullable(),
        /** The agent is to write what it runs (config agent_writes); absent: false. */
        agent_writes: zod__WEBPACK_IMPORTED_MODULE_5__/* .literal */ .euz(true).optional(),
    })),
    halting_certificates_applicable: zod__WEBPACK_IMPORTED_MODULE_5__/* .array */ .YOg(zod__WEBPACK_IMPORTED_MODULE_5__/* ["enum"] */ .k5n(_config_js__WEBPACK_IMPORTED_MODULE_1__/* .CERTIFICATE_TYPES */ .KJ)),
    R_p: _common_document_js__WEBPACK_IMPORTED_MODULE_3__/* .decimalString */ .dw.nullable(),
    rung_target: zod__WEBPACK_IMPORTED_MODULE_5__/* .number */ .aig().int(),
    residual: zod__WEBPACK_IMPORTED_MODULE_5__/* .object */ .Ikc({
        metric: zod__WEBPACK_IMPORTED_MODULE_5__/* ["enum"] */ .k5n(_config_js__WEBPACK_IMPORTED_MODULE_1__/* .RESIDUAL_METRICS */ .EX),
        junit: zod__WEBPACK_IMPORTED_MODULE_5__/* .string */ .YjP().optional(),
        run: zod__WEBPACK_IMPORTED_MODULE_5__/* .string */ .YjP().optional(),
        timeout_seconds: zod__WEBPACK_IMPORTED_MODULE_5__/* .number */ .aig().int().min(1),
    }),
    profile: zod__WEBPACK_IMPORTED_MODULE_5__/* ["enum"] */ .k5n(_config_js__WEBPACK_IMPORTED_MODULE_1__/* .PROFILES */ .jI),
    budget: _budget_js__WEBPACK_IMPORTED_MODULE_0__/* .budgetRecordSchema */ .Ek,
    /** Budgets changed when the loop was resumed: from which iteration, and what they became. */
    budget_revisions: zod__WEBPACK_IMPORTED_MODULE_5__/* .array */ .YOg(zod__WEBPACK_IMPORTED_MODULE_5__/* .object */ .Ikc({ from_iteration: zod__WEBPACK_IMPORTED_MODULE_5__/* .number */ .aig().int().min(0), budget: _budget_js__WEBPACK_IMPORTED_MODULE_0__/* .budgetRecordSchema */ .Ek })),
    budget_explicit: zod__WEBPACK_IMPORTED_MODULE_5__/* .array */ .YOg(zod__WEBPACK_IMPORTED_MODULE_5__/* .string */ .YjP()),
    budget_reductions: zod__WEBPACK_IMPORTED_MODULE_5__/* .array */ .YOg(zod__WEBPACK_IMPORTED_MODULE_5__/* .string */ .YjP()),
    northstar: zod__WEBPACK_IMPORTED_MODULE_5__/* .object */ .Ikc({ file: zod__WEBPACK_IMPORTED_MODULE_5__/* .string */ .YjP(), metrics: zod__WEBPACK_IMPORTED_MODULE_5__/* .array */ .YOg(northstarMetricSchema), baseline: zod__WEBPACK_IMPORTED_MODULE_5__/* .record */ .g1P(zod__WEBPACK_IMPORTED_MODULE_5__/* .string */ .YjP(), _common_document_js__WEBPACK_IMPORTED_MODULE_3__/* .decimalString */ .dw) }),
    baseline: zod__WEBPACK_IMPORTED_MODULE_5__/* .object */ .Ikc({
        residual: _common_document_js__WEBPACK_IMPORTED_MODULE_3__/* .decimalString */ .dw.nullable(),
        residual_detail: zod__WEBPACK_IMPORTED_MODULE_5__/* .string */ .YjP(),
        criteria: zod__WEBPACK_IMPORTED_MODULE_5__/* .array */ .YOg(zod__WEBPACK_IMPORTED_MODULE_5__/* .object */ .Ikc({ id: zod__WEBPACK_IMPORTED_MODULE_5__/* .string */ .YjP(), met: zod__WEBPACK_IMPORTED_MODULE_5__/* .boolean */ .zMY(), evidence: zod__WEBPACK_IMPORTED_MODULE_5__/* .string */ .YjP() })),
    }),
    protected: zod__WEBPACK_IMPORTED_MODULE_5__/* .array */ .YOg(zod__WEBPACK_IMPORTED_MODULE_5__/* .string */ .YjP()),
    /** agent.may_change: the allow-list that judged the agent's changes; absent: the protected paths alone. */
    may_change: zod__WEBPACK_IMPORTED_MODULE_5__/* .array */ .YOg(zod__WEBPACK_IMPORTED_MODULE_5__/* .string */ .YjP()).optional(),
    agent: agentRecord,
    replays: zod__WEBPACK_IMPORTED_MODULE_5__/* .number */ .aig().int().min(1),
    critic: agentRecord.nullable(),
    detours: zod__WEBPACK_IMPORTED_MODULE_5__/* .array */ .YOg(zod__WEBPACK_IMPORTED_MODULE_5__/* .object */ .Ikc({ match: zod__WEBPACK_IMPORTED_MODULE_5__/* .string */ .YjP(), instruction: zod__WEBPACK_IMPORTED_MODULE_5__/* .string */ .YjP() })),
    stall_iterations: zod__WEBPACK_IMPORTED_MODULE_5__/* .number */ .aig().int().min(1),
    escalate: zod__WEBPACK_IMPORTED_MODULE_5__/* .object */ .Ikc({ use: zod__WEBPACK_IMPORTED_MODULE_5__/* ["enum"] */ .k5n(_config_js__WEBPACK_IMPORTED_MODULE_1__/* .AGENT_PRESETS */ .VC).nullable(), model: zod__WEBPACK_IMPORTED_MODULE_5__/* .string */ .YjP().nullable() }).nullable(),
    mission_context: zod__WEBPACK_IMPORTED_MODULE_5__/* .string */ .YjP().nullable(),
    non_goals: zod__WEBPACK_IMPORTED_MODULE_5__/* .array */ .YOg(zod__WEBPACK_IMPORTED_MODULE_5__/* .string */ .YjP()),
    stop_rules: zod__WEBPACK_IMPORTED_MODULE_5__/* .array */ .YOg(zod__WEBPACK_IMPORTED_MODULE_5__/* .string */ .YjP()),
    config_file: zod__WEBPACK_IMPORTED_MODULE_5__/* .string */ .YjP(),
    config_sha256: zod__WEBPACK_IMPORTED_MODULE_5__/* .string */ .YjP(),
    seed_checksum: zod__WEBPACK_IMPORTED_MODULE_5__/* .object */ .Ikc({ formula: zod__WEBPACK_IMPORTED_MODULE_5__/* .string */ .YjP(), product: zod__WEBPACK_IMPORTED_MODULE_5__/* .string */ .YjP(), verified: zod__WEBPACK_IMPORTED_MODULE_5__/* .boolean */ .zMY() }),
    security: zod__WEBPACK_IMPORTED_MODULE_5__/* .object */ .Ikc({
        gate: zod__WEBPACK_IMPORTED_MODULE_5__/* .string */ .YjP(),
        api_surface: zod__WEBPACK_IMPORTED_MODULE_5__/* .string */ .YjP(),
        drift_explanation: zod__WEBPACK_IMPORTED_MODULE_5__/* .string */ .YjP(),
        api_surface_before: zod__WEBPACK_IMPORTED_MODULE_5__/* .string */ .YjP().nullable(),
        paraphrase: zod__WEBPACK_IMPORTED_MODULE_5__/* .string */ .YjP().optional(),
    })
        .nullable(),
});
function buildPlan(i, configPath, baseline, northstarBaseline, apiSurfaceBefore, files = new Set()) {
    const c = i.config;
    const seed = (0,_common_decimal_js__WEBPACK_IMPORTED_MODULE_2__/* .seedChecksum */ .Zl)();
    const guarded = (0,_protected_js__WEBPACK_IMPORTED_MODULE_4__/* .protectedGlobs */ .uo)(c, configPath, files);
    return {
        schema_version: '2.0',
        skill: 'phuc-loop',
        version: _common_version_js__WEBPACK_IMPORTED_MODULE_6__/* .VERSION */ .x,
        goal: c.goal,
        acceptance_criteria: c.acceptance_criteria.map((a) => ({
            id: a.id,
            description: a.description ?? a.run,
            run: a.run,
            timeout_seconds: a.timeout_seconds,
            retries: a.retries,
            inputs: a.inputs ?? null,
            ...(a.agent_writes ? { agent_writes: true } : {}),
        })),
        halting_certificates_applicable: c.certificates,
        R_p: c.R_p ?? null,
        rung_target: c.rung_target,
        residual: c.residual,
        profile: c.profile,
        budget: i.budget.budget,
        budget_revisions: [],
        budget_explicit: i.budget.explicit,
        budget_reductions: i.budget.reductions,
        northstar: { file: c.northstar, metrics: i.northstar, baseline: northstarBaseline },
        baseline,
        protected: guarded,
        ...(c.agent.may_change ? { may_change: c.agent.may_change } : {}),
        agent: { use: c.agent.use, model: c.agent.model ?? null },
        replays: c.replays,
        critic: c.critic ? { use: c.critic.use, model: c.critic.model ?? null } : null,
        detours: c.detours,
        stall_iterations: c.stall_iterations,
        escalate: c.agent.escalate ? { use: c.agent.escalate.use ?? null, model: c.agent.escalate.model ?? null } : null,
        mission_context: c.mission_context ?? null,
        non_goals: [
            ...(c.agent.may_change ? [`no change outside ${c.agent.may_change.join(', ')}`] : []),
            `no change under ${guarded.join(', ')}`,
            'no weakened, skipped or deleted test or check',
            'no commit, push or history rewrite by the agent',
        ],
        stop_rules: [
            'invariant or guardrail violation → EXIT_BLOCKED',
            'EXACT or CONVERGED certificate → EXIT_CONVERGED',
            'three strictly increasing residuals → EXIT_DIVERGED',
            'critic: no further iteration can help while criteria fail → EXIT_BLOCKED(NO_VIABLE_FIX_PATH)',
            'the same failure signature after a detour → EXIT_BLOCKED(STUCK)',
            `no better residual for stall_iterations (after escalation, if configured) → EXIT_BLOCKED(STALLED)`,
            'backpressure (STOP label, scratch/STOP, signal, disk > 90%, rate limit) → EXIT_BLOCKED(BACKPRESSURE_SIGNAL)',
            'three iterations with W = 0 → EXIT_BLOCKED(NORTHSTAR_DRIFT)',
            'budget exhausted → EXIT_BUDGET_EXCEEDED',
        ],
        config_file: configPath,
        config_sha256: i.contract,
        seed_checksum: { formula: '641 × 274177 × 65537', product: seed.product, verified: seed.verified },
        security: c.security ? { ...c.security, api_surface_before: apiSurfaceBefore } : null,
    };
}


/***/ }),

/***/ 87503:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   BO: () => (/* binding */ scriptsRunBy),
/* harmony export */   bC: () => (/* binding */ judgesToWrite),
/* harmony export */   h2: () => (/* binding */ programsOf),
/* harmony export */   u: () => (/* binding */ criteriaToWrite),
/* harmony export */   uo: () => (/* binding */ protectedGlobs)
/* harmony export */ });
/* unused harmony exports RUNNER_CONFIGS, filesNamedBy, filesRunBy, runnerFilesOf */
/**
 * Test-runner configuration, always protected (SPEC §7): a runner told to skip, filter or stub
 * tests makes a weaker suite pass. The workflows are protected too (they run with the repository's
 * token).
 */
const RUNNER_CONFIGS = [
    '**/jest.config.*',
    '**/vitest.config.*',
    '**/vitest.workspace.*',
    '**/vite.config.*',
    '**/.mocharc*',
    '**/karma.conf.*',
    '**/playwright.config.*',
    '**/cypress.config.*',
    '**/.nycrc*',
    '**/pytest.ini',
    '**/.pytest.ini',
    '**/pytest.toml',
    '**/.pytest.toml',
    '**/.cargo/config',
    '**/.cargo/config.toml',
    '**/babel.config.*',
    '**/.babelrc*',
    '**/conftest.py',
    '**/tox.ini',
    '**/noxfile.py',
    '**/.npmrc',
    '**/.yarnrc*',
    '**/.coveragerc',
    '**/ava.config.*',
    '**/.taprc',
    '**/.config/nextest.toml',
    '**/bunfig.toml',
    '**/phpunit.xml',
    '**/phpunit.xml.dist',
    '**/.rspec',
    'go.work',
    '.github/**',
    // What a runner takes its programs and dependencies from before the tests: `npm test` runs
    // node_modules/.bin first on PATH (an agent's `node` there ran instead), Go builds from vendor/
    // once vendor/modules.txt exists, a virtualenv's site-packages, Python's startup hooks, and the
    // version pins of toolchain managers (rustup, asdf, mise, nvm, pyenv).
    '**/node_modules/**',
    '**/vendor/**',
    '**/.venv/**',
    '**/sitecustomize.py',
    '**/usercustomize.py',
    '**/*.pth',
    '**/rust-toolchain',
    '**/rust-toolchain.toml',
    '**/.tool-versions',
    '**/mise.toml',
    '**/.mise.toml',
    '**/.nvmrc',
    '**/.node-version',
    '**/.python-version',
];
/** Programs that run the file named after their options (`node x.js`, `bash -e check.sh`). */
const INTERPRETERS = new Set([
    'sh',
    'bash',
    'zsh',
    'dash',
    'node',
    'deno',
    'bun',
    'tsx',
    'ts-node',
    'python',
    'python3',
    'ruby',
    'perl',
    'php',
    'pwsh',
    'source',
    '.',
]);
/** Programs that run the command after them (`timeout 60 ./check.sh`, `env A=1 node x.js`). */
const WRAPPERS = new Set(['env', 'timeout', 'nice', 'time', 'exec', 'command', 'xvfb-run', 'sudo']);
/** The module of `-m MODULE` among an interpreter's options (after the script, `-m` is the script's). */
function moduleOption(args) {
    for (let j = 0; j < args.length; j++) {
        if (args[j] === '-m')
            return /^[A-Za-z_][\w.]*$/.test(args[j + 1] ?? '') ? args[j + 1] : null;
        if (args[j] === '-W' || args[j] === '-X')
            j++;
        else if (!args[j].startsWith('-'))
            return null;
    }
    return null;
}
/** Each simple command of a shell line: the program it starts and, for an interpreter, the script (or `-m` module). */
function programsOf(command) {
    const out = [];
    for (const segment of command.split(/[;&|()\n`]+|\$\(/)) {
        const words = segment.split(/[\s'"]+/).filter(Boolean);
        let i = 0;
        while (i < words.length &&
            (/^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]) || WRAPPERS.has(words[i]) || (i > 0 && WRAPPERS.has(words[i - 1]) && /^(-|\d)/.test(words[i]))))
            i++;
        const program = words[i];
        if (program === undefined)
            continue;
        const script = INTERPRETERS.has(program.replace(/^.*\//, '')) ? (words.slice(i + 1).find((w) => !w.startsWith('-')) ?? null) : null;
        out.push({ program, script, module: moduleOption(words.slice(i + 1)) });
    }
    return out;
}
/**
 * The files a command runs (`./check.sh`, `sh test/check.sh`, `node scripts/score.js`), when they
 * exist in the tree: the check's own code. A file it only reads (`grep -q ok src/status.txt`) is
 * the work the agent is asked to do, so it stays the agent's.
 */
function filesNamedBy(command, files) {
    const inTree = (w) => (w !== null && files.has(w.replace(/^\.\//, '')) ? [w.replace(/^\.\//, '')] : []);
    return [...new Set(programsOf(command).flatMap((p) => [...inTree(p.program), ...inTree(p.script)]))];
}
/** What a script file of the tree looks like: a relative path, or a name with a script's extension. */
const SCRIPT_FILE = /^(?!\.\.?\/\.\.|\/|~)[\w.@+/-]+$/;
const SCRIPT_EXT = /\.(sh|bash|zsh|js|mjs|cjs|ts|mts|cts|py|rb|pl|php|ps1|lua|tcl)$/;
/**
 * The files of the tree a command runs by path, present or not: `./check.sh`, `sh test/check.sh`,
 * `node scripts/score.js` (never an installed program, an absolute path or inline code such as `sh -c 'exit 0'`).
 */
function filesRunBy(command) {
    const looksLikeFile = (w) => w !== null && SCRIPT_FILE.test(w) && !w.startsWith('../') && (w.includes('/') || SCRIPT_EXT.test(w));
    return [
        ...new Set(programsOf(command)
            .flatMap((p) => [p.program.includes('/') ? p.program : null, p.script])
            .filter(looksLikeFile)
            .map((w) => w.replace(/^\.\//, ''))),
    ];
}
/**
 * Criteria whose program is not in the tree (`files`) and not marked `agent_writes`: the agent would
 * write the judge of its own work. Each with what the user can do.
 */
function criteriaToWrite(criteria, files) {
    return criteria.flatMap((c) => {
        // A folder the tree holds (`node --test test/`) is no program the agent could write.
        const held = (f) => files.has(f) || [...files].some((t) => t.startsWith(`${f.replace(/\/+$/, '')}/`));
        const absent = c.agent_writes ? [] : filesRunBy(c.run).filter((f) => !held(f));
        return absent.length
            ? [
                {
                    id: c.id,
                    reason: `\`${c.run}\` runs ${absent.join(', ')}, which the tree does not hold: a program the agent writes would judge its own work — commit it, or set agent_writes: true on the criterion if the agent is to write it (it is protected once it exists)`,
                },
            ]
            : [];
    });
}
/** The files the `agent_writes` criteria run: once a commit holds one, no one changes it. */
function judgesToWrite(criteria) {
    return criteria.filter((c) => c.agent_writes).flatMap((c) => filesRunBy(c.run));
}
/** Packages a module runner loads before any test does: `pytest/` alone would leave these to shadow. */
const RUNNER_PACKAGES = { pytest: ['_pytest', 'pluggy', 'py'], unittest: [], nose2: [] };
/**
 * The files a task runner reads its rules from, by the name it looks for first: an agent's
 * `GNUmakefile` beside the user's `Makefile` is what `make test` runs.
 */
const MAKE_FILES = ['GNUmakefile', 'makefile', 'Makefile', '**/*.mk'];
const RULE_FILES = {
    make: MAKE_FILES,
    gmake: MAKE_FILES,
    just: ['justfile', 'Justfile', '.justfile'],
    rake: ['Rakefile', 'rakefile', 'Rakefile.rb', 'rakefile.rb', 'rakelib/**'],
    task: ['Taskfile.yml', 'Taskfile.yaml', 'taskfile.yml', 'taskfile.yaml'],
};
/**
 * What a criterion's runner reads before any test runs, protected whether or not it exists: the
 * rule files of a task runner (`make`: GNUmakefile, makefile, Makefile), and what would stand in
 * for the module of `python -m pytest`, which imports from the folder it starts in before the
 * installed packages (a `pytest/`, `pytest.py`, `.pyc`, `.so` the agent adds there runs instead
 * of pytest and reports whatever it likes).
 */
function runnerFilesOf(command) {
    const out = [];
    for (const { program, module } of programsOf(command)) {
        const name = program.replace(/^.*\//, '');
        out.push(...(RULE_FILES[name] ?? []));
        if (module === null || !/^python[0-9.]*$/.test(name))
            continue;
        const top = module.split('.')[0];
        for (const pkg of [top, ...(RUNNER_PACKAGES[top] ?? [])])
            out.push(`${pkg}.*`, `${pkg}/**`);
    }
    return [...new Set(out)];
}
/**
 * Every path the agent may not change: the user's globs, the loop's own inputs, the runner
 * configurations and the files the criteria, residual, Northstar, critic and security commands name.
 */
function protectedGlobs(config, configPath, files = new Set()) {
    const commands = [
        ...config.acceptance_criteria.map((c) => c.run),
        config.residual.run ?? '',
        config.critic?.run ?? '',
        config.security?.gate ?? '',
        config.security?.api_surface ?? '',
        config.security?.paraphrase ?? '',
        config.checks.setup ?? '',
    ];
    return [
        ...new Set([
            ...config.protected,
            configPath,
            config.northstar,
            ...(config.mission_context ? [config.mission_context] : []),
            ...RUNNER_CONFIGS,
            ...commands.flatMap((c) => [...filesNamedBy(c, files), ...runnerFilesOf(c)]),
        ]),
    ];
}
/** The package.json scripts the criteria run (`npm test` → test, pretest, posttest; `npm run x` → x, prex, postx). */
function scriptsRunBy(commands) {
    const names = new Set();
    for (const c of commands) {
        for (const m of c.matchAll(/\b(?:npm|pnpm|yarn|bun)\s+(?:run(?:-script)?\s+)?([A-Za-z0-9:_.-]+)/g)) {
            const name = m[1] === 't' ? 'test' : m[1];
            if (['install', 'ci', 'exec', 'x', 'dlx', 'add', 'i'].includes(name))
                continue;
            names.add(name).add(`pre${name}`).add(`post${name}`);
        }
    }
    return [...names].sort();
}


/***/ }),

/***/ 35095:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   B: () => (/* binding */ DEFAULT_REGENERABLE),
/* harmony export */   D: () => (/* binding */ NO_REPORT_FOLDERS)
/* harmony export */ });
// Regenerable folders: one list for every part of the loop that must not spend a round walking
// what a tool regenerates (dependencies, virtual environments, build output, caches). The user's
// ignored files outside them are kept and put back around agent steps (loop/user-files.ts,
// `user_files.regenerable` replaces the list there); no JUnit report is looked for inside them but
// in the build outputs, where test runners write theirs (judge/junit.ts).
/** Where builds and test runners write their output, reports included (surefire, Gradle, jest-junit, coverage). */
const BUILD_OUTPUTS = ['target', 'dist', 'build', '.next', 'coverage', 'htmlcov'];
/**
 * Folder (or file) names whose ignored content is regenerable; `user_files.regenerable` replaces the
 * list for the user's files. The files are the caches a tool rewrites in place at the top of a
 * project (coverage.py's data, ESLint's and tsc's caches): kept, the agent at user+pidns could not write them.
 */
const DEFAULT_REGENERABLE = [
    '.coverage',
    'htmlcov',
    '.hypothesis',
    '.eslintcache',
    'tsconfig.tsbuildinfo',
    '.turbo',
    '.parcel-cache',
    '.DS_Store',
    // aider's repo map cache (its own files, rebuilt when missing).
    '.aider.tags.cache.v4',
    'node_modules',
    '.venv',
    'venv',
    '__pycache__',
    '.tox',
    '.nox',
    '.mypy_cache',
    '.pytest_cache',
    '.ruff_cache',
    'target',
    'dist',
    'build',
    '.gradle',
    '.next',
    '.cache',
    'coverage',
];
/** The regenerable names no test report is written under (all but the build outputs): never searched for one. */
const NO_REPORT_FOLDERS = DEFAULT_REGENERABLE.filter((n) => !BUILD_OUTPUTS.includes(n));


/***/ }),

/***/ 85826:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Dv: () => (/* binding */ executedTests),
/* harmony export */   e0: () => (/* binding */ prepareJunit),
/* harmony export */   fK: () => (/* binding */ readJunit),
/* harmony export */   kG: () => (/* binding */ suiteIntegrity),
/* harmony export */   qU: () => (/* binding */ failingTests)
/* harmony export */ });
/* unused harmony exports parseJunit, junitFiles, describeFailures */
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(51455);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_fs_promises__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(76760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__webpack_require__.n(node_path__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var fast_xml_parser__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(89010);
/* harmony import */ var fast_xml_parser__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(75824);
/* harmony import */ var picomatch__WEBPACK_IMPORTED_MODULE_6__ = __webpack_require__(14006);
/* harmony import */ var picomatch__WEBPACK_IMPORTED_MODULE_6___default = /*#__PURE__*/__webpack_require__.n(picomatch__WEBPACK_IMPORTED_MODULE_6__);
/* harmony import */ var _os_tree_file_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(34720);
/* harmony import */ var _config_regenerable_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(35095);






const MESSAGE_MAX = 200;
// A report written during the round may carry an mtime a little before `started`: the kernel stamps
// files from a coarse clock, and some file systems keep whole (or even)seconds.
const MTIME_SLACK_MS = 2000;
const MAX_REPORT_BYTES = 256 * 1024 * 1024;
// No entity expansion: the parser leaves every reference as written (a DTD's entities are never
// applied) and decodeXml below decodes only XML's five predefined entities and character references.
const xml = new fast_xml_parser__WEBPACK_IMPORTED_MODULE_4__/* ["default"] */ .A({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    attributesGroupName: '@',
    processEntities: false,
    htmlEntities: false,
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: false,
    cdataPropName: '#cdata',
    ignoreDeclaration: true,
    ignorePiTags: true,
    isArray: (_name, _path, _leaf, isAttribute) => !isAttribute,
});
const PREDEFINED = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
/** One pass, so "&amp;lt;" stays "&lt;" (node:test writes such double-escaped names). */
function decodeXml(text) {
    return text.replace(/&(?:#(\d+)|#x([0-9a-fA-F]+)|(lt|gt|amp|quot|apos));/g, (whole, dec, hex, named) => {
        if (named)
            return PREDEFINED[named];
        const code = dec !== undefined ? Number(dec) : parseInt(hex ?? '', 16);
        return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    });
}
function elements(node, tag) {
    const v = node[tag];
    // An element without attributes or children parses to a string ("" for <skipped/>).
    return Array.isArray(v) ? v.map((e) => (e !== null && typeof e === 'object' ? e : { '#text': String(e) })) : [];
}
function attr(node, name) {
    const v = node['@']?.[name];
    return typeof v === 'string' ? decodeXml(v).trim() : '';
}
function summary(node) {
    const { '#text': text, '#cdata': cdata } = node;
    const body = (typeof text === 'string' ? decodeXml(text) : '') + (Array.isArray(cdata) ? cdata.join('') : '');
    const line = (attr(node, 'message') || body).replace(/\s+/g, ' ').trim();
    if (!line)
        return undefined;
    return line.length > MESSAGE_MAX ? `${line.slice(0, MESSAGE_MAX - 1)}…` : line;
}
// node:test writes this placeholder as every testcase's classname; its suites are the describe blocks.
const PLACEHOLDER_CLASSNAME = 'test';
/**
 * A test's id: its classname and name, or, without a (real) classname, the names of the enclosing
 * <testsuite>s and its name. The grouping suites of flat reports are left out on purpose: they can
 * change when tests are added (jest-junit names a file's suite after its first describe block; surefire
 * may report a class's tests under a nested class's suite). A classname the name already ends with
 * (mocha-junit-reporter: the test's own title) or repeats (jest-junit) is not repeated. Nothing that
 * changes between runs (time, host, report paths) is part of it.
 */
function testId(suites, classname, name) {
    const container = classname && classname !== PLACEHOLDER_CLASSNAME ? [classname] : suites;
    const parts = container.filter((p) => p && p !== name && !name.endsWith(` ${p}`));
    return [...parts, name].filter(Boolean).join(' > ');
}
function statusOf(tc) {
    // A failure beside a skip still failed (fail closed); surefire's flaky* / rerun* elements are
    // reruns of a test whose own outcome is the <failure>/<error> element, or its absence.
    for (const [tag, status] of [
        ['error', 'error'],
        ['failure', 'failed'],
        ['skipped', 'skipped'],
    ]) {
        const el = elements(tc, tag).at(0);
        if (el)
            return { status, message: summary(el) };
    }
    return { status: 'passed' };
}
function collect(node, suites, file, out) {
    for (const tc of elements(node, 'testcase')) {
        const name = attr(tc, 'name');
        const { status, message } = statusOf(tc);
        const f = attr(tc, 'file') || file;
        out.push({
            id: testId(suites, attr(tc, 'classname'), name),
            suite: suites.filter(Boolean).join(' > '),
            name,
            ...(f ? { file: f } : {}),
            status,
            ...(message ? { message } : {}),
        });
    }
    for (const ts of elements(node, 'testsuite'))
        collect(ts, [...suites, attr(ts, 'name')], attr(ts, 'file') || file, out);
}
/** The k-th repeat of an id (k ≥ 2, in reading order: files sorted, then document order) becomes "id #k". */
function uniqueIds(records) {
    const seen = new Set();
    return records.map((r) => {
        let id = r.id;
        for (let k = 2; seen.has(id); k++)
            id = `${r.id} #${k}`;
        seen.add(id);
        return id === r.id ? r : { ...r, id };
    });
}
function parseRecords(text, file) {
    text = text.replace(/^\uFEFF/, '');
    const valid = fast_xml_parser__WEBPACK_IMPORTED_MODULE_5__/* .XMLValidator */ .iI.validate(text);
    if (valid !== true)
        return { error: `${file} is not well-formed XML (line ${valid.err.line}: ${valid.err.msg})` };
    const doc = xml.parse(text);
    // The validator lets two self-closed roots (<testsuite/><testsuite/>) pass: count them here.
    const roots = Object.values(doc).reduce((n, v) => n + (Array.isArray(v) ? v.length : 1), 0);
    if (roots !== 1)
        return { error: `${file} is not well-formed XML (${roots} root elements)` };
    const out = [];
    // <testsuites> may hold <testcase> directly (node:test's top-level tests); its own name is no suite.
    const group = elements(doc, 'testsuites').at(0);
    if (group)
        collect(group, [], undefined, out);
    else if (doc.testsuite)
        collect(doc, [], undefined, out);
    else
        return { error: `${file} is not JUnit XML: its root is neither <testsuites> nor <testsuite>` };
    return out;
}
/** Every test in one JUnit XML document, or an error naming `file` (malformed XML, another root). */
function parseJunit(text, file) {
    const r = parseRecords(text, file);
    return Array.isArray(r) ? { tests: uniqueIds(r) } : r;
}
function code(e) {
    return e.code ?? e.message;
}
/** The glob's base folder, refused when it leaves cwd or any part of it is a symbolic link. */
async function baseDir(cwd, glob) {
    const scan = picomatch__WEBPACK_IMPORTED_MODULE_6___default().scan(glob);
    // A glob without magic (reports/junit.xml) is all base: its folder is where to look.
    const base = scan.isGlob ? scan.base : node_path__WEBPACK_IMPORTED_MODULE_1__.posix.dirname(scan.base);
    const parts = base.split('/').filter((p) => p && p !== '.');
    if (node_path__WEBPACK_IMPORTED_MODULE_1__.posix.isAbsolute(base) || parts.includes('..'))
        return { problem: `the JUnit glob ${glob} reaches outside the workspace` };
    let dir = cwd;
    for (const part of parts) {
        dir = (0,node_path__WEBPACK_IMPORTED_MODULE_1__.join)(dir, part);
        try {
            if ((await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.lstat)(dir)).isSymbolicLink())
                return { problem: `${(0,node_path__WEBPACK_IMPORTED_MODULE_1__.relative)(cwd, dir)} (in the JUnit glob ${glob}) is a symbolic link; it is not followed` };
        }
        catch (e) {
            if (code(e) === 'ENOENT')
                break;
            return { problem: `${(0,node_path__WEBPACK_IMPORTED_MODULE_1__.relative)(cwd, dir)} (in the JUnit glob ${glob}) cannot be examined (${code(e)})` };
        }
    }
    return { dir: (0,node_path__WEBPACK_IMPORTED_MODULE_1__.join)(cwd, ...parts) };
}
/**
 * Folders no report is written to and that may hold 100,000 files (the regenerable ones but build
 * outputs: installed dependencies, virtual environments, bytecode and tool caches), and .git: never
 * walked, where every round looks for reports twice.
 */
const NO_REPORTS = new Set(['.git', ..._config_regenerable_js__WEBPACK_IMPORTED_MODULE_3__/* .NO_REPORT_FOLDERS */ .D]);
async function walk(root, dir, match, out, problems) {
    let entries;
    try {
        entries = await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.readdir)(dir, { withFileTypes: true });
    }
    catch (e) {
        if (code(e) !== 'ENOENT')
            problems.push(`${(0,node_path__WEBPACK_IMPORTED_MODULE_1__.relative)(root, dir) || '.'} cannot be listed (${code(e)})`);
        return;
    }
    for (const e of entries) {
        if (NO_REPORTS.has(e.name))
            continue;
        const full = (0,node_path__WEBPACK_IMPORTED_MODULE_1__.join)(dir, e.name);
        // Dirents come from lstat: a link to a folder is not entered; a link that matches is refused on reading.
        if (e.isDirectory())
            await walk(root, full, match, out, problems);
        else {
            const rel = (0,node_path__WEBPACK_IMPORTED_MODULE_1__.relative)(root, full).split(node_path__WEBPACK_IMPORTED_MODULE_1__.sep).join('/');
            if (match(rel))
                out.push(rel);
        }
    }
}
/** The files under `cwd` matching `glob` (sorted), and what could not be searched. */
async function junitFiles(cwd, glob) {
    const base = await baseDir(cwd, glob);
    if ('problem' in base)
        return { files: [], problems: [base.problem] };
    const files = [];
    const problems = [];
    await walk(cwd, base.dir, picomatch__WEBPACK_IMPORTED_MODULE_6___default()(glob, { dot: true }), files, problems);
    return { files: files.sort(), problems };
}
/**
 * Before a check round: removes every report matching `glob` (they are the checks' output; a stale
 * or planted one must not count) and returns the guard readJunit applies after the round.
 */
async function prepareJunit(cwd, glob) {
    const started = Date.now();
    const { files, problems } = await junitFiles(cwd, glob);
    const leftovers = [];
    for (const f of files) {
        const full = (0,node_path__WEBPACK_IMPORTED_MODULE_1__.join)(cwd, f);
        try {
            await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.unlink)(full);
        }
        catch (e) {
            if (code(e) === 'ENOENT')
                continue;
            const st = await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.lstat)(full).catch(() => null);
            if (st)
                leftovers.push({ path: f, dev: st.dev, ino: st.ino });
            else
                problems.push(`${f} could not be removed before the checks (${code(e)})`);
        }
    }
    return { started, leftovers, problems };
}
function refusal(f, st, guard) {
    if (guard.leftovers.some((l) => l.path === f || (l.dev === st.dev && l.ino === st.ino)))
        return `${f} existed before the checks and could not be removed; it is never counted`;
    if (st.mtimeMs < guard.started - MTIME_SLACK_MS)
        return `${f} was last modified before the checks began; it is never counted`;
    return null;
}
async function readReport(cwd, f, guard) {
    const r = await (0,_os_tree_file_js__WEBPACK_IMPORTED_MODULE_2__/* .openRegular */ .lf)((0,node_path__WEBPACK_IMPORTED_MODULE_1__.join)(cwd, f), MAX_REPORT_BYTES);
    if ('refused' in r)
        return { error: `${f}: ${r.refused}` };
    const refused = guard && refusal(f, r.stat, guard);
    return refused ? { error: refused } : r.data.toString('utf8');
}
/**
 * After a check round: every test in the reports matching `glob`, or an error naming each file that
 * could not be trusted or read. `guard` is what prepareJunit returned before the round; null reads
 * without one (only for a caller that has not yet removed reports before its round).
 */
async function readJunit(cwd, glob, guard) {
    const { files, problems } = await junitFiles(cwd, glob);
    problems.unshift(...(guard?.problems ?? []));
    const tests = [];
    for (const f of files) {
        const text = await readReport(cwd, f, guard);
        const r = typeof text === 'string' ? parseRecords(text, f) : text;
        if (Array.isArray(r))
            tests.push(...r);
        else
            problems.push(r.error);
    }
    if (problems.length)
        return { error: [...new Set(problems)].join('; ') };
    return { tests: uniqueIds(tests), files };
}
/** The tests that ran (not skipped). */
const executedTests = (tests) => tests.filter((t) => t.status !== 'skipped');
/** The tests that ran and did not pass. */
const failingTests = (tests) => tests.filter((t) => t.status === 'failed' || t.status === 'error');
/**
 * Suite integrity (SPEC §7): the tests executed (not skipped) may not fall below the baseline, in
 * number or ids, whatever made them disappear (a deleted test, .only, a skip, an exclude in a runner
 * config, -k). New tests are welcome. `allowFewer` is the human-approved override: the drop is
 * recorded in the reason and passes.
 */
function suiteIntegrity(baseline, now, allowFewer) {
    const before = executedTests(baseline);
    const after = executedTests(now);
    const executed = new Set(after.map((t) => t.id));
    const missing_ids = [...new Set(before.map((t) => t.id).filter((id) => !executed.has(id)))].sort();
    const counts = `${after.length} tests executed, baseline ${before.length}`;
    const weakened = after.length < before.length || missing_ids.length > 0;
    if (!weakened)
        return { ok: true, executed_before: before.length, executed_after: after.length, missing_ids, reason: counts };
    const shown = missing_ids.slice(0, 5).join('; ') + (missing_ids.length > 5 ? `; and ${missing_ids.length - 5} more` : '');
    const what = `${counts}${missing_ids.length ? `; ${missing_ids.length} no longer executed: ${shown}` : ''}`;
    return allowFewer
        ? { ok: true, executed_before: before.length, executed_after: after.length, missing_ids, reason: `${what} (allowed by checks.allow_fewer_tests)` }
        : { ok: false, executed_before: before.length, executed_after: after.length, missing_ids, reason: `the suite was weakened: ${what}` };
}
/** A readable line naming up to `max` failing tests and why, e.g. for the halting report. */
function describeFailures(results, max) {
    const failing = failingTests(results);
    const executed = executedTests(results).length;
    if (failing.length === 0)
        return `no test fails (${executed} executed)`;
    const named = failing.slice(0, Math.max(0, max)).map((t) => `${t.id}${t.status === 'error' ? ' (error)' : ''}${t.message ? `: ${t.message}` : ''}`);
    const rest = failing.length - named.length;
    return `${failing.length} of ${executed} tests fail — ${named.join('; ')}${rest > 0 ? `; and ${rest} more` : ''}`;
}


/***/ }),

/***/ 45252:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  H6: () => (/* binding */ COMPACTION_LIMIT_TOKENS),
  ih: () => (/* binding */ countTokens),
  Xl: () => (/* reexport */ extractSection),
  ab: () => (/* reexport */ mergeSection),
  Ps: () => (/* binding */ openQuestionsOf),
  hD: () => (/* binding */ overTokenLimit),
  Ft: () => (/* binding */ renderEntry),
  YN: () => (/* binding */ renderSection),
  KY: () => (/* binding */ sanitizeAgentText),
  _j: () => (/* binding */ sanitizeList),
  u: () => (/* binding */ witness)
});

// UNUSED EXPORTS: BEGIN, END

// EXTERNAL MODULE: ./node_modules/gpt-tokenizer/esm/encoding/cl100k_base.js + 19 modules
var cl100k_base = __webpack_require__(69463);
// EXTERNAL MODULE: ./src/engine/common/markdown.ts
var markdown = __webpack_require__(74129);
// EXTERNAL MODULE: ./src/engine/common/volatile.ts
var common_volatile = __webpack_require__(98256);
// EXTERNAL MODULE: ./src/engine/memory/lane-a.ts
var lane_a = __webpack_require__(54230);
;// CONCATENATED MODULE: ./src/engine/memory/section-markers.ts
// The loop's section of AGENTS.md: between its two markers, put into the user's file with every
// other marker made plain text, so the file holds exactly one loop section (memory/agents-md.ts
// renders what goes inside).
const BEGIN = '<!-- phuc-loop:begin — written by phuc-loop; edits inside this section are replaced every iteration -->';
const END = '<!-- phuc-loop:end -->';
const BEGIN_RE = /<!-- phuc-loop:begin[^>]*-->/;
/**
 * Anything a reader could take for one of the section's markers: any case, spacing or extra dashes
 * (`<!---- PHUC-LOOP:END --->`), whatever follows the word up to the comment's end.
 */
const MARKER_RE = /<!--[\s-]*phuc-loop\s*:\s*(begin|end)\b[\s\S]*?-->/gi;
function markersOf(text) {
    return [...text.matchAll(MARKER_RE)].map((m) => ({ kind: m[1].toLowerCase(), at: m.index, end: m.index + m[0].length }));
}
/**
 * Where the loop's section lies: exactly the section it wrote last when that is still there;
 * otherwise from the first begin marker to the end marker that closes it (nested pairs counted),
 * or to the last end marker when none balances it. Null when there is no begin with an end after it.
 */
function sectionSpan(text, previous) {
    if (previous !== undefined) {
        const written = `${BEGIN}\n${previous.trimEnd()}\n${END}`;
        const at = text.indexOf(written);
        if (at >= 0)
            return { at, end: at + written.length };
    }
    const markers = markersOf(text);
    const first = markers.findIndex((m) => m.kind === 'begin');
    if (first < 0)
        return null;
    let depth = 0;
    let lastEnd;
    for (const m of markers.slice(first)) {
        if (m.kind === 'begin')
            depth++;
        else {
            depth--;
            lastEnd = m;
            if (depth === 0)
                break;
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
function neutralise(text) {
    for (let prev = ''; prev !== text;) {
        prev = text;
        text = text.replace(MARKER_RE, (_m, kind) => `(a phuc-loop ${kind.toLowerCase()} marker the loop did not write)`);
    }
    return text;
}
/**
 * Puts the section into the user's AGENTS.md, replacing only the loop's section (see sectionSpan;
 * `previous` is the section the loop wrote last) and neutralising every other marker, so the file
 * holds exactly one loop section.
 */
function mergeSection(existing, section, previous) {
    const block = `${BEGIN}\n${section.trimEnd()}\n${END}\n`;
    if (existing === null || existing.trim() === '')
        return block;
    const span = sectionSpan(existing, previous);
    if (span) {
        const after = existing.slice(span.end).replace(/^\r?\n/, '');
        return neutralise(existing.slice(0, span.at)) + block + neutralise(after);
    }
    return neutralise(existing).replace(/\s*$/, '\n\n') + block;
}
/** The text between the markers, or null when the section is missing. */
function extractSection(text) {
    const begin = BEGIN_RE.exec(text);
    if (!begin)
        return null;
    const endAt = text.indexOf(END, begin.index);
    if (endAt < 0)
        return null;
    return text
        .slice(begin.index + begin[0].length, endAt)
        .replace(/^\n/, '')
        .replace(/\n$/, '');
}

;// CONCATENATED MODULE: ./src/engine/memory/agents-md.ts
// AGENTS.md (SPEC §2): the loop writes one lane-typed entry (N.1–N.6) per iteration inside a
// delimited section and leaves everything the user wrote outside it untouched. The section is a
// pure function of the evidence (each entry is kept verbatim in iter_N/agents_md_entry.md), so an
// agent's edit inside it is simply overwritten, and Lane A lines are never rewritten: compaction
// moves old iterations to witness lines that link the verbatim entry by sha256, then to a Lane A ledger.





const COMPACTION_LIMIT_TOKENS = 8000;
/** Iterations always kept in full by compaction (docs/glossary.md "Compaction"). */
const KEEP_FULL = 3;
const ABSOLUTE_HINTS = ['as we discussed', 'as discussed earlier', 'as mentioned before', 'like we said', 'as previously discussed'];
/** A temporary directory the loop's own hosts use (tmpdir() on Linux and macOS runners). */
const TEMP_ROOT = /^(?:\/private)?\/(?:var\/)?tmp\/?$|^\/dev\/shm\/?$/;
/**
 * Agent-written text is data: one line, no markup that could open a heading or close the section,
 * inert in markdown and HTML (see inert: no tag, image, link or @mention), no host paths, no
 * volatile text, no references to a conversation the next agent never saw; bounded in length.
 */
function sanitizeAgentText(text, hostPaths, max = 300) {
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
    for (const p of [...hostPaths].sort((a, b) => b.length - a.length))
        if (p.length > 1 && !TEMP_ROOT.test(p))
            s = s.split(p).join('<host-path>');
    // Volatile text (clock times, dates, durations, pids, temporary paths): the same normaliser as failure signatures.
    s = (0,common_volatile/* normalizeVolatile */.M)(s);
    for (const h of ABSOLUTE_HINTS)
        s = s.replace(new RegExp(h, 'gi'), '[reference to an unseen conversation removed]');
    return (0,markdown/* inert */.tJ)(s.length > max ? s.slice(0, max - 1) + '…' : s);
}
function sanitizeList(items, hostPaths, maxItems = 10) {
    if (!Array.isArray(items))
        return [];
    return items
        .slice(0, maxItems)
        .map((t) => sanitizeAgentText(t, hostPaths))
        .filter(Boolean);
}
// Every text of an entry may quote what the loop did not write (a file name the agent chose in a
// guardrail line, a failing check's output in a failure signature): inert, on one line.
const bullet = (items, empty) => (items.length ? items.map((t) => `- ${(0,markdown/* inert */.tJ)(t)}`) : [`- ${empty}`]);
const facts = (items, empty) => (items.length ? items.map((f) => `- [${f.lane}] ${(0,markdown/* inert */.tJ)(f.text)}`) : [`- ${empty}`]);
function renderEntry(e) {
    const g = e.glow;
    const gbb = Object.fromEntries(Object.entries(e.gbb).map(([k, v]) => [k, (0,markdown/* inert */.tJ)(v)]));
    return [
        `## Iteration ${e.iteration}`,
        '',
        '### N.1 What Was Tried [Lane C — guidance only]',
        ...bullet(e.tried.map((t) => `[C] ${t}`), '[C] (the agent reported nothing)'),
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
function openQuestionsOf(entryText) {
    const m = /### N\.5[^\n]*\n([\s\S]*?)\n\n### N\.6/.exec(entryText);
    if (!m)
        return [];
    return m[1]
        .split('\n')
        .map((l) => l.replace(/^- /, ''))
        .filter((l) => l && l !== '(none)');
}
function field(entryText, name) {
    return new RegExp(`^- ${name}: (.*)$`, 'm').exec(entryText)?.[1] ?? '?';
}
const witnessCache = new Map();
/** One witness line for a compacted iteration, plus its Lane A lines verbatim (entries never change: cached by link). */
function witness(iteration, entryText, link) {
    const key = `${iteration} ${link}`;
    const hit = witnessCache.get(key);
    if (hit)
        return hit;
    const lines = witnessOf(iteration, entryText, link);
    if (witnessCache.size > 50_000)
        witnessCache.clear();
    witnessCache.set(key, lines);
    return lines;
}
function witnessOf(iteration, entryText, link) {
    const glow = /total: (\d+), G: (\d+), L: (\d+), O: (\d+), W: (\d+)/.exec(field(entryText, 'glow_score'));
    const head = `- [iter ${iteration}] certificate ${field(entryText, 'certificate')} · residual ${field(entryText, 'residual_value')} ` +
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
const PLAIN_TEXT = { disallowedSpecial: new Set() };
function countTokens(text) {
    return (0,cl100k_base/* encode */.lF)(text, PLAIN_TEXT).length;
}
/**
 * Whether text holds more than `limit` cl100k tokens. Its lines' cached counts bound it from above
 * first: only a text near the limit is tokenized whole (tokenizing stops once past it).
 */
function overTokenLimit(text, limit = COMPACTION_LIMIT_TOKENS) {
    const rendered = sectionBounds.get(text);
    if (rendered !== undefined && rendered <= limit)
        return false;
    return estimate(text.split('\n')) > limit && (0,cl100k_base/* isWithinTokenLimit */._F)(text, limit, PLAIN_TEXT) === false;
}
// The bounds renderSection computed for the sections it rendered (by whole blocks, tighter than a
// line-by-line bound): the capsule check of the same text then costs no tokenizing. The latest few only.
const sectionBounds = new Map();
function rendered(section) {
    if (sectionBounds.size >= 4)
        sectionBounds.delete(sectionBounds.keys().next().value);
    sectionBounds.set(section.text, section.tokens);
    return section;
}
// Entries and witness lines never change once written: their counts are cached, so compaction
// costs the tokenizer only the new iteration's text.
const tokenCache = new Map();
function tokensOf(text) {
    let n = tokenCache.get(text);
    if (n === undefined) {
        n = countTokens(text);
        if (tokenCache.size > 50_000)
            tokenCache.clear();
        tokenCache.set(text, n);
    }
    return n;
}
/** An upper bound of the tokens of parts joined by newlines (a join can add a token, never remove two). */
const estimate = (parts) => parts.reduce((sum, p) => sum + tokensOf(p) + 2, 0);
function renderMeta(m) {
    return [
        '# AGENTS.md — Loop Learnings Log',
        '<!-- Generated by phuc-loop v2. Lane A lines link the evidence file (path#sha256) that backs them. -->',
        '',
        '## Loop Metadata',
        `- goal: ${(0,markdown/* inert */.tJ)(m.goal.replace(/\s+/g, ' ').trim())}`,
        `- R_p: ${m.R_p ?? 'n/a (EXACT only)'}`,
        `- max_iterations: ${m.max_iterations}`,
        `- rung_target: ${m.rung_target}`,
        `- northstar_metrics: ${(0,markdown/* inert */.tJ)(m.northstar.map((n) => `${n.id} → ${n.target}`).join(', '))}`,
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
function renderSection(input, limit = COMPACTION_LIMIT_TOKENS) {
    const meta = renderMeta(input.meta);
    const blocks = input.entries.map(blocksOf);
    const plainTokens = blocks.reduce((sum, b) => sum + b.full.tokens, estimate([meta]));
    if (plainTokens <= limit)
        return rendered({ text: [meta, ...blocks.map((b) => b.full.text)].join('\n'), tokens: plainTokens, witnessed: [], archived: [], compaction: null });
    let budget = limit - estimate([meta]) - COMPACTION_OVERHEAD_TOKENS;
    // Lane A is never compacted away: room for the ledger of every iteration is kept first (the
    // ledger of the iterations it ends up holding, a prefix, is no larger).
    budget -= estimate((0,lane_a/* ledger */.Wg)(blocks));
    const fits = (part) => {
        if (part.tokens > budget)
            return false;
        budget -= part.tokens;
        return true;
    };
    // Entries from firstFull on stay in full.
    let firstFull = blocks.length;
    while (firstFull > Math.max(0, blocks.length - KEEP_FULL) && fits(blocks[firstFull - 1].full))
        firstFull--;
    let cut = firstFull;
    // Newest first: the most recent witness lines are the most useful to the next agent.
    while (cut > 0 && fits(blocks[cut - 1].witness()))
        cut--;
    const keep = blocks.slice(firstFull).map((b) => b.full);
    const build = (cut) => {
        const ledgered = input.entries.slice(0, cut).map((e) => e.iteration);
        const body = [counted('## Compacted iterations'), counted('')];
        if (ledgered.length)
            body.push(counted(`### Lane A facts of iterations ${ledgered[0]}–${ledgered[ledgered.length - 1]} (their witness lines are in compaction.log)`), ...(0,lane_a/* ledger */.Wg)(blocks.slice(0, cut)).map(counted), counted(''));
        body.push(...blocks.slice(cut, firstFull).map((b) => b.witness()));
        const around = [counted(meta), counted(''), ...body, counted(''), ...keep];
        const compaction = `[COMPACTION] Distilled iterations ${input.entries[0].iteration}-${input.entries[firstFull - 1].iteration} to ${firstFull - cut} witness lines` +
            `${ledgered.length ? ` and the Lane A facts of ${ledgered.length} iterations` : ''}. ` +
            `Original: ${blocks.reduce((sum, b) => sum + b.full.lines, linesOf(meta))} lines → ${around.reduce((sum, p) => sum + p.lines, 1)} lines.`;
        const parts = [around[0], counted(compaction), ...around.slice(1)];
        return { parts, ledgered, compaction, tokens: parts.reduce((sum, p) => sum + p.tokens, 0) };
    };
    let made = build(cut);
    // The reservation is a bound of the ledger's tokens, not of its lines' joins: fold one more witness when needed.
    while (made.tokens > limit && cut < firstFull)
        made = build(++cut);
    return rendered({
        text: made.parts.map((p) => p.text).join('\n'),
        tokens: made.tokens,
        witnessed: input.entries.slice(cut, firstFull).map((e) => e.iteration),
        archived: made.ledgered,
        compaction: made.compaction,
    });
}
const linesOf = (text) => {
    let n = 1;
    for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1))
        n++;
    return n;
};
const counted = (text) => ({ text, lines: linesOf(text), tokens: estimate([text]) });
// An entry's block in full and as witness lines, counted once: entries never change once written,
// so rendering the section costs no more at iteration 200 than at iteration 1 (no walk over every
// entry's text, no tokenizing but the new entry's).
const blocks = new WeakMap();
function blocksOf(e) {
    const known = blocks.get(e);
    if (known && known.text === e.text)
        return known;
    let w;
    const made = {
        iteration: e.iteration,
        text: e.text,
        laneA: (0,lane_a/* laneALines */.BS)(e.text),
        full: counted('---\n\n' + e.text),
        witness: () => (w ??= counted(witness(e.iteration, e.text, e.link).join('\n'))),
    };
    blocks.set(e, made);
    return made;
}


/***/ }),

/***/ 47489:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   F7: () => (/* binding */ LOG_FRAME),
/* harmony export */   X6: () => (/* binding */ recordFailures),
/* harmony export */   eS: () => (/* binding */ lastRoundFailures),
/* harmony export */   mh: () => (/* binding */ ANSI),
/* harmony export */   xd: () => (/* binding */ roundFailuresSchema)
/* harmony export */ });
/* unused harmony exports FAILURE_EXCERPT_TOKENS, FAILURES_FILE, roundFailures, roundsBefore */
/* harmony import */ var zod__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(23905);
/* harmony import */ var _judge_junit_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(85826);
/* harmony import */ var _common_volatile_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(98256);
/* harmony import */ var _agents_md_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(45252);
/* harmony import */ var _store_evidence_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(75607);
// What failed in a round of checks, for the next agent (SPEC §7 "What the agent sees") and for the
// report: the failing criteria, the failing tests and their assertion messages (JUnit where the
// checks write it), else the tail of each failing check's log — within a fixed token bound.
// Recorded per round as `<round>/failures.json` (hashed in the manifest); the capsule carries the
// latest round's excerpt. A function of the logs and reports only: machine paths, times and
// durations are replaced, so the same failure gives the same bytes in every run.





/** The bound of an excerpt (cl100k tokens, counted as the AGENTS.md bound is). */
const FAILURE_EXCERPT_TOKENS = 1500;
/** Failing tests named in full; the rest are counted. */
const TESTS_LISTED = 20;
/** Lines of a failing check's log considered before the token bound trims them. */
const TAIL_LINES = 60;
const LINE_MAX = 400;
const FAILURES_FILE = 'failures.json';
const roundFailuresSchema = zod__WEBPACK_IMPORTED_MODULE_4__/* .strictObject */ .rej({
    round: zod__WEBPACK_IMPORTED_MODULE_4__/* .string */ .YjP(),
    failing_criteria: zod__WEBPACK_IMPORTED_MODULE_4__/* .array */ .YOg(zod__WEBPACK_IMPORTED_MODULE_4__/* .string */ .YjP()),
    /** null where the checks write no JUnit report (or it could not be read). */
    tests: zod__WEBPACK_IMPORTED_MODULE_4__/* .strictObject */ .rej({ executed: zod__WEBPACK_IMPORTED_MODULE_4__/* .number */ .aig().int().min(0), failing: zod__WEBPACK_IMPORTED_MODULE_4__/* .number */ .aig().int().min(0), first: zod__WEBPACK_IMPORTED_MODULE_4__/* .array */ .YOg(zod__WEBPACK_IMPORTED_MODULE_4__/* .string */ .YjP()) }).nullable(),
    excerpt: zod__WEBPACK_IMPORTED_MODULE_4__/* .string */ .YjP(),
});
// eslint-disable-next-line no-control-regex -- an ANSI colour sequence starts with ESC
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;
// formatLog's frame: the command line and the stream and end markers (the heading says how it ended).
const LOG_FRAME = /^--- (stdout|stderr|exit .*|timed out|aborted|signal .*) ---$|^\$ /;
/** Output as the agent may read it: no colour codes, no machine paths, no clock times or durations. */
function clean(text, cwd, hostPaths) {
    let s = text.replace(ANSI, '').replace(/\r\n?/g, '\n');
    if (cwd.length > 1)
        s = s.split(cwd).join('.');
    for (const p of [...hostPaths].sort((a, b) => b.length - a.length))
        if (p.length > 1)
            s = s.split(p).join('<host-path>');
    return (0,_common_volatile_js__WEBPACK_IMPORTED_MODULE_1__/* .normalizeVolatile */ .M)(s)
        .split('\n')
        .map((l) => (l.length > LINE_MAX ? `${l.slice(0, LINE_MAX - 1)}…` : l))
        .join('\n');
}
/** A fence no line of `text` can close. */
function fenced(text) {
    const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
    const fence = '`'.repeat(longest + 1);
    return `${fence}\n${text}\n${fence}`;
}
/** The last lines of `lines` that fit in `tokens` (at least the last one, cut). */
function tailWithin(lines, tokens) {
    let lo = 0;
    let hi = lines.length;
    // The smallest start whose suffix fits: suffixes shrink as the start grows.
    while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if ((0,_agents_md_js__WEBPACK_IMPORTED_MODULE_2__/* .countTokens */ .ih)(lines.slice(mid).join('\n')) <= tokens)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo < lines.length ? lines.slice(lo) : lines.slice(-1).map((l) => l.slice(-tokens));
}
function checkHead(c) {
    const how = c.timed_out ? 'timed out' : c.exit_code === null ? 'killed' : `exit ${c.exit_code}`;
    return `### ${c.id} — failed (${how}${c.attempts > 1 ? `, ${c.attempts} attempts` : ''})`;
}
/** The failures of one round and their bounded excerpt (markdown; check output in fenced blocks). */
function roundFailures(r) {
    const failing = r.checks.filter((c) => !c.met);
    const tests = r.junit && 'tests' in r.junit ? r.junit.tests : null;
    const failingT = tests ? (0,_judge_junit_js__WEBPACK_IMPORTED_MODULE_0__/* .failingTests */ .qU)(tests) : [];
    const named = failingT.map((t) => clean(`${t.id}${t.status === 'error' ? ' (error)' : ''}${t.message ? `: ${t.message}` : ''}`, r.cwd, r.hostPaths));
    const parts = [];
    if (!failing.length && !failingT.length)
        parts.push('Every criterion passed in this round.');
    if (tests) {
        // At most half the bound: the logs of the failing checks keep the other half.
        let shown = named.slice(0, TESTS_LISTED);
        while (shown.length > 1 && (0,_agents_md_js__WEBPACK_IMPORTED_MODULE_2__/* .countTokens */ .ih)(shown.join('\n')) > FAILURE_EXCERPT_TOKENS / 2)
            shown = shown.slice(0, -1);
        parts.push(`### Failing tests (JUnit): ${failingT.length} of ${(0,_judge_junit_js__WEBPACK_IMPORTED_MODULE_0__/* .executedTests */ .Dv)(tests).length} executed\n` +
            (shown.length ? fenced(shown.join('\n') + (named.length > shown.length ? `\n… and ${named.length - shown.length} more` : '')) : ''));
    }
    else if (r.junit && 'error' in r.junit)
        parts.push(`(The JUnit reports could not be read: ${clean(r.junit.error, r.cwd, r.hostPaths)})`);
    const heads = failing.map(checkHead);
    // The log tails share what the test list and the headings leave of the bound, equally.
    const left = FAILURE_EXCERPT_TOKENS - (0,_agents_md_js__WEBPACK_IMPORTED_MODULE_2__/* .countTokens */ .ih)([...parts, ...heads].join('\n\n')) - 20 * failing.length;
    const share = Math.max(20, Math.floor(left / Math.max(1, failing.length)));
    failing.forEach((c, i) => {
        const lines = clean(r.logs[c.id] ?? '', r.cwd, r.hostPaths)
            .split('\n')
            .filter((l) => l.trim() !== '' && !LOG_FRAME.test(l))
            .slice(-TAIL_LINES);
        const tail = tailWithin(lines, share);
        parts.push(`${heads[i]}\n${tail.length ? `last lines of its output:\n${fenced(tail.join('\n'))}` : '(no output)'}`);
    });
    // A hard bound whatever the number of failing checks: whole parts go from the end, counted.
    let kept = parts.length;
    const text = (k) => parts.slice(0, k).join('\n\n') + (k < parts.length ? `\n\n… ${parts.length - k} more part(s) left out (token bound)` : '');
    while (kept > 1 && (0,_agents_md_js__WEBPACK_IMPORTED_MODULE_2__/* .countTokens */ .ih)(text(kept)) > FAILURE_EXCERPT_TOKENS)
        kept--;
    return {
        round: r.round,
        failing_criteria: failing.map((c) => c.id),
        tests: tests ? { executed: (0,_judge_junit_js__WEBPACK_IMPORTED_MODULE_0__/* .executedTests */ .Dv)(tests).length, failing: failingT.length, first: named.slice(0, 5) } : null,
        excerpt: text(kept),
    };
}
/** The rounds before iteration n, latest first: resume_k (judged before iteration k), iter_(k-1), …, baseline. */
function roundsBefore(n) {
    const out = [];
    for (let k = n; k >= 0; k--)
        out.push(`resume_${k}`, ...(k > 0 ? [(0,_store_evidence_js__WEBPACK_IMPORTED_MODULE_3__/* .iterDir */ .E2)(k - 1)] : []));
    return [...out, 'baseline'];
}
/** Records the round's failures as `<dir>/failures.json` (read back by the next capsule and the report). */
async function recordFailures(ctx, dir, round) {
    const logs = {};
    for (const c of round.checks.filter((k) => !k.met))
        logs[c.id] = (await ctx.ev.readText(c.evidence.split('#')[0])) ?? '';
    const failures = roundFailures({ round: dir, checks: round.checks, logs, junit: round.junit, cwd: round.cwd, hostPaths: ctx.hostPaths });
    await ctx.ev.writeJson(`${dir}/${FAILURES_FILE}`, failures);
    return failures;
}
/** The failures of the latest round on record before iteration n (null: none recorded, as in evidence from before this file). */
async function lastRoundFailures(ctx, n) {
    const dir = roundsBefore(n).find((d) => ctx.ev.entry(`${d}/${FAILURES_FILE}`));
    return dir === undefined ? null : ctx.ev.readJson(`${dir}/${FAILURES_FILE}`, roundFailuresSchema);
}


/***/ }),

/***/ 54230:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   BS: () => (/* binding */ laneALines),
/* harmony export */   OR: () => (/* binding */ laneAMissing),
/* harmony export */   Wg: () => (/* binding */ ledger),
/* harmony export */   om: () => (/* binding */ recompressibility)
/* harmony export */ });
/* harmony import */ var _common_canonical_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(94832);
// Lane A under compaction (seed §8.3: "never compact away hard facts"): the iterations whose witness
// lines no longer fit keep their Lane A lines in a ledger, one line per fact with the iterations that
// established it, and the recompressibility check proves after each compaction that the section
// re-derives from the evidence with every hard fact in it (docs/glossary.md "Compaction").

/** The hard facts of a rendered entry: its `- [A]` lines. */
const laneALines = (entryText) => entryText.split('\n').filter((l) => l.startsWith('- [A] '));
// A fact's evidence link differs only by its iteration folder and sha256 from one iteration to the next.
const factKey = (line) => line.replace(/\biter_\d+\//g, 'iter_N/').replace(/#[0-9a-f]{64}\b/g, '');
/** "0–3, 7, 9–10": sorted iteration numbers as ranges. */
function ranges(ns) {
    const out = [];
    for (let i = 0; i < ns.length;) {
        let j = i;
        while (j + 1 < ns.length && ns[j + 1] === ns[j] + 1)
            j++;
        out.push(j === i ? `${ns[i]}` : `${ns[i]}–${ns[j]}`);
        i = j + 1;
    }
    return out.join(', ');
}
const LEDGER_SUFFIX = / · iterations ([\d–, ]+) \(links: iter_N\/agents_md_entry\.md, sha256 in manifest\.json\)$/;
/** The ledger lines of `entries` (oldest first, with their Lane A lines): each distinct fact once, in the order first seen, with its iterations. */
function ledger(entries) {
    const seen = new Map();
    for (const e of entries)
        for (const l of e.laneA) {
            const k = factKey(l);
            const its = seen.get(k);
            if (!its)
                seen.set(k, [e.iteration]);
            else if (its.at(-1) !== e.iteration)
                its.push(e.iteration);
        }
    return [...seen].map(([k, its]) => `${k} · iterations ${ranges(its)} (links: iter_N/agents_md_entry.md, sha256 in manifest.json)`);
}
/** The iterations a ledger line names, by its fact. */
function ledgerFacts(section) {
    const facts = new Map();
    for (const l of section.split('\n')) {
        const m = LEDGER_SUFFIX.exec(l);
        if (!m)
            continue;
        const its = new Set();
        for (const part of m[1].split(', ')) {
            const [a, b] = part.split('–').map(Number);
            for (let k = a; k <= (b ?? a); k++)
                its.add(k);
        }
        facts.set(l.slice(0, m.index), its);
    }
    return facts;
}
/** The lines of each iteration's block in the section: its full entry, or its witness line and the lines under it. */
function blocksOf(section) {
    const blocks = new Map();
    let cur = null;
    let witness = false;
    for (const l of section.split('\n')) {
        const full = /^## Iteration (\d+)$/.exec(l);
        const head = /^- \[iter (\d+)\] /.exec(l);
        if (full || head) {
            cur = new Set();
            blocks.set(Number((full ?? head)[1]), cur);
            witness = !!head;
        }
        else if (l === '---' || (witness && !l.startsWith('  ')))
            cur = null;
        else
            cur?.add(witness ? l.slice(2) : l);
    }
    return blocks;
}
/** `iteration: line` for every Lane A line of `entries` that `section` no longer holds in any form (in full, as a witness line, or in the ledger). */
function laneAMissing(section, entries) {
    const blocks = blocksOf(section);
    const facts = ledgerFacts(section);
    return entries.flatMap((e) => laneALines(e.text)
        .filter((l) => !blocks.get(e.iteration)?.has(l) && !facts.get(factKey(l))?.has(e.iteration))
        .map((l) => `${e.iteration}: ${l}`));
}
/**
 * The recompressibility check (seed §8.3 step 7) of a compacted section: each entry it draws on is
 * the evidence file's bytes (`evidenceSha`: the manifest's sha256 of `iter_N/agents_md_entry.md`),
 * each witness line links that sha256, every Lane A line of every entry is in it (in full, as a
 * witness line, or in the ledger), and `rerender` of those entries gives this text again.
 */
function recompressibility(section, entries, evidenceSha, rerender) {
    const entriesNot = entries.filter((e) => evidenceSha(e.iteration) !== (0,_common_canonical_js__WEBPACK_IMPORTED_MODULE_0__/* .sha256 */ .sc)(e.text)).map((e) => e.iteration);
    const witnessLinks = [...section.matchAll(/^- \[iter (\d+)\] .* · entry (\S+)$/gm)];
    const unresolved = witnessLinks.filter(([, n, link]) => link.split('#')[1] !== evidenceSha(Number(n))).map(([, n, link]) => `${n}: ${link}`);
    const missing = laneAMissing(section, entries);
    const rerender_identical = rerender() === section;
    return {
        ok: !entriesNot.length && !unresolved.length && !missing.length && rerender_identical,
        entries_not_in_evidence: entriesNot,
        witness_links_unresolved: unresolved,
        lane_a_missing: missing,
        rerender_identical,
    };
}


/***/ }),

/***/ 75607:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   CS: () => (/* binding */ listFiles),
/* harmony export */   E2: () => (/* binding */ iterDir),
/* harmony export */   E4: () => (/* binding */ NOT_EVIDENCE),
/* harmony export */   IU: () => (/* binding */ APPEND_ONLY_LOGS),
/* harmony export */   Nn: () => (/* binding */ LATEST_RUN_REPORT),
/* harmony export */   e0: () => (/* binding */ MANIFEST),
/* harmony export */   ph: () => (/* binding */ manifestEntrySchema),
/* harmony export */   qG: () => (/* binding */ PHASES_LOG),
/* harmony export */   rc: () => (/* binding */ manifestSchema),
/* harmony export */   t8: () => (/* binding */ isIterationManifest),
/* harmony export */   xS: () => (/* binding */ EvidenceStore)
/* harmony export */ });
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(77598);
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_crypto__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(73024);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__webpack_require__.n(node_fs__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(51455);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_2___default = /*#__PURE__*/__webpack_require__.n(node_fs_promises__WEBPACK_IMPORTED_MODULE_2__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(76760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_3___default = /*#__PURE__*/__webpack_require__.n(node_path__WEBPACK_IMPORTED_MODULE_3__);
/* harmony import */ var node_util__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(57975);
/* harmony import */ var node_util__WEBPACK_IMPORTED_MODULE_4___default = /*#__PURE__*/__webpack_require__.n(node_util__WEBPACK_IMPORTED_MODULE_4__);
/* harmony import */ var zod__WEBPACK_IMPORTED_MODULE_9__ = __webpack_require__(23905);
/* harmony import */ var _common_canonical_js__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(94832);
/* harmony import */ var _common_document_js__WEBPACK_IMPORTED_MODULE_6__ = __webpack_require__(44505);
/* harmony import */ var _common_errors_js__WEBPACK_IMPORTED_MODULE_7__ = __webpack_require__(72251);
/* harmony import */ var _os_atomic_write_js__WEBPACK_IMPORTED_MODULE_8__ = __webpack_require__(64154);
// The evidence tree (SPEC §5): every file written atomically (temp file + rename) and recorded in
// manifest.json with its sha256, so `phuc-loop verify` needs nothing but the tree itself.










const MANIFEST = 'manifest.json';
const utf8 = new TextEncoder();
/**
 * The logs the loop only appends lines to (at the tree's top). A run cut off between an append and
 * the manifest that records it leaves lines past what the manifest holds: verify tells such a tail
 * from an edit (the manifest's bytes are the file's start), and a resumed run cuts it off.
 */
/** The run-level stages' phase timings (the start, the baseline or resume judgement, replays, the end; evidence/phases.ts), one line per stage and run. */
const PHASES_LOG = 'phases.jsonl';
const APPEND_ONLY_LOGS = new Set(['history.jsonl', 'compaction.log', 'northstar_drift.log', PHASES_LOG]);
/**
 * The halting report of the latest run when it stopped before writing an evidence tree of its own
 * (EXIT_NEED_INFO beside an earlier loop's evidence): `phuc-loop report` shows it, never the older
 * run's report as the current one. Any later run's publication replaces the folder without it.
 */
const LATEST_RUN_REPORT = 'latest_run_report.json';
/** Files in the evidence folder that are not evidence (the run lock, the report of a run that wrote none). */
const NOT_EVIDENCE = new Set(['run.lock', LATEST_RUN_REPORT]);
const manifestEntrySchema = zod__WEBPACK_IMPORTED_MODULE_9__/* .object */ .Ikc({
    path: zod__WEBPACK_IMPORTED_MODULE_9__/* .string */ .YjP().min(1),
    sha256: zod__WEBPACK_IMPORTED_MODULE_9__/* .string */ .YjP().regex(/^[0-9a-f]{64}$/, { error: 'must be 64 lowercase hex digits' }),
    bytes: zod__WEBPACK_IMPORTED_MODULE_9__/* .number */ .aig().int().min(0),
});
/** manifest.json and iter_N/manifest.json. */
const manifestSchema = zod__WEBPACK_IMPORTED_MODULE_9__/* .object */ .Ikc({ schema_version: zod__WEBPACK_IMPORTED_MODULE_9__/* .literal */ .euz('2.0'), files: zod__WEBPACK_IMPORTED_MODULE_9__/* .array */ .YOg(manifestEntrySchema) });
/** Each iteration's files are listed in its own frozen `iter_N/manifest.json`, which the root lists. */
const ITERATION = /^(iter_\d+)\//;
const isIterationManifest = (path) => /^iter_\d+\/manifest\.json$/.test(path);
/** Canonical JSON of a manifest (the bytes canonicalJson would give, without walking it generically). */
function manifestText(files) {
    const rows = [...files]
        .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
        .map((f) => `    {\n      "bytes": ${f.bytes},\n      "path": ${JSON.stringify(f.path)},\n      "sha256": "${f.sha256}"\n    }`);
    return `{\n  "files": [${rows.length ? `\n${rows.join(',\n')}\n  ` : ''}],\n  "schema_version": "2.0"\n}\n`;
}
/** The manifest that lists `rel`: its iteration's (`iter_N`), or the root's (''), which lists the iterations' manifests. */
const listedIn = (rel) => (isIterationManifest(rel) ? '' : (ITERATION.exec(rel)?.[1] ?? ''));
class EvidenceStore {
    root;
    /** Every file's entry, by the manifest that lists it: a manifest is written without a walk over every file of the run. */
    listed = new Map();
    /** Each log's text, running hash and size as written in this run; `onDisk`: the bytes the file holds, null until it is written whole. */
    appendCache = new Map();
    /** Iterations whose manifest must be rewritten (the root manifest stays small: O(iterations)). */
    dirty = new Set();
    /** Masks every known secret in text written here (set by the loop: one scrubber for everything, SPEC §7). */
    scrub = (text) => text;
    constructor(root) {
        this.root = root;
    }
    path(rel) {
        return (0,node_path__WEBPACK_IMPORTED_MODULE_3__.join)(this.root, rel);
    }
    // An iteration's files are written in the background by a worker thread (writer.ts) while the
    // loop goes on (to the checks, the commit). readText waits for its path; flush() waits for all,
    // and comes before any manifest is written: a manifest never lists a file that is not on disk whole.
    writing = new Map();
    failed = null;
    unwritten = new Set();
    async write(rel, data) {
        if (typeof data !== 'string')
            return Promise.resolve(this.enqueue(this.record(rel, data), data, false));
        const bytes = utf8.encode(this.scrub(data));
        return Promise.resolve(this.enqueue(this.record(rel, bytes), bytes, true));
    }
    /**
     * Writes `body` (scrubbed) in the background, as `entry` records it. `own`: bytes made for this
     * write, handed to the worker rather than copied (they are unusable here after).
     */
    enqueue(entry, body, own, requires) {
        const rel = entry.path;
        const path = this.path(rel);
        // The worker writes in the order given: a later write of the same path lands after this one.
        this.enqueued(rel, (0,_os_atomic_write_js__WEBPACK_IMPORTED_MODULE_8__/* .atomicWriteOffThread */ .w5)(path, body, own, requires));
        return entry;
    }
    enqueued(rel, write) {
        // A file whose last write failed is not what its entry says: no manifest lists it until a write of it lands.
        const settled = write.then(() => void this.unwritten.delete(rel), (e) => {
            this.failed ??= e;
            this.unwritten.add(rel);
        });
        this.writing.set(rel, settled);
        void settled.then(() => {
            if (this.writing.get(rel) === settled)
                this.writing.delete(rel);
        });
    }
    holding = new Set();
    /**
     * Writes that begin once `pending` settles (they wait on a slower source: the patch the git shell
     * makes while the checks run): flush() and saveManifest() wait for it (readText does not). Its own
     * failure is its caller's to handle: the evidence written so far still gets its manifest.
     */
    hold(pending) {
        const settled = pending.then(() => void this.holding.delete(settled), () => void this.holding.delete(settled));
        this.holding.add(settled);
    }
    /**
     * Waits for every write begun; throws the first that failed (the disk full, a folder gone) as a
     * StorageError: the run ends blocked, with a report where one can still be written.
     */
    async flush() {
        while (this.writing.size || this.holding.size)
            await Promise.all([...this.writing.values(), ...this.holding]);
        const e = this.failed;
        this.failed = null;
        if (e)
            throw new _common_errors_js__WEBPACK_IMPORTED_MODULE_7__/* .StorageError */ .aq(`an evidence file could not be written: ${node_util__WEBPACK_IMPORTED_MODULE_4__.types.isNativeError(e) ? e.message : 'unknown failure'}`, { cause: e });
    }
    /** Records `data` (as written) in the manifest; `hashed`: its hash and size, already known. */
    record(rel, data, hashed) {
        const entry = { path: rel, ...(hashed ?? { sha256: (0,_common_canonical_js__WEBPACK_IMPORTED_MODULE_5__/* .sha256 */ .sc)(data), bytes: typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength }) };
        const group = this.put(entry);
        if (group)
            this.dirty.add(group);
        return entry;
    }
    /** Keeps `entry` (replacing one of its path); returns the manifest that lists it. */
    put(entry) {
        const group = listedIn(entry.path);
        let files = this.listed.get(group);
        if (!files)
            this.listed.set(group, (files = new Map()));
        files.set(entry.path, entry);
        return group;
    }
    async writeJson(rel, value) {
        return this.write(rel, (0,_common_canonical_js__WEBPACK_IMPORTED_MODULE_5__/* .canonicalJson */ .dj)(value));
    }
    /**
     * Appends a line to an append-only log (APPEND_ONLY_LOGS). Only the new line is scrubbed, hashed (a
     * running hash of the text so far) and written (appended to the file): a log as long as the run
     * costs no more per line at iteration 200 than at iteration 1. A log the loop has not written in
     * this run, or had to scrub anew, is written whole first (atomically).
     */
    async appendLine(rel, line) {
        if (!APPEND_ONLY_LOGS.has(rel))
            throw new Error(`${rel} is not an append-only log`);
        let log = this.appendCache.get(rel);
        if (log === undefined) {
            // Scrubbed again once a run: an earlier run did not know this run's secrets.
            const read = await this.readText(rel);
            const text = this.scrub(read ?? '');
            const bytes = Buffer.byteLength(text);
            log = { text, hash: (0,node_crypto__WEBPACK_IMPORTED_MODULE_0__.createHash)('sha256').update(text), bytes, onDisk: read !== null && text === read ? bytes : null };
            this.appendCache.set(rel, log);
        }
        const chunk = this.scrub(line.endsWith('\n') ? line : line + '\n');
        log.text += chunk;
        log.hash.update(chunk);
        log.bytes += Buffer.byteLength(chunk);
        const entry = this.record(rel, log.text, { sha256: log.hash.copy().digest('hex'), bytes: log.bytes });
        if (log.onDisk === null)
            this.enqueue(entry, utf8.encode(log.text), true);
        else
            this.enqueued(rel, (0,_os_atomic_write_js__WEBPACK_IMPORTED_MODULE_8__/* .appendOffThread */ .oC)(this.path(rel), utf8.encode(chunk), log.onDisk));
        log.onDisk = log.bytes;
        return entry;
    }
    async readText(rel) {
        await this.writing.get(rel);
        try {
            return (0,node_fs__WEBPACK_IMPORTED_MODULE_1__.readFileSync)(this.path(rel), 'utf8');
        }
        catch {
            return null;
        }
    }
    /** The document at `rel` parsed by its schema (null when absent); EvidenceUnverifiable when it does not parse. */
    async readJson(rel, schema) {
        const text = await this.readText(rel);
        return text === null ? null : (0,_common_document_js__WEBPACK_IMPORTED_MODULE_6__/* .parseDocument */ .Tp)(rel, text, schema);
    }
    entry(rel) {
        return this.listed.get(listedIn(rel))?.get(rel);
    }
    /** An evidence link as used in certificates and AGENTS.md: `path#sha256`. */
    link(rel) {
        const e = this.entry(rel);
        if (!e)
            throw new Error(`no evidence file ${rel}`);
        return `${rel}#${e.sha256}`;
    }
    /** Every file of the tree, flat (iteration manifests included). */
    manifest() {
        const files = [...this.listed.values()].flatMap((m) => [...m.values()]).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
        return { schema_version: '2.0', files };
    }
    /**
     * Writes the manifests of the iterations that changed, then the root manifest that lists them;
     * settles when all are on disk. They go to the worker right behind the files they list, each
     * requiring those still on their way (see atomicWriteOffThread): none lands listing a file whose
     * write failed, and the loop waits for the disk once, not once a level.
     */
    async saveManifest() {
        // A write known to have failed ends the save (flush throws it: the run ends blocked); held writes are begun first.
        if (this.failed)
            await this.flush();
        await Promise.all(this.holding);
        this.dropUnwritten();
        const save = (path, files) => {
            const bytes = utf8.encode(manifestText(files));
            const onTheirWay = files.filter((f) => this.writing.has(f.path)).map((f) => this.path(f.path));
            return this.enqueue({ path, sha256: (0,_common_canonical_js__WEBPACK_IMPORTED_MODULE_5__/* .sha256 */ .sc)(bytes), bytes: bytes.byteLength }, bytes, true, onTheirWay);
        };
        // An iteration left with no file (its only writes failed) gets no manifest.
        const groups = [...this.dirty].sort().filter((g) => this.listed.get(g)?.size);
        for (const g of this.dirty)
            if (!this.listed.get(g)?.size)
                this.dirty.delete(g);
        for (const group of groups)
            this.put(save(`${group}/manifest.json`, [...this.listed.get(group).values()]));
        const root = save(MANIFEST, [...(this.listed.get('')?.values() ?? [])]);
        (0,_os_atomic_write_js__WEBPACK_IMPORTED_MODULE_8__/* .sendWrites */ .rm)();
        try {
            await this.flush();
        }
        catch (e) {
            // A manifest that failed is listed nowhere, and its iteration's stays to be written by the next save.
            this.dropUnwritten();
            throw e;
        }
        for (const group of groups)
            this.dirty.delete(group);
        return root;
    }
    /** Takes the files whose last write failed out of the manifests (not one being written again: its write is awaited). */
    dropUnwritten() {
        for (const rel of this.unwritten) {
            if (this.writing.has(rel))
                continue;
            const group = listedIn(rel);
            if (this.listed.get(group)?.delete(rel) && group)
                this.dirty.add(group);
            this.appendCache.delete(rel);
        }
    }
    /** Loads the manifests of an existing tree (for resuming); the caller verifies the tree first. */
    async loadManifest() {
        const m = await this.readJson(MANIFEST, manifestSchema);
        if (!m)
            return false;
        for (const e of m.files) {
            this.put(e);
            if (isIterationManifest(e.path))
                for (const f of (await this.readJson(e.path, manifestSchema))?.files ?? [])
                    this.put(f);
        }
        return true;
    }
    async exists() {
        try {
            return (await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_2__.stat)(this.root)).isDirectory();
        }
        catch {
            return false;
        }
    }
    /** Removes every evidence file (not the run lock) to start a new tree. */
    async clear() {
        await this.flush().catch(() => undefined);
        const names = await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_2__.readdir)(this.root).catch(() => []);
        await Promise.all(names.filter((n) => !NOT_EVIDENCE.has(n)).map((n) => (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_2__.rm)((0,node_path__WEBPACK_IMPORTED_MODULE_3__.join)(this.root, n), { recursive: true, force: true })));
        this.listed.clear();
        this.appendCache.clear();
        this.dirty.clear();
    }
}
/** Every file under `root`, as forward-slash relative paths, sorted. */
async function listFiles(root) {
    const out = [];
    async function walk(dir) {
        for (const d of await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_2__.readdir)(dir, { withFileTypes: true })) {
            const full = (0,node_path__WEBPACK_IMPORTED_MODULE_3__.join)(dir, d.name);
            if (d.isDirectory())
                await walk(full);
            else
                out.push((0,node_path__WEBPACK_IMPORTED_MODULE_3__.relative)(root, full).split(node_path__WEBPACK_IMPORTED_MODULE_3__.sep).join('/'));
        }
    }
    await walk(root);
    return out.sort();
}
/** The folder of iteration n in the evidence tree. */
const iterDir = (n) => `iter_${n}`;


/***/ })

};
