// The isolation levels this machine gives, for the tests that run at each. As root (as CI runs)
// user+pidns must be there: a probe that finds it missing fails the file with the probe's reason,
// rather than quietly leaving the strongest level untested.
import { probeIsolation, type IsolationFacts } from '../../src/engine/os/sandbox.js';

export async function isolationFacts(): Promise<IsolationFacts> {
  const facts = await probeIsolation();
  if (process.getuid?.() === 0 && facts.userPidns !== null) throw new Error(`user+pidns is not available on this root machine: ${facts.userPidns}`);
  return facts;
}
