// The post step (post-if: always()): uploads the evidence tree as this run's artifact — also when the
// main step failed or was cancelled — and links it from the PR comment. Only here: an artifact name
// can be uploaded once per run, so main never uploads.
import * as core from '@actions/core';
import * as github from '@actions/github';
import { readFile, writeFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { artifactUrl, evidenceFiles, uploadEvidence } from './artifact.js';
import { CommentPublisher, withArtifactLink } from './comment.js';
import { createClient } from './github.js';
import { Scrubber } from './scrub.js';
import { readPostState } from './state.js';
import { writeSummary } from './summary.js';

/** The post step; never rejects. */
export async function run(): Promise<void> {
  try {
    await post();
  } catch (e) {
    core.setFailed(`phuc-loop post step crashed: ${(e as Error)?.stack ?? String(e)}`);
  }
}

async function post(): Promise<void> {
  const state = readPostState();
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
  for (const name of ['GITHUB_TOKEN', 'GH_TOKEN', 'ACTIONS_RUNTIME_TOKEN', 'ACTIONS_ID_TOKEN_REQUEST_TOKEN']) scrubber.add(process.env[name]);

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
    core.info(`phuc-loop: evidence uploaded as ${state.artifactName} (id ${uploaded.id}, ${files.length} files, ${uploaded.size} bytes, kept ${state.retentionDays} days): ${url}`);
    await writeSummary(`\n> Evidence artifact: [\`${state.artifactName}\`](${url}) — ${files.length} files, kept ${state.retentionDays} days. The next run of this pull request continues from it.\n`);
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
        knownId: state.commentMode === 'per-iteration' ? null : state.commentId,
        warn: (m) => core.warning(`phuc-loop: ${m}`),
        scrub: (t) => scrubber.scrub(t),
      });
      await comments.publish(url ? withArtifactLink(body, state.artifactName, url) : body);
    }
  }
}
