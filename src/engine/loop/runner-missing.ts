// A check whose runner itself is missing where the checks run (pytest not installed for the check
// user, a JUnit glob the checks never write) is the user's to fix, not iterations to spend: found
// when HEAD is judged, before any agent step, and said in the tool's own words (its log's tail).
// A test that fails, even on a module it imports, is the agent's work and is never taken for this.
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import type { CheckResult } from '../judge/checks.js';
import { programsOf } from '../config/protected.js';
import type { Ctx } from './context.js';

export interface MissingRunner {
  id: string;
  reason: string;
}

const TAIL_LINES = 3;
const TAIL_CHARS = 400;
const STDOUT = '--- stdout ---\n';
const STDERR = '\n--- stderr ---\n';

/** The last lines of a check log's last attempt: its stderr, else its stdout (checks.ts formatLog). */
export function logTail(log: string): string {
  const attempt = log.slice(log.lastIndexOf(STDOUT) + STDOUT.length);
  const split = attempt.indexOf(STDERR);
  const stdout = split < 0 ? attempt : attempt.slice(0, split);
  const rest = split < 0 ? '' : attempt.slice(split + STDERR.length);
  const stderr = rest.slice(0, Math.max(0, rest.lastIndexOf('\n--- ')));
  const lines = (stderr.trim() || stdout.trim()).split('\n').filter((l) => l.trim());
  const tail = lines.slice(-TAIL_LINES).join(' ⏎ ');
  return tail.length > TAIL_CHARS ? `…${tail.slice(-TAIL_CHARS)}` : tail;
}
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Why a failed check's runner is missing, or null: exit 127 (command not found) for a program that
 * is not a file of the tree, or Python saying that the very module it was asked to run (`-m pytest`)
 * does not exist. A missing module a test imports is another name, so never matches.
 */
export function runnerMissing(c: Pick<CheckResult, 'run' | 'exit_code' | 'met'>, log: string, files: ReadonlySet<string>): string | null {
  if (c.met) return null;
  const programs = programsOf(c.run);
  if (c.exit_code === 127) {
    const inTree = programs.every((p) => [p.program, p.script].every((w) => w === null || !w.includes('/') || files.has(w.replace(/^\.\//, ''))));
    return inTree ? `exited 127 (command not found) — install ${programs[0]?.program ?? 'the program'}` : null;
  }
  const module = programs.find((p) => p.module && new RegExp(`No module named '?${escape(p.module)}'?(?![\\w.])`).test(log))?.module;
  return module ? `cannot run: Python has no module named ${module} there — install ${module}` : null;
}

/**
 * A program the checks did not find (exit 127) that the loop's own PATH has where the check user
 * cannot go (a toolchain under /root: rustup's cargo, pyenv's python): where it lies and why it is
 * out of reach, or null.
 */
async function loopsOwnCopy(ctx: Ctx, run: string): Promise<string | null> {
  const program = programsOf(run)[0]?.program;
  if (!program || program.includes('/')) return null;
  for (const dir of (ctx.o.env.PATH ?? '').split(':').filter(Boolean)) {
    const path = join(dir, program);
    if (
      !(await access(path, constants.X_OK).then(
        () => true,
        () => false,
      ))
    )
      continue;
    const [why] = await ctx.sandbox.outOfView([path], 'check');
    return why ? `the loop's own ${program} is there but out of the check user's reach: ${why}` : null;
  }
  return null;
}

/** The criteria whose runner is missing where the checks run, each with its own words (its log's tail). */
export async function runnersMissing(ctx: Ctx, checks: CheckResult[]): Promise<MissingRunner[]> {
  const failed = checks.filter((c) => !c.met && !c.timed_out);
  if (!failed.length) return [];
  const files = new Set(await ctx.git.listFiles());
  const where = `as the check user (isolation ${ctx.isolation}, checks.workspace ${ctx.judge.mode})`;
  const out: MissingRunner[] = [];
  for (const c of failed) {
    const path = c.evidence.split('#')[0];
    const log = (await ctx.ev.readText(path)) ?? '';
    const why = runnerMissing(c, log, files);
    if (!why) continue;
    const own = c.exit_code === 127 ? await loopsOwnCopy(ctx, c.run) : null;
    out.push({
      id: c.id,
      reason: `\`${c.run}\` ${why} where the checks run ${where}${own ? ` (${own}: install it where every user can reach it, e.g. under /usr or /opt)` : ''}, add it to checks.setup, or fix the criterion's run; it said: ${logTail(log) || '(nothing)'} (log: ${path})`,
    });
  }
  return out;
}

/**
 * A JUnit glob that matches nothing on HEAD's tree: the checks do not write where the config says
 * (or their runner never started). What the criteria printed names the cause.
 */
export async function junitMissing(ctx: Ctx, residualError: string | null, checks: CheckResult[]): Promise<MissingRunner[]> {
  if (!residualError || !/^no JUnit XML file matches /.test(residualError)) return [];
  const said: string[] = [];
  for (const c of checks.filter((k) => !k.met)) {
    const tail = logTail((await ctx.ev.readText(c.evidence.split('#')[0])) ?? '');
    if (tail) said.push(`${c.id} said: ${tail}`);
  }
  const fix = 'make the criteria write JUnit XML there (e.g. `pytest --junitxml=…`), or fix residual.junit';
  return [{ id: 'residual', reason: `${residualError} on HEAD, before any agent step: ${fix}${said.length ? `; ${said.join('; ')}` : ''}` }];
}
