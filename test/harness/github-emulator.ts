// An offline stand-in for GitHub, in one local HTTP server:
//   - the REST API (the operations listed in build-openapi-subset.mjs), every request and every
//     response validated against GitHub's own OpenAPI description (openapi-subset.json);
//   - the Actions artifact service (twirp, as @actions/artifact 6 calls it);
//   - the Azure-blob signed URLs the artifact service hands out (block upload, download).
// The emulator owns its data: tests seed it (repos, PRs, labels, comments, permissions, runs,
// artifacts) and inspect it afterwards. Anything the client did wrong lands in `violations`.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import openapiBackend from 'openapi-backend';
import type { Operation } from 'openapi-backend';
import addFormatsPkg from 'ajv-formats';
import { makeZip, readZip } from './zip.js';

const { OpenAPIBackend } = openapiBackend;
type Backend = InstanceType<typeof OpenAPIBackend>;

// ---------------------------------------------------------------------------------------------
// Public types

export type Permission = 'admin' | 'maintain' | 'write' | 'triage' | 'read' | 'none';
export type CallKind = 'rest' | 'twirp' | 'blob' | 'unknown';

export interface CallRecord {
  seq: number;
  kind: CallKind;
  method: string;
  /** URL path without the query string (percent-encoding kept). */
  path: string;
  query: string;
  status: number;
  /** REST operationId (e.g. `issues/update-comment`) or twirp method (e.g. `CreateArtifact`). */
  operation?: string;
  /** The token the request carried (REST `token X`/`Bearer X`, twirp Bearer), if any. */
  token?: string;
  /** True when the status came from failNext(). */
  injected: boolean;
  /** For an injected fault: whether the operation's effect was applied before it was served. */
  faultPhase?: FaultPhase;
  /** The injected fault held the request without an answer until the client gave up. */
  timedOut?: boolean;
  /** Parsed JSON request body, when there was one (blob bodies are not kept). */
  body?: unknown;
}

export interface Violation {
  kind: 'request' | 'response' | 'unknown-operation' | 'auth' | 'twirp' | 'blob' | 'emulator';
  method: string;
  path: string;
  operation?: string;
  status?: number;
  message: string;
  errors?: unknown[];
}

export interface CallMatch {
  method?: string;
  /** Compared with the URL path (no query), e.g. `/repos/o/r/issues/` or `/twirp/`. */
  pathPrefix?: string;
  operation?: string;
  kind?: CallKind;
}

/** An injected failure: an HTTP status, 0 to drop the connection, or 'timeout' to never answer. */
export type Fault = number | 'timeout';
/**
 * 'before': the request fails before anything happens. 'after' (REST only): the operation is
 * applied (a comment created, a label added) and then the fault is served instead of its answer,
 * as when GitHub did the work but the response was lost.
 */
export type FaultPhase = 'before' | 'after';

export interface FaultRule extends CallMatch {
  /** Faults still to serve, in order. */
  remaining: Fault[];
  phase: FaultPhase;
  headers?: Record<string, string>;
}

export interface RepoState {
  id: number;
  owner: string;
  name: string;
  fullName: string;
  private: boolean;
  defaultBranch: string;
  fork: boolean;
  parent?: string;
  description: string | null;
  createdAt: string;
}

export interface BranchRef {
  ref: string;
  sha: string;
  /** full name of the repository holding the ref (a fork for fork PRs). */
  repo: string;
}

export interface IssueState {
  repo: string;
  number: number;
  id: number;
  title: string;
  body: string | null;
  state: 'open' | 'closed';
  user: string;
  isPull: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface PullState extends IssueState {
  isPull: true;
  pullId: number;
  draft: boolean;
  head: BranchRef;
  base: BranchRef;
  merged: boolean;
}

export interface CommentState {
  id: number;
  repo: string;
  issueNumber: number;
  body: string;
  user: string;
  createdAt: string;
  updatedAt: string;
}

export interface RunState {
  id: number;
  repo: string;
  runBackendId: string;
  jobBackendId: string;
  name: string;
  workflowPath: string;
  workflowId: number;
  checkSuiteId: number;
  event: string;
  headBranch: string;
  headSha: string;
  /** full name of the repository the head commit comes from. */
  headRepo: string;
  status: 'queued' | 'in_progress' | 'completed';
  conclusion: string | null;
  runNumber: number;
  runAttempt: number;
  actor: string;
  displayTitle: string;
  createdAt: string;
  updatedAt: string;
}

export interface ArtifactState {
  id: number;
  repo: string;
  runId: number;
  runBackendId: string;
  jobBackendId: string;
  name: string;
  /** Blob file name: `<name>.zip` for zipped artifacts, the file's own name with skipArchive. */
  fileName: string;
  mimeType: string;
  size: number;
  /** `sha256:<hex>` of the blob, once known. */
  digest: string | null;
  createdAt: string;
  updatedAt: string;
  expiresAt: string;
  finalized: boolean;
  expired: boolean;
  deleted: boolean;
  uploadSig: string;
  downloadSig: string;
  blocks: Map<string, Buffer>;
  blob: Buffer | null;
  blobContentType: string;
}

export interface TokenInfo {
  login: string;
  /** Write operations answer 403 "Resource not accessible by integration" (fork PR tokens). */
  readOnly?: boolean;
}

export interface EmulatedRun extends RunState {
  /** ACTIONS_RUNTIME_TOKEN for this run's job (scp: Actions.Results:<run>:<job>). */
  runtimeToken: string;
  /** The environment the runner would give a step of this run (GITHUB_*, ACTIONS_*). */
  env(extra?: { token?: string }): Record<string, string>;
}

export interface StartOptions {
  host?: string;
  port?: number;
  /** Clock for created_at/updated_at; default real time. */
  now?: () => Date;
  /** REST calls without Authorization get 401 (and an `auth` violation). Default true. */
  requireAuth?: boolean;
}

// ---------------------------------------------------------------------------------------------
// OpenAPI: loaded once per process

const SUBSET_URL = new URL('./openapi-subset.json', import.meta.url);
let backendPromise: Promise<Backend> | undefined;

/** OpenAPI 3.0 `nullable` → JSON Schema, which ajv needs where GitHub writes nullable without type. */
function normalizeNullable(node: unknown, inProperties = false): unknown {
  if (Array.isArray(node)) return node.map((n) => normalizeNullable(n));
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) out[k] = normalizeNullable(v, !inProperties && k === 'properties');
  if (!inProperties && out['nullable'] === true) {
    delete out['nullable'];
    return { anyOf: [out, { type: 'null' }] };
  }
  return out;
}

export function loadOpenApiBackend(): Promise<Backend> {
  backendPromise ??= (async () => {
    const definition = normalizeNullable(JSON.parse(readFileSync(SUBSET_URL, 'utf8'))) as never;
    const addFormats = (addFormatsPkg as unknown as { default?: (a: unknown) => unknown }).default ?? (addFormatsPkg as never);
    const api = new OpenAPIBackend({
      definition,
      quick: true, // lazy validator compilation; the subset is validated when it is built
      validate: true,
      coerceTypes: true,
      customizeAjv: (ajv) => {
        addFormats(ajv);
        ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isSafeInteger(n) });
        ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && Math.abs(n) < 2 ** 31 });
        return ajv;
      },
    });
    await api.init();
    return api;
  })();
  return backendPromise;
}

// ---------------------------------------------------------------------------------------------
// Helpers

const DOCS = 'https://docs.github.com/rest';
const HTML = 'https://github.com';
const BLOB_PREFIX = '/devstoreaccount1/actions-results/';
const TWIRP_PREFIX = '/twirp/github.actions.results.api.v1.ArtifactService/';
const KNOWN_USER_IDS: Record<string, number> = { 'github-actions[bot]': 41898282 };
const WRITE_OPS = new Set([
  'issues/add-labels',
  'issues/set-labels',
  'issues/remove-all-labels',
  'issues/remove-label',
  'issues/create-comment',
  'issues/update-comment',
  'issues/delete-comment',
  'actions/delete-artifact',
]);

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

interface HandlerResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

interface RestContext {
  params: Record<string, string>;
  query: Record<string, string>;
  body: unknown;
  token?: string;
  login: string;
}

function isoSeconds(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function nodeId(prefix: string, id: number): string {
  return `${prefix}_${Buffer.from(String(id)).toString('base64url')}`;
}

function userId(login: string): number {
  if (KNOWN_USER_IDS[login]) return KNOWN_USER_IDS[login];
  const h = createHash('sha256').update(login).digest();
  return 1000 + (h.readUInt32BE(0) % 90_000_000);
}

function base64url(s: string): string {
  return Buffer.from(s, 'utf8').toString('base64url');
}

/** A JWT-shaped ACTIONS_RUNTIME_TOKEN; @actions/artifact only base64-decodes its payload. */
export function mintRuntimeToken(runBackendId: string, jobBackendId: string, extraScopes: string[] = []): string {
  const now = Math.floor(Date.now() / 1000);
  const header = { typ: 'JWT', alg: 'RS256', x5t: 'emulator' };
  const payload = {
    nameid: 'dddddddd-dddd-dddd-dddd-dddddddddddd',
    scp: [
      ...extraScopes,
      'Actions.GenericRead:00000000-0000-0000-0000-000000000000',
      `Actions.Results:${runBackendId}:${jobBackendId}`,
      'Actions.UploadArtifacts:00000000-0000-0000-0000-000000000000/1:emulator',
    ].join(' '),
    iss: 'vstoken.actions.githubusercontent.com',
    aud: 'vso:00000000-0000-0000-0000-000000000000',
    nbf: now - 60,
    exp: now + 6 * 3600,
  };
  return `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(payload))}.${base64url('emulator-signature')}`;
}

/** The `Actions.Results:<run>:<job>` pair in a runtime token, or an error message. */
export function decodeRuntimeToken(token: string): { runBackendId: string; jobBackendId: string } | string {
  const parts = token.split('.');
  if (parts.length !== 3) return 'runtime token is not a JWT (three dot-separated parts)';
  let payload: { scp?: unknown };
  try {
    payload = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')) as { scp?: unknown };
  } catch {
    return 'runtime token payload is not base64url JSON';
  }
  if (typeof payload.scp !== 'string') return 'runtime token has no scp claim';
  for (const scope of payload.scp.split(' ')) {
    const p = scope.split(':');
    if (p[0] === 'Actions.Results' && p.length === 3) return { runBackendId: p[1], jobBackendId: p[2] };
  }
  return 'runtime token scp has no Actions.Results:<run>:<job> scope';
}

function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function matches(m: CallMatch, c: { method: string; path: string; operation?: string; kind: CallKind }): boolean {
  if (m.method && m.method.toUpperCase() !== c.method) return false;
  if (m.pathPrefix && !c.path.startsWith(m.pathPrefix)) return false;
  if (m.operation && m.operation !== c.operation) return false;
  if (m.kind && m.kind !== c.kind) return false;
  return true;
}

function tokenFrom(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const m = /^(?:token|bearer|basic)\s+(.+)$/i.exec(header.trim());
  return m ? m[1] : header.trim();
}

// ---------------------------------------------------------------------------------------------

export class GitHubEmulator {
  /** Base URL: GITHUB_API_URL and ACTIONS_RESULTS_URL both point here. */
  url = '';
  readonly violations: Violation[] = [];
  readonly calls: CallRecord[] = [];
  readonly repos = new Map<string, RepoState>();
  /** key `owner/repo#number`; pull requests are issues too. */
  readonly issues = new Map<string, IssueState | PullState>();
  /** key `owner/repo#number` → label names on that issue. */
  readonly issueLabels = new Map<string, string[]>();
  /** key `owner/repo` → label name → definition. */
  readonly labelDefs = new Map<string, Map<string, { id: number; color: string; description: string | null }>>();
  readonly comments = new Map<number, CommentState>();
  /** key `owner/repo` → login → permission. */
  readonly permissions = new Map<string, Map<string, Permission>>();
  readonly runs = new Map<number, RunState>();
  readonly artifacts = new Map<number, ArtifactState>();
  readonly tokens = new Map<string, TokenInfo>();
  /** Token-less default identity for REST writes. */
  defaultLogin = 'github-actions[bot]';

  private readonly faults: FaultRule[] = [];
  private readonly tamperers: { operation: string; fn: (body: unknown) => unknown }[] = [];
  private readonly sockets = new Set<Socket>();
  private server!: http.Server;
  private api!: Backend;
  private readonly now: () => Date;
  private readonly requireAuth: boolean;
  private seq = 0;
  private ids = {
    repo: 600_000_001,
    issue: 2_100_000_001,
    pull: 1_900_000_001,
    comment: 3_000_000_001,
    run: 12_000_000_001,
    artifact: 4_000_000_001,
    label: 7_000_000_001,
    workflow: 90_000_001,
    checkSuite: 30_000_000_001,
  };
  private runNumbers = new Map<string, number>();

  constructor(opts: StartOptions = {}) {
    this.now = opts.now ?? (() => new Date());
    this.requireAuth = opts.requireAuth ?? true;
  }

  async start(host = '127.0.0.1', port = 0): Promise<this> {
    this.api = await loadOpenApiBackend();
    this.server = http.createServer((req, res) => {
      this.handle(req, res).catch((err: unknown) => {
        this.violations.push({
          kind: 'emulator',
          method: req.method ?? '',
          path: req.url ?? '',
          message: `emulator crashed: ${String((err as Error)?.stack ?? err)}`,
        });
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ message: 'emulator error', documentation_url: DOCS }));
      });
    });
    this.server.on('connection', (s: Socket) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve) => this.server.listen(port, host, resolve));
    const addr = this.server.address() as AddressInfo;
    this.url = `http://${host}:${addr.port}`;
    return this;
  }

  async close(): Promise<void> {
    if (!this.server) return;
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      for (const s of this.sockets) s.destroy();
    });
  }

  // ------------------------------------------------------------------ seeding and inspection

  private stamp(): string {
    return isoSeconds(this.now());
  }

  addRepo(fullName: string, opts: { private?: boolean; defaultBranch?: string; fork?: boolean; parent?: string; description?: string | null } = {}): RepoState {
    const [owner, name] = fullName.split('/');
    if (!owner || !name) throw new Error(`repo must be owner/name, got ${fullName}`);
    const repo: RepoState = {
      id: this.ids.repo++,
      owner,
      name,
      fullName,
      private: opts.private ?? false,
      defaultBranch: opts.defaultBranch ?? 'main',
      fork: opts.fork ?? Boolean(opts.parent),
      parent: opts.parent,
      description: opts.description ?? null,
      createdAt: this.stamp(),
    };
    this.repos.set(fullName, repo);
    if (!this.permissions.has(fullName)) this.permissions.set(fullName, new Map([[owner, 'admin']]));
    return repo;
  }

  addIssue(
    repo: string,
    opts: { number?: number; title?: string; body?: string | null; user?: string; labels?: string[]; state?: 'open' | 'closed' } = {},
  ): IssueState {
    this.requireRepo(repo);
    const number = opts.number ?? this.nextNumber(repo);
    const t = this.stamp();
    const issue: IssueState = {
      repo,
      number,
      id: this.ids.issue++,
      title: opts.title ?? `Issue ${number}`,
      body: opts.body ?? null,
      state: opts.state ?? 'open',
      user: opts.user ?? 'octocat',
      isPull: false,
      createdAt: t,
      updatedAt: t,
    };
    this.issues.set(`${repo}#${number}`, issue);
    this.setLabels(repo, number, opts.labels ?? []);
    return issue;
  }

  /** A pull request. head.repo defaults to the base repo; give another full name for a fork (created if missing). */
  addPull(
    repo: string,
    opts: {
      number?: number;
      title?: string;
      body?: string | null;
      user?: string;
      labels?: string[];
      state?: 'open' | 'closed';
      draft?: boolean;
      head: { ref: string; sha: string; repo?: string };
      base?: { ref?: string; sha?: string };
    },
  ): PullState {
    const r = this.requireRepo(repo);
    const headRepo = opts.head.repo ?? repo;
    if (!this.repos.has(headRepo)) this.addRepo(headRepo, { fork: true, parent: repo });
    const number = opts.number ?? this.nextNumber(repo);
    const t = this.stamp();
    const pull: PullState = {
      repo,
      number,
      id: this.ids.issue++,
      pullId: this.ids.pull++,
      title: opts.title ?? `PR ${number}`,
      body: opts.body ?? null,
      state: opts.state ?? 'open',
      user: opts.user ?? headRepo.split('/')[0],
      isPull: true,
      draft: opts.draft ?? false,
      head: { ref: opts.head.ref, sha: opts.head.sha, repo: headRepo },
      base: { ref: opts.base?.ref ?? r.defaultBranch, sha: opts.base?.sha ?? '0'.repeat(40), repo },
      merged: false,
      createdAt: t,
      updatedAt: t,
    };
    this.issues.set(`${repo}#${number}`, pull);
    this.setLabels(repo, number, opts.labels ?? []);
    return pull;
  }

  pull(repo: string, number: number): PullState {
    const p = this.issues.get(`${repo}#${number}`);
    if (!p || !p.isPull) throw new Error(`no pull request ${repo}#${number}`);
    return p as PullState;
  }

  /** Moves a PR head (e.g. after someone else pushed). */
  setPullHead(repo: string, number: number, sha: string): void {
    const p = this.pull(repo, number);
    p.head.sha = sha;
    p.updatedAt = this.stamp();
  }

  setLabels(repo: string, issueNumber: number, names: string[]): void {
    for (const n of names) this.labelDef(repo, n);
    this.issueLabels.set(`${repo}#${issueNumber}`, [...new Set(names)]);
  }

  labels(repo: string, issueNumber: number): string[] {
    return [...(this.issueLabels.get(`${repo}#${issueNumber}`) ?? [])];
  }

  addComment(repo: string, issueNumber: number, body: string, opts: { user?: string } = {}): CommentState {
    this.requireIssue(repo, issueNumber);
    const t = this.stamp();
    const c: CommentState = { id: this.ids.comment++, repo, issueNumber, body, user: opts.user ?? 'octocat', createdAt: t, updatedAt: t };
    this.comments.set(c.id, c);
    return c;
  }

  commentsOn(repo: string, issueNumber: number): CommentState[] {
    return [...this.comments.values()].filter((c) => c.repo === repo && c.issueNumber === issueNumber).sort((a, b) => a.id - b.id);
  }

  setPermission(repo: string, login: string, permission: Permission): void {
    this.requireRepo(repo);
    this.permissions.get(repo)!.set(login, permission);
  }

  /** Who a token acts as; unregistered tokens act as `defaultLogin` (github-actions[bot]). */
  registerToken(token: string, info: TokenInfo): void {
    this.tokens.set(token, info);
  }

  /** A workflow run (and its job's backend ids); artifacts uploaded with its runtime token belong to it. */
  createRun(
    repo: string,
    opts: {
      id?: number;
      headBranch?: string;
      headSha?: string;
      headRepo?: string;
      event?: string;
      name?: string;
      workflowPath?: string;
      actor?: string;
      runAttempt?: number;
      status?: RunState['status'];
      conclusion?: string | null;
      displayTitle?: string;
    } = {},
  ): EmulatedRun {
    const r = this.requireRepo(repo);
    const workflowPath = opts.workflowPath ?? '.github/workflows/phuc-loop.yml';
    const key = `${repo}:${workflowPath}`;
    const runNumber = (this.runNumbers.get(key) ?? 0) + 1;
    this.runNumbers.set(key, runNumber);
    const t = this.stamp();
    const run: RunState = {
      id: opts.id ?? this.ids.run++,
      repo,
      runBackendId: randomUUID(),
      jobBackendId: randomUUID(),
      name: opts.name ?? 'phuc-loop',
      workflowPath,
      workflowId: this.workflowIdFor(key),
      checkSuiteId: this.ids.checkSuite++,
      event: opts.event ?? 'pull_request',
      headBranch: opts.headBranch ?? r.defaultBranch,
      headSha: opts.headSha ?? 'f'.repeat(40),
      headRepo: opts.headRepo ?? repo,
      status: opts.status ?? 'in_progress',
      conclusion: opts.conclusion ?? null,
      runNumber,
      runAttempt: opts.runAttempt ?? 1,
      actor: opts.actor ?? r.owner,
      displayTitle: opts.displayTitle ?? `run ${runNumber}`,
      createdAt: t,
      updatedAt: t,
    };
    this.runs.set(run.id, run);
    return this.asEmulatedRun(run);
  }

  private workflowIds = new Map<string, number>();
  private workflowIdFor(key: string): number {
    if (!this.workflowIds.has(key)) this.workflowIds.set(key, this.ids.workflow++);
    return this.workflowIds.get(key)!;
  }

  private asEmulatedRun(run: RunState): EmulatedRun {
    const runtimeToken = mintRuntimeToken(run.runBackendId, run.jobBackendId);
    return Object.assign(run, {
      runtimeToken,
      env: (extra: { token?: string } = {}): Record<string, string> => {
        const [owner] = run.repo.split('/');
        const pull = [...this.issues.values()].find((i): i is PullState => i.isPull && i.repo === run.repo && (i as PullState).head.ref === run.headBranch);
        const env: Record<string, string> = {
          GITHUB_ACTIONS: 'true',
          CI: 'true',
          GITHUB_SERVER_URL: HTML,
          GITHUB_API_URL: this.url,
          GITHUB_GRAPHQL_URL: `${this.url}/graphql`,
          ACTIONS_RESULTS_URL: `${this.url}/`,
          ACTIONS_RUNTIME_URL: `${this.url}/_runtime/`,
          ACTIONS_RUNTIME_TOKEN: runtimeToken,
          GITHUB_REPOSITORY: run.repo,
          GITHUB_REPOSITORY_OWNER: owner,
          GITHUB_REPOSITORY_ID: String(this.repos.get(run.repo)!.id),
          GITHUB_RUN_ID: String(run.id),
          GITHUB_RUN_NUMBER: String(run.runNumber),
          GITHUB_RUN_ATTEMPT: String(run.runAttempt),
          GITHUB_WORKFLOW: run.name,
          GITHUB_WORKFLOW_REF: `${run.repo}/${run.workflowPath}@refs/heads/${run.headBranch}`,
          GITHUB_JOB: 'loop',
          GITHUB_ACTOR: run.actor,
          GITHUB_TRIGGERING_ACTOR: run.actor,
          GITHUB_EVENT_NAME: run.event,
          GITHUB_SHA: run.headSha,
          GITHUB_REF: pull && run.event.startsWith('pull_request') ? `refs/pull/${pull.number}/merge` : `refs/heads/${run.headBranch}`,
          GITHUB_REF_NAME: pull && run.event.startsWith('pull_request') ? `${pull.number}/merge` : run.headBranch,
          GITHUB_REF_TYPE: 'branch',
          GITHUB_HEAD_REF: pull && run.event.startsWith('pull_request') ? pull.head.ref : '',
          GITHUB_BASE_REF: pull && run.event.startsWith('pull_request') ? pull.base.ref : '',
        };
        if (extra.token) env['GITHUB_TOKEN'] = extra.token;
        return env;
      },
    });
  }

  /** A `pull_request` event payload (for GITHUB_EVENT_PATH) built from the emulator's state. */
  pullRequestEvent(repo: string, number: number, action = 'synchronize'): Record<string, unknown> {
    const p = this.pull(repo, number);
    return { action, number, pull_request: this.pullJson(p), repository: this.repoJson(repo, 'repository'), sender: this.user(p.user) };
  }

  /** A `workflow_dispatch` event payload. */
  workflowDispatchEvent(repo: string, inputs: Record<string, string> = {}, ref?: string): Record<string, unknown> {
    const r = this.requireRepo(repo);
    return {
      inputs,
      ref: ref ?? `refs/heads/${r.defaultBranch}`,
      repository: this.repoJson(repo, 'repository'),
      sender: this.user(r.owner),
      workflow: '.github/workflows/phuc-loop.yml',
    };
  }

  completeRun(runId: number, conclusion: string = 'success'): void {
    const run = this.runs.get(runId);
    if (!run) throw new Error(`no run ${runId}`);
    run.status = 'completed';
    run.conclusion = conclusion;
    run.updatedAt = this.stamp();
  }

  /** Seeds a finalized artifact on a run; `files` are zipped (or pass `zip` bytes). */
  addArtifact(runId: number, name: string, content: { files?: Record<string, string | Uint8Array>; zip?: Uint8Array; expired?: boolean }): ArtifactState {
    const run = this.runs.get(runId);
    if (!run) throw new Error(`no run ${runId}`);
    const blob = Buffer.from(content.zip ?? makeZip(content.files ?? {}));
    const a = this.newArtifact(run, name, 'application/zip', undefined);
    a.blob = blob;
    a.blobContentType = 'application/zip';
    a.size = blob.length;
    a.digest = `sha256:${createHash('sha256').update(blob).digest('hex')}`;
    a.finalized = true;
    a.expired = content.expired ?? false;
    return a;
  }

  expireArtifact(id: number): void {
    const a = this.artifacts.get(id);
    if (!a) throw new Error(`no artifact ${id}`);
    a.expired = true;
  }

  /** Finalized, not deleted artifacts, optionally of one run and/or name, oldest first. */
  listArtifacts(filter: { runId?: number; name?: string; repo?: string } = {}): ArtifactState[] {
    return [...this.artifacts.values()]
      .filter(
        (a) =>
          a.finalized &&
          !a.deleted &&
          (filter.runId === undefined || a.runId === filter.runId) &&
          (filter.name === undefined || a.name === filter.name) &&
          (filter.repo === undefined || a.repo === filter.repo),
      )
      .sort((a, b) => a.id - b.id);
  }

  /** The stored blob of an artifact, unzipped (throws when it is not a zip). */
  artifactFiles(id: number): Map<string, Buffer> {
    const a = this.artifacts.get(id);
    if (!a?.blob) throw new Error(`artifact ${id} has no uploaded blob`);
    return readZip(a.blob);
  }

  // ------------------------------------------------------------------ fault injection and counters

  /**
   * The next matching requests fail with these faults (a status, 0 = drop the connection, 'timeout'
   * = hold the request unanswered until the client gives up), then normal service resumes. With
   * `phase: 'after'` each failing REST request is applied first (see FaultPhase).
   */
  failNext(match: CallMatch, faults: Fault[], opts: { headers?: Record<string, string>; phase?: FaultPhase } = {}): FaultRule {
    const rule: FaultRule = { ...match, remaining: [...faults], phase: opts.phase ?? 'before', headers: opts.headers };
    this.faults.push(rule);
    return rule;
  }

  clearFaults(): void {
    this.faults.length = 0;
    this.tamperers.length = 0;
  }

  /**
   * Rewrites the response body of a REST operation before it is validated and sent, e.g. to
   * imitate a GitHub quirk or to prove that response validation catches a bad body.
   */
  tamperResponses(operation: string, fn: (body: unknown) => unknown): void {
    this.tamperers.push({ operation, fn });
  }

  /** Number of recorded calls matching, optionally only those from index `since` on (use `gh.calls.length` as a mark). */
  countCalls(match: CallMatch & { status?: number } = {}, since = 0): number {
    return this.calls.slice(since).filter((c) => matches(match, c) && (match.status === undefined || c.status === match.status)).length;
  }

  /** A table of `METHOD operation-or-path → count`, handy in assertion messages. */
  callSummary(since = 0): Record<string, number> {
    const out: Record<string, number> = {};
    for (const c of this.calls.slice(since)) {
      const k = `${c.method} ${c.operation ?? c.path}`;
      out[k] = (out[k] ?? 0) + 1;
    }
    return out;
  }

  // ------------------------------------------------------------------ dispatch

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const method = (req.method ?? 'GET').toUpperCase();
    const full = new URL(req.url ?? '/', this.url);
    const path = full.pathname;
    const raw = await readBody(req);
    if (path.startsWith(TWIRP_PREFIX) || path.startsWith('/twirp/')) this.handleTwirp(req, res, method, full, raw);
    else if (path.startsWith(BLOB_PREFIX)) this.handleBlob(req, res, method, full, raw);
    else this.handleRest(req, res, method, full, raw);
  }

  private record(c: Omit<CallRecord, 'seq'>): CallRecord {
    const rec = { seq: ++this.seq, ...c };
    this.calls.push(rec);
    return rec;
  }

  /** The injected fault for this call in this phase, if a fault rule applies. */
  private takeFault(
    c: { method: string; path: string; operation?: string; kind: CallKind },
    phase: FaultPhase = 'before',
  ): { status: Fault; headers?: Record<string, string> } | undefined {
    for (const rule of this.faults) {
      if (rule.phase === phase && rule.remaining.length > 0 && matches(rule, c)) {
        const status = rule.remaining.shift()!;
        return { status, headers: rule.headers };
      }
    }
    return undefined;
  }

  /** Records and serves an injected REST fault. */
  private serveRestFault(
    res: http.ServerResponse,
    call: Omit<CallRecord, 'seq' | 'status'>,
    fault: { status: Fault; headers?: Record<string, string> },
    phase: FaultPhase,
  ): void {
    const status = fault.status === 'timeout' ? 0 : fault.status;
    this.record({ ...call, status, injected: true, faultPhase: phase, ...(fault.status === 'timeout' ? { timedOut: true } : {}) });
    const message = status === 429 || status === 403 ? 'API rate limit exceeded' : status >= 500 ? 'Server Error' : 'Injected fault';
    this.send(res, fault.status, { message, documentation_url: DOCS, status: String(status) }, { ...this.restHeaders(), ...fault.headers });
  }

  private send(res: http.ServerResponse, status: Fault, body: unknown, headers: Record<string, string> = {}): void {
    // Never answered: the client's own timeout ends the request (close() destroys the socket).
    if (status === 'timeout') return;
    if (status === 0) {
      res.socket?.destroy();
      return;
    }
    const h: Record<string, string> = { ...headers };
    let payload: Buffer | undefined;
    if (body !== undefined && status !== 204 && status !== 304) {
      if (Buffer.isBuffer(body)) payload = body;
      else {
        payload = Buffer.from(JSON.stringify(body));
        h['content-type'] ??= 'application/json; charset=utf-8';
      }
    }
    h['content-length'] = String(payload?.length ?? 0);
    res.writeHead(status, h);
    res.end(payload);
  }

  // ------------------------------------------------------------------ REST

  private restHeaders(): Record<string, string> {
    return {
      'x-github-request-id': randomBytes(8).toString('hex').toUpperCase(),
      'x-github-api-version-selected': '2022-11-28',
      'x-ratelimit-limit': '5000',
      'x-ratelimit-remaining': String(Math.max(0, 5000 - this.calls.length)),
      'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 3600),
      'x-ratelimit-used': String(this.calls.length),
      'x-ratelimit-resource': 'core',
    };
  }

  private handleRest(req: http.IncomingMessage, res: http.ServerResponse, method: string, url: URL, raw: Buffer): void {
    const path = url.pathname;
    const query: Record<string, string> = {};
    for (const [k, v] of url.searchParams) query[k] = v;
    const token = tokenFrom(req.headers.authorization);
    const base = { kind: 'rest' as CallKind, method, path, query: url.search, token, injected: false };

    let body: unknown;
    if (raw.length > 0) {
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        this.violations.push({ kind: 'request', method, path, message: 'request body is not JSON' });
        this.record({ ...base, status: 400 });
        this.send(res, 400, { message: 'Problems parsing JSON', documentation_url: DOCS, status: '400' }, this.restHeaders());
        return;
      }
    }
    const oaReq = { method: method.toLowerCase(), path, headers: req.headers as Record<string, string>, query, body };
    const operation = this.api.router.matchOperation(oaReq);
    if (!operation) {
      this.violations.push({
        kind: 'unknown-operation',
        method,
        path,
        message: `no operation in openapi-subset.json matches ${method} ${path} (add it to build-openapi-subset.mjs and a handler here)`,
      });
      this.record({ ...base, status: 404, body });
      this.send(res, 404, { message: 'Not Found', documentation_url: DOCS, status: '404' }, this.restHeaders());
      return;
    }
    const opId = operation.operationId!;
    const call = { ...base, operation: opId, body };

    const validation = this.api.validateRequest(oaReq, operation);
    if (!validation.valid) {
      this.violations.push({ kind: 'request', method, path, operation: opId, message: `request does not match ${opId}`, errors: validation.errors ?? [] });
      this.record({ ...call, status: 422 });
      this.send(
        res,
        422,
        {
          message: 'Invalid request.',
          errors: (validation.errors ?? []).map((e) => ({ resource: opId, code: 'invalid', field: e.instancePath, message: e.message })),
          documentation_url: DOCS,
          status: '422',
        },
        this.restHeaders(),
      );
      return;
    }

    const fault = this.takeFault(call);
    if (fault) {
      this.serveRestFault(res, call, fault, 'before');
      return;
    }

    if (!token && this.requireAuth) {
      this.violations.push({ kind: 'auth', method, path, operation: opId, message: 'REST call without Authorization header' });
      this.record({ ...call, status: 401 });
      this.send(res, 401, { message: 'Requires authentication', documentation_url: DOCS, status: '401' }, this.restHeaders());
      return;
    }
    const tokenInfo = token ? this.tokens.get(token) : undefined;
    const ctx: RestContext = { params: this.decodeParams(operation, oaReq), query, body, token, login: tokenInfo?.login ?? this.defaultLogin };

    let result: HandlerResult;
    try {
      if (tokenInfo?.readOnly && WRITE_OPS.has(opId)) throw new HttpError(403, 'Resource not accessible by integration');
      const handler = this.handlers[opId];
      if (!handler) throw new Error(`no emulator handler for ${opId}`);
      result = handler(ctx);
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      result = { status: err.status, body: { message: err.message, documentation_url: DOCS, status: String(err.status), ...err.extra } };
    }
    for (const t of this.tamperers) if (t.operation === opId) result = { ...result, body: t.fn(result.body) };
    this.validateRestResponse(method, path, operation, result);
    const after = this.takeFault(call, 'after');
    if (after) {
      this.serveRestFault(res, call, after, 'after');
      return;
    }
    this.record({ ...call, status: result.status });
    this.send(res, result.status, result.body, { ...this.restHeaders(), ...result.headers });
  }

  private decodeParams(
    operation: Operation,
    oaReq: { method: string; path: string; headers: Record<string, string>; query: Record<string, string> },
  ): Record<string, string> {
    const parsed = this.api.router.parseRequest(oaReq, operation);
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(parsed.params ?? {})) out[k] = decodeURIComponent(String(v));
    return out;
  }

  private validateRestResponse(method: string, path: string, operation: Operation, result: HandlerResult): void {
    const opId = operation.operationId!;
    const declared = Object.keys(operation.responses ?? {});
    const code = String(result.status);
    const isDeclared = declared.includes(code) || declared.includes(`${code[0]}XX`) || declared.includes('default');
    if (!isDeclared) {
      // GitHub answers 401/403/404/... on any operation; only a success status must be documented.
      if (result.status < 400)
        this.violations.push({
          kind: 'response',
          method,
          path,
          operation: opId,
          status: result.status,
          message: `status ${result.status} is not documented for ${opId} (documented: ${declared.join(', ')})`,
        });
      return;
    }
    const v = this.api.validateResponse(result.body === undefined ? null : result.body, operation, result.status);
    if (!v.valid)
      this.violations.push({
        kind: 'response',
        method,
        path,
        operation: opId,
        status: result.status,
        message: `response body does not match ${opId} ${result.status}`,
        errors: v.errors ?? [],
      });
    // 'any': headers present must match their schema (GitHub's description lists Link as if always sent).
    const hv = this.api.validator.validateResponseHeaders(result.headers ?? {}, operation, { statusCode: result.status, setMatchType: 'any' as never });
    if (result.status >= 300 && result.status < 400 && !result.headers?.['location'])
      this.violations.push({ kind: 'response', method, path, operation: opId, status: result.status, message: 'redirect without Location header' });
    if (!hv.valid)
      this.violations.push({
        kind: 'response',
        method,
        path,
        operation: opId,
        status: result.status,
        message: `response headers do not match ${opId} ${result.status}`,
        errors: hv.errors ?? [],
      });
  }

  // ------------------------------------------------------------------ REST handlers

  private requireRepo(fullName: string): RepoState {
    const r = this.repos.get(fullName);
    if (!r) throw new HttpError(404, 'Not Found');
    return r;
  }

  private requireIssue(repo: string, n: number): IssueState | PullState {
    const i = this.issues.get(`${repo}#${n}`);
    if (!i) throw new HttpError(404, 'Not Found');
    return i;
  }

  private nextNumber(repo: string): number {
    let max = 0;
    for (const i of this.issues.values()) if (i.repo === repo) max = Math.max(max, i.number);
    return max + 1;
  }

  private labelDef(repo: string, name: string): { id: number; color: string; description: string | null } {
    let defs = this.labelDefs.get(repo);
    if (!defs) this.labelDefs.set(repo, (defs = new Map()));
    let d = defs.get(name);
    if (!d) defs.set(name, (d = { id: this.ids.label++, color: 'ededed', description: '' }));
    return d;
  }

  private paginate<T>(items: T[], ctx: RestContext, pathAndQuery: string): { page: T[]; headers: Record<string, string> } {
    const perPage = Math.min(100, Math.max(1, Number(ctx.query['per_page'] ?? 30) || 30));
    const page = Math.max(1, Number(ctx.query['page'] ?? 1) || 1);
    const last = Math.max(1, Math.ceil(items.length / perPage));
    const slice = items.slice((page - 1) * perPage, page * perPage);
    const link = (p: number, rel: string) => {
      const u = new URL(pathAndQuery, this.url);
      u.searchParams.set('per_page', String(perPage));
      u.searchParams.set('page', String(p));
      return `<${u.toString()}>; rel="${rel}"`;
    };
    const parts: string[] = [];
    if (page > 1) parts.push(link(page - 1, 'prev'), link(1, 'first'));
    if (page < last) parts.push(link(page + 1, 'next'), link(last, 'last'));
    return { page: slice, headers: parts.length ? { link: parts.join(', ') } : {} };
  }

  private urlOf(ctx: RestContext, path: string): string {
    const u = new URL(path, this.url);
    for (const [k, v] of Object.entries(ctx.query)) if (k !== 'page' && k !== 'per_page') u.searchParams.set(k, v);
    return u.pathname + u.search;
  }

  private user(login: string): Record<string, unknown> {
    const id = userId(login);
    const u = `${this.url}/users/${encodeURIComponent(login)}`;
    return {
      login,
      id,
      node_id: nodeId(login.endsWith('[bot]') ? 'BOT' : 'U', id),
      avatar_url: `https://avatars.githubusercontent.com/u/${id}?v=4`,
      gravatar_id: '',
      url: u,
      html_url: `${HTML}/${login.endsWith('[bot]') ? 'apps/' + login.replace(/\[bot\]$/, '') : login}`,
      followers_url: `${u}/followers`,
      following_url: `${u}/following{/other_user}`,
      gists_url: `${u}/gists{/gist_id}`,
      starred_url: `${u}/starred{/owner}{/repo}`,
      subscriptions_url: `${u}/subscriptions`,
      organizations_url: `${u}/orgs`,
      repos_url: `${u}/repos`,
      events_url: `${u}/events{/privacy}`,
      received_events_url: `${u}/received_events`,
      type: login.endsWith('[bot]') ? 'Bot' : 'User',
      user_view_type: 'public',
      site_admin: false,
    };
  }

  private permissionOf(repo: RepoState, login: string): Permission {
    return this.permissions.get(repo.fullName)?.get(login) ?? (repo.private ? 'none' : 'read');
  }

  private authorAssociation(repo: string, login: string): string {
    const r = this.repos.get(repo)!;
    if (login === r.owner) return 'OWNER';
    const p = this.permissionOf(r, login);
    if (p === 'admin' || p === 'maintain' || p === 'write' || p === 'triage') return 'COLLABORATOR';
    return 'NONE';
  }

  private repoJson(fullName: string, level: 'minimal' | 'repository' | 'full' = 'full', login?: string): Record<string, unknown> {
    const r = this.repos.get(fullName);
    if (!r) throw new Error(`unknown repo ${fullName}`);
    const a = `${this.url}/repos/${fullName}`;
    const out: Record<string, unknown> = {
      id: r.id,
      node_id: nodeId('R', r.id),
      name: r.name,
      full_name: fullName,
      private: r.private,
      owner: this.user(r.owner),
      html_url: `${HTML}/${fullName}`,
      description: r.description,
      fork: r.fork,
      url: a,
      forks_url: `${a}/forks`,
      keys_url: `${a}/keys{/key_id}`,
      collaborators_url: `${a}/collaborators{/collaborator}`,
      teams_url: `${a}/teams`,
      hooks_url: `${a}/hooks`,
      issue_events_url: `${a}/issues/events{/number}`,
      events_url: `${a}/events`,
      assignees_url: `${a}/assignees{/user}`,
      branches_url: `${a}/branches{/branch}`,
      tags_url: `${a}/tags`,
      blobs_url: `${a}/git/blobs{/sha}`,
      git_tags_url: `${a}/git/tags{/sha}`,
      git_refs_url: `${a}/git/refs{/sha}`,
      trees_url: `${a}/git/trees{/sha}`,
      statuses_url: `${a}/statuses/{sha}`,
      languages_url: `${a}/languages`,
      stargazers_url: `${a}/stargazers`,
      contributors_url: `${a}/contributors`,
      subscribers_url: `${a}/subscribers`,
      subscription_url: `${a}/subscription`,
      commits_url: `${a}/commits{/sha}`,
      git_commits_url: `${a}/git/commits{/sha}`,
      comments_url: `${a}/comments{/number}`,
      issue_comment_url: `${a}/issues/comments{/number}`,
      contents_url: `${a}/contents/{+path}`,
      compare_url: `${a}/compare/{base}...{head}`,
      merges_url: `${a}/merges`,
      archive_url: `${a}/{archive_format}{/ref}`,
      downloads_url: `${a}/downloads`,
      issues_url: `${a}/issues{/number}`,
      pulls_url: `${a}/pulls{/number}`,
      milestones_url: `${a}/milestones{/number}`,
      notifications_url: `${a}/notifications{?since,all,participating}`,
      labels_url: `${a}/labels{/name}`,
      releases_url: `${a}/releases{/id}`,
      deployments_url: `${a}/deployments`,
    };
    if (level === 'minimal') return out;
    const openIssues = [...this.issues.values()].filter((i) => i.repo === fullName && i.state === 'open').length;
    Object.assign(out, {
      created_at: r.createdAt,
      updated_at: r.createdAt,
      pushed_at: r.createdAt,
      git_url: `git://github.com/${fullName}.git`,
      ssh_url: `git@github.com:${fullName}.git`,
      clone_url: `${HTML}/${fullName}.git`,
      svn_url: `${HTML}/${fullName}`,
      mirror_url: null,
      homepage: null,
      size: 128,
      stargazers_count: 0,
      watchers_count: 0,
      language: 'TypeScript',
      has_issues: true,
      has_projects: true,
      has_downloads: true,
      has_wiki: true,
      has_pages: false,
      has_discussions: false,
      forks_count: 0,
      archived: false,
      disabled: false,
      open_issues_count: openIssues,
      license: null,
      allow_forking: true,
      is_template: false,
      web_commit_signoff_required: false,
      topics: [],
      visibility: r.private ? 'private' : 'public',
      forks: 0,
      open_issues: openIssues,
      watchers: 0,
      default_branch: r.defaultBranch,
    });
    if (login) {
      const p = this.permissionOf(r, login);
      const rank = ['none', 'read', 'triage', 'write', 'maintain', 'admin'].indexOf(p);
      out['permissions'] = { admin: rank >= 5, maintain: rank >= 4, push: rank >= 3, triage: rank >= 2, pull: rank >= 1 };
    }
    if (level === 'full') {
      Object.assign(out, { network_count: 0, subscribers_count: 0, temp_clone_token: null });
      if (r.parent && this.repos.has(r.parent)) {
        out['parent'] = this.repoJson(r.parent, 'repository');
        out['source'] = this.repoJson(r.parent, 'repository');
      }
    }
    return out;
  }

  private labelJson(repo: string, name: string): Record<string, unknown> {
    const d = this.labelDef(repo, name);
    return {
      id: d.id,
      node_id: nodeId('LA', d.id),
      url: `${this.url}/repos/${repo}/labels/${encodeURIComponent(name)}`,
      name,
      description: d.description,
      color: d.color,
      default: false,
    };
  }

  private reactions(url: string): Record<string, unknown> {
    return { url, total_count: 0, '+1': 0, '-1': 0, laugh: 0, confused: 0, heart: 0, hooray: 0, eyes: 0, rocket: 0 };
  }

  private commentJson(c: CommentState): Record<string, unknown> {
    const issue = this.issues.get(`${c.repo}#${c.issueNumber}`)!;
    const a = `${this.url}/repos/${c.repo}`;
    return {
      id: c.id,
      node_id: nodeId('IC', c.id),
      url: `${a}/issues/comments/${c.id}`,
      html_url: `${HTML}/${c.repo}/${issue.isPull ? 'pull' : 'issues'}/${c.issueNumber}#issuecomment-${c.id}`,
      body: c.body,
      user: this.user(c.user),
      created_at: c.createdAt,
      updated_at: c.updatedAt,
      issue_url: `${a}/issues/${c.issueNumber}`,
      author_association: this.authorAssociation(c.repo, c.user),
      performed_via_github_app: null,
      reactions: this.reactions(`${a}/issues/comments/${c.id}/reactions`),
    };
  }

  private issueJson(i: IssueState | PullState): Record<string, unknown> {
    const a = `${this.url}/repos/${i.repo}`;
    const n = i.number;
    const comments = this.commentsOn(i.repo, n).length;
    const out: Record<string, unknown> = {
      id: i.id,
      node_id: nodeId('I', i.id),
      url: `${a}/issues/${n}`,
      repository_url: a,
      labels_url: `${a}/issues/${n}/labels{/name}`,
      comments_url: `${a}/issues/${n}/comments`,
      events_url: `${a}/issues/${n}/events`,
      html_url: `${HTML}/${i.repo}/${i.isPull ? 'pull' : 'issues'}/${n}`,
      timeline_url: `${a}/issues/${n}/timeline`,
      number: n,
      state: i.state,
      state_reason: null,
      title: i.title,
      body: i.body,
      user: this.user(i.user),
      labels: this.labels(i.repo, n).map((l) => this.labelJson(i.repo, l)),
      assignee: null,
      assignees: [],
      milestone: null,
      locked: false,
      active_lock_reason: null,
      comments,
      closed_at: null,
      closed_by: null,
      created_at: i.createdAt,
      updated_at: i.updatedAt,
      author_association: this.authorAssociation(i.repo, i.user),
      reactions: this.reactions(`${a}/issues/${n}/reactions`),
    };
    if (i.isPull) {
      out['pull_request'] = {
        url: `${a}/pulls/${n}`,
        html_url: `${HTML}/${i.repo}/pull/${n}`,
        diff_url: `${HTML}/${i.repo}/pull/${n}.diff`,
        patch_url: `${HTML}/${i.repo}/pull/${n}.patch`,
        merged_at: null,
      };
      out['draft'] = (i as PullState).draft;
    }
    return out;
  }

  private pullJson(p: PullState): Record<string, unknown> {
    const a = `${this.url}/repos/${p.repo}`;
    const n = p.number;
    const h = `${HTML}/${p.repo}/pull/${n}`;
    const side = (b: BranchRef) => {
      const owner = b.repo.split('/')[0];
      return { label: `${owner}:${b.ref}`, ref: b.ref, sha: b.sha, user: this.user(owner), repo: this.repoJson(b.repo, 'repository') };
    };
    return {
      url: `${a}/pulls/${n}`,
      id: p.pullId,
      node_id: nodeId('PR', p.pullId),
      html_url: h,
      diff_url: `${h}.diff`,
      patch_url: `${h}.patch`,
      issue_url: `${a}/issues/${n}`,
      commits_url: `${a}/pulls/${n}/commits`,
      review_comments_url: `${a}/pulls/${n}/comments`,
      review_comment_url: `${a}/pulls/comments{/number}`,
      comments_url: `${a}/issues/${n}/comments`,
      statuses_url: `${a}/statuses/${p.head.sha}`,
      number: n,
      state: p.state,
      locked: false,
      title: p.title,
      user: this.user(p.user),
      body: p.body,
      labels: this.labels(p.repo, n).map((l) => this.labelJson(p.repo, l)),
      milestone: null,
      active_lock_reason: null,
      created_at: p.createdAt,
      updated_at: p.updatedAt,
      closed_at: null,
      merged_at: null,
      merge_commit_sha: null,
      assignee: null,
      assignees: [],
      requested_reviewers: [],
      requested_teams: [],
      head: side(p.head),
      base: side(p.base),
      _links: {
        self: { href: `${a}/pulls/${n}` },
        html: { href: h },
        issue: { href: `${a}/issues/${n}` },
        comments: { href: `${a}/issues/${n}/comments` },
        review_comments: { href: `${a}/pulls/${n}/comments` },
        review_comment: { href: `${a}/pulls/comments{/number}` },
        commits: { href: `${a}/pulls/${n}/commits` },
        statuses: { href: `${a}/statuses/${p.head.sha}` },
      },
      author_association: this.authorAssociation(p.repo, p.user),
      auto_merge: null,
      draft: p.draft,
      merged: p.merged,
      mergeable: true,
      rebaseable: true,
      mergeable_state: 'clean',
      merged_by: null,
      comments: this.commentsOn(p.repo, n).length,
      review_comments: 0,
      maintainer_can_modify: false,
      commits: 1,
      additions: 1,
      deletions: 0,
      changed_files: 1,
    };
  }

  private runJson(run: RunState): Record<string, unknown> {
    const a = `${this.url}/repos/${run.repo}`;
    const repoId = this.repos.get(run.repo)!.id;
    const pulls = [...this.issues.values()].filter(
      (i): i is PullState => i.isPull && i.repo === run.repo && (i as PullState).head.repo === run.repo && (i as PullState).head.ref === run.headBranch,
    );
    const headRepo = this.repos.get(run.headRepo) ?? this.repos.get(run.repo)!;
    return {
      id: run.id,
      name: run.name,
      node_id: nodeId('WFR', run.id),
      check_suite_id: run.checkSuiteId,
      check_suite_node_id: nodeId('CS', run.checkSuiteId),
      head_branch: run.headBranch,
      head_sha: run.headSha,
      path: run.workflowPath,
      display_title: run.displayTitle,
      run_number: run.runNumber,
      event: run.event,
      status: run.status,
      conclusion: run.conclusion,
      workflow_id: run.workflowId,
      url: `${a}/actions/runs/${run.id}`,
      html_url: `${HTML}/${run.repo}/actions/runs/${run.id}`,
      // GitHub leaves this empty for runs triggered from forks; so does the emulator.
      pull_requests: pulls.map((p) => ({
        id: p.pullId,
        number: p.number,
        url: `${a}/pulls/${p.number}`,
        head: { ref: p.head.ref, sha: p.head.sha, repo: { id: repoId, url: a, name: run.repo.split('/')[1] } },
        base: { ref: p.base.ref, sha: p.base.sha, repo: { id: repoId, url: a, name: run.repo.split('/')[1] } },
      })),
      created_at: run.createdAt,
      updated_at: run.updatedAt,
      actor: this.user(run.actor),
      triggering_actor: this.user(run.actor),
      run_attempt: run.runAttempt,
      referenced_workflows: [],
      run_started_at: run.createdAt,
      jobs_url: `${a}/actions/runs/${run.id}/jobs`,
      logs_url: `${a}/actions/runs/${run.id}/logs`,
      check_suite_url: `${a}/check-suites/${run.checkSuiteId}`,
      artifacts_url: `${a}/actions/runs/${run.id}/artifacts`,
      cancel_url: `${a}/actions/runs/${run.id}/cancel`,
      rerun_url: `${a}/actions/runs/${run.id}/rerun`,
      previous_attempt_url: null,
      workflow_url: `${a}/actions/workflows/${run.workflowId}`,
      head_commit: {
        id: run.headSha,
        tree_id: createHash('sha1').update(run.headSha).digest('hex'),
        message: run.displayTitle,
        timestamp: run.createdAt,
        author: { name: run.actor, email: `${run.actor}@users.noreply.github.com` },
        committer: { name: 'GitHub', email: 'noreply@github.com' },
      },
      repository: this.repoJson(run.repo, 'minimal'),
      head_repository: this.repoJson(headRepo.fullName, 'minimal'),
    };
  }

  private artifactJson(a: ArtifactState): Record<string, unknown> {
    const api = `${this.url}/repos/${a.repo}`;
    const run = this.runs.get(a.runId)!;
    const headRepo = this.repos.get(run.headRepo) ?? this.repos.get(a.repo)!;
    return {
      id: a.id,
      node_id: nodeId('MDg6QXJ0aWZhY3Q', a.id),
      name: a.name,
      size_in_bytes: a.size,
      url: `${api}/actions/artifacts/${a.id}`,
      archive_download_url: `${api}/actions/artifacts/${a.id}/zip`,
      expired: a.expired,
      digest: a.digest,
      created_at: a.createdAt,
      updated_at: a.updatedAt,
      expires_at: a.expiresAt,
      workflow_run: {
        id: run.id,
        repository_id: this.repos.get(a.repo)!.id,
        head_repository_id: headRepo.id,
        head_branch: run.headBranch,
        head_sha: run.headSha,
      },
    };
  }

  private repoOf(ctx: RestContext): RepoState {
    return this.requireRepo(`${ctx.params['owner']}/${ctx.params['repo']}`);
  }

  private artifactOf(ctx: RestContext): ArtifactState {
    const repo = this.repoOf(ctx);
    const a = this.artifacts.get(Number(ctx.params['artifact_id']));
    if (!a || a.repo !== repo.fullName || !a.finalized || a.deleted) throw new HttpError(404, 'Not Found');
    return a;
  }

  private labelNamesFromBody(body: unknown): string[] {
    const list = Array.isArray(body) ? body : body && typeof body === 'object' ? (body as { labels?: unknown }).labels : undefined;
    if (!Array.isArray(list)) throw new HttpError(422, 'Invalid request.\n\nNo labels given.');
    return list.map((l: unknown) => (typeof l === 'string' ? l : String((l as { name?: unknown }).name)));
  }

  private readonly handlers: Record<string, (ctx: RestContext) => HandlerResult> = {
    'repos/get': (ctx) => ({ status: 200, body: this.repoJson(this.repoOf(ctx).fullName, 'full', ctx.login) }),

    'pulls/list': (ctx) => {
      const repo = this.repoOf(ctx);
      const state = ctx.query['state'] ?? 'open';
      let pulls = [...this.issues.values()].filter((i): i is PullState => i.isPull && i.repo === repo.fullName && (state === 'all' || i.state === state));
      if (ctx.query['head']) {
        const [owner, ref] = ctx.query['head'].includes(':') ? ctx.query['head'].split(':') : [undefined, ctx.query['head']];
        pulls = pulls.filter((p) => p.head.ref === ref && (!owner || p.head.repo.split('/')[0] === owner));
      }
      if (ctx.query['base']) pulls = pulls.filter((p) => p.base.ref === ctx.query['base']);
      pulls.sort((a, b) => (ctx.query['direction'] === 'asc' ? a.number - b.number : b.number - a.number));
      const { page, headers } = this.paginate(pulls, ctx, this.urlOf(ctx, `/repos/${repo.fullName}/pulls`));
      return { status: 200, body: page.map((p) => this.pullJson(p)), headers };
    },

    'pulls/get': (ctx) => {
      const repo = this.repoOf(ctx);
      const p = this.issues.get(`${repo.fullName}#${ctx.params['pull_number']}`);
      if (!p || !p.isPull) throw new HttpError(404, 'Not Found');
      return { status: 200, body: this.pullJson(p as PullState) };
    },

    'issues/get': (ctx) => {
      const repo = this.repoOf(ctx);
      return { status: 200, body: this.issueJson(this.requireIssue(repo.fullName, Number(ctx.params['issue_number']))) };
    },

    'issues/list-labels-on-issue': (ctx) => {
      const repo = this.repoOf(ctx);
      const n = Number(ctx.params['issue_number']);
      this.requireIssue(repo.fullName, n);
      const { page, headers } = this.paginate(this.labels(repo.fullName, n), ctx, this.urlOf(ctx, `/repos/${repo.fullName}/issues/${n}/labels`));
      return { status: 200, body: page.map((l) => this.labelJson(repo.fullName, l)), headers };
    },

    'issues/add-labels': (ctx) => {
      const repo = this.repoOf(ctx);
      const n = Number(ctx.params['issue_number']);
      this.requireIssue(repo.fullName, n);
      this.setLabels(repo.fullName, n, [...this.labels(repo.fullName, n), ...this.labelNamesFromBody(ctx.body)]);
      return { status: 200, body: this.labels(repo.fullName, n).map((l) => this.labelJson(repo.fullName, l)) };
    },

    'issues/set-labels': (ctx) => {
      const repo = this.repoOf(ctx);
      const n = Number(ctx.params['issue_number']);
      this.requireIssue(repo.fullName, n);
      this.setLabels(repo.fullName, n, ctx.body === undefined ? [] : this.labelNamesFromBody(ctx.body));
      return { status: 200, body: this.labels(repo.fullName, n).map((l) => this.labelJson(repo.fullName, l)) };
    },

    'issues/remove-all-labels': (ctx) => {
      const repo = this.repoOf(ctx);
      const n = Number(ctx.params['issue_number']);
      this.requireIssue(repo.fullName, n);
      this.setLabels(repo.fullName, n, []);
      return { status: 204 };
    },

    'issues/remove-label': (ctx) => {
      const repo = this.repoOf(ctx);
      const n = Number(ctx.params['issue_number']);
      this.requireIssue(repo.fullName, n);
      const name = ctx.params['name'];
      const current = this.labels(repo.fullName, n);
      if (!current.includes(name)) throw new HttpError(404, 'Label does not exist');
      this.setLabels(
        repo.fullName,
        n,
        current.filter((l) => l !== name),
      );
      return { status: 200, body: this.labels(repo.fullName, n).map((l) => this.labelJson(repo.fullName, l)) };
    },

    'issues/list-comments': (ctx) => {
      const repo = this.repoOf(ctx);
      const n = Number(ctx.params['issue_number']);
      this.requireIssue(repo.fullName, n);
      let list = this.commentsOn(repo.fullName, n);
      if (ctx.query['since']) {
        const since = Date.parse(ctx.query['since']);
        list = list.filter((c) => Date.parse(c.updatedAt) >= since);
      }
      const { page, headers } = this.paginate(list, ctx, this.urlOf(ctx, `/repos/${repo.fullName}/issues/${n}/comments`));
      return { status: 200, body: page.map((c) => this.commentJson(c)), headers };
    },

    'issues/create-comment': (ctx) => {
      const repo = this.repoOf(ctx);
      const n = Number(ctx.params['issue_number']);
      const body = (ctx.body as { body: string }).body;
      if (body.length > 65536)
        throw new HttpError(422, 'Validation Failed', {
          errors: [{ resource: 'IssueComment', code: 'custom', field: 'body', message: 'body is too long (maximum is 65536 characters)' }],
        });
      const c = this.addComment(repo.fullName, n, body, { user: ctx.login });
      return { status: 201, body: this.commentJson(c), headers: { location: `${this.url}/repos/${repo.fullName}/issues/comments/${c.id}` } };
    },

    'issues/get-comment': (ctx) => {
      const repo = this.repoOf(ctx);
      const c = this.comments.get(Number(ctx.params['comment_id']));
      if (!c || c.repo !== repo.fullName) throw new HttpError(404, 'Not Found');
      return { status: 200, body: this.commentJson(c) };
    },

    'issues/update-comment': (ctx) => {
      const repo = this.repoOf(ctx);
      const c = this.comments.get(Number(ctx.params['comment_id']));
      if (!c || c.repo !== repo.fullName) throw new HttpError(404, 'Not Found');
      const body = (ctx.body as { body: string }).body;
      if (body.length > 65536)
        throw new HttpError(422, 'Validation Failed', {
          errors: [{ resource: 'IssueComment', code: 'custom', field: 'body', message: 'body is too long (maximum is 65536 characters)' }],
        });
      if (
        c.user !== ctx.login &&
        this.permissionOf(repo, ctx.login) !== 'admin' &&
        this.permissionOf(repo, ctx.login) !== 'maintain' &&
        this.permissionOf(repo, ctx.login) !== 'write'
      )
        throw new HttpError(403, 'Resource not accessible by integration');
      c.body = body;
      c.updatedAt = this.stamp();
      return { status: 200, body: this.commentJson(c) };
    },

    'issues/delete-comment': (ctx) => {
      const repo = this.repoOf(ctx);
      const c = this.comments.get(Number(ctx.params['comment_id']));
      if (!c || c.repo !== repo.fullName) throw new HttpError(404, 'Not Found');
      this.comments.delete(c.id);
      return { status: 204 };
    },

    'repos/get-collaborator-permission-level': (ctx) => {
      const repo = this.repoOf(ctx);
      const login = ctx.params['username'];
      const permission = this.permissionOf(repo, login);
      const legacy = permission === 'maintain' ? 'write' : permission === 'triage' ? 'read' : permission;
      const rank = ['none', 'read', 'triage', 'write', 'maintain', 'admin'].indexOf(permission);
      return {
        status: 200,
        body: {
          permission: legacy,
          role_name: permission === 'none' ? '' : permission,
          user: {
            ...this.user(login),
            role_name: permission === 'none' ? '' : permission,
            permissions: { admin: rank >= 5, maintain: rank >= 4, push: rank >= 3, triage: rank >= 2, pull: rank >= 1 },
          },
        },
      };
    },

    'actions/list-artifacts-for-repo': (ctx) => {
      const repo = this.repoOf(ctx);
      const list = this.listArtifacts({ repo: repo.fullName, name: ctx.query['name'] }).reverse();
      const { page, headers } = this.paginate(list, ctx, this.urlOf(ctx, `/repos/${repo.fullName}/actions/artifacts`));
      return { status: 200, body: { total_count: list.length, artifacts: page.map((a) => this.artifactJson(a)) }, headers };
    },

    'actions/list-workflow-run-artifacts': (ctx) => {
      const repo = this.repoOf(ctx);
      const run = this.runs.get(Number(ctx.params['run_id']));
      if (!run || run.repo !== repo.fullName) throw new HttpError(404, 'Not Found');
      const list = this.listArtifacts({ runId: run.id, name: ctx.query['name'] });
      if (ctx.query['direction'] === 'desc') list.reverse();
      const { page, headers } = this.paginate(list, ctx, this.urlOf(ctx, `/repos/${repo.fullName}/actions/runs/${run.id}/artifacts`));
      return { status: 200, body: { total_count: list.length, artifacts: page.map((a) => this.artifactJson(a)) }, headers };
    },

    'actions/get-artifact': (ctx) => ({ status: 200, body: this.artifactJson(this.artifactOf(ctx)) }),

    'actions/delete-artifact': (ctx) => {
      this.artifactOf(ctx).deleted = true;
      return { status: 204 };
    },

    'actions/download-artifact': (ctx) => {
      const a = this.artifactOf(ctx);
      if (ctx.params['archive_format'] !== 'zip') throw new HttpError(404, 'Not Found');
      if (a.expired) throw new HttpError(410, 'Artifact has expired');
      return { status: 302, headers: { location: this.blobUrl(a, 'r') } };
    },

    'actions/get-workflow-run': (ctx) => {
      const repo = this.repoOf(ctx);
      const run = this.runs.get(Number(ctx.params['run_id']));
      if (!run || run.repo !== repo.fullName) throw new HttpError(404, 'Not Found');
      return { status: 200, body: this.runJson(run) };
    },

    'actions/list-workflow-runs-for-repo': (ctx) => {
      const repo = this.repoOf(ctx);
      const q = ctx.query;
      const completedConclusions = ['success', 'failure', 'neutral', 'cancelled', 'skipped', 'timed_out', 'action_required', 'stale'];
      const list = [...this.runs.values()]
        .filter((r) => r.repo === repo.fullName)
        .filter((r) => !q['branch'] || r.headBranch === q['branch'])
        .filter((r) => !q['event'] || r.event === q['event'])
        .filter((r) => !q['actor'] || r.actor === q['actor'])
        .filter((r) => !q['head_sha'] || r.headSha === q['head_sha'])
        .filter((r) => !q['status'] || r.status === q['status'] || (completedConclusions.includes(q['status']) && r.conclusion === q['status']))
        .sort((a, b) => b.id - a.id);
      const { page, headers } = this.paginate(list, ctx, this.urlOf(ctx, `/repos/${repo.fullName}/actions/runs`));
      return { status: 200, body: { total_count: list.length, workflow_runs: page.map((r) => this.runJson(r)) }, headers };
    },
  };

  // ------------------------------------------------------------------ artifact service (twirp)

  private newArtifact(run: RunState, name: string, mimeType: string, expiresAt: string | undefined): ArtifactState {
    const t = this.stamp();
    const a: ArtifactState = {
      id: this.ids.artifact++,
      repo: run.repo,
      runId: run.id,
      runBackendId: run.runBackendId,
      jobBackendId: run.jobBackendId,
      name,
      fileName: mimeType === 'application/zip' ? `${name}.zip` : name,
      mimeType,
      size: 0,
      digest: null,
      createdAt: t,
      updatedAt: t,
      expiresAt: expiresAt ?? isoSeconds(new Date(this.now().getTime() + 90 * 86400_000)),
      finalized: false,
      expired: false,
      deleted: false,
      uploadSig: randomBytes(16).toString('base64url'),
      downloadSig: randomBytes(16).toString('base64url'),
      blocks: new Map(),
      blob: null,
      blobContentType: mimeType,
    };
    this.artifacts.set(a.id, a);
    return a;
  }

  private blobUrl(a: ArtifactState, perm: 'r' | 'cw'): string {
    const u = new URL(`${BLOB_PREFIX}${a.runBackendId}/${a.id}/${encodeURIComponent(a.fileName)}`, this.url);
    u.searchParams.set('sv', '2023-11-03');
    u.searchParams.set('sr', 'b');
    u.searchParams.set('sp', perm);
    u.searchParams.set('se', isoSeconds(new Date(Date.now() + 3600_000)));
    if (perm === 'r') u.searchParams.set('rscd', `attachment; filename="${a.fileName}"`);
    u.searchParams.set('sig', perm === 'r' ? a.downloadSig : a.uploadSig);
    return u.toString();
  }

  private handleTwirp(req: http.IncomingMessage, res: http.ServerResponse, method: string, url: URL, raw: Buffer): void {
    const path = url.pathname;
    const rpc = path.startsWith(TWIRP_PREFIX) ? path.slice(TWIRP_PREFIX.length) : path;
    const token = tokenFrom(req.headers.authorization);
    let body: Record<string, unknown> = {};
    const call = { kind: 'twirp' as CallKind, method, path, query: url.search, operation: rpc, token, injected: false };
    const fail = (status: number, code: string, msg: string, violation = true) => {
      if (violation) this.violations.push({ kind: 'twirp', method, path, operation: rpc, status, message: msg });
      this.record({ ...call, status, body });
      this.send(res, status, { code, msg });
    };
    if (method !== 'POST') {
      fail(404, 'bad_route', `twirp needs POST, got ${method}`);
      return;
    }
    try {
      body = raw.length ? (JSON.parse(raw.toString('utf8')) as Record<string, unknown>) : {};
    } catch {
      fail(400, 'malformed', 'twirp request body is not JSON');
      return;
    }
    if (!(req.headers['content-type'] ?? '').startsWith('application/json')) {
      fail(400, 'malformed', `twirp content-type must be application/json, got ${String(req.headers['content-type'])}`);
      return;
    }
    const fault = this.takeFault(call);
    if (fault) {
      const status = fault.status === 'timeout' ? 0 : fault.status;
      this.record({ ...call, status, injected: true, faultPhase: 'before', body, ...(fault.status === 'timeout' ? { timedOut: true } : {}) });
      this.send(res, fault.status, { code: status >= 500 ? 'unavailable' : 'resource_exhausted', msg: 'injected fault' }, fault.headers);
      return;
    }
    if (!token) {
      fail(401, 'unauthenticated', 'twirp call without Bearer runtime token');
      return;
    }
    const ids = decodeRuntimeToken(token);
    if (typeof ids === 'string') {
      fail(401, 'unauthenticated', ids);
      return;
    }
    const run = [...this.runs.values()].find((r) => r.runBackendId === ids.runBackendId && r.jobBackendId === ids.jobBackendId);
    if (!run) {
      fail(401, 'unauthenticated', `runtime token names unknown run/job ${ids.runBackendId}:${ids.jobBackendId} (create runs with gh.createRun)`);
      return;
    }
    const str = (k: string): string | undefined => (typeof body[k] === 'string' ? body[k] : undefined);
    const need = (...keys: string[]): string | undefined => {
      for (const k of keys) if (str(k) === undefined || str(k) === '') return `${rpc}: missing or non-string field ${k}`;
      if (str('workflow_run_backend_id') !== ids.runBackendId || str('workflow_job_run_backend_id') !== ids.jobBackendId)
        return `${rpc}: backend ids in the body differ from the runtime token's Actions.Results scope`;
      return undefined;
    };
    const findPending = (name: string) => [...this.artifacts.values()].find((a) => a.runId === run.id && a.name === name && !a.deleted);

    switch (rpc) {
      case 'CreateArtifact': {
        const bad = need('workflow_run_backend_id', 'workflow_job_run_backend_id', 'name');
        if (bad) {
          fail(400, 'invalid_argument', bad);
          return;
        }
        if (typeof body['version'] !== 'number' || body['version'] < 4) {
          fail(400, 'invalid_argument', 'CreateArtifact: version must be a number >= 4');
          return;
        }
        const name = str('name')!;
        const existing = findPending(name);
        if (existing?.finalized) {
          fail(409, 'already_exists', `an artifact with name "${name}" already exists on the workflow run`, false);
          return;
        }
        if (existing) this.artifacts.delete(existing.id);
        const expiresAt = str('expires_at');
        if (expiresAt !== undefined && Number.isNaN(Date.parse(expiresAt))) {
          fail(400, 'invalid_argument', 'CreateArtifact: expires_at is not an RFC 3339 timestamp');
          return;
        }
        const mime = str('mime_type') ?? 'application/zip';
        const a = this.newArtifact(run, name, mime, expiresAt);
        this.record({ ...call, status: 200, body });
        this.send(res, 200, { ok: true, signed_upload_url: this.blobUrl(a, 'cw') });
        return;
      }
      case 'FinalizeArtifact': {
        const bad = need('workflow_run_backend_id', 'workflow_job_run_backend_id', 'name', 'size');
        if (bad) {
          fail(400, 'invalid_argument', bad);
          return;
        }
        if (!/^\d+$/.test(str('size')!)) {
          fail(400, 'invalid_argument', 'FinalizeArtifact: size must be an int64 string');
          return;
        }
        const a = findPending(str('name')!);
        if (!a || a.finalized) {
          fail(404, 'not_found', `FinalizeArtifact: no pending artifact named ${str('name')}`);
          return;
        }
        if (!a.blob) {
          fail(400, 'failed_precondition', `FinalizeArtifact: nothing was uploaded for ${a.name} (no committed block list)`);
          return;
        }
        const digest = `sha256:${createHash('sha256').update(a.blob).digest('hex')}`;
        if (Number(str('size')) !== a.blob.length)
          this.violations.push({
            kind: 'twirp',
            method,
            path,
            operation: rpc,
            message: `FinalizeArtifact size ${str('size')} differs from the uploaded blob (${a.blob.length} bytes)`,
          });
        const hash = str('hash');
        if (hash !== undefined && hash !== digest)
          this.violations.push({
            kind: 'twirp',
            method,
            path,
            operation: rpc,
            message: `FinalizeArtifact hash ${hash} differs from the uploaded blob (${digest})`,
          });
        a.size = a.blob.length;
        a.digest = digest;
        a.finalized = true;
        a.updatedAt = this.stamp();
        this.record({ ...call, status: 200, body });
        this.send(res, 200, { ok: true, artifact_id: String(a.id) });
        return;
      }
      case 'ListArtifacts': {
        const bad = need('workflow_run_backend_id', 'workflow_job_run_backend_id');
        if (bad) {
          fail(400, 'invalid_argument', bad);
          return;
        }
        let list = this.listArtifacts({ runId: run.id });
        if (str('name_filter') !== undefined) list = list.filter((a) => a.name === str('name_filter'));
        if (str('id_filter') !== undefined) list = list.filter((a) => String(a.id) === str('id_filter'));
        this.record({ ...call, status: 200, body });
        this.send(res, 200, {
          artifacts: list.map((a) => ({
            workflow_run_backend_id: a.runBackendId,
            workflow_job_run_backend_id: a.jobBackendId,
            database_id: String(a.id),
            name: a.name,
            size: String(a.size),
            created_at: a.createdAt,
            ...(a.digest ? { digest: a.digest } : {}),
          })),
        });
        return;
      }
      case 'GetSignedArtifactURL': {
        const bad = need('workflow_run_backend_id', 'workflow_job_run_backend_id', 'name');
        if (bad) {
          fail(400, 'invalid_argument', bad);
          return;
        }
        const a = this.listArtifacts({ runId: run.id, name: str('name') }).pop();
        if (!a) {
          fail(404, 'not_found', `GetSignedArtifactURL: no artifact named ${str('name')}`, false);
          return;
        }
        this.record({ ...call, status: 200, body });
        this.send(res, 200, { signed_url: this.blobUrl(a, 'r') });
        return;
      }
      case 'DeleteArtifact': {
        const bad = need('workflow_run_backend_id', 'workflow_job_run_backend_id', 'name');
        if (bad) {
          fail(400, 'invalid_argument', bad);
          return;
        }
        const a = this.listArtifacts({ runId: run.id, name: str('name') }).pop();
        if (!a) {
          fail(404, 'not_found', `DeleteArtifact: no artifact named ${str('name')}`, false);
          return;
        }
        a.deleted = true;
        this.record({ ...call, status: 200, body });
        this.send(res, 200, { ok: true, artifact_id: String(a.id) });
        return;
      }
      default: {
        fail(404, 'bad_route', `unknown twirp method ${rpc}`);
        return;
      }
    }
  }

  // ------------------------------------------------------------------ Azure blob stand-in

  private handleBlob(req: http.IncomingMessage, res: http.ServerResponse, method: string, url: URL, raw: Buffer): void {
    const path = url.pathname;
    const call = {
      kind: 'blob' as CallKind,
      method,
      path,
      query: url.search,
      injected: false,
      operation: url.searchParams.get('comp') ?? (method === 'GET' ? 'get' : 'put'),
    };
    const xmlError = (status: number, code: string, message: string, violation = true) => {
      if (violation) this.violations.push({ kind: 'blob', method, path, status, message: `${code}: ${message}` });
      this.record({ ...call, status });
      this.send(res, status, Buffer.from(`<?xml version="1.0" encoding="utf-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`), {
        'content-type': 'application/xml',
        'x-ms-error-code': code,
      });
    };
    const [, artifactId] = path.slice(BLOB_PREFIX.length).split('/');
    const a = this.artifacts.get(Number(artifactId));
    if (!a) {
      xmlError(404, 'BlobNotFound', 'The specified blob does not exist.');
      return;
    }
    const fault = this.takeFault(call);
    if (fault) {
      this.record({
        ...call,
        status: fault.status === 'timeout' ? 0 : fault.status,
        injected: true,
        faultPhase: 'before',
        ...(fault.status === 'timeout' ? { timedOut: true } : {}),
      });
      this.send(res, fault.status, Buffer.from('<?xml version="1.0" encoding="utf-8"?><Error><Code>ServerBusy</Code><Message>injected</Message></Error>'), {
        'content-type': 'application/xml',
        ...fault.headers,
      });
      return;
    }
    const sig = url.searchParams.get('sig');
    const common = { 'x-ms-request-id': randomUUID(), 'x-ms-version': '2024-11-04', date: new Date().toUTCString() };
    if (method === 'GET' || method === 'HEAD') {
      if (sig !== a.downloadSig) {
        xmlError(403, 'AuthenticationFailed', 'Signature did not match (download needs the read URL).');
        return;
      }
      if (!a.blob) {
        xmlError(404, 'BlobNotFound', 'The specified blob does not exist.');
        return;
      }
      this.record({ ...call, status: 200 });
      res.writeHead(200, {
        ...common,
        'content-type': a.blobContentType,
        'content-length': String(a.blob.length),
        'content-disposition': `attachment; filename="${a.fileName}"; filename*=UTF-8''${encodeURIComponent(a.fileName)}`,
        etag: `"0x${createHash('md5').update(a.blob).digest('hex').slice(0, 15).toUpperCase()}"`,
        'last-modified': new Date(Date.parse(a.updatedAt)).toUTCString(),
        'x-ms-blob-type': 'BlockBlob',
      });
      res.end(method === 'HEAD' ? undefined : a.blob);
      return;
    }
    if (method !== 'PUT') {
      xmlError(405, 'UnsupportedHttpVerb', `${method} is not supported`);
      return;
    }
    if (sig !== a.uploadSig) {
      xmlError(403, 'AuthenticationFailed', 'Signature did not match (upload needs the write URL).');
      return;
    }
    if (a.finalized) {
      xmlError(409, 'BlobImmutable', 'the artifact is already finalized');
      return;
    }
    const comp = url.searchParams.get('comp');
    const ok = (extra: Record<string, string> = {}) => {
      this.record({ ...call, status: 201 });
      res.writeHead(201, { ...common, 'content-length': '0', 'x-ms-request-server-encrypted': 'true', ...extra });
      res.end();
    };
    const etag = () => ({ etag: `"0x${randomBytes(8).toString('hex').toUpperCase()}"`, 'last-modified': new Date().toUTCString() });
    if (comp === 'block') {
      const id = url.searchParams.get('blockid');
      if (!id) {
        xmlError(400, 'InvalidQueryParameterValue', 'blockid is required');
        return;
      }
      a.blocks.set(id, raw);
      ok({ 'content-md5': createHash('md5').update(raw).digest('base64') });
      return;
    }
    if (comp === 'blocklist') {
      const xml = raw.toString('utf8');
      const ids = [...xml.matchAll(/<(Latest|Committed|Uncommitted)>([^<]*)<\/\1>/g)].map((m) => m[2]);
      const missing = ids.filter((id) => !a.blocks.has(id));
      if (missing.length) {
        xmlError(400, 'InvalidBlockList', `blocks not staged: ${missing.join(', ')}`);
        return;
      }
      a.blob = Buffer.concat(ids.map((id) => a.blocks.get(id)!));
      a.blocks.clear();
      const ct = req.headers['x-ms-blob-content-type'];
      if (typeof ct === 'string' && ct) a.blobContentType = ct;
      ok(etag());
      return;
    }
    if (comp === null) {
      if (req.headers['x-ms-blob-type'] !== 'BlockBlob') {
        xmlError(400, 'MissingRequiredHeader', 'x-ms-blob-type: BlockBlob is required');
        return;
      }
      a.blob = raw;
      const ct = req.headers['x-ms-blob-content-type'];
      if (typeof ct === 'string' && ct) a.blobContentType = ct;
      ok(etag());
      return;
    }
    xmlError(400, 'InvalidQueryParameterValue', `comp=${comp} is not supported`);
  }
}

/** Starts an emulator on 127.0.0.1 (random port). Remember `await gh.close()`. */
export async function startGitHubEmulator(opts: StartOptions = {}): Promise<GitHubEmulator> {
  return new GitHubEmulator(opts).start(opts.host, opts.port);
}
