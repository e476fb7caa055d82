// `phuc-loop verify --rerun`: the certified commit judged again on a brand-new checkout, with
// everything that decides the verdict taken from the config committed in that commit.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { rungLevel } from './audit.js';
import { canonicalJson } from '../common/canonical.js';
import { judgementOf, type Certificate } from '../judge/certificate.js';
import { checkStep, runChecks } from '../judge/checks.js';
import { judgeRoot, keepJudgeRoot } from '../judge/judge-root.js';
import { computeResidual, removeJunit } from '../judge/residual.js';
import { CheckWorkspace } from '../judge/workspace.js';
import { DEFAULT_CONFIG_FILE, parseConfig, type LoopConfig } from '../config/config.js';
import { resolveBudget } from '../config/budget.js';
import { buildPlan, planSchema, type Plan } from '../config/plan.js';
import { contractHash } from '../config/intake.js';
import { RunnerCompromised, TreeChanged } from '../common/errors.js';
import { compromised, runCanaries } from '../judge/canary.js';
import { Decimal } from '../common/decimal.js';
import { decideJudgement } from '../run/decide.js';
import { Git } from '../os/git.js';
import type { ProcessRunner, RunResult, RunSpec } from '../os/ports.js';
import { EvidenceStore } from '../store/evidence.js';
import { haltingReportSchema } from './report-schema.js';
import { rerunParaphrase } from './rerun-paraphrase.js';
import { unparsed } from './verify.js';

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
    p.security
      ? {
          gate: p.security.gate,
          api_surface: p.security.api_surface,
          drift_explanation: p.security.drift_explanation,
          paraphrase: p.security.paraphrase ?? null,
        }
      : null;
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
  // The criteria's logs are written off-thread: removing the folder waits for them (or a late write makes it anew).
  let logStore: EvidenceStore | null = null;
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
    const logs = (logStore = new EvidenceStore(join(base, 'logs')));
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
        // The tests the certificate's canary copied, copied again.
        failing: new Map((cert.canary ?? []).filter((c) => c.copies?.length).map((c) => [c.criterion, c.copies!.map((k) => k.test)])),
      });
      const lying = canary.find(compromised);
      if (lying) throw new RunnerCompromised(`rerun ${dir}`, lying.criterion, lying.runner ?? 'unknown', lying.outcome === 'not_run', lying.lyingCopy);
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
      const para = await rerunParaphrase({
        config,
        plan,
        evidence: new EvidenceStore(root),
        certified: cert.type,
        checks,
        claimed: (report?.verification_rung_achieved ?? 0) >= 65537,
        run,
        cwd: ws.dir,
        env: ws.env(),
      });
      lines.push(...para.lines);
      problems.push(...para.problems);
    }
    if (problems.length) lines.push(`rerun: the criteria's logs are kept in ${logs.root}`);
    return { ok: problems.length === 0, lines, problems };
  } catch (e) {
    if (!(e instanceof TreeChanged || e instanceof RunnerCompromised)) throw e;
    problems.push(e.message);
    return { ok: false, lines, problems };
  } finally {
    await ws?.dispose();
    await logStore?.flush().catch(() => undefined);
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

function lastLine(r: RunResult): string {
  return (r.stderr.trim() || r.stdout.trim()).split('\n').pop() ?? '';
}
