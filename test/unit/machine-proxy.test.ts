// The machine's proxy (os/machine-proxy.ts): where the loop's environment names one, the loop's own
// connections out (model API probe, key proxy, allow-list proxy) tunnel through it with CONNECT;
// NO_PROXY is honoured; a refusal is told in the proxy's words, without its password.
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { connectOut, machineProxy, proxyLabel } from '../../src/engine/os/machine-proxy.js';

const saved = { ...process.env };
let proxy: http.Server;
let target: net.Server;
let proxyUrl: string;
const asked: { url: string; auth?: string }[] = [];

beforeAll(async () => {
  target = net.createServer((s) => s.end('hello from the target\n'));
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
  const targetPort = (target.address() as AddressInfo).port;
  proxy = http.createServer((_q, r) => r.writeHead(405).end());
  proxy.on('connect', (q: http.IncomingMessage, client: net.Socket) => {
    asked.push({ url: String(q.url), auth: q.headers['proxy-authorization'] });
    if (q.url !== 'only-via-proxy.invalid:443') return client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
    const onward = net.connect(targetPort, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      client.pipe(onward).pipe(client);
    });
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  proxyUrl = `http://user:s3cret@127.0.0.1:${String((proxy.address() as AddressInfo).port)}`;
});

afterEach(() => {
  process.env = { ...saved };
  asked.length = 0;
});

afterAll(async () => {
  proxy.closeAllConnections();
  await Promise.all([new Promise((r) => proxy.close(r)), new Promise((r) => target.close(r))]);
});

const read = (s: net.Socket) => new Promise<string>((resolve) => s.once('data', (d: Buffer) => resolve(d.toString())));

test('with HTTPS_PROXY: CONNECT through the proxy, with its credentials; the host needs no DNS of its own', async () => {
  process.env.HTTPS_PROXY = proxyUrl;
  const s = await connectOut('only-via-proxy.invalid', 443, 'https');
  expect(await read(s)).toBe('hello from the target\n');
  s.destroy();
  expect(asked).toEqual([{ url: 'only-via-proxy.invalid:443', auth: `Basic ${Buffer.from('user:s3cret').toString('base64')}` }]);
});

test("a proxy's refusal is told in its words, naming the proxy without its password", async () => {
  process.env.HTTPS_PROXY = proxyUrl;
  const failed = connectOut('elsewhere.invalid', 443, 'https');
  await expect(failed).rejects.toThrow(/^the proxy answered CONNECT with 403 Forbidden through the proxy http:\/\/127\.0\.0\.1:\d+$/);
  await expect(failed).rejects.not.toThrow(/s3cret/);
});

test('NO_PROXY naming the host, or no proxy at all: a direct connection', async () => {
  process.env.HTTPS_PROXY = proxyUrl;
  process.env.NO_PROXY = '.invalid';
  await expect(connectOut('only-via-proxy.invalid', 443, 'https')).rejects.toThrow(/ENOTFOUND|EAI_AGAIN/);
  expect(asked).toEqual([]);
  delete process.env.HTTPS_PROXY;
  delete process.env.NO_PROXY;
  const s = await connectOut('127.0.0.1', (target.address() as AddressInfo).port, 'https');
  expect(await read(s)).toBe('hello from the target\n');
  s.destroy();
  expect(machineProxy(new URL('https://api.anthropic.com'))).toBeNull();
  expect(proxyLabel(new URL(proxyUrl))).toBe(proxyUrl.replace('user:s3cret@', ''));
});
