// The pieces of the network policy that need no namespace: the forwarder's arguments, the allow-list
// match, and the policy a config gives (the namespaces themselves: test/hostile/network.test.ts).
import { allowed, networkPolicy, networkRecord } from '../../src/engine/os/network.js';
// @ts-expect-error: a plain ES module without types (run as a program inside the namespace)
import { parseArgs } from '../../src/engine/os/net-forwarder.mjs';

const parse = parseArgs as (argv: string[]) => { error?: string; ip?: string; maps?: { port: number; socket: string }[]; command?: string[] };

test('the forwarder takes IP, PORT=/SOCKET maps, then the command after --; anything else is refused with a message', () => {
  expect(parse(['/usr/sbin/ip', '8080=/run/k.sock', '--', 'setpriv', 'x'])).toEqual({
    ip: '/usr/sbin/ip',
    maps: [{ port: 8080, socket: '/run/k.sock' }],
    command: ['setpriv', 'x'],
  });
  expect(parse(['/usr/sbin/ip', '--', 'true'])).toEqual({ ip: '/usr/sbin/ip', maps: [], command: ['true'] });
  expect(parse(['/usr/sbin/ip', '70000=/s', '--', 'true']).error).toMatch(/not PORT=\/SOCKET: 70000=\/s/);
  expect(parse(['/usr/sbin/ip', '80=rel.sock', '--', 'true']).error).toMatch(/not PORT=\/SOCKET/);
  expect(parse(['/usr/sbin/ip', '--']).error).toMatch(/usage/);
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
