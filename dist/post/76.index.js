export const id = 76;
export const ids = [76,607];
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


/***/ }),

/***/ 35076:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   cutLogTails: () => (/* binding */ cutLogTails),
/* harmony export */   findLogTails: () => (/* binding */ findLogTails),
/* harmony export */   hasLogTail: () => (/* binding */ hasLogTail)
/* harmony export */ });
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(51455);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_fs_promises__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _common_canonical_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(94832);
/* harmony import */ var _common_document_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(44505);
/* harmony import */ var _evidence_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(75607);
// Lines a killed run appended to its append-only logs past what the manifest records. Found by the
// logs' hashes alone (no schema of the tree's documents, no audit): the Action's post step cuts them
// off before it publishes a tree its main step could not, and loads nothing more for that.




/** Whether `data` is the recorded log `f` with lines appended past what the manifest records. */
const hasLogTail = (f, data) => _evidence_js__WEBPACK_IMPORTED_MODULE_3__.APPEND_ONLY_LOGS.has(f.path) && data.byteLength > f.bytes && (0,_common_canonical_js__WEBPACK_IMPORTED_MODULE_1__/* .sha256 */ .sc)(data) !== f.sha256 && (0,_common_canonical_js__WEBPACK_IMPORTED_MODULE_1__/* .sha256 */ .sc)(data.subarray(0, f.bytes)) === f.sha256;
/** The append-only logs of the tree that hold lines past the manifest (they are listed in the root manifest). */
async function findLogTails(ev) {
    const text = await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.readFile)(ev.path(_evidence_js__WEBPACK_IMPORTED_MODULE_3__.MANIFEST), 'utf8').catch(() => null);
    let files;
    try {
        files = text === null ? [] : (0,_common_document_js__WEBPACK_IMPORTED_MODULE_2__/* .parseDocument */ .Tp)(_evidence_js__WEBPACK_IMPORTED_MODULE_3__.MANIFEST, text, _evidence_js__WEBPACK_IMPORTED_MODULE_3__.manifestSchema).files;
    }
    catch {
        return []; // a manifest that does not parse: the tree fails verification whatever is cut here
    }
    const tails = [];
    for (const f of files.filter((e) => _evidence_js__WEBPACK_IMPORTED_MODULE_3__.APPEND_ONLY_LOGS.has(e.path))) {
        const data = await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.readFile)(ev.path(f.path)).catch(() => null);
        if (data && hasLogTail(f, data))
            tails.push({ path: f.path, bytes: f.bytes });
    }
    return tails;
}
/** Cuts each log back to what the manifest records (`tails`: from verifyTree with allowLogTails; found here when not given). */
async function cutLogTails(ev, tails) {
    for (const tail of tails ?? (await findLogTails(ev)))
        await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.truncate)(ev.path(tail.path), tail.bytes);
}


/***/ })

};
