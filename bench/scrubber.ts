// Benchmark: the scrubber's cost on the texts the loop scrubs (agent logs, reports, files the agent
// wrote), per 100 KB and on a 20 MB file, and the usage scanner's on a CLI output of broken JSON
// lines (it must stay linear). Prints figures; asserts nothing.
//
//   npm run bench:scrubber
import { parseAgentUsage } from '../src/engine/agent/agents.js';
import { createScrubber } from '../src/engine/os/secrets.js';

const secret = 'tokZq9Xv7Lw3Pp2Rr8Ss';
const ten = Array.from({ length: 10 }, (_, i) => `sk-test-${i}-${'abcdefghijklmnopqrstuvwxyz'.slice(i)}${i * 7919}`);

function time(label: string, bytes: number, fn: () => unknown, rounds = 20): void {
  fn();
  const ms: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    fn();
    ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  const median = ms[Math.floor(ms.length / 2)];
  console.log(`${label.padEnd(58)} ${median.toFixed(2).padStart(9)} ms  (${((median * 100_000) / bytes).toFixed(3)} ms per 100 KB)`);
}

const many = createScrubber(ten);
const one = createScrubber([secret]);
const log = 'ordinary log line with words, numbers 12345 and {"json": true}\n'.repeat(1600);
const spaced = 'a b c d e f g h i j k l m n o p q r s t u v w x y z\n'.repeat(1900);
time('scrub 100 KB log, 10 secrets, none there', log.length, () => many.scrub(log), 50);
time('scrub 100 KB of whitespace-heavy text, 10 secrets', spaced.length, () => many.scrub(spaced), 50);
const pad = Buffer.alloc(20_000_000, 'a');
const big = Buffer.concat([pad, Buffer.from(`\n${secret}\n`)]);
time('contains: 20 MB file, the secret at the end', big.length, () => one.contains(big), 5);
const escapes = Buffer.from('%41\n'.repeat(5_000_000));
time('contains: 20 MB of %XX escapes, no secret', escapes.length, () => one.contains(escapes), 5);
const line = `{"type":"item.completed","item":{"text":"${'x'.repeat(200)}"}}\n`;
const broken = `{"type":"item.completed","item":{"text":"${'y'.repeat(200)}\n`;
const output = `${(line + broken).repeat(10_000)}{"cost_usd":1}`;
time('usage scan: 4 MB of CLI output, every other line broken', output.length, () => parseAgentUsage(output), 5);
