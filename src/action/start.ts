// The main step up to its run: the inputs read and checked with nothing but the runner's file
// commands (file-commands.ts). Bad inputs are refused here, before @actions/core, the toolkit and the
// engine load (bench/startup.ts measures it); run.ts, loaded once the inputs are valid, brings them.
import { EXIT_CODES } from '../engine/run/fsm.js';
import { setFailed } from './file-commands.js';
import { InputError, readInputs, type ActionInputs } from './inputs.js';
import { setOutputs } from './outputs.js';

/** Never rejects: a bad input is EXIT_NEED_INFO(INVALID_INPUT), anything else a crash (exit code 1). */
export async function start(): Promise<void> {
  let inputs: ActionInputs;
  try {
    inputs = readInputs();
  } catch (e) {
    if (!(e instanceof InputError)) {
      setFailed(`phuc-loop crashed: ${e instanceof Error ? e.message : String(e)}`);
      process.exitCode = EXIT_CODES.CRASH;
      return;
    }
    // No secret is registered yet: the message names secret inputs without their values (inputs.ts).
    setOutputs({ status: 'EXIT_NEED_INFO', 'stop-reason': 'INVALID_INPUT', certificate: 'NONE', iterations: '0' }, (s) => s);
    setFailed(`phuc-loop: ${e.message}`);
    process.exitCode = EXIT_CODES.EXIT_NEED_INFO;
    return;
  }
  const { run } = await import('./run.js');
  await run(inputs);
}
