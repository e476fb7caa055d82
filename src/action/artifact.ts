// Evidence across workflow runs: the post step uploads the evidence tree as one artifact per run,
// named after the PR (`<artifact-name>-pr-<number>`); the next run finds the newest one through the
// REST API, downloads it and extracts it (checked) into the evidence folder before the loop starts.
// @actions/artifact (with the Azure storage client) is loaded when an artifact is moved, not at start-up.
const artifactClient = async () => new (await import('@actions/artifact')).DefaultArtifactClient();
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { Octokit } from './github.js';
import type { RepoRef } from './pull-request.js';
import { extractZip } from './zip.js';
import { isTempFile } from '../engine/os/atomic-write.js';

export function artifactNameFor(base: string, pr: number): string {
  return `${base}-pr-${pr}`;
}

export interface PreviousArtifact {
  id: number;
  name: string;
  runId: number;
  headBranch: string | null;
  headSha: string | null;
  createdAt: string | null;
  digest: string | null;
  sizeInBytes: number;
}

interface RawArtifact {
  id: number;
  name: string;
  expired: boolean;
  size_in_bytes: number;
  created_at: string | null;
  digest?: string | null;
  workflow_run?: { id?: number; repository_id?: number; head_repository_id?: number; head_branch?: string; head_sha?: string } | null;
}

/**
 * The newest non-expired evidence artifact of this PR (one REST call). Artifacts of runs whose head
 * came from another repository (fork PR runs can upload under any name) are never trusted.
 */
export async function findPreviousEvidence(o: {
  octokit: Octokit;
  repo: RepoRef;
  name: string;
}): Promise<{ found: PreviousArtifact | null; skipped: string[] }> {
  const { data } = await o.octokit.rest.actions.listArtifactsForRepo({ ...o.repo, name: o.name, per_page: 100 });
  const skipped: string[] = [];
  const candidates = (data.artifacts as RawArtifact[])
    .filter((a) => a.name === o.name)
    .filter((a) => {
      if (a.expired) {
        skipped.push(`artifact ${a.id} has expired`);
        return false;
      }
      const run = a.workflow_run;
      if (run?.repository_id !== undefined && run.head_repository_id !== undefined && run.repository_id !== run.head_repository_id) {
        skipped.push(`artifact ${a.id} comes from a run on another repository's head (a fork): not trusted`);
        return false;
      }
      return true;
    })
    .sort((a, b) => (Date.parse(b.created_at ?? '') || 0) - (Date.parse(a.created_at ?? '') || 0) || b.id - a.id);
  const a = candidates[0];
  if (!a) return { found: null, skipped };
  return {
    found: {
      id: a.id,
      name: a.name,
      runId: a.workflow_run?.id ?? 0,
      headBranch: a.workflow_run?.head_branch ?? null,
      headSha: a.workflow_run?.head_sha ?? null,
      createdAt: a.created_at,
      digest: a.digest ?? null,
      sizeInBytes: a.size_in_bytes,
    },
    skipped,
  };
}

export class EvidenceDownloadError extends Error {}

/**
 * Downloads an artifact of an earlier run (one REST call, then the blob) and extracts it into
 * `target`, which is emptied first. The zip's digest is checked against the one GitHub recorded.
 */
export async function downloadEvidence(o: { artifact: PreviousArtifact; token: string; repo: RepoRef; target: string; tempDir: string }): Promise<string[]> {
  const scratch = await mkdtemp(join(o.tempDir, 'phuc-loop-restore-'));
  try {
    const client = await artifactClient();
    const r = await client
      .downloadArtifact(o.artifact.id, {
        path: scratch,
        skipDecompress: true,
        expectedHash: o.artifact.digest ?? undefined,
        findBy: { token: o.token, workflowRunId: o.artifact.runId, repositoryOwner: o.repo.owner, repositoryName: o.repo.repo },
      })
      .catch((e: unknown) => {
        throw new EvidenceDownloadError(`could not download artifact ${o.artifact.id}: ${(e as Error).message}`);
      });
    if (r.digestMismatch)
      throw new EvidenceDownloadError(`artifact ${o.artifact.id}: the downloaded bytes do not match the digest GitHub recorded (${o.artifact.digest})`);
    const files = await readdir(scratch);
    if (files.length !== 1) throw new EvidenceDownloadError(`artifact ${o.artifact.id}: expected one archive, got ${files.length} file(s)`);
    const zip = await readFile(join(scratch, files[0]));
    await rm(o.target, { recursive: true, force: true });
    try {
      return await extractZip(zip, o.target);
    } catch (e) {
      await rm(o.target, { recursive: true, force: true });
      throw new EvidenceDownloadError(`artifact ${o.artifact.id} cannot be extracted safely: ${(e as Error).message}`);
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** Files of the evidence tree worth uploading: everything but the run lock and half-written temp files. */
export async function evidenceFiles(root: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const e of await readdir(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) await walk(p);
      else if (e.isFile()) {
        const rel = relative(root, p);
        if (rel === 'run.lock' || isTempFile(rel)) continue;
        out.push(p);
      }
    }
  };
  if (
    await stat(root).then(
      (s) => s.isDirectory(),
      () => false,
    )
  )
    await walk(root);
  return out.sort();
}

export async function uploadEvidence(o: { root: string; name: string; retentionDays: number; files: string[] }): Promise<{ id: number; size: number }> {
  const r = await (await artifactClient()).uploadArtifact(o.name, o.files, o.root, { retentionDays: o.retentionDays });
  if (!r.id) throw new Error(`the artifact service returned no id for ${o.name}`);
  return { id: r.id, size: r.size ?? 0 };
}

export function artifactUrl(serverUrl: string, repo: RepoRef, runId: number, id: number): string {
  return `${serverUrl}/${repo.owner}/${repo.repo}/actions/runs/${runId}/artifacts/${id}`;
}
