import { chmod, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { spawnAgent } from '../../src/engine/agent/agent-step.js';
import type { AgentPreset } from '../../src/engine/agent/agents.js';
import { keyProxyTarget, startKeyProxy, upstreamUrl, type KeyProxy } from '../../src/engine/agent/key-proxy.js';
import { NodeProcessRunner } from '../../src/engine/os/process.js';
import { ISOLATION_LEVELS, resolveIsolation, Sandbox, type IsolationLevel } from '../../src/engine/os/sandbox.js';
import { makeRepo } from '../helpers/repo.js';
import { isolationFacts } from '../helpers/isolation.js';

const REAL = 'sk-real-key-0123456789abcdef';

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A stand-in of a model API: records what it receives; routes decide the answer. */
async function standIn(routes: Partial<Record<string, (req: http.IncomingMessage, res: http.ServerResponse) => void>>) {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      const route = routes[new URL(req.url!, 'http://x').pathname];
      if (route) route(req, res);
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    seen,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function request(
  baseUrl: string,
  path: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string; onChunk?: (c: string) => void } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    // A connection of its own each (no pooled socket a closed step has cut).
    const req = http.request(`${baseUrl}${path}`, { method: opts.method ?? 'POST', headers: opts.headers, agent: false }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => {
        body += c.toString();
        opts.onChunk?.(c.toString());
      });
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** Sends `head` as the raw request head (no client-side checks of the target) and resolves with the status code, 0 when the proxy closed the connection without answering. */
function raw(baseUrl: string, head: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const sock = net.connect(Number(new URL(baseUrl).port), '127.0.0.1');
    let got = '';
    sock.on('data', (c: Buffer) => (got += c.toString()));
    sock.on('error', reject);
    sock.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(got)?.[1] ?? 0)));
    sock.end(`${head}Connection: close\r\n\r\n`);
  });
}

/** A proxy with a step open, as while an agent runs: its placeholder and environment are the step's. */
async function startOpen(o: Parameters<typeof startKeyProxy>[0]) {
  const proxy = await startKeyProxy(o);
  const step = proxy.openStep();
  return Object.assign(proxy, { placeholderKey: step.placeholderKey, env: (preset: AgentPreset) => step.env(preset), step });
}
type OpenProxy = Awaited<ReturnType<typeof startOpen>>;

/** Nothing the client received holds the real key, plain or base64. */
function expectNoKey(r: Reply) {
  const all = JSON.stringify(r.headers) + r.body;
  expect(all).not.toContain(REAL);
  expect(all).not.toContain(Buffer.from(REAL).toString('base64').slice(0, 24));
}

describe('key proxy', () => {
  let up: Awaited<ReturnType<typeof standIn>>;
  let proxy: OpenProxy;
  /** The stand-in's SSE route waits for this before its last event. */
  let releaseLast: () => void;

  beforeEach(async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    releaseLast = () => release();
    up = await standIn({
      '/v1/messages': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('event: message_start\ndata: {"type":"message_start"}\n\n');
        void gate.then(() => res.end('event: message_stop\ndata: {"type":"message_stop"}\n\n'));
      },
      '/v1/bad-key': (req, res) => {
        const body = JSON.stringify({
          type: 'error',
          error: { type: 'authentication_error', message: `invalid x-api-key: ${String(req.headers['x-api-key'])}` },
        });
        res.writeHead(401, { 'content-type': 'application/json', 'x-echo': String(req.headers['x-api-key']) }).end(body);
      },
      '/v1/compressed': (req, res) => {
        // Compressed although the proxy asked for identity: the key inside must still be masked.
        const body = Buffer.from(`{"echo":"${String(req.headers['x-api-key'])}"}`);
        const how = String(req.headers['x-how']);
        const packed = how === 'gzip' ? gzipSync(body) : how === 'deflate' ? deflateSync(body) : how === 'br' ? brotliCompressSync(body) : body;
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': how, 'content-length': packed.length }).end(packed);
      },
      '/v1/split': (req, res) => {
        // The key echoed across two writes: it must be masked even split.
        const key = String(req.headers['x-api-key']);
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.write(`first half ${key.slice(0, 10)}`);
        setImmediate(() => res.end(`${key.slice(10)} second half`));
      },
    });
    proxy = await startOpen({ provider: 'anthropic', upstream: new URL(up.url), realKey: REAL });
  });
  afterEach(async () => {
    releaseLast();
    await proxy.close();
    await up.close();
  });

  test('the upstream gets the real key in x-api-key, the body streams through, the client never sees the key', async () => {
    const r = await request(proxy.baseUrl, '/v1/ok', {
      headers: { 'x-api-key': proxy.placeholderKey, 'content-type': 'application/json' },
      body: '{"model":"m","messages":[]}',
    });
    expect(r.status).toBe(200);
    expect(r.body).toBe('{"ok":true}');
    expect(up.seen).toHaveLength(1);
    expect(up.seen[0].headers['x-api-key']).toBe(REAL);
    expect(up.seen[0].body).toBe('{"model":"m","messages":[]}');
    expect(up.seen[0].headers.host).toBe(new URL(up.url).host);
    expect(JSON.stringify(up.seen[0].headers)).not.toContain(proxy.placeholderKey);
    expectNoKey(r);
  });

  test('SSE arrives event by event: the first event reaches the client before the upstream sends the last', async () => {
    const chunks: string[] = [];
    let firstArrived!: () => void;
    const first = new Promise<void>((r) => (firstArrived = r));
    const reply = request(proxy.baseUrl, '/v1/messages', {
      headers: { 'x-api-key': proxy.placeholderKey },
      body: '{"stream":true}',
      onChunk: (c) => {
        chunks.push(c);
        firstArrived();
      },
    });
    await first;
    // The upstream is still holding its last event back: what arrived is only the first one.
    expect(chunks.join('')).toBe('event: message_start\ndata: {"type":"message_start"}\n\n');
    releaseLast();
    const r = await reply;
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('text/event-stream');
    expect(r.body).toContain('message_stop');
  }, 15_000);

  test('a request without the placeholder (or with another key) is refused with 401 and never forwarded', async () => {
    const attempts: Record<string, string>[] = [
      {},
      { 'x-api-key': 'sk-guess' },
      { authorization: 'Bearer nope' },
      { 'x-api-key': proxy.placeholderKey.slice(0, -1) + 'x' },
    ];
    for (const headers of attempts) {
      const r = await request(proxy.baseUrl, '/v1/ok', { headers });
      expect(r.status).toBe(401);
      expect(r.body).toContain('placeholder');
    }
    expect(up.seen).toHaveLength(0);
  });

  test('an absolute-form target is refused: the key never goes to another host', async () => {
    const r = await new Promise<number>((resolve, reject) => {
      const port = new URL(proxy.baseUrl).port;
      const req = http.request(
        { host: '127.0.0.1', port, method: 'GET', path: 'http://example.invalid/v1/ok', headers: { 'x-api-key': proxy.placeholderKey } },
        (res) => {
          res.resume();
          resolve(res.statusCode!);
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(r).toBe(400);
    expect(up.seen).toHaveLength(0);
  });

  test('upstream errors pass through with their status, the echoed key masked (body and headers, also split across writes)', async () => {
    const r = await request(proxy.baseUrl, '/v1/bad-key', { headers: { 'x-api-key': proxy.placeholderKey } });
    expect(r.status).toBe(401);
    expect(JSON.parse(r.body)).toEqual({ type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key: ***' } });
    expect(r.headers['x-echo']).toBe('***');
    expectNoKey(r);
    const split = await request(proxy.baseUrl, '/v1/split', { headers: { 'x-api-key': proxy.placeholderKey } });
    expect(split.status).toBe(500);
    expect(split.body).toBe('first half *** second half');
  });

  test('a compressed answer (gzip, deflate, br) reaches the agent decoded and masked; an encoding the proxy cannot read is refused', async () => {
    for (const how of ['gzip', 'deflate', 'br']) {
      const r = await request(proxy.baseUrl, '/v1/compressed', { headers: { 'x-api-key': proxy.placeholderKey, 'x-how': how } });
      expect(r.status).toBe(200);
      expect(r.headers['content-encoding']).toBeUndefined();
      expect(JSON.parse(r.body)).toEqual({ echo: '***' });
      expectNoKey(r);
    }
    const odd = await request(proxy.baseUrl, '/v1/compressed', { headers: { 'x-api-key': proxy.placeholderKey, 'x-how': 'compress' } });
    expect(odd.status).toBe(502);
    expect(odd.body).toContain('content-encoding');
    expectNoKey(odd);
  });

  test("a path outside the upstream's is a 404; an unreachable upstream is a 502 from the proxy", async () => {
    const closed = await standIn({});
    await closed.close();
    const p = await startOpen({ provider: 'openai', upstream: new URL(`${closed.url}/v1`), realKey: REAL });
    try {
      // Only paths under the upstream's own path are forwarded.
      const r = await request(new URL(p.baseUrl).origin, '/admin', { headers: { authorization: `Bearer ${p.placeholderKey}` } });
      expect(r.status).toBe(404);
      const r2 = await request(p.baseUrl, '/responses', { headers: { authorization: `Bearer ${p.placeholderKey}` } });
      expect(r2.status).toBe(502);
      expect(r2.body).toContain('upstream request failed');
      expectNoKey(r2);
    } finally {
      await p.close();
    }
  });
});

describe('key proxy: the key goes to the upstream and nowhere else', () => {
  let up: Awaited<ReturnType<typeof standIn>>;
  /** Another host on this machine: it must receive nothing, whatever the agent sends. */
  let attacker: Awaited<ReturnType<typeof standIn>>;
  let proxy: OpenProxy;
  let evil: string;

  beforeEach(async () => {
    attacker = await standIn({});
    evil = new URL(attacker.url).host;
    up = await standIn({
      '/v1/redirect': (_req, res) => res.writeHead(307, { location: `http://${evil}/steal` }).end(),
    });
    proxy = await startOpen({ provider: 'anthropic', upstream: new URL(`${up.url}/v1`), realKey: REAL });
  });
  afterEach(async () => {
    await proxy.close();
    await up.close();
    await attacker.close();
  });

  test('targets naming another host, or leaving the upstream path, are refused before any request goes out', async () => {
    const targets = [
      `//${evil}/exfil`,
      `///${evil}/exfil`,
      `/\\${evil}/exfil`,
      `/v1/\\..\\..\\x`,
      `http://${evil}/v1/ok`,
      `${evil}/v1/ok`,
      `@${evil}/v1/ok`,
      '*',
      `/v1//${evil}/x`,
      `/v1/../..//${evil}/x`,
      '/v1/../admin',
      '/v1/%2e%2e/admin',
      '/v1/.%2E/admin',
      '/v1/..%2f..%2fadmin',
      `/%2f%2f${evil}/x`,
      `/%5c%5c${evil}/x`,
      '/v1/%zz',
      '/v1/ok#frag',
      '/admin',
    ];
    const statuses: Record<string, number> = {};
    for (const t of targets) statuses[t] = await raw(proxy.baseUrl, `GET ${t} HTTP/1.1\r\nHost: 127.0.0.1\r\nx-api-key: ${proxy.placeholderKey}\r\n`);
    // Refused by the proxy (400, 404 for a path outside /v1) or by the HTTP parser itself (the connection closed, 0).
    expect(Object.entries(statuses).filter(([, s]) => ![0, 400, 404].includes(s))).toEqual([]);
    // CONNECT is a tunnel to anywhere, TRACE echoes the request: neither is carried.
    expect(await raw(proxy.baseUrl, `CONNECT ${evil} HTTP/1.1\r\nHost: ${evil}\r\nx-api-key: ${proxy.placeholderKey}\r\n`)).not.toBe(200);
    expect(await raw(proxy.baseUrl, `TRACE /v1/ok HTTP/1.1\r\nHost: 127.0.0.1\r\nx-api-key: ${proxy.placeholderKey}\r\n`)).toBe(405);
    expect(attacker.seen).toEqual([]);
    expect(up.seen).toEqual([]);
  });

  test('Host and forwarding headers cannot steer the request: the upstream gets its own host, the gateway headers are dropped', async () => {
    const r = await request(proxy.baseUrl, '/ok', {
      headers: {
        'x-api-key': proxy.placeholderKey,
        host: evil,
        'x-forwarded-host': evil,
        forwarded: `host=${evil}`,
        'x-original-url': `http://${evil}/x`,
        'x-http-method-override': 'TRACE',
      },
    });
    expect(r.status).toBe(200);
    expect(up.seen).toHaveLength(1);
    expect(up.seen[0].headers.host).toBe(new URL(up.url).host);
    expect(Object.keys(up.seen[0].headers).filter((h) => /forward|original|override/.test(h))).toEqual([]);
    expect(attacker.seen).toEqual([]);
  });

  test('an upstream redirect to another host is handed back to the agent, not followed with the key', async () => {
    const r = await request(proxy.baseUrl, '/redirect', { headers: { 'x-api-key': proxy.placeholderKey } });
    expect(r.status).toBe(307);
    expect(r.headers.location).toBe(`http://${evil}/steal`);
    expect(up.seen).toHaveLength(1);
    expect(attacker.seen).toEqual([]);
  });

  test('the placeholder is replaced only where the provider reads its key; elsewhere it goes on as the placeholder', async () => {
    // x-goog-api-key and ?key= are Gemini's: for Anthropic they carry nothing.
    const refused = await request(proxy.baseUrl, `/ok?key=${proxy.placeholderKey}`, { headers: { 'x-goog-api-key': proxy.placeholderKey } });
    expect(refused.status).toBe(401);
    expect(up.seen).toEqual([]);
    const r = await request(proxy.baseUrl, `/ok?key=${proxy.placeholderKey}`, {
      headers: { 'x-api-key': proxy.placeholderKey, cookie: `k=${proxy.placeholderKey}`, 'x-goog-api-key': proxy.placeholderKey },
      body: proxy.placeholderKey,
    });
    expect(r.status).toBe(200);
    const seen = up.seen[0];
    expect(seen.headers['x-api-key']).toBe(REAL);
    expect(JSON.stringify({ ...seen, headers: { ...seen.headers, 'x-api-key': '' } })).not.toContain(REAL);
    expect(seen.url).toBe(`/v1/ok?key=${proxy.placeholderKey}`);
    expect(seen.headers.cookie).toBe(`k=${proxy.placeholderKey}`);
  });

  test('a key a header cannot carry is refused at start', async () => {
    await expect(startKeyProxy({ provider: 'anthropic', upstream: new URL(up.url), realKey: `${REAL}\r\nx-evil: 1` })).rejects.toThrow(/cannot carry/);
  });

  test('upstreamUrl: string-joined to the upstream origin, under its path, never resolved elsewhere', () => {
    const href = (upstream: string, t: string) => {
      const r = upstreamUrl(new URL(upstream), t);
      return r instanceof URL ? r.href : r;
    };
    expect(href('https://api.example/v1/', '/v1/messages?beta=true')).toBe('https://api.example/v1/messages?beta=true');
    expect(href('https://api.example/v1/', '/v1')).toBe('https://api.example/v1');
    expect(href('https://api.example', '/v1beta/models/m:streamGenerateContent?alt=sse')).toBe(
      'https://api.example/v1beta/models/m:streamGenerateContent?alt=sse',
    );
    for (const t of ['//evil.example/v1/x', '/v1//evil', '/v1/../x', '/v1/%2E%2e/x', '/v1/a%2fb', '/v1\\x', 'https://evil.example/v1', '/v1/x?#a'])
      expect([t, href('https://api.example/v1', t)]).toEqual([t, { status: 400, why: expect.any(String) }]);
    expect(href('https://api.example/v1', '/v2/x')).toEqual({ status: 404, why: 'only paths under /v1/ are forwarded' });
  });
});

describe('key proxy per provider', () => {
  test('OpenAI: Bearer placeholder → Bearer real key, under the upstream path; Codex gets a model provider of its own', async () => {
    const up = await standIn({});
    const p = await startOpen({ provider: 'openai', upstream: new URL(`${up.url}/v1`), realKey: REAL });
    try {
      expect(p.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      const r = await request(p.baseUrl, '/responses', { headers: { authorization: `Bearer ${p.placeholderKey}` }, body: '{}' });
      expect(r.status).toBe(200);
      expect(up.seen[0].url).toBe('/v1/responses');
      expect(up.seen[0].headers.authorization).toBe(`Bearer ${REAL}`);
      expect(p.env('codex')).toEqual({ CODEX_API_KEY: p.placeholderKey });
      expect(p.args('codex')).toEqual([
        '-c',
        `model_providers.phuc_key_proxy={ name = "phuc-loop key proxy", base_url = "${p.baseUrl}", env_key = "CODEX_API_KEY", wire_api = "responses" }`,
        '-c',
        'model_provider=phuc_key_proxy',
      ]);
      expect(p.env('command')).toEqual({ OPENAI_BASE_URL: p.baseUrl, OPENAI_API_KEY: p.placeholderKey });
      expect(() => p.env('claude')).toThrow(/does not talk to the openai API/);
    } finally {
      await p.close();
      await up.close();
    }
  });

  test('Gemini: x-goog-api-key and ?key= are both replaced; the agent HOME gets the auth-type setting', async () => {
    const up = await standIn({});
    const p = await startOpen({ provider: 'gemini', upstream: new URL(up.url), realKey: REAL });
    try {
      await request(p.baseUrl, '/v1beta/models/m:streamGenerateContent?alt=sse', { headers: { 'x-goog-api-key': p.placeholderKey } });
      await request(p.baseUrl, `/v1beta/models/m:generateContent?key=${p.placeholderKey}&alt=sse`);
      expect(up.seen[0].headers['x-goog-api-key']).toBe(REAL);
      expect(up.seen[1].url).toBe(`/v1beta/models/m:generateContent?key=${REAL}&alt=sse`);
      expect(p.env('gemini')).toEqual({ GOOGLE_GEMINI_BASE_URL: p.baseUrl, GEMINI_API_KEY: p.placeholderKey });
      expect(JSON.parse(p.homeFiles('gemini')['.gemini/settings.json'])).toEqual({ security: { auth: { selectedType: 'gemini-api-key' } } });
      expect(p.args('gemini')).toEqual([]);
    } finally {
      await p.close();
      await up.close();
    }
  });

  test('Anthropic tokens: the placeholder goes in the variable the token came from and is replaced in the Bearer header', async () => {
    const up = await standIn({});
    const p = await startOpen({ provider: 'anthropic', upstream: new URL(up.url), realKey: REAL, keyName: 'CLAUDE_CODE_OAUTH_TOKEN' });
    try {
      expect(p.env('claude')).toEqual({ ANTHROPIC_BASE_URL: p.baseUrl, CLAUDE_CODE_OAUTH_TOKEN: p.placeholderKey });
      await request(p.baseUrl, '/v1/messages?beta=true', { headers: { authorization: `Bearer ${p.placeholderKey}`, 'anthropic-beta': 'oauth-2025-04-20' } });
      expect(up.seen[0].headers.authorization).toBe(`Bearer ${REAL}`);
      expect(up.seen[0].headers['anthropic-beta']).toBe('oauth-2025-04-20');
      const another = await startOpen({ provider: 'anthropic', upstream: new URL(up.url), realKey: REAL });
      await another.close();
      expect(another.placeholderKey).not.toBe(p.placeholderKey);
    } finally {
      await p.close();
      await up.close();
    }
  });

  test('keyProxyTarget: the key, its variable and the upstream for each preset that takes a base URL', () => {
    expect(keyProxyTarget('claude', { ANTHROPIC_API_KEY: 'a', CLAUDE_CODE_OAUTH_TOKEN: 'b' })).toEqual({
      provider: 'anthropic',
      upstream: new URL('https://api.anthropic.com'),
      realKey: 'a',
      keyName: 'ANTHROPIC_API_KEY',
    });
    expect(keyProxyTarget('claude', { CLAUDE_CODE_OAUTH_TOKEN: 'b', ANTHROPIC_BASE_URL: 'https://gw.example/anthropic' })).toEqual({
      provider: 'anthropic',
      upstream: new URL('https://gw.example/anthropic'),
      realKey: 'b',
      keyName: 'CLAUDE_CODE_OAUTH_TOKEN',
    });
    expect(keyProxyTarget('codex', { OPENAI_API_KEY: 'o' })).toEqual({
      provider: 'openai',
      upstream: new URL('https://api.openai.com/v1'),
      realKey: 'o',
      keyName: 'OPENAI_API_KEY',
    });
    expect(keyProxyTarget('gemini', { GOOGLE_API_KEY: 'g' })?.keyName).toBe('GOOGLE_API_KEY');
    expect(keyProxyTarget('claude', { OPENAI_API_KEY: 'o' })).toBeNull();
    expect(keyProxyTarget('aider', { OPENAI_API_KEY: 'o' })).toBeNull();
    expect(keyProxyTarget('command', { ANTHROPIC_API_KEY: 'a' })).toBeNull();
  });
});

describe('key proxy: it serves an open agent step and nothing else', () => {
  test("no step open: refused with 503 before anything is sent upstream; a closed step's placeholder is worthless; each step has its own", async () => {
    const up = await standIn({});
    const p = await startKeyProxy({ provider: 'anthropic', upstream: new URL(up.url), realKey: REAL });
    try {
      const ask = (key: string) => request(p.baseUrl, '/v1/messages', { headers: { 'x-api-key': key }, body: '{}' });
      // Before any step (the baseline's checks run then), whatever key is sent.
      const before = await ask(`phuc-proxy-${'0'.repeat(48)}`);
      expect(before.status).toBe(503);
      expect(before.body).toContain('no agent step is running');
      const first = p.openStep();
      expect(() => p.openStep()).toThrow(/already open/);
      expect((await ask(first.placeholderKey)).status).toBe(200);
      expect(up.seen.map((s) => s.headers['x-api-key'])).toEqual([REAL]);
      first.close();
      first.close(); // idempotent
      const afterFirst = await ask(first.placeholderKey);
      expect(afterFirst.status).toBe(503);
      expectNoKey(afterFirst);
      const second = p.openStep();
      expect(second.placeholderKey).not.toBe(first.placeholderKey);
      expect(second.env('claude')).toEqual({ ANTHROPIC_BASE_URL: p.baseUrl, ANTHROPIC_API_KEY: second.placeholderKey });
      // An earlier step's placeholder while another step is open: refused, not forwarded.
      expect((await ask(first.placeholderKey)).status).toBe(401);
      expect((await ask(second.placeholderKey)).status).toBe(200);
      // Closing the first step's handle again does not close the second.
      first.close();
      expect((await ask(second.placeholderKey)).status).toBe(200);
      second.close();
      expect((await ask(second.placeholderKey)).status).toBe(503);
      expect(up.seen).toHaveLength(3);
    } finally {
      await p.close();
      await up.close();
    }
  });

  test('closing the step cuts a request still streaming: the rest of the answer never reaches the client', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let started!: () => void;
    const streaming = new Promise<void>((r) => (started = r));
    const up = await standIn({
      '/v1/messages': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('event: first\n\n');
        started();
        void gate.then(() => res.end('event: last\n\n'));
      },
    });
    const p = await startKeyProxy({ provider: 'anthropic', upstream: new URL(up.url), realKey: REAL });
    try {
      const step = p.openStep();
      let got = '';
      const reply = request(p.baseUrl, '/v1/messages', { headers: { 'x-api-key': step.placeholderKey }, body: '{}', onChunk: (c) => (got += c) }).then(
        () => 'ended',
        () => 'cut',
      );
      await streaming;
      step.close();
      release();
      expect(await reply).toBe('cut');
      expect(got).not.toContain('event: last');
    } finally {
      release();
      await p.close();
      await up.close();
    }
  });
});

const facts = await isolationFacts();
const LEVELS = ISOLATION_LEVELS.filter((l) => l === 'none' || (l === 'user+pidns' ? facts.userPidns : facts.pidns) === null);

/**
 * What an agent started by spawnAgent finds: who it is, its HOME, every file there (with owner and
 * mode), its environment, and the answer of a call to the model API with the key it was given.
 */
const PROBE = `set -e
echo "uid=$(id -u)"
echo "home=$HOME"
cd "$HOME"
find . -mindepth 1 -printf 'entry=%P %U %m\\n' | sort
for f in $(find . -type f | sort); do echo "file=$f"; cat "$f"; echo; done
touch .gemini/written-by-the-agent && echo "home-writable=yes"
echo "--- env"
env
echo "--- api"
node -e 'fetch(process.env.GOOGLE_GEMINI_BASE_URL + "/v1beta/models/m:generateContent", { method: "POST", headers: { "x-goog-api-key": process.env.GEMINI_API_KEY }, body: "{}" }).then((r) => console.log("status=" + r.status))'
`;

describe.each(LEVELS)('key proxy wiring into the agent at isolation %s', (level: IsolationLevel) => {
  let root: string;
  let loopHome: string;
  let repo: string;
  let sb: Sandbox;
  let exchangeDir: string;

  beforeAll(async () => {
    // The probe and the loop's HOME under a 0755 folder (the agent user must reach the probe).
    root = await mkdtemp(join(tmpdir(), 'phuc-keyproxy-'));
    await chmod(root, 0o755);
    await writeFile(join(root, 'probe.sh'), PROBE, { mode: 0o755 });
    await writeFile(join(root, 'argv.sh'), `for a in "$@"; do printf '%s\\n' "$a"; done\n`, { mode: 0o755 });
    loopHome = join(root, 'loop-home');
    await mkdir(loopHome, { mode: 0o700 });
    repo = await makeRepo({ 'README.md': 'hello\n' });
    sb = await Sandbox.create(await resolveIsolation(level, facts), { env: { ...process.env, HOME: loopHome } });
    exchangeDir = await sb.exchangeDir('agent');
  });

  afterAll(async () => {
    await sb.dispose();
    await rm(root, { recursive: true, force: true });
    await rm(join(repo, '..'), { recursive: true, force: true });
  });

  const spawn = (keyProxy: KeyProxy | null, baseEnv: Record<string, string>, spec?: Parameters<typeof spawnAgent>[0]['spec']) =>
    spawnAgent({
      runner: new NodeProcessRunner(),
      cwd: repo,
      spec: spec ?? { preset: 'gemini', run: `/bin/sh ${join(root, 'probe.sh')}`, args: [], maxTurns: 5 },
      prompt: 'probe',
      capsule: '{}',
      iteration: 0,
      baseEnv: { PATH: process.env.PATH, HOME: loopHome, ...baseEnv },
      timeoutMs: 60_000,
      stopSources: [],
      pollMs: 60_000,
      sandbox: sb,
      exchangeDir,
      keyProxy,
      mask: (t) => t,
      cliVersion: null,
    });

  test("the agent's own HOME holds the auth-type setting before it starts; the key stays with the proxy", async () => {
    const up = await standIn({});
    const p = await startKeyProxy({ provider: 'gemini', upstream: new URL(up.url), realKey: REAL, keyName: 'GEMINI_API_KEY' });
    try {
      const run = await spawn(p, { GEMINI_API_KEY: REAL, GOOGLE_GEMINI_BASE_URL: up.url });
      const out = run.result.stdout;
      expect(run.result).toMatchObject({ exitCode: 0, stderr: '' });
      const [files, rest] = out.split('--- env\n');
      const [env, api] = rest.split('--- api\n');
      const agentUid = sb.user('agent')?.uid ?? process.getuid!();
      expect(files).toContain(`uid=${agentUid}\n`);
      // A HOME of the run's own under the sandbox's folder, at every level: never the loop's HOME.
      const home = /^home=(.*)$/m.exec(files)![1];
      expect(home.startsWith(`${sb.base}/`)).toBe(true);
      expect(await readdir(loopHome)).toEqual([]);
      // Owned by the agent user, readable by it alone, and its own to write.
      expect(files).toContain(`entry=.gemini ${agentUid} 700\nentry=.gemini/settings.json ${agentUid} 600\n`);
      expect(files).toContain(`file=./.gemini/settings.json\n${p.homeFiles('gemini')['.gemini/settings.json']}`);
      expect(files).toContain('home-writable=yes');
      // The agent holds the step's placeholder and the proxy's URL; the upstream got the real key.
      const placeholder = /^GEMINI_API_KEY=(phuc-proxy-[0-9a-f]{48})$/m.exec(env)?.[1];
      expect(placeholder).toBeDefined();
      expect(env).toContain(`GOOGLE_GEMINI_BASE_URL=${p.baseUrl}\n`);
      expect(out).not.toContain(REAL);
      expect(api).toBe('status=200\n');
      expect(up.seen.map((s) => s.headers['x-goog-api-key'])).toEqual([REAL]);
      // The step is over: its placeholder (which code the agent wrote may hold, run by the checks) gets
      // a 503 from the proxy, and nothing reaches the model API.
      const after = await request(p.baseUrl, '/v1beta/models/m:generateContent', { headers: { 'x-goog-api-key': placeholder! }, body: '{}' });
      expect(after.status).toBe(503);
      expect(after.body).toContain('no agent step is running');
      expect(up.seen).toHaveLength(1);
      // The next step has a placeholder of its own.
      const again = await spawn(p, { GEMINI_API_KEY: REAL, GOOGLE_GEMINI_BASE_URL: up.url });
      const next = /^GEMINI_API_KEY=(phuc-proxy-[0-9a-f]{48})$/m.exec(again.result.stdout)?.[1];
      expect(next).toBeDefined();
      expect(next).not.toBe(placeholder);
      expect(up.seen).toHaveLength(2);
    } finally {
      await p.close();
      await up.close();
    }
  });

  test('without the key proxy nothing is written into any HOME', async () => {
    const run = await spawn(null, { GEMINI_API_KEY: 'not-a-real-key-1234567890', GOOGLE_GEMINI_BASE_URL: 'http://127.0.0.1:9' });
    const home = /^home=(.*)$/m.exec(run.result.stdout)![1];
    // At `none` the agent shares the loop's HOME, written by nobody; above it gets an empty one.
    if (level === 'none') expect(home).toBe(loopHome);
    else expect(home.startsWith(`${sb.base}/`)).toBe(true);
    expect(run.result.stdout).not.toContain('entry=');
    expect(await readdir(loopHome)).toEqual([]);
  });

  test("Codex: the proxy's provider comes before the stdin marker `-- -`, after the user's arguments, also with agent.run", async () => {
    const p = await startKeyProxy({ provider: 'openai', upstream: new URL('http://127.0.0.1:9/v1'), realKey: REAL });
    try {
      const user = ['-c', 'model_provider=mine'];
      const run = await spawn(p, { OPENAI_API_KEY: REAL }, { preset: 'codex', run: `/bin/sh ${join(root, 'argv.sh')}`, args: user, maxTurns: 5 });
      const argv = run.result.stdout.split('\n').slice(0, -1);
      expect(argv.slice(-2)).toEqual(['--', '-']);
      expect(argv.slice(-2 - user.length - p.args('codex').length, -2)).toEqual([...user, ...p.args('codex')]);
      expect(run.invocation.argv).toBeNull(); // through the shell: agent.run
    } finally {
      await p.close();
    }
  });
});
