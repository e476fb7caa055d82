// Before the first agent step: can the model API the key proxy forwards to be reached at all? An
// unreachable API (no DNS, a refused or timed-out connection, a certificate the machine does not
// trust) would end the step AGENT_FAILED after the baseline's cost; found here, the run pauses
// before spending anything, with the cause in the network's own words. The probe connects (and
// for https completes the TLS handshake) and sends nothing: the key and the model are the agent
// step's to judge, and the API sees no request.
import net from 'node:net';
import tls from 'node:tls';

/** Null when `upstream` accepts a connection; else why not ("getaddrinfo ENOTFOUND api.example.com"). */
export function probeModelApi(upstream: URL, timeoutMs = 15_000): Promise<string | null> {
  const secure = upstream.protocol === 'https:';
  const host = upstream.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = Number(upstream.port || (secure ? 443 : 80));
  return new Promise((resolve) => {
    const socket = secure
      ? tls.connect({ host, port, servername: net.isIP(host) ? undefined : host, ALPNProtocols: ['http/1.1'] }, () => done(null))
      : net.connect({ host, port }, () => done(null));
    const done = (why: string | null) => {
      socket.destroy();
      resolve(why);
    };
    socket.setTimeout(timeoutMs, () => done(`no connection within ${timeoutMs / 1000} s`));
    socket.on('error', (e: NodeJS.ErrnoException) => done(e.message || e.code || 'the connection failed'));
  });
}
