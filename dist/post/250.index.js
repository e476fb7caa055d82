export const id = 250;
export const ids = [250];
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

/***/ 64250:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  Git: () => (/* binding */ Git),
  describeArgs: () => (/* reexport */ describeArgs)
});

// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(51455);
// EXTERNAL MODULE: external "node:os"
var external_node_os_ = __webpack_require__(48161);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(76760);
// EXTERNAL MODULE: ./src/engine/common/shell-quote.ts
var shell_quote = __webpack_require__(78085);
// EXTERNAL MODULE: ./src/engine/common/canonical.ts
var canonical = __webpack_require__(94832);
// EXTERNAL MODULE: ./src/engine/common/errors.ts
var errors = __webpack_require__(72251);
// EXTERNAL MODULE: external "node:child_process"
var external_node_child_process_ = __webpack_require__(31421);
// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __webpack_require__(73024);
;// CONCATENATED MODULE: ./src/engine/os/tree-file.ts
// Reading what the agent could have planted. The loop reads the work tree as root: a path there may
// be a link to any file of the machine, a FIFO that blocks an open() for ever, or a device. Every
// read of such a path goes through here: never through a link, never blocking, never more than asked.
// And removing it: a folder nested past PATH_MAX.




/** lstat, or null when there is nothing at `path` (or it cannot be looked at: ENOTDIR, EACCES...). */
function lstatOrNull(path) {
    try {
        return (0,external_node_fs_.lstatSync)(path, { throwIfNoEntry: false }) ?? null;
    }
    catch {
        return null;
    }
}
/** A link's target text, or null when `path` is not a link that can be read. */
function linkTarget(path) {
    try {
        return readlinkSync(path);
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
        fh = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
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
    return withRegularSync(path, (fd, size) => (size <= maxBytes ? (0,external_node_fs_.readFileSync)(fd) : null));
}
/** At most the first `bytes` bytes of a regular file, read as readRegularSync reads (a small file the agent left: its report). */
function readHeadSync(path, bytes) {
    return withRegularSync(path, (fd, size) => {
        const buf = Buffer.alloc(Math.min(size, bytes));
        return buf.subarray(0, readSync(fd, buf, 0, buf.length, 0));
    });
}
function withRegularSync(path, read) {
    let fd;
    try {
        fd = (0,external_node_fs_.openSync)(path, external_node_fs_.constants.O_RDONLY | external_node_fs_.constants.O_NOFOLLOW | external_node_fs_.constants.O_NONBLOCK);
    }
    catch {
        return null;
    }
    try {
        const stat = (0,external_node_fs_.fstatSync)(fd);
        return stat.isFile() ? read(fd, stat.size) : null;
    }
    catch {
        return null;
    }
    finally {
        (0,external_node_fs_.closeSync)(fd);
    }
}
/**
 * A work-tree path as git sees it: a link's target text (what git commits for it, never what it
 * points to), a regular file's bytes; null when absent or neither (git ignores FIFOs and devices).
 */
async function readAsGit(path) {
    const st = lstatOrNull(path);
    if (st?.isSymbolicLink())
        return Buffer.from(await readlink(path).catch(() => ''));
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
        const st = lstatOrNull((0,external_node_path_.join)(root, path));
        if (!st)
            return null; // missing: nothing below it exists either; a write creates real folders
        if (!st.isDirectory())
            return { path, what: st.isSymbolicLink() ? 'a symbolic link' : 'not a folder' };
    }
    return null;
}
/** readAsGit for a work-tree path, never through a folder that is a link (then: null, as git sees it). */
async function readAsGitIn(root, rel) {
    return ancestorInTheWay(root, rel) ? null : readAsGit(join(root, rel));
}
/** readRegular for a work-tree path, never through a folder that is a link. */
async function readRegularIn(root, rel, maxBytes = Infinity) {
    return ancestorInTheWay(root, rel) ? null : readRegular(join(root, rel), maxBytes);
}
/** Whether a work-tree path is a link itself (never looked at through a folder that is a link). */
function isLinkIn(root, rel) {
    if (ancestorInTheWay(root, rel))
        return false;
    return !!lstatOrNull(join(root, rel))?.isSymbolicLink();
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
        const here = join(root, ...at);
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
            if (isAbsolute(target))
                return `a link on the way is absolute (${at.join('/')} -> ${target})`;
            at.pop();
            pending.unshift(...target.split('/'));
        }
        else if (!st.isDirectory())
            missing = pending.some((p) => p !== '' && p !== '.'); // ENOTDIR for the kernel
    }
    return null;
}
const RM = ['/usr/bin/rm', '/bin/rm'].find((p) => (0,external_node_fs_.existsSync)(p)) ?? 'rm';
/**
 * Removes `path` and everything in it, where a role may have written. Node's rm names each entry by
 * its full path and gives up past PATH_MAX (folders nested 4 KiB deep): coreutils' rm, which works
 * from each folder in turn, removes what it left.
 */
async function removeTree(path) {
    try {
        await rm(path, { recursive: true, force: true });
    }
    catch (e) {
        if (e.code !== 'ENAMETOOLONG')
            throw e;
        await new Promise((resolve, reject) => {
            execFile(RM, ['-rf', '--', path], { env: { LC_ALL: 'C' }, timeout: 300_000, killSignal: 'SIGKILL' }, (err, _out, stderr) => err ? reject(new Error(`rm -rf ${path} failed: ${stderr.trim() || err.message}`)) : resolve());
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

;// CONCATENATED MODULE: ./src/engine/os/git-args.ts
// What the loop hands git: the environment it keeps, and paths on stdin or on the command line.
/** The variables of the loop's environment git is given (its identity, its config overrides, its certificates). */
const GIT_ENV_KEEP = /^(PATH|HOME|LANG|LC_[A-Z]+|TZ|TMPDIR|GIT_CONFIG_(COUNT|KEY_\d+|VALUE_\d+)|GIT_AUTHOR_(NAME|EMAIL)|GIT_COMMITTER_(NAME|EMAIL)|GIT_SSH_COMMAND|XDG_CONFIG_HOME|SSL_CERT_FILE|SSL_CERT_DIR)$/;
/**
 * Paths go to git on its standard input (update-index, checkout-index: exact names, read in linear
 * time), never on its command line, where an agent's many long names would pass the kernel's limit
 * (E2BIG: no git would run). Lookups (ls-files, ls-tree, diff) get them on the command line up to
 * this many bytes; beyond, git lists everything and the loop picks the paths out.
 */
const ARGV_PATHS_BYTES = 16 * 1024;
/**
 * Stages the exact paths on stdin (NUL-separated) as `git add -A` does: new and changed files added,
 * missing ones removed, a file replacing a folder (or the reverse) replacing its entries; a path
 * beyond a link refused, attribute conversions applied. Not `git add`: it matches every file against
 * every pathspec, which for an agent's ten thousand new files takes minutes.
 */
const STAGE_FROM_STDIN = ['update-index', '--add', '--remove', '--replace', '-z', '--stdin'];
/** Whether `paths` may go on a command line (see ARGV_PATHS_BYTES). */
function fitsArgv(paths) {
    let bytes = 0;
    for (const p of paths)
        if ((bytes += Buffer.byteLength(p) + 1) > ARGV_PATHS_BYTES)
            return false;
    return true;
}
/** A git command line for a message: a long one (paths) cut short, with the count of what was left out. */
function describeArgs(args, limit = 300) {
    let text = '';
    for (let i = 0; i < args.length; i++) {
        const next = text ? `${text} ${args[i]}` : args[i];
        if (next.length > limit)
            return `${text || args[i].slice(0, limit)} … (${args.length - (text ? i : i + 1)} more argument(s))`;
        text = next;
    }
    return text;
}

// EXTERNAL MODULE: ./src/engine/os/shell-session.ts
var shell_session = __webpack_require__(5614);
;// CONCATENATED MODULE: ./src/engine/os/git-core.ts
// Talking to git: through the async process runner or the loop's git shell (ShellSession), with an
// environment and options nothing in the checkout can turn into a command the loop runs.






// Git's own small files (HEAD, refs, settings, the index, a new object) are read synchronously
// (readRegularSync: no link followed, no FIFO waited on): from the page cache in microseconds, where
// an asynchronous read costs four round trips through the thread pool, a dozen times an iteration.
/** Talking to git: its environment and options, the shell session, the calls, and where its folders are. */
class GitCore {
    runner;
    cwd;
    env;
    /** Options of every git call the loop makes (and the committer identity where the checkout has none). */
    gitArgs = [
        ...['core.fsmonitor=false', 'core.hooksPath=/dev/null', 'maintenance.auto=false', 'gc.auto=0'],
        // Never look inside a submodule or nested repository: git would obey its settings (a clean
        // filter, an fsmonitor) as the loop, and those the agent can write.
        ...['submodule.recurse=false', 'diff.ignoreSubmodules=all', 'status.submoduleSummary=false'],
    ].flatMap((c) => ['-c', c]);
    constructor(runner, cwd, baseEnv = process.env) {
        this.runner = runner;
        this.cwd = cwd;
        // Agent-chosen file names are paths, never pathspec magic; nothing configured in the checkout
        // (an fsmonitor command, hooks) runs inside the loop's own git calls.
        this.env = { GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0', GIT_LITERAL_PATHSPECS: '1' };
        for (const [k, v] of Object.entries(baseEnv))
            if (v !== undefined && GIT_ENV_KEEP.test(k))
                this.env[k] = v;
        // While the agent user owns the work tree (its step), git would call the checkout "dubious".
        this.gitArgs.push('-c', `safe.directory=${cwd}`);
    }
    session = null;
    /** Routes further git calls through one long-lived shell (see ShellSession); close() ends it. */
    async openSession() {
        this.session ??= await shell_session/* ShellSession */.v.start(this.cwd, this.env);
    }
    async close() {
        await this.session?.close();
        this.session = null;
    }
    async exec(script, stdin) {
        if (!this.session)
            return this.runner.run({ command: script, cwd: this.cwd, env: this.env, stdin, reapLeftovers: false });
        // A shell killed (by an agent of the same user, say) fails the call that finds it gone or that it
        // cut short (whatever that call had done): the run halts with its report, made with a new shell,
        // and the next run resumes.
        const session = this.session;
        const r = session.ended ? undefined : await session.run(script, stdin).catch(() => null);
        if (r && !session.ended)
            return r;
        this.session = await shell_session/* ShellSession */.v.start(this.cwd, this.env);
        throw errors/* GitError */.XS.ended(r === undefined
            ? "the loop's git shell was killed between two git calls"
            : "a git call did not finish: the loop's git shell ended (killed, or stopped at its time limit)");
    }
    async run(args, opts = {}) {
        const r = await this.exec(['git', ...this.gitArgs, ...args].map(shell_quote/* shellQuote */.Z).join(' '), opts.stdin);
        if (r.exitCode !== 0 && !opts.allowFail)
            throw new errors/* GitError */.XS(`git ${describeArgs(args)} failed (${r.exitCode ?? r.signal}): ${r.stderr.trim() || r.stdout.trim()}`, r.stderr);
        return r.stdout;
    }
    /**
     * The output of `git <args>` limited to `paths` (NUL-separated names): on the command line when
     * they fit (see ARGV_PATHS_BYTES), else all of it, those names picked out (exact names only, as
     * every caller wants). A path that is a folder selects nothing here either way.
     */
    async listAmong(args, paths, nameOf = (record) => record) {
        const found = new Map();
        if (paths.length === 0)
            return found;
        const out = await this.run(fitsArgv(paths) ? [...args, '--', ...paths] : args);
        const wanted = new Set(paths);
        for (const record of out.split('\0')) {
            const name = nameOf(record);
            if (wanted.has(name))
                found.set(name, record);
        }
        return found;
    }
    async toplevel() {
        return (await this.run(['rev-parse', '--show-toplevel'])).trim();
    }
    dirs = null;
    /** HEAD and its branch, read from the git directory (a spawn per read costs more than the loop's own work). */
    async position() {
        if (!this.dirs) {
            const [git, common] = (await this.run(['rev-parse', '--absolute-git-dir', '--git-common-dir'])).trim().split('\n');
            this.dirs = { git, common: (0,external_node_path_.isAbsolute)(common) ? common : (0,external_node_path_.join)(this.cwd, common) };
        }
        const headFile = readRegularSync((0,external_node_path_.join)(this.dirs.git, 'HEAD'), 1 << 20);
        if (!headFile)
            throw new errors/* GitError */.XS('.git/HEAD is not a regular file the loop can read', '');
        const head = headFile.toString('utf8').trim();
        if (!head.startsWith('ref: '))
            return { head: /^[0-9a-f]{40,64}$/.test(head) ? head : null, branch: null };
        const ref = head.slice(5);
        const branch = ref.replace(/^refs\/heads\//, '');
        const loose = readRegularSync((0,external_node_path_.join)(this.dirs.common, ref), 1 << 20)?.toString('utf8') ?? null;
        if (loose !== null)
            return { head: loose.trim(), branch };
        const packed = readRegularSync((0,external_node_path_.join)(this.dirs.common, 'packed-refs'))?.toString('utf8') ?? '';
        const line = packed.split('\n').find((l) => l.endsWith(` ${ref}`));
        return { head: line ? line.split(' ')[0] : null, branch };
    }
    /** The git directory shared by every worktree of the repository (absolute). */
    async commonDir() {
        if (!this.dirs)
            await this.position();
        return this.dirs.common;
    }
    async gitDirs() {
        if (!this.dirs)
            await this.position();
        return this.dirs;
    }
}

// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __webpack_require__(77598);
// EXTERNAL MODULE: external "node:zlib"
var external_node_zlib_ = __webpack_require__(38522);
;// CONCATENATED MODULE: ./src/engine/os/git-objects.ts
// Git's loose objects read directly (a commit's tree, a tree's top-level names): the objects git has
// just written, read from the page cache instead of through a git process.




/** The body of a loose object git just wrote, checked against its name and type; null when not loose. */
function looseObject(commonDir, id, type) {
    const file = (0,external_node_path_.join)(commonDir, 'objects', id.slice(0, 2), id.slice(2));
    const z = readRegularSync(file, 64 << 20);
    const raw = z && readOr(() => (0,external_node_zlib_.inflateSync)(z), null);
    if (!raw ||
        (0,external_node_crypto_.createHash)(id.length === 64 ? 'sha256' : 'sha1')
            .update(raw)
            .digest('hex') !== id)
        return null;
    const nul = raw.indexOf(0);
    return raw.subarray(0, nul).toString('latin1').startsWith(`${type} `) ? raw.subarray(nul + 1) : null;
}
/** The names of a tree object's entries ("<mode> <name>\0" then the binary object id, `idBytes` long); null when cut short. */
function treeNames(body, idBytes) {
    const names = new Set();
    for (let at = 0; at < body.length;) {
        const nul = body.indexOf(0, at);
        if (nul < 0)
            return null;
        const entry = body.subarray(at, nul).toString('utf8');
        names.add(entry.slice(entry.indexOf(' ') + 1));
        at = nul + 1 + idBytes;
    }
    return names;
}
/** A checkout's objects by their id, read loose where git just wrote them, else through git. */
class ObjectReader {
    commonDir;
    git;
    /**
     * What was read of objects by their id (a commit's tree, a tree's top-level names): an object never
     * changes, and each iteration asks again about the commit the last one made. The last few are kept.
     */
    known = new Map();
    async remembered(key, read) {
        const hit = this.known.get(key);
        if (hit !== undefined)
            return hit;
        const value = await read();
        if (value === null)
            return null;
        if (this.known.size >= 8)
            this.known.delete(this.known.keys().next().value);
        this.known.set(key, value);
        return value;
    }
    constructor(commonDir, 
    /** A git call's output; a failure is an error unless allowed. */
    git) {
        this.commonDir = commonDir;
        this.git = git;
    }
    /** The tree of `commit`: read from its loose object when git wrote it as one (a new commit), else from git. */
    async commitTree(commit) {
        return (await this.remembered(`tree of ${commit}`, async () => {
            const tree = /^tree ([0-9a-f]{40,64})\n/.exec(looseObject(await this.commonDir(), commit, 'commit')
                ?.subarray(0, 80)
                .toString('latin1') ?? '')?.[1];
            return tree ?? (await this.git(['rev-parse', '--verify', `${commit}^{tree}`])).trim();
        }));
    }
    /** The names at the top of `tree`: from its loose object, else from git (a tree git found already packed). */
    topLevelNames(tree) {
        return this.remembered(`names in ${tree}`, () => this.readTopLevelNames(tree));
    }
    async readTopLevelNames(tree) {
        const body = looseObject(await this.commonDir(), tree, 'tree');
        if (!body)
            return new Set((await this.git(['ls-tree', '-z', '--name-only', tree], true)).split('\0').filter(Boolean));
        return treeNames(body, tree.length / 2);
    }
}

;// CONCATENATED MODULE: ./src/engine/os/git-settings.ts
// Git's own settings in a checkout (config, attributes, exclude, hooks): read before the agent runs
// and put back after it, so that nothing it planted there runs as the loop or the user.




/**
 * Git's own files in the checkout that could make git run commands or hide changes: its settings,
 * attributes, the exclude list (a pattern there hides a new file from status, so from the commit
 * the checks are judged on) and every hook (the user's next `git commit` would run it as them).
 */
function guardedFiles({ common, git }) {
    const hooks = (0,external_node_path_.join)(common, 'hooks');
    const real = readOr(() => (0,external_node_fs_.lstatSync)(hooks), null)?.isDirectory();
    // git runs a hook by its exact name; `*.sample` files (and changes to them) never run.
    const hookFiles = real
        ? (0,external_node_fs_.readdirSync)(hooks)
            .filter((name) => !name.endsWith('.sample'))
            .map((name) => (0,external_node_path_.join)(hooks, name))
        : [];
    return [(0,external_node_path_.join)(common, 'config'), (0,external_node_path_.join)(common, 'info', 'attributes'), (0,external_node_path_.join)(common, 'info', 'exclude'), (0,external_node_path_.join)(git, 'config.worktree'), ...hookFiles];
}
/** A regular file's bytes and mode; null when absent; a link or folder reads as neither (it differs from any file). */
function settingsFile(f) {
    const st = readOr(() => (0,external_node_fs_.lstatSync)(f), null);
    if (!st)
        return null;
    const data = st.isFile() ? readRegularSync(f) : null;
    return data ? { data, mode: st.mode & 0o7777 } : { data: Buffer.from(`not a file: ${st.mode}`), mode: -1 };
}
/** The settings files as they are now. */
function settingFiles(dirs) {
    return new Map(guardedFiles(dirs).map((f) => [f, settingsFile(f)]));
}
/** Puts git's settings back as they were (a hook the agent added removed); returns the files that had been changed. */
async function restoreSettingFiles(dirs, snap) {
    const changed = [];
    // A hooks folder made a link (or a file) goes first: nothing is read or written through it.
    const hooks = (0,external_node_path_.join)(dirs.common, 'hooks');
    const st = await (0,promises_.lstat)(hooks).catch(() => null);
    if (st && !st.isDirectory()) {
        changed.push('.git/hooks');
        await (0,promises_.rm)(hooks, { force: true });
    }
    for (const f of new Set([...snap.files.keys(), ...guardedFiles(dirs)])) {
        const before = snap.files.get(f) ?? null;
        const now = settingsFile(f);
        if (before === now || (before && now && before.mode === now.mode && before.data.equals(now.data)))
            continue;
        changed.push(f.slice(f.lastIndexOf('.git')));
        await (0,promises_.rm)(f, { recursive: true, force: true });
        if (!before)
            continue;
        await (0,promises_.mkdir)((0,external_node_path_.dirname)(f), { recursive: true });
        await (0,promises_.writeFile)(f, before.data, { mode: before.mode });
    }
    return changed;
}

;// CONCATENATED MODULE: ./src/engine/os/git.ts
// The few git operations the loop needs (GitCore, git-core.ts, talks to git).











// The names the rest of the engine takes from here.

/** The git operations the loop needs. */
class Git extends GitCore {
    async head() {
        return (await this.position()).head;
    }
    /** Sets a committer gitArgs for the loop's commits when the repository has none (CI runners). */
    async ensureIdentity() {
        const email = (await this.run(['config', 'user.email'], { allowFail: true })).trim();
        if (!email && !this.env.GIT_AUTHOR_EMAIL)
            this.gitArgs.push('-c', 'user.name=phuc-loop', '-c', 'user.email=phuc-loop@users.noreply.github.com');
    }
    /** Keeps loop-owned folders out of status and commits without touching the user's .gitignore. */
    async exclude(patterns) {
        let file = (await this.run(['rev-parse', '--git-path', 'info/exclude'])).trim();
        if (!(0,external_node_path_.isAbsolute)(file))
            file = (0,external_node_path_.join)(this.cwd, file);
        const existing = await (0,promises_.readFile)(file, 'utf8').catch(() => '');
        const lines = new Set(existing.split('\n'));
        const missing = patterns.filter((p) => !lines.has(p));
        if (missing.length) {
            await (0,promises_.mkdir)((0,external_node_path_.dirname)(file), { recursive: true });
            await (0,promises_.appendFile)(file, (existing && !existing.endsWith('\n') ? '\n' : '') + missing.join('\n') + '\n');
        }
    }
    /**
     * Changed and untracked paths; with `ignored`, the git-ignored ones too (code `!!`; a folder that
     * matches an ignore pattern as `name/`, not descended into), in the same call.
     */
    async status(o = {}) {
        const out = await this.run([
            'status',
            '--porcelain=v1',
            '-z',
            '--untracked-files=all',
            '--no-renames',
            '--ignore-submodules=all',
            ...(o.ignored ? ['--ignored=matching'] : []),
        ]);
        return out
            .split('\0')
            .filter(Boolean)
            .map((rec) => ({ code: rec.slice(0, 2), path: rec.slice(3) }));
    }
    /** Git's settings and the index as they are (before the agent runs), to put back or check after it. */
    async snapshotSettings() {
        return { files: settingFiles(await this.gitDirs()), index: await this.indexHash() };
    }
    /** Puts git's settings back as they were (a hook the agent added removed); returns the files that had been changed. */
    async restoreSettings(snap) {
        return restoreSettingFiles(await this.gitDirs(), snap);
    }
    /** The hash of the index file's bytes (null: none): the same bytes hold the same flags. */
    async indexHash() {
        if (!this.dirs)
            await this.position();
        const data = readRegularSync((0,external_node_path_.join)(this.dirs.git, 'index'));
        return data && (0,canonical/* sha256 */.sc)(data);
    }
    /**
     * Clears skip-worktree and assume-unchanged bits (they hide changes from status); returns their
     * paths. With `since`, nothing to do while the index holds the bytes it held then (the loop's own
     * index, which it never flags): a git process saved per iteration.
     */
    async clearIndexFlags(since) {
        if (since && since.index !== null && since.index === (await this.indexHash()))
            return [];
        const entries = (await this.run(['ls-files', '-v', '-z'])).split('\0').filter((l) => l.length > 2);
        // One mode per update-index call: a later mode option overrides an earlier one.
        const skip = entries.filter((l) => l[0] === 'S').map((l) => l.slice(2));
        const assumed = entries.filter((l) => /[a-z]/.test(l[0])).map((l) => l.slice(2));
        if (skip.length)
            await this.run(['update-index', '--no-skip-worktree', '-z', '--stdin'], { stdin: skip.join('\0') });
        if (assumed.length)
            await this.run(['update-index', '--no-assume-unchanged', '-z', '--stdin'], { stdin: assumed.join('\0') });
        return [...new Set([...skip, ...assumed])];
    }
    /** Tracked and untracked, not ignored, files of the work tree. */
    async listFiles() {
        return (await this.run(['ls-files', '-z', '--cached', '--others', '--exclude-standard'])).split('\0').filter(Boolean);
    }
    /** Puts `paths` back as they are in the index (a critic's stray edits); new files are removed. */
    async restoreFromIndex(paths) {
        if (paths.length === 0)
            return;
        const indexed = await this.indexed(paths);
        const restore = paths.filter((p) => indexed.has(p));
        // Exact names (checkout's pathspecs would be matched against every entry: quadratic).
        if (restore.length)
            await this.run(['checkout-index', '-f', '-z', '--stdin'], { stdin: restore.join('\0') });
        await Promise.all(paths.filter((p) => !indexed.has(p)).map((p) => this.removeInTree(p)));
    }
    /** Removes a file or link of the work tree, never through a folder that is a link (git checks out none beyond one). */
    async removeInTree(path) {
        if (ancestorInTheWay(this.cwd, path))
            return;
        await (0,promises_.unlink)((0,external_node_path_.join)(this.cwd, path)).catch(() => undefined);
    }
    /** HEAD's entries ("mode type id\tpath", as ls-tree writes them) of those of `paths` that are files (or links) there. */
    headEntries(paths) {
        return this.listAmong(['ls-tree', '-r', '-z', '--full-tree', 'HEAD'], paths, (r) => r.slice(r.indexOf('\t') + 1));
    }
    /** Paths among `paths` that are files (or links) in HEAD. */
    async inHead(paths) {
        return new Set((await this.headEntries(paths)).keys());
    }
    /**
     * Puts `paths` back as they are in HEAD: tracked ones restored, new ones removed. As `git checkout
     * HEAD -- <paths>`, by exact names: HEAD's entries into the index, then those files written out.
     */
    async restoreFromHead(paths) {
        const tracked = await this.headEntries(paths);
        const restore = paths.filter((p) => tracked.has(p));
        const remove = paths.filter((p) => !tracked.has(p));
        if (restore.length) {
            await this.run(['update-index', '--add', '--replace', '-z', '--index-info'], { stdin: restore.map((p) => tracked.get(p)).join('\0') });
            await this.run(['checkout-index', '-f', '-z', '--stdin'], { stdin: restore.join('\0') });
        }
        if (remove.length) {
            // Only entries of exactly that name: a folder's name would unstage its files.
            const indexed = await this.indexed(remove);
            const unstage = remove.filter((p) => indexed.has(p));
            if (unstage.length)
                await this.run(['update-index', '--force-remove', '-z', '--stdin'], { stdin: unstage.join('\0') });
            await Promise.all(remove.map((p) => this.removeInTree(p)));
        }
    }
    /** Stages `paths`, then returns the tree hash of the index, in one call of the git shell. */
    async stage(paths) {
        const git = ['git', ...this.gitArgs].map(shell_quote/* shellQuote */.Z).join(' ');
        const r = await this.exec(paths.length ? `${git} ${STAGE_FROM_STDIN.join(' ')} && ${git} write-tree` : `${git} write-tree`, paths.join('\0'));
        if (r.exitCode !== 0)
            throw new errors/* GitError */.XS(`staging failed (${r.exitCode}): ${r.stderr.trim()}`, r.stderr);
        return r.stdout.trim();
    }
    /**
     * What is staged, against HEAD, as a patch (binary files too). The tree's own attributes are not
     * read (a `.gitattributes` with `-diff` or `binary` would show a text change as a binary patch to
     * the evidence and the critic): the two trees are compared from an empty work tree and index, so
     * git tells binary from text by content alone; no textconv, no external diff. `tree`: the staged
     * tree as stage() returned it (the index unchanged since), which saves writing it again.
     */
    async stagedDiff(tree) {
        const git = ['git', ...this.gitArgs].map(shell_quote/* shellQuote */.Z).join(' ');
        if (!this.dirs)
            await this.position();
        // The empty folder is made and removed here, not by mktemp and rm: two processes fewer an iteration.
        const empty = await (0,promises_.mkdtemp)((0,external_node_path_.join)((0,external_node_os_.tmpdir)(), 'phuc-diff-'));
        const e = (0,shell_quote/* shellQuote */.Z)(empty);
        const script = [
            `t=${tree ? (0,shell_quote/* shellQuote */.Z)(tree) : `$(${git} write-tree)`} && d=${(0,shell_quote/* shellQuote */.Z)(this.dirs.git)} || exit 1`,
            `cd ${e} && GIT_INDEX_FILE=${e}/index ${git} --git-dir="$d" --work-tree=${e} diff --binary --no-color --no-ext-diff --no-textconv HEAD "$t"`,
        ].join('\n');
        try {
            const r = await this.exec(`(\n${script}\n)`);
            if (r.exitCode !== 0)
                throw new errors/* GitError */.XS(`git diff failed (${r.exitCode}): ${r.stderr.trim()}`, r.stderr);
            return r.stdout;
        }
        finally {
            await (0,promises_.rm)(empty, { recursive: true, force: true });
        }
    }
    /** Those of `paths` that are entries of the index (exactly that name, not a folder's files). */
    async indexed(paths) {
        return new Set((await this.listAmong(['ls-files', '-z', '--cached'], paths)).keys());
    }
    /**
     * The paths among `paths` that git refuses to stage (a conversion its attributes ask for fails, a
     * path beyond a link...), each with git's last line about it. Tried on a private copy of the
     * index, halving the paths until each refusal has its path: the index stays as it is.
     */
    async refusedToStage(paths) {
        if (!this.dirs)
            await this.position();
        const git = ['git', ...this.gitArgs].map(shell_quote/* shellQuote */.Z).join(' ');
        const idx = (0,shell_quote/* shellQuote */.Z)((0,external_node_path_.join)(this.dirs.git, 'phuc-loop-probe.index'));
        const real = (0,shell_quote/* shellQuote */.Z)((0,external_node_path_.join)(this.dirs.git, 'index'));
        const script = [
            `export GIT_INDEX_FILE=${idx}`,
            `trap 'rm -f ${idx}' EXIT`,
            `{ cp ${real} ${idx} 2>/dev/null || ${git} read-tree HEAD 2>/dev/null || ${git} read-tree --empty; } && ${git} ${STAGE_FROM_STDIN.join(' ')}`,
        ].join('\n');
        const out = [];
        const walk = async (group) => {
            const r = await this.exec(`(\n${script}\n)`, group.join('\0'));
            if (r.exitCode === 0)
                return;
            if (group.length === 1) {
                // git's error about the path ("'a/b' is beyond a symbolic link"), else its last word.
                const lines = r.stderr.trim().split('\n');
                out.push({ path: group[0], error: lines.find((l) => l.startsWith('error: ')) ?? lines.at(-1) ?? `exit ${r.exitCode}` });
                return;
            }
            const half = Math.ceil(group.length / 2);
            await walk(group.slice(0, half));
            await walk(group.slice(half));
        };
        if (paths.length)
            await walk(paths);
        return out;
    }
    async resetSoft(commit) {
        await this.run(['reset', '--soft', commit]);
    }
    /**
     * Stages `include` (the loop's own few files, at the top of the tree) and commits the index;
     * returns the new HEAD and its tree. `tracked`: the caller knows the index holds them as HEAD does
     * (see iteration.ts): `commit --include` then stages them in the same git process. Otherwise they
     * are added first: `--include` refuses an untracked name since git 2.45, and left it out before.
     */
    async commit(message, include = [], tracked = false) {
        const git = ['git', ...this.gitArgs].map(shell_quote/* shellQuote */.Z).join(' ');
        const names = include.map(shell_quote/* shellQuote */.Z).join(' ');
        const commit = `${git} commit -q --no-verify --allow-empty -F -`;
        const run = async (script) => {
            const r = await this.exec(script, message);
            if (r.exitCode !== 0)
                throw new errors/* GitError */.XS(`commit failed (${r.exitCode}): ${r.stderr.trim() || r.stdout.trim()}`, r.stderr);
            return this.headAndTree();
        };
        const added = () => run(`${git} add -A -- ${names} && ${commit}`);
        if (!include.length)
            return run(commit);
        if (!tracked)
            return added();
        // The caller was wrong (the index lost a name since): git 2.45 and later refuse, nothing is
        // committed; earlier ones leave the name out, and that commit is undone. Either way: added.
        const made = await run(`${commit} --include -- ${names}`).catch(() => null);
        if (!made)
            return added();
        const inTree = await this.topLevelNames(made.tree);
        if (include.every((name) => inTree?.has(name)))
            return made;
        await this.run(['reset', '--soft', 'HEAD~1']);
        return added();
    }
    /** HEAD and its tree. */
    async headAndTree() {
        const { head } = await this.position();
        if (!head)
            throw new errors/* GitError */.XS('the commit left no HEAD', '');
        return { commit: head, tree: await this.commitTree(head) };
    }
    objects = new ObjectReader(() => this.commonDir(), (args, allowFail) => this.run(args, { allowFail }));
    /** The tree of `commit`: read from its loose object when git wrote it as one (a new commit), else from git. */
    commitTree(commit) {
        return this.objects.commitTree(commit);
    }
    /** The names at the top of `tree`: from its loose object, else from git (a tree git found already packed). */
    topLevelNames(tree) {
        return this.objects.topLevelNames(tree);
    }
    /** The files of `tree` (for input globs judged on a committed tree, not the work tree). */
    async treeFiles(tree) {
        return (await this.run(['ls-tree', '-r', '-z', '--name-only', tree])).split('\0').filter(Boolean);
    }
    /**
     * Keeps `paths` as they are now in the work tree (the user's uncommitted work) in a commit on top
     * of HEAD under `ref`, through a private index: the index and the work tree stay as they are.
     * Returns the commit that holds them, and whether it is new (not when the ref already held this content).
     */
    async keepWork(paths, ref, message) {
        if (!this.dirs)
            await this.position();
        const git = ['git', ...this.gitArgs].map(shell_quote/* shellQuote */.Z).join(' ');
        const idx = (0,shell_quote/* shellQuote */.Z)((0,external_node_path_.join)(this.dirs.git, 'phuc-loop-keep.index'));
        const script = [
            `export GIT_INDEX_FILE=${idx}`,
            `trap 'rm -f ${idx}' EXIT`,
            `${git} read-tree HEAD && ${git} ${STAGE_FROM_STDIN.join(' ')} && t=$(${git} write-tree) || exit 1`,
            `prev=$(${git} rev-parse -q --verify ${(0,shell_quote/* shellQuote */.Z)(ref)})`,
            `[ -n "$prev" ] && [ "$(${git} rev-parse "$prev^{tree}")" = "$t" ] && { echo "= $prev"; exit 0; }`,
            `c=$(${git} commit-tree "$t" -p HEAD \${prev:+-p "$prev"} -m ${(0,shell_quote/* shellQuote */.Z)(message)}) && ${git} update-ref ${(0,shell_quote/* shellQuote */.Z)(ref)} "$c" && echo "+ $c"`,
        ].join('\n');
        // A subshell: the exported index and the trap end with it, not with the session.
        const r = await this.exec(`(\n${script}\n)`, paths.join('\0'));
        const kept = /^([=+]) ([0-9a-f]{40,64})$/m.exec(r.stdout);
        if (r.exitCode !== 0 || !kept)
            throw new errors/* GitError */.XS(`keeping the uncommitted work failed (${r.exitCode}): ${r.stderr.trim()}`, r.stderr);
        return { commit: kept[2], made: kept[1] === '+' };
    }
    /** The bytes of `path` in `commit` (null: not there). */
    async blob(commit, path) {
        const spec = (0,shell_quote/* shellQuote */.Z)(`${commit}:${path}`);
        const git = ['git', ...this.gitArgs].map(shell_quote/* shellQuote */.Z).join(' ');
        // Base64 through the shell session, which carries text: the file may be anything.
        const r = await this.exec(`${git} cat-file -e ${spec} && ${git} cat-file blob ${spec} | base64 -w 0`);
        return r.exitCode === 0 ? Buffer.from(r.stdout.trim(), 'base64') : null;
    }
    /**
     * Those of `paths` (tracked ones) whose work-tree content is what `ref` holds for them; none when
     * the ref does not exist.
     */
    async sameAs(ref, paths) {
        if (paths.length === 0)
            return new Set();
        // Too many paths for the command line: every file that differs, the paths picked out below.
        const limit = fitsArgv(paths) ? ['--', ...paths] : [];
        const r = await this.exec(['git', ...this.gitArgs, 'diff', '--no-ext-diff', '--name-only', '-z', ref, ...limit].map(shell_quote/* shellQuote */.Z).join(' '));
        if (r.exitCode !== 0)
            return new Set();
        const differ = new Set(r.stdout.split('\0').filter(Boolean));
        return new Set(paths.filter((p) => !differ.has(p)));
    }
    /** Whether `ancestor` is `commit` or one of its ancestors. */
    async isAncestor(ancestor, commit) {
        const r = await this.exec(['git', ...this.gitArgs, 'merge-base', '--is-ancestor', ancestor, commit].map(shell_quote/* shellQuote */.Z).join(' '));
        return r.exitCode === 0;
    }
    /** The tree of HEAD. */
    async headTree() {
        return (await this.run(['rev-parse', 'HEAD^{tree}'])).trim();
    }
    async countCommits(from, to) {
        return Number((await this.run(['rev-list', '--count', `${from}..${to}`])).trim());
    }
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
