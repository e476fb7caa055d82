// `phuc-loop verify`: re-checks an evidence tree with nothing but the tree — every sha256 in the
// manifest, no file outside it, the certificate hash chain, every evidence link, the Triangle and
// the Phuc Test, and that a converged report is backed by its certificate.
import { readFile, rm } from 'node:fs/promises';
import { z } from 'zod';
import { join } from 'node:path';
import { checkTriangle, iterDir, phucTest, rungLevel } from '../judge/audit.js';
import { canonicalJson, sha256 } from '../common/canonical.js';
import { certificateSchema, convergenceClaimProblem, judgementOf, type Certificate } from '../judge/certificate.js';
import { checkStep, runChecks } from '../judge/checks.js';
import { judgeRoot, keepJudgeRoot } from '../judge/judge-root.js';
import { computeResidual, removeJunit } from '../judge/residual.js';
import { CheckWorkspace } from '../judge/workspace.js';
import { DEFAULT_CONFIG_FILE, parseConfig, type LoopConfig } from '../config/config.js';
import { resolveBudget } from '../config/budget.js';
import { buildPlan, contractHash, planSchema, type Plan } from '../config/plan.js';
import { artifactsSchema } from '../agent/agent-step.js';
import { parseDocument } from '../common/document.js';
import { EvidenceUnverifiable, RunnerCompromised, TreeChanged } from '../common/errors.js';
import { compromised, runCanaries } from '../judge/canary.js';
import { stateSchema } from '../loop/context.js';
import { Decimal, seedChecksum } from '../common/decimal.js';
import { decideJudgement } from '../loop/decide.js';
import { Git } from '../os/git.js';
import type { ProcessRunner, RunResult, RunSpec } from '../os/ports.js';
import { APPEND_ONLY_LOGS, EvidenceStore, isIterationManifest, listFiles, MANIFEST, manifestSchema, NOT_EVIDENCE, type Manifest } from './evidence.js';
import { isTempFile } from './writer.js';
import { historyLineSchema } from './records.js';
import { haltingReportSchema } from './report.js';

export interface VerifyResult {
  ok: boolean;
  problems: string[];
  /** Files of an iteration that was cut off before its manifest was written (resume removes them). */
  openTail: string[];
  /** Append-only logs holding lines past what the manifest records (resume cuts them off at `bytes`). */
  logTails: { path: string; bytes: number }[];
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
    else if (sha256(data) !== f.sha256 && APPEND_ONLY_LOGS.has(f.path) && data.byteLength > f.bytes && sha256(data.subarray(0, f.bytes)) === f.sha256) {
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

export interface RerunOptions {
  /** A checkout that holds the certified commit. */
  repo: string;
  /** The loop's own runner: git runs through it. */
  runner: ProcessRunner;
  /**
   * Runs setup and the criteria: the sandbox seam (a runner that runs them as the check user in
   * their own PID namespace). Without one they run unsandboxed through `runner`.
   */
  run?: (spec: RunSpec) => Promise<RunResult>;
  handOver?: (dir: string) => Promise<void>;
  takeBack?: (dir: string) => Promise<void>;
  /** Closes the rerun's folder to every user but the check user (Sandbox.confine). */
  confine?: (dir: string) => Promise<void>;
  /** The environment PATH, LANG and TZ are taken from (default process.env). */
  env?: Record<string, string | undefined>;
  /** The config file the loop ran with (default phuc-loop.yml): read from the certified commit. */
  configFile?: string;
}

export interface RerunResult {
  ok: boolean;
  /** What was rerun and what it gave, one line per fact. */
  lines: string[];
  problems: string[];
}

const SUCCESS = new Set(['EXACT', 'CONVERGED']);
const OBJECT_ID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/**
 * The fields of plan.json that decide a verdict, derived from the config committed in the certified
 * commit exactly as the loop derives them (buildPlan): the evidence's plan must say the same. The
 * tree's hashes are unkeyed, so anyone can rewrite a plan and rehash; the commit is what vouches.
 */
const VERDICT_FIELDS = [
  'config_file',
  'config_sha256',
  'goal',
  'halting_certificates_applicable',
  'R_p',
  'rung_target',
  'residual',
  'profile',
  'replays',
  'critic',
  'detours',
  'stall_iterations',
  'mission_context',
  'may_change',
] as const satisfies readonly (keyof Plan)[];

/** Where plan.json disagrees with the plan the committed config gives; each names the field. */
export function planDisagreements(plan: Plan, config: LoopConfig, configFile: string, where: string): string[] {
  const want = buildPlan(
    { config, configText: '', contract: contractHash(config), northstar: plan.northstar.metrics, budget: resolveBudget(config) },
    configFile,
    plan.baseline,
    plan.northstar.baseline,
    plan.security?.api_surface_before ?? null,
  );
  const out: string[] = [];
  const differ = (a: unknown, b: unknown) => canonicalJson(a ?? null) !== canonicalJson(b ?? null);
  const show = (v: unknown) => {
    const t = JSON.stringify(v ?? null);
    return t.length > 120 ? `${t.slice(0, 117)}...` : t;
  };
  const say = (field: string, got: unknown, wanted: unknown) => out.push(`plan.json ${field}: ${show(got)} in the evidence, ${show(wanted)} from ${where}`);
  for (const f of VERDICT_FIELDS) if (differ(plan[f], want[f])) say(f, plan[f], want[f]);
  const ids = (l: { id: string }[]) => l.map((c) => c.id).join(',');
  if (ids(plan.acceptance_criteria) !== ids(want.acceptance_criteria))
    say('acceptance_criteria (ids, in order)', ids(plan.acceptance_criteria), ids(want.acceptance_criteria));
  else
    for (const [k, c] of want.acceptance_criteria.entries())
      for (const key of Object.keys(c) as (keyof typeof c)[])
        if (differ(plan.acceptance_criteria[k][key], c[key])) say(`acceptance_criteria[${c.id}].${key}`, plan.acceptance_criteria[k][key], c[key]);
  if (plan.northstar.file !== want.northstar.file) say('northstar.file', plan.northstar.file, want.northstar.file);
  const sec = (p: Plan) =>
    p.security ? { gate: p.security.gate, api_surface: p.security.api_surface, drift_explanation: p.security.drift_explanation } : null;
  if (differ(sec(plan), sec(want))) say('security', sec(plan), sec(want));
  // The files the criteria run are protected from what the baseline held; the rest is the config's.
  const missing = want.protected.filter((g) => !plan.protected.includes(g));
  if (missing.length) out.push(`plan.json protected: lacks ${missing.join(', ')}, which ${where} protects`);
  return out;
}

/**
 * `verify --rerun`: checks out the certified commit in a brand-new workspace (fresh HOME, setup run
 * from scratch, in a loop-owned folder as the loop's judging), and judges it as the loop does with
 * everything that decides the verdict — criteria, residual, declared certificates, R_p, rung,
 * replays, security gate — taken from the config committed in that commit, never from the evidence
 * (whose hashes anyone can recompute). The evidence must agree with that config (each field that
 * does not is named), and the outcome must be the certificate's: each criterion met or not as
 * recorded, the same residual, and for EXACT/CONVERGED the same type.
 */
export async function rerunCertificate(root: string, cert: Certificate, o: RerunOptions): Promise<RerunResult> {
  const lines: string[] = [];
  const problems: string[] = [];
  let plan;
  let report;
  try {
    plan = await new EvidenceStore(root).readJson('plan.json', planSchema);
    report = await new EvidenceStore(root).readJson('halting_report.json', haltingReportSchema);
  } catch (e) {
    return { ok: false, lines, problems: [unparsed(e)] };
  }
  if (!plan) return { ok: false, lines, problems: ['no plan.json: the criteria to rerun are unknown'] };
  const git = new Git(o.runner, o.repo, o.env ?? process.env);
  const commit = await certifiedCommit(git, cert);
  if ('problem' in commit) return { ok: false, lines, problems: [commit.problem] };
  // The config file is the user's to name (the loop's default), not the evidence's.
  const configFile = o.configFile ?? DEFAULT_CONFIG_FILE;
  let config: LoopConfig;
  try {
    config = parseConfig(await git.run(['cat-file', 'blob', `${commit.id}:${configFile}`]), configFile);
  } catch (e) {
    return { ok: false, lines, problems: [`${configFile} in commit ${commit.id}: ${(e as Error).message}`] };
  }
  const where = `${configFile} in commit ${commit.id.slice(0, 12)}`;
  lines.push(`rerun: criteria, residual, certificates, R_p and rung from ${where} (not from the evidence)`);
  if (plan.config_file !== configFile)
    problems.push(
      `plan.json config_file: ${JSON.stringify(plan.config_file)} in the evidence, but the config is ${configFile} (pass --config if the loop ran with another file)`,
    );
  else problems.push(...planDisagreements(plan, config, configFile, where));
  const ids = (l: { id: string }[]) => l.map((c) => c.id).join(',');
  if (ids(cert.checklist) !== ids(config.acceptance_criteria))
    problems.push(`certificate checklist: criteria ${ids(cert.checklist) || '(none)'}, ${where} has ${ids(config.acceptance_criteria)}`);
  if (canonicalJson(cert.declared_certificates) !== canonicalJson(config.certificates))
    problems.push(`certificate declared_certificates: ${cert.declared_certificates.join(',')}, ${where} declares ${config.certificates.join(',')}`);
  if ((cert.R_p === null ? null : new Decimal(cert.R_p).toString()) !== (config.R_p === undefined ? null : new Decimal(config.R_p).toString()))
    problems.push(`certificate R_p: ${cert.R_p ?? 'none'}, ${where} has ${config.R_p ?? 'none'}`);
  if (cert.residual_metric !== config.residual.metric)
    problems.push(`certificate residual_metric: ${cert.residual_metric}, ${where} has ${config.residual.metric}`);
  if (report && report.verification_rung_target !== config.rung_target)
    problems.push(`halting_report.json verification_rung_target: ${report.verification_rung_target ?? 'none'}, ${where} has ${config.rung_target}`);
  // Where the loop judges too: never under the temp folder, whose parent folders another user (the
  // agent) can fill with a conftest.py or node_modules that the criteria would pick up.
  const { path: base, warning } = await judgeRoot('rerun', { confine: o.confine });
  if (warning) lines.push(`rerun: warning: ${warning}`);
  const run = o.run ?? ((spec: RunSpec) => o.runner.run(spec));
  let ws: CheckWorkspace | null = null;
  try {
    const fresh = await CheckWorkspace.fresh(
      {
        root: join(base, 'workspace'),
        repo: o.repo,
        runner: o.runner,
        run,
        handOver: o.handOver,
        takeBack: o.takeBack,
        env: config.checks.env,
        baseEnv: o.env,
      },
      commit.id,
      { command: config.checks.setup, inputs: config.checks.setup_inputs, timeoutMs: config.checks.setup_timeout_seconds * 1000 },
    ).catch((e: unknown) => (e instanceof Error ? e : new Error(String(e))));
    if (fresh instanceof Error) {
      problems.push(`a fresh checkout of ${commit.id} could not be made: ${fresh.message}`);
      return { ok: false, lines, problems };
    }
    ws = fresh.workspace;
    lines.push(`rerun: commit ${commit.id} (${commit.how}) checked out fresh, with a fresh HOME${o.run ? '' : ', unsandboxed'}`);
    const s = fresh.setup;
    if (s.state === 'failed') {
      problems.push(`${s.reason}: ${lastLine(s.result)}`);
      return { ok: false, lines, problems };
    }
    lines.push(s.state === 'ran' ? `rerun: setup \`${config.checks.setup}\` ran (${(s.result.durationMs / 1000).toFixed(1)} s)` : 'rerun: no checks.setup');
    if (s.state === 'ran' && s.changed.length) throw new TreeChanged(`checks.setup \`${config.checks.setup}\``, s.changed);
    const logs = new EvidenceStore(join(base, 'logs'));
    const R_p = config.R_p === undefined ? null : new Decimal(config.R_p);
    // As the loop judges: a tracked file the setup or a check changed ends the rerun (SPEC §7).
    const keepsTree = (step: string) => {
      const changed = ws!.changedTracked(config.checks.junit ?? config.residual.junit);
      if (changed.length) throw new TreeChanged(step, changed);
    };
    const judge = async (dir: string) => {
      if (config.residual.metric === 'failing_tests_fraction' && config.residual.junit) await removeJunit(ws!.dir, config.residual.junit);
      const checks = await runChecks(config.acceptance_criteria, {
        runner: { run },
        cwd: ws!.dir,
        env: ws!.env(),
        evidence: logs,
        dir,
        tree: cert.tree,
        scrub: (t) => t,
        afterRun: (_, suspects) => keepsTree(checkStep(suspects)),
      });
      const residual = await computeResidual(config, checks, { runner: { run }, cwd: ws!.dir, env: ws!.env() });
      if (config.residual.metric === 'command') keepsTree('the residual command');
      // The runner canary, as the loop runs it: a runner that passes a failing test is refused.
      const canary = await runCanaries(config.acceptance_criteria, checks, {
        runner: { run },
        cwd: ws!.dir,
        env: ws!.env(),
        files: await git.treeFiles(commit.id),
        protectedGlobs: plan.protected,
        after: keepsTree,
        log: (line) => lines.push(`rerun: ${line}`),
        // A canary the certificate says ran must run again.
        reached: new Set((cert.canary ?? []).filter((c) => c.outcome === 'failed').map((c) => c.criterion)),
      });
      const lying = canary.find(compromised);
      if (lying) throw new RunnerCompromised(`rerun ${dir}`, lying.criterion, lying.runner ?? 'unknown', lying.outcome === 'not_run');
      const value = 'value' in residual ? residual.value : null;
      const judgement = judgementOf(
        { declared: config.certificates, checks, residual: value, residualError: 'error' in residual ? residual.error : null, R_p },
        null,
      );
      // The same precedence table as the loop, with nothing but this judgement to go on.
      return { checks, residual, value, type: decideJudgement(judgement).certificate };
    };
    const { checks, residual, value, type } = await judge('checks');
    const recorded = new Map(cert.checklist.map((c) => [c.id, c]));
    for (const c of checks) {
      const was = recorded.get(c.id);
      const now = c.met ? 'met' : c.timed_out ? 'timed out' : `failed (exit ${c.exit_code ?? 'by signal'})`;
      lines.push(`rerun: ${c.id} \`${c.run}\`: ${now}${was ? ` — certificate: ${was.met ? 'met' : 'not met'}` : ''}`);
      if (was && was.met !== c.met)
        problems.push(`${c.id}: ${c.met ? 'met' : 'not met'} on a fresh checkout, ${was.met ? 'met' : 'not met'} in the certificate`);
    }
    const got = value === null ? `unavailable (${(residual as { error: string }).error})` : value.toString();
    lines.push(`rerun: residual ${got} — certificate: ${cert.residual ?? 'unavailable'}`);
    if (cert.checklist.length && (cert.residual === null ? value !== null : value === null || !value.eq(cert.residual)))
      problems.push(`residual ${got} on a fresh checkout, ${cert.residual ?? 'unavailable'} in the certificate`);
    lines.push(`rerun: certificate type ${type} — certificate: ${cert.type}`);
    if (SUCCESS.has(cert.type) && type !== cert.type) problems.push(`the certificate says ${cert.type}; a fresh checkout of ${commit.id} gives ${type}`);
    if (SUCCESS.has(cert.type) && rungLevel(config.rung_target) >= rungLevel(274177)) {
      // Rung 274177 and up: the replays the loop ran must agree again (a flaky check fails here).
      for (let k = 1; k < config.replays; k++) {
        const again = await judge(`replay_${k}`);
        const same = again.type === type && again.checks.every((c, i) => c.met === checks[i].met);
        lines.push(`rerun: replay ${k + 1}/${config.replays} (rung ${config.rung_target}): certificate ${again.type}${same ? '' : ' — DIFFERS (flaky check)'}`);
        if (!same) problems.push(`replay ${k + 1}: a fresh checkout of ${commit.id} gives ${again.type}, the first run ${type} (flaky check)`);
      }
    }
    if (SUCCESS.has(cert.type) && rungLevel(config.rung_target) >= rungLevel(65537) && config.security) {
      const gate = await run({ command: config.security.gate, cwd: ws.dir, env: ws.env(), timeoutMs: 1_800_000 });
      lines.push(`rerun: security gate \`${config.security.gate}\`: exit ${gate.exitCode ?? gate.signal}`);
      if (gate.exitCode !== 0)
        problems.push(`security gate \`${config.security.gate}\` exits ${gate.exitCode ?? gate.signal} on a fresh checkout (rung ${config.rung_target})`);
    }
    if (problems.length) lines.push(`rerun: the criteria's logs are kept in ${logs.root}`);
    return { ok: problems.length === 0, lines, problems };
  } catch (e) {
    if (!(e instanceof TreeChanged || e instanceof RunnerCompromised)) throw e;
    problems.push(e.message);
    return { ok: false, lines, problems };
  } finally {
    await ws?.dispose();
    // The criteria's logs stay for a rerun that disagrees (a week; then a later run removes them).
    await rm(problems.length ? join(base, 'workspace') : base, { recursive: true, force: true });
    if (problems.length) await keepJudgeRoot(base, 7 * 24 * 3_600_000).catch(() => undefined);
  }
}

/** The commit the certificate names; for a certificate without one, a commit whose tree is its tree. */
export async function certifiedCommit(git: Git, cert: Certificate): Promise<{ id: string; how: string } | { problem: string }> {
  if (!OBJECT_ID.test(cert.tree)) return { problem: `the certificate's tree ${JSON.stringify(cert.tree)} is not an object id` };
  if (cert.commit && !OBJECT_ID.test(cert.commit)) return { problem: `the certificate's commit ${JSON.stringify(cert.commit)} is not an object id` };
  if (cert.commit) {
    const tree = (await git.run(['rev-parse', '--verify', '--quiet', `${cert.commit}^{tree}`], { allowFail: true })).trim();
    if (!tree) return { problem: `the certified commit ${cert.commit} is not in ${git.cwd} (fetch it first)` };
    if (tree !== cert.tree) return { problem: `commit ${cert.commit} holds tree ${tree}, the certificate names tree ${cert.tree}` };
    return { id: cert.commit, how: 'named by the certificate' };
  }
  const log = await git.run(['log', '--all', '--format=%H %T'], { allowFail: true });
  const hit = log.split('\n').find((l) => l.endsWith(` ${cert.tree}`));
  if (!hit) return { problem: `no commit in ${git.cwd} holds the certified tree ${cert.tree}` };
  return { id: hit.split(' ')[0], how: `its tree is the certificate's tree ${cert.tree}` };
}

/** A document that does not parse is a problem of the tree; anything else is a bug and propagates. */
function unparsed(e: unknown): string {
  if (e instanceof EvidenceUnverifiable) return e.message;
  throw e;
}

function lastLine(r: RunResult): string {
  return (r.stderr.trim() || r.stdout.trim()).split('\n').pop() ?? '';
}
