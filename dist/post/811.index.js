export const id = 811;
export const ids = [811,607,642];
export const modules = {

/***/ 94832:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   dj: () => (/* binding */ canonicalJson),
/* harmony export */   sc: () => (/* binding */ sha256)
/* harmony export */ });
/* unused harmony exports canonicalize, frozen, canonicalJsonOfRecords */
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

/***/ 96642:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   acquireLock: () => (/* binding */ acquireLock),
/* harmony export */   adoptedMark: () => (/* binding */ adoptedMark),
/* harmony export */   assertRealFolders: () => (/* binding */ assertRealFolders),
/* harmony export */   hasFiles: () => (/* binding */ hasFiles),
/* harmony export */   homeFolders: () => (/* binding */ homeFolders),
/* harmony export */   homeName: () => (/* binding */ homeName),
/* harmony export */   loopHome: () => (/* binding */ loopHome)
/* harmony export */ });
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(51455);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_fs_promises__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(76760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__webpack_require__.n(node_path__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(77598);
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_2___default = /*#__PURE__*/__webpack_require__.n(node_crypto__WEBPACK_IMPORTED_MODULE_2__);
/* harmony import */ var _common_errors_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(72251);
/* harmony import */ var _store_evidence_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(75607);
/* harmony import */ var _os_process_js__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(64276);
// Where a loop keeps what the agent must not touch: `<git common dir>/phuc-loop/<evidence name>/`,
// mode 0700 and owned by the loop's user, outside the work tree. The evidence tree lives there
// while a run works and is published to `evidence/loop` (the folder users and the Action read)
// when it ends; a published tree without a private one (a restored artifact, another clone) is
// verified and taken in.






/**
 * Beside the loop's evidence while the verdict it holds was taken in from elsewhere (a restored
 * artifact, a committed tree, another clone) and not yet judged again by a run of this home: such a
 * verdict is no reason to stop ("nothing to do"); the next run's checks are (SPEC §7 Resume).
 */
const adoptedMark = (evidenceRoot) => `${evidenceRoot}.adopted`;
const homeName = (evRel) => evRel.replace(/[^A-Za-z0-9._-]/g, '_');
/** The folders of the loop home, outermost first (made by loopHome). */
async function homeFolders(git, evRel) {
    const top = (0,node_path__WEBPACK_IMPORTED_MODULE_1__.join)(await git.commonDir(), 'phuc-loop');
    const root = (0,node_path__WEBPACK_IMPORTED_MODULE_1__.join)(top, homeName(evRel));
    return [top, root, (0,node_path__WEBPACK_IMPORTED_MODULE_1__.join)(root, 'evidence')];
}
async function loopHome(git, evRel) {
    const [top, root, evidence] = await homeFolders(git, evRel);
    // 0711: another user may pass through to the check workspace, never list or read what is here.
    for (const dir of [top, root]) {
        await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.mkdir)(dir, { recursive: true, mode: 0o711 });
        await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.chmod)(dir, 0o711);
    }
    await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.mkdir)(evidence, { recursive: true, mode: 0o700 });
    await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.chmod)(evidence, 0o700);
    const judge = `judge-${(0,node_crypto__WEBPACK_IMPORTED_MODULE_2__.createHash)('sha256').update(root).digest('hex').slice(0, 16)}`;
    return { root, evidence, judge };
}
/** One loop per evidence tree; a lock left by a dead loop (or a zombie) is taken over. */
async function acquireLock(home, host) {
    const path = (0,node_path__WEBPACK_IMPORTED_MODULE_1__.join)(home.root, 'run.lock');
    for (let attempt = 0; attempt < 2; attempt++) {
        try {
            const fh = await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.open)(path, 'wx', 0o600);
            await fh.writeFile(`${process.pid}@${host}\n`);
            await fh.close();
            return () => (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.rm)(path, { force: true });
        }
        catch {
            const [pid, owner] = (await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.readFile)(path, 'utf8').catch(() => '')).trim().split('@');
            if (owner === host && Number(pid) > 0 && (0,_os_process_js__WEBPACK_IMPORTED_MODULE_5__.processRunning)(Number(pid)))
                return `another phuc-loop (pid ${pid}) is running on this evidence tree; the oldest loop keeps running: wait for it to end (or stop it: touch scratch/STOP), then \`phuc-loop run\` again`;
            await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.rm)(path, { force: true });
        }
    }
    return 'could not take the evidence lock (another loop took it meanwhile): `phuc-loop run` again once it has ended';
}
const hasFiles = async (root) => (await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.stat)(root).catch(() => null))?.isDirectory() && (await (0,_store_evidence_js__WEBPACK_IMPORTED_MODULE_4__.listFiles)(root)).some((f) => !_store_evidence_js__WEBPACK_IMPORTED_MODULE_4__.NOT_EVIDENCE.has(f));
/** Every folder from `within` down to `target` that exists is a real folder (not a link, FIFO or device). */
async function assertRealFolders(within, target) {
    const rel = (0,node_path__WEBPACK_IMPORTED_MODULE_1__.relative)(within, target).split(node_path__WEBPACK_IMPORTED_MODULE_1__.sep).filter(Boolean);
    for (let k = 1; k <= rel.length; k++) {
        const p = (0,node_path__WEBPACK_IMPORTED_MODULE_1__.join)(within, ...rel.slice(0, k));
        const st = await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.lstat)(p).catch(() => null);
        if (st && !st.isDirectory())
            throw new _common_errors_js__WEBPACK_IMPORTED_MODULE_3__/* .StorageError */ .aq(`${(0,node_path__WEBPACK_IMPORTED_MODULE_1__.relative)(within, p)} is not a folder (${st.isSymbolicLink() ? 'a symbolic link' : 'a special file'}): move it away, then \`phuc-loop run\` again; the evidence stays in .git/phuc-loop until then`);
    }
}


/***/ }),

/***/ 37811:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  publishEvidence: () => (/* binding */ publishEvidence),
  publishRun: () => (/* binding */ publishRun),
  publishedStanding: () => (/* binding */ publishedStanding),
  userFilesInPublished: () => (/* binding */ userFilesInPublished)
});

// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(51455);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(76760);
// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __webpack_require__(77598);
// EXTERNAL MODULE: ./node_modules/zod/v4/classic/external.js + 73 modules
var external = __webpack_require__(23905);
// EXTERNAL MODULE: ./src/engine/common/canonical.ts
var canonical = __webpack_require__(94832);
;// CONCATENATED MODULE: ./src/engine/common/markdown.ts
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

// EXTERNAL MODULE: ./src/engine/common/errors.ts
var errors = __webpack_require__(72251);
// EXTERNAL MODULE: ./src/engine/store/evidence.ts
var evidence = __webpack_require__(75607);
// EXTERNAL MODULE: ./src/engine/os/process.ts + 4 modules
var process = __webpack_require__(64276);
// EXTERNAL MODULE: ./src/engine/os/atomic-write.ts
var atomic_write = __webpack_require__(64154);
// EXTERNAL MODULE: ./src/engine/loop/home.ts
var home = __webpack_require__(96642);
;// CONCATENATED MODULE: ./src/engine/loop/publish.ts
// Publishing the run's evidence from the loop home to the work tree's evidence folder, and how the
// published tree stands against the git index.











/**
 * Copies the private tree to the published folder, replacing it whole (never a half-copied tree).
 * Every folder from `within` (the checkout) down to it must be a real folder: the agent may have
 * put a link there, through which the loop would replace (and delete) something elsewhere.
 */
async function publishEvidence(ev, published, within) {
    await ev.flush();
    if (!(await (0,home.hasFiles)(ev.root)))
        return;
    if (within)
        await (0,home.assertRealFolders)(within, published);
    const tmp = `${published}.tmp-${(0,external_node_crypto_.randomBytes)(6).toString('hex')}`;
    await (0,promises_.mkdir)((0,external_node_path_.dirname)(published), { recursive: true });
    await (0,atomic_write/* copyTreeOffThread */.ZU)(ev.root, tmp, { names: [...evidence.NOT_EVIDENCE] });
    const old = `${published}.old-${(0,external_node_crypto_.randomBytes)(6).toString('hex')}`;
    await (0,promises_.rename)(published, old).catch(() => undefined);
    await (0,promises_.rename)(tmp, published);
    await (0,promises_.rm)(old, { recursive: true, force: true });
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
    const rel = (0,external_node_path_.relative)(within, published).split(external_node_path_.sep).filter(Boolean);
    for (let k = 1; k <= rel.length; k++) {
        const p = (0,external_node_path_.join)(within, ...rel.slice(0, k));
        const st = await (0,promises_.lstat)(p).catch(() => null);
        if (!st || st.isDirectory())
            continue;
        if (st.isSymbolicLink()) {
            await (0,promises_.rm)(p, { force: true });
            notes.push(`${(0,external_node_path_.relative)(within, p)} was a symbolic link made during the run: removed (what it pointed to is untouched); the loop's evidence is published there instead`);
        }
        else {
            const aside = `${p}.not-loop-evidence-${(0,external_node_crypto_.randomBytes)(4).toString('hex')}`;
            await (0,promises_.rename)(p, aside);
            notes.push(`${(0,external_node_path_.relative)(within, p)} was not a folder (made during the run): moved aside to ${(0,external_node_path_.relative)(within, aside)}; the loop's evidence is published there instead`);
        }
    }
    try {
        await publishEvidence(ev, published, within);
    }
    catch (e) {
        // Whatever stands there is not the loop's tree of this run: it goes aside, never read as the evidence.
        const aside = `${published}.not-loop-evidence-${(0,external_node_crypto_.randomBytes)(4).toString('hex')}`;
        const moved = await (0,promises_.rename)(published, aside).then(() => `; what stood there was moved to ${(0,external_node_path_.relative)(within, aside)}`, () => '');
        throw new errors/* StorageError */.aq(`${e instanceof Error ? e.message : String(e)}${moved}; the loop's evidence is in ${ev.root}`);
    }
    return notes;
}
/**
 * How a published evidence tree stands to the loop-owned copy the loop keeps for that path in the
 * repository's .git (where the agent cannot write): the published folder sits in the work tree,
 * so only that copy says whether it is what the loop wrote.
 */
async function publishedStanding(git, dir) {
    const link = (await (0,promises_.lstat)(dir).catch(() => null))?.isSymbolicLink() ?? false;
    const none = { own: null, link, matches: false, running: false };
    const top = await git.toplevel().catch(() => null);
    if (!top)
        return none;
    const rel = (0,external_node_path_.relative)(top, dir);
    if (!rel || rel.startsWith('..') || (0,external_node_path_.isAbsolute)(rel))
        return none;
    const root = (0,external_node_path_.join)(await git.commonDir(), 'phuc-loop', (0,home.homeName)(rel.split(external_node_path_.sep).join('/')));
    const own = (0,external_node_path_.join)(root, 'evidence');
    const ownManifest = await (0,promises_.readFile)((0,external_node_path_.join)(own, 'manifest.json'), 'utf8').catch(() => null);
    if (ownManifest === null)
        return none;
    const publishedManifest = link ? null : await (0,promises_.readFile)((0,external_node_path_.join)(dir, 'manifest.json'), 'utf8').catch(() => null);
    const pid = Number((await (0,promises_.readFile)((0,external_node_path_.join)(root, 'run.lock'), 'utf8').catch(() => '')).split('@')[0]);
    const running = pid > 0 && (0,process.processRunning)(pid);
    return { own, link, matches: publishedManifest === ownManifest, running };
}
/**
 * The refusal naming the committed files under the published folder that are not the loop's evidence (no manifest.json
 * in a folder above them lists them with their content): the loop replaces that folder whole when it
 * publishes (and `run --fresh` moves it aside), so a user's committed file there would be overwritten
 * or deleted from the work tree. The run refuses to start while one stands there (SPEC §7).
 */
async function userFilesInPublished(git, cwd, published, evRel) {
    const rel = (0,external_node_path_.relative)(cwd, published).split(external_node_path_.sep).join('/');
    const under = (await git.listFiles()).filter((p) => p.startsWith(`${rel}/`));
    if (!under.length)
        return null;
    const tracked = await git.indexed(under);
    const manifests = new Map();
    const listed = (dir) => {
        let m = manifests.get(dir);
        if (!m)
            manifests.set(dir, (m = readListing((0,external_node_path_.join)(cwd, dir, 'manifest.json'))));
        return m;
    };
    const theirs = [];
    for (const p of under.filter((f) => tracked.has(f))) {
        // Every manifest lists its files by their path in the tree (iter_0/manifest.json: iter_0/…).
        const inTree = p.slice(rel.length + 1);
        if ((0,external_node_path_.basename)(p) === 'manifest.json' || evidence.NOT_EVIDENCE.has(inTree))
            continue;
        const data = await (0,promises_.readFile)((0,external_node_path_.join)(cwd, p)).catch(() => null);
        if (data === null)
            continue;
        const sha = (0,canonical/* sha256 */.sc)(data);
        let ours = false;
        for (let dir = (0,external_node_path_.dirname)(p); !ours && (dir === rel || dir.startsWith(`${rel}/`)); dir = (0,external_node_path_.dirname)(dir))
            ours = (await listed(dir)).get(inTree) === sha;
        if (!ours)
            theirs.push(p);
    }
    const them = theirs.length > 1 ? 'them' : 'it';
    return theirs.length
        ? `${listSome(theirs)} ${theirs.length > 1 ? 'are' : 'is'} committed in ${evRel}, where the loop publishes its evidence tree (replacing the folder whole), and not the loop's evidence: ` +
            `move ${them} out of ${evRel} (\`git mv\`, then commit), then \`phuc-loop run\` again`
        : null;
}
const listingSchema = external/* object */.Ikc({ files: external/* array */.YOg(evidence.manifestEntrySchema) });
/** A manifest's files by path and sha256 (empty when there is none or it is not a manifest). */
async function readListing(path) {
    const text = await (0,promises_.readFile)(path, 'utf8').catch(() => null);
    let parsed = null;
    try {
        parsed = text === null ? null : JSON.parse(text);
    }
    catch {
        // not a manifest: lists nothing
    }
    const m = listingSchema.safeParse(parsed);
    return new Map(m.success ? m.data.files.map((f) => [f.path, f.sha256]) : []);
}


/***/ }),

/***/ 75607:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   APPEND_ONLY_LOGS: () => (/* binding */ APPEND_ONLY_LOGS),
/* harmony export */   EvidenceStore: () => (/* binding */ EvidenceStore),
/* harmony export */   LATEST_RUN_REPORT: () => (/* binding */ LATEST_RUN_REPORT),
/* harmony export */   MANIFEST: () => (/* binding */ MANIFEST),
/* harmony export */   NOT_EVIDENCE: () => (/* binding */ NOT_EVIDENCE),
/* harmony export */   PHASES_LOG: () => (/* binding */ PHASES_LOG),
/* harmony export */   isIterationManifest: () => (/* binding */ isIterationManifest),
/* harmony export */   iterDir: () => (/* binding */ iterDir),
/* harmony export */   listFiles: () => (/* binding */ listFiles),
/* harmony export */   manifestEntrySchema: () => (/* binding */ manifestEntrySchema),
/* harmony export */   manifestSchema: () => (/* binding */ manifestSchema)
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
