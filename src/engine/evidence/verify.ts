// `phuc-loop verify`: re-checks an evidence tree with nothing but the tree — every sha256 in the
// manifest, no file outside it, the certificate hash chain, every evidence link, the Triangle and
// the Phuc Test, and that a converged report is backed by its certificate.
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { join } from 'node:path';
import { checkTriangle, phucTest } from './audit.js';
import { iterDir } from '../store/evidence.js';
import { sha256 } from '../common/canonical.js';
import { certificateSchema, convergenceClaimProblem, type Certificate } from '../judge/certificate.js';
import { planSchema } from '../config/plan.js';
import { artifactsSchema } from '../agent/collect.js';
import { parseDocument } from '../common/document.js';
import { EvidenceUnverifiable } from '../common/errors.js';
import { stateSchema } from './state.js';
import { seedChecksum } from '../common/decimal.js';
import { APPEND_ONLY_LOGS, EvidenceStore, isIterationManifest, listFiles, MANIFEST, manifestSchema, NOT_EVIDENCE, type Manifest } from '../store/evidence.js';
import { isTempFile } from '../os/atomic-write.js';
import { hasLogTail, type LogTail } from '../store/log-tails.js';
import { historyLineSchema } from './state.js';
import { haltingReportSchema } from './report-schema.js';

export interface VerifyResult {
  ok: boolean;
  problems: string[];
  /** Files of an iteration that was cut off before its manifest was written (resume removes them). */
  openTail: string[];
  /** Append-only logs holding lines past what the manifest records (resume cuts them off at `bytes`). */
  logTails: LogTail[];
  /** Files on disk no manifest lists (each is also a problem). */
  unlisted?: string[];
  iterations: number[];
  /** The certificate the run halted on (see haltingCertificate), else the last iteration's, when the tree has one. */
  certificate?: Certificate | null;
  /** How the run ended, as its halting report says: a certificate is a claim only when it converged. */
  halted?: { status: string; stop_reason: string | null } | null;
}

export interface VerifyOptions {
  /** Tolerate files of the one unfinished iteration after the last recorded one (crash recovery). */
  allowOpenTail?: boolean;
  /**
   * Tolerate lines past the manifest in the append-only logs (a run killed mid-append): only for the
   * loop's own tree, out of the agent's reach; in a published tree such lines may be anyone's.
   */
  allowLogTails?: boolean;
  /** Check against this manifest instead of manifest.json (the loop's own in-memory view). */
  manifest?: Manifest;
}

export async function verifyTree(root: string, opts: VerifyOptions = {}): Promise<VerifyResult> {
  const problems: string[] = [];
  const openTail: string[] = [];
  const logTails: VerifyResult['logTails'] = [];
  let manifest = opts.manifest;
  if (!manifest) {
    const text = await readFile(join(root, MANIFEST), 'utf8').catch(() => null);
    if (text === null) return { ok: false, problems: [`no ${MANIFEST} in ${root}`], openTail, logTails, iterations: [] };
    try {
      manifest = parseDocument(MANIFEST, text, manifestSchema);
    } catch (e) {
      return { ok: false, problems: [unparsed(e)], openTail, logTails, iterations: [] };
    }
  }
  const files = [...manifest.files];
  // Iteration manifests (listed in the root with their sha256) list that iteration's files.
  if (!opts.manifest)
    for (const e of manifest.files.filter((f) => isIterationManifest(f.path))) {
      const text = await readFile(join(root, e.path), 'utf8').catch(() => null);
      if (text === null || sha256(text) !== e.sha256) continue; // reported below with every listed file
      try {
        files.push(...parseDocument(e.path, text, manifestSchema).files.filter((f) => f.path.startsWith(e.path.slice(0, e.path.indexOf('/') + 1))));
      } catch (err) {
        problems.push(unparsed(err));
      }
    }
  const recorded = new Map(files.map((f) => [f.path, f]));
  const ev = new EvidenceStore(root);
  // Every document the loop reads back parses by its schema; a problem names the file and the field.
  const doc = <S extends z.ZodType>(rel: string, schema: S) =>
    recorded.has(rel)
      ? ev.readJson(rel, schema).catch((e: unknown) => {
          problems.push(unparsed(e));
          return null;
        })
      : Promise.resolve(null);
  const state = await doc('state.json', stateSchema);
  // The unfinished iteration (redone on resume), or the judgement of HEAD a resumed run was cut off
  // in: files of an attempt paused before are rewritten there, and no certificate rests on them.
  const inOpenTail = (f: string) =>
    !!opts.allowOpenTail && !!state && (f.startsWith(`${iterDir(state.next_iteration)}/`) || f.startsWith(`resume_${state.next_iteration}/`));
  for (const f of files) {
    if (inOpenTail(f.path) && !isIterationManifest(f.path)) {
      const data = await readFile(join(root, f.path)).catch(() => null);
      if (data === null || sha256(data) !== f.sha256) openTail.push(f.path);
      continue;
    }
    const data = await readFile(join(root, f.path)).catch(() => null);
    if (data === null) problems.push(`${f.path}: listed in the manifest but missing`);
    else if (hasLogTail(f, data)) {
      if (opts.allowLogTails) logTails.push({ path: f.path, bytes: f.bytes });
      else problems.push(`${f.path}: holds lines past what the manifest records (appended since the loop wrote it, or a run cut off while appending)`);
    } else if (sha256(data) !== f.sha256) problems.push(`${f.path}: sha256 differs from the manifest (the file was edited)`);
    else if (data.byteLength !== f.bytes) problems.push(`${f.path}: size differs from the manifest`);
  }
  const unlisted: string[] = [];
  const onDisk = (await listFiles(root)).filter((f) => f !== MANIFEST && !NOT_EVIDENCE.has(f) && !isTempFile(f));
  for (const f of onDisk) {
    if (recorded.has(f)) continue;
    // A log first written by an iteration cut off before its manifest: nothing of it is on record.
    if (inOpenTail(f) || (opts.allowLogTails && APPEND_ONLY_LOGS.has(f))) openTail.push(f);
    else {
      problems.push(`${f}: not in the manifest (added after the loop wrote it)`);
      unlisted.push(f);
    }
  }

  const iterations = [
    ...new Set(
      files
        .map((f) => /^iter_(\d+)\/certificate\.json$/.exec(f.path)?.[1])
        .filter((x): x is string => !!x)
        .map(Number),
    ),
  ].sort((a, b) => a - b);
  let previous: string | null = null;
  let finalCert: Certificate | null = null;
  for (const n of iterations) {
    const rel = `${iterDir(n)}/certificate.json`;
    const text = (await ev.readText(rel)) ?? '';
    let cert: Certificate;
    try {
      cert = parseDocument(rel, text, certificateSchema);
    } catch (e) {
      problems.push(unparsed(e));
      continue;
    }
    if (cert.previous_certificate_sha256 !== previous)
      problems.push(`${rel}: hash chain broken (previous_certificate_sha256 ${cert.previous_certificate_sha256} ≠ ${previous})`);
    for (const c of cert.checklist) {
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

  for (const f of files.filter((f) => /^iter_\d+\/artifacts\.json$/.test(f.path))) await doc(f.path, artifactsSchema);
  // As recorded: a tail past the manifest is not read.
  const historyBytes = recorded.get('history.jsonl')?.bytes;
  const history =
    (historyBytes !== undefined && (await readFile(join(root, 'history.jsonl')).catch(() => null))?.subarray(0, historyBytes).toString('utf8')) || '';
  for (const [k, line] of history.split('\n').entries())
    if (line)
      try {
        parseDocument(`history.jsonl line ${k + 1}`, line, historyLineSchema);
      } catch (e) {
        problems.push(unparsed(e));
      }
  const report = await doc('halting_report.json', haltingReportSchema);
  const hasPlan = recorded.has('plan.json');
  await doc('plan.json', planSchema);
  if (!recorded.has('halting_report.json') && !opts.allowOpenTail) problems.push('no halting_report.json');
  if (hasPlan)
    await audits().catch((e: unknown) => {
      // The audits read the certificates and capsules again: one that does not parse is reported above.
      const problem = unparsed(e);
      if (!problems.includes(problem)) problems.push(problem);
    });
  else if (report && report.status !== 'EXIT_NEED_INFO' && report.status !== 'EXIT_BLOCKED') problems.push('no plan.json (REMIND vertex) for a loop that ran');
  if (!seedChecksum().verified) problems.push('seed checksum 641 × 274177 × 65537 ≠ 11517961089409');
  const halted = report ? { status: report.status, stop_reason: report.stop_reason } : null;
  return { ok: problems.length === 0, problems, openTail, logTails, unlisted, iterations, certificate: finalCert, halted };

  async function audits(): Promise<void> {
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
      // The certificate verify names (and --rerun judges again) is the one the run halted on.
      finalCert = await haltingCertificate();
      const claim = convergenceClaimProblem(finalCert);
      if (claim) problems.push(`EXIT_CONVERGED without a valid certificate: ${claim}`);
    }
  }

  /**
   * The certificate the run halted on: the last iteration's, or the one HEAD won without an agent
   * step when a run started (baseline/ or resume_N/, named by the report), which follows it in the chain.
   */
  async function haltingCertificate(): Promise<Certificate | null> {
    const named = /(?:^|\/)((?:baseline|resume_\d+)\/certificate\.json)$/.exec(report?.halting_certificate.certificate_path ?? '')?.[1];
    if (!named) return finalCert;
    const cert = await doc(named, certificateSchema);
    if (cert && cert.previous_certificate_sha256 !== previous) problems.push(`${named}: does not follow the last iteration's certificate in the chain`);
    return cert;
  }
}

/** A document that does not parse is a problem of the tree; anything else is a bug and propagates. */
export function unparsed(e: unknown): string {
  if (e instanceof EvidenceUnverifiable) return e.message;
  throw e;
}
