export const id = 276;
export const ids = [276];
export const modules = {

/***/ 78085:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Z: () => (/* binding */ shellQuote)
/* harmony export */ });
// One word for sh: as is when it holds only characters sh reads literally, else in single quotes.
const SAFE_WORD = /^[A-Za-z0-9_/.,:=@%+-]+$/;
function shellQuote(word) {
    return SAFE_WORD.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}


/***/ }),

/***/ 55057:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   JK: () => (/* binding */ processRunning),
/* harmony export */   ME: () => (/* binding */ readStartTime),
/* harmony export */   Tw: () => (/* binding */ RUN_TAG_VAR),
/* harmony export */   U2: () => (/* binding */ signalPid),
/* harmony export */   uA: () => (/* binding */ forksSince),
/* harmony export */   wX: () => (/* binding */ terminateTree),
/* harmony export */   y$: () => (/* binding */ processDescendants)
/* harmony export */ });
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(73024);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_fs__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_perf_hooks__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(643);
/* harmony import */ var node_perf_hooks__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__webpack_require__.n(node_perf_hooks__WEBPACK_IMPORTED_MODULE_1__);
// The process table (/proc): whether a process still runs, the descendants of one, and the kill of
// everything a child started (its process group, its descendants, and whatever carries the run's
// tag), found again and again while it forks.


/**
 * Set in every child's environment with a value unique to the run. A descendant that called setsid
 * and whose parent already exited has lost both its process group and its ppid link to the child;
 * /proc/<pid>/environ still carries this tag, so it is found and killed all the same.
 */
const RUN_TAG_VAR = 'PHUC_RUN_TAG';
const delay = (ms) => new Promise((r) => setTimeout(r, ms));
function parseStat(text) {
    const close = text.lastIndexOf(')');
    if (close < 0)
        return null;
    const pid = Number.parseInt(text, 10);
    // Fields after "(comm)": state ppid pgrp session tty_nr tpgid flags ... starttime is field 22.
    const f = text.slice(close + 2).split(' ');
    if (f.length < 20 || !Number.isFinite(pid))
        return null;
    return { pid, state: f[0], ppid: Number(f[1]), pgrp: Number(f[2]), sid: Number(f[3]), start: f[19] };
}
// /proc is read synchronously: its files are made in memory when read, a few microseconds each,
// where each asynchronous read costs four round trips through the thread pool (a sweep after every
// child made them a large part of a check's cost).
function readProc(pid) {
    try {
        return parseStat((0,node_fs__WEBPACK_IMPORTED_MODULE_0__.readFileSync)(`/proc/${pid}/stat`, 'utf8'));
    }
    catch {
        return null;
    }
}
/** When `pid` started (clock ticks since boot, /proc/<pid>/stat field 22): with the pid, it names one process. */
function readStartTime(pid) {
    return readProc(pid)?.start ?? null;
}
/**
 * Whether `pid` runs (a zombie left by a killed process, waiting to be reaped, does not) and, given
 * its start time, is still that process rather than a reused pid.
 */
function processRunning(pid, start = null) {
    if (!Number.isInteger(pid) || pid <= 0)
        return false;
    try {
        process.kill(pid, 0);
    }
    catch (e) {
        if (e.code !== 'EPERM')
            return false;
    }
    const info = readProc(pid);
    if (!info)
        return start === null;
    return info.state !== 'Z' && (start === null || info.start === start);
}
const readNumber = (file, pattern = /^(\d+)/m) => {
    try {
        const m = pattern.exec((0,node_fs__WEBPACK_IMPORTED_MODULE_0__.readFileSync)(file, 'utf8'));
        return m ? Number(m[1]) : null;
    }
    catch {
        return null;
    }
};
const forkCount = () => readNumber('/proc/stat', /^processes (\d+)$/m);
let pidMax;
function forksSince(pid) {
    const forks = forkCount();
    return forks === null ? null : { pid, forks };
}
/**
 * The pids that can belong to something started after `since.pid`: pids are handed out in cyclic
 * order, so everything started since lies in (since.pid, last], unless the counter went once round
 * (checked by the number of forks since). A sweep then reads a handful of stat files instead of the
 * whole table (the /proc sweep after every check was the largest cost of an iteration at `none`).
 */
function startedSince(since) {
    if (!since)
        return null;
    const [last, forks, max] = [readNumber('/proc/sys/kernel/ns_last_pid'), forkCount(), (pidMax ??= readNumber('/proc/sys/kernel/pid_max'))];
    if (last === null || forks === null || max === null || forks - since.forks >= max / 2)
        return null;
    return { first: since.pid, last, max };
}
/** A window this small is read pid by pid (a missing one costs a failed open), not through a listing of /proc. */
const PROBE_WINDOW = 1024;
function readProcTable(since = null) {
    const window = startedSince(since);
    const size = window ? (window.first <= window.last ? window.last - window.first : window.max - window.first + window.last) + 1 : Infinity;
    let pids;
    if (window && size <= PROBE_WINDOW)
        pids = Array.from({ length: size }, (_, i) => ((window.first + i - 1) % window.max) + 1);
    else {
        try {
            pids = (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.readdirSync)('/proc')
                .filter((n) => /^\d+$/.test(n))
                .map(Number);
        }
        catch {
            return null;
        }
        if (pids.length === 0)
            return null;
        if (window) {
            const { first, last } = window;
            pids = pids.filter((p) => (first <= last ? p >= first && p <= last : p >= first || p <= last));
        }
    }
    const table = new Map();
    for (const pid of pids) {
        const p = readProc(pid);
        if (p)
            table.set(p.pid, p);
    }
    // What started while the table was read lies past the window's end: read on until no pid is new
    // (a few rounds), so a fast-forking tree is not always a step ahead of its sweep.
    for (let round = 0, last = window?.last; window && last !== undefined && round < 8; round++) {
        const now = readNumber('/proc/sys/kernel/ns_last_pid');
        if (now === null || now === last)
            break;
        const count = Math.min(PROBE_WINDOW, now > last ? now - last : window.max - last + now);
        // The newest `count` pids, up to `now` (past a burst larger than that, the newest matter).
        for (let i = count - 1; i >= 0; i--) {
            const p = readProc(((now - i - 1 + window.max) % window.max) + 1);
            if (p)
                table.set(p.pid, p);
        }
        last = now;
    }
    return table;
}
/** Every live process whose chain of parents leads to `pid` (not `pid` itself). */
function processDescendants(pid) {
    const table = readProcTable();
    if (!table)
        return [];
    const found = new Set([pid]);
    let grew = true;
    while (grew) {
        grew = false;
        for (const p of table.values())
            if (!found.has(p.pid) && found.has(p.ppid)) {
                found.add(p.pid);
                grew = true;
            }
    }
    found.delete(pid);
    return [...found];
}
function hasTag(pid, needle) {
    try {
        return (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.readFileSync)(`/proc/${pid}/environ`).includes(needle);
    }
    catch {
        return false; // gone, or another user's process: not ours either way
    }
}
/**
 * Every live process of the tree: the root (while it runs), members of its process group or
 * session, processes carrying the run tag, and all their descendants by ppid links. Start times are
 * kept so a pid reused by an unrelated process is never signalled.
 */
function collectTree(root, rootAlive, tag, rootStart, table, seeds = new Map()) {
    const found = new Map();
    for (const [pid, start] of seeds)
        if (table.get(pid)?.start === start)
            found.set(pid, start);
    const candidates = [];
    for (const p of table.values()) {
        if (p.pid === process.pid || p.pid === 1 || p.state === 'Z')
            continue;
        if (p.pid === root) {
            if (rootAlive && (rootStart === null || p.start === rootStart))
                found.set(p.pid, p.start);
            continue;
        }
        if (p.pgrp === root || p.sid === root)
            found.set(p.pid, p.start);
        // Descendants cannot have started before the root.
        else if (rootStart === null || Number(p.start) >= Number(rootStart))
            candidates.push(p);
    }
    const needle = `${RUN_TAG_VAR}=${tag}`;
    // Newest first: the last pids read are the likeliest still to run (a fork-and-exit chain's one
    // live generation is its newest), and each read of a gone one costs the next its time.
    for (let i = candidates.length - 1; i >= 0; i--)
        if (hasTag(candidates[i].pid, needle))
            found.set(candidates[i].pid, candidates[i].start);
    // Close over ppid links (a setsid'd descendant whose parent is still alive).
    let grew = true;
    while (grew) {
        grew = false;
        for (const p of table.values()) {
            if (found.has(p.pid) || p.pid === process.pid || p.pid === 1 || p.state === 'Z')
                continue;
            if (found.has(p.ppid)) {
                found.set(p.pid, p.start);
                grew = true;
            }
        }
    }
    return found;
}
function stillAlive(targets) {
    const alive = new Map();
    for (const [pid, start] of targets) {
        const p = readProc(pid);
        // A zombie is dead, only not yet reaped (by us or by init).
        if (p && p.start === start && p.state !== 'Z')
            alive.set(pid, start);
    }
    return alive;
}
function signalPid(pid, sig) {
    try {
        process.kill(pid, sig);
    }
    catch {
        // already gone
    }
}
function groupAlive(pgid) {
    try {
        process.kill(-pgid, 0);
        return true;
    }
    catch {
        return false;
    }
}
async function waitFor(done, timeoutMs, stepMs) {
    const until = node_perf_hooks__WEBPACK_IMPORTED_MODULE_1__.performance.now() + timeoutMs;
    while (!done() && node_perf_hooks__WEBPACK_IMPORTED_MODULE_1__.performance.now() < until)
        await delay(stepMs);
}
/**
 * SIGTERM to the process group and every process of the tree (collected before signalling, while
 * the ppid links still lead to them), then SIGKILL to whatever survives the grace period.
 */
async function terminateTree(root, rootAlive, tag, rootStart, since, graceMs) {
    const table = readProcTable(since);
    if (!table) {
        if (!rootAlive && !groupAlive(root))
            return;
        signalPid(-root, 'SIGTERM');
        await waitFor(() => !groupAlive(root), graceMs, 50);
        signalPid(-root, 'SIGKILL');
        return;
    }
    let targets = collectTree(root, rootAlive, tag, rootStart, table);
    if (targets.size === 0)
        return;
    // Every process group a member was seen in: a group is killed whole and at once (a fork under
    // way gets the signal too), so a chain of short-lived generations that one sweep misses, each
    // gone before its environment is read, is still ended through the group they share.
    const own = readProc(process.pid)?.pgrp;
    const groups = new Set();
    const noteGroups = (found, from) => {
        for (const pid of found.keys()) {
            const group = from?.get(pid)?.pgrp;
            if (group !== undefined && group > 1 && group !== own)
                groups.add(group);
        }
    };
    noteGroups(targets, table);
    signalPid(-root, 'SIGTERM');
    for (const pid of targets.keys())
        signalPid(pid, 'SIGTERM');
    await waitFor(() => stillAlive(targets).size === 0, graceMs, 50);
    // Processes started while the tree was dying (a trap handler, a respawn) are caught here too.
    let swept = readProcTable(since);
    targets = swept ? collectTree(root, false, tag, rootStart, swept, stillAlive(targets)) : stillAlive(targets);
    noteGroups(targets, swept);
    // A member left, even a zombie, keeps a group's id from reuse: such a group is killed once more.
    if (targets.size === 0 && !groupAlive(root) && ![...groups].some(groupAlive))
        return;
    // A process that forks and exits at once is a generation ahead of each sweep (gone when it is
    // signalled, its child not yet seen): each group seen is killed whole, and the sweeps go on until
    // one finds nothing of the tree (a chain whose every generation makes a group of its own, forking
    // past the deadline, can still outrun them).
    const deadline = node_perf_hooks__WEBPACK_IMPORTED_MODULE_1__.performance.now() + LAST_SWEEPS_MS;
    for (;;) {
        signalPid(-root, 'SIGKILL');
        for (const group of groups)
            if (groupAlive(group))
                signalPid(-group, 'SIGKILL');
        for (const pid of targets.keys())
            signalPid(pid, 'SIGKILL');
        const killed = targets;
        await waitFor(() => stillAlive(killed).size === 0, 1000, 20);
        swept = node_perf_hooks__WEBPACK_IMPORTED_MODULE_1__.performance.now() < deadline ? readProcTable(since) : null;
        targets = swept ? collectTree(root, false, tag, rootStart, swept) : new Map();
        noteGroups(targets, swept);
        if (targets.size === 0)
            return;
    }
}
/** How long the last sweeps of a killed tree go on finding what it forked meanwhile. */
const LAST_SWEEPS_MS = 3000;


/***/ }),

/***/ 64276:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  NodeProcessRunner: () => (/* binding */ NodeProcessRunner),
  OutputCapture: () => (/* binding */ OutputCapture),
  RUN_TAG_VAR: () => (/* reexport */ process_tree/* RUN_TAG_VAR */.Tw),
  ShellSession: () => (/* reexport */ shell_session/* ShellSession */.v),
  processDescendants: () => (/* reexport */ process_tree/* processDescendants */.y$),
  processRunning: () => (/* reexport */ process_tree/* processRunning */.JK),
  readStartTime: () => (/* reexport */ process_tree/* readStartTime */.ME)
});

// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __webpack_require__(77598);
// EXTERNAL MODULE: external "node:perf_hooks"
var external_node_perf_hooks_ = __webpack_require__(643);
// EXTERNAL MODULE: external "node:os"
var external_node_os_ = __webpack_require__(48161);
// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(51455);
;// CONCATENATED MODULE: ./src/engine/os/stops.ts
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
class stops_SignalStop {
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

;// CONCATENATED MODULE: ./src/engine/os/signals.ts
// The one signal-stop installer of the CLI and the Action (SPEC: backpressure; a stop is a pause).
//
// - The first SIGINT or SIGTERM asks the loop to stop: the engine's AbortSignal fires (the agent is
//   stopped at once) and the `signal` stop source reports the reason, so the run ends
//   EXIT_BLOCKED(BACKPRESSURE_SIGNAL) with its halting report.
// - The same signal again (a second Ctrl-C, a repeated kill) aborts at once.
// - A different signal is a supervisor escalating: GitHub's runner cancels with SIGINT, SIGTERM
//   7.5 s later and SIGKILL 2.5 s after that. The report gets `hurryMs` more (less than those
//   2.5 s), then the process aborts before the SIGKILL could cut a write in half.
// An abort SIGKILLs the process groups the loop started (the agent is in its own group, so no
// terminal or runner signal reaches it), lets the host write its last words synchronously, and exits
// 128 + the signal's number. The evidence stays resumable because the loop writes every state and
// evidence file atomically: a kill leaves the previous or the next consistent state.


const SIGNALS = (/* unused pure expression or super */ null && (['SIGINT', 'SIGTERM']));
/** The runner's SIGKILL follows its SIGTERM after 2.5 s: the report must be done before that. */
const DEFAULT_HURRY_MS = 2000;
/** Process groups of live children, killed on abort. The process runner registers what it spawns. */
const liveGroups = new Set();
/** Registers a child's process group (its pid, when spawned detached); returns the unregister function. */
function trackProcessGroup(pgid) {
    liveGroups.add(pgid);
    return () => liveGroups.delete(pgid);
}
/** The exit status of an abort: 128 + the signal's number (130 for SIGINT, 143 for SIGTERM). */
function abortExitCode(sig) {
    return 128 + constants.signals[sig];
}
function installSignalStop(o) {
    const target = o.target ?? process;
    const hurryMs = o.hurryMs ?? DEFAULT_HURRY_MS;
    const stop = new SignalStop();
    let first = null;
    let hurry = null;
    let aborting = false;
    const abort = (sig) => {
        if (aborting)
            return;
        aborting = true;
        for (const pgid of liveGroups) {
            try {
                target.kill(-pgid, 'SIGKILL');
            }
            catch {
                /* already gone */
            }
        }
        try {
            o.onAbort?.(sig);
        }
        finally {
            target.exit(abortExitCode(sig));
        }
    };
    const onSignal = (sig) => {
        if (first === null) {
            first = sig;
            o.notify(`${sig} received (${o.meaning}): stopping the agent and writing the report; the run pauses and the next one continues (another ${sig} aborts at once)`);
            stop.request(`${sig} received (backpressure: ${o.meaning})`);
            return;
        }
        if (sig === first || hurry !== null) {
            o.notify(`${sig} received again: aborting now; the evidence of the finished iterations is kept and the next run continues from it`);
            abort(sig);
            return;
        }
        o.notify(`${sig} received after ${first}: finishing the report within ${hurryMs} ms, then aborting`);
        hurry = setTimeout(() => abort(sig), hurryMs);
        hurry.unref();
    };
    for (const s of SIGNALS)
        target.on(s, onSignal);
    return {
        stop,
        signal: stop.controller.signal,
        get received() {
            return first;
        },
        dispose() {
            for (const s of SIGNALS)
                target.off(s, onSignal);
            if (hurry)
                clearTimeout(hurry);
        },
    };
}

// EXTERNAL MODULE: external "node:child_process"
var external_node_child_process_ = __webpack_require__(31421);
// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __webpack_require__(73024);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(76760);
// EXTERNAL MODULE: external "node:stream"
var external_node_stream_ = __webpack_require__(57075);
// EXTERNAL MODULE: external "node:url"
var external_node_url_ = __webpack_require__(73136);
;// CONCATENATED MODULE: ./src/engine/os/programs.ts
// The helper programs that are files of their own (linted and tested as such, never text inside
// TypeScript): beside the bundles in dist/ (copied there by scripts/build.mjs), or beside this file
// when the engine runs from source. Each is read once per loop process and run from that copy
// (`perl -e`, or a file in a folder only the loop writes): the installation may sit in a work tree
// the agent is lent, and what root runs must not change under the loop during a run.




const PROGRAMS = (/* unused pure expression or super */ null && ([
    'break-links.sh',
    'net-forwarder.pl',
    'sandbox-init.pl',
    'sandbox-load.sh',
    'sandbox-users.sh',
    'spawn-helper.pl',
    'seal-assert.mjs',
    'seal-unittest.py',
]));
/** The path of a helper program in the installation; throws where the installation lacks it. */
function programFile(name) {
    const here = (0,external_node_path_.dirname)((0,external_node_url_.fileURLToPath)(import.meta.url));
    const found = [(0,external_node_path_.join)(here, '..', name), (0,external_node_path_.join)(here, name)].find((p) => (0,external_node_fs_.existsSync)(p));
    if (!found)
        throw new Error(`${name} not found beside ${here}: the installation is incomplete`);
    return found;
}
const texts = new Map();
/** The program's text, read the first time it is asked for and kept. */
function programText(name) {
    let text = texts.get(name);
    if (text === undefined)
        texts.set(name, (text = (0,external_node_fs_.readFileSync)(programFile(name), 'utf8')));
    return text;
}
/** Writes the programs' kept texts into `dir` (made 0755; the files 0644): their paths. */
async function installPrograms(dir, names) {
    await mkdir(dir, { mode: 0o755 });
    await chmod(dir, 0o755);
    const paths = {};
    for (const name of names) {
        paths[name] = join(dir, name);
        await writeFile(paths[name], programText(name), { mode: 0o644, flag: 'wx' });
    }
    return paths;
}

;// CONCATENATED MODULE: ./src/engine/os/spawner.ts
// Starts child processes for the loop from a small helper process. A Node process forks its whole
// address space to start a child: the loop's (100–200 MB, most of it the tokenizer and the bundle)
// costs ~7–14 ms of the main thread per spawn on a VM, three times an iteration (agent, check,
// residual). The helper is a bare Node process (~45 MB) started once per run: it forks in ~1 ms and
// passes each child's pid, output and exit back over its IPC channel. The loop still kills children
// itself (by pid and process group), so containment does not depend on the helper; a helper that
// dies (killed, crashed) fails none of the loop's runs: what it had in flight is reported killed,
// and the next start goes through a new helper or, failing that, a direct spawn.
//
// Where the system has perl, the helper is a perl program instead (spawn-helper.pl): its fork copies a
// few MB, not Node's ~45, and its frames cost less to read than Node's IPC messages. Per child, on
// this kind of VM: ~0.35 ms of the helper's CPU instead of ~0.95, and ~0.3 ms less to the exit.






/**
 * The helper's program. It runs from its own source text (`node -e`), so it may use nothing from
 * this module: no import, no outer name. It exits when the loop does (its channel closes), and kills
 * its children's process groups first.
 */
function helperMain(cp) {
    const send = (m) => {
        if (process.connected)
            process.send?.(m);
    };
    const running = new Set();
    process.on('message', (m) => {
        let child;
        try {
            child = cp.spawn(m.command, m.args, { cwd: m.cwd, env: m.env, detached: true, stdio: 'pipe' });
        }
        catch (e) {
            send({ t: 'error', id: m.id, code: e.code ?? null, message: e.message });
            return;
        }
        if (child.pid === undefined) {
            child.once('error', (e) => send({ t: 'error', id: m.id, code: e.code ?? null, message: e.message }));
            return;
        }
        send({ t: 'spawned', id: m.id, pid: child.pid });
        for (const fd of [1, 2]) {
            const s = fd === 1 ? child.stdout : child.stderr;
            // Flow control: while the loop has not taken 16 chunks, the child's pipe is not read (a child
            // that floods its output waits, as it would on a pipe the loop read itself).
            let unsent = 0;
            s?.on('data', (data) => {
                if (!process.connected)
                    return;
                if (++unsent >= 16)
                    s.pause();
                process.send?.({ t: 'data', id: m.id, fd, data }, undefined, undefined, () => {
                    if (--unsent < 16)
                        s.resume();
                });
            });
            s?.on('close', () => send({ t: 'end', id: m.id, fd }));
        }
        child.stdin?.on('error', () => { });
        child.stdin?.end(m.stdin ?? undefined);
        const pid = child.pid;
        running.add(pid);
        child.on('exit', (code, signal) => {
            running.delete(pid);
            send({ t: 'exit', id: m.id, code, signal });
        });
    });
    // The loop is gone (killed): so is what it started, each child's process group with it.
    process.on('disconnect', () => {
        for (const pid of running)
            try {
                process.kill(-pid, 'SIGKILL');
            }
            catch {
                // gone already
            }
        process.exit(0);
    });
}
/** A request as the perl helper reads it (see spawn-helper.pl). */
function perlRequest(id, command, args, o) {
    const env = Object.entries(o.env).map(([k, v]) => `${k}=${v}`);
    const fields = [String(id), o.cwd, String(args.length + 1), command, ...args, String(env.length), ...env];
    const body = Buffer.concat([Buffer.from(fields.map((f) => `${f}\0`).join('')), Buffer.from(o.stdin ?? '')]);
    const head = Buffer.alloc(4);
    head.writeUInt32BE(body.length);
    return Buffer.concat([head, body]);
}
const errnoNames = new Map(Object.entries(external_node_os_.constants.errno).map(([name, n]) => [n, name]));
const signalNames = new Map(Object.entries(external_node_os_.constants.signals).map(([name, n]) => [n, name]));
/** The perl helper's frames, as the Node helper's messages (`command`: the name spawn's errors give). */
function perlReplies(onReply, command) {
    let buf = Buffer.alloc(0);
    return (chunk) => {
        buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
        while (buf.length >= 9) {
            const len = buf.readUInt32BE(5);
            if (buf.length < 9 + len)
                break;
            const type = String.fromCharCode(buf[0]);
            const id = buf.readUInt32BE(1);
            const data = buf.subarray(9, 9 + len);
            buf = buf.subarray(9 + len);
            const text = () => data.toString('latin1');
            if (type === 'S')
                onReply({ t: 'spawned', id, pid: Number(text()) });
            else if (type === 'F') {
                const code = errnoNames.get(Number(text())) ?? 'EIO';
                onReply({ t: 'error', id, code, message: `spawn ${command(id)} ${code}` });
            }
            else if (type === 'O' || type === 'E')
                onReply({ t: 'data', id, fd: type === 'O' ? 1 : 2, data });
            else if (type === 'o' || type === 'e')
                onReply({ t: 'end', id, fd: type === 'o' ? 1 : 2 });
            else if (type === 'X') {
                const n = Number(text().slice(1));
                onReply({ t: 'exit', id, code: text()[0] === 'c' ? n : null, signal: text()[0] === 's' ? (signalNames.get(n) ?? 'SIGKILL') : null });
            }
        }
    };
}
class Helper {
    proc;
    /** Children started and not yet done with. */
    pending = new Map();
    seq = 0;
    gone = false;
    transport;
    constructor(proc, kind) {
        this.proc = proc;
        this.transport = kind === 'node' ? this.nodeChannel() : this.perlPipes();
        proc.once('exit', () => this.lost());
        proc.once('error', () => this.lost());
        this.transport.hold(false);
    }
    nodeChannel() {
        const proc = this.proc;
        proc.on('message', (m) => this.reply(m));
        proc.once('disconnect', () => this.lost());
        return {
            send: (id, command, args, o) => proc.send({ id, command, args, cwd: o.cwd, env: o.env, stdin: o.stdin ?? null }, (e) => {
                if (e)
                    this.lost();
            }),
            hold: (on) => {
                for (const h of [proc, proc.channel])
                    if (on)
                        h?.ref();
                    else
                        h?.unref();
            },
        };
    }
    perlPipes() {
        const { stdin, stdout } = this.proc;
        stdout.on('data', perlReplies((m) => this.reply(m), (id) => this.pending.get(id)?.command ?? ''));
        stdout.once('close', () => this.lost());
        stdin.on('error', () => this.lost());
        const pipes = [this.proc, stdin, stdout];
        return {
            send: (id, command, args, o) => stdin.write(perlRequest(id, command, args, o)),
            hold: (on) => {
                for (const h of pipes)
                    if (on)
                        h.ref();
                    else
                        h.unref();
            },
            // Until the stream drains, or its reader gives up on it (destroys it: no drain comes then).
            throttle: (stream) => {
                stdout.pause();
                const resume = () => {
                    stream.off('drain', resume).off('close', resume);
                    stdout.resume();
                };
                stream.once('drain', resume).once('close', resume);
            },
        };
    }
    start(command, args, o) {
        return new Promise((resolve, reject) => {
            const id = ++this.seq;
            const out = new external_node_stream_.PassThrough();
            const err = new external_node_stream_.PassThrough();
            let exited = () => { };
            const exit = new Promise((r) => (exited = r));
            const p = { command, spawned: (pid) => resolve({ pid, stdout: out, stderr: err, exit }), reject, out, err, exited, started: false };
            // Done with once it has exited and the helper has sent the end of both streams.
            let open = 3;
            const done = () => {
                if (--open === 0)
                    this.forget(id);
            };
            void exit.then(done);
            // A stream is done with when it ends, or when its reader destroys it (output it gave up waiting for).
            for (const stream of [out, err]) {
                let once = false;
                const end = () => {
                    if (!once)
                        done();
                    once = true;
                };
                stream.once('finish', end);
                stream.once('close', end);
            }
            this.pending.set(id, p);
            this.transport.hold(true);
            this.transport.send(id, command, args, o);
        });
    }
    reply(m) {
        const p = this.pending.get(m.id);
        if (!p)
            return;
        if (m.t === 'spawned') {
            p.started = true;
            p.spawned(m.pid);
        }
        else if (m.t === 'error') {
            this.forget(m.id);
            p.reject(Object.assign(new Error(m.message), { code: m.code ?? undefined }));
        }
        else if (m.t === 'exit')
            p.exited({ code: m.code, signal: m.signal });
        else {
            const stream = m.fd === 1 ? p.out : p.err;
            if (stream.destroyed)
                return;
            if (m.t === 'end')
                stream.end();
            else if (!stream.write(Buffer.from(m.data.buffer, m.data.byteOffset, m.data.byteLength)))
                this.transport.throttle?.(stream);
        }
    }
    forget(id) {
        this.pending.delete(id);
        this.transport.hold(this.pending.size > 0);
    }
    /** The helper is gone: a start in flight fails (the caller spawns directly); a running child reads as killed. */
    lost() {
        if (this.gone)
            return;
        this.gone = true;
        for (const p of this.pending.values()) {
            if (!p.started)
                p.reject(Object.assign(new Error('the spawn helper ended'), { code: 'EHELPERGONE' }));
            else {
                p.exited({ code: null, signal: 'SIGKILL' });
                for (const stream of [p.out, p.err])
                    if (!stream.destroyed)
                        stream.end();
            }
        }
        this.pending.clear();
        this.transport.hold(false);
    }
}
/** Where tools are taken from: the system's own folders, never a PATH the agent could have planted into. */
const SYSTEM_DIRS = ['/usr/bin', '/bin', '/usr/sbin', '/sbin', '/usr/local/bin', '/usr/local/sbin'];
/** The first of the system folders that holds an executable `name` (null: none does). */
function systemTool(name) {
    for (const dir of SYSTEM_DIRS)
        try {
            (0,external_node_fs_.accessSync)((0,external_node_path_.join)(dir, name), external_node_fs_.constants.X_OK);
            return (0,external_node_path_.join)(dir, name);
        }
        catch {
            // not there
        }
    return null;
}
const helpers = new Map();
function helperOf(kind) {
    const known = helpers.get(kind);
    if (known && !known.gone)
        return known;
    helpers.delete(kind);
    const perl = kind === 'perl' ? systemTool('perl') : null;
    if (kind === 'perl' && !perl)
        return null;
    try {
        // No environment of the loop's (NODE_OPTIONS, secrets): each child gets exactly the one asked for.
        // Its own session: a Ctrl-C at the terminal reaches the loop, which stops in order, not the helper.
        // `__name`: what esbuild (tsx, when the engine runs from source) wraps nested functions in.
        // perl runs from / (before 5.26 its @INC held `.`: a POSIX.pm planted in the work tree).
        const proc = perl
            ? (0,external_node_child_process_.spawn)(perl, ['-e', programText('spawn-helper.pl')], { cwd: '/', env: {}, stdio: ['pipe', 'pipe', 'ignore'], detached: true })
            : (0,external_node_child_process_.spawn)(process.execPath, ['-e', `var __name = (f) => f;\n(${helperMain.toString()})(require('node:child_process'));`], {
                env: {},
                stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
                serialization: 'advanced',
                detached: true,
            });
        if (proc.pid === undefined)
            return null;
        const h = new Helper(proc, kind);
        helpers.set(kind, h);
        return h;
    }
    catch {
        return null;
    }
}
/**
 * Starts `command` with `args` in its own session (process group), through the helper when there is
 * one. Rejects like spawn's 'error' (ENOENT, EACCES...) when the child could not be started.
 */
let preferred;
function startChild(command, args, o) {
    preferred ??= systemTool('perl') ? 'perl' : 'node';
    return startVia(preferred, command, args, o);
}
/** startChild through the helper of that kind (both are tested: a system may lack perl). */
async function startVia(kind, command, args, o) {
    const h = helperOf(kind);
    if (h)
        try {
            return await h.start(command, args, o);
        }
        catch (e) {
            if (e.code !== 'EHELPERGONE')
                throw e;
        }
    return startDirect(command, args, o);
}
/** child_process.spawn from this process: the fallback, and what the helper itself does. */
function startDirect(command, args, o) {
    return new Promise((resolve, reject) => {
        const child = (0,external_node_child_process_.spawn)(command, args, { cwd: o.cwd, env: o.env, detached: true, stdio: 'pipe' });
        const exit = new Promise((r) => child.once('exit', (code, signal) => r({ code, signal })));
        child.once('error', (e) => {
            // Only a failure to start; errors of a running child (a kill that found it gone) are not.
            if (child.pid === undefined)
                reject(e);
        });
        child.once('spawn', () => {
            // EPIPE when the child does not read its input is not the runner's failure.
            child.stdin.on('error', () => { });
            child.stdin.end(o.stdin);
            resolve({ pid: child.pid, stdout: child.stdout, stderr: child.stderr, exit });
        });
    });
}

// EXTERNAL MODULE: ./src/engine/os/process-tree.ts
var process_tree = __webpack_require__(55057);
// EXTERNAL MODULE: ./src/engine/os/shell-session.ts
var shell_session = __webpack_require__(5614);
;// CONCATENATED MODULE: ./src/engine/os/process.ts
// Runs agent and check processes with async spawn only. Every child gets its own session and process
// group (so a Ctrl-C at the terminal reaches the loop, never its children directly), and everything
// it started is killed when it is done, timed out or aborted: no orphan of an iteration may outlive
// it (an orphan could keep editing the repository during the next one). A child wrapped by the
// sandbox (RunSpec.contained) lives in its own PID namespace, whose end kills everything in it;
// every other child is contained by a sweep of the process table.





// The process table's and the shell's names the rest of the engine takes from here.


/** setTimeout fires at once for longer delays. */
const MAX_TIMER_MS = 2 ** 31 - 1;
class NodeProcessRunner {
    killGraceMs;
    drainMs;
    constructor(options = {}) {
        this.killGraceMs = options.killGraceMs ?? 1500;
        this.drainMs = options.drainMs ?? 250;
    }
    run(spec) {
        const result = this.runOnce(spec);
        const c = spec.contained;
        return c ? result.then(async (r) => (await c.release().catch(() => undefined), r)) : result;
    }
    async runOnce(spec) {
        const started = external_node_perf_hooks_.performance.now();
        const elapsed = () => external_node_perf_hooks_.performance.now() - started;
        if (spec.signal?.aborted)
            return { exitCode: null, signal: null, timedOut: false, aborted: true, stdout: '', stderr: '', durationMs: elapsed() };
        const tag = (0,external_node_crypto_.randomUUID)();
        let child;
        try {
            // A contained child's environment is exactly the role's: it needs no tag to be found.
            const env = spec.contained ? spec.env : { ...spec.env, [process_tree/* RUN_TAG_VAR */.Tw]: tag };
            const [command, args] = spec.args ? [spec.command, spec.args] : ['/bin/sh', ['-c', spec.command]];
            child = await startChild(command, args, { cwd: spec.cwd, env, stdin: spec.stdin });
        }
        catch (e) {
            return spawnFailure(e, spec, elapsed());
        }
        return new Promise((resolve) => {
            const out = new OutputCapture(spec.maxOutputBytes);
            const err = new OutputCapture(spec.maxOutputBytes);
            let exited = false;
            let timedOut = false;
            let aborted = false;
            let killing = null;
            const pid = child.pid;
            const contained = spec.contained;
            const rootStart = contained ? null : (0,process_tree/* readStartTime */.ME)(pid);
            const since = contained ? null : (0,process_tree/* forksSince */.uA)(pid);
            const untrack = trackProcessGroup(pid);
            const exitedP = child.exit.then(() => undefined);
            const killTree = () => {
                if (killing)
                    return;
                killing = contained ? stopContained(pid, exitedP, contained) : (0,process_tree/* terminateTree */.wX)(pid, true, tag, rootStart, since, this.killGraceMs);
            };
            const timer = spec.timeoutMs === undefined
                ? undefined
                : setTimeout(() => {
                    if (exited)
                        return;
                    timedOut = true;
                    killTree();
                }, Math.min(Math.max(0, spec.timeoutMs), MAX_TIMER_MS));
            let idle = false;
            let idleTimer;
            const quiet = () => {
                if (spec.idleMs === undefined || exited)
                    return;
                clearTimeout(idleTimer);
                idleTimer = setTimeout(() => {
                    if (exited || timedOut || aborted)
                        return;
                    idle = true;
                    killTree();
                }, Math.min(Math.max(0, spec.idleMs), MAX_TIMER_MS));
            };
            quiet();
            const onAbort = () => {
                if (exited)
                    return;
                aborted = true;
                killTree();
            };
            spec.signal?.addEventListener('abort', onAbort, { once: true });
            // An abort that came while the child was being started.
            if (spec.signal?.aborted)
                onAbort();
            const cleanup = () => {
                if (timer)
                    clearTimeout(timer);
                clearTimeout(idleTimer);
                spec.signal?.removeEventListener('abort', onAbort);
            };
            child.stdout.on('data', (c) => {
                out.push(c);
                quiet();
            });
            child.stderr.on('data', (c) => {
                err.push(c);
                quiet();
            });
            const closed = Promise.all([streamClosed(child.stdout), streamClosed(child.stderr)]);
            void child.exit.then(async ({ code, signal }) => {
                exited = true;
                cleanup();
                untrack();
                try {
                    await killing;
                    // Anything the child left running (its group, its session, its tagged descendants). A
                    // contained child has ended only once its namespace was empty.
                    if (!contained && (spec.reapLeftovers !== false || killing))
                        await (0,process_tree/* terminateTree */.wX)(pid, false, tag, rootStart, since, this.killGraceMs);
                }
                catch {
                    // Killing is best effort; the result must still be reported.
                }
                // A pipe held open by a process that could not be killed must not hang the loop.
                let drainTimer;
                const drained = await Promise.race([closed.then(() => true), new Promise((r) => (drainTimer = setTimeout(() => r(false), this.drainMs)))]);
                clearTimeout(drainTimer);
                if (!drained) {
                    child.stdout.destroy();
                    child.stderr.destroy();
                }
                resolve({
                    exitCode: signal ? null : code,
                    signal: signal ?? null,
                    timedOut,
                    ...(idle ? { idle } : {}),
                    aborted,
                    stdout: out.text(),
                    stderr: err.text(),
                    durationMs: elapsed(),
                });
            });
        });
    }
}
/** SIGTERM to the group (the command may finish its work), the namespace's end after the grace. */
async function stopContained(pid, exited, c) {
    (0,process_tree/* signalPid */.U2)(-pid, 'SIGTERM');
    let timer;
    const ended = await Promise.race([exited.then(() => true), new Promise((r) => (timer = setTimeout(() => r(false), c.graceMs)))]);
    clearTimeout(timer);
    if (!ended)
        await c.forceKill(pid);
}
function spawnFailure(e, spec, durationMs) {
    const code = e.code;
    const message = e instanceof Error ? e.message : String(e);
    return {
        // Shell conventions: 126 found but not executable, 127 not found.
        exitCode: code === 'EACCES' || code === 'ENOEXEC' ? 126 : 127,
        signal: null,
        timedOut: false,
        aborted: false,
        stdout: '',
        stderr: `${message} (command: ${spec.command}, cwd: ${spec.cwd})\n`,
        durationMs,
    };
}
function streamClosed(s) {
    if (!s)
        return Promise.resolve();
    return new Promise((resolve) => {
        s.once('close', () => resolve());
        s.once('error', () => resolve());
    });
}
/** Keeps the head and the tail of a stream when it exceeds `max` bytes. */
class OutputCapture {
    max;
    headLimit;
    tailLimit;
    head = [];
    headBytes = 0;
    tail = [];
    tailBytes = 0;
    total = 0;
    constructor(max) {
        this.max = max;
        const m = max === undefined ? Infinity : Math.max(0, Math.floor(max));
        this.headLimit = Math.floor(m / 2);
        this.tailLimit = m - this.headLimit;
    }
    push(chunk) {
        this.total += chunk.length;
        if (this.max === undefined) {
            this.head.push(chunk);
            return;
        }
        const room = this.headLimit - this.headBytes;
        if (room > 0) {
            const part = chunk.length <= room ? chunk : chunk.subarray(0, room);
            this.head.push(part);
            this.headBytes += part.length;
            chunk = chunk.subarray(part.length);
        }
        if (chunk.length === 0)
            return;
        this.tail.push(chunk);
        this.tailBytes += chunk.length;
        // Drop whole chunks that lie entirely before the last tailLimit bytes.
        while (this.tail.length > 1 && this.tailBytes - this.tail[0].length >= this.tailLimit)
            this.tailBytes -= this.tail.shift()?.length ?? 0;
    }
    text() {
        const head = Buffer.concat(this.head);
        if (this.max === undefined || this.total <= this.headLimit + this.tailLimit)
            return Buffer.concat([head, ...this.tail]).toString('utf8');
        let tail = Buffer.concat(this.tail);
        tail = tail.subarray(Math.max(0, tail.length - this.tailLimit));
        // Cut on character boundaries so neither half ends in a broken UTF-8 sequence.
        let h = head.length;
        if (h > 0 && h < this.total)
            h = utf8Start(head, h);
        let t = 0;
        while (t < tail.length && (tail[t] & 0xc0) === 0x80)
            t++;
        const keptHead = head.subarray(0, h);
        const keptTail = tail.subarray(t);
        const omitted = this.total - keptHead.length - keptTail.length;
        return `${keptHead.toString('utf8')}\n[... ${omitted} bytes omitted ...]\n${keptTail.toString('utf8')}`;
    }
}
/** The largest cut ≤ end that does not split a UTF-8 sequence of buf[0..end). */
function utf8Start(buf, end) {
    let i = end - 1;
    let back = 0;
    while (i >= 0 && back < 4 && (buf[i] & 0xc0) === 0x80) {
        i--;
        back++;
    }
    if (i < 0)
        return end;
    const lead = buf[i];
    const len = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
    return i + len > end ? i : end;
}
// ---------------------------------------------------------------------------------------------------
// Process tree discovery through /proc (Linux). Elsewhere only the process group is signalled.


/***/ }),

/***/ 5614:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   v: () => (/* binding */ ShellSession)
/* harmony export */ });
/* harmony import */ var node_child_process__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(31421);
/* harmony import */ var node_child_process__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_child_process__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(77598);
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__webpack_require__.n(node_crypto__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var _common_shell_quote_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(78085);
/* harmony import */ var _process_tree_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(55057);
// The loop's long-lived shell for its own short commands (git, root's find/chown).




/**
 * A long-lived /bin/sh that runs short commands (the loop's own git calls) one at a time. A large
 * Node process pays several milliseconds of fork per spawn; the shell forks git for a fraction of
 * that. Each command's output comes through the shell's own pipes, ended by a marker the command
 * cannot forge (random, new for each command, never written anywhere else); its input, when it has
 * one, from the shell's builtin printf through a pipe (a file written per call cost the loop's
 * thread a create on disk; printf writes the NUL bytes a shell word cannot hold).
 */
class ShellSession {
    child;
    timeoutMs;
    seq = 0;
    queue = Promise.resolve();
    closed = false;
    streams = [new MarkedStream(), new MarkedStream()];
    onEnd = null;
    constructor(child, timeoutMs) {
        this.child = child;
        this.timeoutMs = timeoutMs;
        child.stdout.on('data', (d) => this.streams[0].push(d));
        child.stderr.on('data', (d) => this.streams[1].push(d));
        const end = () => {
            this.closed = true;
            this.onEnd?.();
        };
        child.on('exit', end);
        // A shell that died (killed by an agent of the same user, say) must fail the call, not the process.
        child.stdin.on('error', end);
    }
    /**
     * The shell gets its own session: a Ctrl-C at the terminal (SIGINT to the foreground process
     * group) reaches the loop, which then stops in order, and not the shell. It still ends with the
     * loop: when the loop's process is gone, its end of the shell's stdin closes and `sh -s` exits.
     */
    static start(cwd, env, timeoutMs = 300_000, shell = ['/bin/sh', '-s']) {
        const [command, ...args] = shell;
        const child = (0,node_child_process__WEBPACK_IMPORTED_MODULE_0__.spawn)(command, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
        return Promise.resolve(new ShellSession(child, timeoutMs));
    }
    /** Whether the shell is gone (ended, killed, or stopped at a timeout): a new one is needed. */
    get ended() {
        return this.closed;
    }
    /** Runs one shell command line, with `stdin` as its input. */
    run(script, stdin = '') {
        const next = this.queue.then(async () => {
            if (this.closed)
                throw new Error('the git shell session has ended');
            const mark = `__phuc_${(0,node_crypto__WEBPACK_IMPORTED_MODULE_1__.randomUUID)().replaceAll('-', '')}_${++this.seq}`;
            const [out, err] = this.streams.map((s) => s.until(mark));
            let timer;
            const ended = new Promise((resolve) => {
                this.onEnd = () => resolve(255);
                // A git call that hangs (a lock, a credential prompt) ends the session rather than the loop's budgets.
                timer = setTimeout(() => {
                    this.closed = true;
                    // The whole group: the hanging git too, not only the shell waiting for it.
                    if (this.child.pid !== undefined)
                        (0,_process_tree_js__WEBPACK_IMPORTED_MODULE_2__/* .signalPid */ .U2)(-this.child.pid, 'SIGKILL');
                    resolve(124);
                }, this.timeoutMs);
            });
            // A group, not a subshell: one fork fewer per call (scripts only set throwaway variables).
            const input = stdin ? `${printed(stdin)} | ` : '';
            this.child.stdin.write(`${input}{ ${script}\n}${stdin ? '' : ' </dev/null'}; printf '${mark} %d\\n' $?; printf '${mark}\\n' >&2\n`);
            const done = await Promise.race([Promise.all([out, err]), ended]);
            clearTimeout(timer);
            this.onEnd = null;
            if (typeof done === 'number') {
                this.closed = true;
                for (const s of this.streams)
                    s.reset();
                return { exitCode: done, stdout: '', stderr: '' };
            }
            const [o, e] = done;
            const m = /^ (\d+)\n$/.exec(o.after);
            return { exitCode: m ? Number(m[1]) : 255, stdout: o.before, stderr: e.before };
        });
        this.queue = next.catch(() => undefined);
        return next;
    }
    close() {
        if (!this.closed)
            this.child.stdin.end();
        return Promise.resolve();
    }
}
/** A shell command that writes `text` exactly: its NUL-separated parts as printf arguments. */
function printed(text) {
    const parts = text.split('\0');
    const last = parts.pop();
    return `{ ${parts.length ? `printf '%s\\0' ${parts.map(_common_shell_quote_js__WEBPACK_IMPORTED_MODULE_3__/* .shellQuote */ .Z).join(' ')}; ` : ''}printf %s ${(0,_common_shell_quote_js__WEBPACK_IMPORTED_MODULE_3__/* .shellQuote */ .Z)(last)}; }`;
}
/** A stream of command outputs, each ended by its marker line. */
class MarkedStream {
    chunks = [];
    bytes = 0;
    want = null;
    push(d) {
        this.chunks.push(d);
        this.bytes += d.length;
        this.look(d.length);
    }
    /** What comes before `mark`, and the rest of its line. */
    until(mark) {
        return new Promise((resolve) => {
            this.want = { mark: Buffer.from(mark), resolve };
            this.look(this.bytes);
        });
    }
    reset() {
        this.chunks = [];
        this.bytes = 0;
        this.want = null;
    }
    /** Searches only the `fresh` bytes that came last (and a marker's length before them): a large output stays linear. */
    look(fresh) {
        if (!this.want)
            return;
        const { mark, resolve } = this.want;
        const span = Math.min(this.bytes, fresh + mark.length + 32);
        const tail = [];
        for (let i = this.chunks.length - 1, got = 0; i >= 0 && got < span; i--) {
            tail.unshift(this.chunks[i]);
            got += this.chunks[i].length;
        }
        const window = tail.length === 1 ? tail[0] : Buffer.concat(tail);
        const from = Math.max(0, window.length - span);
        const w = window.indexOf(mark, from);
        if (w < 0 || window.indexOf(10, w) < 0)
            return;
        const all = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.bytes);
        const at = all.length - window.length + w;
        const eol = all.indexOf(10, at);
        this.want = null;
        const rest = all.subarray(eol + 1);
        this.chunks = rest.length ? [rest] : [];
        this.bytes = rest.length;
        resolve({ before: all.subarray(0, at).toString('utf8'), after: all.subarray(at + mark.length, eol + 1).toString('utf8') });
    }
}


/***/ })

};
