export const id = 888;
export const ids = [888];
export const modules = {

/***/ 74888:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  renderReportMarkdown: () => (/* binding */ renderReportMarkdown)
});

// EXTERNAL MODULE: ./src/engine/common/display.ts
var display = __webpack_require__(81184);
// EXTERNAL MODULE: ./src/engine/common/markdown.ts
var markdown = __webpack_require__(74129);
// EXTERNAL MODULE: ./src/engine/evidence/phases.ts
var phases = __webpack_require__(8476);
// EXTERNAL MODULE: ./src/engine/run/decide.ts
var decide = __webpack_require__(44638);
// EXTERNAL MODULE: ./src/engine/os/stops.ts
var stops = __webpack_require__(39584);
;// CONCATENATED MODULE: ./src/engine/evidence/run-accounting.ts
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
    return `${iterationsUsed(s.next_iteration, s.stopped_before_checks)} / ${max}${note ? ` (${note})` : ''}`;
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
        return (`a pause: ${pauseStep(pause)}\`phuc-loop run\` continues at iteration ${next}` +
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

;// CONCATENATED MODULE: ./src/engine/evidence/report-markdown.ts
// The halting report as markdown: the job summary and \`phuc-loop report\` (the same text).




/** The failing criteria and tests of the latest round: how many, and the first few by name. */
function failingLine(f) {
    if (!f || (!f.failing_criteria.length && !f.tests?.failing))
        return null;
    const criteria = f.failing_criteria.length ? `criteria ${f.failing_criteria.map((c) => `\`${(0,markdown/* inertCode */.gQ)(c)}\``).join(', ')}` : null;
    const t = f.tests;
    const tests = t?.failing
        ? `${t.failing} of ${t.executed} tests fail: ${t.first.map((n) => (0,markdown/* inert */.tJ)(n)).join('; ')}${t.failing > t.first.length ? `; and ${t.failing - t.first.length} more` : ''}`
        : null;
    return `**Failing in the last round (${f.round}):** ${[criteria, tests].filter(Boolean).join(' — ')}`;
}
const yes = (b) => (b ? '✅' : '❌');
/** A table cell of text the loop may not have written: inert, and no `|` ends the cell early. */
const cell = (s) => (0,markdown/* inert */.tJ)(s).replace(/\|/g, '\\|');
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
        out.push(`**Goal:** ${(0,markdown/* inert */.tJ)(r.goal)}`, '');
    if (r.detail)
        out.push(`**Why:** ${(0,markdown/* inert */.tJ)(r.detail)}`, '');
    if (r.messages.length)
        out.push(...r.messages.map((m) => `- ${(0,markdown/* inert */.tJ)(m)}`), '');
    out.push('| | |', '|---|---|', `| Certificate | ${c.type}${c.lane ? ` (Lane ${c.lane})` : ''}${c.iteration !== null ? ` at iteration ${c.iteration}` : ''} |`, `| Residual | ${(0,display/* num */.bu)(c.final_residual_decimal_string)}${c.R_p_decimal_string ? ` (R_p ${c.R_p_decimal_string})` : ''} |`, ...(c.commit
        ? [
            `| Commit | ${c.commit.slice(0, 12)} (judged in a ${c.workspace ?? 'n/a'} workspace, isolation ${c.isolation ?? 'n/a'}${c.guard ? `, guard ${c.guard}` : ''}; re-check: \`phuc-loop verify --rerun\`) |`,
        ]
        : []), `| Iterations | ${r.iterations_completed} |`, `| Rung | ${r.verification_rung_achieved} of target ${r.verification_rung_target ?? 'n/a'} |`, `| Northstar | ${r.northstar_alignment_certificate ? `${r.northstar_alignment_certificate.status} (${(0,display/* num */.bu)(r.northstar_alignment_certificate.northstar_distance_start)} → ${(0,display/* num */.bu)(r.northstar_alignment_certificate.northstar_distance_end)})` : 'n/a'} |`, `| Seed checksum | ${r.seed_checksum.formula} = ${r.seed_checksum.product} ${yes(r.seed_checksum_verified)} |`, '');
    const failed = failingLine(r.last_round_failures);
    if (failed)
        out.push(failed, '');
    if (r.exits_fired.length) {
        out.push('### Exits that fired', '');
        for (const e of r.exits_fired)
            out.push(`- ${e.iteration === null ? 'before iteration 0' : `iteration ${e.iteration}`}: **${e.kind}** — ${(0,markdown/* inert */.tJ)(e.reason)}`);
        out.push('');
    }
    if (r.iteration_rows.length) {
        out.push('### GLOW and residual per iteration', '', '| iter | G | L | O | W | GLOW | residual | certificate | northstar |', '|---:|---:|---:|---:|---:|---:|---:|---|---:|');
        for (const g of r.iteration_rows)
            out.push(`| ${g.iteration} | ${g.G} | ${g.L} | ${g.O} | ${g.W ?? 'unknown'} | ${g.total ?? 'unknown'} | ${(0,display/* num */.bu)(g.residual)} | ${g.certificate} | ${(0,display/* num */.bu)(g.northstar_distance)} |`);
        out.push('');
    }
    if (c.acceptance_criteria_checklist.length) {
        out.push('### Acceptance criteria (final certificate)', '');
        for (const a of c.acceptance_criteria_checklist)
            out.push(`- ${yes(a.met)} \`${(0,markdown/* inertCode */.gQ)(a.criterion)}\` — ${(0,markdown/* inert */.tJ)(a.description)} (\`${(0,markdown/* inertCode */.gQ)(a.evidence_link.split('#')[0])}\`)`);
        out.push('');
    }
    if (r.phuc_test_result) {
        const p = r.phuc_test_result;
        out.push('### Phuc Test', '', `${yes(p.condition_1_history)} remembers history · ${yes(p.condition_2_reflection)} reflects · ${yes(p.condition_3_care)} cares about context · ${yes(p.condition_4_adaptation)} adapts · ${yes(p.condition_5_growth)} chooses growth → **${p.pass ? 'PASS' : 'FAIL'}**`, ...p.failures.map((f) => `- ${(0,markdown/* inert */.tJ)(f)}`), '');
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
            out.push(`- replay ${rp.replay}: ${rp.type}, residual ${(0,display/* num */.bu)(rp.residual)} ${rp.same ? '(same)' : '(DIFFERS)'}`);
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
        out.push('### Runs and budgets', '', `- This run: ${iterationSpan(run.iterations)}${run.iterations.length ? '' : ` recorded (it started at iteration ${run.first_iteration})`}; ` +
            (run.resumed ? `it continued the loop, whose earlier runs recorded ${iterationSpan(run.earlier_iterations)}.` : 'it started the loop.'), ...(run.rebaselined ? [`- ${(0,markdown/* inert */.tJ)(run.rebaselined)}.`] : []), ...run.budget_revisions.map((b) => `- The budget changed from iteration ${b.from_iteration} (max_iterations ${b.max_iterations}).`), `- ${run.numbering}`, `- ${run.budgets}`, ...(run.how_to_go_on ? [`- To go on: ${run.how_to_go_on}.`] : []), '');
    }
    if (r.phases.length)
        out.push('### Time by phase (seconds, this run)', '', ...(0,phases/* phaseTable */.m0)(r.phases, cell), '');
    if (r.budget_use) {
        const b = r.budget_use;
        out.push('### Budget use (all runs of this loop)', '', `iterations ${b.iterations} · seconds ${b.seconds} · cost ${(0,display/* costUse */.Hq)(b.cost_usd)} · tool calls ${b.tool_calls}` +
            (b.tool_calls_per_iteration ? ` · tool calls per iteration ${b.tool_calls_per_iteration}` : '') +
            (b.side_agents ? ` · of which side agents: ${(0,markdown/* inert */.tJ)(b.side_agents)}` : ''), '');
    }
    if (r.missing_fields.length)
        out.push(`**Missing fields:** ${(0,markdown/* inert */.tJ)(r.missing_fields.join(', '))}`, '');
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
            out.push(`**${label}:** ${(0,markdown/* inert */.tJ)(text)}`, '');
    if (r.evidence_pointers.length)
        out.push('### Evidence pointers', '', ...r.evidence_pointers.map((e) => `- \`${(0,markdown/* inertCode */.gQ)(e.path)}\` (sha256 ${(0,markdown/* inertCode */.gQ)(e.sha256.slice(0, 12))})`), '');
    if (r.isolation_limits.length)
        out.push(`### What isolation ${c.isolation ?? ''} does not guarantee`, '', ...r.isolation_limits.map((l) => `- ${(0,markdown/* inert */.tJ)(l)}`), '');
    if (r.next_actions.length)
        out.push('### Next actions', '', ...r.next_actions.map((a) => `- ${a}`), '');
    if (r.lessons_for_next_run.length)
        out.push('### Lessons for the next run (shown to its agent)', '', ...r.lessons_for_next_run.map((l) => `- [${l.lane}] ${(0,markdown/* inert */.tJ)(l.text)}${l.evidence ? ` (\`${(0,markdown/* inertCode */.gQ)(l.evidence)}\`)` : ''}`), '');
    if (agentsMd)
        out.push('<details><summary>AGENTS.md</summary>', '', '```markdown', agentsMd.replace(/```/g, '``\u200b`'), '```', '', '</details>', '');
    return out.join('\n');
}


/***/ }),

/***/ 39584:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* unused harmony exports StopFile, DiskUsage, SignalStop, pauseStep, firstStop, watchStops */
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(51455);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_fs_promises__WEBPACK_IMPORTED_MODULE_0__);
// Stop sources — backpressure (SPEC §2): a STOP file, disk use over 90%, a signal or a STOP label ask the
// loop to stop; the running agent is stopped and the certificate is BACKPRESSURE.

class StopFile {
    path;
    display;
    name = 'stop-file';
    constructor(path, display) {
        this.path = path;
        this.display = display;
    }
    async check() {
        return access(this.path).then(() => `${this.display} exists`, () => null);
    }
}
class DiskUsage {
    path;
    limit;
    stat;
    name = 'disk';
    constructor(path, limit = 0.9, stat = (p) => statfs(p)) {
        this.path = path;
        this.limit = limit;
        this.stat = stat;
    }
    async check() {
        const s = await this.stat(this.path).catch(() => null);
        if (!s || s.blocks <= 0)
            return null;
        // Integer arithmetic: used/blocks > limit  ⇔  used*100 > limit*100*blocks.
        const used = s.blocks - s.bavail;
        const pct = Math.round(this.limit * 100);
        return used * 100 > pct * s.blocks ? `disk use ${Math.floor((used * 100) / s.blocks)}% is over ${pct}%` : null;
    }
}
/** A stop requested by the process itself (SIGINT, SIGTERM, workflow cancellation). */
class SignalStop {
    name = 'signal';
    reason = null;
    controller = new AbortController();
    request(reason) {
        if (!this.reason)
            this.reason = reason;
        this.controller.abort(this.reason);
    }
    check() {
        return Promise.resolve(this.reason);
    }
}
/**
 * What the user does after a pause before \`phuc-loop run\` goes on, from the stop source's own words
 * (a STOP file or label is removed, a full disk freed, a rate limit or an unavailable downstream waited out), as the start of a
 * sentence; empty where nothing stands in the way (a signal, Ctrl-C: the next run simply goes on).
 */
function pauseStep(reason) {
    const file = reason && /^(\S*STOP) exists$/.exec(reason)?.[1];
    if (file)
        return `delete ${file}, then `;
    const label = reason && /^the (.+) label is on pull request /.exec(reason)?.[1];
    if (label)
        return `remove the ${label} label, then `;
    if (reason && /^disk use /.test(reason))
        return 'free disk space, then ';
    const downstream = reason && /^downstream unavailable \((.+?)\): /.exec(reason)?.[1];
    if (downstream)
        return `wait until ${downstream} answers again (the network, a proxy, the service's status), then `;
    if (reason && /rate[ -]?limit/i.test(reason))
        return "wait until the agent's rate limit resets, then ";
    return '';
}
async function firstStop(sources) {
    for (const s of sources) {
        const r = await s.check().catch(() => null);
        if (r)
            return r;
    }
    return null;
}
/**
 * Watches a step (the agent, a check round): polls `sources` every `pollMs` and follows the loop's
 * `signal`, so a STOP file or label ends the step as a SIGTERM does, not only the next iteration.
 */
function watchStops(sources, pollMs, signal) {
    const stop = new AbortController();
    let why = null;
    const halt = (reason) => {
        why ??= reason;
        stop.abort();
    };
    // The signal's own words where it carries them ("SIGINT received…"), not a stop of unknown source.
    const onSignal = () => halt(typeof signal?.reason === 'string' ? signal.reason : 'the loop was asked to stop (signal)');
    signal?.addEventListener('abort', onSignal, { once: true });
    if (signal?.aborted)
        onSignal();
    const timer = setInterval(() => {
        void firstStop(sources).then((reason) => {
            if (reason)
                halt(reason);
        });
    }, pollMs);
    return {
        signal: stop.signal,
        reason: () => why,
        close: () => {
            clearInterval(timer);
            signal?.removeEventListener('abort', onSignal);
        },
    };
}


/***/ })

};
