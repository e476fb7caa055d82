// One row per iteration (G, L, O, W, GLOW, residual, certificate, northstar distance), read from the
// evidence tree the engine wrote — the same files the certificate chain covers, never the agent's word.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { HaltingReport } from '../engine/report.js';

export interface IterationRow {
  iteration: number;
  G: number | null;
  L: number | null;
  O: number | null;
  W: number | null;
  total: number | null;
  residual: string | null;
  certificate: string;
  northstar_distance: string | null;
  /** The iteration's commit, when this run made it. */
  commit?: string;
}

async function readJson<T>(path: string): Promise<T | null> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as T;
  } catch {
    return null;
  }
}

interface HistoryLine {
  iteration: number;
  northstar_distance?: string | null;
}

/** Rows for every iteration the report lists, oldest first. */
export async function readRows(evidenceRoot: string, report: HaltingReport, commits: ReadonlyMap<number, string> = new Map()): Promise<IterationRow[]> {
  const history = new Map<number, HistoryLine>();
  const text = await readFile(join(evidenceRoot, 'history.jsonl'), 'utf8').catch(() => '');
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const h = JSON.parse(line) as HistoryLine;
      history.set(h.iteration, h);
    } catch {
      /* a torn line is not a row */
    }
  }
  const glowOf = new Map(report.glow_history.map((g) => [g.iteration, g]));
  const rows: IterationRow[] = [];
  for (const n of report.iterations) {
    const dir = join(evidenceRoot, `iter_${n}`);
    const cert = await readJson<{ type?: string; residual?: string | null }>(join(dir, 'certificate.json'));
    const glow = glowOf.get(n) ?? (await readJson<{ G: number; L: number; O: number; W: number; total: number }>(join(dir, 'glow.json')));
    const checks = await readJson<{ northstar?: { total_distance?: string | null } }>(join(dir, 'checks.json'));
    rows.push({
      iteration: n,
      G: glow?.G ?? null,
      L: glow?.L ?? null,
      O: glow?.O ?? null,
      W: glow?.W ?? null,
      total: glow?.total ?? null,
      residual: cert?.residual ?? null,
      certificate: cert?.type ?? 'NONE',
      northstar_distance: checks?.northstar?.total_distance ?? history.get(n)?.northstar_distance ?? null,
      commit: commits.get(n),
    });
  }
  return rows;
}
