// Where a run's wall time goes (Lane B: measurements, never certificate or capsule content). A
// stage — the run's start, the baseline, an iteration, a replay, the end — times its phases on the
// loop's clock port; its record goes to the evidence (iter_N/phases.json, phases.jsonl) and the
// halting report sums them in one table. Phases of a stage may run at the same time (the criteria
// of a round): those are recorded `part_of` the phase that holds them, and only top-level phases
// add up to the stage's wall time; what no phase covers is shown as such, never hidden.
import { z } from 'zod';
import type { Clock } from '../os/ports.js';

const ms = z.number().int().min(0);
export const phaseSchema = z.object({ phase: z.string(), ms, part_of: z.string().optional() });
export type Phase = z.infer<typeof phaseSchema>;
/** `within`: a stage timed inside another (a replay inside the run's end), whose wall it is part of. */
/** `before_ms`: the run's time between the stage before and this one (that one's records, a host's push), in no stage. */
export const stagePhasesSchema = z.object({
  stage: z.string(),
  wall_ms: ms,
  phases: z.array(phaseSchema),
  within: z.string().optional(),
  before_ms: ms.optional(),
});
export type StagePhases = z.infer<typeof stagePhasesSchema>;

/** Times one function under a phase name (what a round's helpers take, so they need no Stage). */
export type TimePhase = <T>(phase: string, fn: () => Promise<T>) => Promise<T>;

/**
 * One stage's phases, timed from its creation. Straight-line code marks the end of each phase with
 * lap(); a function can be timed whole with time(). Phases timed side by side each add their own.
 */
export class Stage {
  // Whole milliseconds read off the clock: laps then add up to the stage's wall time exactly.
  private readonly started: number;
  /** When the last top-level phase ended: where the next lap starts. */
  private lastEnd: number;
  private readonly phases: Phase[] = [];

  constructor(
    readonly name: string,
    private readonly clock: Clock,
    private readonly within?: string,
  ) {
    this.started = this.lastEnd = this.now();
  }

  private now(): number {
    return Math.round(this.clock.monotonicMs());
  }

  /** Runs `fn` and adds its duration (also when it throws) to `phase`. */
  async time<T>(phase: string, fn: () => Promise<T>, partOf?: string): Promise<T> {
    const start = this.now();
    try {
      return await fn();
    } finally {
      const end = this.now();
      this.add(phase, end - start, partOf);
      if (partOf === undefined) this.lastEnd = Math.max(this.lastEnd, end);
    }
  }

  /**
   * The time since the last phase ended goes to `phase`, less `apart`: a part of it measured apart,
   * never longer than the lap, recorded as a phase of its own (the agent's process inside its
   * hand-over) or, unnamed, left to what recorded it (stages timed within this one).
   */
  lap(phase: string, apart?: { phase?: string; ms: number }): void {
    const now = this.now();
    const part = apart ? Math.min(Math.max(0, Math.round(apart.ms)), now - this.lastEnd) : 0;
    if (apart?.phase !== undefined) this.add(apart.phase, part);
    this.add(phase, now - this.lastEnd - part);
    this.lastEnd = now;
  }

  /** The same phase twice in a stage (a hand-back after each use) is one entry, summed. */
  add(phase: string, durationMs: number, partOf?: string): void {
    const whole = Math.max(0, Math.round(durationMs));
    const known = this.phases.find((p) => p.phase === phase && p.part_of === partOf);
    if (known) known.ms += whole;
    else this.phases.push(partOf === undefined ? { phase, ms: whole } : { phase, ms: whole, part_of: partOf });
  }

  /** `time` bound to this stage, for helpers that take a TimePhase. */
  readonly timer: TimePhase = (phase, fn) => this.time(phase, fn);

  /**
   * The stage as timed so far, and when it ended on the clock. `previousEnd`: when the run's stage
   * before this one ended, so that the time between them is on record (a stage within another has none).
   */
  record(previousEnd?: number): { record: StagePhases; end: number } {
    const end = this.now();
    const before = previousEnd === undefined || this.within !== undefined ? {} : { before_ms: Math.max(0, this.started - previousEnd) };
    return {
      record: {
        stage: this.name,
        wall_ms: end - this.started,
        phases: this.phases.map((p) => ({ ...p })),
        ...(this.within === undefined ? {} : { within: this.within }),
        ...before,
      },
      end,
    };
  }
}

const seconds = (msValue: number) => (msValue / 1000).toFixed(1);
const NOT_IN_A_PHASE = 'not in a phase';
const BETWEEN_STAGES = 'between stages';

/** The order in which a run goes through its phases (the table's rows); any other phase follows, in first-seen order. */
const RUN_ORDER = [
  'capsule',
  'step start',
  'agent',
  'work tree hand-over',
  'collect',
  'workspace update',
  'setup',
  'checks',
  'residual',
  'canary',
  'skeptic',
  'northstar',
  'hand-back',
  'learn',
  'commit',
  'record',
];
const rank = (phase: string) => (RUN_ORDER.includes(phase) ? RUN_ORDER.indexOf(phase) : RUN_ORDER.length);

/** Each phase row's cells (ms per stage, null where the stage had none), in the run's order; nested phases follow their holder. */
export function phaseRows(stages: readonly StagePhases[]): { phase: string; part_of?: string; ms: (number | null)[] }[] {
  const key = (p: Phase) => `${p.part_of ?? ''}\0${p.phase}`;
  const order: Phase[] = [];
  for (const s of stages) for (const p of s.phases) if (!order.some((o) => key(o) === key(p))) order.push(p);
  const top = order.filter((p) => p.part_of === undefined).sort((a, b) => rank(a.phase) - rank(b.phase));
  const placed = [
    ...top.flatMap((t) => [t, ...order.filter((p) => p.part_of === t.phase)]),
    ...order.filter((p) => p.part_of !== undefined && !top.some((t) => t.phase === p.part_of)),
  ];
  const rows = placed.map((p) => ({
    ...(p.part_of === undefined ? {} : { part_of: p.part_of }),
    phase: p.phase,
    ms: stages.map((s) => s.phases.find((q) => key(q) === key(p))?.ms ?? null),
  }));
  // A stage's wall less its top-level phases and the stages timed within it: always a row, so a gap shows.
  const other = stages.map(
    (s) =>
      s.wall_ms -
      s.phases.filter((p) => p.part_of === undefined).reduce((a, p) => a + p.ms, 0) -
      stages.filter((t) => t.within === s.stage).reduce((a, t) => a + t.wall_ms, 0),
  );
  const between = stages.map((s) => s.before_ms ?? null);
  return [
    ...rows,
    { phase: NOT_IN_A_PHASE, ms: other.map((o) => Math.max(0, o)) },
    ...(between.some((b) => b !== null) ? [{ phase: BETWEEN_STAGES, ms: between }] : []),
  ];
}

/** A stage's share of the run: its wall and the time since the stage before it ended. */
const runShare = (s: StagePhases) => s.wall_ms + (s.before_ms ?? 0);

/** The run's wall time the stages cover: a stage within another is part of that one's. */
const wallOf = (stages: readonly StagePhases[]) => stages.filter((s) => s.within === undefined).reduce((a, s) => a + runShare(s), 0);

/**
 * The one-table breakdown (markdown): a row per phase, a column per stage, seconds. `cell` makes a
 * name safe for a table (criterion ids are the user's). Each phase belongs to one stage, so a row's
 * total is its sum; a stage's wall runs from the end of the stage before it, so the wall total is
 * the run's from its start to its end (a stage timed within another counted once).
 */
export function phaseTable(stages: readonly StagePhases[], cell: (text: string) => string): string[] {
  if (!stages.length) return [];
  const rows = phaseRows(stages);
  const sum = (xs: (number | null)[]) => xs.reduce<number>((a, x) => a + (x ?? 0), 0);
  return [
    `| phase | ${stages.map((s) => cell(s.within === undefined ? s.stage : `${s.stage} (in ${s.within})`)).join(' | ')} | total |`,
    `|---|${stages.map(() => '---:|').join('')}---:|`,
    ...rows.map(
      (r) =>
        `| ${r.part_of === undefined ? cell(r.phase) : `↳ ${cell(r.phase)}`} | ${r.ms.map((x) => (x === null ? '—' : seconds(x))).join(' | ')} | ${seconds(sum(r.ms))} |`,
    ),
    `| **wall** | ${stages.map((s) => `**${seconds(runShare(s))}**`).join(' | ')} | **${seconds(wallOf(stages))}** |`,
  ];
}

/** The closing note's words: the top-level phases that took the most of the run, with their share. */
export function phaseSummary(stages: readonly StagePhases[], top = 5): string | null {
  const wall = wallOf(stages);
  if (!wall) return null;
  const totals = phaseRows(stages)
    .filter((r) => r.part_of === undefined)
    .map((r) => ({ phase: r.phase, ms: r.ms.reduce<number>((a, x) => a + (x ?? 0), 0) }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, top);
  return `${totals.map((t) => `${t.phase} ${seconds(t.ms)} s (${Math.round((t.ms * 100) / wall)} %)`).join(', ')} of ${seconds(wall)} s`;
}
