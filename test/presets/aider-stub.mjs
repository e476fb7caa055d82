#!/usr/bin/env node
// A stand-in for the aider executable (aider is not on npm): it records its argv, parses it the way
// aider's argparse does for the options the preset uses, and behaves like aider with --yes-always:
// it edits the planted bug, writes the report only into a file it was given with --file (aider reads
// no environment variables and runs no shell unasked), prints aider's usage lines, and exits 0 —
// also after an API error, as aider does (STUB_AIDER_MODE=auth-error).
import { appendFileSync, existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

const argv = process.argv.slice(2);
if (process.env.STUB_AIDER_ARGV) writeFileSync(process.env.STUB_AIDER_ARGV, argv.map((a) => `${a}\0`).join(''));
if (argv[0] === '--version') {
  console.log('aider 0.86.1');
  process.exit(0);
}

// argparse: options with one value, flags, and --file appending; an unknown option is exit 2.
const VALUED = new Set(['--message-file', '--file', '--model', '--input-history-file', '--chat-history-file', '--read']);
const FLAGS = new Set([
  '--yes-always',
  '--no-check-update',
  '--no-show-release-notes',
  '--no-analytics',
  '--no-pretty',
  '--no-gitignore',
  '--no-auto-commits',
  '--no-dirty-commits',
  '--auto-commits',
]);
const opts = { files: [] };
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (VALUED.has(a)) {
    const v = argv[++i];
    if (v === undefined) fail(`argument ${a}: expected one argument`);
    if (a === '--file') opts.files.push(v);
    else opts[a] = v;
  } else if (!FLAGS.has(a)) fail(`unrecognized arguments: ${a}`);
}
if (!opts['--message-file'] || !existsSync(opts['--message-file'])) fail('--message-file is missing or unreadable');

function fail(message) {
  console.error(`usage: aider [-h] ...\naider: error: ${message}`);
  process.exit(2);
}

const message = readFileSync(opts['--message-file'], 'utf8');
// aider's repo-map cache, written into the repository on every run.
mkdirSync('.aider.tags.cache.v4', { recursive: true });
writeFileSync('.aider.tags.cache.v4/cache.db', '');
console.log('Aider v0.86.1');
console.log(`Model: ${opts['--model'] ?? 'sonnet'} with diff edit format`);
for (const f of opts.files) {
  if (!existsSync(f)) {
    mkdirSync(dirname(f), { recursive: true });
    writeFileSync(f, '');
    console.log(`Creating empty file ${f}`);
  }
  console.log(`Added ${f} to the chat.`);
}

if (process.env.STUB_AIDER_MODE === 'auth-error') {
  console.log('litellm.AuthenticationError: AnthropicException - {"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}');
  console.log('The API provider is not able to authenticate you. Check your API key.');
  process.exit(0);
}

if (!message.includes('sum')) fail('the prompt does not mention the task');
writeFileSync('src/sum.mjs', readFileSync('src/sum.mjs', 'utf8').replace('a - b', 'a + b'));
console.log('Applied edit to src/sum.mjs');
for (const f of opts.files)
  if (f.endsWith('report.json')) {
    appendFileSync(
      f,
      JSON.stringify({ tried: ['replaced a - b with a + b'], claims: [], failures: [], open_questions: [], can_further_iteration_help: false }),
    );
    console.log(`Applied edit to ${f}`);
  }
console.log('Tokens: 2.4k sent, 1.5k cache hit, 95 received. Cost: $0.0042 message, $0.0042 session.');
