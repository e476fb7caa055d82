// Before the first agent step: can the model API the key proxy forwards to be reached at all? An
// unreachable API (no DNS, a refused or timed-out connection, a certificate the machine does not
// trust) would end the step AGENT_FAILED after the baseline's cost; found here, the run pauses
// before spending anything, with the cause in the network's own words. The probe connects the way
// the key proxy would (through the machine's proxy where one applies; for https it completes the
// TLS handshake) and sends nothing: the key and the model are the agent step's to judge, and the API
// sees no request.
import net from 'node:net';
import tls from 'node:tls';
import { connectOut } from '../os/machine-proxy.js';

/** Null when `upstream` accepts a connection; else why not ("getaddrinfo ENOTFOUND api.example.com"). */
export async function probeModelApi(upstream: URL, timeoutMs = 15_000): Promise<string | null> {
  const secure = upstream.protocol === 'https:';
  const host = upstream.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = Number(upstream.port || (secure ? 443 : 80));
  let timer: NodeJS.Timeout | undefined;
  const sockets: net.Socket[] = [];
  const timeout = new Promise<string>((resolve) => (timer = setTimeout(() => resolve(`no connection within ${timeoutMs / 1000} s`), timeoutMs)));
  const attempt = (async () => {
    const tcp = await connectOut(host, port, secure ? 'https' : 'http');
    sockets.push(tcp);
    if (!secure) return null;
    const s = tls.connect({ socket: tcp, servername: net.isIP(host) ? undefined : host, ALPNProtocols: ['http/1.1'] });
    sockets.push(s);
    await new Promise<void>((resolve, reject) => s.once('secureConnect', resolve).once('error', reject));
    return null;
  })().catch((e: unknown) => (e instanceof Error && e.message) || 'the connection failed');
  const why = await Promise.race([attempt, timeout]);
  clearTimeout(timer);
  // A connection still under way when the time ran out is closed once it is made.
  void attempt.then(() => sockets.forEach((s) => s.destroy()));
  return why;
}
