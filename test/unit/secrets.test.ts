import { PRESET_ENV } from '../../src/engine/agent/presets.js';
import { agentEnvironment, AGENT_KEY_NAMES, createScrubber, MASK, scrubbingLogger, secretForms, secretValues } from '../../src/engine/os/secrets.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const b64url = (s: string) => Buffer.from(s).toString('base64url');

describe('agentEnvironment', () => {
  const base = {
    PATH: '/usr/bin',
    HOME: '/home/runner',
    ANTHROPIC_API_KEY: 'sk-ant-agent',
    OPENAI_API_KEY: 'sk-openai-agent',
    GEMINI_API_KEY: 'gem-agent',
    GITHUB_TOKEN: 'ghs_loop_token',
    github_token: 'ghs_lower_case',
    Gh_Token: 'gho_mixed_case',
    GH_TOKEN: 'gho_other',
    GITHUB_PAT: 'github_pat_1234',
    'INPUT_GITHUB-TOKEN': 'ghs_loop_token',
    'input_github-token': 'ghs_lower_input',
    INPUT_GITHUB_TOKEN: 'ghs_loop_token',
    INPUT_GOAL: 'Make the test suite pass',
    INPUT_MAX_ITERATIONS: '10',
    STATE_evidence: '/tmp/ev',
    ACTIONS_RUNTIME_TOKEN: 'runtime-jwt',
    ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'oidc-request-token',
    actions_id_token_request_token: 'oidc-lower',
    ACTIONS_ID_TOKEN_REQUEST_URL: 'https://token.actions/x',
    ACTIONS_RESULTS_URL: 'https://results/',
    ACTIONS_RUNTIME_URL: 'https://runtime/',
    ACTIONS_CACHE_URL: 'https://cache/',
    GITHUB_STATE: '/home/runner/work/_temp/_runner_file_commands/save_state_1',
    GITHUB_OUTPUT: '/f/out',
    GITHUB_ENV: '/f/env',
    GITHUB_PATH: '/f/path',
    GITHUB_STEP_SUMMARY: '/f/sum',
    GITHUB_REPOSITORY: 'o/r',
    DEPLOY_KEY: 'deploy-secret-value',
    deploy_key_lower: 'not-listed',
    NPM_TOKEN: 'npm_kept_unless_named',
    PHUC_LOOP_SECRET_VARS: ' DEPLOY_KEY , ,other ',
    OTHER: 'other-listed-secret',
    UNSET: undefined,
  };

  test("every loop secret and handle is withheld, in any case, with the dash of INPUT_GITHUB-TOKEN; the preset's key passes; extra variables are added", () => {
    const env = agentEnvironment(base, { PHUC_ITERATION: '3', PHUC_PROMPT_FILE: '/ev/p.md', HOME: '/override' }, { allow: PRESET_ENV.claude });
    expect(Object.keys(env).sort()).toEqual(['ANTHROPIC_API_KEY', 'HOME', 'PATH', 'PHUC_ITERATION', 'PHUC_PROMPT_FILE'].sort());
    expect(env.ANTHROPIC_API_KEY).toBe('sk-ant-agent');
    expect(env.HOME).toBe('/override');
    for (const v of ['ghs_', 'gho_', 'github_pat', 'runtime-jwt', 'oidc', 'deploy-secret', 'other-listed', '/f/', 'token.actions'])
      expect(JSON.stringify(env)).not.toContain(v);
    // aider reaches every provider: every agent key; pass_env cannot reach a loop secret.
    const aider = agentEnvironment(base, {}, { allow: PRESET_ENV.aider, pass: ['GITHUB_*', 'INPUT_*', 'DEPLOY_KEY'] });
    expect(Object.keys(aider).sort()).toEqual(['ANTHROPIC_API_KEY', 'GEMINI_API_KEY', 'GITHUB_REPOSITORY', 'OPENAI_API_KEY', 'PATH'].sort());
  });

  test("an allowlist: credentials in innocently named variables never pass; the base, the preset's own variables and agent.pass_env do", () => {
    const loop = {
      PATH: '/bin',
      LANG: 'C.UTF-8',
      LC_ALL: 'C.UTF-8',
      TZ: 'UTC',
      TERM: 'xterm',
      NO_COLOR: '1',
      CI: 'true',
      PHUC_TEST_HOOK: 'x',
      DATABASE_URL: 'postgres://admin:Sup3rS3cretDbPw@db.internal:5432/prod',
      PGPASSWORD: 'pgpw12345678',
      HTTPS_PROXY: 'http://proxyuser:proxypass999@proxy:3128',
      NPM_CONFIG__AUTH: 'bnBtdXNlcjpucG1wYXNzd29yZA==',
      SENTRY_DSN: 'https://abcdef0123456789abcdef0123456789@o1.ingest.sentry.io/42',
      SLACK_WEBHOOK_URL: 'https://hooks.slack.com/services/T000/B000/XXXXXXXX',
      DOCKER_AUTH_CONFIG: '{"auths":{"x":{"auth":"ZG9ja2VyOnB3"}}}',
      REDIS_URL: 'redis://:redispw123456@cache:6379',
      TOKENIZERS_PARALLELISM: 'false',
      ANTHROPIC_API_KEY: 'sk-ant-agent-key-1234',
      ANTHROPIC_BASE_URL: 'https://gw.example',
      CLAUDE_CODE_MAX_RETRIES: '0',
      IS_SANDBOX: '1',
      CLAUDE_DEPLOY_SECRET: 'looks-secret-in-the-family',
      OPENAI_API_KEY: 'sk-openai-agent-1234',
      CODEX_HOME: '/c',
      GEMINI_MODEL: 'g',
      GOOGLE_CLOUD_PROJECT: 'p',
      GOOGLE_CREDENTIALS: '{"private_key":"-----BEGIN"}',
      GOOGLE_SERVICE_ACCOUNT: 'sa@example.iam',
      AIDER_MODEL: 'm',
    };
    const base = { PATH: '/bin', LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8', TZ: 'UTC', TERM: 'xterm', NO_COLOR: '1', CI: 'true', PHUC_TEST_HOOK: 'x' };
    expect(agentEnvironment(loop, {}, { allow: PRESET_ENV.command })).toEqual(base);
    expect(agentEnvironment(loop)).toEqual(base);
    expect(agentEnvironment(loop, {}, { allow: PRESET_ENV.claude })).toEqual({
      ...base,
      ANTHROPIC_API_KEY: 'sk-ant-agent-key-1234',
      ANTHROPIC_BASE_URL: 'https://gw.example',
      CLAUDE_CODE_MAX_RETRIES: '0',
      IS_SANDBOX: '1',
    });
    expect(agentEnvironment(loop, {}, { allow: PRESET_ENV.codex })).toEqual({ ...base, OPENAI_API_KEY: 'sk-openai-agent-1234', CODEX_HOME: '/c' });
    expect(agentEnvironment(loop, {}, { allow: PRESET_ENV.gemini })).toEqual({ ...base, GEMINI_MODEL: 'g', GOOGLE_CLOUD_PROJECT: 'p' });
    expect(agentEnvironment(loop, {}, { allow: PRESET_ENV.aider })).toEqual({
      ...base,
      ANTHROPIC_API_KEY: 'sk-ant-agent-key-1234',
      ANTHROPIC_BASE_URL: 'https://gw.example',
      OPENAI_API_KEY: 'sk-openai-agent-1234',
      GEMINI_MODEL: 'g',
      AIDER_MODEL: 'm',
    });
    // agent.pass_env: names (any case) and FOO_* prefixes; also what looks secret, and an agent key for `command`.
    expect(
      agentEnvironment(loop, {}, { allow: PRESET_ENV.command, pass: ['database_url', 'PGPASSWORD', 'GOOGLE_*', 'CLAUDE_DEPLOY_SECRET', 'ANTHROPIC_API_KEY'] }),
    ).toEqual({
      ...base,
      DATABASE_URL: loop.DATABASE_URL,
      PGPASSWORD: loop.PGPASSWORD,
      GOOGLE_CLOUD_PROJECT: 'p',
      GOOGLE_CREDENTIALS: loop.GOOGLE_CREDENTIALS,
      GOOGLE_SERVICE_ACCOUNT: 'sa@example.iam',
      CLAUDE_DEPLOY_SECRET: 'looks-secret-in-the-family',
      ANTHROPIC_API_KEY: 'sk-ant-agent-key-1234',
    });
    // What is passed and looks secret is still scrubbed from what comes back.
    const values = secretValues(loop);
    for (const v of [
      loop.PGPASSWORD,
      loop.CLAUDE_DEPLOY_SECRET,
      loop.GOOGLE_CREDENTIALS,
      loop.ANTHROPIC_API_KEY,
      'Sup3rS3cretDbPw',
      'proxypass999',
      'redispw123456',
    ])
      expect(values).toContain(v);
    expect(createScrubber(values).scrub(`connect ${loop.DATABASE_URL}`)).toBe(`connect postgres://admin:${MASK}@db.internal:5432/prod`);
  });

  test('any other variable whose name looks secret (NPM_TOKEN) is withheld unless agent.pass_env names it; a short flag is no secret', () => {
    const given = {
      PATH: '/bin',
      NPM_TOKEN: 'npm_abcdefgh12345',
      AWS_SECRET_ACCESS_KEY: 'aws/secret/value',
      PHUC_DEPLOY_TOKEN: 'phuc-looking-secret',
      PHUC_FEATURE_TOKEN: 'on',
    };
    expect(agentEnvironment(given)).toEqual({ PATH: '/bin', PHUC_FEATURE_TOKEN: 'on' });
    expect(agentEnvironment(given, {}, { pass: ['npm_token'] })).toEqual({ PATH: '/bin', NPM_TOKEN: 'npm_abcdefgh12345', PHUC_FEATURE_TOKEN: 'on' });
    expect(agentEnvironment(given, {}, { pass: ['AWS_*', 'PHUC_DEPLOY_TOKEN'] })).toEqual({
      PATH: '/bin',
      AWS_SECRET_ACCESS_KEY: 'aws/secret/value',
      PHUC_DEPLOY_TOKEN: 'phuc-looking-secret',
      PHUC_FEATURE_TOKEN: 'on',
    });
    // Passing never reaches the loop's own secrets.
    expect(agentEnvironment({ GITHUB_TOKEN: 'ghs_abcdefghijkl' }, {}, { pass: ['GITHUB_TOKEN', 'GITHUB_*'] })).toEqual({});
  });

  test('with a key proxy holding the key, no agent key name reaches the agent (not even through agent.pass_env); the placeholder given in extra does', () => {
    const withKeys = Object.fromEntries(AGENT_KEY_NAMES.map((n) => [n, `real-${n}`]));
    const env = agentEnvironment(
      { PATH: '/usr/bin', ...withKeys, gemini_api_key: 'real-lower' },
      { ANTHROPIC_API_KEY: 'placeholder', ANTHROPIC_BASE_URL: 'http://127.0.0.1:1' },
      { keepAgentKeys: false, allow: PRESET_ENV.aider, pass: ['ANTHROPIC_API_KEY', 'OPENAI_*'] },
    );
    expect(env).toEqual({ PATH: '/usr/bin', ANTHROPIC_API_KEY: 'placeholder', ANTHROPIC_BASE_URL: 'http://127.0.0.1:1' });
  });

  test('secretValues: the loop tokens (any case), listed names, secret-looking inputs and variables, agent keys; not ordinary inputs or short flags', () => {
    const values = secretValues(base);
    for (const v of [
      'ghs_loop_token',
      'ghs_lower_case',
      'gho_mixed_case',
      'gho_other',
      'github_pat_1234',
      'ghs_lower_input',
      'runtime-jwt',
      'oidc-request-token',
      'oidc-lower',
      'deploy-secret-value',
      'other-listed-secret',
      'npm_kept_unless_named',
      'sk-ant-agent',
      'sk-openai-agent',
      'gem-agent',
      'not-listed',
    ])
      expect(values).toContain(v);
    // Handles are withheld from the agent but are not secrets (nor is the list of names).
    for (const v of ['Make the test suite pass', '10', '/tmp/ev', 'https://results/', 'https://token.actions/x', base.PHUC_LOOP_SECRET_VARS, 'o/r', '/usr/bin'])
      expect(values).not.toContain(v);
    expect(values).toEqual([...values].sort((a, b) => b.length - a.length));
    expect(new Set(values).size).toBe(values.length);
    expect(secretValues({ GITHUB_TOKEN: 'abc', GH_TOKEN: '' })).toEqual([]);
    expect(secretValues({ INPUT_API_KEY: 'k-123456', INPUT_GOAL: 'goal text' })).toEqual(['k-123456']);
    // A name that merely contains a secret word is not one (TOKENIZERS_PARALLELISM), nor a short flag (FOO_TOKEN=true).
    expect(secretValues({ TOKENIZERS_PARALLELISM: 'false-but-long', FOO_TOKEN: 'true', MY_SECRET: 'a-long-secret' })).toEqual(['a-long-secret']);
  });
});

describe('createScrubber', () => {
  const secret = 'ghs_Xy9+/=Z@secret:value&more';
  const s = createScrubber([secret, undefined, '', 'abc']);

  test('plain, repeated, longest first, and overlapping occurrences each become one mask', () => {
    expect(s.scrub(`a ${secret} b ${secret}`)).toBe(`a ${MASK} b ${MASK}`);
    const t = createScrubber(['abcdef12', 'ef12ghij']);
    expect(t.scrub('x abcdef12ghij y')).toBe(`x ${MASK} y`);
    expect(createScrubber(['abcdef', 'bcde']).scrub('abcdef')).toBe(MASK);
  });

  test('base64 at all three alignments, padded or not, standard and url-safe, and inside a longer base64 text', () => {
    for (const prefix of ['', 'x', 'xy', 'x-access-token:', 'user:']) {
      for (const suffix of ['', 'z', 'zz', '\n']) {
        const whole = `${prefix}${secret}${suffix}`;
        for (const enc of [b64(whole), b64(whole).replace(/=+$/, ''), b64url(whole)]) {
          const out = s.scrub(`Authorization: Basic ${enc} end`);
          // Every character that carries only bits of the secret is masked.
          const p = Buffer.byteLength(prefix);
          const secretOnly = Math.floor((8 * (p + Buffer.byteLength(secret))) / 6) - Math.ceil((8 * p) / 6);
          const left = out.slice('Authorization: Basic '.length, -' end'.length).split(MASK).join('');
          expect(left.length).toBeLessThanOrEqual(enc.length - secretOnly);
          expect(out).not.toContain(enc.slice(Math.ceil((8 * p) / 6) + 1, Math.ceil((8 * p) / 6) + 9));
        }
      }
    }
  });

  test('URL-encoded (upper and lower hex, form encoding, encodeURI) and JSON-escaped forms', () => {
    const url = encodeURIComponent(secret);
    expect(url).not.toBe(secret);
    for (const f of [url, new URLSearchParams({ t: secret }).toString().slice(2), encodeURI(secret)]) {
      expect(s.scrub(`https://h/p?token=${f}&x=1`)).toBe(`https://h/p?token=${MASK}&x=1`);
    }
    const lowerHex = url.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());
    expect(s.scrub(`q=${lowerHex}`)).toBe(`q=${MASK}`);
    const quoted = 'pa"ss\\wörd/with\nnewline';
    const q = createScrubber([quoted]);
    const json = JSON.stringify({ note: `key is ${quoted} !` });
    expect(json).not.toContain(quoted);
    expect(q.scrub(json)).toBe(`{"note":"key is ${MASK} !"}`);
    expect(q.scrub(JSON.stringify(quoted).replace(/\//g, '\\/'))).toBe(`"${MASK}"`);
    expect(q.scrub('"pa\\"ss\\\\w\\u00f6rd/with\\nnewline"')).toBe(`"${MASK}"`);
  });

  test('hex (lower and upper case, alone or inside a longer hex dump), and the plain text upper-cased, lower-cased or reversed', () => {
    const key = 'sk-ant-api03-SECRETkey0123456789abcdefXYZ';
    const k = createScrubber([key]);
    const hex = Buffer.from(key).toString('hex');
    for (const f of [hex, hex.toUpperCase(), key.toUpperCase(), key.toLowerCase(), Array.from(key).reverse().join('')]) {
      expect(k.scrub(`hex=${f}\n`)).toBe(`hex=${MASK}\n`);
      expect(k.contains(f)).toBe(true);
      expect(k.contains(Buffer.from(`/*\n${f}\n*/`))).toBe(true);
    }
    expect(k.scrub(`0a0b${hex}ff`)).toBe(`0a0b${MASK}ff`);
    // A key split across writes in hex is still masked in a stream (the proxy's responses).
    const stream = k.byteStream();
    const out = [stream.write(Buffer.from(`x ${hex.slice(0, 20)}`)), stream.write(Buffer.from(`${hex.slice(20)} y`)), stream.end()];
    expect(Buffer.concat(out).toString()).toBe(`x ${MASK} y`);
  });

  test('ordinary text is left alone: no form is shorter than a secret could be mistaken for', () => {
    const text = 'The quick brown fox. eyJhbGciOiJIUzI1NiJ9 sha512-abc== 0123456789 %20 ghs_ secret value more';
    expect(s.scrub(text)).toBe(text);
    expect(createScrubber(['abc']).scrub('abc abcd')).toBe('abc abcd');
    expect(createScrubber([]).scrub('anything')).toBe('anything');
    for (const f of secretForms('short-ok')) expect(f.length).toBeGreaterThanOrEqual(8);
    expect(secretForms('abc')).toEqual([]);
  });

  test('contains, for text and bytes', () => {
    expect(s.contains(`x ${b64('x-access-token:' + secret)}`)).toBe(true);
    expect(s.contains(Buffer.from(`x ${encodeURIComponent(secret)}`))).toBe(true);
    expect(s.contains('nothing')).toBe(false);
    expect(createScrubber(['wörd-secret']).contains(Buffer.from('a wörd-secret b'))).toBe(true);
  });

  test('byteStream: a secret split across chunks is masked; text that cannot start a secret is passed on at once', () => {
    const t = createScrubber(['REALKEY-123456']);
    const stream = t.byteStream();
    const out: string[] = [];
    out.push(stream.write(Buffer.from('data: {"a":1}\n\n')).toString());
    expect(out[0]).toBe('data: {"a":1}\n\n');
    out.push(stream.write(Buffer.from('error: REALK')).toString());
    expect(out[1]).toBe('error: ');
    out.push(stream.write(Buffer.from('EY-123456 and REA')).toString());
    out.push(stream.write(Buffer.from('D on\n')).toString());
    out.push(stream.end().toString());
    expect(out.join('')).toBe(`data: {"a":1}\n\nerror: ${MASK} and READ on\n`);
    const bin = Buffer.from([0xff, 0x00, 0xfe, 0x80]);
    expect(t.byteStream().write(bin)).toEqual(bin);
  });

  test('scrubbingLogger scrubs every level', () => {
    const seen: string[] = [];
    const log = scrubbingLogger({ info: (m) => seen.push(`i ${m}`), warn: (m) => seen.push(`w ${m}`), error: (m) => seen.push(`e ${m}`) }, s.scrub);
    log.info(secret);
    log.warn(`x ${b64(secret)}`);
    log.error(encodeURIComponent(secret));
    expect(seen).toEqual([`i ${MASK}`, `w x ${MASK}`, `e ${MASK}`]);
  });

  test('a 100 KB text with 10 secrets: returned as it is when none is there, only the secret masked when one is (cost: npm run bench:scrubber)', () => {
    const secrets = Array.from({ length: 10 }, (_, i) => `sk-test-${i}-${'abcdefghijklmnopqrstuvwxyz'.slice(i)}${i * 7919}`);
    const t = createScrubber(secrets);
    const text = 'ordinary log line with words, numbers 12345 and {"json": true}\n'.repeat(1600);
    expect(t.scrub(text)).toBe(text);
    const half = text.length / 2;
    expect(t.scrub(`${text.slice(0, half)} ${secrets[3]} ${text.slice(half)}`)).toBe(`${text.slice(0, half)} ${MASK} ${text.slice(half)}`);
  });
});

describe('createScrubber: forms interrupted by whitespace or written with escapes', () => {
  const secret = 'tokZq9Xv7Lw3Pp2Rr8Ss';
  const s = createScrubber([secret]);
  const wrap = (text: string, width: number, eol: string) => text.replace(new RegExp(`.{1,${width}}`, 'g'), (line) => line + eol);
  /** Found in the text and its bytes, masked between what surrounds it, and nothing found once masked. */
  const caught = (enc: string) => {
    expect(s.contains(enc)).toBe(true);
    expect(s.contains(Buffer.from(enc))).toBe(true);
    const out = s.scrub(`before ${enc} after`);
    expect(out).toMatch(/^before .*\*\*\*.* after$/s);
    expect(s.contains(out)).toBe(false);
  };

  test('line-wrapped base64 (any width, LF or CRLF, any alignment, padded or not, url-safe) and hex dumps (od, xxd -p, spaced pairs)', () => {
    for (const prefix of ['', 'x', 'xx'])
      for (const width of [1, 2, 3, 7, 19, 60, 64, 76])
        for (const eol of ['\n', '\r\n'])
          for (const enc of [b64(prefix + secret), b64(prefix + secret).replace(/=+$/, ''), b64url(prefix + secret)]) caught(wrap(enc, width, eol));
    const hex = Buffer.from(secret).toString('hex');
    caught(wrap(hex, 60, '\n')); // xxd -p
    caught(hex.replace(/../g, ' $&').replace(/(( [0-9a-f]{2}){16})/g, '$1\n')); // od -An -tx1
    caught(hex.toUpperCase().replace(/../g, '$& ')); // spaced pairs
    caught(hex.replace(/..../g, '$&\t'));
  });

  test('escaped characters: %XX (lower, upper or mixed case, all or some characters), \\xXX, \\uXXXX, \\u{X}, &#N; and &#xX;', () => {
    const bytes = [...Buffer.from(secret)];
    const hex2 = (b: number) => b.toString(16).padStart(2, '0');
    caught(bytes.map((b) => `%${hex2(b)}`).join(''));
    caught(bytes.map((b) => `%${hex2(b).toUpperCase()}`).join(''));
    caught(bytes.map((b, i) => (i % 3 ? String.fromCharCode(b) : `%${i % 2 ? hex2(b) : hex2(b).toUpperCase()}`)).join(''));
    caught(bytes.map((b) => `\\x${hex2(b)}`).join(''));
    caught(bytes.map((b) => `\\u00${hex2(b)}`).join(''));
    caught(bytes.map((b) => `\\u{${b.toString(16)}}`).join(''));
    caught(bytes.map((b) => `&#${b};`).join(''));
    caught(bytes.map((b, i) => (i % 2 ? `&#x${hex2(b)};` : `%${hex2(b)}`)).join(''));
    // Escaped base64, wrapped in a JSON string, and the hex of an escaped text.
    caught(JSON.stringify(wrap(b64(`x${secret}`), 10, '\n')).slice(1, -1));
    caught(encodeURIComponent(wrap(b64(secret), 9, '\r\n')));
    // A secret of other characters, its UTF-8 bytes escaped one by one, or its code points.
    const word = createScrubber(['wörd-secret-ü']);
    const utf8 = [...Buffer.from('wörd-secret-ü')].map((b) => `%${b.toString(16)}`).join('');
    for (const t of [utf8, utf8.toUpperCase(), 'w\\u00f6rd-secret-\\u00fc', 'w&#246;rd-secret-&#xfc;']) {
      expect(word.contains(t)).toBe(true);
      expect(word.contains(Buffer.from(t))).toBe(true);
      expect(word.scrub(`a ${t} b`)).toBe(`a ${MASK} b`);
    }
  });

  test('characters that render as nothing between its characters (word joiner, zero-width space, soft hyphen, bidi mark, variation selector)', () => {
    for (const mark of ['\u2060', '\u200b', '\u00ad', '\u200e', '\ufe0f', '\u{e0020}']) {
      caught(secret.split('').join(mark));
      caught(secret.slice(0, 5) + mark + mark + secret.slice(5));
    }
    // As the loop makes agent text inert (a word joiner after '@' and '<'), for a secret holding them.
    const mailer = createScrubber(['mailer@Xq9v7Lk2Zr<x']);
    expect(mailer.scrub('pass mailer@\u2060Xq9v7Lk2Zr<\u2060x here')).toBe('pass *** here');
  });

  test('UTF-16 (little or big endian) of a secret of ASCII characters', () => {
    expect(s.contains(Buffer.from(secret, 'utf16le'))).toBe(true);
    expect(s.contains(Buffer.from(secret, 'utf16le').swap16())).toBe(true);
    expect(s.contains(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`key=${secret}\n`, 'utf16le')]))).toBe(true);
  });

  test('ordinary text, escapes and dumps stay as they are', () => {
    const texts = [
      'The quick brown fox jumps over the lazy dog.\r\nLine two\twith a tab.\n',
      'https://example.com/a%20b?q=%41%42%43&x=1 &amp; &#169; \\n \\x41 \\u00e9 \\u{1F600} &#x1F600; %zz \\x \\u12',
      `${b64('ordinary text that is not a secret at all')}\n${Buffer.from('another ordinary text').toString('hex').replace(/../g, '$& ')}`,
      'tokZq9Xv 7Lw3Pp2Rr8Ss', // the plain secret split by a space: not an encoding this scrubber knows
    ];
    for (const t of texts) {
      expect(s.scrub(t)).toBe(t);
      expect(s.contains(t)).toBe(false);
      expect(s.contains(Buffer.from(t))).toBe(false);
    }
  });

  test('a 20 MB file: plain at the end, wrapped base64 at the end, or nothing among millions of escapes (its time: npm run bench:scrubber)', () => {
    const pad = Buffer.alloc(20_000_000, 'a');
    expect(s.contains(Buffer.concat([pad, Buffer.from(`\n${secret}\n`)]))).toBe(true);
    expect(s.contains(Buffer.concat([pad, Buffer.from(`\n${wrap(b64(`xx${secret}`), 7, '\n')}`)]))).toBe(true);
    expect(s.contains(Buffer.from('%41\n'.repeat(5_000_000)))).toBe(false);
    expect(s.scrub('%41 '.repeat(1_000_000)).length).toBe(4_000_000);
  });
});

test('an input whose name only looks secret is not masked when its value is a short word (INPUT_KEY-PROXY: "true")', async () => {
  const { secretValues } = await import('../../src/engine/os/secrets.js');
  expect(secretValues({ 'INPUT_KEY-PROXY': 'true', 'INPUT_GITHUB-TOKEN': 'ghs_abcdefghijklmnop1234' })).toEqual(['ghs_abcdefghijklmnop1234']);
});

test("the loop's git setup variables (a push URL with its token) never reach the agent", async () => {
  const { agentEnvironment } = await import('../../src/engine/os/secrets.js');
  const env = agentEnvironment({
    GIT_CONFIG_COUNT: '1',
    GIT_CONFIG_KEY_0: 'url./bare.insteadOf',
    GIT_CONFIG_VALUE_0: 'https://x-access-token:ghs_tok@github.com/o/r',
    SSH_AUTH_SOCK: '/tmp/s',
    PATH: '/bin',
  });
  expect(env).toEqual({ PATH: '/bin' });
});
