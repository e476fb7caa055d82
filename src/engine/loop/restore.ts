// Restore: an earlier run's evidence, verified before it is used (every sha256, the certificate
// chain); a tree that does not verify is refused, never silently replaced; an unfinished start is
// started again.
import { access, chmod, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { planSchema, type Plan } from '../config/plan.js';
import { EvidenceStore, listFiles, manifestSchema, NOT_EVIDENCE } from '../store/evidence.js';
import { parseDocument } from '../common/document.js';
import type { HaltingReport } from '../evidence/report.js';
import { haltingReportSchema } from '../evidence/report-schema.js';
import { verifyTree } from '../evidence/verify.js';
import { cutLogTails } from '../store/log-tails.js';
import { copyTreeOffThread } from '../os/atomic-write.js';
import { stateSchema, type LoopState } from '../evidence/state.js';
import { frozen } from '../common/canonical.js';
import { listSome } from '../common/markdown.js';
import { adoptedMark, hasFiles } from './home.js';

export type Restored =
  | { resumed: { plan: Plan; state: LoopState; report: HaltingReport | null; adopted: boolean } | null; note?: string }
  | { problem: string; code: string }
  /** The config changed where the loop can start over: a new plan, the old tree kept (archiveEvidence). */
  | { replan: string };

/** Whether the loop has a tree of its own (in .git/phuc-loop) and it verifies. */
async function ownCopyVerifies(ev: EvidenceStore): Promise<boolean> {
  if (!(await hasFiles(ev.root)) || (await ev.readText('manifest.json')) === null) return false;
  return (await verifyTree(ev.root, { allowOpenTail: true, allowLogTails: true }).catch(() => ({ ok: false }))).ok;
}

/** Renames `path` aside (never deletes it); returns the suffix, or null when it cannot be moved. */
async function moveAside(path: string): Promise<string | null> {
  const suffix = `.not-loop-evidence-${randomBytes(4).toString('hex')}`;
  return rename(path, `${path}${suffix}`).then(
    () => suffix,
    () => null,
  );
}

/** What a new loop writes before its baseline is on record (see loop.ts newPlan and judgeHead). */
const startFile = (f: string) =>
  ['plan.json', 'state.json', 'manifest.json', 'api_surface_before.txt', 'budget_reduction.log'].includes(f) ||
  f.startsWith('baseline/') ||
  /\.tmp-[0-9a-f]{12}$/.test(f);

/**
 * A loop killed between its plan and the first record of its baseline leaves only its start: the
 * manifest lists nothing but plan.json and state.json (or, from older versions, there is no
 * manifest at all), and every file is one the start writes. It holds no judgement, iteration or
 * certificate: the next run makes the plan and judges the baseline again (SPEC §7: the loop's own
 * crash is never a refusal). Returns why, or null when the tree is anything else.
 */
async function unfinishedStart(ev: EvidenceStore): Promise<string | null> {
  const files = (await listFiles(ev.root)).filter((f) => !NOT_EVIDENCE.has(f));
  if (!files.includes('plan.json') || !files.every(startFile)) return null;
  const text = await ev.readText('manifest.json');
  if (text !== null) {
    let recorded: string[];
    try {
      recorded = parseDocument('manifest.json', text, manifestSchema).files.map((e) => e.path);
    } catch {
      return null;
    }
    if (!recorded.every((f) => f === 'plan.json' || f === 'state.json')) return null;
  }
  return `the previous run was cut off before its baseline was on record (${files.length} file(s) of its start, no judgement): the loop makes its plan and judges the baseline again`;
}

/**
 * What the evidence says about where to start: nothing (or only the report of a run that could
 * not start) → a new loop; a tree → verified, then resumed; anything else → refused, never wiped.
 */
export async function restoreEvidence(
  ev: EvidenceStore,
  published: EvidenceStore,
  o: { contract: string; configPath: string; evRel: string },
): Promise<Restored> {
  // The published tree is what users, the Action's artifact and `verify` see: one that does not
  // verify (edited, or a half-restored artifact) is refused, never silently replaced.
  if (await hasFiles(published.root)) {
    const files = (await listFiles(published.root)).filter((f) => !NOT_EVIDENCE.has(f));
    // A report that does not parse is not a "never started" one: the tree is verified below and refused.
    const report = await published.readJson('halting_report.json', haltingReportSchema).catch(() => null);
    // A report with no goal is a run's that stopped before its plan (NEED_INFO, a model API out of reach).
    const neverStarted = files.every((f) => f === 'halting_report.json' || f === 'manifest.json') && !!report && report.goal === null;
    if (!neverStarted) {
      const check = files.includes('manifest.json') ? await verifyTree(published.root, { allowOpenTail: true }) : null;
      if (!check?.ok) {
        const why = check
          ? `the evidence tree in ${o.evRel} does not verify: ${check.problems.slice(0, 5).join('; ')}`
          : `${o.evRel} holds evidence (${files.slice(0, 3).join(', ')}${files.length > 3 ? ', …' : ''}) but no manifest.json: it cannot be verified`;
        // The loop's own copy (out of the agent's reach) is the record: a published tree edited since
        // (by an agent that was cut off before the loop published again) goes aside, kept.
        const aside = (await ownCopyVerifies(ev)) ? await moveAside(published.root) : null;
        if (!aside) return { code: 'EVIDENCE_UNVERIFIABLE', problem: `${why}; run \`phuc-loop run --fresh\` to keep it aside and start over` };
        const restored = await restoreEvidence(ev, published, o);
        return !('resumed' in restored)
          ? restored
          : {
              ...restored,
              note: [`${why}: moved aside to ${o.evRel}${aside}; resuming from the loop's own copy in .git/phuc-loop`, restored.note]
                .filter(Boolean)
                .join('; '),
            };
      }
      // Taken in when the loop has no tree of its own (a restored artifact, another clone of the repository).
      if (!(await hasFiles(ev.root))) {
        await mkdir(dirname(ev.root), { recursive: true });
        // Marked before the copy: a kill mid-way leaves the mark, never a verdict taken for the loop's own.
        await writeFile(adoptedMark(ev.root), '');
        // Beside it first, then in its place: a copy cut off (a kill) leaves no half tree to take for the loop's.
        const tmp = `${ev.root}.tmp-${randomBytes(6).toString('hex')}`;
        await copyTreeOffThread(published.root, tmp, { names: [...NOT_EVIDENCE], paths: check.openTail });
        await chmod(tmp, 0o700);
        await rm(ev.root, { recursive: true, force: true });
        await rename(tmp, ev.root);
      }
    }
  }
  if (!(await hasFiles(ev.root))) return { resumed: null };
  const restart = await unfinishedStart(ev);
  if (restart) return { resumed: null, note: restart };
  if ((await ev.readText('manifest.json')) === null)
    return {
      code: 'EVIDENCE_UNVERIFIABLE',
      problem: `the loop's evidence has no manifest.json: it cannot be verified; run \`phuc-loop run --fresh\` to keep it aside and start over`,
    };
  let check = await verifyTree(ev.root, { allowOpenTail: true, allowLogTails: true });
  // Files no manifest lists, and nothing else amiss, in the loop's own tree: what a run cut off
  // before its manifest (a full disk, a kill) wrote. Nothing rests on them: set aside, not tampering.
  const unlisted = check.unlisted ?? [];
  let setAside: string | null = null;
  if (!check.ok && unlisted.length === check.problems.length) {
    setAside = await setAsideUnlisted(ev.root, unlisted);
    check = await verifyTree(ev.root, { allowOpenTail: true, allowLogTails: true });
  }
  if (!check.ok)
    return {
      code: 'EVIDENCE_UNVERIFIABLE',
      problem: `the evidence tree does not verify: ${check.problems.slice(0, 5).join('; ')}; run \`phuc-loop run --fresh\` to keep it aside and start over`,
    };
  // verifyTree parsed every document: one that does not parse now changed since, and throws EvidenceUnverifiable.
  const plan = await ev.readJson('plan.json', planSchema);
  const state = await ev.readJson('state.json', stateSchema);
  if (!plan || !state)
    return {
      code: 'EVIDENCE_UNVERIFIABLE',
      problem: `the evidence tree has no plan.json/state.json to resume from; run \`phuc-loop run --fresh\` to start over`,
    };
  if (plan.config_sha256 !== o.contract) {
    const changed = `${o.configPath} changed since the plan in ${o.evRel} was made (beyond its budget and agent)`;
    // The fix the last run asked for (a criterion, the residual), or a loop with nothing on record: a new plan.
    const t = state.terminal;
    if (state.next_iteration === 0 || t?.status === 'EXIT_NEED_INFO' || t?.stop_reason === 'RESIDUAL_UNAVAILABLE') return { replan: changed };
    return { code: 'CONFIG_CHANGED', problem: `${changed}; run \`phuc-loop run --fresh\` to start a new loop (the old tree is kept)` };
  }
  if (plan.halting_certificates_applicable.length === 0)
    return {
      code: 'HALTING_CRITERIA_MISSING',
      problem:
        'HALTING_CRITERIA_MISSING: the plan declares no certificate; declare `certificates` in the config and run `phuc-loop run --fresh` to start a new loop',
    };
  await ev.loadManifest();
  for (const stray of check.openTail) await rm(ev.path(stray), { force: true });
  await cutLogTails(ev, check.logTails);
  const report = await ev.readJson('halting_report.json', haltingReportSchema);
  // Past rows and cycles never change: frozen, their text is reused by every save of the state.
  return {
    resumed: {
      plan,
      state: { ...state, rows: state.rows.map(frozen), cycles: state.cycles.map(frozen), start_residual: null },
      report,
      adopted: await access(adoptedMark(ev.root)).then(
        () => true,
        () => false,
      ),
    },
    ...(setAside ? { note: setAside } : {}),
  };
}

/** Moves `files` of the tree at `root` into a folder beside it, kept; says where. */
async function setAsideUnlisted(root: string, files: string[]): Promise<string> {
  const aside = `${root}.unlisted-${randomBytes(4).toString('hex')}`;
  for (const f of files) {
    await mkdir(dirname(join(aside, f)), { recursive: true });
    await rename(join(root, f), join(aside, f));
  }
  return `${listSome(files, 5)}: written by a run cut off before its manifest (a full disk, a kill), set aside in ${aside}`;
}
