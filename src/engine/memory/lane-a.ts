// Lane A under compaction (seed §8.3: "never compact away hard facts"): the iterations whose witness
// lines no longer fit keep their Lane A lines in a ledger, one line per fact with the iterations that
// established it, and the recompressibility check proves after each compaction that the section
// re-derives from the evidence with every hard fact in it (docs/glossary.md "Compaction").
import { sha256 } from '../common/canonical.js';

/** The hard facts of a rendered entry: its `- [A]` lines. */
export const laneALines = (entryText: string): string[] => entryText.split('\n').filter((l) => l.startsWith('- [A] '));

// A fact's evidence link differs only by its iteration folder and sha256 from one iteration to the next.
const factKey = (line: string) => line.replace(/\biter_\d+\//g, 'iter_N/').replace(/#[0-9a-f]{64}\b/g, '');

/** "0–3, 7, 9–10": sorted iteration numbers as ranges. */
function ranges(ns: readonly number[]): string {
  const out: string[] = [];
  for (let i = 0; i < ns.length;) {
    let j = i;
    while (j + 1 < ns.length && ns[j + 1] === ns[j] + 1) j++;
    out.push(j === i ? `${ns[i]}` : `${ns[i]}–${ns[j]}`);
    i = j + 1;
  }
  return out.join(', ');
}

const LEDGER_SUFFIX = / · iterations ([\d–, ]+) \(links: iter_N\/agents_md_entry\.md, sha256 in manifest\.json\)$/;

/** The ledger lines of `entries` (oldest first, with their Lane A lines): each distinct fact once, in the order first seen, with its iterations. */
export function ledger(entries: readonly { iteration: number; laneA: readonly string[] }[]): string[] {
  const seen = new Map<string, number[]>();
  for (const e of entries)
    for (const l of e.laneA) {
      const k = factKey(l);
      const its = seen.get(k);
      if (!its) seen.set(k, [e.iteration]);
      else if (its.at(-1) !== e.iteration) its.push(e.iteration);
    }
  return [...seen].map(([k, its]) => `${k} · iterations ${ranges(its)} (links: iter_N/agents_md_entry.md, sha256 in manifest.json)`);
}

/** The iterations a ledger line names, by its fact. */
function ledgerFacts(section: string): Map<string, Set<number>> {
  const facts = new Map<string, Set<number>>();
  for (const l of section.split('\n')) {
    const m = LEDGER_SUFFIX.exec(l);
    if (!m) continue;
    const its = new Set<number>();
    for (const part of m[1].split(', ')) {
      const [a, b] = part.split('–').map(Number);
      for (let k = a; k <= (b ?? a); k++) its.add(k);
    }
    facts.set(l.slice(0, m.index), its);
  }
  return facts;
}

/** The lines of each iteration's block in the section: its full entry, or its witness line and the lines under it. */
function blocksOf(section: string): Map<number, Set<string>> {
  const blocks = new Map<number, Set<string>>();
  let cur: Set<string> | null = null;
  let witness = false;
  for (const l of section.split('\n')) {
    const full = /^## Iteration (\d+)$/.exec(l);
    const head = /^- \[iter (\d+)\] /.exec(l);
    if (full || head) {
      cur = new Set();
      blocks.set(Number((full ?? head)![1]), cur);
      witness = !!head;
    } else if (l === '---' || (witness && !l.startsWith('  '))) cur = null;
    else cur?.add(witness ? l.slice(2) : l);
  }
  return blocks;
}

/** `iteration: line` for every Lane A line of `entries` that `section` no longer holds in any form (in full, as a witness line, or in the ledger). */
export function laneAMissing(section: string, entries: readonly { iteration: number; text: string }[]): string[] {
  const blocks = blocksOf(section);
  const facts = ledgerFacts(section);
  return entries.flatMap((e) =>
    laneALines(e.text)
      .filter((l) => !blocks.get(e.iteration)?.has(l) && !facts.get(factKey(l))?.has(e.iteration))
      .map((l) => `${e.iteration}: ${l}`),
  );
}

export interface Recompressibility {
  /** Every check passed: the loop could restart from this section and the evidence manifest. */
  ok: boolean;
  /** Entries whose bytes are not the evidence file's (the manifest's sha256 differs or is missing). */
  entries_not_in_evidence: number[];
  /** Witness links that do not name the evidence file's sha256. */
  witness_links_unresolved: string[];
  /** `iteration: line` for every Lane A line of an entry that the section no longer holds in any form. */
  lane_a_missing: string[];
  /** Rendering the section again from the evidence's entries gives the same bytes. */
  rerender_identical: boolean;
}

/**
 * The recompressibility check (seed §8.3 step 7) of a compacted section: each entry it draws on is
 * the evidence file's bytes (`evidenceSha`: the manifest's sha256 of `iter_N/agents_md_entry.md`),
 * each witness line links that sha256, every Lane A line of every entry is in it (in full, as a
 * witness line, or in the ledger), and `rerender` of those entries gives this text again.
 */
export function recompressibility(
  section: string,
  entries: readonly { iteration: number; text: string; link: string }[],
  evidenceSha: (iteration: number) => string | undefined,
  rerender: () => string,
): Recompressibility {
  const entriesNot = entries.filter((e) => evidenceSha(e.iteration) !== sha256(e.text)).map((e) => e.iteration);
  const witnessLinks = [...section.matchAll(/^- \[iter (\d+)\] .* · entry (\S+)$/gm)];
  const unresolved = witnessLinks.filter(([, n, link]) => link.split('#')[1] !== evidenceSha(Number(n))).map(([, n, link]) => `${n}: ${link}`);
  const missing = laneAMissing(section, entries);
  const rerender_identical = rerender() === section;
  return {
    ok: !entriesNot.length && !unresolved.length && !missing.length && rerender_identical,
    entries_not_in_evidence: entriesNot,
    witness_links_unresolved: unresolved,
    lane_a_missing: missing,
    rerender_identical,
  };
}
