// The key-holding proxy (SPEC §7 "Secrets"): the loop listens on 127.0.0.1, the agent gets the
// proxy's base URL and a placeholder key, and the proxy forwards every request to the model API with
// the real key put in place of the placeholder. The agent never holds the key; another local user
// without the placeholder is refused. Bodies stream both ways chunk by chunk (SSE).
//
// The proxy serves an agent step and nothing else: it listens for the whole run, but forwards only
// while a step is open (openStep … step.close(), around the agent's or the critic's process), and
// each step has a placeholder of its own. Outside a step every request is refused without reaching
// the model API: code the agent wrote with its placeholder in it, run later by the checks (as the
// check user, while the proxy still listens), gets nothing, and an earlier step's placeholder is
// worthless. Closing a step also cuts every open connection (a request still streaming ends too).
//
// How each preset is pointed at it (checked against the installed CLIs, see README "Security"):
// - claude (Claude Code): ANTHROPIC_BASE_URL; the key as ANTHROPIC_API_KEY (sent as x-api-key),
//   ANTHROPIC_AUTH_TOKEN or CLAUDE_CODE_OAUTH_TOKEN (sent as Authorization: Bearer).
// - codex (Codex CLI 0.169): a model provider of our own given with `-c` (POST /v1/responses, SSE),
//   its env_key CODEX_API_KEY sent as Authorization: Bearer.
// - gemini (Gemini CLI 0.61): GOOGLE_GEMINI_BASE_URL; the key as GEMINI_API_KEY, sent as x-goog-api-key.
//   That variable alone selects its "gateway" auth type, which headless runs refuse ("Invalid auth
//   method selected"), so the agent's HOME gets ~/.gemini/settings.json selecting the API-key auth
//   type (the base URL still applies to it): homeFiles(), written by Sandbox.wrap (at `none` into a
//   HOME of the loop's, never the user's). A system settings file would not do: the CLI ignores one
//   that is not root-owned up to /.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { AgentPreset } from './agents.js';
import { createScrubber } from '../os/secrets.js';
import { upstreamAgent } from '../os/machine-proxy.js';

export type KeyProvider = 'anthropic' | 'openai' | 'gemini';

export interface KeyProxyOptions {
  provider: KeyProvider;
  /** The model API the requests go to (its path is the prefix every request must stay under). */
  upstream: URL;
  realKey: string;
  /** The variable the real key came from; for Anthropic it decides the header (x-api-key, or Bearer for a token). Default ANTHROPIC_API_KEY. */
  keyName?: string;
}

export interface KeyProxy {
  /** The proxy's URL for the agent: http://127.0.0.1:<port> followed by the upstream's path. */
  baseUrl: string;
  /** The model API it forwards to: re-probed after a failed step (downstream.ts). */
  upstream: URL;
  /**
   * Opens the proxy for one agent step, with a fresh placeholder: requests are forwarded only until
   * the step is closed. One step at a time (opening a second while one is open is an error).
   */
  openStep(): KeyProxyStep;
  /** The arguments to add to the agent's command line (Codex takes its base URL as a config override). */
  args(preset: AgentPreset): string[];
  /** Files to write into the agent's fresh HOME before it starts (path relative to HOME → content); none hold a secret. */
  homeFiles(preset: AgentPreset): Record<string, string>;
  close(): Promise<void>;
}

/** One agent step's use of the proxy: close it in a finally, whatever ended the step. */
export interface KeyProxyStep {
  /** This step's placeholder: the only credential the proxy accepts while the step is open. The agent may see it. */
  readonly placeholderKey: string;
  /** The variables to add to the agent's environment (built with agentEnvironment(…, { keepAgentKeys: false })). */
  env(preset: AgentPreset): Record<string, string>;
  /** Ends the step: from now on every request is refused (503, nothing sent upstream) and open connections are cut. Idempotent. */
  close(): void;
}

const DEFAULT_UPSTREAM: Record<KeyProvider, string> = {
  anthropic: 'https://api.anthropic.com',
  openai: 'https://api.openai.com/v1',
  gemini: 'https://generativelanguage.googleapis.com',
};
/** Per provider: the variables a real key may come from (first present wins), and the variable that overrides its base URL. */
const SOURCES: Record<KeyProvider, { keys: string[]; baseUrl: string }> = {
  anthropic: { keys: ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'CLAUDE_CODE_OAUTH_TOKEN'], baseUrl: 'ANTHROPIC_BASE_URL' },
  openai: { keys: ['CODEX_API_KEY', 'OPENAI_API_KEY'], baseUrl: 'OPENAI_BASE_URL' },
  gemini: { keys: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'], baseUrl: 'GOOGLE_GEMINI_BASE_URL' },
};
/** Where each provider reads its key: x-api-key or Bearer (Anthropic keys, tokens), Bearer (OpenAI), x-goog-api-key or ?key= (Gemini). */
const CARRIERS: Record<KeyProvider, { headers: string[]; bearer: boolean; query: boolean }> = {
  anthropic: { headers: ['x-api-key'], bearer: true, query: false },
  openai: { headers: [], bearer: true, query: false },
  gemini: { headers: ['x-goog-api-key'], bearer: false, query: true },
};
const CODEX_PROVIDER_ID = 'phuc_key_proxy';
const PRESET_PROVIDER: Partial<Record<AgentPreset, KeyProvider>> = { claude: 'anthropic', codex: 'openai', gemini: 'gemini' };

/**
 * What a key proxy for `preset` would hold, from the loop's environment: the provider, the real key
 * and its variable, the upstream (the user's base URL override, else the provider's API). Null when
 * the preset takes no base URL we know, or no key is set (the agent then uses its own login).
 */
export function keyProxyTarget(preset: AgentPreset, env: Record<string, string | undefined>): KeyProxyOptions | null {
  const provider = PRESET_PROVIDER[preset];
  if (!provider) return null;
  const src = SOURCES[provider];
  for (const keyName of src.keys) {
    const realKey = env[keyName];
    if (realKey) return { provider, upstream: new URL(env[src.baseUrl] || DEFAULT_UPSTREAM[provider]), realKey, keyName };
  }
  return null;
}

/** The variable that overrides `provider`'s API address (ANTHROPIC_BASE_URL…). */
export const keyProxyBaseUrlVar = (provider: KeyProvider): string => SOURCES[provider].baseUrl;

/** Headers that belong to one connection, not to the message (RFC 9110 §7.6.1), and `expect` (answered here). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'expect',
  'host',
]);
/** Request headers a gateway in front of the model API may route or rewrite by: the agent must not pick where the key goes. */
const ROUTING = new Set(['forwarded', 'x-real-ip', 'x-host', 'x-http-method-override', 'x-http-method', 'x-method-override']);
const ROUTING_PREFIX = /^x-(forwarded|original|rewrite)-/;

function forwardedHeaders(headers: http.IncomingHttpHeaders, drop: (name: string) => boolean): http.OutgoingHttpHeaders {
  const listed = new Set((headers.connection ?? '').split(',').map((s) => s.trim().toLowerCase()));
  const out: http.OutgoingHttpHeaders = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined && !HOP_BY_HOP.has(k) && !listed.has(k) && !drop(k)) out[k] = v;
  return out;
}

export interface Refusal {
  status: number;
  why: string;
}

/** The upstream's path without its trailing slashes: every forwarded path stays under it. */
const pathPrefix = (upstream: URL) => upstream.pathname.replace(/\/+$/, '');

/** The methods a model API is called with: not CONNECT (a tunnel to anywhere), not TRACE (echoes the request, key included). */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** A path segment of RFC 3986 (pchar): no backslash, no fragment, nothing WHATWG URL would re-encode. */
const SEGMENT = /^[A-Za-z0-9\-._~!$&'()*+,;=:@%]*$/;
const QUERY = /^[\x21-\x7e]*$/;

/**
 * Where a request target goes upstream, or why it is refused. The target is string-joined to the
 * upstream's origin, never resolved against it (`//host/…` resolves to another host), and only after
 * every way out of the upstream's path prefix is refused: `//`, backslashes, dot segments (also
 * percent-encoded) and encoded slashes. The parsed result is checked again before any key is sent.
 */
export function upstreamUrl(upstream: URL, target: string): URL | Refusal {
  const prefix = pathPrefix(upstream);
  const q = target.indexOf('?');
  const path = q < 0 ? target : target.slice(0, q);
  const query = q < 0 ? '' : target.slice(q);
  if (!path.startsWith('/') || path.startsWith('//')) return { status: 400, why: 'only origin-form request targets are accepted' };
  const segments = path.slice(1).split('/');
  for (const [i, seg] of segments.entries()) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(seg);
    } catch {
      return { status: 400, why: 'the request target is not valid percent-encoding' };
    }
    if (!SEGMENT.test(seg) || (seg === '' && i < segments.length - 1) || decoded === '.' || decoded === '..' || /[/\\]/.test(decoded))
      return { status: 400, why: 'the request target must be a plain path: no "//", backslash, dot segment or encoded slash' };
  }
  if (!QUERY.test(query) || query.includes('#')) return { status: 400, why: 'the query must be printable ASCII without a fragment' };
  if (prefix && path !== prefix && !path.startsWith(`${prefix}/`)) return { status: 404, why: `only paths under ${prefix}/ are forwarded` };
  const url = new URL(`${upstream.origin}${target}`);
  if (url.origin !== upstream.origin || url.pathname !== path) return { status: 400, why: 'the request target does not stay on the upstream' };
  return url;
}

export async function startKeyProxy(o: KeyProxyOptions): Promise<KeyProxy> {
  if (o.upstream.protocol !== 'https:' && o.upstream.protocol !== 'http:') throw new Error(`key proxy: unsupported upstream protocol ${o.upstream.protocol}`);
  if (!o.realKey) throw new Error('key proxy: no key to hold');
  if (!/^[\x21-\x7e]+$/.test(o.realKey)) throw new Error('key proxy: the key holds characters a header cannot carry (a trailing newline?)');
  const anthropicKeyVar = o.keyName && SOURCES.anthropic.keys.includes(o.keyName) ? o.keyName : 'ANTHROPIC_API_KEY';
  /** The open step's placeholder; null between steps (every request is then refused). */
  let expected: Buffer | null = null;
  const isPlaceholder = (v: string | undefined | null): boolean => {
    if (!v || !expected) return false;
    const b = Buffer.from(v);
    return b.length === expected.length && timingSafeEqual(b, expected);
  };
  const scrubber = createScrubber([o.realKey]);
  const carriers = CARRIERS[o.provider];
  const client = o.upstream.protocol === 'https:' ? https : http;
  const agent = upstreamAgent(o.upstream);

  const fail = (res: http.ServerResponse, status: number, message: string) => {
    if (res.headersSent) return void res.destroy();
    const body = JSON.stringify({
      type: 'error',
      error: { type: status === 401 ? 'authentication_error' : 'key_proxy_error', message: `phuc-loop key proxy: ${scrubber.scrub(message)}` },
    });
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
  };

  const server = http.createServer({ noDelay: true }, (req, res) => {
    // Between steps nothing is forwarded, whoever asks (the checks run the agent's code then).
    if (!expected) return fail(res, 503, 'no agent step is running: the key proxy serves only the agent while it runs');
    if (!METHODS.has(req.method ?? '')) return fail(res, 405, `method ${req.method} is not forwarded`);
    const url = upstreamUrl(o.upstream, req.url ?? '');
    if (!(url instanceof URL)) return fail(res, url.status, url.why);

    // The placeholder is replaced only where this provider reads its key; anywhere else it goes on as is.
    const bearer = req.headers.authorization?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
    const headers = forwardedHeaders(req.headers, (name) => ROUTING.has(name) || ROUTING_PREFIX.test(name));
    let carried = false;
    for (const name of carriers.headers) {
      const v = req.headers[name];
      if (typeof v === 'string' && isPlaceholder(v)) {
        headers[name] = o.realKey;
        carried = true;
      }
    }
    if (carriers.bearer && isPlaceholder(bearer)) {
      headers.authorization = `Bearer ${o.realKey}`;
      carried = true;
    }
    if (carriers.query && isPlaceholder(url.searchParams.get('key'))) {
      url.searchParams.set('key', o.realKey);
      carried = true;
    }
    if (!carried) return fail(res, 401, "the request does not carry this step's placeholder key");
    headers.host = o.upstream.host;
    // Plain bodies, so that an error echoing the key can be scrubbed.
    headers['accept-encoding'] = 'identity';

    // A redirect is not followed: it goes back to the agent, which can only follow it with the placeholder.
    const up = client.request(url, { method: req.method, headers, agent }, (upRes) => {
      // An upstream that compresses all the same would carry an echoed key past the scrubber: the
      // body is decoded here (and goes out plain), or refused when the proxy cannot read it.
      const encoding = (upRes.headers['content-encoding'] ?? '').trim().toLowerCase();
      const decoder = decoderFor(encoding);
      if (decoder === undefined) {
        upRes.resume();
        return fail(res, 502, `the model API answered with content-encoding "${encoding}", which the key proxy cannot read and so cannot scrub`);
      }
      const outHeaders: http.OutgoingHttpHeaders = {};
      // The body may change length when a key is masked: it goes out chunked.
      for (const [k, v] of Object.entries(forwardedHeaders(upRes.headers, (name) => name === 'content-length' || name === 'content-encoding'))) {
        outHeaders[k] = Array.isArray(v) ? v.map((x) => scrubber.scrub(x)) : typeof v === 'string' ? scrubber.scrub(v) : v;
      }
      res.writeHead(upRes.statusCode ?? 502, upRes.statusMessage, outHeaders);
      res.flushHeaders();
      const body = scrubber.byteStream();
      const source = decoder ? upRes.pipe(decoder) : upRes;
      decoder?.on('error', () => res.destroy());
      source.on('data', (chunk: Buffer) => {
        const out = body.write(chunk);
        if (out.length > 0 && !res.write(out)) {
          source.pause();
          res.once('drain', () => source.resume());
        }
      });
      source.on('end', () => res.end(body.end()));
      // The upstream broke off mid-body: so does the response (the agent sees a cut stream, not a short success).
      upRes.on('close', () => {
        if (!upRes.complete) res.destroy();
      });
    });
    up.on('error', (e) => fail(res, 502, `upstream request failed: ${e.message}`));
    // The agent went away (killed, or it gave up): the upstream request is abandoned too.
    res.on('close', () => {
      if (!res.writableFinished) up.destroy();
    });
    req.pipe(up);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}${pathPrefix(o.upstream)}`;

  const checkPreset = (preset: AgentPreset) => {
    const p = PRESET_PROVIDER[preset];
    if (p && p !== o.provider) throw new Error(`key proxy: the ${preset} preset does not talk to the ${o.provider} API`);
  };
  const env = (preset: AgentPreset, placeholderKey: string): Record<string, string> => {
    checkPreset(preset);
    switch (o.provider) {
      case 'anthropic':
        return { ANTHROPIC_BASE_URL: baseUrl, [anthropicKeyVar]: placeholderKey };
      case 'openai':
        // Codex gets its base URL from args(); other clients (the command preset) read the OpenAI SDK's variables.
        return preset === 'codex' ? { CODEX_API_KEY: placeholderKey } : { OPENAI_BASE_URL: baseUrl, OPENAI_API_KEY: placeholderKey };
      case 'gemini':
        return { GOOGLE_GEMINI_BASE_URL: baseUrl, GEMINI_API_KEY: placeholderKey };
    }
  };
  let open: object | null = null;
  return {
    baseUrl,
    upstream: o.upstream,
    openStep(): KeyProxyStep {
      if (open) throw new Error('key proxy: a step is already open');
      const placeholderKey = `phuc-proxy-${randomBytes(24).toString('hex')}`;
      const token = {};
      open = token;
      expected = Buffer.from(placeholderKey);
      return {
        placeholderKey,
        env: (preset) => env(preset, placeholderKey),
        close() {
          if (open !== token) return;
          open = null;
          expected = null;
          // Whatever is still connected was the step's (a request in flight is abandoned upstream too).
          server.closeAllConnections();
        },
      };
    },
    args(preset) {
      checkPreset(preset);
      if (preset !== 'codex') return [];
      // A provider of our own: the built-in one opens a Responses WebSocket first, which this proxy does not carry.
      const provider = `{ name = "phuc-loop key proxy", base_url = ${JSON.stringify(baseUrl)}, env_key = "CODEX_API_KEY", wire_api = "responses" }`;
      return ['-c', `model_providers.${CODEX_PROVIDER_ID}=${provider}`, '-c', `model_provider=${CODEX_PROVIDER_ID}`];
    },
    homeFiles(preset): Record<string, string> {
      checkPreset(preset);
      return preset === 'gemini' ? { '.gemini/settings.json': `${JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } } })}\n` } : {};
    },
    close: () =>
      new Promise<void>((resolve) => {
        open = null;
        expected = null;
        server.close(() => resolve());
        server.closeAllConnections();
        agent.destroy();
      }),
  };
}

/** The decoder of a response's content-encoding: null for none, undefined for one the proxy cannot read. */
function decoderFor(encoding: string): Transform | null | undefined {
  switch (encoding) {
    case '':
    case 'identity':
      return null;
    case 'gzip':
    case 'x-gzip':
      return createGunzip();
    case 'deflate':
      return createInflate();
    case 'br':
      return createBrotliDecompress();
    default:
      return undefined;
  }
}
