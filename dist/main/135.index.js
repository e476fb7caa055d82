export const id = 135;
export const ids = [135];
export const modules = {

/***/ 17135:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   evidenceView: () => (/* binding */ evidenceView)
/* harmony export */ });
/* unused harmony export firstLines */
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(51455);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_fs_promises__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(76760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__webpack_require__.n(node_path__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var zod__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(23905);
/* harmony import */ var _engine_config_plan_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(86258);
/* harmony import */ var _engine_memory_failures_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(47489);
// What the PR comment shows from the evidence tree beside the iteration rows: the baseline (HEAD
// judged before any agent) and the failing checks of the latest round with the first lines of
// their logs. The logs are the checks' output, not the loop's text: bounded here, rendered inert
// (comment.ts), never interpreted.





const MAX_CHECKS = 5;
const MAX_LINES = 5;
const LINE_CHARS = 160;
/** Only the head of a log is read: a check may write megabytes. */
const READ_BYTES = 16 * 1024;
const planBaseline = zod__WEBPACK_IMPORTED_MODULE_4__/* .object */ .Ikc({ baseline: _engine_config_plan_js__WEBPACK_IMPORTED_MODULE_2__/* .planSchema */ .Fu.shape.baseline });
/** The plan's baseline, or null before it is on record. */
async function readBaseline(root) {
    const text = await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.readFile)((0,node_path__WEBPACK_IMPORTED_MODULE_1__.join)(root, 'plan.json'), 'utf8').catch(() => null);
    let parsed;
    try {
        parsed = text === null ? null : planBaseline.safeParse(JSON.parse(text));
    }
    catch {
        return null;
    }
    return parsed?.success && !(0,_engine_config_plan_js__WEBPACK_IMPORTED_MODULE_2__/* .baselinePending */ .Hf)(parsed.data) ? parsed.data.baseline : null;
}
/** The first `bytes` of `rel` inside `root` (null: absent, unreadable, or outside the tree). */
async function readHead(root, rel, bytes) {
    const base = (0,node_path__WEBPACK_IMPORTED_MODULE_1__.resolve)(root);
    const path = (0,node_path__WEBPACK_IMPORTED_MODULE_1__.resolve)(base, rel);
    if (!path.startsWith(base + node_path__WEBPACK_IMPORTED_MODULE_1__.sep))
        return null;
    const f = await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.open)(path, 'r').catch(() => null);
    if (!f)
        return null;
    try {
        const buf = Buffer.alloc(bytes);
        const { bytesRead } = await f.read(buf, 0, bytes, 0);
        return buf.subarray(0, bytesRead).toString('utf8');
    }
    catch {
        return null;
    }
    finally {
        await f.close();
    }
}
/** The first lines of a check's log: its output without the log's frame, colour codes or blank lines. */
function firstLines(log) {
    return log
        .replace(_engine_memory_failures_js__WEBPACK_IMPORTED_MODULE_3__/* .ANSI */ .mh, '')
        .split(/\r\n?|\n/)
        .filter((l) => l.trim() !== '' && !_engine_memory_failures_js__WEBPACK_IMPORTED_MODULE_3__/* .LOG_FRAME */ .F7.test(l))
        .slice(0, MAX_LINES)
        .map((l) => (l.length > LINE_CHARS ? `${l.slice(0, LINE_CHARS - 1)}…` : l));
}
async function failingOf(root, round, criteria) {
    const failing = criteria.filter((c) => !c.met);
    if (!failing.length)
        return null;
    const checks = [];
    for (const c of failing.slice(0, MAX_CHECKS)) {
        const evidence = c.evidence.split('#')[0];
        checks.push({ id: c.id, evidence, lines: firstLines((await readHead(root, evidence, READ_BYTES)) ?? '') });
    }
    return { round, checks, more: failing.length - checks.length };
}
/**
 * The baseline row and the failing checks of the latest round: the report's certificate when an
 * iteration was judged, else the baseline's criteria.
 */
async function evidenceView(root, report) {
    const base = await readBaseline(root);
    const baseline = base && { residual: base.residual, met: base.criteria.filter((c) => c.met).length, criteria: base.criteria.length };
    const cert = report?.halting_certificate;
    const failing = cert && cert.iteration !== null && cert.acceptance_criteria_checklist.length
        ? await failingOf(root, `iteration ${cert.iteration}`, cert.acceptance_criteria_checklist.map((c) => ({ id: c.criterion, met: c.met, evidence: c.evidence_link })))
        : base
            ? await failingOf(root, 'baseline', base.criteria)
            : null;
    return { baseline, failing };
}


/***/ })

};
