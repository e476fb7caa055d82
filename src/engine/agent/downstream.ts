// The downstreams an agent step depends on that the loop can probe itself (seed §9.1
// `downstream_dependency_unavailable`): the model API the key proxy forwards to (api-probe.ts). An
// agent step that failed is followed by a re-probe of each: one that cannot be reached makes the
// failure a pause (BACKPRESSURE), whatever the agent printed. The agent's output is untrusted and
// never decides it: an agent that prints "503 Service Unavailable" while its API answers the probe
// failed, and a real outage is found even when the CLI says something else.
import { probeModelApi } from './api-probe.js';

export interface Downstream {
  /** What it is, as the pause names it ("the model API https://api.anthropic.com"). */
  what: string;
  /** Null when it answers; else why not, in the network's words. */
  probe(): Promise<string | null>;
}

export const modelApiDownstream = (upstream: URL): Downstream => ({ what: `the model API ${upstream.origin}`, probe: () => probeModelApi(upstream) });

/** The first downstream (in order) that does not answer its probe, and why; all are probed at once. */
export async function firstUnreachable(downstreams: readonly Downstream[]): Promise<{ what: string; why: string } | null> {
  const whys = await Promise.all(downstreams.map((d) => d.probe()));
  const i = whys.findIndex((w) => w !== null);
  return i < 0 ? null : { what: downstreams[i].what, why: whys[i]! };
}
