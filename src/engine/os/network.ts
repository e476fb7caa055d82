// The network policy of the agent and the checks (SPEC §7 "Network"). Where the sandbox gives a
// command namespaces (user+pidns, pidns), it also gives it a network namespace of its own:
// - the agent's reaches nothing but two unix sockets of the loop's, through net-forwarder.mjs, which
//   listens on 127.0.0.1 inside: the key proxy (at the port its base URL names) and an HTTP proxy
//   (HTTPS_PROXY) that lets through only the hosts of `agent.network` and logs every other host
//   asked for, so that the user sees what to allow. `agent.network: open` shares the machine's;
// - the checks' has loopback only (`checks.network: open` shares the machine's); `checks.setup`
//   always has the machine's network (it installs).
// A DNS lookup or a raw connection from inside fails at once: there is no route and no resolver.
// A unix socket of the machine's at a path is no part of a network namespace (an abstract one is):
// the sandbox masks each one listening (hostSockets) in such a command's view, or a resolver's socket
// (nscd, systemd-resolved) or a D-Bus would be its way out.
import { chmod, lstat, readFile, realpath, rm } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import { join } from 'node:path';
import { connectOut, upstreamAgent } from './machine-proxy.js';
import { installPrograms } from './programs.js';

/** `agent.network`: open, or the hosts (besides the key proxy) the agent may reach. */
export type AgentNetwork = 'open' | readonly string[];
export type ChecksNetwork = 'loopback' | 'open';
export interface NetworkPolicy {
  agent: AgentNetwork;
  checks: ChecksNetwork;
}

/** The model APIs an agent preset talks to, reached through HTTPS_PROXY where the key proxy does not hold its key. */
const MODEL_HOSTS: Readonly<Record<string, readonly string[]>> = {
  claude: ['api.anthropic.com:443'],
  codex: ['api.openai.com:443', 'chatgpt.com:443'],
  gemini: ['generativelanguage.googleapis.com:443'],
};

/** The policy of a config: the agent's allow-list gets its model API's hosts unless the key proxy holds its key (then that is its way out). */
export function networkPolicy(c: { agent: { use: string; network: AgentNetwork }; checks: { network: ChecksNetwork } }, keyProxy: boolean): NetworkPolicy {
  const a = c.agent.network;
  return { agent: a === 'open' ? 'open' : [...new Set([...a, ...(keyProxy ? [] : (MODEL_HOSTS[c.agent.use] ?? []))])], checks: c.checks.network };
}

/** What a certificate records: the policy, and whether this machine enforced it. */
export interface NetworkRecord {
  agent: 'open' | 'model-api-only' | string[];
  checks: ChecksNetwork;
  setup: 'open';
  enforced: boolean;
}

export function networkRecord(p: NetworkPolicy, enforced: boolean): NetworkRecord {
  return { agent: p.agent === 'open' ? 'open' : p.agent.length ? [...p.agent].sort() : 'model-api-only', checks: p.checks, setup: 'open', enforced };
}

/** The limit said where the policy cannot be enforced (no namespaces, or no `ip` to bring loopback up). */
export function networkLimit(why: string): string {
  return `The network policy (agent.network, checks.network) is not enforced: ${why}. The agent and the checks reach every host the machine reaches, and can send the repository anywhere.`;
}

/**
 * The unix sockets of the machine listening at a path (real paths, each once), from /proc/net/unix:
 * those bound with a relative path, and those bound later, are not found (the limits say so).
 */
export async function hostSockets(table = '/proc/net/unix'): Promise<string[]> {
  const text = await readFile(table, 'utf8').catch(() => '');
  // Num RefCount Protocol Flags Type St Inode Path: the path, where there is one, from the 8th field on.
  const paths = new Set(
    text
      .split('\n')
      .slice(1)
      .map((l) => l.trim().split(/ +/).slice(7).join(' '))
      .filter((p) => p.startsWith('/')),
  );
  const found = await Promise.all([...paths].map(async (p) => ((await lstat(p).catch(() => null))?.isSocket() ? realpath(p).catch(() => null) : null)));
  return [...new Set(found.filter((p): p is string => p !== null))].sort();
}

/** The HTTP proxy's port inside the agent's namespace (a namespace of its own: no other listener there but the key proxy's). */
const PROXY_PORT = 3128;

/** A host (or host:port) the allow-list names matches `host`:`port`. */
export function allowed(list: readonly string[], host: string, port: number): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return list.some((entry) => {
    const m = /^(.*?)(?::(\d+))?$/.exec(entry.toLowerCase())!;
    return m[1] === h && (m[2] === undefined || Number(m[2]) === port);
  });
}

/**
 * The loop's side of the namespaces: a folder (0755, the loop's) that each namespaced command gets
 * in its view, holding the forwarder and the sockets it relays to. `refused` is told every host the
 * agent asked for and did not get.
 */
export class NetworkGate {
  private readonly servers: net.Server[] = [];
  /** Every connection either way, cut when the gate closes (a server's close waits for them). */
  private readonly open = new Set<net.Socket>();
  private constructor(
    readonly dir: string,
    readonly forwarder: string,
    private readonly allow: readonly string[],
    private readonly refused: (host: string, how: string) => void,
  ) {}

  static async open(dir: string, allow: readonly string[], refused: (host: string, how: string) => void): Promise<NetworkGate> {
    const { 'net-forwarder.mjs': forwarder } = await installPrograms(dir, ['net-forwarder.mjs']);
    const gate = new NetworkGate(dir, forwarder, allow, refused);
    await gate.listen(gate.proxySocket, gate.proxyServer());
    return gate;
  }

  get proxySocket(): string {
    return join(this.dir, 'proxy.sock');
  }

  private keySocket(port: number): string {
    return join(this.dir, `key-${String(port)}.sock`);
  }

  private async listen(path: string, server: net.Server): Promise<void> {
    await rm(path, { force: true });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(path, () => resolve());
    });
    server.on('connection', (c: net.Socket) => this.open.add(c.on('close', () => this.open.delete(c))));
    // The forwarder connects as the namespace's root, or (pidns) as the loop's own user.
    await chmod(path, 0o600);
    this.servers.push(server);
  }

  /** Relays the agent's namespace's 127.0.0.1:port to the loop's 127.0.0.1:port (the key proxy). */
  async relayKeyProxy(port: number): Promise<void> {
    const server = net.createServer((inside) => pipeBoth(inside, net.connect(port, '127.0.0.1')));
    await this.listen(this.keySocket(port), server);
  }

  /**
   * The forwarder's arguments for the agent (before `--`): the key proxy's port, if any, and the
   * HTTP proxy; and the variables that point the agent's HTTP clients at the latter.
   */
  agentView(keyPort: number | null): { maps: string[]; env: Record<string, string> } {
    const maps = [...(keyPort === null ? [] : [`${String(keyPort)}=${this.keySocket(keyPort)}`]), `${String(PROXY_PORT)}=${this.proxySocket}`];
    const proxy = `http://127.0.0.1:${String(PROXY_PORT)}`;
    const local = '127.0.0.1,localhost,::1';
    return {
      maps,
      env: { HTTPS_PROXY: proxy, HTTP_PROXY: proxy, https_proxy: proxy, http_proxy: proxy, ALL_PROXY: proxy, NO_PROXY: local, no_proxy: local },
    };
  }

  /** CONNECT host:port (HTTPS) and absolute-URL requests (plain HTTP), for the allowed hosts only. */
  private proxyServer(): http.Server {
    const server = http.createServer((req, res) => {
      const url = URL.canParse(req.url ?? '') ? new URL(req.url!) : null;
      const port = url ? Number(url.port) || (url.protocol === 'https:' ? 443 : 80) : 0;
      if (!url || !allowed(this.allow, url.hostname, port)) {
        this.refused(url ? `${url.hostname}:${String(port)}` : String(req.url), `HTTP ${String(req.method)}`);
        res.writeHead(403, { 'content-type': 'text/plain' }).end('phuc-loop: this host is not in agent.network\n');
        return;
      }
      const up = http.request(url, { method: req.method, headers: req.headers, agent: upstreamAgent(url, false) }, (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      });
      up.on('error', () => res.destroy());
      req.pipe(up);
    });
    server.on('connect', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
      const m = /^\[?([^\]]+?)\]?:(\d+)$/.exec(req.url ?? '');
      if (!m || !allowed(this.allow, m[1], Number(m[2]))) {
        this.refused(req.url ?? '', 'CONNECT');
        socket.end('HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\n\r\nphuc-loop: this host is not in agent.network\n');
        return;
      }
      connectOut(m[1], Number(m[2]), 'https').then(
        (up) => {
          socket.write('HTTP/1.1 200 Connection established\r\n\r\n');
          if (head.length) up.write(head);
          pipeBoth(socket, up);
        },
        () => socket.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'),
      );
    });
    return server;
  }

  async close(): Promise<void> {
    for (const c of this.open) c.destroy();
    await Promise.all(this.servers.map((s) => new Promise((r) => s.close(r))));
    await rm(this.dir, { recursive: true, force: true });
  }
}

/** A run's network: its policy, the gate of the agent's way out (where it is closed), and why the policy is not enforced (null: it is). */
export interface RunNetwork {
  policy: NetworkPolicy;
  gate: NetworkGate | null;
  why: string | null;
}

/** The network of a run whose commands get namespaces (`namespaced`) or not; `dir` for the gate. */
export async function openNetwork(policy: NetworkPolicy, namespaced: boolean, dir: string, refused: (host: string, how: string) => void): Promise<RunNetwork> {
  const closed = policy.agent !== 'open' || policy.checks !== 'open';
  const why = namespaced ? null : "at isolation none the commands run in the loop's own namespaces";
  // The gate relays the agent's way out; a command with loopback only needs nothing but bwrap's --unshare-net.
  const gate = policy.agent !== 'open' && why === null ? await NetworkGate.open(dir, policy.agent, refused) : null;
  return { policy, gate, why: closed ? why : null };
}

/**
 * The network namespace of a command of `role`: null where it shares the machine's; else the
 * forwarder's arguments (up to its `--`; none for loopback only), the folders its view must hold,
 * and variables to add.
 */
export function commandNetwork(
  n: RunNetwork,
  role: 'agent' | 'check',
  open: boolean,
  keyPort: number | null,
): { argv: string[]; dirs: string[]; env: Record<string, string> } | null {
  const { gate, policy, why } = n;
  if (why !== null || open || (role === 'agent' ? policy.agent === 'open' : policy.checks === 'open')) return null;
  if (role === 'check' || !gate) return { argv: [], dirs: [], env: {} };
  const view = gate.agentView(keyPort);
  return { argv: [process.execPath, gate.forwarder, ...view.maps, '--'], dirs: [gate.dir], env: view.env };
}

function pipeBoth(a: net.Socket, b: net.Socket): void {
  a.pipe(b);
  b.pipe(a);
  a.on('error', () => b.destroy());
  b.on('error', () => a.destroy());
  a.on('close', () => b.destroy());
  b.on('close', () => a.destroy());
}
