// The pieces of the network policy that need no namespace: the forwarder's arguments, the allow-list
// match, and the policy a config gives (the namespaces themselves: test/hostile/network.test.ts).
import { mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { allowed, hostSockets, networkPolicy, networkRecord } from '../../src/engine/os/network.js';
// @ts-expect-error: a plain ES module without types (run as a program inside the namespace)
import { parseArgs } from '../../src/engine/os/net-forwarder.mjs';

const parse = parseArgs as (argv: string[]) => { error?: string; maps?: { port: number; socket: string }[]; command?: string[] };

test('the forwarder takes PORT=/SOCKET maps (one at least), then the command after --; anything else is refused with a message', () => {
  expect(parse(['8080=/run/k.sock', '3128=/run/p.sock', '--', 'setpriv', 'x'])).toEqual({
    maps: [
      { port: 8080, socket: '/run/k.sock' },
      { port: 3128, socket: '/run/p.sock' },
    ],
    command: ['setpriv', 'x'],
  });
  expect(parse(['70000=/s', '--', 'true']).error).toMatch(/not PORT=\/SOCKET: 70000=\/s/);
  expect(parse(['80=rel.sock', '--', 'true']).error).toMatch(/not PORT=\/SOCKET/);
  expect(parse(['/usr/sbin/ip', '--', 'true']).error).toMatch(/not PORT=\/SOCKET/);
  expect(parse(['80=/s', '--']).error).toMatch(/usage/);
  expect(parse(['--', 'true']).error).toMatch(/usage/);
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
