// The action's small pieces on their own: input validation, the safe unzip, push failure
// classification, the comment renderer, the secret scrubber.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { lstat, mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { crc32, deflateRawSync } from 'node:zlib';
import { evidenceFiles } from '../../src/action/artifact.js';
import { renderComment, withArtifactLink, STICKY_MARKER } from '../../src/action/comment.js';
import { InputError, parseInputs } from '../../src/action/inputs.js';
import { pauseOf, type PauseFacts } from '../../src/action/pause.js';
import { phaseLine } from '../../src/action/progress.js';
import { evidenceView, firstLines } from '../../src/action/evidence-view.js';
import { classifyPushFailure } from '../../src/action/push.js';
import { Scrubber } from '../../src/action/scrub.js';
import { extractZip, readZipEntries, UnsafeZip } from '../../src/action/zip.js';
import { makeZip } from '../harness/zip.js';
import { runActionStep } from '../harness/runner.js';
import { assertBuilt, ROOT } from './helpers.js';

describe('inputs', () => {
  test('defaults parse to typed values', () => {
    expect(parseInputs({ 'github-token': 'ghs_x' })).toEqual({
      config: 'phuc-loop.yml',
      'github-token': 'ghs_x',
      agent: undefined,
      'stop-label': 'STOP',
      comment: 'sticky',
      'artifact-name': 'phuc-loop-evidence',
      'retention-days': 30,
      push: true,
      'poll-seconds': 30,
      'working-directory': '.',
      'allowed-bots': [],
      'pull-request': undefined,
      fresh: false,
      isolation: 'auto',
      'key-proxy': true,
    });
  });

  test('isolation and key-proxy: the allowed values, and errors that name the input and list them', () => {
    expect(parseInputs({ 'github-token': 't', isolation: 'user+pidns', 'key-proxy': 'false' })).toMatchObject({ isolation: 'user+pidns', 'key-proxy': false });
    expect(parseInputs({ 'github-token': 't', isolation: 'none' }).isolation).toBe('none');
    expect(() => parseInputs({ 'github-token': 't', isolation: 'docker', 'key-proxy': 'sometimes' })).toThrow(
      new InputError([
        'input "isolation": got "docker"; must be one of auto | user+pidns | pidns | none',
        'input "key-proxy": got "sometimes"; must be true or false',
      ]),
    );
  });

  test('every bad input is named, with the value and what is allowed; the token is never echoed', () => {
    let err: InputError | undefined;
    try {
      parseInputs({ 'github-token': '', push: 'maybe', 'allowed-bots': 'ok[bot], bad/name', 'pull-request': '-3', 'artifact-name': 'a/b' });
    } catch (e) {
      err = e as InputError;
    }
    expect(err).toBeInstanceOf(InputError);
    expect(err!.problems).toEqual([
      expect.stringMatching(/^input "github-token": got \(hidden\); is empty/),
      expect.stringMatching(/^input "artifact-name": got "a\/b"; must be letters/),
      'input "push": got "maybe"; must be true or false',
      expect.stringMatching(/^input "allowed-bots": got "ok\[bot\], bad\/name"; "bad\/name" is not a GitHub login/),
      'input "pull-request": got "-3"; must be empty or a pull request number',
    ]);
  });

  test('push-token, claude-code-oauth-token and model: empty is the default, the tokens are never echoed, a bad model is named', () => {
    expect(
      parseInputs({ 'github-token': 't', 'push-token': ' github_pat_x ', 'claude-code-oauth-token': 'sk-ant-oat01-x', model: 'claude-opus-4-1' }),
    ).toMatchObject({
      'push-token': 'github_pat_x',
      'claude-code-oauth-token': 'sk-ant-oat01-x',
      model: 'claude-opus-4-1',
    });
    const d = parseInputs({ 'github-token': 't' });
    expect([d['push-token'], d['claude-code-oauth-token'], d.model]).toEqual([undefined, undefined, undefined]);
    expect(() => parseInputs({ 'github-token': '', 'push-token': 'github_pat_secret', model: 'claude opus' })).toThrow(
      new InputError([
        'input "github-token": got (hidden); is empty: pass a token (the default is ${{ github.token }})',
        'input "model": got "claude opus"; must be empty (the config\'s agent.model) or one model name without spaces, e.g. claude-sonnet-4-5',
      ]),
    );
  });

  test('lists and numbers', () => {
    const i = parseInputs({
      'github-token': 't',
      'allowed-bots': 'Renovate[bot]\ndependabot[bot]',
      'poll-seconds': '0.5',
      'pull-request': '42',
      push: 'false',
    });
    expect(i['allowed-bots']).toEqual(['renovate[bot]', 'dependabot[bot]']);
    expect(i['poll-seconds']).toBe(0.5);
    expect(i['pull-request']).toBe(42);
    expect(i.push).toBe(false);
  });
});

function zipWith(entries: { name: string; data: string; attrs?: number; madeBy?: number }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const data = Buffer.from(e.data);
    const deflated = deflateRawSync(data);
    const name = Buffer.from(e.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc32(data), 14);
    local.writeUInt32LE(deflated.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, deflated);
    const c = Buffer.alloc(46);
    c.writeUInt32LE(0x02014b50, 0);
    c.writeUInt16LE(((e.madeBy ?? 3) << 8) | 20, 4);
    c.writeUInt16LE(8, 10);
    c.writeUInt32LE(crc32(data), 16);
    c.writeUInt32LE(deflated.length, 20);
    c.writeUInt32LE(data.length, 24);
    c.writeUInt16LE(name.length, 28);
    c.writeUInt32LE(((e.attrs ?? 0o100644) << 16) >>> 0, 38);
    c.writeUInt32LE(offset, 42);
    centrals.push(c, name);
    offset += 30 + name.length + deflated.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

test('the artifact holds only complete files: no half-written temp file of the evidence writer, no run lock', async () => {
  const root = await mkdtemp(join(tmpdir(), 'phuc-evidence-'));
  await mkdir(join(root, 'iter_0'));
  const half = `certificate.json.tmp-${randomBytes(6).toString('hex')}`;
  for (const f of ['plan.json', 'iter_0/certificate.json', `iter_0/${half}`, `state.json.tmp-${randomBytes(6).toString('hex')}`, 'run.lock', 'notes.tmp-1'])
    await writeFile(join(root, f), '{}');
  expect((await evidenceFiles(root)).map((f) => relative(root, f))).toEqual(['iter_0/certificate.json', 'notes.tmp-1', 'plan.json']);
});

describe('safe unzip of the evidence artifact', () => {
  test('extracts a normal archive', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'phuc-zip-'));
    const files = await extractZip(makeZip({ 'plan.json': '{}', 'iter_0/certificate.json': '{"type":"NONE"}' }), join(dir, 'out'));
    expect(files).toEqual(['iter_0/certificate.json', 'plan.json']);
    expect(await readFile(join(dir, 'out/iter_0/certificate.json'), 'utf8')).toBe('{"type":"NONE"}');
  });

  test.each([
    ['../escape.txt', /"\.\."/],
    ['a/../../escape.txt', /"\.\."/],
    ['/etc/passwd', /absolute/],
    ['a\\..\\b', /backslash/],
  ])('refuses %s', async (name, why) => {
    const dir = await mkdtemp(join(tmpdir(), 'phuc-zip-'));
    await expect(extractZip(zipWith([{ name, data: 'x' }]), join(dir, 'out'))).rejects.toThrow(why);
    expect(await readdir(dir)).toEqual([]);
  });

  test('a symbolic link entry is written as a regular file, never as a link', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'phuc-zip-'));
    await extractZip(zipWith([{ name: 'link', data: '/etc/passwd', attrs: 0o120777 }]), join(dir, 'out'));
    const st = await lstat(join(dir, 'out/link'));
    expect(st.isSymbolicLink()).toBe(false);
    expect(await readFile(join(dir, 'out/link'), 'utf8')).toBe('/etc/passwd');
  });

  test('refuses size bombs: too many entries, too many bytes declared, an entry that inflates to less than declared', () => {
    const many = zipWith(Array.from({ length: 5 }, (_, i) => ({ name: `f${i}`, data: 'x' })));
    expect(() => readZipEntries(many, { maxFiles: 4 })).toThrow(/more than the 4 entries allowed/);
    expect(readZipEntries(many, { maxFiles: 5 }).size).toBe(5);
    const big = zipWith([{ name: 'zeros', data: '\0'.repeat(1_000_000) }]);
    expect(big.length).toBeLessThan(10_000);
    expect(() => readZipEntries(big, { maxBytes: 999_999 })).toThrow(/more than 999999 bytes uncompressed/);
    // A directory that claims 4 GB for an entry is refused before anything is inflated.
    const lying = zipWith([{ name: 'a.txt', data: 'hello' }]);
    const central = lying.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    lying.writeUInt32LE(0xfffffffe, central + 24);
    expect(() => readZipEntries(lying)).toThrow(/more than \d+ bytes uncompressed/);
    lying.writeUInt32LE(6, central + 24);
    expect(() => readZipEntries(lying)).toThrow(/a.txt: size differs from the directory/);
  });

  test('refuses corrupt data, unknown compression and duplicate names', () => {
    const bad = zipWith([{ name: 'a.txt', data: 'hello' }]);
    bad.fill(0xff, 30 + 'a.txt'.length, 30 + 'a.txt'.length + 4);
    expect(() => readZipEntries(bad)).toThrow(UnsafeZip);
    const stored = zipWith([{ name: 'a.txt', data: 'hello' }]);
    stored.writeUInt16LE(12, stored.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])) + 10);
    expect(() => readZipEntries(stored)).toThrow(/compression method 12 is not supported/);
    expect(() =>
      readZipEntries(
        zipWith([
          { name: 'a', data: '1' },
          { name: 'a', data: '2' },
        ]),
      ),
    ).toThrow(/twice/);
    expect(() => readZipEntries(Buffer.from('not a zip'))).toThrow(/not a readable ZIP/);
  });
});

describe('push failures', () => {
  test.each([
    [' ! [rejected]        abc -> pr-7 (fetch first)\nerror: failed to push some refs', 'rejected'],
    ['! [rejected] HEAD -> feature (non-fast-forward)', 'rejected'],
    ["fatal: unable to access 'https://github.com/o/r/': The requested URL returned error: 502", 'transient'],
    ['fatal: unable to access: Could not resolve host: github.com', 'transient'],
    ['error: RPC failed; HTTP 500 curl 22 The requested URL returned error: 500', 'transient'],
    ['remote: Permission to o/r.git denied to github-actions[bot].\nfatal: ... returned error: 403', 'fatal'],
  ])('%s → %s', (out, kind) => {
    expect(classifyPushFailure(out)).toBe(kind);
  });
});

describe('comment', () => {
  const base = {
    status: 'RUNNING',
    runUrl: 'https://github.com/o/r/actions/runs/1',
    repoUrl: 'https://github.com/o/r',
    artifactName: 'phuc-loop-evidence-pr-7',
    stopLabel: 'STOP',
  };
  const row = (n: number) => ({
    iteration: n,
    G: 25,
    L: 10,
    O: 5,
    W: 0,
    total: 40,
    residual: String(3 - n),
    certificate: 'NONE' as const,
    northstar_distance: '0.5',
    commit: 'a'.repeat(40),
  });

  test('table, charts, links; the artifact link is filled in later', () => {
    const body = renderComment({ ...base, rows: [row(0), { ...row(1), cost_usd: '0.125', tokens: 1250 }] });
    expect(body.startsWith(STICKY_MARKER)).toBe(true);
    // Cost and tokens as the agent reported them for the iteration; unknown is a dash, never 0.
    // Each iteration links to its commit; GLOW carries its four parts (G·L·O·W).
    const link = `(https://github.com/o/r/commit/${'a'.repeat(40)} "commit aaaaaaa")`;
    expect(body).toContain(`| [0]${link} | 40 (25·10·5·0) | 3 | NONE | 0.5 | — · — |`);
    expect(body).toContain(`| [1]${link} | 40 (25·10·5·0) | 2 | NONE | 0.5 | $0.13 · 1250 |`);
    // One compact chart: GLOW bars and the residual as a share of the largest shown, with a legend.
    expect(body.match(/```mermaid/g)).toHaveLength(1);
    expect(body).toContain('"width": 480, "height": 200');
    expect(body).toContain('bar [40, 40]');
    expect(body).toContain('line [100, 67]');
    expect(body).toMatch(
      /🟦 bars: GLOW = G \+ L \+ O \+ W, each 0–25 \(G growth.*L learning.*O output.*W wins.*🟥 line: residual, % of the largest shown \(3\)/,
    );
    expect(body).toContain('(uploaded when the job ends)');
    const linked = withArtifactLink(body, 'phuc-loop-evidence-pr-7', 'https://github.com/o/r/actions/runs/1/artifacts/9');
    expect(linked).toContain('[`phuc-loop-evidence-pr-7`](https://github.com/o/r/actions/runs/1/artifacts/9)');
    expect(linked).not.toContain('uploaded when the job ends');
  });

  test('while running: one status line, the phase the run is in', () => {
    expect(renderComment({ ...base, rows: [row(0)], phase: phaseLine({ phase: 'checks', iteration: 1 }) }).split('\n')[1]).toBe(
      "### phuc-loop · RUNNING · iteration 1: the checks run on the agent's change",
    );
    expect(renderComment({ ...base, rows: [row(0)] }).split('\n')[1]).toBe('### phuc-loop · RUNNING · iteration 0 done');
  });

  test('long Decimals are rounded for display only (common/display.ts)', () => {
    const long = '0.005571030640668523676880222841225626740947';
    const body = renderComment({ ...base, rows: [{ ...row(0), residual: long, northstar_distance: '0.6666666666666666666666666666666666666667' }] });
    expect(body).toContain('| 0.005571 |');
    expect(body).toContain('| 0.6667 |');
    expect(body).not.toContain(long);
  });

  test('a baseline row first: HEAD judged before any agent, its residual rounded', () => {
    const long = '2.718281828459045235360287471352662497757';
    const body = renderComment({ ...base, rows: [], baseline: { residual: long, met: 1, criteria: 3 } });
    expect(body).toContain('| baseline | — | 2.718 | 1/3 met | — | — |');
    expect(body).not.toContain(long);
    expect(body).toContain('_No iteration has finished yet._');
    const later = renderComment({ ...base, rows: [row(0)], baseline: { residual: '3', met: 0, criteria: 2 } }).split('\n');
    expect(later.findIndex((l) => l.startsWith('| baseline |')) + 1).toBe(later.findIndex((l) => l.startsWith('| [0](')));
  });

  test("the failing checks' first lines: a bounded excerpt that stays text, with the log's path and a link to the run", () => {
    const hostile = ['@octocat please look', '<img src=x onerror=alert(1)>', '```', '````', '[click](https://evil.example)', 'tab\there\u0007bell'];
    const body = renderComment({
      ...base,
      rows: [row(0)],
      failing: { round: 'iteration 0', checks: [{ id: 'unit`tests', evidence: 'iter_0/checks/unit.log', lines: hostile }], more: 2 },
    });
    expect(body).toContain(
      '**Failing checks (iteration 0):** the logs are in the evidence artifact of the [workflow run](https://github.com/o/r/actions/runs/1).',
    );
    expect(body).toContain("`unit'tests` — `iter_0/checks/unit.log`, first lines:");
    // One fence longer than any backtick run of the output opens and closes it: nothing inside can end it early.
    const lines = body.split('\n');
    const open = lines.indexOf('`````text');
    expect(open).toBeGreaterThan(0);
    expect(lines.slice(open + 1, open + 1 + hostile.length)).toEqual([...hostile.slice(0, 5), 'tab\there bell']);
    expect(lines[open + 1 + hostile.length]).toBe('`````');
    expect(lines.filter((l) => /^`{5}/.test(l))).toHaveLength(2);
    expect(body).toContain('… and 2 more failing check(s) in the artifact.');
  });

  test('the first lines of a log: no frame, no colour, no blank lines, at most 5 of at most 160 characters', () => {
    const log = ['$ npm test', '--- stdout ---', '', '\u001b[31mFAIL\u001b[0m src/a.test.ts', 'x'.repeat(500), 'l3', 'l4', 'l5', 'l6', '--- exit 1 ---'].join(
      '\n',
    );
    const got = firstLines(log);
    expect(got).toEqual(['FAIL src/a.test.ts', `${'x'.repeat(159)}…`, 'l3', 'l4', 'l5']);
  });

  test('from the evidence: the baseline of plan.json, the failing checks of the latest certificate; no path outside the tree is read', async () => {
    const root = await mkdtemp(join(tmpdir(), 'phuc-evidence-view-'));
    await mkdir(join(root, 'baseline/checks'), { recursive: true });
    await writeFile(join(root, 'baseline/checks/bug1.log'), '$ ./check bug1\n--- stdout ---\nbug 1 is still there\n--- exit 1 ---\n');
    const criteria = [
      { id: 'bug1', met: false, evidence: 'baseline/checks/bug1.log#sha256=00' },
      { id: 'ok', met: true, evidence: 'baseline/checks/ok.log' },
      { id: 'sneaky', met: false, evidence: '../../../etc/passwd' },
    ];
    expect(await evidenceView(root, null)).toEqual({ baseline: null, failing: null });
    await writeFile(join(root, 'plan.json'), JSON.stringify({ goal: 'g', baseline: { residual: '2', residual_detail: 'junit', criteria } }));
    expect(await evidenceView(root, null)).toEqual({
      baseline: { residual: '2', met: 1, criteria: 3 },
      failing: {
        round: 'baseline',
        checks: [
          { id: 'bug1', evidence: 'baseline/checks/bug1.log', lines: ['bug 1 is still there'] },
          { id: 'sneaky', evidence: '../../../etc/passwd', lines: [] },
        ],
        more: 0,
      },
    });
  });

  test("stays under GitHub's 65,536 characters by dropping the oldest rows", () => {
    const rows = Array.from({ length: 2000 }, (_, i) => row(i));
    const body = renderComment({ ...base, rows });
    expect(body.length).toBeLessThanOrEqual(65_000);
    expect(body).toMatch(/\d+ earlier iteration\(s\) in the artifact/);
    expect(body).toContain('| [1999](');
  });
});

test('the scrubber replaces a token and the base64 forms git sends', () => {
  const s = new Scrubber();
  s.add('ghs_secretvalue123');
  const b64 = Buffer.from('x-access-token:ghs_secretvalue123').toString('base64');
  // The token's part of the header is masked; base64("x-access-token:") before it is public.
  expect(s.scrub(`token ghs_secretvalue123 header AUTHORIZATION: basic ${b64}`)).toBe(
    `token *** header AUTHORIZATION: basic ${Buffer.from('x-access-token:').toString('base64')}***`,
  );
  expect(s.contains(Buffer.from(`x ${b64}`))).toBe(true);
});

test("the workflows, the docs' example callers and action.yml pass actionlint and GitHub's parser", async () => {
  const r = await new Promise<{ code: number | null; out: string }>((resolve) => {
    execFile(process.execPath, [`${ROOT}node_modules/tsx/dist/cli.mjs`, `${ROOT}scripts/check-workflows.mjs`], { cwd: ROOT }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, out: stdout + stderr }),
    );
  });
  expect(r.out).toContain('workflows and action.yml: OK');
  expect(r.code).toBe(0);
}, 60_000);

describe('a paused run says by what and how to go on', () => {
  const facts = (f: Partial<PauseFacts>): PauseFacts => ({
    stopReason: 'BACKPRESSURE_SIGNAL',
    detail: null,
    signal: null,
    labelReason: null,
    stopLabel: 'STOP',
    trigger: { kind: 'other' },
    ...f,
  });
  const label = 'the STOP label is on pull request #3';

  test('only EXIT_BLOCKED(BACKPRESSURE_SIGNAL) is a pause', () => {
    expect(pauseOf(facts({ stopReason: 'BRANCH_MOVED' }))).toBeNull();
    expect(pauseOf(facts({ stopReason: null }))).toBeNull();
  });

  test.each([
    ['stop-label', facts({ detail: label, labelReason: label }), /^Remove the `STOP` label, then re-run the job/],
    ['cancel', facts({ detail: 'the loop was asked to stop (signal)', signal: 'SIGINT' }), /^Re-run the job/],
    // The label seen first decides, even when the run was then cancelled too.
    ['stop-label', facts({ detail: label, labelReason: label, signal: 'SIGTERM' }), /^Remove the `STOP` label/],
    ['rate-limit', facts({ detail: 'the agent hit a rate limit' }), /^Wait until the limit resets, then/],
    ['disk', facts({ detail: 'disk use 95% is over 90%' }), /^Free disk space/],
    ['stop-file', facts({ detail: 'scratch/STOP exists' }), /^Delete `scratch\/STOP`/],
    ['other', facts({ detail: 'the downstream service is unavailable' }), /^Re-run the job/],
  ])('%s', (source, f, how) => {
    const p = pauseOf(f)!;
    expect(p.source).toBe(source);
    expect(p.howToGoOn).toMatch(how);
    expect(p.howToGoOn).toMatch(/the next run continues from the evidence/);
  });

  test('how to start again follows the trigger', () => {
    expect(pauseOf(facts({ signal: 'SIGINT', trigger: { kind: 'label', label: 'phuc-loop' } }))!.howToGoOn).toMatch(/^Add the `phuc-loop` label again/);
    expect(pauseOf(facts({ signal: 'SIGINT', trigger: { kind: 'comment' } }))!.howToGoOn).toMatch(/^Comment the command that started it again/);
  });

  test('the comment leads with it', () => {
    const body = renderComment({
      status: 'EXIT_BLOCKED',
      stopReason: 'BACKPRESSURE_SIGNAL',
      rows: [],
      runUrl: 'u',
      repoUrl: 'r',
      artifactName: 'a',
      stopLabel: 'STOP',
      pause: pauseOf(facts({ signal: 'SIGINT' })),
    });
    expect(body.split('\n')[3]).toMatch(/^\*\*Paused:\*\* the workflow run was cancelled \(SIGINT\)\. \*\*To go on:\*\* Re-run the job/);
  });
});

describe('post step state', () => {
  test('a saved state with a wrong-typed field fails the post step naming STATE_phuc-loop and the field; nothing is uploaded', async () => {
    assertBuilt();
    const state = {
      upload: true,
      evidenceDir: '/nowhere',
      artifactName: 'a',
      retentionDays: '30',
      pullRequest: null,
      commentId: null,
      commentFile: null,
      commentMode: 'sticky',
      checkout: null,
      loopEnded: true,
    };
    const post = await runActionStep({ actionDir: ROOT, entry: 'post', stateFromMain: { 'phuc-loop': JSON.stringify(state) }, token: 'ghs_x' });
    expect(post.exitCode).toBe(1);
    const error = post.annotations.find((a) => a.level === 'error')?.message ?? '';
    expect(error).toMatch(
      /the state the main step saved does not parse \(STATE_phuc-loop: retentionDays: Invalid input: expected number, received string\); nothing is uploaded/,
    );
    expect(error).not.toMatch(/crashed/);
  });
});
