export const id = 991;
export const ids = [991];
export const modules = {

/***/ 74129:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   XT: () => (/* binding */ listSome),
/* harmony export */   gQ: () => (/* binding */ inertCode),
/* harmony export */   tJ: () => (/* binding */ inert)
/* harmony export */ });
/* unused harmony export JOINER */
// Text the loop did not write (the agent's report, logs and check output quoted in failure texts,
// file names the agent chose, a pull request's text) is rendered into markdown: AGENTS.md, the
// halting report, the job summary, the PR comment. There it must stay text: no HTML (a heading, a
// closed <details>, a remote image), no link or image, no @mention that pings someone, no line
// break that starts a block of its own. `inert` is the one function that makes it so.
/** U+2060 WORD JOINER: invisible, so the text reads as it was written, yet no markup can start at it. */
const JOINER = '\u2060';
/**
 * `text` as inert markdown/HTML text on one line, still readable: control characters and line
 * breaks become spaces; a joiner goes after a `<` that could open a tag, comment or autolink (a
 * letter, `/`, `!` or `?` next: `>` then closes nothing; `2 < 3` stays as it is), after an `&` that would start a character reference, after an `@` that
 * would start a mention, after the `!` of `![` (no image) and between `](` (no inline link).
 * Idempotent: text made inert stays as it is. Inside a code span or fenced block use only the
 * fence protection (backticks), not this.
 */
function inert(text) {
    return (text
        // eslint-disable-next-line no-control-regex -- control characters and line breaks become spaces
        .replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, ' ')
        .replace(/<(?=[A-Za-z/!?])/g, `<${JOINER}`)
        .replace(/&(?=[#A-Za-z0-9])/g, `&${JOINER}`)
        .replace(/@(?=[A-Za-z0-9_-])/g, `@${JOINER}`)
        .replace(/!\[/g, `!${JOINER}[`)
        .replace(/\]\(/g, `]${JOINER}(`));
}
/** An untrusted text inside a code span: inert there once no backtick can close the span early. */
function inertCode(text) {
    // eslint-disable-next-line no-control-regex -- one line, as a code span is
    return text.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, ' ').replace(/`/g, "'");
}
/** `items` joined by commas for a log line or a report, at most `max` of them: an agent's ten thousand paths are counted, not listed. */
function listSome(items, max = 20) {
    return items.length <= max ? items.join(', ') : `${items.slice(0, max).join(', ')} and ${items.length - max} more`;
}


/***/ }),

/***/ 8476:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   _N: () => (/* binding */ stagePhasesSchema),
/* harmony export */   m0: () => (/* binding */ phaseTable)
/* harmony export */ });
/* unused harmony exports phaseSchema, Stage, phaseRows, phaseSummary */
/* harmony import */ var zod__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(23905);
// Where a run's wall time goes (Lane B: measurements, never certificate or capsule content). A
// stage — the run's start, the baseline, an iteration, a replay, the end — times its phases on the
// loop's clock port; its record goes to the evidence (iter_N/phases.json, phases.jsonl) and the
// halting report sums them in one table. Phases of a stage may run at the same time (the criteria
// of a round): those are recorded `part_of` the phase that holds them, and only top-level phases
// add up to the stage's wall time; what no phase covers is shown as such, never hidden.

const ms = zod__WEBPACK_IMPORTED_MODULE_0__/* .number */ .aig().int().min(0);
const phaseSchema = zod__WEBPACK_IMPORTED_MODULE_0__/* .object */ .Ikc({ phase: zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP(), ms, part_of: zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP().optional() });
/** `within`: a stage timed inside another (a replay inside the run's end), whose wall it is part of. */
/** `before_ms`: the run's time between the stage before and this one (that one's records, a host's push), in no stage. */
const stagePhasesSchema = zod__WEBPACK_IMPORTED_MODULE_0__/* .object */ .Ikc({
    stage: zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP(),
    wall_ms: ms,
    phases: zod__WEBPACK_IMPORTED_MODULE_0__/* .array */ .YOg(phaseSchema),
    within: zod__WEBPACK_IMPORTED_MODULE_0__/* .string */ .YjP().optional(),
    before_ms: ms.optional(),
});
/**
 * One stage's phases, timed from its creation. Straight-line code marks the end of each phase with
 * lap(); a function can be timed whole with time(). Phases timed side by side each add their own.
 */
class Stage {
    name;
    clock;
    within;
    // Whole milliseconds read off the clock: laps then add up to the stage's wall time exactly.
    started;
    /** When the last top-level phase ended: where the next lap starts. */
    lastEnd;
    phases = [];
    constructor(name, clock, within) {
        this.name = name;
        this.clock = clock;
        this.within = within;
        this.started = this.lastEnd = this.now();
    }
    now() {
        return Math.round(this.clock.monotonicMs());
    }
    /** Runs `fn` and adds its duration (also when it throws) to `phase`. */
    async time(phase, fn, partOf) {
        const start = this.now();
        try {
            return await fn();
        }
        finally {
            const end = this.now();
            this.add(phase, end - start, partOf);
            if (partOf === undefined)
                this.lastEnd = Math.max(this.lastEnd, end);
        }
    }
    /**
     * The time since the last phase ended goes to `phase`, less `apart`: a part of it measured apart,
     * never longer than the lap, recorded as a phase of its own (the agent's process inside its
     * hand-over) or, unnamed, left to what recorded it (stages timed within this one).
     */
    lap(phase, apart) {
        const now = this.now();
        const part = apart ? Math.min(Math.max(0, Math.round(apart.ms)), now - this.lastEnd) : 0;
        if (apart?.phase !== undefined)
            this.add(apart.phase, part);
        this.add(phase, now - this.lastEnd - part);
        this.lastEnd = now;
    }
    /** The same phase twice in a stage (a hand-back after each use) is one entry, summed. */
    add(phase, durationMs, partOf) {
        const whole = Math.max(0, Math.round(durationMs));
        const known = this.phases.find((p) => p.phase === phase && p.part_of === partOf);
        if (known)
            known.ms += whole;
        else
            this.phases.push(partOf === undefined ? { phase, ms: whole } : { phase, ms: whole, part_of: partOf });
    }
    /** `time` bound to this stage, for helpers that take a TimePhase. */
    timer = (phase, fn) => this.time(phase, fn);
    /**
     * The stage as timed so far, and when it ended on the clock. `previousEnd`: when the run's stage
     * before this one ended, so that the time between them is on record (a stage within another has none).
     */
    record(previousEnd) {
        const end = this.now();
        const before = previousEnd === undefined || this.within !== undefined ? {} : { before_ms: Math.max(0, this.started - previousEnd) };
        return {
            record: {
                stage: this.name,
                wall_ms: end - this.started,
                phases: this.phases.map((p) => ({ ...p })),
                ...(this.within === undefined ? {} : { within: this.within }),
                ...before,
            },
            end,
        };
    }
}
const seconds = (msValue) => (msValue / 1000).toFixed(1);
const NOT_IN_A_PHASE = 'not in a phase';
const BETWEEN_STAGES = 'between stages';
/** The order in which a run goes through its phases (the table's rows); any other phase follows, in first-seen order. */
const RUN_ORDER = [
    'capsule',
    'step start',
    'agent',
    'work tree hand-over',
    'collect',
    'workspace update',
    'setup',
    'checks',
    'residual',
    'canary',
    'skeptic',
    'northstar',
    'hand-back',
    'learn',
    'commit',
    'record',
];
const rank = (phase) => (RUN_ORDER.includes(phase) ? RUN_ORDER.indexOf(phase) : RUN_ORDER.length);
/** Each phase row's cells (ms per stage, null where the stage had none), in the run's order; nested phases follow their holder. */
function phaseRows(stages) {
    const key = (p) => `${p.part_of ?? ''}\0${p.phase}`;
    const order = [];
    for (const s of stages)
        for (const p of s.phases)
            if (!order.some((o) => key(o) === key(p)))
                order.push(p);
    const top = order.filter((p) => p.part_of === undefined).sort((a, b) => rank(a.phase) - rank(b.phase));
    const placed = [
        ...top.flatMap((t) => [t, ...order.filter((p) => p.part_of === t.phase)]),
        ...order.filter((p) => p.part_of !== undefined && !top.some((t) => t.phase === p.part_of)),
    ];
    const rows = placed.map((p) => ({
        ...(p.part_of === undefined ? {} : { part_of: p.part_of }),
        phase: p.phase,
        ms: stages.map((s) => s.phases.find((q) => key(q) === key(p))?.ms ?? null),
    }));
    // A stage's wall less its top-level phases and the stages timed within it: always a row, so a gap shows.
    const other = stages.map((s) => s.wall_ms -
        s.phases.filter((p) => p.part_of === undefined).reduce((a, p) => a + p.ms, 0) -
        stages.filter((t) => t.within === s.stage).reduce((a, t) => a + t.wall_ms, 0));
    const between = stages.map((s) => s.before_ms ?? null);
    return [
        ...rows,
        { phase: NOT_IN_A_PHASE, ms: other.map((o) => Math.max(0, o)) },
        ...(between.some((b) => b !== null) ? [{ phase: BETWEEN_STAGES, ms: between }] : []),
    ];
}
/** A stage's share of the run: its wall and the time since the stage before it ended. */
const runShare = (s) => s.wall_ms + (s.before_ms ?? 0);
/** The run's wall time the stages cover: a stage within another is part of that one's. */
const wallOf = (stages) => stages.filter((s) => s.within === undefined).reduce((a, s) => a + runShare(s), 0);
/**
 * The one-table breakdown (markdown): a row per phase, a column per stage, seconds. `cell` makes a
 * name safe for a table (criterion ids are the user's). Each phase belongs to one stage, so a row's
 * total is its sum; a stage's wall runs from the end of the stage before it, so the wall total is
 * the run's from its start to its end (a stage timed within another counted once).
 */
function phaseTable(stages, cell) {
    if (!stages.length)
        return [];
    const rows = phaseRows(stages);
    const sum = (xs) => xs.reduce((a, x) => a + (x ?? 0), 0);
    return [
        `| phase | ${stages.map((s) => cell(s.within === undefined ? s.stage : `${s.stage} (in ${s.within})`)).join(' | ')} | total |`,
        `|---|${stages.map(() => '---:|').join('')}---:|`,
        ...rows.map((r) => `| ${r.part_of === undefined ? cell(r.phase) : `↳ ${cell(r.phase)}`} | ${r.ms.map((x) => (x === null ? '—' : seconds(x))).join(' | ')} | ${seconds(sum(r.ms))} |`),
        `| **wall** | ${stages.map((s) => `**${seconds(runShare(s))}**`).join(' | ')} | **${seconds(wallOf(stages))}** |`,
    ];
}
/** The closing note's words: the top-level phases that took the most of the run, with their share. */
function phaseSummary(stages, top = 5) {
    const wall = wallOf(stages);
    if (!wall)
        return null;
    const totals = phaseRows(stages)
        .filter((r) => r.part_of === undefined)
        .map((r) => ({ phase: r.phase, ms: r.ms.reduce((a, x) => a + (x ?? 0), 0) }))
        .sort((a, b) => b.ms - a.ms)
        .slice(0, top);
    return `${totals.map((t) => `${t.phase} ${seconds(t.ms)} s (${Math.round((t.ms * 100) / wall)} %)`).join(', ')} of ${seconds(wall)} s`;
}


/***/ }),

/***/ 44638:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   wi: () => (/* binding */ EXIT_PRECEDENCE)
/* harmony export */ });
/* unused harmony exports unjudged, firedExits, decide, downstreamUnavailable, agentBackpressure, decideJudgement, countsAgainstBudget, iterationsUsed, iterationBudget, decideBeforeIteration, decideHead, decideFinal */
/**
 * The exits one iteration can fire, in SPEC §3's order of precedence (INVARIANT and GUARDRAIL
 * first). The "no progress" exits of the other loop designs (critic, stuck failure, stall) rank
 * with divergence, before backpressure. Northstar drift has two forms that end the run alike
 * (EXIT_BLOCKED(NORTHSTAR_DRIFT), docs/glossary.md "Northstar drift"): three known W = 0 in a row,
 * and a total distance that rose three iterations in a row.
 */
const EXIT_PRECEDENCE = [
    'INVARIANT',
    'GUARDRAIL',
    'CONVERGED',
    'DIVERGED',
    'NO_VIABLE_FIX_PATH',
    'STUCK',
    'STALLED',
    'BACKPRESSURE',
    'NORTHSTAR_DRIFT',
    'NORTHSTAR_DISTANCE_RISING',
    'BUDGET',
];
/** What a step that was not judged brings to the table: no measurement, no watcher, no stop, no budget. */
const unjudged = () => ({ judgement: null, diverging: null, progress: [], backpressure: null, northstarDrift: null, northstarRising: null, budget: null });
const rank = (f) => EXIT_PRECEDENCE.indexOf(f.kind);
/** Every exit the facts fire, highest precedence first. */
function firedExits(f) {
    const fired = [];
    if (f.invariant)
        fired.push({ kind: 'INVARIANT', code: f.invariant.code, reason: f.invariant.detail });
    if (f.guardrail)
        fired.push({ kind: 'GUARDRAIL', reason: f.guardrail });
    const j = f.judgement;
    if (j?.suiteWeakened)
        fired.push({ kind: 'GUARDRAIL', reason: `suite integrity: ${j.suiteWeakened}` });
    if (j?.residualError)
        fired.push({ kind: 'INVARIANT', code: 'RESIDUAL_UNAVAILABLE', reason: j.residualError });
    // A failing criterion is never a halt (issue 29): a residual below R_p while one fails (a fraction
    // of tests, a command's score) goes on, and the next prompt names the criteria still open.
    if (j && !j.residualError && j.allMet && (j.exact || j.converged))
        fired.push({ kind: 'CONVERGED', reason: j.exact ? 'all criteria met, residual 0' : 'residual below R_p' });
    if (f.diverging)
        fired.push({ kind: 'DIVERGED', reason: f.diverging });
    fired.push(...f.progress);
    const stop = f.interrupted ?? f.backpressure;
    if (stop)
        fired.push({ kind: 'BACKPRESSURE', reason: stop });
    if (f.northstarDrift)
        fired.push({ kind: 'NORTHSTAR_DRIFT', reason: f.northstarDrift });
    if (f.northstarRising)
        fired.push({ kind: 'NORTHSTAR_DISTANCE_RISING', reason: f.northstarRising });
    if (f.budget)
        fired.push({ kind: 'BUDGET', reason: `${f.budget.code}: ${f.budget.reason}` });
    return fired.sort((a, b) => rank(a) - rank(b));
}
/** The certificate type the top exit earns (SPEC §2): only a judged tree can be EXACT or CONVERGED. */
function certificateFor(top, j) {
    switch (top?.kind) {
        case 'CONVERGED':
            return j?.exact ? 'EXACT' : 'CONVERGED';
        case 'DIVERGED':
            return 'DIVERGED';
        case 'BACKPRESSURE':
            return 'BACKPRESSURE';
        case 'BUDGET':
            return 'TIMEOUT';
        default:
            return 'NONE';
    }
}
const STATUS_OF = {
    INVARIANT: 'EXIT_BLOCKED',
    GUARDRAIL: 'EXIT_BLOCKED',
    CONVERGED: 'EXIT_CONVERGED',
    DIVERGED: 'EXIT_DIVERGED',
    NO_VIABLE_FIX_PATH: 'EXIT_BLOCKED',
    STUCK: 'EXIT_BLOCKED',
    STALLED: 'EXIT_BLOCKED',
    BACKPRESSURE: 'EXIT_BLOCKED',
    NORTHSTAR_DRIFT: 'EXIT_BLOCKED',
    NORTHSTAR_DISTANCE_RISING: 'EXIT_BLOCKED',
    BUDGET: 'EXIT_BUDGET_EXCEEDED',
};
function stopReason(top, certificate) {
    switch (top.kind) {
        case 'INVARIANT':
            return top.code ?? 'INVARIANT_VIOLATION';
        case 'GUARDRAIL':
            return 'GUARDRAIL_VIOLATION';
        case 'CONVERGED':
            return certificate;
        case 'DIVERGED':
            return 'SILENT_DIVERGENCE_DETECTED';
        case 'BACKPRESSURE':
            return 'BACKPRESSURE_SIGNAL';
        case 'NORTHSTAR_DISTANCE_RISING':
            return 'NORTHSTAR_DRIFT';
        case 'BUDGET':
            return top.reason.split(':')[0];
        default:
            return top.kind;
    }
}
/** After an agent step (and the judgement of its tree, when the checks ran): go on or halt. */
function decide(f) {
    // Nothing to record: an attempt that left no change is not an iteration. A pause then simply
    // ends the run (the next run starts this iteration again); a failed agent ends it with the CLI's words.
    if (!f.changed && (f.interrupted || f.agentFailure || !f.reported) && !f.guardrail && !f.invariant) {
        const [kind, code, detail] = f.interrupted
            ? ['BACKPRESSURE', 'BACKPRESSURE_SIGNAL', f.interrupted]
            : f.agentFailure
                ? ['INVARIANT', 'AGENT_FAILED', f.agentFailure]
                : ['INVARIANT', 'EVIDENCE_INCOMPLETE', 'the agent changed nothing and wrote no report'];
        const fired = [{ kind, code, reason: detail }];
        return {
            halt: true,
            record: false,
            certificate: kind === 'BACKPRESSURE' ? 'BACKPRESSURE' : 'NONE',
            status: 'EXIT_BLOCKED',
            stop_reason: code,
            detail,
            fired,
        };
    }
    const fired = firedExits(f);
    const top = fired[0];
    const certificate = certificateFor(top, f.judgement);
    if (!top)
        return { halt: false, record: true, certificate, fired };
    return { halt: true, record: true, certificate, status: STATUS_OF[top.kind], stop_reason: stopReason(top, certificate), detail: top.reason, fired };
}
/**
 * A downstream the loop depends on did not answer (seed §9.1 `downstream_dependency_unavailable`):
 * the reason of a BACKPRESSURE exit, a pause. `what` names it ("the agent's model API"), `why` is its
 * own words; backpressure.ts#pauseStep reads `what` back for the next step.
 */
const downstreamUnavailable = (what, why) => `downstream unavailable (${what}): ${why}`;
/**
 * The backpressure an agent step ends with, or null: a stop the loop saw while it ran; else, when
 * the agent ended by itself, its model service's rate limit, or a downstream it depends on that did
 * not answer the loop's own probe after the step failed (agent/downstream.ts; never the agent's
 * words). Either is the world's state, not the agent's failure: the run pauses and the next run tries
 * the step again (SPEC §2 backpressure), where any other failure ends it AGENT_FAILED.
 */
function agentBackpressure(s) {
    if (s.stop || s.aborted)
        return s.stop;
    const words = s.errorText ? `: ${s.errorText}` : '';
    if (s.rateLimited)
        return `the agent hit a rate limit${words}`;
    return s.unreachable ? downstreamUnavailable(s.unreachable.what, `it cannot be reached from here (${s.unreachable.why}); the agent failed${words}`) : null;
}
/** A tree judged with nothing else to go on (a HEAD before any agent, a rerun): the same table decides. */
function decideJudgement(judgement) {
    return decide({ interrupted: null, changed: true, reported: true, agentFailure: null, guardrail: null, invariant: null, ...unjudged(), judgement });
}
/**
 * Whether an iteration counts against budget.max_iterations. A stop (signal, STOP file or label,
 * disk, rate limit) that cut the agent step or the checks short before any check ran makes the
 * iteration a pause (SPEC §3: "the next run continues from the evidence and can converge"): its
 * partial work is committed and judged by the next run, but it is not an attempt the agent
 * finished, so it does not use an iteration up. Otherwise the pause of the last budgeted iteration
 * would end the loop EXIT_BUDGET_EXCEEDED(MAX_ITERS) on the next run without an agent. The other
 * budgets (wall time, cost, tool calls) still count every second, dollar and call it spent, and an
 * agent gains nothing by provoking a pause: the run ends, and only a new run goes on.
 */
function countsAgainstBudget(f) {
    return !(f.interrupted && !f.judgement);
}
/**
 * The iterations used so far: those recorded (numbered 0 … next - 1) but for those a stop cut
 * short before their checks (state.json `stopped_before_checks`).
 */
function iterationsUsed(next, stoppedBeforeChecks) {
    return next - new Set(stoppedBeforeChecks.filter((n) => n >= 0 && n < next)).size;
}
/** MAX_ITERS: the iterations used (after the one just run, when it counts) reach budget.max_iterations. */
function iterationBudget(used, max) {
    return used >= max ? { code: 'MAX_ITERS', reason: `${used} of ${max} iterations used` } : null;
}
/** Before an iteration starts: a stop or a used-up budget ends the run without spawning an agent. */
function decideBeforeIteration(s) {
    if (s.stop) {
        const fired = [{ kind: 'BACKPRESSURE', reason: s.stop }];
        return { halt: true, record: false, certificate: 'BACKPRESSURE', status: 'EXIT_BLOCKED', stop_reason: 'BACKPRESSURE_SIGNAL', detail: s.stop, fired };
    }
    if (s.budget) {
        const fired = [{ kind: 'BUDGET', reason: `${s.budget.code}: ${s.budget.reason}` }];
        return { halt: true, record: false, certificate: 'TIMEOUT', status: 'EXIT_BUDGET_EXCEEDED', stop_reason: s.budget.code, detail: s.budget.reason, fired };
    }
    return null;
}
/**
 * When HEAD is judged before any agent runs: a criterion whose runner is not installed where the
 * checks run (exit 127, Python's "No module named" for the module it runs), or JUnit files the
 * checks never write (`RESIDUAL_UNAVAILABLE`), is the user's to fix, not iterations to burn.
 */
function decideHead(missing, code = 'CRITERION_COMMAND_MISSING') {
    if (!missing.length)
        return null;
    const detail = missing.map((m) => `${m.id === 'residual' ? 'residual' : `criterion ${m.id}`}: ${m.reason}`).join('; ');
    const fired = [{ kind: 'INVARIANT', code, reason: detail }];
    return { halt: true, record: false, certificate: 'NONE', status: 'EXIT_NEED_INFO', stop_reason: code, detail, fired };
}
function decideFinal(status, stop_reason, a) {
    const converged = status === 'EXIT_CONVERGED';
    const withhold = (reason, why) => ({ status: 'EXIT_BLOCKED', stop_reason: reason, withheld: `${status} withheld: ${why}` });
    // A pause at whatever moment it comes (SPEC backpressure): never scored as one of the audits' verdicts.
    if (converged && a.interrupted)
        return { status: 'EXIT_BLOCKED', stop_reason: 'BACKPRESSURE_SIGNAL', withheld: `${status} not confirmed yet, paused: ${a.interrupted}` };
    if (a.triangleMissing !== 'none')
        return withhold(a.triangleMissing === 'VERIFY' ? 'VERIFY_SKIPPED' : 'INVARIANT_VIOLATION', `Triangle Law: the ${a.triangleMissing} vertex is missing`);
    if (a.phucFailures.length && status !== 'EXIT_NEED_INFO')
        return withhold(a.phucFailures[0].split(':')[0], a.phucFailures.join('; '));
    if (converged && a.confirmation)
        return withhold('CONFIRMATION_FAILED', a.confirmation);
    if (converged && a.alignment === 'DRIFTING')
        return withhold('NORTHSTAR_DRIFT', `the Northstar distance grew over the loop (${a.alignmentDetail})`);
    if (converged && a.alignment === 'NEUTRAL' && !a.neutralAccepted)
        return withhold('GLOW_WITHOUT_NORTHSTAR_ALIGNMENT', 'no Northstar metric moved (NEUTRAL); measure one that this loop advances, or set northstar_neutral_reason in the config to accept it');
    return { status, stop_reason, withheld: null };
}


/***/ })

};
