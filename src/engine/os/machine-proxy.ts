// The machine's own proxy on the way out. On a runner or a laptop behind a proxy, the model API and
// the hosts of `agent.network` are reachable only through it (no DNS of its own, or a firewall): the
// key proxy, its pre-flight probe and the allow-list proxy go where the loop's environment says —
// HTTPS_PROXY / HTTP_PROXY / ALL_PROXY, minus NO_PROXY, read the way curl and most tools read them
// (proxy-from-env) — and tunnel with CONNECT, so TLS runs end to end and the proxy sees no key.
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { HttpsProxyAgent } from 'https-proxy-agent';
import { getProxyForUrl } from 'proxy-from-env';

/** The proxy the loop's environment names for `target`, or null for a direct connection. */
export function machineProxy(target: URL): URL | null {
  const named = getProxyForUrl(target.href);
  return named ? new URL(named) : null;
}

/** The proxy's address for messages: no user name or password (they may be secrets). */
export const proxyLabel = (proxy: URL) => `${proxy.protocol}//${proxy.host}`;

/** An agent for requests to `upstream`: tunnelled through the machine's proxy where one applies. */
export function upstreamAgent(upstream: URL, keepAlive = true): http.Agent {
  const proxy = machineProxy(upstream);
  if (proxy) return new HttpsProxyAgent(proxy, { keepAlive });
  return upstream.protocol === 'https:' ? new https.Agent({ keepAlive }) : new http.Agent({ keepAlive });
}

/**
 * A TCP connection to host:port (for a `scheme` target), through the machine's proxy where one
 * applies; rejects with the network's or the proxy's words ("…through the proxy http://p:3128").
 */
export function connectOut(host: string, port: number, scheme: 'http' | 'https'): Promise<net.Socket> {
  const authority = `${net.isIPv6(host) ? `[${host}]` : host}:${port}`;
  const proxy = machineProxy(new URL(`${scheme}://${authority}`));
  return new Promise((resolve, reject) => {
    const failed = (why: string) => reject(new Error(proxy ? `${why} through the proxy ${proxyLabel(proxy)}` : why));
    if (!proxy) {
      const s = net.connect({ host, port }, () => resolve(s));
      return void s.once('error', (e: NodeJS.ErrnoException) => failed(e.message || e.code || 'the connection failed'));
    }
    const headers: http.OutgoingHttpHeaders = { host: authority };
    if (proxy.username)
      headers['proxy-authorization'] = `Basic ${Buffer.from(`${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`).toString('base64')}`;
    const client = proxy.protocol === 'https:' ? https : http;
    const port0 = Number(proxy.port || (proxy.protocol === 'https:' ? 443 : 80));
    const req = client.request({ host: proxy.hostname.replace(/^\[(.*)\]$/, '$1'), port: port0, method: 'CONNECT', path: authority, headers });
    req.once('connect', (res: http.IncomingMessage, s: net.Socket, head: Buffer) => {
      // What the far end sent with the proxy's answer belongs to the connection.
      if (head.length) s.unshift(head);
      if (res.statusCode === 200) return resolve(s);
      s.destroy();
      failed(`the proxy answered CONNECT with ${String(res.statusCode)} ${res.statusMessage ?? ''}`.trim());
    });
    req.once('error', (e: NodeJS.ErrnoException) => failed(e.message || e.code || 'the connection to the proxy failed'));
    req.end();
  });
}
