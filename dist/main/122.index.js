export const id = 122;
export const ids = [122];
export const modules = {

/***/ 8476:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   BI: () => (/* binding */ Stage),
/* harmony export */   _N: () => (/* binding */ stagePhasesSchema),
/* harmony export */   g3: () => (/* binding */ phaseSummary),
/* harmony export */   m0: () => (/* binding */ phaseTable)
/* harmony export */ });
/* unused harmony exports phaseSchema, phaseRows */
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

/***/ 42122:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   renderReportMarkdown: () => (/* binding */ renderReportMarkdown)
/* harmony export */ });
/* harmony import */ var _common_display_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(81184);
/* harmony import */ var _common_markdown_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(74129);
/* harmony import */ var _phases_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(8476);
/* harmony import */ var _run_accounting_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(1953);
// The halting report as markdown: the job summary and \`phuc-loop report\` (the same text).




/** The failing criteria and tests of the latest round: how many, and the first few by name. */
function failingLine(f) {
    if (!f || (!f.failing_criteria.length && !f.tests?.failing))
        return null;
    const criteria = f.failing_criteria.length ? `criteria ${f.failing_criteria.map((c) => `\`${(0,_common_markdown_js__WEBPACK_IMPORTED_MODULE_3__/* .inertCode */ .gQ)(c)}\``).join(', ')}` : null;
    const t = f.tests;
    const tests = t?.failing
        ? `${t.failing} of ${t.executed} tests fail: ${t.first.map((n) => (0,_common_markdown_js__WEBPACK_IMPORTED_MODULE_3__/* .inert */ .tJ)(n)).join('; ')}${t.failing > t.first.length ? `; and ${t.failing - t.first.length} more` : ''}`
        : null;
    return `**Failing in the last round (${f.round}):** ${[criteria, tests].filter(Boolean).join(' — ')}`;
}
const yes = (b) => (b ? '✅' : '❌');
/** A table cell of text the loop may not have written: inert, and no `|` ends the cell early. */
const cell = (s) => (0,_common_markdown_js__WEBPACK_IMPORTED_MODULE_3__/* .inert */ .tJ)(s).replace(/\|/g, '\\|');
/**
 * The halting report as markdown: the job summary and `phuc-loop report`. Its texts quote what the
 * loop did not write (the agent's report and log, check output, file names the agent chose, the
 * configuration of a pull request's head): each is made inert (common/markdown.ts), code spans and
 * the fenced AGENTS.md only protected from closing early.
 */
function renderReportMarkdown(r, agentsMd) {
    const c = r.halting_certificate;
    const out = [];
    out.push(`## phuc-loop: ${r.status}${r.stop_reason ? ` (${r.stop_reason})` : ''}`, '');
    if (r.goal)
        out.push(`**Goal:** ${(0,_common_markdown_js__WEBPACK_IMPORTED_MODULE_3__/* .inert */ .tJ)(r.goal)}`, '');
    if (r.detail)
        out.push(`**Why:** ${(0,_common_markdown_js__WEBPACK_IMPORTED_MODULE_3__/* .inert */ .tJ)(r.detail)}`, '');
    if (r.messages.length)
        out.push(...r.messages.map((m) => `- ${(0,_common_markdown_js__WEBPACK_IMPORTED_MODULE_3__/* .inert */ .tJ)(m)}`), '');
    out.push('| | |', '|---|---|', `| Certificate | ${c.type}${c.lane ? ` (Lane ${c.lane})` : ''}${c.iteration !== null ? ` at iteration ${c.iteration}` : ''} |`, `| Residual | ${(0,_common_display_js__WEBPACK_IMPORTED_MODULE_0__/* .num */ .bu)(c.final_residual_decimal_string)}${c.R_p_decimal_string ? ` (R_p ${c.R_p_decimal_string})` : ''} |`, ...(c.commit
        ? [
            `| Commit | ${c.commit.slice(0, 12)} (judged in a ${c.workspace ?? 'n/a'} workspace, isolation ${c.isolation ?? 'n/a'}${c.guard ? `, guard ${c.guard}` : ''}; re-check: \`phuc-loop verify --rerun\`) |`,
        ]
        : []), `| Iterations | ${r.iterations_completed} |`, `| Rung | ${r.verification_rung_achieved} of target ${r.verification_rung_target ?? 'n/a'} |`, `| Northstar | ${r.northstar_alignment_certificate ? `${r.northstar_alignment_certificate.status} (${(0,_common_display_js__WEBPACK_IMPORTED_MODULE_0__/* .num */ .bu)(r.northstar_alignment_certificate.northstar_distance_start)} → ${(0,_common_display_js__WEBPACK_IMPORTED_MODULE_0__/* .num */ .bu)(r.northstar_alignment_certificate.northstar_distance_end)})` : 'n/a'} |`, `| Seed checksum | ${r.seed_checksum.formula} = ${r.seed_checksum.product} ${yes(r.seed_checksum_verified)} |`, '');
    const failed = failingLine(r.last_round_failures);
    if (failed)
        out.push(failed, '');
    if (r.exits_fired.length) {
        out.push('### Exits that fired', '');
        for (const e of r.exits_fired)
            out.push(`- ${e.iteration === null ? 'before iteration 0' : `iteration ${e.iteration}`}: **${e.kind}** — ${(0,_common_markdown_js__WEBPACK_IMPORTED_MODULE_3__/* .inert */ .tJ)(e.reason)}`);
        out.push('');
    }
    if (r.iteration_rows.length) {
        out.push('### GLOW and residual per iteration', '', '| iter | G | L | O | W | GLOW | residual | certificate | northstar |', '|---:|---:|---:|---:|---:|---:|---:|---|---:|');
        for (const g of r.iteration_rows)
            out.push(`| ${g.iteration} | ${g.G} | ${g.L} | ${g.O} | ${g.W ?? 'unknown'} | ${g.total ?? 'unknown'} | ${(0,_common_display_js__WEBPACK_IMPORTED_MODULE_0__/* .num */ .bu)(g.residual)} | ${g.certificate} | ${(0,_common_display_js__WEBPACK_IMPORTED_MODULE_0__/* .num */ .bu)(g.northstar_distance)} |`);
        out.push('');
    }
    if (c.acceptance_criteria_checklist.length) {
        out.push('### Acceptance criteria (final certificate)', '');
        for (const a of c.acceptance_criteria_checklist)
            out.push(`- ${yes(a.met)} \`${(0,_common_markdown_js__WEBPACK_IMPORTED_MODULE_3__/* .inertCode */ .gQ)(a.criterion)}\` — ${(0,_common_markdown_js__WEBPACK_IMPORTED_MODULE_3__/* .inert */ .tJ)(a.description)} (\`${(0,_common_markdown_js__WEBPACK_IMPORTED_MODULE_3__/* .inertCode */ .gQ)(a.evidence_link.split('#')[0])}\`)`);
        out.push('');
    }
    if (r.phuc_test_result) {
        const p = r.phuc_test_result;
        out.push('### Phuc Test', '', `${yes(p.condition_1_history)} remembers history · ${yes(p.condition_2_reflection)} reflects · ${yes(p.condition_3_care)} cares about context · ${yes(p.condition_4_adaptation)} adapts · ${yes(p.condition_5_growth)} chooses growth → **${p.pass ? 'PASS' : 'FAIL'}**`, ...p.failures.map((f) => `- ${(0,_common_markdown_js__WEBPACK_IMPORTED_MODULE_3__/* .inert */ .tJ)(f)}`), '');
    }
    if (r.triangle_law_vertices) {
        const t = r.triangle_law_vertices;
        out.push('### Triangle Law', '', `${yes(t.REMIND_plan_json_present)} REMIND (plan.json) · ${yes(t.VERIFY_certificates_all_present)} VERIFY (certificates) · ${yes(t.ACKNOWLEDGE_agents_md_all_entries_present)} ACKNOWLEDGE (AGENTS.md)`, '');
    }
    const rungs = Object.entries(r.rung_checks);
    if (rungs.length) {
        out.push('### Rungs', '');
        for (const [rung, checks] of rungs)
            out.push(`- **${rung}**: ${Object.entries(checks)
                .map(([k, v]) => `${yes(v)} ${k}`)
                .join(' · ')}`);
        for (const rp of r.replays)
            out.push(`- replay ${rp.replay}: ${rp.type}, residual ${(0,_common_display_js__WEBPACK_IMPORTED_MODULE_0__/* .num */ .bu)(rp.residual)} ${rp.same ? '(same)' : '(DIFFERS)'}`);
        out.push('');
    }
    if (r.dega_cycles.length) {
        out.push('### Cycles (DEGA)', '', '| iter | agent | blocker class | improvement | critic | reused |', '|---:|---|---|---|---|---|');
        for (const c of r.dega_cycles)
            out.push(`| ${c.iteration} | ${cell(c.agent)} | ${c.blocker_class}${c.detour_next ? ' (detour next)' : ''} | ${cell(c.improvement)} | ${c.critic === null ? '—' : cell(c.critic)} | ${cell(c.reused_checks.join(', ')) || '—'} |`);
        if (r.escalated_at_iteration !== null)
            out.push('', `Escalated to a stronger agent from iteration ${r.escalated_at_iteration}.`);
        out.push('');
    }
    if (r.run) {
        const run = r.run;
        out.push('### Runs and budgets', '', `- This run: ${(0,_run_accounting_js__WEBPACK_IMPORTED_MODULE_2__/* .iterationSpan */ .Mj)(run.iterations)}${run.iterations.length ? '' : ` recorded (it started at iteration ${run.first_iteration})`}; ` +
            (run.resumed ? `it continued the loop, whose earlier runs recorded ${(0,_run_accounting_js__WEBPACK_IMPORTED_MODULE_2__/* .iterationSpan */ .Mj)(run.earlier_iterations)}.` : 'it started the loop.'), ...(run.rebaselined ? [`- ${(0,_common_markdown_js__WEBPACK_IMPORTED_MODULE_3__/* .inert */ .tJ)(run.rebaselined)}.`] : []), ...run.budget_revisions.map((b) => `- The budget changed from iteration ${b.from_iteration} (max_iterations ${b.max_iterations}).`), `- ${run.numbering}`, `- ${run.budgets}`, ...(run.how_to_go_on ? [`- To go on: ${run.how_to_go_on}.`] : []), '');
    }
    if (r.phases.length)
        out.push('### Time by phase (seconds, this run)', '', ...(0,_phases_js__WEBPACK_IMPORTED_MODULE_1__/* .phaseTable */ .m0)(r.phases, cell), '');
    if (r.budget_use) {
        const b = r.budget_use;
        out.push('### Budget use (all runs of this loop)', '', `iterations ${b.iterations} · seconds ${b.seconds} · cost ${(0,_common_display_js__WEBPACK_IMPORTED_MODULE_0__/* .costUse */ .Hq)(b.cost_usd)} · tool calls ${b.tool_calls}` +
            (b.tool_calls_per_iteration ? ` · tool calls per iteration ${b.tool_calls_per_iteration}` : '') +
            (b.side_agents ? ` · of which side agents: ${(0,_common_markdown_js__WEBPACK_IMPORTED_MODULE_3__/* .inert */ .tJ)(b.side_agents)}` : ''), '');
    }
    if (r.missing_fields.length)
        out.push(`**Missing fields:** ${(0,_common_markdown_js__WEBPACK_IMPORTED_MODULE_3__/* .inert */ .tJ)(r.missing_fields.join(', '))}`, '');
    if (r.high_glow_without_northstar.length)
        out.push(`**Warning:** high GLOW with W = 0 (no Northstar metric advanced) at iteration(s) ${r.high_glow_without_northstar.join(', ')}.`, '');
    const contract = [
        ['Why it did not converge', r.reason_for_non_convergence],
        ['Diagnosis', r.diagnosis_attempt],
        ['Last state', r.last_known_state],
        ['What ran and failed', r.what_ran_and_failed],
        ['What can be done now', r.safe_partials],
    ];
    for (const [label, text] of contract)
        if (text)
            out.push(`**${label}:** ${(0,_common_markdown_js__WEBPACK_IMPORTED_MODULE_3__/* .inert */ .tJ)(text)}`, '');
    if (r.evidence_pointers.length)
        out.push('### Evidence pointers', '', ...r.evidence_pointers.map((e) => `- \`${(0,_common_markdown_js__WEBPACK_IMPORTED_MODULE_3__/* .inertCode */ .gQ)(e.path)}\` (sha256 ${(0,_common_markdown_js__WEBPACK_IMPORTED_MODULE_3__/* .inertCode */ .gQ)(e.sha256.slice(0, 12))})`), '');
    if (r.isolation_limits.length)
        out.push(`### What isolation ${c.isolation ?? ''} does not guarantee`, '', ...r.isolation_limits.map((l) => `- ${(0,_common_markdown_js__WEBPACK_IMPORTED_MODULE_3__/* .inert */ .tJ)(l)}`), '');
    if (r.next_actions.length)
        out.push('### Next actions', '', ...r.next_actions.map((a) => `- ${a}`), '');
    if (r.lessons_for_next_run.length)
        out.push('### Lessons for the next run (shown to its agent)', '', ...r.lessons_for_next_run.map((l) => `- [${l.lane}] ${(0,_common_markdown_js__WEBPACK_IMPORTED_MODULE_3__/* .inert */ .tJ)(l.text)}${l.evidence ? ` (\`${(0,_common_markdown_js__WEBPACK_IMPORTED_MODULE_3__/* .inertCode */ .gQ)(l.evidence)}\`)` : ''}`), '');
    if (agentsMd)
        out.push('<details><summary>AGENTS.md</summary>', '', '```markdown', agentsMd.replace(/```/g, '``\u200b`'), '```', '', '</details>', '');
    return out.join('\n');
}


/***/ }),

/***/ 1953:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   $x: () => (/* binding */ runSection),
/* harmony export */   Bx: () => (/* binding */ iterationUse),
/* harmony export */   Mj: () => (/* binding */ iterationSpan),
/* harmony export */   Oi: () => (/* binding */ notCounted),
/* harmony export */   Tk: () => (/* binding */ howToGoOn)
/* harmony export */ });
/* unused harmony export RUN_ACCOUNTING */
/* harmony import */ var _run_decide_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(44638);
/* harmony import */ var _os_stops_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(39584);
// How the runs of one loop go on from each other, as the halting report says it: iteration numbers and
// budgets across runs, what a run that ended so does next (the run section, \`to go on\`).


/** How iterations are numbered and budgets counted across runs (README "What happens in an iteration"). */
const RUN_ACCOUNTING = {
    numbering: 'Iterations are numbered on across the runs of one loop (one evidence tree): a run that continues the loop starts at the next number; `phuc-loop run --fresh` starts a new loop at iteration 0.',
    budgets: 'max_iterations, max_total_seconds, max_total_cost_usd and max_total_tool_calls count every run of this loop (iterations recorded but for those a stop cut short before their checks ran, wall time, reported cost and tool calls, summed); max_seconds_per_iteration and max_tool_calls_per_iteration bound each iteration. A budget changed between runs applies from the next iteration (plan.json budget_revisions).',
};
const BUDGET_FIELDS = {
    MAX_ITERS: 'budget.max_iterations (or `phuc-loop run --max-iterations N`)',
    MAX_TOTAL_SECONDS: 'budget.max_total_seconds (or `phuc-loop run --max-total-seconds N`)',
    MAX_COST: 'budget.max_total_cost_usd (or `phuc-loop run --max-cost USD`)',
    MAX_TOOL_CALLS: 'budget.max_total_tool_calls',
};
/** The iterations a stop cut short before their checks ran, said beside a count of iterations used: not counted. */
function notCounted(stoppedBeforeChecks) {
    const n = stoppedBeforeChecks;
    if (!n.length)
        return null;
    return n.length === 1
        ? `iteration ${n[0]} stopped before its checks ran, not counted`
        : `iterations ${n.join(', ')} stopped before their checks ran, not counted`;
}
/** The report's "used / max_iterations", naming the iterations not counted. */
function iterationUse(s, max) {
    const note = notCounted(s.stopped_before_checks);
    return `${(0,_run_decide_js__WEBPACK_IMPORTED_MODULE_0__/* .iterationsUsed */ .MR)(s.next_iteration, s.stopped_before_checks)} / ${max}${note ? ` (${note})` : ''}`;
}
/**
 * What goes on after a run ended so, naming the command; `next` is the iteration a continuing run
 * starts at, `stoppedBeforeChecks` the iterations that used no budget (state.json).
 */
function howToGoOn(status, stopReason, next, stoppedBeforeChecks = [], pause = null) {
    if (status === 'EXIT_BUDGET_EXCEEDED') {
        const note = stopReason === 'MAX_ITERS' ? notCounted(stoppedBeforeChecks) : null;
        return `raise ${BUDGET_FIELDS[stopReason] ?? 'the budget that ran out'} above what all runs of this loop used${note ? ` (${note})` : ''}: \`phuc-loop run\` then continues at iteration ${next}`;
    }
    if (stopReason === 'BACKPRESSURE_SIGNAL')
        return (`a pause: ${(0,_os_stops_js__WEBPACK_IMPORTED_MODULE_1__/* .pauseStep */ .pH)(pause)}\`phuc-loop run\` continues at iteration ${next}` +
            (stoppedBeforeChecks.includes(next - 1) ? ` (iteration ${next - 1}, stopped before its checks ran, does not count against max_iterations)` : ''));
    if (status === 'EXIT_CONVERGED')
        return `commit a new change and \`phuc-loop run\` judges it (iterations go on from ${next}), or \`phuc-loop run --fresh\` starts a new loop at iteration 0`;
    if (status === 'EXIT_NEED_INFO')
        return `supply what is missing, then \`phuc-loop run\` judges HEAD again and continues at iteration ${next}`;
    if (stopReason === 'AGENT_FAILED')
        return `the agent failed before it changed anything (the detail gives its own words): fix the cause (its API key or service, the network, its installation), then \`phuc-loop run\` tries iteration ${next} again (no commit is needed)`;
    if (stopReason === 'RESIDUAL_UNAVAILABLE')
        return `fix what the residual needs (the detail says what: a runner, the JUnit files), then \`phuc-loop run\` judges HEAD again and continues at iteration ${next} (no commit is needed unless the fix is in the repository)`;
    if (stopReason === 'FOLDER_READ_ONLY')
        return `make the folder the detail names writable, then \`phuc-loop run\` goes on at iteration ${next} (nothing was written)`;
    if (stopReason === 'GIT_FAILURE')
        return ('fix what git failed at (the detail says what); what an interrupted agent step changed is left uncommitted in the work tree (`git status`): ' +
            `commit it to have it judged, or discard it; then \`phuc-loop run\` tries again (no commit is needed) and continues at iteration ${next}`);
    return `fix the cause and commit: \`phuc-loop run\` judges the new HEAD and continues at iteration ${next}; or \`phuc-loop run --fresh\` starts a new loop at iteration 0 (the old evidence is kept)`;
}
/** "iteration 3", "iterations 2–4", "iterations 0, 2" (a redone iteration keeps its number). */
function iterationSpan(ns) {
    if (!ns.length)
        return 'no iteration';
    if (ns.length === 1)
        return `iteration ${ns[0]}`;
    const consecutive = ns.every((n, k) => k === 0 || n === ns[k - 1] + 1);
    return `iterations ${consecutive ? `${ns[0]}–${ns.at(-1)}` : ns.join(', ')}`;
}
/** The run section: which iterations this run made, how numbering and budgets carry across runs, what goes on. */
function runSection(run, iterations, s, plan, status, stopReason, pause) {
    return {
        resumed: run.resumed,
        first_iteration: run.first,
        iterations: iterations.filter((n) => n >= run.first),
        earlier_iterations: iterations.filter((n) => n < run.first),
        next_iteration: s.next_iteration,
        rebaselined: run.rebaseline,
        budget_revisions: (plan.budget_revisions ?? []).map((r) => ({ from_iteration: r.from_iteration, max_iterations: r.budget.max_iterations })),
        numbering: RUN_ACCOUNTING.numbering,
        budgets: RUN_ACCOUNTING.budgets,
        how_to_go_on: status && stopReason ? howToGoOn(status, stopReason, s.next_iteration, s.stopped_before_checks, pause) : null,
    };
}


/***/ }),

/***/ 44638:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   $v: () => (/* binding */ countsAgainstBudget),
/* harmony export */   CV: () => (/* binding */ agentBackpressure),
/* harmony export */   Hc: () => (/* binding */ decideHead),
/* harmony export */   He: () => (/* binding */ decideFinal),
/* harmony export */   LD: () => (/* binding */ decide),
/* harmony export */   MR: () => (/* binding */ iterationsUsed),
/* harmony export */   bC: () => (/* binding */ unjudged),
/* harmony export */   fz: () => (/* binding */ decideBeforeIteration),
/* harmony export */   k$: () => (/* binding */ decideJudgement),
/* harmony export */   rN: () => (/* binding */ downstreamUnavailable),
/* harmony export */   vh: () => (/* binding */ iterationBudget),
/* harmony export */   wi: () => (/* binding */ EXIT_PRECEDENCE)
/* harmony export */ });
/* unused harmony export firedExits */
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
