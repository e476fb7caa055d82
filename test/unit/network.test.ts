// The pieces of the network policy that need no namespace: the forwarder (arguments, relay, status), the allow-list
// match, and the policy a config gives (the namespaces themselves: test/hostile/network.test.ts).
import { execFile } from 'node:child_process';
import { mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { allowed, hostSockets, networkPolicy, networkRecord } from '../../src/engine/os/network.js';
import { programFile } from '../../src/engine/os/programs.js';
import { systemTool } from '../../src/engine/os/spawner.js';

const exec = promisify(execFile);
const perl = systemTool('perl');
const forwarder = (...args: string[]): Promise<{ code?: number; stdout: string; stderr: string }> =>
  exec(perl!, [programFile('net-forwarder.pl'), ...args]).catch((e: unknown) => e as { code: number; stdout: string; stderr: string });

test('the forwarder takes PORT=/SOCKET maps (one at least), then the command after --; anything else is refused with a message', async () => {
  if (!perl) return;
  for (const [args, message] of [
    [['70000=/s', '--', 'true'], /not PORT=\/SOCKET: 70000=\/s/],
    [['80=rel.sock', '--', 'true'], /not PORT=\/SOCKET/],
    [['/usr/sbin/ip', '--', 'true'], /not PORT=\/SOCKET/],
    [['80=/s', '--'], /usage/],
    [['--', 'true'], /usage/],
  ] as const)
    expect(await forwarder(...args)).toMatchObject({ code: 2, stderr: expect.stringMatching(message) as string });
});

test('the forwarder relays 127.0.0.1:port to the unix socket both ways (a half-close passed on after the data), runs the command, and exits with its status', async () => {
  if (!perl) return;
  const dir = await mkdtemp(join(tmpdir(), 'phuc-fwd-'));
  const sock = join(dir, 'up.sock');
  // The loop's side: answers what it got, upper-cased, once the client's input ends.
  const server = net.createServer({ allowHalfOpen: true }, (c) => {
    let got = '';
    c.on('data', (d: Buffer) => (got += d.toString()));
    c.on('end', () => c.end(got.toUpperCase()));
  });
  try {
    await new Promise<void>((r) => server.listen(sock, r));
    const free = net.createServer();
    const port = await new Promise<number>((r) => free.listen(0, '127.0.0.1', () => r((free.address() as net.AddressInfo).port)));
    await new Promise((r) => free.close(r));
    // 200 kB each way: more than a socket buffer holds, so the relay must wait for the reader.
    const client = `const c=require('net').connect(${String(port)},'127.0.0.1');let n='';c.on('data',d=>n+=d);c.on('end',()=>{process.stdout.write(String(n.length)+' '+n.slice(0,5));process.exit(7)});c.end('ab'.repeat(100000))`;
    const r = await forwarder(`${String(port)}=${sock}`, '--', process.execPath, '-e', client);
    expect(r).toMatchObject({ code: 7, stdout: '200000 ABABA' });
    expect(await forwarder(`${String(port)}=${sock}`, '--', join(dir, 'missing'))).toMatchObject({
      code: 127,
      stderr: expect.stringContaining('missing') as string,
    });
  } finally {
    server.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test('a host matches an allow-list entry by name (any port) or by name and port, case-insensitively', () => {
  expect(allowed(['API.example.com'], 'api.example.com', 443)).toBe(true);
  expect(allowed(['api.example.com:443'], 'api.example.com', 80)).toBe(false);
  expect(allowed(['api.example.com'], 'evil.api.example.com', 443)).toBe(false);
  expect(allowed([], 'api.example.com', 443)).toBe(false);
});

test("the agent's allow-list gets its model API unless the key proxy holds its key; the record sorts it", () => {
  const c = (network: 'open' | string[]) => ({ agent: { use: 'claude', network }, checks: { network: 'loopback' as const } });
  expect(networkPolicy(c(['pypi.org']), false)).toEqual({ agent: ['pypi.org', 'api.anthropic.com:443'], checks: 'loopback' });
  expect(networkPolicy(c([]), true)).toEqual({ agent: [], checks: 'loopback' });
  expect(networkPolicy(c('open'), false).agent).toBe('open');
  expect(networkRecord({ agent: ['b', 'a'], checks: 'open' }, true)).toEqual({ agent: ['a', 'b'], checks: 'open', setup: 'open', enforced: true });
  expect(networkRecord({ agent: [], checks: 'loopback' }, false).agent).toBe('model-api-only');
});

test("the machine's sockets at a path: real paths, each once; abstract ones, relative ones, gone ones and non-sockets left out", async () => {
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'phuc-socks-')));
  const sock = join(dir, 'a b.sock');
  const server = net.createServer().listen(sock);
  try {
    await new Promise((r) => server.once('listening', r));
    await symlink(dir, join(dir, 'link'));
    await writeFile(join(dir, 'file'), '');
    const row = (path: string) => `0000000000000000: 00000002 00000000 00010000 0001 01 12345 ${path}`;
    const table = join(dir, 'unix');
    const rows = [sock, join(dir, 'link', 'a b.sock'), '@abstract', 'relative.sock', join(dir, 'gone.sock'), join(dir, 'file')].map(row);
    await writeFile(
      table,
      ['Num       RefCount Protocol Flags    Type St Inode Path', ...rows, '0000000000000000: 00000003 00000000 00000000 0001 03 999', ''].join('\n'),
    );
    expect(await hostSockets(table)).toEqual([sock]);
    // The machine's own table lists this process's socket too.
    expect(await hostSockets()).toContain(sock);
  } finally {
    server.close();
    await rm(dir, { recursive: true, force: true });
  }
});
