export const id = 670;
export const ids = [670];
export const modules = {

/***/ 25670:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   publishEvidence: () => (/* binding */ publishEvidence),
/* harmony export */   publishRun: () => (/* binding */ publishRun),
/* harmony export */   publishedStanding: () => (/* binding */ publishedStanding)
/* harmony export */ });
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(51455);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_fs_promises__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(76760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__webpack_require__.n(node_path__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(77598);
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_2___default = /*#__PURE__*/__webpack_require__.n(node_crypto__WEBPACK_IMPORTED_MODULE_2__);
/* harmony import */ var _common_errors_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(72251);
/* harmony import */ var _store_evidence_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(75607);
/* harmony import */ var _os_process_js__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(26886);
/* harmony import */ var _os_atomic_write_js__WEBPACK_IMPORTED_MODULE_6__ = __webpack_require__(64154);
/* harmony import */ var _home_js__WEBPACK_IMPORTED_MODULE_7__ = __webpack_require__(96642);
// Publishing the run's evidence from the loop home to the work tree's evidence folder, and how the
// published tree stands against the git index.








/**
 * Copies the private tree to the published folder, replacing it whole (never a half-copied tree).
 * Every folder from `within` (the checkout) down to it must be a real folder: the agent may have
 * put a link there, through which the loop would replace (and delete) something elsewhere.
 */
async function publishEvidence(ev, published, within) {
    await ev.flush();
    if (!(await (0,_home_js__WEBPACK_IMPORTED_MODULE_7__.hasFiles)(ev.root)))
        return;
    if (within)
        await (0,_home_js__WEBPACK_IMPORTED_MODULE_7__.assertRealFolders)(within, published);
    const tmp = `${published}.tmp-${(0,node_crypto__WEBPACK_IMPORTED_MODULE_2__.randomBytes)(6).toString('hex')}`;
    await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.mkdir)((0,node_path__WEBPACK_IMPORTED_MODULE_1__.dirname)(published), { recursive: true });
    await (0,_os_atomic_write_js__WEBPACK_IMPORTED_MODULE_6__/* .copyTreeOffThread */ .ZU)(ev.root, tmp, { names: [..._store_evidence_js__WEBPACK_IMPORTED_MODULE_4__.NOT_EVIDENCE] });
    const old = `${published}.old-${(0,node_crypto__WEBPACK_IMPORTED_MODULE_2__.randomBytes)(6).toString('hex')}`;
    await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.rename)(published, old).catch(() => undefined);
    await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.rename)(tmp, published);
    await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.rm)(old, { recursive: true, force: true });
}
/**
 * The end of a run: the folders on the way to the published tree were real folders when the run
 * started (assertRealFolders), so whatever stands there now that is not one was put there during
 * the run — by the agent, which may write the whole work tree, `evidence/` included. It never
 * becomes "the evidence": a link is removed (that deletes no file: what it pointed to stays), a
 * file, FIFO or device is moved aside under a name that says it is not the loop's; then the loop's
 * own tree replaces whatever folder is there. When that fails, nothing is left at the published
 * path that could pass for the loop's evidence. Returns what was done, for the log.
 */
async function publishRun(ev, published, within) {
    const notes = [];
    const rel = (0,node_path__WEBPACK_IMPORTED_MODULE_1__.relative)(within, published).split(node_path__WEBPACK_IMPORTED_MODULE_1__.sep).filter(Boolean);
    for (let k = 1; k <= rel.length; k++) {
        const p = (0,node_path__WEBPACK_IMPORTED_MODULE_1__.join)(within, ...rel.slice(0, k));
        const st = await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.lstat)(p).catch(() => null);
        if (!st || st.isDirectory())
            continue;
        if (st.isSymbolicLink()) {
            await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.rm)(p, { force: true });
            notes.push(`${(0,node_path__WEBPACK_IMPORTED_MODULE_1__.relative)(within, p)} was a symbolic link made during the run: removed (what it pointed to is untouched); the loop's evidence is published there instead`);
        }
        else {
            const aside = `${p}.not-loop-evidence-${(0,node_crypto__WEBPACK_IMPORTED_MODULE_2__.randomBytes)(4).toString('hex')}`;
            await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.rename)(p, aside);
            notes.push(`${(0,node_path__WEBPACK_IMPORTED_MODULE_1__.relative)(within, p)} was not a folder (made during the run): moved aside to ${(0,node_path__WEBPACK_IMPORTED_MODULE_1__.relative)(within, aside)}; the loop's evidence is published there instead`);
        }
    }
    try {
        await publishEvidence(ev, published, within);
    }
    catch (e) {
        // Whatever stands there is not the loop's tree of this run: it goes aside, never read as the evidence.
        const aside = `${published}.not-loop-evidence-${(0,node_crypto__WEBPACK_IMPORTED_MODULE_2__.randomBytes)(4).toString('hex')}`;
        const moved = await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.rename)(published, aside).then(() => `; what stood there was moved to ${(0,node_path__WEBPACK_IMPORTED_MODULE_1__.relative)(within, aside)}`, () => '');
        throw new _common_errors_js__WEBPACK_IMPORTED_MODULE_3__/* .StorageError */ .aq(`${e instanceof Error ? e.message : String(e)}${moved}; the loop's evidence is in ${ev.root}`);
    }
    return notes;
}
/**
 * How a published evidence tree stands to the loop-owned copy the loop keeps for that path in the
 * repository's .git (where the agent cannot write): the published folder sits in the work tree,
 * so only that copy says whether it is what the loop wrote.
 */
async function publishedStanding(git, dir) {
    const link = (await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.lstat)(dir).catch(() => null))?.isSymbolicLink() ?? false;
    const none = { own: null, link, matches: false, running: false };
    const top = await git.toplevel().catch(() => null);
    if (!top)
        return none;
    const rel = (0,node_path__WEBPACK_IMPORTED_MODULE_1__.relative)(top, dir);
    if (!rel || rel.startsWith('..') || (0,node_path__WEBPACK_IMPORTED_MODULE_1__.isAbsolute)(rel))
        return none;
    const root = (0,node_path__WEBPACK_IMPORTED_MODULE_1__.join)(await git.commonDir(), 'phuc-loop', (0,_home_js__WEBPACK_IMPORTED_MODULE_7__.homeName)(rel.split(node_path__WEBPACK_IMPORTED_MODULE_1__.sep).join('/')));
    const own = (0,node_path__WEBPACK_IMPORTED_MODULE_1__.join)(root, 'evidence');
    const ownManifest = await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.readFile)((0,node_path__WEBPACK_IMPORTED_MODULE_1__.join)(own, 'manifest.json'), 'utf8').catch(() => null);
    if (ownManifest === null)
        return none;
    const publishedManifest = link ? null : await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.readFile)((0,node_path__WEBPACK_IMPORTED_MODULE_1__.join)(dir, 'manifest.json'), 'utf8').catch(() => null);
    const pid = Number((await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.readFile)((0,node_path__WEBPACK_IMPORTED_MODULE_1__.join)(root, 'run.lock'), 'utf8').catch(() => '')).split('@')[0]);
    const running = pid > 0 && (0,_os_process_js__WEBPACK_IMPORTED_MODULE_5__.processRunning)(pid);
    return { own, link, matches: publishedManifest === ownManifest, running };
}


/***/ })

};
