// `phuc-loop verify`: re-checks an evidence tree with nothing but the tree — every sha256 in the
// manifest, no file outside it, the certificate hash chain, every evidence link, the Triangle and
// the Phuc Test, and that a converged report is backed by its certificate.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { checkTriangle, iterDir, phucTest } from './audit.js';
import { sha256 } from './canonical.js';
import { convergenceClaimProblem, type Certificate } from './certificate.js';
import { seedChecksum } from './decimal.js';
import { EvidenceStore, isIterationManifest, listFiles, MANIFEST, NOT_EVIDENCE, type Manifest } from './evidence.js';

export interface VerifyResult {
  ok: boolean;
  problems: string[];
  /** Files of an iteration that was cut off before its manifest was written (resume removes them). */
  openTail: string[];
  iterations: number[];
}

export interface VerifyOptions {
  /** Tolerate files of the one unfinished iteration after the last recorded one (crash recovery). */
  allowOpenTail?: boolean;
  /** Check against this manifest instead of manifest.json (the loop's own in-memory view). */
  manifest?: Manifest;
}

export async function verifyTree(root: string, opts: VerifyOptions = {}): Promise<VerifyResult> {
  const problems: string[] = [];
  const openTail: string[] = [];
  let manifest = opts.manifest;
  if (!manifest) {
    const text = await readFile(join(root, MANIFEST), 'utf8').catch(() => null);
    if (text === null) return { ok: false, problems: [`no ${MANIFEST} in ${root}`], openTail, iterations: [] };
    try {
      manifest = JSON.parse(text) as Manifest;
    } catch (e) {
      return { ok: false, problems: [`${MANIFEST} is not JSON: ${(e as Error).message}`], openTail, iterations: [] };
    }
  }
  const files = [...manifest.files];
  // Iteration manifests (listed in the root with their sha256) list that iteration's files.
  if (!opts.manifest)
    for (const e of manifest.files.filter((f) => isIterationManifest(f.path))) {
      const text = await readFile(join(root, e.path), 'utf8').catch(() => null);
      if (text === null || sha256(text) !== e.sha256) continue; // reported below with every listed file
      try {
        files.push(...(JSON.parse(text) as Manifest).files.filter((f) => f.path.startsWith(e.path.slice(0, e.path.indexOf('/') + 1))));
      } catch {
        problems.push(`${e.path}: not JSON`);
      }
    }
  const recorded = new Map(files.map((f) => [f.path, f]));
  for (const f of files) {
    const data = await readFile(join(root, f.path)).catch(() => null);
    if (data === null) problems.push(`${f.path}: listed in the manifest but missing`);
    else if (sha256(data) !== f.sha256) problems.push(`${f.path}: sha256 differs from the manifest (the file was edited)`);
    else if (data.byteLength !== f.bytes) problems.push(`${f.path}: size differs from the manifest`);
  }
  const onDisk = (await listFiles(root)).filter((f) => f !== MANIFEST && !NOT_EVIDENCE.has(f) && !/\.tmp-\d+-\d+$/.test(f));
  const ev = new EvidenceStore(root);
  const state = recorded.has('state.json') ? await ev.readJson<{ next_iteration: number }>('state.json') : null;
  for (const f of onDisk) {
    if (recorded.has(f)) continue;
    if (opts.allowOpenTail && state && f.startsWith(`${iterDir(state.next_iteration)}/`)) openTail.push(f);
    else problems.push(`${f}: not in the manifest (added after the loop wrote it)`);
  }

  const iterations = [...new Set(files.map((f) => /^iter_(\d+)\/certificate\.json$/.exec(f.path)?.[1]).filter((x): x is string => !!x).map(Number))].sort((a, b) => a - b);
  let previous: string | null = null;
  let finalCert: Certificate | null = null;
  for (const n of iterations) {
    const rel = `${iterDir(n)}/certificate.json`;
    const text = (await ev.readText(rel)) ?? '';
    let cert: Certificate;
    try {
      cert = JSON.parse(text) as Certificate;
    } catch {
      problems.push(`${rel}: not JSON`);
      continue;
    }
    if (cert.previous_certificate_sha256 !== previous)
      problems.push(`${rel}: hash chain broken (previous_certificate_sha256 ${cert.previous_certificate_sha256} ≠ ${previous})`);
    for (const c of cert.checklist ?? []) {
      const [path, hash] = c.evidence.split('#');
      if (recorded.get(path)?.sha256 !== hash) problems.push(`${rel}: evidence link ${c.evidence} does not resolve`);
    }
    if (cert.type === 'EXACT' || cert.type === 'CONVERGED') {
      const claim = convergenceClaimProblem(cert);
      if (claim) problems.push(`${rel}: ${claim}`);
    }
    previous = sha256(text);
    finalCert = cert;
  }

  const report = recorded.has('halting_report.json')
    ? await ev.readJson<{ status: string; verification_rung_achieved: number; verification_rung_target: number | null; iterations: number[] }>('halting_report.json')
    : null;
  const hasPlan = recorded.has('plan.json');
  if (!report && !opts.allowOpenTail) problems.push('no halting_report.json');
  if (hasPlan) {
    const triangle = await checkTriangle(ev, iterations);
    if (triangle.triangle_vertex_missing !== 'none') problems.push(`Triangle Law: ${triangle.triangle_vertex_missing} vertex missing`);
    const converged = report?.status === 'EXIT_CONVERGED';
    const phuc = await phucTest(ev, iterations, {
      hostPaths: [],
      converged,
      rungTarget: report?.verification_rung_target ?? 0,
      rungAchieved: report?.verification_rung_achieved ?? 0,
    });
    if (!phuc.pass) problems.push(...phuc.failures);
    if (converged) {
      const claim = convergenceClaimProblem(finalCert);
      if (claim) problems.push(`EXIT_CONVERGED without a valid certificate: ${claim}`);
    }
  } else if (report && report.status !== 'EXIT_NEED_INFO' && report.status !== 'EXIT_BLOCKED') {
    problems.push('no plan.json (REMIND vertex) for a loop that ran');
  }
  if (!seedChecksum().verified) problems.push('seed checksum 641 × 274177 × 65537 ≠ 11517961089409');
  return { ok: problems.length === 0, problems, openTail, iterations };
}
