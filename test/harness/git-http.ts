// A git smart-HTTP server (git http-backend behind node:http) for origins made by createOrigin, at
// http://github.localhost:<port>/<owner>/<name>: what a push really sends over HTTP, the
// Authorization header included. A bare-path redirect (redirectEnv) drops every header, so it cannot
// show which token a push used; this can, and answers 401 to any token it was not told to accept.
// Use it as the step's GITHUB_SERVER_URL (`*.localhost` is not GHES for @actions/artifact; curl
// resolves it to the loopback address itself).
import { spawn } from 'node:child_process';
import { mkdir, symlink } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { traversableTempDir, type Origin } from './git-origin.js';

export interface GitHttpRequest {
  method: string;
  path: string;
  service: 'git-upload-pack' | 'git-receive-pack' | null;
  /** The token of `Authorization: basic base64(user:token)` (or bearer), null without one. */
  token: string | null;
  status: number;
}

export interface GitHttpServer {
  /** e.g. http://github.localhost:41234 */
  serverUrl: string;
  requests: GitHttpRequest[];
  close(): Promise<void>;
}

function tokenOf(req: IncomingMessage): string | null {
  const h = req.headers.authorization ?? '';
  const basic = /^basic\s+(\S+)$/i.exec(h);
  if (basic) {
    const plain = Buffer.from(basic[1], 'base64').toString('utf8');
    return plain.slice(plain.indexOf(':') + 1);
  }
  return /^bearer\s+(\S+)$/i.exec(h)?.[1] ?? null;
}

function backend(root: string, req: IncomingMessage, res: ServerResponse, url: URL): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn('git', ['http-backend'], {
      env: {
        PATH: process.env['PATH'] ?? '',
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: '1',
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_CONFIG_GLOBAL: '/dev/null',
        PATH_INFO: url.pathname,
        QUERY_STRING: url.search.slice(1),
        REQUEST_METHOD: req.method ?? 'GET',
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        HTTP_CONTENT_ENCODING: req.headers['content-encoding'] ?? '',
        GIT_PROTOCOL: String(req.headers['git-protocol'] ?? ''),
        // http-backend serves receive-pack only to an authenticated user.
        REMOTE_USER: 'x-access-token',
        REMOTE_ADDR: '127.0.0.1',
      },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    req.pipe(child.stdin);
    let head = Buffer.alloc(0);
    let status = 200;
    let headersDone = false;
    child.stdout.on('data', (chunk: Buffer) => {
      if (headersDone) return void res.write(chunk);
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      headersDone = true;
      for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
        const i = line.indexOf(':');
        const [k, v] = [line.slice(0, i).trim(), line.slice(i + 1).trim()];
        if (k.toLowerCase() === 'status') status = Number(v.split(' ')[0]);
        else res.setHeader(k, v);
      }
      res.statusCode = status;
      res.write(head.subarray(end + 4));
    });
    child.on('close', () => {
      res.end();
      resolve(status);
    });
  });
}

/** Serves `origins`; requests whose token is not in `accept` get 401 (none accepted: any token). */
export async function startGitHttp(origins: Origin[], opts: { accept?: string[] } = {}): Promise<GitHttpServer> {
  const root = await traversableTempDir('phuc-harness-git-http-');
  for (const o of origins) {
    const [owner, name] = o.fullName.split('/');
    await mkdir(join(root, owner), { recursive: true });
    await symlink(o.bareDir, join(root, owner, name));
  }
  const requests: GitHttpRequest[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://github.localhost');
    const service = (url.searchParams.get('service') ?? /\/(git-(?:upload|receive)-pack)$/.exec(url.pathname)?.[1] ?? null) as GitHttpRequest['service'];
    const token = tokenOf(req);
    const record: GitHttpRequest = { method: req.method ?? 'GET', path: url.pathname, service, token, status: 0 };
    requests.push(record);
    if (opts.accept && (token === null || !opts.accept.includes(token))) {
      record.status = 401;
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="GitHub"' }).end();
      return;
    }
    void backend(root, req, res, url).then((s) => (record.status = s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    serverUrl: `http://github.localhost:${port}`,
    requests,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
