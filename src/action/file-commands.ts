// The few runner commands the main step writes before the run starts, without @actions/core (which
// loads undici: ~0.4 s of CPU): the inputs (INPUT_<NAME>), the outputs (GITHUB_OUTPUT) and the step's
// failure (::error::). A refusal of bad inputs needs nothing else (bench/startup.ts measures it); the
// run itself sets its outputs through here too, so both write them the same way.
import { randomUUID } from 'node:crypto';
import { appendFileSync } from 'node:fs';

/** An input as the runner passes it: INPUT_<NAME>, upper-cased, spaces to `_`; undefined when unset. */
export const input = (name: string): string | undefined => process.env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`];

/** A workflow command's data, escaped as the runner reads it back. */
const escapeData = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');

/** A step output: GITHUB_OUTPUT's heredoc form (a fresh delimiter the value cannot hold), else the old ::set-output. */
export function setOutput(name: string, value: string): void {
  const file = process.env['GITHUB_OUTPUT'];
  if (!file) {
    process.stdout.write(`\n::set-output name=${name}::${escapeData(value)}\n`);
    return;
  }
  const delimiter = `ghadelimiter_${randomUUID()}`;
  if (name.includes(delimiter) || value.includes(delimiter)) throw new Error(`output ${name}: the value holds its delimiter`);
  appendFileSync(file, `${name}<<${delimiter}\n${value}\n${delimiter}\n`);
}

/** Fails the step: an error annotation and exit code 1 (the caller may set a more precise one). */
export function setFailed(message: string): void {
  process.exitCode = 1;
  process.stdout.write(`::error::${escapeData(message)}\n`);
}
