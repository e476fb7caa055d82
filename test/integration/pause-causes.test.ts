// Every stop that is not a verdict is a pause (issue 30 item 2): a runner missing where the checks
// run stops before an agent step, in the tool's own words, and a plain `run` goes on once it is fixed
// (a fix to phuc-loop.yml's criteria re-plans); an agent that failed before changing anything is
// tried again by the next run. Real CLI, real repos, scripted agents.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agent, cli, config, git, makeRepo, NORTHSTAR, readJson } from '../helpers/repo.js';

const report = (repo: string) => readJson<Record<string, any>>(join(repo, 'evidence/loop/halting_report.json'));
const criteria = (run: string) => [{ id: 'tests', run }];

test("a Python runner missing where the checks run: NEED_INFO before any agent step, in Python's words; the criterion fixed in phuc-loop.yml, `run` re-plans and converges", async () => {
  const repo = await makeRepo({
    'phuc-loop.yml': config({
      criteria: criteria('/usr/bin/python3 -m phuc_no_such_runner -q && grep -q fixed-1 src/status.txt'),
      agent: agent('offline.mjs'),
    }),
    'NORTHSTAR.md': NORTHSTAR,
    'src/status.txt': 'start\n',
  });
  const r1 = await cli(repo, ['run']);
  expect(r1.stdout).not.toMatch(/iter 0: agent/);
  expect(r1.code).toBe(13);
  expect(r1.stderr).toMatch(/criterion tests: .* cannot run: Python has no module named phuc_no_such_runner .* it said: .*No module named phuc_no_such_runner/);
  expect(await report(repo)).toMatchObject({ status: 'EXIT_NEED_INFO', stop_reason: 'CRITERION_COMMAND_MISSING', iterations_completed: 0 });

  const text = await readFile(join(repo, 'phuc-loop.yml'), 'utf8');
  await writeFile(join(repo, 'phuc-loop.yml'), text.replace('/usr/bin/python3 -m phuc_no_such_runner -q && ', ''));
  await git(repo, 'commit', '-qam', 'the criterion without the runner');
  const r2 = await cli(repo, ['run']);
  expect(r2.stdout).toMatch(/phuc-loop\.yml changed since the plan in evidence\/loop was made .*: a new plan is made and the loop starts again at iteration 0/);
  expect(r2.stdout + r2.stderr).not.toMatch(/EVIDENCE_UNVERIFIABLE/);
  expect(r2.stdout + r2.stderr).toMatch(/halt: EXIT_CONVERGED/);
  expect(r2.code).toBe(0);
  expect((await cli(repo, ['verify'])).code).toBe(0);
});

test('a failing test that imports a missing module is the agent work, not a missing runner', async () => {
  const repo = await makeRepo({
    'phuc-loop.yml': config({
      criteria: criteria('grep -q fixed-1 src/status.txt || /usr/bin/python3 -c "import phuc_missing_dependency"'),
      agent: agent('offline.mjs'),
    }),
    'NORTHSTAR.md': NORTHSTAR,
    'src/status.txt': 'start\n',
  });
  const r = await cli(repo, ['run']);
  expect(r.stdout).toMatch(/iter 0: agent/);
  expect(r.code).toBe(0);
});

test('a JUnit glob that matches nothing at the baseline: NEED_INFO before any agent step, with what the checks said', async () => {
  const repo = await makeRepo({
    'phuc-loop.yml': config({
      criteria: criteria('echo "phuc-runner: not installed for this user" >&2; exit 4'),
      agent: agent('offline.mjs'),
      extra: 'residual:\n  metric: failing_tests_fraction\n  junit: "reports/*.xml"\n',
    }),
    'NORTHSTAR.md': NORTHSTAR,
    'src/status.txt': 'start\n',
  });
  const r = await cli(repo, ['run']);
  expect(r.stdout).not.toMatch(/iter 0: agent/);
  expect(r.code).toBe(13);
  expect(r.stderr).toMatch(
    /residual: no JUnit XML file matches reports\/\*\.xml.* on HEAD, before any agent step: .*tests said: phuc-runner: not installed for this user/,
  );
  expect(await report(repo)).toMatchObject({ status: 'EXIT_NEED_INFO', stop_reason: 'RESIDUAL_UNAVAILABLE' });
});

test('an agent that says its model API is unreachable, with no downstream the loop can probe (no key proxy): its words are no pause, an agent failure; the next `run` tries again', async () => {
  const repo = await makeRepo({
    'phuc-loop.yml': config({ criteria: criteria('grep -q fixed-1 src/status.txt'), agent: agent('offline.mjs') }),
    'NORTHSTAR.md': NORTHSTAR,
    'src/status.txt': 'start\n',
  });
  const r1 = await cli(repo, ['run'], { PHUC_TEST_AGENT_MODE: 'offline' });
  expect(r1.code).toBe(12);
  expect(await report(repo)).toMatchObject({
    status: 'EXIT_BLOCKED',
    stop_reason: 'AGENT_FAILED',
    detail: 'exit 1: Error: connect ECONNREFUSED 127.0.0.1:443 (api.example.com unreachable)',
  });
  const r2 = await cli(repo, ['run']);
  expect(r2.stdout).toMatch(/iter 0: agent/);
  expect(r2.code).toBe(0);
});

/** A repo whose agent is a Claude Code stand-in (it answers --version, else runs `body` as sh), behind the key proxy. */
async function behindKeyProxy(body: string) {
  const ran = await mkdtemp(join(tmpdir(), 'phuc-api-probe-'));
  const script = join(ran, 'claude.sh');
  await writeFile(script, `[ "$1" = --version ] && { echo '2.1.330 (stand-in)'; exit 0; }\ntouch ${ran}/agent-ran\n${body}echo fixed-1 >> src/status.txt\n`, {
    mode: 0o755,
  });
  const repo = await makeRepo({
    'phuc-loop.yml': config({ criteria: criteria('grep -q fixed-1 src/status.txt'), agent: 'placeholder' }).replace(
      /agent:\n {2}use: command\n {2}run: .*\n/,
      `agent:\n  use: claude\n  run: ${JSON.stringify(`sh ${script}`)}\n  key_proxy: true\n  isolation: none\n`,
    ),
    'NORTHSTAR.md': NORTHSTAR,
    'src/status.txt': 'start\n',
  });
  return { repo, ran };
}

const listen = async (server: http.Server) => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
};

test("the key proxy's model API unreachable: the run pauses before the baseline and any agent step, naming the API and the network's error; reachable again, a plain `run` converges", async () => {
  // The stand-in makes no API call: it fixes the bug.
  const { repo, ran } = await behindKeyProxy('');
  const api = http.createServer((_q, r) => r.end('{}'));
  const url = `http://127.0.0.1:${String(await listen(api))}`;
  await new Promise((r) => api.close(r)); // nothing listens there now
  const r1 = await cli(repo, ['run'], { ANTHROPIC_API_KEY: 'sk-ant-api03-probe', ANTHROPIC_BASE_URL: url });
  expect(r1.code).toBe(12);
  expect(r1.stderr).toContain(`downstream unavailable (the model API ${url}): it cannot be reached from here (connect ECONNREFUSED`);
  expect(r1.stderr).toContain('(ANTHROPIC_BASE_URL), then `phuc-loop run` goes on');
  expect(r1.stdout).not.toMatch(/baseline:|iter 0: agent/);
  expect(r1.stdout).toMatch(/EXIT_BLOCKED\(BACKPRESSURE_SIGNAL\)/);
  expect((await cli(repo, ['report'])).stdout).toMatch(
    /BACKPRESSURE_SIGNAL[\s\S]*Certificate \| BACKPRESSURE \(Lane A\)[\s\S]*\*\*BACKPRESSURE\*\* — downstream unavailable/,
  );
  await expect(readFile(join(ran, 'agent-ran'))).rejects.toThrow(/ENOENT/);

  const up = http.createServer((_q, r) => r.end('{}'));
  await new Promise<void>((r) => up.listen(Number(new URL(url).port), '127.0.0.1', r));
  try {
    const r2 = await cli(repo, ['run'], { ANTHROPIC_API_KEY: 'sk-ant-api03-probe', ANTHROPIC_BASE_URL: url });
    expect([r2.code, r2.stdout]).toEqual([0, expect.stringMatching(/halt: EXIT_CONVERGED/)]);
  } finally {
    await new Promise((r) => up.close(r));
  }
});

test("a model API reachable only through the machine's proxy: the probe and the key proxy tunnel through HTTP(S)_PROXY, NO_PROXY honoured", async () => {
  // The stand-in calls the API once through the key proxy, with the placeholder it was given.
  const { repo } = await behindKeyProxy(
    'curl -sS --fail -o /dev/null -H "x-api-key: $ANTHROPIC_API_KEY" -d "{}" "$ANTHROPIC_BASE_URL/v1/messages" || exit 7\n',
  );
  const keys: string[] = [];
  const api = http.createServer((q, r) => {
    keys.push(String(q.headers['x-api-key']));
    r.end('{}');
  });
  const apiPort = await listen(api);
  // A CONNECT proxy: the only way to the API's name, which no DNS resolves (.invalid).
  const asked: string[] = [];
  const proxy = http.createServer((_q, r) => r.writeHead(405).end());
  proxy.on('connect', (q: http.IncomingMessage, client: net.Socket) => {
    asked.push(String(q.url));
    if (q.url !== 'model-api.invalid:8080') return client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
    const onward = net.connect(apiPort, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      client.pipe(onward).pipe(client);
    });
    onward.on('error', () => client.destroy());
  });
  const proxyUrl = `http://127.0.0.1:${String(await listen(proxy))}`;
  const env = {
    ANTHROPIC_API_KEY: 'sk-ant-api03-through-proxy',
    ANTHROPIC_BASE_URL: 'http://model-api.invalid:8080',
    HTTP_PROXY: proxyUrl,
    HTTPS_PROXY: proxyUrl,
  };
  try {
    const r1 = await cli(repo, ['run'], { ...env, NO_PROXY: 'model-api.invalid' });
    expect(r1.code).toBe(12);
    expect(r1.stderr).toMatch(
      /downstream unavailable \(the model API http:\/\/model-api\.invalid:8080\): it cannot be reached from here \(getaddrinfo \w+ model-api\.invalid\)/,
    );
    expect(asked).toEqual([]);

    const r2 = await cli(repo, ['run'], env);
    expect([r2.code, r2.stdout]).toEqual([0, expect.stringMatching(/halt: EXIT_CONVERGED/)]);
    // The probe's tunnel, then the agent's request's.
    expect(asked.length).toBeGreaterThanOrEqual(2);
    expect(new Set(asked)).toEqual(new Set(['model-api.invalid:8080']));
    expect(keys).toEqual(['sk-ant-api03-through-proxy']);
  } finally {
    proxy.closeAllConnections();
    api.closeAllConnections();
    await Promise.all([new Promise((r) => proxy.close(r)), new Promise((r) => api.close(r))]);
  }
});

test('behind the key proxy, an agent that prints "503 Service Unavailable" while its model API answers the loop\'s re-probe: an agent failure, not a pause', async () => {
  const { repo } = await behindKeyProxy('echo "API Error: 503 Service Unavailable"; echo "API Error: 503 Service Unavailable" >&2; exit 1\n');
  const api = http.createServer((_q, r) => r.end('{}'));
  const url = `http://127.0.0.1:${String(await listen(api))}`;
  try {
    const r = await cli(repo, ['run'], { ANTHROPIC_API_KEY: 'sk-ant-api03-probe', ANTHROPIC_BASE_URL: url });
    expect(r.code).toBe(12);
    expect(await report(repo)).toMatchObject({ stop_reason: 'AGENT_FAILED', detail: expect.stringContaining('503 Service Unavailable') });
    expect(r.stderr).not.toMatch(/downstream unavailable/);
  } finally {
    api.closeAllConnections();
    await new Promise((r) => api.close(r));
  }
});

test("the model API goes down during the agent's step while the CLI prints something else: the loop's re-probe finds it, a pause naming the API; up again, a plain `run` converges", async () => {
  // The stand-in calls the API through the key proxy; a failed call ends it in words that name no outage.
  const { repo } = await behindKeyProxy(
    'curl -sS --fail -o /dev/null -H "x-api-key: $ANTHROPIC_API_KEY" -d "{}" "$ANTHROPIC_BASE_URL/v1/messages" || { echo "the assistant could not finish its turn"; exit 3; }\n',
  );
  // Up for the start-up probe; at the agent's first request it goes down (stops listening, drops the request).
  const api = http.createServer((q) => {
    api.close();
    q.socket.destroy();
  });
  const port = await listen(api);
  const url = `http://127.0.0.1:${String(port)}`;
  const env = { ANTHROPIC_API_KEY: 'sk-ant-api03-outage', ANTHROPIC_BASE_URL: url };
  const r1 = await cli(repo, ['run'], env);
  expect(r1.code).toBe(12);
  const rep = await report(repo);
  expect(rep).toMatchObject({ status: 'EXIT_BLOCKED', stop_reason: 'BACKPRESSURE_SIGNAL', halting_certificate: { type: 'BACKPRESSURE' } });
  expect(rep.detail).toMatch(
    new RegExp(
      `^downstream unavailable \\(the model API ${url.replace(/\./g, '\\.')}\\): it cannot be reached from here \\(connect ECONNREFUSED [^)]*\\); the agent failed: `,
    ),
  );
  expect(rep.run.how_to_go_on).toMatch(new RegExp(`^a pause: wait until the model API ${url.replace(/\./g, '\\.')} answers again`));

  const up = http.createServer((_q, r) => r.end('{}'));
  await new Promise<void>((r) => up.listen(port, '127.0.0.1', r));
  try {
    const r2 = await cli(repo, ['run'], env);
    expect([r2.code, r2.stdout]).toEqual([0, expect.stringMatching(/halt: EXIT_CONVERGED/)]);
  } finally {
    up.closeAllConnections();
    await new Promise((r) => up.close(r));
  }
});

test('git missing is named as such, not "commit first"', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'phuc-nogit-'));
  const r = await cli(dir, ['run'], { PATH: '/nonexistent' });
  expect(r.code).toBe(13);
  expect(r.stderr).toMatch(/git was not found on PATH/);
  expect(r.stderr).not.toMatch(/commit first/);
});
