// The post step (post-if: always()): uploads the evidence tree as this run's artifact — also when the
// main step failed or was cancelled — and links it from the PR comment. Only here: an artifact name
// can be uploaded once per run, so main never uploads.
import * as core from '@actions/core';
import * as github from '@actions/github';
import { readFile, writeFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { EvidenceUnverifiable } from '../engine/common/errors.js';
import { artifactUrl, evidenceFiles, uploadEvidence } from './artifact.js';
import { CommentPublisher, withArtifactLink } from './comment.js';
import { createClient, errorText, retryBaseMs } from './github.js';
import { Scrubber } from './scrub.js';
import { readPostState } from './state.js';
import { writeSummary } from './job-summary.js';

/**
 * The main step ended before the engine published its evidence (a second signal aborted it, or the
 * runner killed it): the loop's private tree is the newest, and it is what the next run continues
 * from. Its files are written atomically by the loop (its logs appended to): it is published whole, as the
 * engine does at its end.
 */
async function publishLeftEvidence(checkout: string, evidenceDir: string): Promise<void> {
  try {
    // Only after a main step that was killed: the engine's modules load then, not on every post step.
    const [{ EvidenceStore }, { loopHome }, { cutLogTails }, { publishEvidence }, { Git }, { NodeProcessRunner }] = await Promise.all([
      import('../engine/store/evidence.js'),
      import('../engine/loop/home.js'),
      import('../engine/store/log-tails.js'),
      import('../engine/loop/publish.js'),
      import('../engine/os/git.js'),
      import('../engine/os/process.js'),
    ]);
    const git = new Git(new NodeProcessRunner(), checkout, { PATH: process.env['PATH'], HOME: process.env['HOME'] });
    const home = await loopHome(git, relative(checkout, evidenceDir));
    const ev = new EvidenceStore(home.evidence);
    // A line cut off mid-append would make the published tree (the artifact the next job restores) fail to verify.
    await cutLogTails(ev);
    await publishEvidence(ev, evidenceDir, checkout);
    core.info(`phuc-loop: the main step ended before publishing its evidence; published the loop's own tree to ${evidenceDir}`);
  } catch (e) {
    core.warning(`phuc-loop: could not publish the loop's own evidence tree: ${(e as Error).message}`);
  }
}

/** The post step; never rejects. */
export async function run(): Promise<void> {
  try {
    await post();
  } catch (e) {
    core.setFailed(`phuc-loop post step crashed: ${errorText(e)}`);
  }
}

async function post(): Promise<void> {
  let state;
  try {
    state = readPostState();
  } catch (e) {
    if (!(e instanceof EvidenceUnverifiable)) throw e;
    // Not guessed at: a wrong evidence folder or artifact name would upload (or publish) the wrong files.
    core.setFailed(`phuc-loop: the state the main step saved does not parse (${e.message}); nothing is uploaded`);
    return;
  }
  if (!state) {
    core.info('phuc-loop: the main step did not get as far as the evidence; nothing to upload');
    return;
  }
  if (!state.upload) {
    core.info('phuc-loop: no evidence of this run to upload (the loop did not start, or the restored tree did not verify and stays as it was)');
    return;
  }
  const scrubber = new Scrubber();
  const token = core.getInput('github-token');
  scrubber.add(token);
  scrubber.addEnv(process.env);

  if (!state.loopEnded && state.checkout) await publishLeftEvidence(state.checkout, state.evidenceDir);
  const files = await evidenceFiles(state.evidenceDir);
  if (files.length === 0) {
    core.info(`phuc-loop: ${state.evidenceDir} is empty; nothing to upload`);
    return;
  }
  // Last line of defence: the engine scrubs what it writes; a secret that still got into a file is
  // replaced here (that file then fails verification on the next run, which says so) — it never leaves.
  for (const f of files) {
    const data = await readFile(f);
    if (scrubber.contains(data)) {
      await writeFile(f, scrubber.scrub(data.toString('utf8')));
      core.warning(`phuc-loop: ${relative(state.evidenceDir, f)} contained a secret value; it was scrubbed before the upload (the tree will not verify)`);
    }
  }

  const ctx = github.context;
  let url: string | null = null;
  try {
    const uploaded = await uploadEvidence({ root: state.evidenceDir, name: state.artifactName, retentionDays: state.retentionDays, files });
    url = artifactUrl(ctx.serverUrl, ctx.repo, ctx.runId, uploaded.id);
    core.setOutput('artifact-id', String(uploaded.id));
    core.info(
      `phuc-loop: evidence uploaded as ${state.artifactName} (id ${uploaded.id}, ${files.length} files, ${uploaded.size} bytes, kept ${state.retentionDays} days): ${url}`,
    );
    await writeSummary(
      `\n> Evidence artifact: [\`${state.artifactName}\`](${url}) — ${files.length} files, kept ${state.retentionDays} days. The next run of this pull request continues from it.\n`,
    );
  } catch (e) {
    core.setFailed(`phuc-loop: could not upload the evidence artifact ${state.artifactName}: ${(e as Error).message}`);
  }

  // The comment's final state (written by main) goes out now, with the artifact link: one call.
  if (state.commentMode !== 'off' && state.commentFile && state.pullRequest) {
    const body = await readFile(state.commentFile, 'utf8').catch(() => null);
    if (body) {
      const comments = new CommentPublisher({
        octokit: createClient(token).octokit,
        repo: ctx.repo,
        issue: state.pullRequest,
        mode: state.commentMode === 'per-iteration' ? 'per-iteration' : 'sticky',
        retryBaseMs: retryBaseMs(),
        knownId: state.commentMode === 'per-iteration' ? null : state.commentId,
        warn: (m) => core.warning(`phuc-loop: ${m}`),
        scrub: (t) => scrubber.scrub(t),
      });
      await comments.publish(url ? withArtifactLink(body, state.artifactName, url) : body);
    }
  }
}
