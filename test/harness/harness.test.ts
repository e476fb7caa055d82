// Proves the offline harness against the real toolkit clients, run as child processes.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startGitHubEmulator, type GitHubEmulator } from './github-emulator.js';
import { parseFileCommands, runActionJob, runActionStep, startActionStep } from './runner.js';
import { branchSha, cloneWorkspace, createOrigin, git, isolatedGitEnv, log, pushAsSomeoneElse, redirectEnv, showFile } from './git-origin.js';
import { makeZip, readZip } from './zip.js';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const NODE_MODULES = join(REPO_ROOT, 'node_modules');
const TOKEN = 'ghs_emulatedtoken0001';

let gh: GitHubEmulator;
let scratch: string;
let scriptN = 0;

interface ScriptResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The JSON printed on the last stdout line that starts with RESULT: */
  result: unknown;
}

/** Runs an ESM script (which can import the toolkit) as a child process, async. */
async function runScript(code: string, env: Record<string, string>): Promise<ScriptResult> {
  const file = join(scratch, `script-${++scriptN}.mjs`);
  await writeFile(file, code);
  return new Promise((res, rej) => {
    const child = spawn(process.execPath, [file], {
      cwd: scratch,
      env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', rej);
    child.on('close', (c) => {
      const line = stdout
        .split('\n')
        .reverse()
        .find((l) => l.startsWith('RESULT:'));
      res({ code: c, stdout, stderr, result: line ? JSON.parse(line.slice('RESULT:'.length)) : undefined });
    });
  });
}

function sha256(b: Uint8Array | string): string {
  return createHash('sha256').update(b).digest('hex');
}

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'phuc-harness-'));
  await symlink(NODE_MODULES, join(scratch, 'node_modules'), 'dir');
  gh = await startGitHubEmulator();
  gh.addRepo('octo/widgets');
  gh.addPull('octo/widgets', { number: 7, title: 'Make tests pass', head: { ref: 'feature', sha: 'a'.repeat(40) }, labels: ['phuc-loop:stop', 'enhancement'] });
  gh.addPull('octo/widgets', { number: 8, head: { ref: 'patch-1', sha: 'b'.repeat(40), repo: 'forker/widgets' } });
  gh.setPermission('octo/widgets', 'alice', 'write');
  gh.addComment('octo/widgets', 7, 'a human comment', { user: 'alice' });
});

afterAll(async () => {
  await gh?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('REST emulator with @actions/github (octokit over fetch, in a child process)', () => {
  test('comments, labels, PRs, permissions: real client, zero OpenAPI violations', async () => {
    gh.registerToken('ghs_forktoken', { login: 'github-actions[bot]', readOnly: true });
    const mark = gh.calls.length;
    const r = await runScript(
      `
      import * as github from '@actions/github';
      const o = github.getOctokit(process.env.TOKEN);
      const q = { owner: 'octo', repo: 'widgets' };
      const out = {};
      out.repo = (await o.rest.repos.get(q)).data.default_branch;
      const pr = (await o.rest.pulls.get({ ...q, pull_number: 7 })).data;
      out.head = [pr.head.ref, pr.head.sha, pr.head.repo.full_name];
      const fork = (await o.rest.pulls.get({ ...q, pull_number: 8 })).data;
      out.forkHead = fork.head.repo.full_name;
      out.forkIsFork = fork.head.repo.fork;
      out.labels = (await o.rest.issues.listLabelsOnIssue({ ...q, issue_number: 7 })).data.map((l) => l.name);
      await o.rest.issues.removeLabel({ ...q, issue_number: 7, name: 'phuc-loop:stop' });
      const created = (await o.rest.issues.createComment({ ...q, issue_number: 7, body: '<!-- phuc-loop -->\\niteration 1' })).data;
      out.createdBy = created.user.login;
      await o.rest.issues.updateComment({ ...q, comment_id: created.id, body: '<!-- phuc-loop -->\\niteration 2' });
      const all = await o.paginate(o.rest.issues.listComments, { ...q, issue_number: 7, per_page: 1 });
      out.comments = all.map((c) => [c.user.login, c.body]);
      out.perm = (await o.rest.repos.getCollaboratorPermissionLevel({ ...q, username: 'alice' })).data.permission;
      out.permNone = (await o.rest.repos.getCollaboratorPermissionLevel({ ...q, username: 'mallory' })).data.permission;
      try { await github.getOctokit('ghs_forktoken').rest.issues.createComment({ ...q, issue_number: 8, body: 'x' }); out.forkComment = 'created'; }
      catch (e) { out.forkComment = [e.status, e.message]; }
      console.log('RESULT:' + JSON.stringify(out));
      `,
      { GITHUB_API_URL: gh.url, TOKEN },
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.result).toEqual({
      repo: 'main',
      head: ['feature', 'a'.repeat(40), 'octo/widgets'],
      forkHead: 'forker/widgets',
      forkIsFork: true,
      labels: ['phuc-loop:stop', 'enhancement'],
      createdBy: 'github-actions[bot]',
      comments: [
        ['alice', 'a human comment'],
        ['github-actions[bot]', '<!-- phuc-loop -->\niteration 2'],
      ],
      perm: 'write',
      permNone: 'read',
      forkComment: [403, expect.stringContaining('Resource not accessible by integration')],
    });
    expect(gh.violations).toEqual([]);
    expect(gh.labels('octo/widgets', 7)).toEqual(['enhancement']);
    expect(gh.countCalls({ operation: 'issues/update-comment' }, mark)).toBe(1);
    expect(gh.countCalls({ operation: 'issues/list-comments' }, mark)).toBe(2); // per_page=1, two pages via Link
    expect(
      gh.calls
        .slice(mark)
        .filter((c) => c.token !== TOKEN)
        .map((c) => c.operation),
    ).toEqual(['issues/create-comment']);
  });

  test('a 502,502 sequence: @actions/github has no retry by default; with @octokit/plugin-retry it recovers', async () => {
    const script = (withRetry: boolean) => `
      import * as github from '@actions/github';
      ${withRetry ? "import { retry } from '@octokit/plugin-retry';" : ''}
      const o = ${withRetry ? 'github.getOctokit(process.env.TOKEN, { retry: { retryAfterBaseValue: 10 } }, retry)' : 'github.getOctokit(process.env.TOKEN)'};
      try {
        const r = await o.rest.issues.listLabelsOnIssue({ owner: 'octo', repo: 'widgets', issue_number: 7 });
        console.log('RESULT:' + JSON.stringify({ ok: true, status: r.status }));
      } catch (e) {
        console.log('RESULT:' + JSON.stringify({ ok: false, status: e.status }));
      }`;
    let mark = gh.calls.length;
    gh.failNext({ operation: 'issues/list-labels-on-issue' }, [502, 502]);
    const plain = await runScript(script(false), { GITHUB_API_URL: gh.url, TOKEN });
    expect(plain.result).toEqual({ ok: false, status: 502 });
    expect(gh.countCalls({ operation: 'issues/list-labels-on-issue' }, mark)).toBe(1);
    gh.clearFaults();

    mark = gh.calls.length;
    gh.failNext({ operation: 'issues/list-labels-on-issue' }, [502, 502]);
    const retried = await runScript(script(true), { GITHUB_API_URL: gh.url, TOKEN });
    expect(retried.result).toEqual({ ok: true, status: 200 });
    expect(gh.calls.slice(mark).map((c) => [c.status, c.injected])).toEqual([
      [502, true],
      [502, true],
      [200, false],
    ]);

    // A dropped connection (status 0) surfaces in octokit as a RequestError with status 500 and is retried too.
    mark = gh.calls.length;
    gh.failNext({ operation: 'issues/list-labels-on-issue' }, [0]);
    const afterDrop = await runScript(script(true), { GITHUB_API_URL: gh.url, TOKEN });
    expect(afterDrop.result).toEqual({ ok: true, status: 200 });
    expect(gh.calls.slice(mark).map((c) => c.status)).toEqual([0, 200]);
    expect(gh.violations).toEqual([]);
  });

  test('the validator can fail: wrong request body, unknown operation, bad response, missing auth', async () => {
    const gh2 = await startGitHubEmulator();
    try {
      gh2.addRepo('octo/widgets');
      gh2.addIssue('octo/widgets', { number: 1 });
      gh2.tamperResponses('issues/get', (body) => ({ ...(body as object), number: 'one' }));
      const r = await runScript(
        `
        import * as github from '@actions/github';
        const o = github.getOctokit(process.env.TOKEN);
        const statuses = [];
        const q = { owner: 'octo', repo: 'widgets' };
        for (const f of [
          () => o.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...q, issue_number: 1, text: 'no body field' }),
          () => o.request('GET /repos/{owner}/{repo}/issues/{issue_number}/labels', { ...q, issue_number: 'abc' }),
          () => o.request('GET /repos/{owner}/{repo}/branches', q),
          () => o.rest.issues.get({ ...q, issue_number: 1 }),
          () => fetch(process.env.GITHUB_API_URL + '/repos/octo/widgets'),
        ]) {
          try { const x = await f(); statuses.push(x.status); } catch (e) { statuses.push(e.status); }
        }
        console.log('RESULT:' + JSON.stringify(statuses));
        `,
        { GITHUB_API_URL: gh2.url, TOKEN },
      );
      expect(r.result).toEqual([422, 422, 404, 200, 401]);
      const kinds = gh2.violations.map((v) => [v.kind, v.operation ?? v.path]);
      expect(kinds).toEqual([
        ['request', 'issues/create-comment'],
        ['request', 'issues/list-labels-on-issue'],
        ['unknown-operation', '/repos/octo/widgets/branches'],
        ['response', 'issues/get'],
        ['auth', 'repos/get'],
      ]);
      expect(JSON.stringify(gh2.violations[0].errors)).toContain("must have required property 'body'");
      expect(gh2.comments.size).toBe(0);
    } finally {
      await gh2.close();
    }
  });
});

describe('artifact service with @actions/artifact (twirp + blob + REST download)', () => {
  test('upload in run 1; run 2 finds it through the REST listing and downloads the same bytes', async () => {
    const run1 = gh.createRun('octo/widgets', { headBranch: 'feature', headSha: 'a'.repeat(40) });
    const ws1 = await mkdtemp(join(tmpdir(), 'phuc-harness-ws1-'));
    const files: Record<string, string> = {
      'plan.json': '{"goal":"x"}\n',
      'iter_1/certificate.json': JSON.stringify({ type: 'NONE', pad: 'z'.repeat(50_000) }),
      'history.jsonl': '{"i":1}\n',
    };
    for (const [p, c] of Object.entries(files)) {
      await mkdir(join(ws1, 'evidence/loop', p, '..'), { recursive: true });
      await writeFile(join(ws1, 'evidence/loop', p), c);
    }
    const up = await runScript(
      `
      import { DefaultArtifactClient } from '@actions/artifact';
      const root = process.env.GITHUB_WORKSPACE + '/evidence/loop';
      const files = ${JSON.stringify(Object.keys(files))}.map((f) => root + '/' + f);
      const r = await new DefaultArtifactClient().uploadArtifact('phuc-evidence-pr-7', files, root, { retentionDays: 5 });
      console.log('RESULT:' + JSON.stringify(r));
      `,
      { ...run1.env(), GITHUB_WORKSPACE: ws1 },
    );
    expect(up.code).toBe(0);
    const uploaded = up.result as { id: number; size: number; digest: string };
    const stored = gh.artifacts.get(uploaded.id)!;
    expect(stored).toMatchObject({ name: 'phuc-evidence-pr-7', runId: run1.id, finalized: true, size: uploaded.size, digest: `sha256:${uploaded.digest}` });
    expect(Object.fromEntries([...gh.artifactFiles(uploaded.id)].map(([k, v]) => [k, v.toString()]))).toEqual(files);
    gh.completeRun(run1.id, 'failure');

    const run2 = gh.createRun('octo/widgets', { headBranch: 'feature', headSha: 'a'.repeat(40) });
    const ws2 = await mkdtemp(join(tmpdir(), 'phuc-harness-ws2-'));
    const down = await runScript(
      `
      import * as github from '@actions/github';
      import { DefaultArtifactClient } from '@actions/artifact';
      import { readFileSync } from 'node:fs';
      import { createHash } from 'node:crypto';
      const o = github.getOctokit(process.env.TOKEN);
      const list = (await o.rest.actions.listArtifactsForRepo({ owner: 'octo', repo: 'widgets', name: 'phuc-evidence-pr-7' })).data;
      const prev = list.artifacts.find((a) => a.workflow_run.id !== Number(process.env.GITHUB_RUN_ID));
      const findBy = { token: process.env.TOKEN, workflowRunId: prev.workflow_run.id, repositoryOwner: 'octo', repositoryName: 'widgets' };
      const client = new DefaultArtifactClient();
      const { artifact } = await client.getArtifact('phuc-evidence-pr-7', { findBy });
      const dl = await client.downloadArtifact(artifact.id, { findBy, path: process.env.GITHUB_WORKSPACE + '/restored', expectedHash: artifact.digest });
      const hashes = {};
      for (const f of ${JSON.stringify(Object.keys(files))}) hashes[f] = createHash('sha256').update(readFileSync(dl.downloadPath + '/' + f)).digest('hex');
      console.log('RESULT:' + JSON.stringify({ runId: prev.workflow_run.id, id: artifact.id, digestMismatch: dl.digestMismatch, hashes }));
      `,
      { ...run2.env(), GITHUB_WORKSPACE: ws2, TOKEN },
    );
    expect(down.code).toBe(0);
    expect(down.result).toEqual({
      runId: run1.id,
      id: uploaded.id,
      digestMismatch: false,
      hashes: Object.fromEntries(Object.entries(files).map(([k, v]) => [k, sha256(v)])),
    });
    expect(gh.violations).toEqual([]);
    await rm(ws1, { recursive: true, force: true });
    await rm(ws2, { recursive: true, force: true });
  });

  test('same-run list/download via twirp, duplicate name refused, seeded zip served; GHES detection', async () => {
    const run = gh.createRun('octo/widgets', { headBranch: 'feature' });
    const seeded = gh.addArtifact(run.id, 'seeded', { files: { 'a.txt': 'alpha' } });
    const ws = await mkdtemp(join(tmpdir(), 'phuc-harness-ws3-'));
    await writeFile(join(ws, 'x.txt'), 'x');
    const r = await runScript(
      `
      import { DefaultArtifactClient } from '@actions/artifact';
      import { readFileSync } from 'node:fs';
      const c = new DefaultArtifactClient();
      const out = {};
      out.list = (await c.listArtifacts()).artifacts.map((a) => a.name);
      const d = await c.downloadArtifact(${seeded.id}, { path: process.env.GITHUB_WORKSPACE + '/d' });
      out.content = readFileSync(d.downloadPath + '/a.txt', 'utf8');
      try { await c.uploadArtifact('seeded', [process.env.GITHUB_WORKSPACE + '/x.txt'], process.env.GITHUB_WORKSPACE); out.dup = 'accepted'; }
      catch (e) { out.dup = /409/.test(e.message) ? 'conflict' : e.message; }
      console.log('RESULT:' + JSON.stringify(out));
      `,
      { ...run.env(), GITHUB_WORKSPACE: ws },
    );
    expect(r.result).toEqual({ list: ['seeded'], content: 'alpha', dup: 'conflict' });

    // @actions/artifact decides "GHES" from GITHUB_SERVER_URL alone: an http://127.0.0.1 server URL is refused.
    const ghes = await runScript(
      `
      import { DefaultArtifactClient } from '@actions/artifact';
      try { await new DefaultArtifactClient().uploadArtifact('n', [process.env.GITHUB_WORKSPACE + '/x.txt'], process.env.GITHUB_WORKSPACE); console.log('RESULT:"uploaded"'); }
      catch (e) { console.log('RESULT:' + JSON.stringify(e.name)); }
      `,
      { ...run.env(), GITHUB_SERVER_URL: gh.url, GITHUB_WORKSPACE: ws },
    );
    expect(ghes.result).toBe('GHESNotSupportedError');
    expect(gh.violations).toEqual([]);
    await rm(ws, { recursive: true, force: true });
  });

  test('twirp rejects a runtime token for an unknown run (and records it)', async () => {
    const gh3 = await startGitHubEmulator();
    try {
      gh3.addRepo('octo/widgets');
      const run = gh3.createRun('octo/widgets');
      gh3.runs.delete(run.id);
      const ws = await mkdtemp(join(tmpdir(), 'phuc-harness-ws4-'));
      await writeFile(join(ws, 'x.txt'), 'x');
      const r = await runScript(
        `
        import { DefaultArtifactClient } from '@actions/artifact';
        try { await new DefaultArtifactClient().uploadArtifact('n', [process.env.GITHUB_WORKSPACE + '/x.txt'], process.env.GITHUB_WORKSPACE); console.log('RESULT:"uploaded"'); }
        catch (e) { console.log('RESULT:' + JSON.stringify(e.message)); }
        `,
        { ...run.env(), GITHUB_WORKSPACE: ws },
      );
      expect(String(r.result)).toContain('401');
      expect(gh3.violations.map((v) => v.kind)).toEqual(['twirp']);
      await rm(ws, { recursive: true, force: true });
    } finally {
      await gh3.close();
    }
  });
});

describe('runner stand-in', () => {
  let actionDir: string;
  const dirs = async () => ({ workspace: await mkdtemp(join(scratch, 'ws-')), runnerTemp: await mkdtemp(join(scratch, 'rt-')) });

  beforeAll(async () => {
    actionDir = join(scratch, 'fake-action');
    await mkdir(join(actionDir, 'dist/main'), { recursive: true });
    await mkdir(join(actionDir, 'dist/post'), { recursive: true });
    await writeFile(
      join(actionDir, 'action.yml'),
      `name: fake
description: fake action for the harness test
inputs:
  github-token:
    description: token
    default: \${{ github.token }}
  max iterations:
    description: spaces become underscores
    default: '10'
  mode:
    description: no default
  wait-ms:
    description: how long main waits
    default: '0'
outputs:
  summary-line:
    description: x
runs:
  using: node24
  main: dist/main/index.js
  post: dist/post/index.js
`,
    );
    await writeFile(
      join(actionDir, 'dist/main/index.js'),
      `import * as core from '@actions/core';
       import { readFileSync } from 'node:fs';
       const event = JSON.parse(readFileSync(process.env.GITHUB_EVENT_PATH, 'utf8'));
       core.setSecret(core.getInput('github-token'));
       core.setOutput('token-seen', core.getInput('github-token'));
       core.setOutput('iterations', core.getInput('max iterations'));
       core.setOutput('mode', core.getInput('mode'));
       core.setOutput('multi', 'line 1\\nline 2');
       core.setOutput('pr', String(event.pull_request.number));
       core.saveState('started', 'yes');
       core.saveState('json', JSON.stringify({ a: [1, 2] }));
       core.exportVariable('PHUC_FROM_MAIN', 'exported');
       core.addPath('/opt/fake/bin');
       core.warning('careful', { file: 'a.ts', startLine: 3 });
       await core.summary.addHeading('Halting report').addRaw('all good').write();
       process.on('SIGINT', () => { core.saveState('interrupted', 'SIGINT'); console.log('got SIGINT'); process.exit(130); });
       console.log('ready');
       const wait = Number(core.getInput('wait-ms'));
       if (wait > 0) await new Promise((r) => setTimeout(r, wait));
       `,
    );
    await writeFile(
      join(actionDir, 'dist/post/index.js'),
      `import * as core from '@actions/core';
       core.setOutput('post-saw', [core.getState('started'), core.getState('json'), core.getState('interrupted'), process.env.PHUC_FROM_MAIN ?? ''].join('|'));
       await core.summary.addRaw('post ran').write();
       `,
    );
    await symlink(NODE_MODULES, join(actionDir, 'node_modules'), 'dir');
  });

  test('inputs with defaults, outputs, state to post, summary, env/path, annotations', async () => {
    const run = gh.createRun('octo/widgets', { headBranch: 'feature' });
    const job = await runActionJob({
      ...(await dirs()),
      actionDir,
      inputs: { mode: 'strict', 'max-iterations': 3 },
      env: run.env(),
      eventPayload: gh.pullRequestEvent('octo/widgets', 7),
      token: TOKEN,
    });
    expect(job.main.warnings).toEqual([expect.stringContaining("Unexpected input(s) 'max-iterations'")]);
    expect(job.main.stderr).toBe('');
    expect(job.main.exitCode).toBe(0);
    expect(job.main.outputs).toEqual({ 'token-seen': TOKEN, iterations: '10', mode: 'strict', multi: 'line 1\nline 2', pr: '7' });
    expect(job.main.state).toEqual({ started: 'yes', json: '{"a":[1,2]}' });
    expect(job.main.env).toEqual({ PHUC_FROM_MAIN: 'exported' });
    expect(job.main.path).toEqual(['/opt/fake/bin']);
    expect(job.main.summary).toContain('<h1>Halting report</h1>');
    expect(job.main.masks).toEqual([TOKEN]);
    expect(job.main.annotations).toEqual([{ level: 'warning', message: 'careful', properties: { file: 'a.ts', line: '3' } }]);
    expect(job.main.stepEnv['INPUT_MAX_ITERATIONS']).toBe('10');
    expect(job.main.stepEnv['INPUT_GITHUB-TOKEN']).toBe(TOKEN);
    expect(job.main.stepEnv['GITHUB_API_URL']).toBe(gh.url);
    expect(job.post?.exitCode).toBe(0);
    expect(job.post?.outputs).toEqual({ 'post-saw': 'yes|{"a":[1,2]}||exported' });
    expect(job.post?.summary).toBe('post ran');
    expect(job.main.leftoverProcesses).toBe(false);
  });

  test('cancellation: SIGINT reaches the step mid-run, then post still runs (always())', async () => {
    const t0 = Date.now();
    const job = await runActionJob({
      ...(await dirs()),
      actionDir,
      inputs: { 'wait-ms': '20000' },
      eventPayload: { pull_request: { number: 7 } },
      token: TOKEN,
      onMainStarted: async (h) => {
        await h.waitForOutput('ready');
        await h.cancel({ sigintMs: 3000 });
      },
    });
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(job.main.cancelled).toBe(true);
    expect(job.main.exitCode).toBe(130);
    expect(job.main.stdout).toContain('got SIGINT');
    expect(job.post?.outputs['post-saw']).toBe('yes|{"a":[1,2]}|SIGINT|exported');

    const h = startActionStep({
      ...(await dirs()),
      actionDir,
      entry: 'main',
      inputs: { 'wait-ms': '20000' },
      eventPayload: { pull_request: { number: 1 } },
      token: TOKEN,
    });
    await h.waitForOutput('ready');
    expect(h.kill('SIGTERM')).toBe(true);
    const r = await h.done;
    expect(r.signal).toBe('SIGTERM');
    expect(r.exitCode).toBeNull();
  });

  test('parseFileCommands reads heredoc and key=value forms', () => {
    expect(parseFileCommands('a<<EOF\nx\ny\nEOF\nb=1=2\nc<<D\n\nD\n')).toEqual({ a: 'x\ny', b: '1=2', c: '' });
    expect(() => parseFileCommands('a<<EOF\nx\n')).toThrow(/unterminated/);
  });

  test('a step fails with its own exit code', async () => {
    const dir = join(scratch, 'failing-action');
    await mkdir(join(dir, 'dist'), { recursive: true });
    await writeFile(join(dir, 'action.yml'), 'name: f\ndescription: f\nruns:\n  using: node24\n  main: dist/index.js\n');
    await writeFile(join(dir, 'dist/index.js'), "console.log('::error title=Boom::it failed%0Atwice'); process.exitCode = 4;");
    const r = await runActionStep({ ...(await dirs()), actionDir: dir, entry: 'main' });
    expect(r.exitCode).toBe(4);
    expect(r.annotations).toEqual([{ level: 'error', message: 'it failed\ntwice', properties: { title: 'Boom' } }]);
  });
});

describe('git origin', () => {
  test('clone like actions/checkout, push through insteadOf to the bare repo, lose a push race', async () => {
    const origin = await createOrigin({
      fullName: 'octo/widgets',
      files: { 'README.md': '# w\n', 'src/a.js': 'x\n' },
      pr: { branch: 'feature', files: { 'src/a.js': 'y\n' } },
    });
    expect(await branchSha(origin, 'feature')).toBe(origin.headSha);
    const ws = await cloneWorkspace(origin, { token: TOKEN });
    expect(await readFile(join(ws, 'src/a.js'), 'utf8')).toBe('y\n');
    const env = { ...isolatedGitEnv(), ...redirectEnv([origin], { token: TOKEN }) };
    const id = { GIT_AUTHOR_NAME: 'phuc-loop', GIT_AUTHOR_EMAIL: 'bot@example.com', GIT_COMMITTER_NAME: 'phuc-loop', GIT_COMMITTER_EMAIL: 'bot@example.com' };
    await writeFile(join(ws, 'AGENTS.md'), 'iteration 1\n');
    await git(['add', '-A'], { cwd: ws, env });
    await git(['commit', '-q', '-m', 'phuc-loop: iteration 1'], { cwd: ws, env: { ...env, ...id } });
    await git(['push', '-q', `https://x-access-token:${TOKEN}@github.com/octo/widgets.git`, 'HEAD:refs/heads/feature'], { cwd: ws, env });
    const pushed = (await git(['rev-parse', 'HEAD'], { cwd: ws })).stdout.trim();
    expect(await branchSha(origin, 'feature')).toBe(pushed);
    expect((await log(origin, 'feature', { since: origin.headSha! })).map((c) => [c.subject, c.files])).toEqual([['phuc-loop: iteration 1', ['AGENTS.md']]]);
    expect(await showFile(origin, 'feature', 'AGENTS.md')).toBe('iteration 1\n');

    const theirs = await pushAsSomeoneElse(origin, 'feature', { 'src/b.js': 'z\n' });
    await writeFile(join(ws, 'AGENTS.md'), 'iteration 2\n');
    await git(['commit', '-q', '-am', 'phuc-loop: iteration 2'], { cwd: ws, env: { ...env, ...id } });
    await expect(git(['push', '-q', 'origin', 'HEAD:refs/heads/feature'], { cwd: ws, env })).rejects.toThrow(/rejected|fetch first|non-fast-forward/);
    expect(await branchSha(origin, 'feature')).toBe(theirs);
    // Without identity configured, a fresh runner's git cannot commit: the action must set one.
    await expect(
      git(['commit', '-q', '--allow-empty', '-m', 'x'], { cwd: ws, env: { ...env, EMAIL: '', GIT_AUTHOR_NAME: '', GIT_COMMITTER_NAME: '' } }),
    ).rejects.toThrow();
    await rm(ws, { recursive: true, force: true });
    await rm(dirname(origin.bareDir), { recursive: true, force: true });
  });
});

describe('zip helpers', () => {
  test('makeZip/readZip round trip', () => {
    const z = makeZip({ 'a/b.txt': 'hello', 'c.bin': new Uint8Array([0, 1, 2]) });
    const m = readZip(z);
    expect(m.get('a/b.txt')!.toString()).toBe('hello');
    expect([...m.get('c.bin')!]).toEqual([0, 1, 2]);
    expect(sha256(makeZip({ x: '1' }))).toBe(sha256(makeZip({ x: '1' })));
  });
});
