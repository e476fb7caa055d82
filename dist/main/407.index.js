export const id = 407;
export const ids = [407];
export const modules = {

/***/ 32407:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  run: () => (/* binding */ run)
});

// EXTERNAL MODULE: ./node_modules/@actions/core/lib/core.js + 11 modules
var lib_core = __webpack_require__(91659);
// EXTERNAL MODULE: ./node_modules/@actions/github/lib/github.js
var github = __webpack_require__(61351);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(76760);
// EXTERNAL MODULE: ./src/engine/run/fsm.ts
var fsm = __webpack_require__(42502);
// EXTERNAL MODULE: ./src/engine/os/process.ts
var os_process = __webpack_require__(81612);
// EXTERNAL MODULE: ./src/engine/os/signals.ts
var os_signals = __webpack_require__(62660);
// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __webpack_require__(73024);
;// CONCATENATED MODULE: ./src/engine/os/descriptors.ts
// Descriptors the loop was started with besides stdin, stdout and stderr (`phuc-loop run 9<token`,
// a pipe a runner or a shell leaked) pass on to every process the loop starts: the agent and the
// checks would read them whatever their sandbox. Node opens its own with close-on-exec (its IPC
// channel too); one without it was inherited, and is closed before anything is started.

const O_CLOEXEC = 0o2000000;
/** Closes every inherited descriptor above 2 that lacks close-on-exec; returns their numbers (Linux; elsewhere none). */
function closeInheritedDescriptors() {
    let names;
    try {
        names = (0,external_node_fs_.readdirSync)('/proc/self/fd');
    }
    catch {
        return [];
    }
    const closed = [];
    for (const name of names) {
        const fd = Number(name);
        if (!(fd > 2))
            continue;
        let flags;
        try {
            flags = /^flags:\s*([0-7]+)$/m.exec((0,external_node_fs_.readFileSync)(`/proc/self/fdinfo/${name}`, 'utf8'))?.[1];
        }
        catch {
            continue; // the listing's own descriptor, closed since
        }
        if (flags === undefined || (parseInt(flags, 8) & O_CLOEXEC) !== 0)
            continue;
        (0,external_node_fs_.closeSync)(fd);
        closed.push(fd);
    }
    return closed;
}
/** The log line for what closeInheritedDescriptors closed. */
function inheritedNote(closed) {
    return `closed the file descriptor(s) ${closed.join(', ')} this process inherited: the agent and the checks would have inherited them too`;
}

// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(51455);
// EXTERNAL MODULE: ./node_modules/fflate/esm/index.mjs
var esm = __webpack_require__(51306);
;// CONCATENATED MODULE: ./src/action/zip.ts
// Extracts the evidence artifact (a ZIP, read by fflate) without trusting it: no absolute paths, no
// "..", no duplicate names, entry count and uncompressed sizes bounded before anything is inflated,
// every entry's size as declared. Entries are written as regular files only (never links). Integrity
// is not the ZIP's CRC (fflate does not check it): the download is checked against the digest GitHub
// recorded, and the tree's own hashes are then checked by the engine (verifyTree).



class UnsafeZip extends Error {
}
/** A safe relative path inside the target, or an error message. */
function checkName(name) {
    if (name.includes('\0'))
        return 'a NUL byte in the name';
    if (name.includes('\\'))
        return 'a backslash in the name';
    if (name.startsWith('/') || /^[A-Za-z]:/.test(name))
        return 'an absolute path';
    const parts = name.replace(/\/$/, '').split('/');
    if (parts.some((p) => p === '..' || p === '.' || p === ''))
        return 'a "..", "." or empty path segment';
    return null;
}
/** Reads every file of a ZIP into memory (checked), without writing anything. */
function readZipEntries(zip, limits = {}) {
    const maxFiles = limits.maxFiles ?? 100_000;
    const maxBytes = limits.maxBytes ?? 2 * 1024 ** 3;
    const declared = new Map();
    let entries = 0;
    let total = 0;
    // Called for every entry, before it is inflated: a refusal here costs no memory.
    const filter = (f) => {
        const bad = checkName(f.name);
        if (bad)
            throw new UnsafeZip(`entry ${JSON.stringify(f.name)}: ${bad}`);
        if (++entries > maxFiles)
            throw new UnsafeZip(`more than the ${maxFiles} entries allowed`);
        if (f.name.endsWith('/'))
            return false;
        if (declared.has(f.name))
            throw new UnsafeZip(`entry ${f.name}: appears twice`);
        if (f.compression !== 0 && f.compression !== 8)
            throw new UnsafeZip(`entry ${f.name}: compression method ${f.compression} is not supported`);
        total += f.originalSize;
        if (total > maxBytes)
            throw new UnsafeZip(`more than ${maxBytes} bytes uncompressed`);
        declared.set(f.name, f.originalSize);
        return true;
    };
    let files;
    try {
        files = (0,esm/* unzipSync */.AO)(zip, { filter });
    }
    catch (e) {
        if (e instanceof UnsafeZip)
            throw e;
        throw new UnsafeZip(`not a readable ZIP archive (${e.message})`);
    }
    const out = new Map();
    for (const [name, size] of declared) {
        const data = files[name];
        // An entry's output is bounded by its declared size; one that inflates to less is refused.
        if (data?.length !== size)
            throw new UnsafeZip(`entry ${name}: size differs from the directory`);
        out.set(name, Buffer.from(data.buffer, data.byteOffset, data.byteLength));
    }
    return out;
}
/** Writes the checked entries below `target` (which must not exist or be empty). */
async function extractZip(zip, target, limits) {
    const entries = readZipEntries(zip, limits);
    const root = (0,external_node_path_.resolve)(target);
    await (0,promises_.mkdir)(root, { recursive: true });
    for (const [name, data] of entries) {
        const dest = (0,external_node_path_.resolve)((0,external_node_path_.join)(root, name));
        if (!dest.startsWith(root + external_node_path_.sep))
            throw new UnsafeZip(`entry ${name}: outside the target`);
        await (0,promises_.mkdir)((0,external_node_path_.dirname)(dest), { recursive: true });
        await (0,promises_.writeFile)(dest, data, { flag: 'wx' });
    }
    return [...entries.keys()].sort();
}

// EXTERNAL MODULE: ./src/engine/os/atomic-write.ts
var atomic_write = __webpack_require__(64154);
;// CONCATENATED MODULE: ./src/action/artifact.ts
// Evidence across workflow runs: the post step uploads the evidence tree as one artifact per run,
// named after the PR (`<artifact-name>-pr-<number>`); the next run finds the newest one through the
// REST API, downloads it and extracts it (checked) into the evidence folder before the loop starts.
// @actions/artifact (with the Azure storage client) is loaded when an artifact is moved, not at start-up.
const artifactClient = async () => new (await Promise.all(/* import() */[__webpack_require__.e(830), __webpack_require__.e(906)]).then(__webpack_require__.bind(__webpack_require__, 45906))).DefaultArtifactClient();




function artifactNameFor(base, pr) {
    return `${base}-pr-${pr}`;
}
/**
 * The newest non-expired evidence artifact of this PR (one REST call). Artifacts of runs whose head
 * came from another repository (fork PR runs can upload under any name) are never trusted.
 */
async function findPreviousEvidence(o) {
    const { data } = await o.octokit.rest.actions.listArtifactsForRepo({ ...o.repo, name: o.name, per_page: 100 });
    const skipped = [];
    const candidates = data.artifacts
        .filter((a) => a.name === o.name)
        .filter((a) => {
        if (a.expired) {
            skipped.push(`artifact ${a.id} has expired`);
            return false;
        }
        const run = a.workflow_run;
        if (run?.repository_id !== undefined && run.head_repository_id !== undefined && run.repository_id !== run.head_repository_id) {
            skipped.push(`artifact ${a.id} comes from a run on another repository's head (a fork): not trusted`);
            return false;
        }
        return true;
    })
        .sort((a, b) => (Date.parse(b.created_at ?? '') || 0) - (Date.parse(a.created_at ?? '') || 0) || b.id - a.id);
    const a = candidates[0];
    if (!a)
        return { found: null, skipped };
    return {
        found: {
            id: a.id,
            name: a.name,
            runId: a.workflow_run?.id ?? 0,
            headBranch: a.workflow_run?.head_branch ?? null,
            headSha: a.workflow_run?.head_sha ?? null,
            createdAt: a.created_at,
            digest: a.digest ?? null,
            sizeInBytes: a.size_in_bytes,
        },
        skipped,
    };
}
class EvidenceDownloadError extends Error {
}
/**
 * Downloads an artifact of an earlier run (one REST call, then the blob) and extracts it into
 * `target`, which is emptied first. The zip's digest is checked against the one GitHub recorded.
 */
async function downloadEvidence(o) {
    const scratch = await (0,promises_.mkdtemp)((0,external_node_path_.join)(o.tempDir, 'phuc-loop-restore-'));
    try {
        const client = await artifactClient();
        const r = await client
            .downloadArtifact(o.artifact.id, {
            path: scratch,
            skipDecompress: true,
            expectedHash: o.artifact.digest ?? undefined,
            findBy: { token: o.token, workflowRunId: o.artifact.runId, repositoryOwner: o.repo.owner, repositoryName: o.repo.repo },
        })
            .catch((e) => {
            throw new EvidenceDownloadError(`could not download artifact ${o.artifact.id}: ${e.message}`);
        });
        if (r.digestMismatch)
            throw new EvidenceDownloadError(`artifact ${o.artifact.id}: the downloaded bytes do not match the digest GitHub recorded (${o.artifact.digest})`);
        const files = await (0,promises_.readdir)(scratch);
        if (files.length !== 1)
            throw new EvidenceDownloadError(`artifact ${o.artifact.id}: expected one archive, got ${files.length} file(s)`);
        const zip = await (0,promises_.readFile)((0,external_node_path_.join)(scratch, files[0]));
        await (0,promises_.rm)(o.target, { recursive: true, force: true });
        try {
            return await extractZip(zip, o.target);
        }
        catch (e) {
            await (0,promises_.rm)(o.target, { recursive: true, force: true });
            throw new EvidenceDownloadError(`artifact ${o.artifact.id} cannot be extracted safely: ${e.message}`);
        }
    }
    finally {
        await (0,promises_.rm)(scratch, { recursive: true, force: true });
    }
}
/** Files of the evidence tree worth uploading: everything but the run lock and half-written temp files. */
async function evidenceFiles(root) {
    const out = [];
    const walk = async (dir) => {
        for (const e of await readdir(dir, { withFileTypes: true })) {
            const p = join(dir, e.name);
            if (e.isDirectory())
                await walk(p);
            else if (e.isFile()) {
                const rel = relative(root, p);
                if (rel === 'run.lock' || isTempFile(rel))
                    continue;
                out.push(p);
            }
        }
    };
    if (await stat(root).then((s) => s.isDirectory(), () => false))
        await walk(root);
    return out.sort();
}
async function uploadEvidence(o) {
    const r = await (await artifactClient()).uploadArtifact(o.name, o.files, o.root, { retentionDays: o.retentionDays });
    if (!r.id)
        throw new Error(`the artifact service returned no id for ${o.name}`);
    return { id: r.id, size: r.size ?? 0 };
}
function artifactUrl(serverUrl, repo, runId, id) {
    return `${serverUrl}/${repo.owner}/${repo.repo}/actions/runs/${runId}/artifacts/${id}`;
}

// EXTERNAL MODULE: ./node_modules/@actions/github/lib/utils.js + 19 modules
var utils = __webpack_require__(85555);
// EXTERNAL MODULE: ./node_modules/@octokit/plugin-retry/dist-bundle/index.js
var dist_bundle = __webpack_require__(49735);
;// CONCATENATED MODULE: ./src/action/github.ts
// The REST client: @actions/github's octokit with @octokit/plugin-retry, so a transient 5xx or a
// dropped connection is retried (with back-off) instead of failing the loop, and every attempt has
// a time limit (a request GitHub never answers is a failed attempt, not a hung loop). Every request
// is counted, so the action can report how many API calls an iteration cost.



/** A positive number of ms from the environment, or the default. */
function msFromEnv(env, name, fallback, min) {
    const v = Number(env[name]);
    return env[name] !== undefined && env[name] !== '' && Number.isFinite(v) && v >= min ? v : fallback;
}
/** Base of the retry back-off in ms (retry k waits k² × base). Tests shorten it. */
function retryBaseMs(env = process.env) {
    return msFromEnv(env, 'PHUC_LOOP_API_RETRY_BASE_MS', 1000, 0);
}
/** Time limit of one request attempt in ms. Tests shorten it. */
function requestTimeoutMs(env = process.env) {
    return msFromEnv(env, 'PHUC_LOOP_API_TIMEOUT_MS', 30_000, 1);
}
function createClient(token) {
    let count = 0;
    const timeoutMs = requestTimeoutMs();
    // The toolkit's own fetch (it honours the runner's proxy settings), with a limit per attempt: the
    // retry plugin calls fetch again for each attempt, so each gets its own timer.
    const base = (utils/* defaults */.NT.request?.fetch ?? fetch);
    const timedFetch = (url, init) => {
        const limit = AbortSignal.timeout(timeoutMs);
        return base(url, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, limit]) : limit });
    };
    const octokit = github/* getOctokit */.Q(token, { retry: { retries: 3, retryAfterBaseValue: retryBaseMs() }, request: { ...utils/* defaults */.NT.request, fetch: timedFetch } }, dist_bundle/* retry */.L);
    octokit.hook.before('request', () => {
        count++;
    });
    return { octokit, calls: () => count };
}
/** The HTTP status of an API error; undefined when no answer arrived. */
function apiStatus(e) {
    const s = typeof e === 'object' && e !== null ? e.status : undefined;
    return typeof s === 'number' ? s : undefined;
}
/**
 * A failure worth another attempt: a 5xx, a dropped connection, a timeout, a rate limit (other 4xx
 * are refusals). A 5xx, a dropped connection or a timeout may arrive after GitHub applied a write,
 * so a write that failed so is looked up before it is sent again.
 */
function isTransient(e) {
    const s = apiStatus(e);
    return s === undefined || s >= 500 || s === 408 || s === 429;
}
/** A thrown value's stack (or text), for crash messages. */
function errorText(e) {
    return e instanceof Error ? (e.stack ?? e.message) : String(e);
}
/** A short description of an API error for logs and reports (status + message, no headers). */
function apiError(e) {
    const status = apiStatus(e);
    const message = typeof e === 'object' && e !== null ? e.message : undefined;
    const text = typeof message === 'string' ? message : '';
    return status ? `HTTP ${status}: ${text}`.trim() : text || String(e);
}

// EXTERNAL MODULE: ./src/engine/common/markdown.ts
var markdown = __webpack_require__(74129);
;// CONCATENATED MODULE: ./src/action/pause.ts
// EXIT_BLOCKED(BACKPRESSURE_SIGNAL) is a pause (SPEC: backpressure): the job summary and the PR
// comment say what paused the run and how to go on. The action knows its own stop sources (the
// STOP label, the workflow's cancellation); the engine's (the STOP file, disk use, an agent's rate
// limit) are told apart by the reason the engine gives for them.

function startAgain(t) {
    const rerun = 're-run the job from the workflow run page';
    if (t.kind === 'label')
        return `add the ${t.label ? `\`${t.label}\` ` : ''}label again (remove it first if it is still there), or ${rerun}`;
    if (t.kind === 'comment')
        return `comment the command that started it again, or ${rerun}`;
    return `${rerun}, or trigger the workflow again`;
}
function pauseOf(f) {
    if (f.stopReason !== 'BACKPRESSURE_SIGNAL')
        return null;
    // The detail quotes what the loop did not write (an agent's rate-limit message): inert in the markdown it goes into.
    const raw = f.detail ?? '';
    const detail = (0,markdown/* inert */.tJ)(raw);
    const pause = (source, what, first = '') => {
        const how = `${first}${startAgain(f.trigger)}: the next run continues from the evidence (iteration numbering and budgets carry on).`;
        return { source, what, howToGoOn: how.charAt(0).toUpperCase() + how.slice(1) };
    };
    const label = () => pause('stop-label', `the \`${f.stopLabel}\` label is on the pull request`, `remove the \`${f.stopLabel}\` label, then `);
    if (f.labelReason && raw === f.labelReason)
        return label();
    if (f.signal)
        return pause('cancel', `the workflow run was cancelled (${f.signal})`);
    if (f.labelReason)
        return label();
    if (/rate[ -]?limit/i.test(raw))
        return pause('rate-limit', `the agent hit a rate limit of its model service (${detail})`, 'wait until the limit resets, then ');
    if (/^disk use /.test(raw))
        return pause('disk', `the runner's disk is nearly full (${detail})`, 'free disk space (fewer build outputs and caches, or a larger runner), then ');
    const stopFile = /^(\S*STOP) exists$/.exec(raw)?.[1];
    if (stopFile)
        return pause('stop-file', `the stop file \`${(0,markdown/* inertCode */.gQ)(stopFile)}\` exists`, `delete \`${(0,markdown/* inertCode */.gQ)(stopFile)}\` (from the branch too, if it was committed), then `);
    return pause('other', detail || 'the loop was asked to stop');
}
/** The lead line of the job summary and the PR comment of a paused run. */
function pauseNote(p) {
    return `**Paused:** ${p.what}. **To go on:** ${p.howToGoOn}`;
}

;// CONCATENATED MODULE: ./src/action/permissions.ts
const WRITE = new Set(['admin', 'maintain', 'write']);
async function mayStart(o) {
    const { trigger: t } = o;
    if (t.kind === 'other')
        return { allowed: true, why: `${t.eventName} event (not a label or comment trigger)` };
    if (t.actorIsBot) {
        return o.allowedBots.includes(t.actor.toLowerCase())
            ? { allowed: true, why: `${t.actor} is in allowed-bots` }
            : { allowed: false, why: `${t.actor} is a bot and not in allowed-bots; bots start phuc-loop only when listed there` };
    }
    const { data } = await o.octokit.rest.repos.getCollaboratorPermissionLevel({ ...o.repo, username: t.actor });
    // role_name carries maintain (and custom roles); the legacy `permission` folds maintain into write.
    const d = data;
    const role = d.role_name || d.permission || 'none';
    const ok = WRITE.has(d.permission ?? '') || WRITE.has(d.role_name ?? '') || d.user?.permissions?.push === true;
    return ok
        ? { allowed: true, why: `${t.actor} has ${role} access` }
        : { allowed: false, why: `${t.actor} has ${role} access; a ${t.kind} starts phuc-loop only for actors with write, maintain or admin access` };
}

;// CONCATENATED MODULE: ./src/action/pull-request.ts
function triggerOf(eventName, payload, fallbackActor) {
    const actor = payload.sender?.login ?? fallbackActor;
    const actorIsBot = payload.sender?.type === 'Bot' || /\[bot\]$/i.test(actor);
    const kind = (eventName === 'pull_request' || eventName === 'pull_request_target') && payload.action === 'labeled'
        ? 'label'
        : eventName === 'issue_comment' || eventName === 'pull_request_review_comment' || eventName === 'pull_request_review'
            ? 'comment'
            : 'other';
    return { kind, eventName, actor, actorIsBot };
}
function fromRaw(p) {
    return {
        number: p.number,
        headRef: p.head.ref,
        headSha: p.head.sha,
        headRepo: p.head.repo?.full_name ?? null,
        baseRepo: p.base.repo.full_name,
        htmlUrl: p.html_url ?? null,
    };
}
class NoPullRequest extends Error {
}
/**
 * The pull request: the `pull-request` input wins; then a pull_request* payload (no API call);
 * then an issue comment on a PR (one call, pulls.get).
 */
async function resolvePullRequest(o) {
    const fetch = async (n) => fromRaw((await o.octokit.rest.pulls.get({ ...o.repo, pull_number: n })).data);
    if (o.input !== undefined)
        return fetch(o.input);
    if (o.payload.pull_request)
        return fromRaw(o.payload.pull_request);
    if (o.payload.issue) {
        if (!o.payload.issue.pull_request || !o.payload.issue.number)
            throw new NoPullRequest(`issue #${o.payload.issue.number ?? '?'} is not a pull request: phuc-loop runs on pull requests only`);
        return fetch(o.payload.issue.number);
    }
    throw new NoPullRequest(`the ${o.eventName} event names no pull request: trigger phuc-loop from pull_request (e.g. labeled) or issue_comment, or give the pull-request input`);
}
/** A PR whose head branch lives in another repository (or in a deleted one). */
function isFork(pr) {
    return pr.headRepo === null || pr.headRepo.toLowerCase() !== pr.baseRepo.toLowerCase();
}

// EXTERNAL MODULE: external "node:buffer"
var external_node_buffer_ = __webpack_require__(4573);
;// CONCATENATED MODULE: ./src/action/push.ts
// Pushing each iteration's commit to the PR head branch. Never forced: a rejected push means someone
// else pushed meanwhile and the loop stops EXIT_BLOCKED(BRANCH_MOVED). Transient failures (network,
// 5xx) are retried. The token reaches git only through this process's environment, never the agent's:
// credentials that actions/checkout persisted in .git/config are taken out while the loop runs, and
// a push is refused when the agent changed the git config that decides where credentials go.



/** Said in the job summary when the loop's commits were pushed without a push-token. */
const GITHUB_TOKEN_PUSH_WARNING = 'The iteration commits were pushed with `github-token` (by default `github.token`): GitHub starts no workflow for pushes made with `github.token`, ' +
    "so the pull request's checks did not run on them. Pass a GitHub App installation token or a fine-grained PAT (contents: write) as `push-token` " +
    '(the reusable workflow: the `PUSH_TOKEN` secret) to have them run.';
const REJECTED = /\[rejected\]|\[remote rejected\][^\n]*(?:stale|fetch first|non-fast-forward)|non-fast-forward|fetch first|\(stale info\)|Updates were rejected/i;
const TRANSIENT = /Could not resolve host|Connection (?:timed out|reset|refused)|Operation timed out|Failed to connect|RPC failed|early EOF|unexpected disconnect|remote end hung up|The requested URL returned error: (?:5\d\d|429)|HTTP\/2 stream \d+ was not closed|gnutls_handshake|SSL_(?:read|connect|ERROR)|TLS connection|Empty reply from server|transfer closed|Internal Server Error|Bad Gateway|Service Unavailable|Gateway Time-?out/i;
function classifyPushFailure(output) {
    if (REJECTED.test(output))
        return 'rejected';
    if (TRANSIENT.test(output))
        return 'transient';
    return 'fatal';
}
/** Local config keys that decide where a push goes and what runs with the credentials. */
const SENSITIVE_KEYS = '^(url\\..*|http\\..*|credential.*|core\\.hookspath|core\\.sshcommand|core\\.askpass|core\\.gitproxy|remote\\..*|include\\..*|includeif\\..*|protocol\\..*)$';
class BranchPusher {
    o;
    /** Credential settings taken out of .git/config (put back by restore()). */
    removedHeaders = [];
    removedFiles = [];
    configSnapshot = '';
    pushes = 0;
    constructor(o) {
        this.o = o;
    }
    get remoteUrl() {
        return `${this.o.serverUrl.replace(/\/$/, '')}/${this.o.repository}`;
    }
    async git(args, auth = false, raw = false) {
        const env = {};
        for (const [k, v] of Object.entries(this.o.env))
            if (v !== undefined)
                env[k] = v;
        env['GIT_TERMINAL_PROMPT'] = '0';
        if (auth) {
            // Appended after any GIT_CONFIG_* the runner (or a test harness) already set.
            // An empty value first clears any header from config files (no duplicate Authorization).
            const n = Number(env['GIT_CONFIG_COUNT'] ?? '0') || 0;
            const key = `http.${this.o.serverUrl.replace(/\/$/, '')}/.extraheader`;
            env[`GIT_CONFIG_KEY_${n}`] = key;
            env[`GIT_CONFIG_VALUE_${n}`] = '';
            env[`GIT_CONFIG_KEY_${n + 1}`] = key;
            env[`GIT_CONFIG_VALUE_${n + 1}`] = `AUTHORIZATION: basic ${external_node_buffer_.Buffer.from(`x-access-token:${this.o.token}`).toString('base64')}`;
            env['GIT_CONFIG_COUNT'] = String(n + 2);
        }
        const r = await this.o.runner.run({ command: 'git', args, cwd: this.o.cwd, env, timeoutMs: 300_000 });
        // `raw` only for reading back config values this process will write again (never logged).
        return { code: r.exitCode, out: raw ? r.stdout : this.o.scrub(`${r.stdout}\n${r.stderr}`.trim()) };
    }
    async sensitiveConfig() {
        const r = await this.git(['config', '--local', '--null', '--get-regexp', SENSITIVE_KEYS]);
        return r.code === 0 ? r.out : '';
    }
    /**
     * Takes persisted credentials out of .git/config (the agent must not read them), and checks that
     * the checkout is the tip of the PR head branch, so that pushing the iteration commits is a
     * fast-forward of that branch. Returns a reason to refuse, or null.
     */
    async prepare() {
        // actions/checkout ≤ v5 writes the header into .git/config; v6 into a file of RUNNER_TEMP that
        // .git/config includes (includeIf.gitdir:…path). Both are taken out while the agent runs.
        const local = async (pattern) => {
            const r = await this.git(['config', '--local', '--null', '--get-regexp', pattern], false, true);
            if (r.code !== 0)
                return [];
            return r.out
                .split('\0')
                .filter(Boolean)
                .map((rec) => {
                const i = rec.indexOf('\n');
                return { key: i < 0 ? rec : rec.slice(0, i), value: i < 0 ? '' : rec.slice(i + 1) };
            });
        };
        const headers = await local('^http\\..*\\.extraheader$');
        const includes = [];
        for (const inc of await local('^include(if\\..*)?\\.path$')) {
            const file = (0,external_node_path_.isAbsolute)(inc.value) ? inc.value : (0,external_node_path_.join)(this.o.cwd, '.git', inc.value);
            const text = await (0,promises_.readFile)(file, 'utf8').catch(() => '');
            if (/extraheader|credential/i.test(text)) {
                includes.push(inc);
                // The included file (actions/checkout v6 keeps it in RUNNER_TEMP, which the agent can read)
                // is removed too while the agent runs; its content is kept in memory and written back after.
                this.removedFiles.push({ file, text });
                await (0,promises_.unlink)(file).catch(() => undefined);
            }
        }
        this.removedHeaders = [...headers, ...includes];
        for (const key of new Set(this.removedHeaders.map((h) => h.key)))
            await this.git(['config', '--local', '--unset-all', key]);
        if (this.removedHeaders.length)
            this.o.log(`took ${this.removedHeaders.length} persisted credential setting(s) out of .git/config while the agent runs`);
        this.configSnapshot = await this.sensitiveConfig();
        const head = (await this.git(['rev-parse', 'HEAD'])).out.trim();
        const remote = await this.withRetries('git ls-remote', () => this.git(['ls-remote', '--heads', this.remoteUrl, `refs/heads/${this.o.branch}`], true));
        if (!remote.ok)
            return `CHECKOUT_NOT_PR_HEAD: cannot read ${this.o.branch} from ${this.remoteUrl}: ${remote.out}`;
        const tip = remote.out
            .split('\n')
            .find((l) => l.endsWith(`\trefs/heads/${this.o.branch}`))
            ?.split('\t')[0];
        if (!tip)
            return `CHECKOUT_NOT_PR_HEAD: the branch ${this.o.branch} does not exist in ${this.o.repository}`;
        if (tip !== head)
            return (`CHECKOUT_NOT_PR_HEAD: the checkout is at ${head.slice(0, 12)} but ${this.o.branch} is at ${tip.slice(0, 12)}; ` +
                `check out the pull request's head branch (actions/checkout with ref: the PR head ref) so the loop's commits can be pushed to it`);
        return null;
    }
    async withRetries(what, f) {
        const retries = this.o.retries ?? 3;
        const base = this.o.retryBaseMs ?? 1000;
        const sleep = this.o.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
        for (let attempt = 1;; attempt++) {
            const r = await f();
            if (r.code === 0)
                return { ok: true, out: r.out, attempts: attempt };
            const kind = classifyPushFailure(r.out);
            if (kind !== 'transient' || attempt > retries)
                return { ok: false, out: r.out, attempts: attempt, kind };
            const wait = base * 2 ** (attempt - 1);
            this.o.log(`${what} failed transiently (attempt ${attempt}): ${r.out.split('\n').at(-1)}; retrying in ${wait} ms`);
            await sleep(wait);
        }
    }
    /** Pushes `commit` to the branch; a refusal string (for LoopHost) or null when pushed. */
    async push(commit) {
        const now = await this.sensitiveConfig();
        if (now !== this.configSnapshot)
            return {
                ok: false,
                attempts: 0,
                reason: 'PUSH_REFUSED: the git configuration of the checkout (remotes, url rewrites, http or credential settings, hooks) changed during the iteration; the loop does not push with credentials into a configuration the agent could have changed',
            };
        this.pushes++;
        const r = await this.withRetries('git push', () => this.git(['-c', 'core.hooksPath=/dev/null', 'push', '--no-verify', '--porcelain', this.remoteUrl, `${commit}:refs/heads/${this.o.branch}`], true));
        if (r.ok)
            return { ok: true, attempts: r.attempts };
        if (r.kind === 'rejected')
            return {
                ok: false,
                attempts: r.attempts,
                reason: `BRANCH_MOVED: someone else pushed to ${this.o.branch} while the loop ran; its commit ${commit.slice(0, 12)} was not pushed and nothing was forced (the evidence artifact keeps the iteration)`,
            };
        return {
            ok: false,
            attempts: r.attempts,
            reason: `PUSH_FAILED: git push to ${this.o.branch} failed after ${r.attempts} attempt(s): ${r.out.split('\n').slice(-3).join(' ')}`,
        };
    }
    /** Puts the persisted credentials back (later steps of the job may rely on them). */
    async restore() {
        for (const f of this.removedFiles)
            await (0,promises_.writeFile)(f.file, f.text, { mode: 0o600 });
        this.removedFiles = [];
        for (const h of this.removedHeaders)
            await this.git(['config', '--local', '--add', h.key, h.value]);
        this.removedHeaders = [];
    }
}

// EXTERNAL MODULE: ./src/engine/os/secrets.ts + 2 modules
var secrets = __webpack_require__(71734);
;// CONCATENATED MODULE: ./src/action/scrub.ts
// Token values never leave the runner: comments, summaries, outputs, the console and the evidence
// artifact are scrubbed of every secret the action holds, in every form the engine's one scrubber
// knows (engine/os/secrets.ts); each form is also masked by the runner in the job log.


class Scrubber {
    values = new Set();
    engine = (0,secrets/* createScrubber */.HV)([]);
    /** Registers a secret: masked in the log (core.setSecret, every form) and scrubbed from everything we write. */
    add(secret) {
        if (!secret || this.values.has(secret))
            return;
        const forms = (0,secrets/* secretForms */.eo)(secret);
        if (forms.length === 0)
            return;
        this.values.add(secret);
        for (const f of forms)
            lib_core/* setSecret */.Pq(f);
        this.engine = (0,secrets/* createScrubber */.HV)(this.values);
    }
    /** Registers every secret value of an environment (the loop's tokens, the agent keys, names that look secret). */
    addEnv(env) {
        for (const v of (0,secrets/* secretValues */.VX)(env))
            this.add(v);
    }
    /** The registered values (not their encoded forms). */
    get secrets() {
        return [...this.engine.values];
    }
    scrub(text) {
        return this.engine.scrub(text);
    }
    contains(text) {
        return this.engine.contains(text);
    }
}

// EXTERNAL MODULE: ./node_modules/zod/v4/classic/external.js + 73 modules
var external = __webpack_require__(23905);
// EXTERNAL MODULE: ./src/engine/common/document.ts
var common_document = __webpack_require__(44505);
;// CONCATENATED MODULE: ./src/action/state.ts
// What the main step hands to the post step (core.saveState → STATE_<name>): where the evidence is,
// under which name to upload it, and the comment to link the uploaded artifact from.



const postStateSchema = external/* object */.Ikc({
    /** 'true' once main decided the evidence tree is this run's to upload. */
    upload: external/* boolean */.zMY(),
    evidenceDir: external/* string */.YjP().min(1),
    artifactName: external/* string */.YjP().min(1),
    retentionDays: external/* number */.aig().int().min(0),
    pullRequest: external/* number */.aig().int().nullable(),
    commentId: external/* number */.aig().int().nullable(),
    /** A file holding the last comment body (comment bodies are too big for state). */
    commentFile: external/* string */.YjP().nullable(),
    commentMode: external/* string */.YjP(),
    /** The git checkout the loop runs in (null when there is none). */
    checkout: external/* string */.YjP().nullable(),
    /**
     * Set once the engine returned: it published its evidence to evidenceDir. Until then (an abort,
     * a kill) the newest evidence is only in the loop's private folder, and the post step publishes it.
     */
    loopEnded: external/* boolean */.zMY(),
});
const KEY = 'phuc-loop';
function savePostState(s) {
    lib_core/* saveState */.LZ(KEY, JSON.stringify(s));
}
/** null when main saved nothing; EvidenceUnverifiable (naming STATE_phuc-loop and the field) when it does not parse. */
function readPostState() {
    const raw = core.getState(KEY);
    return raw ? parseDocument(`STATE_${KEY}`, raw, postStateSchema) : null;
}

;// CONCATENATED MODULE: ./src/action/stop-label.ts

class StopLabel {
    o;
    name = 'stop-label';
    inFlight = null;
    seen = null;
    polls = 0;
    constructor(o) {
        this.o = o;
    }
    /** The stop this label asked for in this run, or null. */
    get requested() {
        return this.seen;
    }
    check() {
        // Once seen, a STOP stays requested for this run (removing the label resumes the next run).
        if (this.seen)
            return Promise.resolve(this.seen);
        this.inFlight ??= this.poll().finally(() => {
            this.inFlight = null;
        });
        return this.inFlight;
    }
    async poll() {
        this.polls++;
        try {
            const { data } = await this.o.octokit.rest.issues.listLabelsOnIssue({ ...this.o.repo, issue_number: this.o.issue, per_page: 100 });
            const want = this.o.label.toLowerCase();
            if (data.some((l) => l.name.toLowerCase() === want))
                this.seen = `the ${this.o.label} label is on pull request #${this.o.issue}`;
            return this.seen;
        }
        catch (e) {
            // An unreachable API is not a stop request; the next poll asks again.
            this.o.warn(`could not read the labels of #${this.o.issue} (${apiError(e)}); STOP is checked again at the next poll`);
            return null;
        }
    }
}

;// CONCATENATED MODULE: ./src/action/job-summary.ts
// Writes the job summary (GITHUB_STEP_SUMMARY) through core.summary. Apart from summary.ts, which
// renders the halting report: the post step appends its artifact line without loading the report.


async function writeSummary(markdown) {
    if (!process.env['GITHUB_STEP_SUMMARY'])
        return;
    try {
        await lib_core/* summary */.z.addRaw(markdown, true).write();
    }
    catch (e) {
        lib_core/* warning */.$e(`could not write the job summary: ${e.message}`);
    }
}
/** For an abort: the event loop does not turn again, so the summary is appended synchronously. */
function writeSummarySync(markdown) {
    const file = process.env['GITHUB_STEP_SUMMARY'];
    if (!file)
        return;
    try {
        (0,external_node_fs_.appendFileSync)(file, markdown.endsWith('\n') ? markdown : `${markdown}\n`);
    }
    catch (e) {
        lib_core/* warning */.$e(`could not write the job summary: ${e.message}`);
    }
}

;// CONCATENATED MODULE: ./src/action/summary.ts
// The job summary's markdown: the halting report (the same markdown as `phuc-loop report`), scrubbed
// of secrets; refusals get a short summary that says why. job-summary.ts writes it.

/** The report's markdown; its renderer (with the report's schemas) loads only when a loop ended. */
async function reportMarkdown(report, agentsMd, ctx) {
    const { renderReportMarkdown } = await __webpack_require__.e(/* import() */ 122).then(__webpack_require__.bind(__webpack_require__, 42122));
    const notes = ctx.notes.length ? ctx.notes.map((n) => `> ${n}`).join('\n>\n') + '\n\n' : '';
    return ctx.scrub(notes + renderReportMarkdown(report, agentsMd));
}
function refusalMarkdown(status, stopReason, detail, ctx) {
    const lines = [`## phuc-loop: ${status} (${stopReason})`, '', `**Why:** ${(0,markdown/* inert */.tJ)(detail)}`, '', ...ctx.notes.map((n) => `- ${n}`)];
    return ctx.scrub(lines.join('\n') + '\n');
}

// EXTERNAL MODULE: ./src/action/outputs.ts
var outputs = __webpack_require__(18948);
;// CONCATENATED MODULE: ./src/action/abort.ts
// An aborted main step (a second SIGINT/SIGTERM): what it still writes, synchronously, before it
// exits — the outputs, the job summary and the comment the post step publishes.





/** The last words of an aborted main step: outputs, job summary, the comment for the post step. */
function lastWords(scene, signals, sig) {
    if (scene.reported)
        return;
    const detail = `the run was aborted by a second signal (${signals.received ?? sig}, then ${sig}) before its halting report was written; the evidence of the finished iterations is kept`;
    const pause = scene.pause?.(detail) ?? null;
    (0,outputs/* setOutputs */.n)({
        status: 'EXIT_BLOCKED',
        'stop-reason': 'BACKPRESSURE_SIGNAL',
        certificate: 'NONE',
        iterations: scene.iterations === undefined ? '' : String(scene.iterations),
    }, scene.scrub);
    writeSummarySync(refusalMarkdown('EXIT_BLOCKED', 'BACKPRESSURE_SIGNAL', detail, { notes: pause ? [pauseNote(pause)] : [], scrub: scene.scrub }));
    try {
        scene.comment?.(detail, pause);
    }
    catch {
        /* the comment is a view; the outputs and the summary are written */
    }
    lib_core/* setFailed */.C1(scene.scrub(`phuc-loop: EXIT_BLOCKED(BACKPRESSURE_SIGNAL): ${detail}`));
}

;// CONCATENATED MODULE: ./src/action/run-figures.ts
// The run's cost and tokens for the action's outputs, read from the published budget_log.json (what
// the agent reported, summed across runs). Empty where the agent reported none: a 0 would read as free.



const count = external/* number */.aig().int().min(0);
const budgetLog = external/* object */.Ikc({
    used: external/* object */.Ikc({
        cost_usd: external/* string */.YjP(),
        cost_reported_by_agent: external/* boolean */.zMY(),
        tokens: external/* object */.Ikc({ input: count, output: count, cache_read: count, cache_write: count }).nullable(),
    }),
});
async function runFigures(evidenceRoot) {
    const text = await (0,promises_.readFile)((0,external_node_path_.join)(evidenceRoot, 'budget_log.json'), 'utf8').catch(() => null);
    const r = text === null ? null : budgetLog.safeParse(JSON.parse(text));
    if (!r?.success)
        return { 'cost-usd': '', tokens: '' };
    const { cost_usd, cost_reported_by_agent, tokens } = r.data.used;
    return {
        'cost-usd': cost_reported_by_agent ? cost_usd : '',
        // input counts the cached parts already (cache_read and cache_write are shares of it).
        tokens: tokens ? String(tokens.input + tokens.output) : '',
    };
}

;// CONCATENATED MODULE: ./src/action/finish.ts
// The end of a loop that ran: the outputs, the job summary (the halting report) and the step's exit.








async function finish(f) {
    const { outcome, iterationsRun, stopLabel, apiCallsAtStart } = f.outcome;
    const r = outcome.report;
    const reportPath = (0,external_node_path_.join)(f.evidenceRoot, 'halting_report.json');
    const hasReport = await (0,promises_.readFile)(reportPath).then(() => true, () => false);
    (0,outputs/* setOutputs */.n)({
        status: outcome.status,
        'stop-reason': outcome.stop_reason,
        certificate: r.halting_certificate.type,
        residual: r.halting_certificate.final_residual_decimal_string ?? '',
        iterations: String(r.iterations_completed),
        glow: String(r.glow_history.at(-1)?.total ?? ''),
        'report-path': hasReport ? reportPath : '',
        // Only a convergence certifies a commit; any other end names none.
        'certified-commit': outcome.status === 'EXIT_CONVERGED' ? (r.halting_certificate.commit ?? '') : '',
        ...(await runFigures(f.evidenceRoot)),
    }, f.scrub);
    const loopCalls = f.api.calls() - apiCallsAtStart;
    lib_core/* info */.pq(`API calls in this step: ${f.api.calls()} — ${f.api.calls() - loopCalls} before the loop, ${loopCalls} during it for ${iterationsRun} iteration(s), ` +
        `of which ${stopLabel.polls} STOP label check(s); the final comment is sent by the post step`);
    const pause = f.pauseFor(outcome.stop_reason, r.detail);
    const notes = [...(pause ? [pauseNote(pause)] : []), ...f.notes];
    if (outcome.nothingToDo)
        notes.push(`${outcome.nothingToDo.charAt(0).toUpperCase()}${outcome.nothingToDo.slice(1)}. Push a change to the branch (or use the fresh input) to run the loop again.`);
    notes.push(`[Workflow run](${f.runUrl}) · the evidence tree is uploaded as \`${f.artifactName}\` when the job ends.`);
    const agentsMd = (await (0,promises_.readFile)((0,external_node_path_.join)(f.evidenceRoot, 'agents_md_final.md'), 'utf8').catch(() => '')) || undefined;
    await writeSummary(await reportMarkdown(r, agentsMd, { notes, scrub: f.scrub }));
    if (outcome.status !== 'EXIT_CONVERGED') {
        const why = r.detail ? `: ${r.detail}` : '';
        lib_core/* setFailed */.C1(f.scrub(`phuc-loop ended ${outcome.status}(${outcome.stop_reason})${outcome.nothingToDo ? ' (nothing to do: unchanged since that run)' : ''}${why}`));
        process.exitCode = outcome.exitCode;
    }
    else
        lib_core/* info */.pq(`phuc-loop ended ${outcome.status}(${outcome.stop_reason})`);
}

// EXTERNAL MODULE: external "node:perf_hooks"
var external_node_perf_hooks_ = __webpack_require__(643);
// EXTERNAL MODULE: ./src/engine/common/display.ts
var display = __webpack_require__(81184);
// EXTERNAL MODULE: external "node:timers/promises"
var external_node_timers_promises_ = __webpack_require__(58500);
;// CONCATENATED MODULE: ./src/action/comment.ts
// The PR comment: one sticky comment found by a hidden marker, written as the run starts and
// rewritten at each phase (or one comment per iteration, or none). It shows the iteration table,
// GLOW and the residual in one compact chart with a legend (mermaid, rendered by GitHub), the status
// and links to the run and the evidence artifact.
// Writes are idempotent: a comment is never created twice (see CommentPublisher).





const STICKY_MARKER = '<!-- phuc-loop:comment -->';
const ITERATION_MARKER = '<!-- phuc-loop:iteration -->';
const FINAL_MARKER = '<!-- phuc-loop:final -->';
const ARTIFACT_OPEN = '<!-- phuc-loop:artifact -->';
const ARTIFACT_CLOSE = '<!-- /phuc-loop:artifact -->';
/** GitHub refuses comment bodies over 65,536 characters. */
const MAX_BODY = 65_000;
/**
 * The failing checks, each with the first lines of its log in a fence no line can close: the
 * output is the checks', not the loop's, so it stays text (no HTML, link or mention).
 */
function failingSection(f, runUrl) {
    const out = [`**Failing checks (${f.round}):** the logs are in the evidence artifact of the [workflow run](${runUrl}).`, ''];
    for (const c of f.checks) {
        out.push(`\`${(0,markdown/* inertCode */.gQ)(c.id)}\` — \`${(0,markdown/* inertCode */.gQ)(c.evidence)}\`${c.lines.length ? ', first lines:' : ' (no output)'}`, '');
        if (!c.lines.length)
            continue;
        // eslint-disable-next-line no-control-regex -- control characters are not the log's text
        const lines = c.lines.map((l) => l.replace(/[\u0000-\u0008\u000b-\u001f\u007f\u2028\u2029]/g, ' '));
        const fence = '`'.repeat(Math.max(3, ...lines.flatMap((l) => [...l.matchAll(/`+/g)].map((m) => m[0].length + 1))));
        out.push(`${fence}text`, ...lines, fence, '');
    }
    if (f.more)
        out.push(`… and ${f.more} more failing check(s) in the artifact.`, '');
    return out;
}
const cell = (v) => (v === null || v === undefined || v === '' ? '—' : (0,markdown/* inert */.tJ)(String(v)).replace(/\|/g, '\\|'));
/** GLOW with its four parts in one cell ("50 (10·5·20·15)"): a comment's width has no room for five columns. */
const glowCell = (r) => `${cell(r.total)} (${[r.G, r.L, r.O, r.W].map(cell).join('·')})`;
/** What the agent reported for the step: cost and tokens ("$0.25 · 1.23M"), a dash for what it did not. */
const costCell = (r) => `${cell((0,display/* usd */.dR)(r.cost_usd, '—'))} · ${cell((0,display/* count */.U9)(r.tokens, '—'))}`;
/** The chart's colours, named in the legend under it (mermaid's xychart draws no legend itself). */
const GLOW_COLOUR = '#60a5fa';
const RESIDUAL_COLOUR = '#ef4444';
/**
 * One compact chart: GLOW (G + L + O + W, 0–100) as bars and the residual as a line, scaled to the
 * largest residual shown (100 %), with a legend. Decimal strings are plotted as numbers for the
 * picture only; the table and the evidence keep the values.
 */
function chart(rows) {
    const shown = rows.filter((r) => r.total !== null || (r.residual !== null && Number.isFinite(Number(r.residual))));
    if (!shown.length)
        return [];
    const residuals = shown.map((r) => (r.residual === null ? null : Number(r.residual)));
    const largest = Math.max(0, ...residuals.filter((v) => v !== null && Number.isFinite(v)));
    const pct = (v) => (v === null || !Number.isFinite(v) ? 0 : largest > 0 ? Math.round((v / largest) * 100) : 0);
    const hasResidual = residuals.some((v) => v !== null);
    return [
        '```mermaid',
        `%%{init: {"xyChart": {"width": 480, "height": 200}, "themeVariables": {"xyChart": {"plotColorPalette": "${GLOW_COLOUR}, ${RESIDUAL_COLOUR}"}}}}%%`,
        'xychart-beta',
        `  x-axis "iteration" [${shown.map((r) => r.iteration).join(', ')}]`,
        '  y-axis 0 --> 100',
        `  bar [${shown.map((r) => r.total ?? 0).join(', ')}]`,
        ...(hasResidual ? [`  line [${residuals.map(pct).join(', ')}]`] : []),
        '```',
        `<sub>🟦 bars: GLOW = G + L + O + W, each 0–25 (G growth: criteria newly met · L learning · O output: diff and report · W wins: toward the Northstar)` +
            (hasResidual ? ` · 🟥 line: residual, % of the largest shown (${(0,display/* num */.bu)(String(largest))}); lower is better` : '') +
            '</sub>',
    ];
}
function artifactLine(v) {
    const inner = v.artifactUrl
        ? `Evidence artifact: [\`${v.artifactName}\`](${v.artifactUrl})`
        : `Evidence artifact: \`${v.artifactName}\` (uploaded when the job ends)`;
    return `${ARTIFACT_OPEN}${inner}${ARTIFACT_CLOSE}`;
}
/** Replaces the artifact line of a rendered body (the post step knows the artifact's id). */
function withArtifactLink(body, name, url) {
    const re = new RegExp(`${ARTIFACT_OPEN}[\\s\\S]*?${ARTIFACT_CLOSE}`);
    return re.test(body) ? body.replace(re, artifactLine({ artifactName: name, artifactUrl: url })) : body;
}
function renderComment(v, marker = STICKY_MARKER) {
    const last = v.rows.at(-1);
    const head = v.iteration !== undefined
        ? `phuc-loop · iteration ${v.iteration} · ${v.status}`
        : `phuc-loop · ${v.status}${v.phase ? ` · ${v.phase}` : v.status === 'RUNNING' && last ? ` · iteration ${last.iteration} done` : ''}`;
    const out = [marker, `### ${head}${v.stopReason ? ` (${v.stopReason})` : ''}`, ''];
    if (v.pause)
        out.push(pauseNote(v.pause), '');
    // The goal (a pull request's configuration) and the detail (agent output, file names) are not the loop's text: inert.
    if (v.goal)
        out.push(`**Goal:** ${(0,markdown/* inert */.tJ)(v.goal)}`, '');
    if (v.detail)
        out.push(`**Why:** ${(0,markdown/* inert */.tJ)(v.detail)}`, '');
    let rows = v.rows;
    let dropped = 0;
    const table = () => [
        '| iter | GLOW (G·L·O·W) | residual | certificate | northstar | cost · tokens |',
        '|---:|---:|---:|---|---:|---:|',
        ...(v.baseline ? [`| baseline | — | ${cell((0,display/* num */.bu)(v.baseline.residual, '—'))} | ${v.baseline.met}/${v.baseline.criteria} met | — | — |`] : []),
        ...(dropped ? [`| … | | | ${dropped} earlier iteration(s) in the artifact | | |`] : []),
        ...rows.map((r) => `| ${r.commit ? `[${r.iteration}](${v.repoUrl}/commit/${r.commit} "commit ${r.commit.slice(0, 7)}")` : r.iteration} | ${glowCell(r)} | ${cell((0,display/* num */.bu)(r.residual, '—'))} | ${cell(r.certificate)} | ${cell((0,display/* num */.bu)(r.northstar_distance, '—'))} | ${costCell(r)} |`),
    ];
    const tail = [
        ...(v.budget ? [`Budget used: ${v.budget}`, ''] : []),
        `[Workflow run](${v.runUrl}) · ${artifactLine(v)}`,
        '',
        `<sub>Add the \`${v.stopLabel}\` label to stop the loop. ${marker === STICKY_MARKER ? 'This comment is rewritten as the run goes on.' : ''}</sub>`,
    ];
    let body = '';
    for (;;) {
        body = [
            ...out,
            ...(rows.length || dropped || v.baseline ? [...table(), ''] : []),
            ...(rows.length || dropped ? [] : ['_No iteration has finished yet._', '']),
            ...(v.failing ? failingSection(v.failing, v.runUrl) : []),
            ...chart(rows),
            '',
            ...tail,
        ].join('\n');
        if (body.length <= MAX_BODY || rows.length <= 1)
            break;
        const cut = Math.max(1, Math.floor(rows.length / 4));
        dropped += cut;
        rows = rows.slice(cut);
    }
    return body;
}
/** Attempts at creating one comment; between them the comment is looked up (it may exist by then). */
const CREATE_ATTEMPTS = 4;
const isSticky = (body) => body.startsWith(STICKY_MARKER);
/**
 * Finds, creates and rewrites the action's comment(s); a failure is a warning, never a stop.
 *
 * A create (POST) is never retried blindly: a 5xx, a dropped connection or a timeout may come after
 * GitHub created the comment, so the comment is looked up (by its marker; by its exact body for
 * per-iteration comments) before any create and again after every failed one, and created again
 * only when it is not there. An update (PATCH) is idempotent: the client retries it with back-off.
 * A lookup that finds more than one sticky comment of the same author keeps the oldest and deletes
 * the others, so there is never more than one.
 */
class CommentPublisher {
    o;
    id = null;
    /** Whether the comment's existence is known (a lookup ran, or this publisher wrote it). */
    known = false;
    lastBody = null;
    constructor(o) {
        this.o = o;
        if (o.knownId) {
            this.id = o.knownId;
            this.known = true;
        }
    }
    get commentId() {
        return this.id;
    }
    /** Publishes a body; returns the comment, or null when the mode is off or the API failed. */
    async publish(body) {
        if (this.o.mode === 'off')
            return null;
        const text = this.o.scrub(body);
        try {
            const c = this.o.mode === 'per-iteration' ? await this.create(text, (b) => b === text) : await this.upsert(text);
            this.lastBody = text;
            return c;
        }
        catch (e) {
            this.o.warn(`could not write the pull request comment (${apiError(e)}); the loop goes on`);
            return null;
        }
    }
    async upsert(text) {
        if (!this.known) {
            this.id = (await this.lookup(isSticky))?.id ?? null;
            this.known = true;
        }
        if (this.id !== null) {
            const updated = await this.update(this.id, text);
            if (updated)
                return updated;
            this.id = null; // deleted by someone meanwhile: write a new one
        }
        const c = await this.create(text, isSticky);
        this.id = c.id;
        // A sticky comment found by the lookup may hold an older body.
        return c.body === text ? c : ((await this.update(c.id, text)) ?? c);
    }
    /** null when the comment no longer exists. */
    async update(id, text) {
        try {
            const { data } = await this.o.octokit.rest.issues.updateComment({ ...this.o.repo, comment_id: id, body: text });
            return { id: data.id, url: data.html_url };
        }
        catch (e) {
            if (apiStatus(e) === 404)
                return null;
            throw e;
        }
    }
    /** Creates the comment unless a failed attempt did; `mine` recognises it in a lookup. */
    async create(text, mine) {
        for (let attempt = 1;; attempt++) {
            try {
                const { data } = await this.o.octokit.rest.issues.createComment({ ...this.o.repo, issue_number: this.o.issue, body: text, request: { retries: 0 } });
                this.known = true;
                return { id: data.id, url: data.html_url, body: text };
            }
            catch (e) {
                // It may exist all the same: until a lookup says, the next publish looks before it writes.
                this.known = false;
                if (!isTransient(e) || attempt >= CREATE_ATTEMPTS)
                    throw e;
                await (0,external_node_timers_promises_.setTimeout)(attempt * attempt * (this.o.retryBaseMs ?? 1000));
                const found = await this.lookup(mine);
                this.known = true;
                if (found)
                    return { id: found.id, url: found.html_url, body: found.body ?? '' };
            }
        }
    }
    /** The comment `mine` recognises (sticky: the oldest of its author's, the others deleted). */
    async lookup(mine) {
        const all = await this.o.octokit.paginate(this.o.octokit.rest.issues.listComments, {
            ...this.o.repo,
            issue_number: this.o.issue,
            per_page: 100,
        });
        const matching = all.filter((c) => mine(c.body ?? '')).sort((a, b) => a.id - b.id);
        if (this.o.mode !== 'sticky')
            return matching.at(0);
        // The action's own comments are written by a bot (the workflow token); a marker in a person's
        // comment only counts when no bot wrote one.
        const byBot = matching.filter((c) => c.user?.type === 'Bot');
        const candidates = byBot.length ? byBot : matching;
        const keep = candidates.at(0);
        for (const dup of candidates.slice(1).filter((c) => c.user?.login === keep?.user?.login)) {
            try {
                await this.o.octokit.rest.issues.deleteComment({ ...this.o.repo, comment_id: dup.id });
            }
            catch (e) {
                if (apiStatus(e) !== 404)
                    this.o.warn(`could not delete the duplicate pull request comment ${dup.id} (${apiError(e)})`);
            }
        }
        return keep;
    }
}

// EXTERNAL MODULE: ./src/action/inputs.ts
var inputs = __webpack_require__(81729);
;// CONCATENATED MODULE: ./src/action/progress.ts
function rowsOf(report, commits = new Map()) {
    return withCommits(report.iteration_rows, commits);
}
function withCommits(rows, commits) {
    return rows.map((r) => ({ ...r, commit: commits.get(r.iteration) }));
}
/** The comment's status line for a phase. */
function phaseLine(p) {
    switch (p.phase) {
        case 'baseline':
            return 'baseline: the criteria run on the branch head';
        case 'head':
            return `the branch head is judged before iteration ${p.iteration}`;
        case 'agent':
            return `iteration ${p.iteration}: the agent is working`;
        case 'checks':
            return `iteration ${p.iteration}: the checks run on the agent's change`;
    }
}

;// CONCATENATED MODULE: ./src/action/loop-on-pr.ts
// The engine's loop on the pull request: the PR comment follows every phase (sticky) or iteration,
// each iteration's commit is pushed, the STOP label and the signals stop it, and the comment's final
// body is handed to the post step. The engine's modules load here, when a run gets this far.











async function loop(a) {
    const scrub = (s) => a.scrubber.scrub(s);
    const { octokit } = a.api;
    const { stopLabel } = a;
    const comments = new CommentPublisher({
        octokit,
        repo: a.repo,
        issue: a.pr.number,
        mode: a.inputs.comment,
        warn: (m) => lib_core/* warning */.$e(m),
        scrub,
        retryBaseMs: retryBaseMs(),
    });
    const commits = new Map();
    const links = { runUrl: a.runUrl, repoUrl: a.repoUrl, artifactName: a.artifactName, stopLabel: a.inputs['stop-label'] };
    const budgetLine = (report) => report?.budget_use
        ? `iterations ${report.budget_use.iterations} · seconds ${report.budget_use.seconds} · cost ${(0,display/* costUse */.Hq)(report.budget_use.cost_usd)}`
        : null;
    const view = (report, rows, extra) => ({
        status: report.status,
        stopReason: report.stop_reason,
        detail: report.detail,
        goal: report.goal,
        rows,
        budget: budgetLine(report),
        ...links,
        ...shown,
        pause: a.pauseFor(report.stop_reason, report.detail),
        ...extra,
    });
    /** The body the post step publishes (with the artifact link); main never spends a call on it. */
    const handToPost = async (body) => {
        await (0,promises_.writeFile)(a.commentFile, scrub(body)).catch(() => undefined);
        notePostComment();
    };
    // The comment's writes go out one after the other, in the order the run made them: the phase
    // events are not awaited by the loop, and a later body must never be overwritten by an earlier one.
    let writes = Promise.resolve();
    const inTurn = (write) => {
        writes = writes.then(write).then(() => undefined, (e) => lib_core/* warning */.$e(`the PR comment was not updated: ${scrub(errorText(e))}`));
    };
    const sticky = a.inputs.comment === 'sticky';
    // A run the STOP label stops at once writes no RUNNING comment (the post step writes the paused
    // one): the first write waits for one STOP check, and none goes out once a stop is asked for.
    let firstStopCheck = null;
    const stopping = () => stopLabel.requested !== null || a.signals.received !== null;
    const notePostComment = () => {
        if (a.post.commentId !== comments.commentId || a.post.commentFile !== a.commentFile) {
            a.post.commentId = comments.commentId;
            a.post.commentFile = a.commentFile;
            savePostState(a.post);
        }
    };
    let lastReport = null;
    // The baseline row and the failing checks, read from the evidence before each write (an abort reuses the last).
    const { evidenceView } = await Promise.all(/* import() */[__webpack_require__.e(990), __webpack_require__.e(188), __webpack_require__.e(135)]).then(__webpack_require__.bind(__webpack_require__, 17135));
    let shown = { baseline: null, failing: null };
    // While the loop runs its evidence is written in the loop home (the phase events name it); it is published to the checkout at the end.
    let evidenceDir = a.evidenceRoot;
    const readShown = async () => {
        shown = await evidenceView(evidenceDir, lastReport).catch(() => shown);
    };
    if (a.inputs.comment !== 'off')
        a.scene.comment = (detail, pause) => {
            const rows = lastReport ? rowsOf(lastReport, commits) : [];
            const v = lastReport
                ? { ...view(lastReport, rows, {}), status: 'EXIT_BLOCKED', stopReason: 'BACKPRESSURE_SIGNAL', detail, pause }
                : { status: 'EXIT_BLOCKED', stopReason: 'BACKPRESSURE_SIGNAL', detail, pause, rows, ...links, ...shown };
            (0,external_node_fs_.writeFileSync)(a.commentFile, scrub(renderComment(v, a.inputs.comment === 'per-iteration' ? FINAL_MARKER : STICKY_MARKER)));
            notePostComment();
        };
    let iterationsRun = 0;
    const apiCallsAtStart = a.api.calls();
    // Secrets the engine scrubs from evidence but never hands to the agent (names in PHUC_LOOP_SECRET_VARS).
    const extraSecrets = {};
    a.scrubber.secrets.forEach((v, i) => (extraSecrets[`PHUC_LOOP_ACTION_SECRET_${i}`] = v));
    const env = {
        ...process.env,
        // Claude Code reads it from its environment; the key proxy holds it like an API key.
        ...(a.inputs['claude-code-oauth-token'] ? { CLAUDE_CODE_OAUTH_TOKEN: a.inputs['claude-code-oauth-token'] } : {}),
        ...extraSecrets,
        PHUC_LOOP_SECRET_VARS: [process.env['PHUC_LOOP_SECRET_VARS'] ?? '', ...Object.keys(extraSecrets)].filter(Boolean).join(','),
    };
    const { runLoop } = await Promise.all(/* import() */[__webpack_require__.e(990), __webpack_require__.e(292), __webpack_require__.e(830), __webpack_require__.e(462), __webpack_require__.e(188), __webpack_require__.e(894), __webpack_require__.e(747)]).then(__webpack_require__.bind(__webpack_require__, 10747));
    const outcome = await runLoop({
        cwd: a.root,
        configPath: a.configPath,
        runner: new os_process/* NodeProcessRunner */.u(),
        clock: { monotonicMs: () => external_node_perf_hooks_.performance.now() },
        log: a.log,
        env,
        stopSources: [a.signals.stop, stopLabel],
        signal: a.signals.signal,
        isolation: a.inputs.isolation,
        keyProxy: a.inputs['key-proxy'],
        agentOverride: a.inputs.agent,
        modelOverride: a.inputs.model,
        budgetOverrides: (0,inputs/* budgetOverrides */.P$)(a.inputs),
        fresh: a.inputs.fresh,
        pollMs: Math.round(a.inputs['poll-seconds'] * 1000),
        host: {
            phase: (p) => {
                // What an abort (a second signal) reports as done: the iterations on record as this phase starts.
                a.scene.iterations = p.rows.length;
                evidenceDir = p.evidenceRoot;
                if (!sticky)
                    return;
                // Sticky: the comment is there from the baseline on, with the phase the run is in.
                const running = { status: 'RUNNING', phase: phaseLine(p), goal: p.goal, rows: withCommits(p.rows, commits), budget: budgetLine(lastReport), ...links };
                firstStopCheck ??= stopLabel.check();
                inTurn(async () => {
                    await firstStopCheck;
                    if (stopping())
                        return;
                    await readShown();
                    const body = renderComment({ ...running, ...shown }, STICKY_MARKER);
                    await comments.publish(body);
                    await handToPost(body);
                });
            },
            afterIteration: async ({ iteration, commit, report }) => {
                iterationsRun++;
                commits.set(iteration, commit);
                lastReport = report;
                a.scene.iterations = report.iterations_completed;
                if (a.pusher) {
                    const pushed = await a.pusher
                        .push(commit)
                        .catch((e) => ({ ok: false, attempts: 1, reason: `PUSH_FAILED: ${e.message}` }));
                    if (!pushed.ok) {
                        lib_core/* warning */.$e(scrub(pushed.reason));
                        return scrub(pushed.reason);
                    }
                    lib_core/* info */.pq(`iter ${iteration}: pushed ${commit.slice(0, 12)} to ${a.pr.headRef}${pushed.attempts > 1 ? ` (after ${pushed.attempts} attempts)` : ''}`);
                }
                // The comment is a view: a failure to render or send it is a warning, never a stop. A sticky
                // one shows this iteration's row with the next phase (or the post step's final state).
                if (sticky) {
                    inTurn(async () => {
                        await readShown();
                        await handToPost(renderComment(view(report, rowsOf(report, commits), {}), STICKY_MARKER));
                    });
                    // The iteration ends with its comment writes done (a hung API shows here, before the report).
                    await writes;
                }
                else if (a.inputs.comment === 'per-iteration')
                    try {
                        const rows = rowsOf(report, commits).filter((r) => r.iteration === iteration);
                        await readShown();
                        const body = renderComment(view(report, rows, { iteration }), ITERATION_MARKER);
                        await comments.publish(body);
                        await handToPost(body);
                    }
                    catch (e) {
                        lib_core/* warning */.$e(`iter ${iteration}: the PR comment was not updated: ${scrub(e.message)}`);
                    }
                return null;
            },
        },
    });
    await writes;
    // The halting report exists and the evidence is published: an abort from here on leaves them.
    a.scene.reported = true;
    a.post.loopEnded = true;
    savePostState(a.post);
    // The final state of the comment (the halting status replaces RUNNING) is published by the post
    // step together with the link to the evidence artifact: one call instead of two.
    if (!outcome.nothingToDo && a.inputs.comment !== 'off') {
        const rows = rowsOf(outcome.report, commits);
        lastReport = outcome.report;
        evidenceDir = a.evidenceRoot;
        await readShown();
        await handToPost(renderComment(view(outcome.report, rows, {}), a.inputs.comment === 'per-iteration' ? FINAL_MARKER : STICKY_MARKER));
    }
    return { outcome, comments, commits, stopLabel, apiCallsAtStart, iterationsRun };
}

;// CONCATENATED MODULE: ./src/action/run.ts
// The main step once its inputs are valid (start.ts): the pull request → who asked → evidence restored from the last run's
// artifact → the engine's loop (STOP label and cancellation as backpressure; after each iteration the
// commit is pushed and the PR comment rewritten) → outputs, job summary, the action's exit.
// Cancellation: the first SIGINT/SIGTERM pauses the run (the report is written); a second one
// aborts at once, after writing the outputs, the summary and the comment for the post step.
// Here: the steps up to the loop; the loop on the PR is loop-on-pr.ts, its end finish.ts, an abort abort.ts.






















// The engine (and what only a running loop needs) is loaded once the run gets that far: a refusal,
// and the first output of every run, come before it (bench/startup.ts measures it).
const engine = () => Promise.all(/* import() */[__webpack_require__.e(990), __webpack_require__.e(292), __webpack_require__.e(830), __webpack_require__.e(462), __webpack_require__.e(188), __webpack_require__.e(894), __webpack_require__.e(747)]).then(__webpack_require__.bind(__webpack_require__, 10747));
/** A refusal before the loop starts: the action's own terminal status, never a silent success. */
class Refusal extends Error {
    status;
    stopReason;
    detail;
    constructor(status, stopReason, detail) {
        super(detail);
        this.status = status;
        this.stopReason = stopReason;
        this.detail = detail;
    }
}
const coreLogger = (scrub) => ({
    info: (m) => lib_core/* info */.pq(scrub(m)),
    warn: (m) => lib_core/* warning */.$e(scrub(m)),
    error: (m) => lib_core/* error */.z3(scrub(m)),
});
async function gitToplevel(runner, cwd) {
    const r = await runner.run({
        command: 'git',
        args: ['rev-parse', '--show-toplevel'],
        cwd,
        env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '' },
    });
    return r.exitCode === 0 ? r.stdout.trim() : null;
}
/** The main step once its inputs are valid (start.ts); never rejects (a crash becomes core.setFailed with exit code 1). */
async function run(inputs) {
    const closed = closeInheritedDescriptors();
    if (closed.length)
        lib_core/* info */.pq(`phuc-loop: ${inheritedNote(closed)}`);
    const scrubber = new Scrubber();
    const scene = { scrub: (s) => scrubber.scrub(s) };
    const signals = (0,os_signals/* installSignalStop */.qE)({ meaning: 'workflow cancellation', notify: (m) => lib_core/* warning */.$e(m), onAbort: (sig) => lastWords(scene, signals, sig) });
    try {
        await runMain(inputs, scrubber, signals, scene);
    }
    catch (e) {
        lib_core/* setFailed */.C1(`phuc-loop crashed: ${errorText(e)}`);
        process.exitCode = fsm/* EXIT_CODES */.ai.CRASH;
    }
    finally {
        signals.dispose();
    }
}
async function runMain(inputs, scrubber, signals, scene) {
    const scrub = (s) => scrubber.scrub(s);
    scrubber.add(inputs['github-token']);
    if (inputs['push-token'])
        scrubber.add(inputs['push-token']);
    if (inputs['claude-code-oauth-token'])
        scrubber.add(inputs['claude-code-oauth-token']);
    scrubber.addEnv(process.env);
    const api = createClient(inputs['github-token']);
    try {
        await main(inputs, api, scrubber, signals, scene);
    }
    catch (e) {
        if (e instanceof Refusal) {
            (0,outputs/* setOutputs */.n)({ status: e.status, 'stop-reason': e.stopReason, certificate: 'NONE', iterations: '0' }, scrub);
            await writeSummary(refusalMarkdown(e.status, e.stopReason, e.detail, { notes: [], scrub }));
            lib_core/* setFailed */.C1(scrub(`phuc-loop: ${e.status}(${e.stopReason}): ${e.detail}`));
            process.exitCode = fsm/* EXIT_CODES */.ai[e.status];
            return;
        }
        lib_core/* setFailed */.C1(scrub(`phuc-loop crashed: ${errorText(e)}`));
        process.exitCode = fsm/* EXIT_CODES */.ai.CRASH;
    }
}
async function main(inputs, api, scrubber, signals, scene) {
    const scrub = (s) => scrubber.scrub(s);
    const log = coreLogger(scrub);
    const ctx = github/* context */._;
    const repo = ctx.repo;
    const serverUrl = ctx.serverUrl;
    const repoUrl = `${serverUrl}/${repo.owner}/${repo.repo}`;
    const runUrl = `${repoUrl}/actions/runs/${ctx.runId}`;
    const octokit = api.octokit;
    const runner = new os_process/* NodeProcessRunner */.u();
    const token = inputs['github-token'];
    // 1. The pull request, and whether this actor may start a loop on it.
    const payload = ctx.payload;
    const trigger = triggerOf(ctx.eventName, payload, ctx.actor);
    let pr;
    try {
        pr = await resolvePullRequest({ octokit, repo, eventName: ctx.eventName, payload, input: inputs['pull-request'] });
    }
    catch (e) {
        if (e instanceof NoPullRequest)
            throw new Refusal('EXIT_NEED_INFO', 'NO_PULL_REQUEST', e.message);
        throw new Refusal('EXIT_BLOCKED', 'PULL_REQUEST_UNAVAILABLE', `could not read the pull request (${apiError(e)})`);
    }
    lib_core/* info */.pq(`pull request #${pr.number}: ${pr.headRepo ?? '(deleted repository)'}:${pr.headRef} @ ${pr.headSha.slice(0, 12)}; trigger ${trigger.eventName}${trigger.kind !== 'other' ? ` (${trigger.kind})` : ''} by ${trigger.actor}`);
    if (isFork(pr))
        throw new Refusal('EXIT_BLOCKED', 'FORK_PULL_REQUEST', `pull request #${pr.number} comes from ${pr.headRepo ?? 'a deleted fork'}, not ${pr.baseRepo}: phuc-loop does not run on fork pull requests ` +
            `(it would push to a branch it does not own and hand repository secrets to code from outside). Nothing was run or pushed.`);
    const allowed = await mayStart({ octokit, repo, trigger, allowedBots: inputs['allowed-bots'] }).catch((e) => {
        throw new Refusal('EXIT_BLOCKED', 'PERMISSION_UNKNOWN', `could not ask GitHub for ${trigger.actor}'s permission (${apiError(e)}); not starting`);
    });
    if (!allowed.allowed)
        throw new Refusal('EXIT_BLOCKED', 'ACTOR_NOT_ALLOWED', `${allowed.why}. Nothing was run.`);
    lib_core/* info */.pq(`allowed: ${allowed.why}`);
    const stopLabel = new StopLabel({ octokit, repo, issue: pr.number, label: inputs['stop-label'], warn: (m) => lib_core/* warning */.$e(m) });
    const pauseFor = (stopReason, detail) => pauseOf({
        stopReason,
        detail,
        signal: signals.received,
        labelReason: stopLabel.requested,
        stopLabel: inputs['stop-label'],
        trigger: { kind: trigger.kind, label: payload.label?.name },
    });
    scene.pause = (detail) => pauseFor('BACKPRESSURE_SIGNAL', detail);
    // 2. Where the checkout, the config and the evidence are.
    const workspace = process.env['GITHUB_WORKSPACE'] ?? process.cwd();
    const workdir = (0,external_node_path_.resolve)(workspace, inputs['working-directory']);
    const toplevel = await gitToplevel(runner, workdir);
    const root = toplevel ?? workdir;
    const configPath = (0,external_node_path_.relative)(root, (0,external_node_path_.resolve)(workdir, inputs.config));
    const evidenceRoot = (0,external_node_path_.join)(root, (await engine()).DEFAULT_EVIDENCE_DIR);
    const artifactName = artifactNameFor(inputs['artifact-name'], pr.number);
    const tempDir = process.env['RUNNER_TEMP'] ?? workspace;
    const commentFile = (0,external_node_path_.join)(tempDir, `phuc-loop-comment-${ctx.runId}-${pr.number}.md`);
    const post = {
        upload: false,
        evidenceDir: evidenceRoot,
        artifactName,
        retentionDays: inputs['retention-days'],
        pullRequest: pr.number,
        commentId: null,
        commentFile: null,
        commentMode: inputs.comment,
        checkout: toplevel,
        loopEnded: false,
    };
    savePostState(post);
    // 3. The branch the commits go to: credentials out of the agent's reach, checkout = branch tip.
    const pusher = inputs.push && toplevel
        ? new BranchPusher({
            runner,
            cwd: toplevel,
            env: process.env,
            serverUrl,
            repository: pr.baseRepo,
            branch: pr.headRef,
            // Pushes made with github.token start no workflow: a push-token makes the PR's checks run.
            token: inputs['push-token'] ?? token,
            retryBaseMs: retryBaseMs(),
            log: (m) => lib_core/* info */.pq(m),
            scrub,
        })
        : null;
    const notes = [];
    let restored = false;
    try {
        if (pusher) {
            const refused = await pusher.prepare();
            if (refused) {
                const colon = refused.indexOf(':');
                throw new Refusal('EXIT_BLOCKED', colon < 0 ? refused : refused.slice(0, colon), refused.slice(colon + 1).trim());
            }
        }
        else if (!inputs.push)
            notes.push('push: false — the iteration commits stay in the runner and in the evidence artifact.');
        // 4. Evidence of earlier runs: restored before the engine starts; the engine verifies it.
        if (toplevel && !inputs.fresh) {
            const prev = await findPreviousEvidence({ octokit, repo, name: artifactName }).catch((e) => {
                throw new Refusal('EXIT_BLOCKED', 'EVIDENCE_UNVERIFIABLE', `could not list the evidence artifacts of #${pr.number} (${apiError(e)}); not starting a fresh loop silently`);
            });
            for (const s of prev.skipped)
                lib_core/* info */.pq(`evidence: ${s}`);
            if (prev.found) {
                const a = prev.found;
                lib_core/* info */.pq(`evidence: restoring artifact ${a.name} (id ${a.id}) of run ${a.runId} (${a.headBranch ?? '?'} @ ${(a.headSha ?? '?').slice(0, 12)})`);
                try {
                    const files = await downloadEvidence({ artifact: a, token, repo, target: evidenceRoot, tempDir });
                    restored = true;
                    notes.push(`Evidence restored from artifact \`${a.name}\` (id ${a.id}) of [run ${a.runId}](${repoUrl}/actions/runs/${a.runId}): ${files.length} file(s).`);
                }
                catch (e) {
                    throw new Refusal('EXIT_BLOCKED', 'EVIDENCE_UNVERIFIABLE', `${e.message}; not starting a fresh loop silently (use the fresh input to start over)`);
                }
                // Only a tree that verifies is handed on again; a bad one stays the previous run's artifact.
                const { verifyTree } = await Promise.all(/* import() */[__webpack_require__.e(990), __webpack_require__.e(292), __webpack_require__.e(188), __webpack_require__.e(894)]).then(__webpack_require__.bind(__webpack_require__, 27513));
                post.upload = (await verifyTree(evidenceRoot, { allowOpenTail: true }).catch(() => ({ ok: false }))).ok;
            }
            else {
                notes.push(`No earlier evidence artifact named \`${artifactName}\`: a new loop starts.${prev.skipped.length ? ` (${prev.skipped.join('; ')})` : ''}`);
                post.upload = true;
            }
        }
        else {
            if (inputs.fresh)
                notes.push('fresh: true — earlier evidence is not restored; a new loop starts.');
            post.upload = true;
        }
        savePostState(post);
        // A new loop has no iteration on record; a restored one's count is known once the engine read it.
        if (!restored)
            scene.iterations = 0;
        // 5. The loop.
        const outcome = await loop({
            inputs,
            api,
            scrubber,
            pr,
            repo,
            repoUrl,
            runUrl,
            root,
            configPath,
            evidenceRoot,
            artifactName,
            pusher,
            commentFile,
            post,
            log,
            signals,
            stopLabel,
            pauseFor,
            scene,
        });
        if (pusher?.pushes && !inputs['push-token']) {
            lib_core/* warning */.$e(GITHUB_TOKEN_PUSH_WARNING);
            notes.unshift(`**Warning:** ${GITHUB_TOKEN_PUSH_WARNING}`);
        }
        await finish({ inputs, api, outcome, evidenceRoot, notes, scrub, runUrl, repoUrl, artifactName, pr, pauseFor });
    }
    finally {
        await pusher?.restore();
    }
}


/***/ }),

/***/ 81184:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Hq: () => (/* binding */ costUse),
/* harmony export */   U9: () => (/* binding */ count),
/* harmony export */   bu: () => (/* binding */ num),
/* harmony export */   dR: () => (/* binding */ usd)
/* harmony export */ });
/* harmony import */ var _decimal_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(69665);
// Numbers for people: residuals, distances and costs as a person reads them (console, halting
// report, job summary, PR comment, AGENTS.md). The evidence's JSON keeps the exact Decimal strings;
// every place that shows one to a person goes through here, so they read the same everywhere.

/** Significant digits shown of a value below 1 ("0.005571"); at or above 1, as many decimals as leave four digits ("12.35", "1235"). */
const DIGITS = 4;
/** From this size on, a value is shown in exponent form ("1.235e+41"): 40 digits overflow any table cell. */
const LARGE = new _decimal_js__WEBPACK_IMPORTED_MODULE_0__/* .Decimal */ .Ww('1e9');
/**
 * A Decimal for the eye: integers as they are up to 999,999,999, larger values in exponent form, others to about four significant digits, never in
 * exponent form for everyday sizes; `empty` for a missing value. Text that is not a Decimal is shown as it is.
 */
function num(value, empty = 'n/a') {
    if (value === null || value === undefined)
        return empty;
    const d = (0,_decimal_js__WEBPACK_IMPORTED_MODULE_0__/* .parseDecimal */ .$Q)(value);
    if (d === null)
        return value;
    if (d.abs().gte(LARGE))
        return d.toSignificantDigits(DIGITS, _decimal_js__WEBPACK_IMPORTED_MODULE_0__/* .Decimal */ .Ww.ROUND_HALF_UP).toExponential();
    if (d.isInteger())
        return d.toFixed();
    const whole = d.abs().gte(1) ? d.abs().trunc().toFixed().length : 0;
    const r = whole ? d.toDecimalPlaces(Math.max(0, DIGITS - whole), _decimal_js__WEBPACK_IMPORTED_MODULE_0__/* .Decimal */ .Ww.ROUND_HALF_UP) : d.toSignificantDigits(DIGITS, _decimal_js__WEBPACK_IMPORTED_MODULE_0__/* .Decimal */ .Ww.ROUND_HALF_UP);
    // toFixed() never switches to exponent form: a tiny value (below 1e-6) reads better in it.
    return r.abs().lt('1e-6') && !r.isZero() ? r.toExponential() : r.toFixed();
}
/** US dollars to the cent ("$0.34"); a cost above zero that rounds to nothing is "<$0.01". */
function usd(value, empty = 'n/a') {
    if (value === null || value === undefined)
        return empty;
    const d = (0,_decimal_js__WEBPACK_IMPORTED_MODULE_0__/* .parseDecimal */ .$Q)(value);
    if (d === null)
        return value;
    const cents = d.toFixed(2, _decimal_js__WEBPACK_IMPORTED_MODULE_0__/* .Decimal */ .Ww.ROUND_HALF_UP);
    return d.gt(0) && new _decimal_js__WEBPACK_IMPORTED_MODULE_0__/* .Decimal */ .Ww(cents).isZero() ? '<$0.01' : `${d.isNeg() ? '-' : ''}$${cents.replace(/^-/, '')}`;
}
/** A run's cost use as the report's JSON writes it ("<spent> / <limit>", the limit a Decimal or "unlimited"), in dollars. */
function costUse(text) {
    return text
        .split(' / ')
        .map((p) => ((0,_decimal_js__WEBPACK_IMPORTED_MODULE_0__/* .parseDecimal */ .$Q)(p) === null ? p : usd(p)))
        .join(' / ');
}
/** A count for a narrow cell: as it is below 10,000, then in thousands or millions ("12.3k", "1.23M"). */
function count(value, empty = 'n/a') {
    if (value === null || value === undefined)
        return empty;
    if (Math.abs(value) < 10_000)
        return String(value);
    const k = (value / 1_000).toFixed(1);
    return Math.abs(Number(k)) < 1_000 ? `${k}k` : `${(value / 1_000_000).toFixed(2)}M`;
}


/***/ }),

/***/ 44505:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Tp: () => (/* binding */ parseDocument),
/* harmony export */   dw: () => (/* binding */ decimalString),
/* harmony export */   gm: () => (/* binding */ issuesText)
/* harmony export */ });
/* harmony import */ var zod__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(23905);
/* harmony import */ var _decimal_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(69665);
/* harmony import */ var _errors_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(72251);
// Every document the loop reads back (its evidence, its state, the Action's saved state) goes
// through its zod schema here: a document that does not parse is EVIDENCE_UNVERIFIABLE, named by
// file and field, never a crash and never a value taken on trust (SPEC §7).



/** A Decimal as the evidence writes it (dstr): never a JSON number, never padded. */
const decimalString = zod__WEBPACK_IMPORTED_MODULE_2__/* .string */ .YjP().refine(_decimal_js__WEBPACK_IMPORTED_MODULE_0__/* .isDecimalString */ .Zw, { error: 'must be a Decimal string such as "0.25"' });
/** One "field: problem" per issue, the field as zod's dotted path. */
function issuesText(error) {
    return error.issues.map((i) => `${i.path.join('.') || '(document)'}: ${i.message}`).join('; ');
}
/** Parses `text` (the contents of `file`) as JSON, then by `schema`; throws EvidenceUnverifiable naming file and field. */
function parseDocument(file, text, schema) {
    let value;
    try {
        value = JSON.parse(text);
    }
    catch (e) {
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_1__/* .EvidenceUnverifiable */ .Ol(file, `not JSON: ${e.message}`);
    }
    const r = schema.safeParse(value);
    if (!r.success)
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_1__/* .EvidenceUnverifiable */ .Ol(file, issuesText(r.error));
    return r.data;
}


/***/ }),

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

/***/ 64154:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   L8: () => (/* binding */ atomicWrite),
/* harmony export */   ZU: () => (/* binding */ copyTreeOffThread),
/* harmony export */   n1: () => (/* binding */ isTempFile),
/* harmony export */   oC: () => (/* binding */ appendOffThread),
/* harmony export */   rm: () => (/* binding */ sendWrites),
/* harmony export */   w5: () => (/* binding */ atomicWriteOffThread)
/* harmony export */ });
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(77598);
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_crypto__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(73024);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__webpack_require__.n(node_fs__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(76760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_2___default = /*#__PURE__*/__webpack_require__.n(node_path__WEBPACK_IMPORTED_MODULE_2__);
/* harmony import */ var node_worker_threads__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(75919);
/* harmony import */ var node_worker_threads__WEBPACK_IMPORTED_MODULE_3___default = /*#__PURE__*/__webpack_require__.n(node_worker_threads__WEBPACK_IMPORTED_MODULE_3__);
// Atomic file writes (temp file + rename) and tree copies, and a worker thread that does them off the
// loop's thread. Creating a file can wait on the disk for most of a millisecond (ext4 reads its inode
// table), and each write through the thread pool costs the loop's thread four round trips (open,
// write, close, rename), about 0.2 ms a file: an iteration writes some fifteen evidence files, and
// publishing the tree copies them all (fs.cp took 1.6 s for 3 200 files where this takes 0.2 s). The
// worker does them synchronously, in the order given; the loop's thread only posts the bytes.




/** The names writeAtomically gives its temp files: a file so named is half-written, never evidence. */
const isTempFile = (name) => /\.tmp-[0-9a-f]{12}$/.test(name);
/**
 * Temp file + rename. The temp name is unpredictable and created exclusively ('wx' fails on any
 * existing name, a planted symlink included), and rename replaces a link rather than following it:
 * a write never lands anywhere but `file`. It runs in the worker from its source text, so it uses
 * nothing but its arguments.
 */
function writeAtomically(m, file, data) {
    const tmp = `${file}.tmp-${m.crypto.randomBytes(6).toString('hex')}`;
    // The folder usually exists: made only when the write says it is missing (one syscall saved a file).
    try {
        m.fs.writeFileSync(tmp, data, { flag: 'wx' });
    }
    catch (e) {
        if (e.code !== 'ENOENT')
            throw e;
        m.fs.mkdirSync(m.path.dirname(file), { recursive: true });
        m.fs.writeFileSync(tmp, data, { flag: 'wx' });
    }
    try {
        m.fs.renameSync(tmp, file);
    }
    catch (e) {
        // A folder in the way (EISDIR): no stray temporary file is left beside it.
        m.fs.rmSync(tmp, { force: true });
        throw e;
    }
}
/**
 * Copies the folder `from` to `to`, which must not exist (nothing is made when `from` is not a
 * folder): real folders and regular files only, with their permission bits, never through a link (a
 * link, FIFO or device in it is left out, and a file is opened without following one). `skipNames`:
 * names left out wherever they are; `skipPaths`: relative paths left out. Runs in the worker from
 * its source text, so it uses nothing but its arguments.
 */
function copyTree(m, from, to, skipNames, skipPaths) {
    const { fs } = m;
    const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK, O_NOCTTY } = fs.constants;
    const file = (src, dst) => {
        let fd;
        try {
            fd = fs.openSync(src, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
        }
        catch (e) {
            // A link (ELOOP) or a name gone since the listing is not copied.
            if (['ELOOP', 'ENOENT', 'ENXIO'].includes(e.code ?? ''))
                return;
            throw e;
        }
        try {
            const st = fs.fstatSync(fd);
            if (!st.isFile())
                return;
            const out = fs.openSync(dst, 'wx', 0o600);
            try {
                const data = fs.readFileSync(fd);
                for (let at = 0; at < data.byteLength;)
                    at += fs.writeSync(out, data, at);
                // Exactly the source's bits (a mode given to open is cut by the umask).
                fs.fchmodSync(out, st.mode & 0o777);
            }
            finally {
                fs.closeSync(out);
            }
        }
        finally {
            fs.closeSync(fd);
        }
    };
    const folder = (rel) => {
        const src = m.path.join(from, rel);
        const dst = m.path.join(to, rel);
        const st = fs.lstatSync(src);
        if (!st.isDirectory())
            return;
        fs.mkdirSync(dst, { mode: 0o700 });
        for (const d of fs.readdirSync(src, { withFileTypes: true })) {
            const r = rel ? `${rel}/${d.name}` : d.name;
            if (skipNames.includes(d.name) || skipPaths.includes(r))
                continue;
            if (d.isDirectory())
                folder(r);
            else if (d.isFile())
                file(m.path.join(src, d.name), m.path.join(dst, d.name));
        }
        fs.chmodSync(dst, st.mode & 0o777);
    };
    if (fs.lstatSync(from, { throwIfNoEntry: false })?.isDirectory())
        folder('');
}
/**
 * Appends `data` to `file`, which must be a regular file of exactly `from` bytes (what the caller
 * last wrote there): a log grows by its new line, not by a rewrite of all of it. Anything else there
 * (another size, a link, no file) fails the write, and says what it found.
 */
function appendTo(m, file, data, from) {
    const { fs } = m;
    const fd = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
    try {
        const st = fs.fstatSync(fd);
        if (!st.isFile() || st.size !== from)
            throw Object.assign(new Error(`${file} is not the log the loop wrote (${st.isFile() ? `${st.size} bytes, not ${from}` : 'not a regular file'})`), {
                code: 'ECHANGED',
            });
        for (let at = 0; at < data.byteLength;)
            at += fs.writeSync(fd, data, at);
    }
    finally {
        fs.closeSync(fd);
    }
}
/**
 * Does one job in this thread. `failed`: the files whose last write failed (kept by the caller, one
 * set per thread), which the job updates.
 */
function perform(m, jobs, job, failed) {
    const target = job.kind === 'copy' ? job.to : job.file;
    try {
        const missing = job.requires?.find((f) => failed.has(f));
        if (missing !== undefined)
            throw Object.assign(new Error(`not written: the write of ${missing} failed`), { code: 'EREQUIRED' });
        if (job.kind === 'write')
            jobs.write(m, job.file, job.data);
        else if (job.kind === 'append')
            jobs.append(m, job.file, job.data, job.from);
        else
            jobs.copy(m, job.from, job.to, job.skipNames, job.skipPaths);
    }
    catch (e) {
        failed.add(target);
        throw e;
    }
    failed.delete(target);
}
/** The worker's program: each message a batch of jobs, done in order and answered together. */
function writerMain(m, port, perform, jobs) {
    const failed = new Set();
    port.on('message', (batch) => {
        const done = [];
        for (const w of batch)
            try {
                perform(m, jobs, w, failed);
                done.push({ id: w.id, error: null });
            }
            catch (e) {
                const err = e;
                done.push({ id: w.id, error: { message: err.message, code: err.code ?? null } });
            }
        port.postMessage(done);
    });
}
/** Writes `file` atomically from the loop's thread (a write that must be done before the caller goes on). */
// Async for its callers, as the worker's writes are.
// eslint-disable-next-line @typescript-eslint/require-await
async function atomicWrite(file, data) {
    writeAtomically({ fs: node_fs__WEBPACK_IMPORTED_MODULE_1__, path: node_path__WEBPACK_IMPORTED_MODULE_2__, crypto: node_crypto__WEBPACK_IMPORTED_MODULE_0__ }, file, data);
}
class Writer {
    worker;
    pending = new Map();
    seq = 0;
    gone = false;
    /** Jobs asked for in this turn of the event loop, posted together at its end (a message costs the loop's thread more than a small file's bytes). */
    batch = [];
    transfers = [];
    constructor(worker) {
        this.worker = worker;
        worker.on('message', (done) => {
            for (const r of done) {
                const p = this.pending.get(r.id);
                this.pending.delete(r.id);
                if (!p)
                    continue;
                if (r.error)
                    p.reject(Object.assign(new Error(r.error.message), r.error.code ? { code: r.error.code } : {}));
                else
                    p.resolve();
            }
            this.refs();
        });
        const lost = (e) => this.lost(e);
        worker.once('error', lost);
        worker.once('exit', lost);
        this.refs();
    }
    /** The worker holds the process open only while a write is in flight. */
    refs() {
        if (this.pending.size)
            this.worker.ref();
        else
            this.worker.unref();
    }
    /** `transfer`: buffers that move to the worker with the job (unusable here after). */
    queue(job, transfer = []) {
        this.transfers.push(...transfer);
        return new Promise((resolve, reject) => {
            const id = ++this.seq;
            this.pending.set(id, { resolve, reject });
            this.refs();
            if (!this.batch.length)
                setImmediate(() => this.post());
            this.batch.push({ ...job, id });
        });
    }
    post() {
        if (!this.batch.length)
            return;
        const [batch, transfers] = [this.batch, this.transfers];
        this.batch = [];
        this.transfers = [];
        try {
            if (this.gone)
                throw new Error('the evidence writer stopped');
            this.worker.postMessage(batch, transfers);
        }
        catch (e) {
            // Nothing of the batch reached the worker (a buffer that cannot be sent fails the whole message).
            for (const w of batch) {
                this.pending.get(w.id)?.reject(e instanceof Error ? e : new Error(String(e)));
                this.pending.delete(w.id);
            }
            this.refs();
        }
    }
    /** A worker that died fails what it had in flight (flush() throws it); the next write starts another. */
    lost(e) {
        if (this.gone)
            return;
        this.gone = true;
        const why = e instanceof Error ? e.message : 'it ended';
        for (const p of this.pending.values())
            p.reject(new Error(`the evidence writer stopped (${why})`));
        this.pending.clear();
        void this.worker.terminate();
    }
}
let writer = null;
function current() {
    if (writer && !writer.gone)
        return writer;
    try {
        // `__name`: what esbuild (tsx, when the engine runs from source) wraps nested functions in.
        const source = `var __name = (f) => f;\nconst m = { fs: require('node:fs'), path: require('node:path'), crypto: require('node:crypto') };\n` +
            `(${writerMain.toString()})(m, require('node:worker_threads').parentPort, ${perform.toString()}, { write: ${writeAtomically.toString()}, append: ${appendTo.toString()}, copy: ${copyTree.toString()} });`;
        writer = new Writer(new node_worker_threads__WEBPACK_IMPORTED_MODULE_3__.Worker(source, { eval: true, env: {}, stdout: false, stderr: false }));
    }
    catch {
        writer = null;
    }
    return writer;
}
/** The files whose last write in this thread (no worker) failed: see perform. */
const failedHere = new Set();
/**
 * Writes `file` atomically in the worker (in the loop's thread when there is none); settles when it
 * is on disk. `transfer`: `data` owns its whole buffer, which moves to the worker (no copy; unusable
 * here after). `requires`: files whose failed last write fails this one (see Job).
 */
function atomicWriteOffThread(file, data, transfer = false, requires) {
    const moved = transfer && typeof data !== 'string' && data.buffer instanceof ArrayBuffer;
    // Bytes the caller keeps are taken as they are now (the batch is sent later).
    return offThread({ kind: 'write', file, data: moved || typeof data === 'string' ? data : data.slice(), ...(requires?.length ? { requires } : {}) }, moved ? [data.buffer] : []);
}
/** Sends the writes asked for so far now, not at the end of this turn of the event loop: the caller has work to do meanwhile. */
function sendWrites() {
    writer?.post();
}
/**
 * Copies the folder `from` to `to` in the worker (see copyTree; in the loop's thread when there is
 * none). A copy that fails leaves a partial `to` for the caller to remove.
 */
function copyTreeOffThread(from, to, skip = {}) {
    return offThread({ kind: 'copy', from, to, skipNames: skip.names ?? [], skipPaths: skip.paths ?? [] });
}
/**
 * Appends `data` (bytes made for this write: they move to the worker) to `file` in the worker, in
 * order with its other jobs; fails unless the file holds exactly `from` bytes (see appendTo).
 */
function appendOffThread(file, data, from) {
    return offThread({ kind: 'append', file, data, from }, data.buffer instanceof ArrayBuffer ? [data.buffer] : []);
}
// Async for its callers: a job done here (no worker) fails as the worker's would, by a rejection.
async function offThread(job, transfer = []) {
    const w = current();
    if (w)
        return w.queue(job, transfer);
    perform({ fs: node_fs__WEBPACK_IMPORTED_MODULE_1__, path: node_path__WEBPACK_IMPORTED_MODULE_2__, crypto: node_crypto__WEBPACK_IMPORTED_MODULE_0__ }, { write: writeAtomically, append: appendTo, copy: copyTree }, job, failedHere);
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

/***/ 81612:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   JK: () => (/* reexport safe */ _process_tree_js__WEBPACK_IMPORTED_MODULE_4__.JK),
/* harmony export */   ME: () => (/* reexport safe */ _process_tree_js__WEBPACK_IMPORTED_MODULE_4__.ME),
/* harmony export */   u: () => (/* binding */ NodeProcessRunner),
/* harmony export */   vU: () => (/* reexport safe */ _shell_session_js__WEBPACK_IMPORTED_MODULE_5__.v)
/* harmony export */ });
/* unused harmony export OutputCapture */
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(77598);
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_crypto__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_perf_hooks__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(643);
/* harmony import */ var node_perf_hooks__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__webpack_require__.n(node_perf_hooks__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var _signals_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(62660);
/* harmony import */ var _spawner_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(4461);
/* harmony import */ var _process_tree_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(55057);
/* harmony import */ var _shell_session_js__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(5614);
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
        const started = node_perf_hooks__WEBPACK_IMPORTED_MODULE_1__.performance.now();
        const elapsed = () => node_perf_hooks__WEBPACK_IMPORTED_MODULE_1__.performance.now() - started;
        if (spec.signal?.aborted)
            return { exitCode: null, signal: null, timedOut: false, aborted: true, stdout: '', stderr: '', durationMs: elapsed() };
        const tag = (0,node_crypto__WEBPACK_IMPORTED_MODULE_0__.randomUUID)();
        let child;
        try {
            // A contained child's environment is exactly the role's: it needs no tag to be found.
            const env = spec.contained ? spec.env : { ...spec.env, [_process_tree_js__WEBPACK_IMPORTED_MODULE_4__/* .RUN_TAG_VAR */ .Tw]: tag };
            const [command, args] = spec.args ? [spec.command, spec.args] : ['/bin/sh', ['-c', spec.command]];
            child = await (0,_spawner_js__WEBPACK_IMPORTED_MODULE_3__/* .startChild */ .v0)(command, args, { cwd: spec.cwd, env, stdin: spec.stdin });
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
            const rootStart = contained ? null : (0,_process_tree_js__WEBPACK_IMPORTED_MODULE_4__/* .readStartTime */ .ME)(pid);
            const since = contained ? null : (0,_process_tree_js__WEBPACK_IMPORTED_MODULE_4__/* .forksSince */ .uA)(pid);
            const untrack = (0,_signals_js__WEBPACK_IMPORTED_MODULE_2__/* .trackProcessGroup */ .uU)(pid);
            const exitedP = child.exit.then(() => undefined);
            const killTree = () => {
                if (killing)
                    return;
                killing = contained ? stopContained(pid, exitedP, contained) : (0,_process_tree_js__WEBPACK_IMPORTED_MODULE_4__/* .terminateTree */ .wX)(pid, true, tag, rootStart, since, this.killGraceMs);
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
                        await (0,_process_tree_js__WEBPACK_IMPORTED_MODULE_4__/* .terminateTree */ .wX)(pid, false, tag, rootStart, since, this.killGraceMs);
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
    (0,_process_tree_js__WEBPACK_IMPORTED_MODULE_4__/* .signalPid */ .U2)(-pid, 'SIGTERM');
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

/***/ 59980:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Q3: () => (/* binding */ programText),
/* harmony export */   xW: () => (/* binding */ installPrograms)
/* harmony export */ });
/* unused harmony exports PROGRAMS, programFile */
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(73024);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_fs__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(51455);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__webpack_require__.n(node_fs_promises__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(76760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_2___default = /*#__PURE__*/__webpack_require__.n(node_path__WEBPACK_IMPORTED_MODULE_2__);
/* harmony import */ var node_url__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(73136);
/* harmony import */ var node_url__WEBPACK_IMPORTED_MODULE_3___default = /*#__PURE__*/__webpack_require__.n(node_url__WEBPACK_IMPORTED_MODULE_3__);
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
    const here = (0,node_path__WEBPACK_IMPORTED_MODULE_2__.dirname)((0,node_url__WEBPACK_IMPORTED_MODULE_3__.fileURLToPath)(import.meta.url));
    const found = [(0,node_path__WEBPACK_IMPORTED_MODULE_2__.join)(here, '..', name), (0,node_path__WEBPACK_IMPORTED_MODULE_2__.join)(here, name)].find((p) => (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.existsSync)(p));
    if (!found)
        throw new Error(`${name} not found beside ${here}: the installation is incomplete`);
    return found;
}
const texts = new Map();
/** The program's text, read the first time it is asked for and kept. */
function programText(name) {
    let text = texts.get(name);
    if (text === undefined)
        texts.set(name, (text = (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.readFileSync)(programFile(name), 'utf8')));
    return text;
}
/** Writes the programs' kept texts into `dir` (made 0755; the files 0644): their paths. */
async function installPrograms(dir, names) {
    await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.mkdir)(dir, { mode: 0o755 });
    await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.chmod)(dir, 0o755);
    const paths = {};
    for (const name of names) {
        paths[name] = (0,node_path__WEBPACK_IMPORTED_MODULE_2__.join)(dir, name);
        await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.writeFile)(paths[name], programText(name), { mode: 0o644, flag: 'wx' });
    }
    return paths;
}


/***/ }),

/***/ 71734:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  Tl: () => (/* binding */ AGENT_KEY_NAMES),
  X1: () => (/* binding */ CA_BUNDLE_VARS),
  FV: () => (/* binding */ agentEnvironment),
  HV: () => (/* reexport */ createScrubber),
  Uo: () => (/* reexport */ scrubbingLogger),
  eo: () => (/* reexport */ secretForms),
  VX: () => (/* binding */ secretValues)
});

// UNUSED EXPORTS: BASE_AGENT_ENV, LOOP_PRIVATE, MASK, passAllowance

;// CONCATENATED MODULE: ./src/engine/os/secret-forms.ts
// The forms a secret value takes in a text (SPEC §7 "Secrets"): as it is, escaped for JSON, a URL
// or a shell, and packed (hex, base64 at each alignment, UTF-16), which the scrubber (scrubber.ts)
// looks for.
/** Shorter values are not credentials; masking them would garble ordinary text. */
const MIN_LOOP_SECRET = 4;
const MASK = '***';
/** A base64 fragment shorter than this would match ordinary base64 text by chance. */
const MIN_FRAGMENT = 8;
const toBase64Url = (b64) => b64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
/**
 * The base64 texts that carry `bytes` wherever they sit in an encoded stream: at each of the three
 * byte alignments, the characters fully determined by the secret (the ones sharing bits with its
 * neighbours are left out), and the tail to the end of the stream with and without padding.
 */
function base64Forms(bytes) {
    const forms = [];
    for (const shift of [0, 1, 2]) {
        const enc = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
        const start = Math.ceil((8 * shift) / 6);
        const end = Math.floor((8 * (shift + bytes.length)) / 6);
        const tail = enc.slice(start);
        for (const f of [enc.slice(start, end), tail, tail.replace(/=+$/, '')]) {
            if (f.length < MIN_FRAGMENT)
                continue;
            forms.push(f, toBase64Url(f));
        }
    }
    return forms;
}
/**
 * The packed forms of a secret: hex (lower or upper case) and base64 (see base64Forms). A tool wraps
 * these at any width (`base64` at 76, `xxd -p` at 60, `od` in groups), so they are also looked for
 * with whitespace removed.
 */
function packedForms(secret) {
    if (secret.length < MIN_LOOP_SECRET)
        return [];
    const bytes = Buffer.from(secret, 'utf8');
    const hex = bytes.toString('hex');
    return [hex, hex.toUpperCase(), ...base64Forms(bytes)];
}
const lowerHexEscapes = (s) => s.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());
const jsonAscii = (s) => s.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
/**
 * The texts a tool may print a secret as: plain, base64 (three alignments, padded or not, base64url),
 * hex (lower or upper case), URL-encoded (upper/lower hex, form encoding), JSON-escaped (also with
 * `\/` and `\uXXXX`); and the plain text upper-cased, lower-cased or reversed. The scrubber also
 * finds them interrupted by whitespace (hex and base64) or written with escapes (see escapeAt). This
 * catches a secret a tool prints by accident, not one an agent hides on purpose (any other encoding
 * passes): the key proxy is what keeps the key from the agent. Empty for a value too short to be a secret.
 */
function secretForms(secret) {
    if (secret.length < MIN_LOOP_SECRET)
        return [];
    const forms = new Set([secret, ...packedForms(secret), secret.toUpperCase(), secret.toLowerCase(), Array.from(secret).reverse().join('')]);
    const url = encodeURIComponent(secret);
    for (const f of [url, lowerHexEscapes(url), encodeURI(secret), new URLSearchParams({ v: secret }).toString().slice(2)])
        forms.add(f);
    const json = JSON.stringify(secret).slice(1, -1);
    forms.add(json);
    forms.add(jsonAscii(json));
    for (const f of [...forms])
        if (f.includes('/'))
            forms.add(f.replace(/\//g, '\\/'));
    return [...forms].sort((a, b) => b.length - a.length);
}
/**
 * A secret of ASCII characters as UTF-16 (little and big endian: a Windows tool's output, PowerShell),
 * written as text of one character per byte. Not among secretForms: no log masks a NUL.
 */
function utf16Forms(secret) {
    // eslint-disable-next-line no-control-regex -- ASCII is what this test looks for
    if (secret.length < MIN_LOOP_SECRET || !/^[\u0000-\u007f]+$/.test(secret))
        return [];
    return [Array.from(secret, (c) => `${c}\0`).join(''), Array.from(secret, (c) => `\0${c}`).join('')];
}
/** One regex of every form, longest first (so at any position the longest form matching there wins). */
function formsPattern(forms) {
    if (forms.length === 0)
        return null;
    return new RegExp([...new Set(forms)]
        .sort((a, b) => b.length - a.length)
        .map((f) => f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('|'), 'g');
}

;// CONCATENATED MODULE: ./src/engine/os/scrubber.ts

// A secret's form may reach a text interrupted or escaped: a line-wrapped base64 or hex dump, a URL
// encoder that escapes every character, a string literal of `\x74\x6f…`. The scrubber looks at a
// text as it is and at these views of it, each made in one pass (linear time, at most the text's
// size again), and maps what it finds there back to the text's own characters.
/** Whitespace that may interrupt an encoded text: spaces, tabs, CR, LF, vertical tab, form feed. */
const SPACES = /[\t\n\v\f\r ]+/g;
const HAS_SPACE = /[\t\n\v\f\r ]/;
/**
 * Characters that render as nothing (zero-width spaces and joiners, the soft hyphen, bidi marks,
 * variation selectors): one between a secret's characters hides it from a scan, not from a reader.
 * The loop itself puts a word joiner after `@` and `<` in agent text to make it inert.
 */
const INVISIBLE = /\p{Default_Ignorable_Code_Point}+/gu;
/** The same characters as UTF-8 bytes read as latin1 (a file's bytes): the ranges of Unicode's Default_Ignorable_Code_Point. */
const INVISIBLE_BYTES = (() => {
    const ranges = [
        [0xad, 0xad],
        [0x34f, 0x34f],
        [0x61c, 0x61c],
        [0x115f, 0x1160],
        [0x17b4, 0x17b5],
        [0x180b, 0x180f],
        [0x200b, 0x200f],
        [0x202a, 0x202e],
        [0x2060, 0x206f],
        [0x3164, 0x3164],
        [0xfe00, 0xfe0f],
        [0xfeff, 0xfeff],
        [0xffa0, 0xffa0],
        [0xfff0, 0xfff8],
        [0x1bca0, 0x1bca3],
        [0x1d173, 0x1d17a],
    ];
    const utf8 = ranges.flatMap(([a, b]) => Array.from({ length: b - a + 1 }, (_, i) => Buffer.from(String.fromCodePoint(a + i))));
    const alternatives = [
        ...utf8.map((bytes) => [...bytes].map((c) => `\\x${c.toString(16).padStart(2, '0')}`).join('')),
        '\\xf3\\xa0[\\x80-\\x83][\\x80-\\xbf]',
    ];
    return new RegExp(`(?:${alternatives.join('|')})+`, 'g');
})();
/** `text` without what `re` (global) matches, each character mapped to where it was. */
function without(text, re, mapped) {
    const out = text.replace(re, '');
    if (!mapped)
        return { text: out };
    const from = new Int32Array(out.length);
    let n = 0;
    let at = 0;
    for (const m of text.matchAll(re)) {
        while (at < m.index)
            from[n++] = at++;
        at = m.index + m[0].length;
    }
    while (at < text.length)
        from[n++] = at++;
    return { text: out, from, to: from.map((i) => i + 1) };
}
const spaceless = (text, mapped) => without(text, SPACES, mapped);
/**
 * The escapes a tool may write a character as: `%XX` (URL encoding, upper or lower hex, also among
 * plain characters), `\\xXX`, `\\uXXXX`, `\\u{X…}` and the one-letter escapes of a string literal,
 * HTML's `&#N;` and `&#xX;`.
 */
const HAS_ESCAPE = /%[0-9A-Fa-f]{2}|\\[xu0-9nrtfvb/"'\\]|&#/;
const ONE_LETTER = { n: 10, r: 13, t: 9, f: 12, v: 11, b: 8, '0': 0, '/': 47, '"': 34, "'": 39, '\\': 92 };
/** The value of `len` hex digits (or up to `len` before `stop`) of `text` at `at`, with how many were read; null when none. */
function hexAt(text, at, len, stop) {
    let v = 0;
    let i = 0;
    for (; i < len && at + i < text.length; i++) {
        const c = text.charCodeAt(at + i);
        const d = c >= 48 && c <= 57 ? c - 48 : c >= 65 && c <= 70 ? c - 55 : c >= 97 && c <= 102 ? c - 87 : -1;
        if (d < 0)
            break;
        v = v * 16 + d;
    }
    if (i === 0 || (stop === undefined ? i < len : text.charCodeAt(at + i) !== stop))
        return null;
    return [v, i];
}
/** The decimal value of `&#N;` at `at` (the digits after `&#`), with how many were read; null when none. */
function decAt(text, at) {
    let v = 0;
    let i = 0;
    for (; i < 7 && at + i < text.length; i++) {
        const c = text.charCodeAt(at + i);
        if (c < 48 || c > 57)
            break;
        v = v * 10 + c - 48;
    }
    return i > 0 && text.charCodeAt(at + i) === 59 ? [v, i] : null;
}
/**
 * The escape at `i` of `text` (see HAS_ESCAPE): its length and what it stands for, a byte (`%XX`,
 * `\\xXX`: negative, -1 - byte) or a code point; null when there is none.
 */
function escapeAt(text, i) {
    const c = text.charCodeAt(i);
    if (c === 37) {
        const h = hexAt(text, i + 1, 2);
        return h && [3, -1 - h[0]];
    }
    if (c === 38) {
        if (text.charCodeAt(i + 1) !== 35)
            return null;
        const x = text.charCodeAt(i + 2);
        const h = x === 120 || x === 88 ? hexAt(text, i + 3, 6, 59) : null;
        if (h)
            return [h[1] + 4, h[0]];
        const d = decAt(text, i + 2);
        return d && [d[1] + 3, d[0]];
    }
    if (c !== 92)
        return null;
    const k = text.charAt(i + 1);
    if (k === 'x') {
        const h = hexAt(text, i + 2, 2);
        return h && [4, -1 - h[0]];
    }
    if (k === 'u') {
        const h = text.charCodeAt(i + 2) === 123 ? hexAt(text, i + 3, 6, 125) : hexAt(text, i + 2, 4);
        return h && (text.charCodeAt(i + 2) === 123 ? [h[1] + 4, h[0]] : [6, h[0]]);
    }
    const one = ONE_LETTER[k];
    return one === undefined ? null : [2, one];
}
/**
 * `text` with its escapes undone, in one pass. A byte escape is one character of that code; a code
 * point is its character in a text, its UTF-8 bytes in a byte view (latin1, one character per byte).
 * What an escape stands for is never longer than the escape: the output fits in the text's length.
 */
function unescaped(text, bytes, mapped) {
    const out = bytes ? new Uint8Array(text.length) : new Uint16Array(text.length);
    const from = mapped ? new Int32Array(text.length) : null;
    const to = mapped ? new Int32Array(text.length) : null;
    let n = 0;
    const put = (unit, start, end) => {
        if (from && to) {
            from[n] = start;
            to[n] = end;
        }
        out[n++] = unit;
    };
    for (let i = 0; i < text.length;) {
        const esc = escapeAt(text, i);
        if (!esc || esc[1] > 0x10ffff) {
            put(text.charCodeAt(i), i, i + 1);
            i++;
            continue;
        }
        const [len, v] = esc;
        if (v < 0)
            put(-1 - v, i, i + len);
        else if (bytes ? v < 0x80 : v < 0x10000)
            put(v, i, i + len);
        else
            for (const u of bytes ? Buffer.from(String.fromCodePoint(v), 'utf8') : [0xd800 + ((v - 0x10000) >> 10), 0xdc00 + ((v - 0x10000) & 0x3ff)])
                put(u, i, i + len);
        i += len;
    }
    const units = out.subarray(0, n);
    const decoded = bytes ? Buffer.from(units.buffer, 0, n).toString('latin1') : UTF16.decode(units);
    return from && to ? { text: decoded, from: from.subarray(0, n), to: to.subarray(0, n) } : { text: decoded };
}
/** Keeps a leading U+FEFF (by default it would be dropped, and every position after it shifted). */
const UTF16 = new TextDecoder('utf-16le', { ignoreBOM: true });
/** `outer`, a view of `inner`'s text, as a view of the text `inner` was made of. */
function composed(inner, outer) {
    if (!inner.from || !inner.to || !outer.from || !outer.to)
        return { text: outer.text };
    const [f, t] = [inner.from, inner.to];
    return { text: outer.text, from: outer.from.map((i) => f[i]), to: outer.to.map((i) => t[i - 1]) };
}
/** The views of a text to look at, each with its pattern; each view is made only when asked for (once). */
function views(text, p, mapped) {
    const spaced = HAS_SPACE.test(text);
    let u;
    const undone = () => (u === undefined ? (u = HAS_ESCAPE.test(text) ? unescaped(text, p.bytes, mapped) : null) : u);
    return [
        [spaced ? p.unpacked : p.full, () => ({ text })],
        [
            p.full,
            () => {
                const re = p.bytes ? INVISIBLE_BYTES : INVISIBLE;
                re.lastIndex = 0;
                return re.test(text) ? without(text, re, mapped) : null;
            },
        ],
        [p.packed, () => (spaced ? spaceless(text, mapped) : null)],
        [p.decoded, undone],
        [
            p.packed,
            () => {
                const v = undone();
                return v && HAS_SPACE.test(v.text) ? composed(v, spaceless(v.text, mapped)) : null;
            },
        ],
    ];
}
function found(re, text) {
    re.lastIndex = 0;
    return re.test(text);
}
/** Whether the view holds a form its pattern looks for. */
function hit([re, view]) {
    if (!re)
        return false;
    const v = view();
    return !!v && found(re, v.text);
}
/** Whether any form is in the text or one of its views. */
function holds(text, p) {
    return views(text, p, false).some(hit);
}
/**
 * Pushes (start, end) in the original text of every occurrence of `re` in `v`. Matches are searched
 * again from one character after each start, so a form that overlaps another is found too.
 */
function collect(re, v, spans) {
    re.lastIndex = 0;
    for (let m = re.exec(v.text); m; re.lastIndex = m.index + 1, m = re.exec(v.text)) {
        const [s, e] = [m.index, m.index + m[0].length];
        spans.push(v.from ? v.from[s] : s, v.to ? v.to[e - 1] : e);
    }
}
/** `text` with every span (overlapping or touching ones merged) replaced by one MASK. */
function masked(text, spans) {
    if (spans.length === 0)
        return text;
    const order = Array.from({ length: spans.length / 2 }, (_, i) => i).sort((a, b) => spans[2 * a] - spans[2 * b]);
    let out = '';
    let pos = 0;
    let [start, end] = [spans[2 * order[0]], spans[2 * order[0] + 1]];
    for (const i of order.slice(1)) {
        const [s, e] = [spans[2 * i], spans[2 * i + 1]];
        if (s <= end)
            end = Math.max(end, e);
        else {
            out += text.slice(pos, start) + MASK;
            [pos, start, end] = [end, s, e];
        }
    }
    return out + text.slice(pos, start) + MASK + text.slice(end);
}
/** Every form in the text or one of its views masked; the text itself when none is there. */
function scrubText(text, p) {
    const hits = views(text, p, false).map(hit);
    if (!hits.some(Boolean))
        return text;
    const spans = [];
    views(text, p, true).forEach(([re, view], i) => {
        if (hits[i])
            collect(re, view(), spans);
    });
    return masked(text, spans);
}
/** The length of the longest end of `text` that begins some form (and may complete in the next chunk). */
function pendingTail(text, forms, firsts, longest) {
    for (let i = Math.max(0, text.length - longest + 1); i < text.length; i++) {
        if (!firsts.has(text.charAt(i)))
            continue;
        const tail = text.slice(i);
        if (forms.some((f) => f.length > tail.length && f.startsWith(tail)))
            return text.length - i;
    }
    return 0;
}
/**
 * The scrubber of a set of secret values (undefined, empty and too-short ones are ignored): every
 * form of each (see secretForms), also UTF-16, interrupted by whitespace (hex, base64) or written
 * with escapes (`%74%6F…`, `\x74…`), is masked as `***`. Precompiled regexes scan a text and at most
 * three views of it once each; a text without a secret is returned as it is.
 */
function createScrubber(values) {
    const vals = [...new Set([...values].filter((v) => !!v && v.length >= MIN_LOOP_SECRET))].sort((a, b) => b.length - a.length);
    const forms = [...new Set(vals.flatMap((v) => [...secretForms(v), ...utf16Forms(v)]))].sort((a, b) => b.length - a.length);
    const byteForms = [...new Set(forms.map((f) => Buffer.from(f, 'utf8').toString('latin1')))];
    const packedSet = new Set(vals.flatMap(packedForms));
    const packed = formsPattern([...packedSet]);
    const unpacked = forms.filter((f) => !packedSet.has(f));
    const bytePattern = formsPattern(byteForms);
    const text = { full: formsPattern(forms), unpacked: formsPattern(unpacked), packed, decoded: formsPattern([...forms, ...byteForms]), bytes: false };
    const byteUnpacked = formsPattern(unpacked.map((f) => Buffer.from(f, 'utf8').toString('latin1')));
    const bytes = { full: bytePattern, unpacked: byteUnpacked, packed, decoded: bytePattern, bytes: true };
    const longest = byteForms.reduce((m, f) => Math.max(m, f.length), 0);
    const firsts = new Set(byteForms.map((f) => f.charAt(0)));
    return {
        values: vals,
        scrub: (t) => scrubText(t, text),
        contains: (t) => (typeof t === 'string' ? holds(t, text) : holds(t.toString('latin1'), bytes)),
        byteStream() {
            let held = '';
            return {
                write(chunk) {
                    if (!bytePattern)
                        return chunk;
                    const spans = [];
                    const all = held + chunk.toString('latin1');
                    collect(bytePattern, { text: all }, spans);
                    const t = masked(all, spans);
                    const keep = pendingTail(t, byteForms, firsts, longest);
                    held = t.slice(t.length - keep);
                    return Buffer.from(t.slice(0, t.length - keep), 'latin1');
                },
                end() {
                    const rest = held;
                    held = '';
                    return Buffer.from(rest, 'latin1');
                },
            };
        },
    };
}
/** A logger whose every message is scrubbed first (the console is a text that leaves the machine). */
function scrubbingLogger(log, scrub) {
    return {
        info: (m) => log.info(scrub(m)),
        warn: (m) => log.warn(scrub(m)),
        error: (m) => log.error(scrub(m)),
    };
}

;// CONCATENATED MODULE: ./src/engine/os/secrets.ts
// Secrets: the one list of the loop's secret variable names, the one list of agent API key names,
// the agent's environment built from an allowlist (never the loop's secrets), and the values the
// one scrubber (scrubber.ts) hides in every text that leaves the agent's side or the machine
// (SPEC §7 "Secrets"). The scrubber's names are exported from here too: the hosts take everything
// about secrets from this module.



/**
 * The loop's private variables: never in the agent's (or the checks') environment. Names compare
 * case-insensitively (a runner or a user may pass `github_token`); the values of `secrets` are scrubbed
 * everywhere; prefixes cover every action input and saved state (`INPUT_GITHUB-TOKEN`, keeping the
 * dash of its input name, `STATE_*`), whose values are scrubbed when the name looks secret.
 */
const LOOP_PRIVATE = {
    secrets: ['GITHUB_TOKEN', 'GH_TOKEN', 'GITHUB_PAT', 'ACTIONS_RUNTIME_TOKEN', 'ACTIONS_ID_TOKEN_REQUEST_TOKEN'],
    /** Not secret values, but handles to the runner's services, to the step's file commands, and the loop's own list. */
    handles: [
        'ACTIONS_ID_TOKEN_REQUEST_URL',
        'ACTIONS_RESULTS_URL',
        'ACTIONS_RUNTIME_URL',
        'ACTIONS_CACHE_URL',
        'GITHUB_STATE',
        'GITHUB_OUTPUT',
        'GITHUB_ENV',
        'GITHUB_PATH',
        'GITHUB_STEP_SUMMARY',
        'PHUC_LOOP_SECRET_VARS',
    ],
    prefixes: ['INPUT_', 'STATE_'],
    /** Comma-separated names of further loop secrets (withheld and scrubbed like the built-in ones). */
    extraNamesVar: 'PHUC_LOOP_SECRET_VARS',
};
/** Agent API keys and tokens of the agent CLIs: passed to the agent unless a key proxy holds them; always scrubbed. */
const AGENT_KEY_NAMES = [
    'ANTHROPIC_API_KEY',
    'ANTHROPIC_AUTH_TOKEN',
    'CLAUDE_CODE_OAUTH_TOKEN',
    'OPENAI_API_KEY',
    'CODEX_API_KEY',
    'CODEX_ACCESS_TOKEN',
    'AZURE_OPENAI_API_KEY',
    'GEMINI_API_KEY',
    'GOOGLE_API_KEY',
    'OPENROUTER_API_KEY',
    'DEEPSEEK_API_KEY',
    'MISTRAL_API_KEY',
    'GROQ_API_KEY',
    'XAI_API_KEY',
    'AWS_BEARER_TOKEN_BEDROCK',
];
/**
 * A name that says it holds a credential, as a whole segment (`NPM_TOKEN`, `DEPLOY_KEY`; not
 * `TOKENIZERS_PARALLELISM`), or a password at the end of a segment (`PGPASSWORD`, `DB_ROOTPASSWD`).
 */
const SECRET_LOOKING = /(?:^|[_-])(?:API[_-]?KEY|KEY|TOKEN|SECRET|PASSPHRASE|CREDENTIALS?|PAT)(?:[_-]|$)|PASS(?:WORD|WD)(?:[_-]|$)/i;
/** The password of a URL with credentials (`postgres://user:PASSWORD@host`, `redis://:PASSWORD@host`), whatever its variable's name. */
const URL_PASSWORD = /^[a-z][a-z0-9+.-]*:\/\/[^/?#@:]*:([^/?#@]+)@/i;
/** A variable whose name merely looks secret must hold more than a flag or a word (`FOO_TOKEN=true`). */
const MIN_LOOKING_SECRET = 8;
const upper = (names) => new Set(names.map((n) => n.toUpperCase()));
const LOOP_SECRET_SET = upper(LOOP_PRIVATE.secrets);
const LOOP_HANDLE_SET = upper(LOOP_PRIVATE.handles);
const AGENT_KEY_SET = upper(AGENT_KEY_NAMES);
function extraSecretNames(env) {
    const list = Object.entries(env).find(([k]) => k.toUpperCase() === LOOP_PRIVATE.extraNamesVar)?.[1] ?? '';
    return upper(list
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean));
}
const hasPrivatePrefix = (upperName) => LOOP_PRIVATE.prefixes.some((p) => upperName.startsWith(p));
/** True when `name` is one of the loop's private variables (given the extra names of PHUC_LOOP_SECRET_VARS). */
function isLoopPrivate(name, extra) {
    const u = name.toUpperCase();
    return LOOP_SECRET_SET.has(u) || LOOP_HANDLE_SET.has(u) || hasPrivatePrefix(u) || extra.has(u) || GIT_SETUP.test(u);
}
/**
 * The loop's own git setup in the environment: configuration injected by variables (a push URL
 * with a token, an extra auth header), credential helpers and the ssh agent. Never the agent's.
 */
const GIT_SETUP = /^(GIT_CONFIG_(COUNT|KEY_\d+|VALUE_\d+|PARAMETERS|GLOBAL|SYSTEM|NOSYSTEM)|GIT_ASKPASS|SSH_ASKPASS|SSH_AUTH_SOCK|GIT_SSH(_COMMAND)?)$/;
/**
 * What every agent gets of the loop's environment, whatever its preset: the locale and time zone,
 * how to draw on a terminal, whether it runs in CI, where the machine's CA certificates are (a TLS
 * proxy of the network), and the loop's own PHUC_* variables. None of them holds a credential or
 * the address of a service; anything else comes from the preset's allowance or agent.pass_env.
 */
/**
 * Where the machine's CA certificates are, for each toolchain that reads its own variable: on a
 * network that inspects TLS, an agent or a `checks.setup: npm ci` without them hangs or fails.
 * Paths, never credentials; the agent and the checks both get them.
 */
const CA_BUNDLE_VARS = [
    'NODE_EXTRA_CA_CERTS',
    'SSL_CERT_FILE',
    'SSL_CERT_DIR',
    'REQUESTS_CA_BUNDLE',
    'CURL_CA_BUNDLE',
    'PIP_CERT',
    'NPM_CONFIG_CAFILE',
    'GIT_SSL_CAINFO',
    'CARGO_HTTP_CAINFO',
];
const BASE_AGENT_ENV = {
    names: ['PATH', 'LANG', 'LANGUAGE', 'TZ', 'TERM', 'COLORTERM', 'NO_COLOR', 'FORCE_COLOR', 'CI', ...CA_BUNDLE_VARS],
    prefixes: ['LC_', 'PHUC_'],
};
/** The allowance of `agent.pass_env`: `FOO_*` is a prefix, anything else a name. */
function passAllowance(pass) {
    return {
        names: pass.filter((p) => !p.endsWith('*')),
        prefixes: pass.filter((p) => p.endsWith('*')).map((p) => p.slice(0, -1)),
    };
}
function allows(a) {
    if (!a)
        return () => false;
    const names = upper(a.names);
    const prefixes = a.prefixes.map((p) => p.toUpperCase()).filter(Boolean);
    return (u) => names.has(u) || prefixes.some((p) => u.startsWith(p));
}
/**
 * The agent's environment, from an allowlist of the loop's (SPEC §7): BASE_AGENT_ENV, the preset's
 * own variables (`allow`) and `pass` (agent.pass_env), never the loop's secrets and handles, plus
 * `extra` (the PHUC_* variables, a key proxy's variables). A name that looks secret is withheld
 * unless `pass` names it or it is an agent key of the preset's (kept unless a key proxy holds it).
 * Without a preset allowance (the live checks) it is the base alone.
 */
function agentEnvironment(base, extra = {}, opts = {}) {
    const names = extraSecretNames(base);
    const keepKeys = opts.keepAgentKeys ?? true;
    const inBase = allows(BASE_AGENT_ENV);
    const inPreset = allows(opts.allow);
    const passed = allows(passAllowance(opts.pass ?? []));
    const env = {};
    for (const [name, value] of Object.entries(base)) {
        if (value === undefined || isLoopPrivate(name, names))
            continue;
        const u = name.toUpperCase();
        const given = AGENT_KEY_SET.has(u) ? keepKeys && (inPreset(u) || passed(u)) : passed(u) || ((inBase(u) || inPreset(u)) && !withheldAsSecret(u, value));
        if (given)
            env[name] = value;
    }
    return Object.assign(env, extra);
}
/**
 * A variable whose name says it holds a credential (NPM_TOKEN, AWS_SECRET_ACCESS_KEY) is not the
 * agent's unless the config passes it: scrubbing its value from what comes back does not stop an
 * agent that encodes it first.
 */
const withheldAsSecret = (upperName, value) => SECRET_LOOKING.test(upperName) && value.length >= MIN_LOOKING_SECRET;
function safeDecode(s) {
    try {
        return decodeURIComponent(s);
    }
    catch {
        return s;
    }
}
/**
 * Every value in `env` to scrub from what leaves the agent's side: the loop's secrets (and the names
 * in PHUC_LOOP_SECRET_VARS), inputs and saved state whose names look secret, the agent keys, any
 * variable whose name looks secret, and the password of any URL with credentials. Each once, longest first.
 */
function secretValues(env) {
    const extra = extraSecretNames(env);
    const values = new Set();
    for (const [name, value] of Object.entries(env)) {
        if (value === undefined || value.length < MIN_LOOP_SECRET)
            continue;
        const u = name.toUpperCase();
        if (LOOP_HANDLE_SET.has(u))
            continue;
        const looksSecret = SECRET_LOOKING.test(u);
        // An input or saved state whose name only looks secret (INPUT_KEY-PROXY: "true") must be long
        // enough to be one: masking every "true" would corrupt the evidence JSON.
        if (LOOP_SECRET_SET.has(u) || extra.has(u) || (hasPrivatePrefix(u) && looksSecret && value.length >= MIN_LOOKING_SECRET))
            values.add(value);
        else if (value.length >= MIN_LOOKING_SECRET && (AGENT_KEY_SET.has(u) || looksSecret))
            values.add(value);
        // A URL that carries a password (DATABASE_URL, HTTPS_PROXY given by agent.pass_env): the password is a secret.
        const password = URL_PASSWORD.exec(value)?.[1];
        if (password && password.length >= MIN_LOOKING_SECRET) {
            values.add(password);
            const decoded = safeDecode(password);
            if (decoded.length >= MIN_LOOKING_SECRET)
                values.add(decoded);
        }
    }
    return [...values].sort((a, b) => b.length - a.length);
}


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


/***/ }),

/***/ 62660:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   qE: () => (/* binding */ installSignalStop),
/* harmony export */   uU: () => (/* binding */ trackProcessGroup)
/* harmony export */ });
/* unused harmony exports DEFAULT_HURRY_MS, abortExitCode */
/* harmony import */ var node_os__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(48161);
/* harmony import */ var node_os__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_os__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _stops_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(39584);
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


const SIGNALS = ['SIGINT', 'SIGTERM'];
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
    return 128 + node_os__WEBPACK_IMPORTED_MODULE_0__.constants.signals[sig];
}
function installSignalStop(o) {
    const target = o.target ?? process;
    const hurryMs = o.hurryMs ?? DEFAULT_HURRY_MS;
    const stop = new _stops_js__WEBPACK_IMPORTED_MODULE_1__/* .SignalStop */ .H$();
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


/***/ }),

/***/ 4461:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Ln: () => (/* binding */ SYSTEM_DIRS),
/* harmony export */   _f: () => (/* binding */ systemTool),
/* harmony export */   v0: () => (/* binding */ startChild)
/* harmony export */ });
/* unused harmony exports startVia, startDirect */
/* harmony import */ var node_child_process__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(31421);
/* harmony import */ var node_child_process__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_child_process__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(73024);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__webpack_require__.n(node_fs__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var node_os__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(48161);
/* harmony import */ var node_os__WEBPACK_IMPORTED_MODULE_2___default = /*#__PURE__*/__webpack_require__.n(node_os__WEBPACK_IMPORTED_MODULE_2__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(76760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_3___default = /*#__PURE__*/__webpack_require__.n(node_path__WEBPACK_IMPORTED_MODULE_3__);
/* harmony import */ var node_stream__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(57075);
/* harmony import */ var node_stream__WEBPACK_IMPORTED_MODULE_4___default = /*#__PURE__*/__webpack_require__.n(node_stream__WEBPACK_IMPORTED_MODULE_4__);
/* harmony import */ var _programs_js__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(59980);
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
const errnoNames = new Map(Object.entries(node_os__WEBPACK_IMPORTED_MODULE_2__.constants.errno).map(([name, n]) => [n, name]));
const signalNames = new Map(Object.entries(node_os__WEBPACK_IMPORTED_MODULE_2__.constants.signals).map(([name, n]) => [n, name]));
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
            const out = new node_stream__WEBPACK_IMPORTED_MODULE_4__.PassThrough();
            const err = new node_stream__WEBPACK_IMPORTED_MODULE_4__.PassThrough();
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
            (0,node_fs__WEBPACK_IMPORTED_MODULE_1__.accessSync)((0,node_path__WEBPACK_IMPORTED_MODULE_3__.join)(dir, name), node_fs__WEBPACK_IMPORTED_MODULE_1__.constants.X_OK);
            return (0,node_path__WEBPACK_IMPORTED_MODULE_3__.join)(dir, name);
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
            ? (0,node_child_process__WEBPACK_IMPORTED_MODULE_0__.spawn)(perl, ['-e', (0,_programs_js__WEBPACK_IMPORTED_MODULE_5__/* .programText */ .Q3)('spawn-helper.pl')], { cwd: '/', env: {}, stdio: ['pipe', 'pipe', 'ignore'], detached: true })
            : (0,node_child_process__WEBPACK_IMPORTED_MODULE_0__.spawn)(process.execPath, ['-e', `var __name = (f) => f;\n(${helperMain.toString()})(require('node:child_process'));`], {
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
        const child = (0,node_child_process__WEBPACK_IMPORTED_MODULE_0__.spawn)(command, args, { cwd: o.cwd, env: o.env, detached: true, stdio: 'pipe' });
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


/***/ }),

/***/ 39584:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   BL: () => (/* binding */ StopFile),
/* harmony export */   H$: () => (/* binding */ SignalStop),
/* harmony export */   Tn: () => (/* binding */ watchStops),
/* harmony export */   jh: () => (/* binding */ firstStop),
/* harmony export */   pH: () => (/* binding */ pauseStep),
/* harmony export */   pl: () => (/* binding */ DiskUsage)
/* harmony export */ });
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
        return (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.access)(this.path).then(() => `${this.display} exists`, () => null);
    }
}
class DiskUsage {
    path;
    limit;
    stat;
    name = 'disk';
    constructor(path, limit = 0.9, stat = (p) => (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.statfs)(p)) {
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
