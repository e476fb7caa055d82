// Hostile scripted agents after the loop's secrets, through the built CLI on real repositories, at
// every isolation level this machine gives the test process (as root: user+pidns and none):
// - the agent's environment is an allowlist: a credential in an innocently named variable of the
//   loop's environment (DATABASE_URL…) is not the agent's, so nothing carries it into a commit or the
//   evidence; agent.pass_env gives it on purpose (so the test can fail);
// - a descriptor the loop inherited open (a token on fd 200) is closed before anything starts;
// - the key proxy serves the agent's step alone: code the agent wrote with its placeholder and the
//   proxy's URL, run later by a criterion, never reaches the model API, while the agent's own call does.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkStateDir, CLI, cli, config, git, makeRepo, NORTHSTAR } from '../helpers/repo.js';
import { ISOLATION_LEVELS } from '../../src/engine/os/sandbox.js';
import { isolationFacts } from '../helpers/isolation.js';

const facts = await isolationFacts();
const LEVELS = ISOLATION_LEVELS.filter((l) => l === 'none' || (l === 'user+pidns' ? facts.userPidns : facts.pidns) === null);

const rot13 = (s: string) =>
  s.replace(/[a-z]/gi, (c) => String.fromCharCode(((c.toLowerCase().charCodeAt(0) - 97 + 13) % 26) + (c === c.toLowerCase() ? 97 : 65)));

/** Every file under `dir` as text (the evidence, the loop's state), with its path. */
async function allText(dir: string): Promise<string> {
  let out = '';
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  for (const e of entries) {
    const path = join(e.parentPath, e.name);
    if (e.isFile() && (await stat(path)).size < 8 * 1024 * 1024) out += `\n== ${path}\n${await readFile(path, 'utf8')}`;
  }
  return out;
}

const REPORT = `printf '%s' '{"tried":["x"],"claims":["done"],"failures":[],"open_questions":[],"can_further_iteration_help":false}' > "$PHUC_REPORT_FILE"`;

/**
 * Reads each credential variable the attacker found and writes it ROT13-encoded into the tree (no
 * form the scrubber knows: only withholding the variable stops it), its variable names too, and prints
 * its whole environment to its log.
 */
const ENV_AGENT = `#!/bin/sh
set -e
mkdir -p src
: > src/out.txt
for n in DATABASE_URL PGPASSWORD HTTPS_PROXY NPM_CONFIG__AUTH SENTRY_DSN SLACK_WEBHOOK_URL DOCKER_AUTH_CONFIG REDIS_URL; do
  v=$(printenv "$n" || true)
  if [ -n "$v" ]; then echo "has $n $(printf %s "$v" | tr A-Za-z N-ZA-Mn-za-m)" >> src/out.txt; else echo "lacks $n" >> src/out.txt; fi
done
env | cut -d= -f1 | sort | sed 's/^/name /' >> src/out.txt
env
${REPORT}
`;

describe.each(LEVELS)('isolation %s', (level) => {
  test("credentials in innocently named variables of the loop's environment never reach the agent; agent.pass_env gives them on purpose", async () => {
    const tag = randomBytes(6).toString('hex');
    const loopEnv: Record<string, string> = {
      DATABASE_URL: `postgres://admin:DbPw${tag}x@db.internal:5432/prod`,
      PGPASSWORD: `pgpw${tag}`,
      HTTPS_PROXY: `http://proxyuser:ProxyPw${tag}@proxy.invalid:3128`,
      NPM_CONFIG__AUTH: Buffer.from(`npmuser:NpmPw${tag}`).toString('base64'),
      SENTRY_DSN: `https://${tag}0123456789abcdef@o1.ingest.sentry.io/42`,
      SLACK_WEBHOOK_URL: `https://hooks.slack.com/services/T000/B000/Slack${tag}`,
      DOCKER_AUTH_CONFIG: `{"auths":{"x":{"auth":"Docker${tag}"}}}`,
      REDIS_URL: `redis://:RedisPw${tag}@cache:6379`,
    };
    const names = Object.keys(loopEnv);
    for (const pass of [null, ['DATABASE_URL', 'PGPASSWORD', 'SENTRY_*']]) {
      const repo = await makeRepo({
        'phuc-loop.yml': config({
          criteria: [{ id: 'wrote', run: 'test -s src/out.txt' }],
          agent: 'placeholder', // replaced below, once the repository's folder is known
          extra: 'budget:\n  max_iterations: 1\n',
        }),
        'NORTHSTAR.md': NORTHSTAR,
        'src/.keep': '',
      });
      // The agent's script beside the repository (its folder is 0755: every role reaches it).
      const script = join(repo, '..', 'env-agent.sh');
      await writeFile(script, ENV_AGENT, { mode: 0o755 });
      const yml = (await readFile(join(repo, 'phuc-loop.yml'), 'utf8')).replace(
        /^ {2}run: .*\n/m,
        `  run: ${JSON.stringify(`sh ${script}`)}\n  isolation: ${level}\n${pass ? `  pass_env: [${pass.join(', ')}]\n` : ''}`,
      );
      await writeFile(join(repo, 'phuc-loop.yml'), yml);
      await git(repo, 'commit', '-qam', 'config');

      const r = await cli(repo, ['run'], loopEnv);
      expect([r.code, r.stderr]).toEqual([0, expect.any(String)]);
      const out = await git(repo, 'show', 'HEAD:src/out.txt');
      const given = pass ? names.filter((n) => pass.some((p) => (p.endsWith('*') ? n.startsWith(p.slice(0, -1)) : n === p))) : [];
      expect(given).toEqual(pass ? ['DATABASE_URL', 'PGPASSWORD', 'SENTRY_DSN'] : []);
      // Where the agent has a network of its own, HTTPS_PROXY is the loop's gate (os/network.ts), never the loop's value.
      const gate = (n: string) => n === 'HTTPS_PROXY' && out.includes(`has ${n} ${rot13('http://127.0.0.1:')}`);
      for (const n of names) {
        expect([n, out.includes(`has ${n} ${rot13(loopEnv[n])}\n`)]).toEqual([n, given.includes(n)]);
        expect([n, out.includes(`lacks ${n}\n`)]).toEqual([n, !given.includes(n) && !gate(n)]);
        expect([n, out.includes(`name ${n}\n`)]).toEqual([n, given.includes(n) || gate(n)]);
      }
      // The allowlist still gives what the agent needs: its locale and the loop's PHUC_* variables.
      expect(out).toContain('name PHUC_REPORT_FILE\n');
      expect(out).toContain('name PATH\n');

      // Nowhere committed (any ref, any commit), nowhere in the evidence or the loop's state, nor on the console.
      const everything = [
        await git(repo, 'log', '-p', '--all'),
        await allText(join(repo, 'evidence')),
        await allText(join(repo, '.git', 'phuc-loop')),
        r.stdout,
        r.stderr,
      ].join('\n');
      expect(everything).toContain('lacks REDIS_URL'); // the places searched do hold the agent's output
      for (const n of names.filter((m) => !given.includes(m))) {
        expect([n, everything.includes(loopEnv[n])]).toEqual([n, false]);
        expect([n, everything.includes(rot13(loopEnv[n]))]).toEqual([n, false]);
      }
      // What was given and looks secret is masked in the agent's log: the URL's password, PGPASSWORD.
      if (pass) {
        const log = await allText(join(repo, 'evidence'));
        expect(log).toContain('DATABASE_URL=postgres://admin:***@db.internal:5432/prod');
        expect(log).not.toContain(`DbPw${tag}x`);
        expect(log).not.toContain(`pgpw${tag}`);
      }
      await rm(join(repo, '..'), { recursive: true, force: true });
    }
  }, 120_000);

  test('a descriptor the loop inherited (`phuc-loop run 200<token`) reaches neither the agent nor the checks', async () => {
    const token = `ghp_${randomBytes(18).toString('hex')}`;
    const dir = await mkdtemp(join(tmpdir(), 'phuc-fd-'));
    const secret = join(dir, 'token');
    await writeFile(secret, token, { mode: 0o600 });
    const state = await checkStateDir();
    // Every descriptor above 2 the process holds: its number, what it is, and what it reads (ROT13).
    const probe = (to: string) =>
      `for f in /proc/self/fd/*; do n=\${f##*/}; [ "$n" -gt 2 ] || continue; echo "fd $n $(readlink "$f") $(eval "head -c 200 <&$n" 2>/dev/null | tr A-Za-z N-ZA-Mn-za-m)"; done >> ${to}; echo probed >> ${to}`;
    const repo = await makeRepo({
      'phuc-loop.yml': config({
        criteria: [{ id: 'wrote', run: `${probe(join(state, 'check'))}; test -s src/out.txt` }],
        agent: `mkdir -p src; ${probe('src/out.txt')}; ${REPORT}`,
        writable: [state],
        extra: `budget:\n  max_iterations: 1\n`,
      }),
      'NORTHSTAR.md': NORTHSTAR,
      'src/.keep': '',
    });
    try {
      // bash (dash takes one digit) opens the token on descriptor 200 (past the range Node marks close-on-exec at start) and runs the CLI.
      const r = await new Promise<{ code: number | null; out: string }>((resolve) => {
        const child = spawn('/bin/bash', ['-c', `exec "$0" "$@" 200<${JSON.stringify(secret)}`, process.execPath, CLI, 'run', '--isolation', level], {
          cwd: repo,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        child.stdout.on('data', (d: Buffer) => (out += d.toString()));
        child.stderr.on('data', (d: Buffer) => (out += d.toString()));
        child.on('close', (code) => resolve({ code, out }));
      });
      expect(r).toEqual({ code: 0, out: expect.stringContaining('closed the file descriptor(s) 200') });
      const seen = [await git(repo, 'show', 'HEAD:src/out.txt'), await readFile(join(state, 'check'), 'utf8')];
      for (const text of seen) {
        expect(text).toContain('probed');
        expect(text).not.toContain(secret);
        expect(text).not.toContain(rot13(token));
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
      await rm(state, { recursive: true, force: true });
      await rm(join(repo, '..'), { recursive: true, force: true });
    }
  }, 120_000);

  test("the key proxy forwards the agent's own call; the same placeholder and URL, run by a criterion after the step, never reach the model API", async () => {
    const REAL = `sk-ant-api03-REAL${randomBytes(12).toString('hex')}`;
    const seen: { key: string | undefined; body: string }[] = [];
    const upstream = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        seen.push({ key: req.headers['x-api-key'] as string | undefined, body });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      });
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    try {
      const repo = await makeRepo({
        'phuc-loop.yml': config({
          // The baseline runs it before any step; after the agent, it runs the agent's code.
          criteria: [{ id: 'called', run: 'test -f src/call.sh && sh src/call.sh', agent_writes: true }],
          agent: 'placeholder',
          extra: 'budget:\n  max_iterations: 1\n',
        }),
        'NORTHSTAR.md': NORTHSTAR,
        'src/.keep': '',
      });
      // A stand-in of the claude CLI (agent.run replaces its executable): it answers --version, calls
      // the model API through the proxy itself, and leaves code with its placeholder and the proxy's
      // URL baked in for the checks to run.
      const script = join(repo, '..', 'claude-standin.sh');
      await writeFile(
        script,
        `#!/bin/sh
case "$1" in --version) echo "2.1.330 (stand-in)"; exit 0;; esac
mkdir -p src
printf 'own=%s\\n' "$(curl -s -o /dev/null -w '%{http_code}' -m 10 -H "x-api-key: $ANTHROPIC_API_KEY" -d '{"from":"agent"}' "$ANTHROPIC_BASE_URL/v1/messages")" > src/agent-call.txt
cat > src/call.sh <<EOF
echo "check-call=\\$(curl -s -o /dev/null -w '%{http_code}' -m 10 -H 'x-api-key: $ANTHROPIC_API_KEY' -d '{"from":"check"}' '$ANTHROPIC_BASE_URL/v1/messages')"
EOF
${REPORT}
echo '{"type":"result","subtype":"success","is_error":false,"total_cost_usd":0.01,"num_turns":1,"result":"done","usage":{"input_tokens":1,"output_tokens":1}}'
`,
        { mode: 0o755 },
      );
      const yml = (await readFile(join(repo, 'phuc-loop.yml'), 'utf8')).replace(
        /agent:\n {2}use: command\n {2}run: .*\n/,
        `agent:\n  use: claude\n  run: ${JSON.stringify(`sh ${script}`)}\n  isolation: ${level}\n  key_proxy: true\n`,
      );
      expect(yml).toContain('use: claude');
      await writeFile(join(repo, 'phuc-loop.yml'), yml);
      await git(repo, 'commit', '-qam', 'config');

      const r = await cli(repo, ['run'], { ANTHROPIC_API_KEY: REAL, ANTHROPIC_BASE_URL: upstreamUrl });
      expect([r.code, r.stderr]).toEqual([0, expect.any(String)]);
      // The agent's own call went through, with the real key put in by the proxy.
      expect(await git(repo, 'show', 'HEAD:src/agent-call.txt')).toBe('own=200\n');
      const call = await git(repo, 'show', 'HEAD:src/call.sh');
      expect(call).toMatch(/x-api-key: phuc-proxy-[0-9a-f]{48}/);
      expect(call).toMatch(/'http:\/\/127\.0\.0\.1:\d+\/v1\/messages'/);
      // The criterion did run the agent's code and did reach the proxy, which refused it.
      const evidence = await allText(join(repo, 'evidence'));
      // Where the checks have a network namespace of their own (loopback only) the proxy is not even
      // reachable (curl's 000); beside the loop it refuses outside a step (503).
      expect(evidence).toContain(level === 'none' ? 'check-call=503' : 'check-call=000');
      expect(evidence).not.toMatch(/check-call=200/);
      // The model API saw the agent's call alone, never one from the checks (nor the real key anywhere else).
      expect(seen).toEqual([{ key: REAL, body: '{"from":"agent"}' }]);
      expect([evidence, await git(repo, 'log', '-p', '--all'), r.stdout, r.stderr].join('\n')).not.toContain(REAL);
      await rm(join(repo, '..'), { recursive: true, force: true });
    } finally {
      upstream.closeAllConnections();
      await new Promise<void>((r) => upstream.close(() => r()));
    }
  }, 120_000);
});
