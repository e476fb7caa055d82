// The Action as the runner starts it (root here and on CI): the agent runs as the unprivileged
// user phuc-agent in its own PID namespace and finds the loop's token nowhere it can read.
import type { GitHubEmulator } from '../harness/github-emulator.js';
import { debugJob, e2eAgent, loopFiles, runJob, scenario, useEmulator } from './helpers.js';

let gh: GitHubEmulator;
useEmulator((g) => (gh = g));
test('the agent runs as phuc-agent in its own PID namespace with no token in its reach; the certificate records the isolation', async () => {
  const s = await scenario(gh, 31, loopFiles(e2eAgent('prober.mjs'), { criteria: 1 }));
  const job = await runJob(s, {});
  if (job.main.exitCode !== 0) throw new Error(debugJob(job));
  expect(job.main.stdout).toMatch(/isolation: user\+pidns/);
  const artifact = gh.listArtifacts({ runId: job.run.id })[0];
  const files = gh.artifactFiles(artifact.id);
  const log = files.get('iter_0/agent.log')!.toString();
  expect(log).toMatch(/prober: user phuc-agent \(uid \d+\); token found: no; processes visible: [1-9]\b/);
  expect(JSON.parse(files.get('iter_0/certificate.json')!.toString())).toMatchObject({ isolation: 'user+pidns', workspace: 'clean' });
  expect(job.main.summary).toMatch(/isolation user\+pidns/);
});
