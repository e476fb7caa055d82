// Before any iteration is spent: the agent's programs within its view, its CLI answering as the
// agent user, and the model API reachable through the key proxy (a pause when it is not).
import { type Isolation, Sandbox } from '../os/sandbox.js';
import type { RunSpec } from '../os/ports.js';
import { cliVersion } from '../agent/agents.js';
import { probeModelApi } from '../agent/api-probe.js';
import { type KeyProxyOptions, keyProxyBaseUrlVar } from '../agent/key-proxy.js';
import { type Intake } from '../config/intake.js';
import { type LoopOptions, type LoopOutcome } from './options.js';
import { downstreamUnavailable } from '../run/decide.js';
import { needInfo, pausedEarly } from './halt.js';
import { programsOutOfView } from './out-of-view.js';
import { unmeasuredWarnings } from '../config/measured.js';

/** The agent CLI's version, or the outcome that ends the run before its record is touched. */
export async function preflight(
  o: LoopOptions,
  got: Intake,
  sandbox: Sandbox,
  iso: Isolation,
  cwd: string,
  target: KeyProxyOptions | null,
): Promise<{ version: string | null } | { outcome: LoopOutcome }> {
  const preset = got.config.agent.use;
  const unseen = await programsOutOfView(got.config, sandbox, cwd);
  if (unseen.messages.length) return { outcome: needInfo({ stop_reason: 'CONFIG_INVALID', missing_fields: unseen.fields, messages: unseen.messages }, o) };
  // Pre-flight: the agent CLI must start as the agent user before any iteration is spent on it.
  const asAgent = { run: async (spec: RunSpec) => o.runner.run(await sandbox.wrap({ ...spec, env: {} }, 'agent')) };
  const [version, unreachable] = await Promise.all([
    cliVersion(preset, asAgent, { run: got.config.agent.run, env: {}, cwd }),
    target ? probeModelApi(target.upstream) : null,
  ]);
  if (unreachable) {
    // A pause, not a verdict: nothing is judged or spent, and a plain `run` starts here again.
    const why = downstreamUnavailable(
      `the model API ${target!.upstream.origin}`,
      `it cannot be reached from here (${unreachable}): check the network, a proxy or the base URL (${keyProxyBaseUrlVar(target!.provider)}), then \`phuc-loop run\` goes on`,
    );
    o.log.error(why);
    return { outcome: pausedEarly(why) };
  }
  if (preset !== 'command' && version === null)
    return {
      outcome: needInfo(
        {
          stop_reason: 'CONFIG_INVALID',
          missing_fields: ['agent.use'],
          messages: [
            `agent.use: the ${preset} CLI did not answer \`${got.config.agent.run ?? preset} --version\` as the agent user (isolation ${iso.level}): install it where that user can run it, or set agent.run`,
          ],
        },
        o,
      ),
    };
  for (const w of unmeasuredWarnings(preset, got.budget.explicit)) o.log.warn(w);
  return { version };
}
