// JUnit XML as the checks' test runners write it (node:test, jest-junit, vitest, mocha-junit-reporter,
// pytest, go-junit-report, Maven surefire), read into one list of test results. The counts feed the
// residual (failing_tests_fraction) and the suite-integrity guard (SPEC §7): every doubt fails closed,
// a report the loop cannot trust is an error, never "0 failing".
import type { Stats } from 'node:fs';
import { lstat, readdir, unlink } from 'node:fs/promises';
import { join, posix, relative, sep } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import picomatch from 'picomatch';
import { openRegular } from '../os/tree-file.js';
import { NO_REPORT_FOLDERS } from '../config/regenerable.js';

export type TestStatus = 'passed' | 'failed' | 'error' | 'skipped';

export interface TestRecord {
  /** Stable across runs: classname (or enclosing suites) and name, see testId; a repeat gets " #2", " #3"… */
  id: string;
  /** The enclosing <testsuite> names, outermost first, joined with " > ". */
  suite: string;
  name: string;
  /** The test's source file, where the reporter names it. */
  file?: string;
  status: TestStatus;
  /** One line: the failure, error or skip message (whitespace collapsed, at most MESSAGE_MAX chars). */
  message?: string;
}

export type JunitRead = { tests: TestRecord[]; files: string[] } | { error: string };

/** What prepareJunit saw before a round: reads after the round refuse anything that predates it. */
export interface JunitGuard {
  /** Date.now() when the round began. */
  started: number;
  /** Files that existed and could not be removed: never counted, nor any file with their inode. */
  leftovers: { path: string; dev: number; ino: number }[];
  /** What made the round's reports untrustworthy before it began (a folder not listable, a linked base). */
  problems: string[];
}

const MESSAGE_MAX = 200;
// A report written during the round may carry an mtime a little before `started`: the kernel stamps
// files from a coarse clock, and some file systems keep whole (or even)seconds.
const MTIME_SLACK_MS = 2000;
const MAX_REPORT_BYTES = 256 * 1024 * 1024;

// No entity expansion: the parser leaves every reference as written (a DTD's entities are never
// applied) and decodeXml below decodes only XML's five predefined entities and character references.
const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  attributesGroupName: '@',
  processEntities: false,
  htmlEntities: false,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  cdataPropName: '#cdata',
  ignoreDeclaration: true,
  ignorePiTags: true,
  isArray: (_name, _path, _leaf, isAttribute) => !isAttribute,
});

const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** One pass, so "&amp;lt;" stays "&lt;" (node:test writes such double-escaped names). */
function decodeXml(text: string): string {
  return text.replace(/&(?:#(\d+)|#x([0-9a-fA-F]+)|(lt|gt|amp|quot|apos));/g, (whole, dec?: string, hex?: string, named?: string) => {
    if (named) return PREDEFINED[named];
    const code = dec !== undefined ? Number(dec) : parseInt(hex ?? '', 16);
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

type Node = Record<string, unknown>;

function elements(node: Node, tag: string): Node[] {
  const v = node[tag];
  // An element without attributes or children parses to a string ("" for <skipped/>).
  return Array.isArray(v) ? v.map((e) => (e !== null && typeof e === 'object' ? (e as Node) : { '#text': String(e) })) : [];
}

function attr(node: Node, name: string): string {
  const v = (node['@'] as Record<string, unknown> | undefined)?.[name];
  return typeof v === 'string' ? decodeXml(v).trim() : '';
}

function summary(node: Node): string | undefined {
  const { '#text': text, '#cdata': cdata } = node;
  const body = (typeof text === 'string' ? decodeXml(text) : '') + (Array.isArray(cdata) ? cdata.join('') : '');
  const line = (attr(node, 'message') || body).replace(/\s+/g, ' ').trim();
  if (!line) return undefined;
  return line.length > MESSAGE_MAX ? `${line.slice(0, MESSAGE_MAX - 1)}…` : line;
}

// node:test writes this placeholder as every testcase's classname; its suites are the describe blocks.
const PLACEHOLDER_CLASSNAME = 'test';

/**
 * A test's id: its classname and name, or, without a (real) classname, the names of the enclosing
 * <testsuite>s and its name. The grouping suites of flat reports are left out on purpose: they can
 * change when tests are added (jest-junit names a file's suite after its first describe block; surefire
 * may report a class's tests under a nested class's suite). A classname the name already ends with
 * (mocha-junit-reporter: the test's own title) or repeats (jest-junit) is not repeated. Nothing that
 * changes between runs (time, host, report paths) is part of it.
 */
function testId(suites: string[], classname: string, name: string): string {
  const container = classname && classname !== PLACEHOLDER_CLASSNAME ? [classname] : suites;
  const parts = container.filter((p) => p && p !== name && !name.endsWith(` ${p}`));
  return [...parts, name].filter(Boolean).join(' > ');
}

function statusOf(tc: Node): { status: TestStatus; message?: string } {
  // A failure beside a skip still failed (fail closed); surefire's flaky* / rerun* elements are
  // reruns of a test whose own outcome is the <failure>/<error> element, or its absence.
  for (const [tag, status] of [
    ['error', 'error'],
    ['failure', 'failed'],
    ['skipped', 'skipped'],
  ] as const) {
    const el = elements(tc, tag).at(0);
    if (el) return { status, message: summary(el) };
  }
  return { status: 'passed' };
}

function collect(node: Node, suites: string[], file: string | undefined, out: TestRecord[]): void {
  for (const tc of elements(node, 'testcase')) {
    const name = attr(tc, 'name');
    const { status, message } = statusOf(tc);
    const f = attr(tc, 'file') || file;
    out.push({
      id: testId(suites, attr(tc, 'classname'), name),
      suite: suites.filter(Boolean).join(' > '),
      name,
      ...(f ? { file: f } : {}),
      status,
      ...(message ? { message } : {}),
    });
  }
  for (const ts of elements(node, 'testsuite')) collect(ts, [...suites, attr(ts, 'name')], attr(ts, 'file') || file, out);
}

/** The k-th repeat of an id (k ≥ 2, in reading order: files sorted, then document order) becomes "id #k". */
function uniqueIds(records: TestRecord[]): TestRecord[] {
  const seen = new Set<string>();
  return records.map((r) => {
    let id = r.id;
    for (let k = 2; seen.has(id); k++) id = `${r.id} #${k}`;
    seen.add(id);
    return id === r.id ? r : { ...r, id };
  });
}

function parseRecords(text: string, file: string): TestRecord[] | { error: string } {
  text = text.replace(/^\uFEFF/, '');
  const valid = XMLValidator.validate(text);
  if (valid !== true) return { error: `${file} is not well-formed XML (line ${valid.err.line}: ${valid.err.msg})` };
  const doc = xml.parse(text) as Node;
  // The validator lets two self-closed roots (<testsuite/><testsuite/>) pass: count them here.
  const roots = Object.values(doc).reduce<number>((n, v) => n + (Array.isArray(v) ? v.length : 1), 0);
  if (roots !== 1) return { error: `${file} is not well-formed XML (${roots} root elements)` };
  const out: TestRecord[] = [];
  // <testsuites> may hold <testcase> directly (node:test's top-level tests); its own name is no suite.
  const group = elements(doc, 'testsuites').at(0);
  if (group) collect(group, [], undefined, out);
  else if (doc.testsuite) collect(doc, [], undefined, out);
  else return { error: `${file} is not JUnit XML: its root is neither <testsuites> nor <testsuite>` };
  return out;
}

/** Every test in one JUnit XML document, or an error naming `file` (malformed XML, another root). */
export function parseJunit(text: string, file: string): { tests: TestRecord[] } | { error: string } {
  const r = parseRecords(text, file);
  return Array.isArray(r) ? { tests: uniqueIds(r) } : r;
}

function code(e: unknown): string {
  return (e as NodeJS.ErrnoException).code ?? (e as Error).message;
}

/** The glob's base folder, refused when it leaves cwd or any part of it is a symbolic link. */
async function baseDir(cwd: string, glob: string): Promise<{ dir: string } | { problem: string }> {
  const scan = picomatch.scan(glob);
  // A glob without magic (reports/junit.xml) is all base: its folder is where to look.
  const base = scan.isGlob ? scan.base : posix.dirname(scan.base);
  const parts = base.split('/').filter((p) => p && p !== '.');
  if (posix.isAbsolute(base) || parts.includes('..')) return { problem: `the JUnit glob ${glob} reaches outside the workspace` };
  let dir = cwd;
  for (const part of parts) {
    dir = join(dir, part);
    try {
      if ((await lstat(dir)).isSymbolicLink()) return { problem: `${relative(cwd, dir)} (in the JUnit glob ${glob}) is a symbolic link; it is not followed` };
    } catch (e) {
      if (code(e) === 'ENOENT') break;
      return { problem: `${relative(cwd, dir)} (in the JUnit glob ${glob}) cannot be examined (${code(e)})` };
    }
  }
  return { dir: join(cwd, ...parts) };
}

/**
 * Folders no report is written to and that may hold 100,000 files (the regenerable ones but build
 * outputs: installed dependencies, virtual environments, bytecode and tool caches), and .git: never
 * walked, where every round looks for reports twice.
 */
const NO_REPORTS = new Set(['.git', ...NO_REPORT_FOLDERS]);

async function walk(root: string, dir: string, match: (p: string) => boolean, out: string[], problems: string[]): Promise<void> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (e) {
    if (code(e) !== 'ENOENT') problems.push(`${relative(root, dir) || '.'} cannot be listed (${code(e)})`);
    return;
  }
  for (const e of entries) {
    if (NO_REPORTS.has(e.name)) continue;
    const full = join(dir, e.name);
    // Dirents come from lstat: a link to a folder is not entered; a link that matches is refused on reading.
    if (e.isDirectory()) await walk(root, full, match, out, problems);
    else {
      const rel = relative(root, full).split(sep).join('/');
      if (match(rel)) out.push(rel);
    }
  }
}

/** The files under `cwd` matching `glob` (sorted), and what could not be searched. */
export async function junitFiles(cwd: string, glob: string): Promise<{ files: string[]; problems: string[] }> {
  const base = await baseDir(cwd, glob);
  if ('problem' in base) return { files: [], problems: [base.problem] };
  const files: string[] = [];
  const problems: string[] = [];
  await walk(cwd, base.dir, picomatch(glob, { dot: true }), files, problems);
  return { files: files.sort(), problems };
}

/**
 * Before a check round: removes every report matching `glob` (they are the checks' output; a stale
 * or planted one must not count) and returns the guard readJunit applies after the round.
 */
export async function prepareJunit(cwd: string, glob: string): Promise<JunitGuard> {
  const started = Date.now();
  const { files, problems } = await junitFiles(cwd, glob);
  const leftovers: JunitGuard['leftovers'] = [];
  for (const f of files) {
    const full = join(cwd, f);
    try {
      await unlink(full);
    } catch (e) {
      if (code(e) === 'ENOENT') continue;
      const st = await lstat(full).catch(() => null);
      if (st) leftovers.push({ path: f, dev: st.dev, ino: st.ino });
      else problems.push(`${f} could not be removed before the checks (${code(e)})`);
    }
  }
  return { started, leftovers, problems };
}

function refusal(f: string, st: Stats, guard: JunitGuard): string | null {
  if (guard.leftovers.some((l) => l.path === f || (l.dev === st.dev && l.ino === st.ino)))
    return `${f} existed before the checks and could not be removed; it is never counted`;
  if (st.mtimeMs < guard.started - MTIME_SLACK_MS) return `${f} was last modified before the checks began; it is never counted`;
  return null;
}

async function readReport(cwd: string, f: string, guard: JunitGuard | null): Promise<string | { error: string }> {
  const r = await openRegular(join(cwd, f), MAX_REPORT_BYTES);
  if ('refused' in r) return { error: `${f}: ${r.refused}` };
  const refused = guard && refusal(f, r.stat, guard);
  return refused ? { error: refused } : r.data.toString('utf8');
}

/**
 * After a check round: every test in the reports matching `glob`, or an error naming each file that
 * could not be trusted or read. `guard` is what prepareJunit returned before the round; null reads
 * without one (only for a caller that has not yet removed reports before its round).
 */
export async function readJunit(cwd: string, glob: string, guard: JunitGuard | null): Promise<JunitRead> {
  const { files, problems } = await junitFiles(cwd, glob);
  problems.unshift(...(guard?.problems ?? []));
  const tests: TestRecord[] = [];
  for (const f of files) {
    const text = await readReport(cwd, f, guard);
    const r = typeof text === 'string' ? parseRecords(text, f) : text;
    if (Array.isArray(r)) tests.push(...r);
    else problems.push(r.error);
  }
  if (problems.length) return { error: [...new Set(problems)].join('; ') };
  return { tests: uniqueIds(tests), files };
}

export interface SuiteIntegrity {
  ok: boolean;
  executed_before: number;
  executed_after: number;
  /** Ids executed in the baseline and not executed now (gone, skipped or filtered out), sorted. */
  missing_ids: string[];
  reason: string;
}

/** The tests that ran (not skipped). */
export const executedTests = (tests: TestRecord[]) => tests.filter((t) => t.status !== 'skipped');
/** The tests that ran and did not pass. */
export const failingTests = (tests: TestRecord[]) => tests.filter((t) => t.status === 'failed' || t.status === 'error');

/**
 * Suite integrity (SPEC §7): the tests executed (not skipped) may not fall below the baseline, in
 * number or ids, whatever made them disappear (a deleted test, .only, a skip, an exclude in a runner
 * config, -k). New tests are welcome. `allowFewer` is the human-approved override: the drop is
 * recorded in the reason and passes.
 */
export function suiteIntegrity(baseline: TestRecord[], now: TestRecord[], allowFewer: boolean): SuiteIntegrity {
  const before = executedTests(baseline);
  const after = executedTests(now);
  const executed = new Set(after.map((t) => t.id));
  const missing_ids = [...new Set(before.map((t) => t.id).filter((id) => !executed.has(id)))].sort();
  const counts = `${after.length} tests executed, baseline ${before.length}`;
  const weakened = after.length < before.length || missing_ids.length > 0;
  if (!weakened) return { ok: true, executed_before: before.length, executed_after: after.length, missing_ids, reason: counts };
  const shown = missing_ids.slice(0, 5).join('; ') + (missing_ids.length > 5 ? `; and ${missing_ids.length - 5} more` : '');
  const what = `${counts}${missing_ids.length ? `; ${missing_ids.length} no longer executed: ${shown}` : ''}`;
  return allowFewer
    ? { ok: true, executed_before: before.length, executed_after: after.length, missing_ids, reason: `${what} (allowed by checks.allow_fewer_tests)` }
    : { ok: false, executed_before: before.length, executed_after: after.length, missing_ids, reason: `the suite was weakened: ${what}` };
}

/** A readable line naming up to `max` failing tests and why, e.g. for the halting report. */
export function describeFailures(results: TestRecord[], max: number): string {
  const failing = failingTests(results);
  const executed = executedTests(results).length;
  if (failing.length === 0) return `no test fails (${executed} executed)`;
  const named = failing.slice(0, Math.max(0, max)).map((t) => `${t.id}${t.status === 'error' ? ' (error)' : ''}${t.message ? `: ${t.message}` : ''}`);
  const rest = failing.length - named.length;
  return `${failing.length} of ${executed} tests fail — ${named.join('; ')}${rest > 0 ? `; and ${rest} more` : ''}`;
}
