// The clean check workspace (SPEC §7, `checks.workspace: clean`): a loop-owned folder that holds
// exactly the tree being judged, so what the agent left beside its commit (ignored files, a planted
// .npmrc, a poisoned cache, HOME) never reaches the criteria. One persistent workspace is updated
// per tree (git rewrites only what differs), and dependencies are installed by `checks.setup` only
// when its inputs change.
//
// Layout under `root` (root must not be writable by the check user, so it cannot swap ws or home for
// a link between rounds):
//   ws/     the checkout the checks run in (handed over to the check user)
//   home/   their HOME and TMPDIR, empty at every update (made anew after a round that touched them; handed over)
//   loop/   0700, the loop's only: a private git dir whose objects are the repository's (alternates)
//           and whose index records the stat of every file written, and the setup record.
// Git runs as the loop's user with no system/global config and none of the repository's config,
// hooks or attributes files: only the tree's own .gitattributes apply, as in a fresh clone.
import { chmod, lstat, mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import picomatch from 'picomatch';
import { shellQuote } from '../common/shell-quote.js';
import { parseDocument } from '../common/document.js';
import { atomicWrite } from '../os/atomic-write.js';
import { Git } from '../os/git.js';
import type { Clock, Logger, ProcessRunner, RunResult, RunSpec } from '../os/ports.js';
import { ShellSession } from '../os/process.js';
import { removeTree } from '../os/tree-file.js';
import { keptPath, lendVolatile, linkSealed, sealOutputs } from './setup-seal.js';
import { checkEnvironment } from './check-env.js';
import {
  DEFAULT_SETUP_INPUTS,
  fingerprintCommand,
  keepTest,
  runSetupCommand,
  setupFailure,
  setupInputsHash,
  type SetupOutcome,
  type SetupRecord,
  setupRecordSchema,
  type SetupSpec,
  unkeptNote,
} from './setup-outputs.js';
import { homeStamp, treeStamp } from './workspace-stamps.js';
import { changedPaths, parseStaged, readTracked, type TrackedEntry, type TrackedState } from './tracked-tree.js';

export interface CheckWorkspaceOptions {
  /** Loop-owned folder outside the work tree; created if missing. Its parent chain must be traversable by the check user. */
  root: string;
  /** A path in the checkout whose objects are judged (the loop's cwd). */
  repo: string;
  /** The loop's own runner: git runs through it as the loop's user, never sandboxed. */
  runner: ProcessRunner;
  /** Runs commands in the workspace (setup, and what the caller runs there): the sandboxed runner. Default: runner.run. */
  run?: (spec: RunSpec) => Promise<RunResult>;
  /**
   * Called with ws/ and home/ after the loop wrote into them, to give them to the check user; `skip`:
   * paths under `dir` (sealed setup outputs) left as they are, never walked.
   */
  handOver?: (dir: string, skip?: readonly string[]) => Promise<void>;
  /**
   * Makes a setup output (a path in ws/) the loop's, closed to writing by the check user (who made
   * it): a sealed output cannot change while the checks run, so no round walks it to see whether it
   * did (setup-seal.ts). Unset where the checks run as the loop's user: the outputs are fingerprinted.
   */
  seal?: (path: string) => Promise<void>;
  /**
   * Called with a folder handed over before, before the loop writes into it again or removes it: to
   * give it back where the loop cannot write the check user's files (under sudo).
   */
  takeBack?: (dir: string) => Promise<void>;
  /** `checks.env`: variables the checks get on top of the fixed ones. */
  env?: Record<string, string>;
  /** The loop's environment, read for PATH, LANG, TZ and the CA bundle variables only (default process.env). */
  baseEnv?: Record<string, string | undefined>;
  /** Where a running setup says it started, that it still runs (every `heartbeatMs`), and how it ended. */
  log?: Logger;
  clock?: Clock;
  /** Default 15 s. */
  heartbeatMs?: number;
}

export interface UpdateOutcome {
  /** Whether the setup outputs were kept; false when they had been changed since they were recorded. */
  outputs: 'kept' | 'none' | 'dropped';
  ms: number;
}

const q = shellQuote;
export class CheckWorkspace {
  readonly dir: string;
  readonly home: string;
  private readonly loopDir: string;
  private readonly recordPath: string;
  private readonly run: (spec: RunSpec) => Promise<RunResult>;
  private current: string | null = null;
  /** A tidy() under way or done, and whether it kept the setup outputs (null: it failed, update() clears). */
  private tidying: Promise<UpdateOutcome['outputs'] | null> | null = null;
  /** HOME as the last update handed it over (see homeStamp); null: it must be made anew. */
  private homeAsGiven: string | null = null;
  /** ws/ as the last update handed it over, without setup outputs (see treeStamp); null: clear() looks. */
  private wsAsGiven: string | null = null;
  /** ws/ could not be stamped (more folders than are stamped, or one unreadable): not walked again this run. */
  private wsUnstamped = false;
  /** The tracked paths of the tree held, and their content as the last update wrote them. */
  private tracked: { tree: string; listing: string; entries: TrackedEntry[] } | null = null;
  private checkedOut: TrackedState | null = null;

  private constructor(
    private readonly o: CheckWorkspaceOptions,
    private readonly session: ShellSession,
    private record: SetupRecord | null,
  ) {
    this.dir = join(o.root, 'ws');
    this.home = join(o.root, 'home');
    this.loopDir = join(o.root, 'loop');
    this.recordPath = join(this.loopDir, 'setup.json');
    this.run = o.run ?? ((spec) => o.runner.run(spec));
  }

  /** Opens (or creates) the persistent workspace under `o.root`. close() ends its git session. */
  static async open(o: CheckWorkspaceOptions): Promise<CheckWorkspace> {
    await mkdir(o.root, { recursive: true, mode: 0o755 });
    const st = await lstat(o.root);
    if (!st.isDirectory()) throw new Error(`the check workspace ${o.root} is not a folder`);
    await chmod(o.root, 0o755);
    const ws = join(o.root, 'ws');
    const loopDir = join(o.root, 'loop');
    const gitDir = join(loopDir, 'git');
    await mkdir(ws, { recursive: true, mode: 0o755 });
    await mkdir(loopDir, { recursive: true, mode: 0o700 });
    await chmod(loopDir, 0o700);
    const [objects, format] = (
      await new Git(o.runner, o.repo, o.baseEnv ?? process.env).run(['rev-parse', '--path-format=absolute', '--git-path', 'objects', '--show-object-format'])
    )
      .trim()
      .split('\n');
    const env = {
      PATH: (o.baseEnv ?? process.env).PATH ?? '/usr/local/bin:/usr/bin:/bin',
      LC_ALL: 'C',
      HOME: loopDir,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_TERMINAL_PROMPT: '0',
      GIT_OPTIONAL_LOCKS: '0',
      GIT_DIR: gitDir,
      GIT_WORK_TREE: ws,
    };
    const session = await ShellSession.start(loopDir, env);
    try {
      const init = await session.run(
        `( test -f ${q(join(gitDir, 'HEAD'))} || { env -u GIT_DIR -u GIT_WORK_TREE git init -q --bare --template= --object-format=${q(format)} ${q(gitDir)} && git config core.bare false; } ) && printf '%s\\n' ${q(objects)} > ${q(join(gitDir, 'objects', 'info', 'alternates'))}`,
      );
      if (init.exitCode !== 0) throw new Error(`could not set up the check workspace's git folder: ${init.stderr.trim()}`);
      const text = await readFile(join(loopDir, 'setup.json'), 'utf8').catch(() => null);
      return new CheckWorkspace(o, session, text ? parseDocument(join(loopDir, 'setup.json'), text, setupRecordSchema) : null);
    } catch (e) {
      await session.close();
      throw e;
    }
  }

  /**
   * A brand-new workspace holding `treeish`, with setup run from scratch: for the final confirmation
   * of a convergence claim and `verify --rerun`. Whatever was under `o.root` is removed first.
   */
  static async fresh(
    o: CheckWorkspaceOptions,
    treeish: string,
    setup?: SetupSpec,
    donor?: CheckWorkspace,
  ): Promise<{ workspace: CheckWorkspace; setup: SetupOutcome }> {
    await o.takeBack?.(o.root);
    await removeTree(o.root);
    const workspace = await CheckWorkspace.open(o);
    try {
      if (donor) await workspace.adopt(donor);
      await workspace.update(treeish);
      return { workspace, setup: setup ? await workspace.setup(setup) : { state: 'none' } };
    } catch (e) {
      await workspace.dispose();
      throw e;
    }
  }

  /**
   * Takes the sealed setup outputs of `donor` (the run's workspace) by hard links, with its record:
   * setup() keeps them only when its inputs are the ones they were made from, else runs the setup.
   * The setup then runs once per run instead of once more for the confirmation (setup-seal.ts).
   */
  private async adopt(donor: CheckWorkspace): Promise<void> {
    const r = donor.record;
    if (r?.sealed === undefined || !r.keep.length) return;
    const sealed = await linkSealed(donor.dir, this.dir, { keep: r.keep, sealed: r.sealed }, (s) => this.session.run(s));
    if (sealed !== null) await this.saveRecord({ ...r, sealed });
  }

  /** The commit or tree the workspace holds (after update). */
  get holds(): string | null {
    return this.current;
  }

  /**
   * Makes ws/ hold exactly `treeish` (a commit or tree): tracked files as in a fresh checkout — a
   * file changed since the last update is rewritten even with its mtime put back, since git also
   * compares ctime, inode and owner, which the check user cannot restore — and every other file
   * removed except the outputs of the last setup, which are kept only while their fingerprint is the
   * one recorded before the previous checks ran. HOME and TMPDIR start empty. The removal is done
   * by tidy() when the caller asked for it after the last checks (off the next round's path), else here.
   */
  async update(treeish: string): Promise<UpdateOutcome> {
    // Only an object id: a name would be resolved in the private git folder, which has no refs.
    if (!/^[0-9a-f]{40}(?:[0-9a-f]{24})?$/.test(treeish))
      throw new Error(`CheckWorkspace.update: expected a commit or tree id, got ${JSON.stringify(treeish)}`);
    const started = performance.now();
    // A tidy that failed in the background is done again here, where its failure is the round's.
    const tidied = await this.tidying;
    this.tidying = null;
    let outputs = tidied ?? (await this.clear());
    const r = await this.session.run(`umask 022 && cd ${q(this.dir)} && git read-tree --reset -u ${treeish}`);
    if (r.exitCode !== 0) throw new Error(`updating the check workspace to ${treeish} failed (${r.exitCode}): ${r.stderr.trim()}`);
    this.current = treeish;
    if (this.o.handOver) {
      const sealed = outputs === 'kept' && this.record?.sealed !== undefined;
      await this.o.handOver(this.dir, sealed ? this.record!.keep.map(keptPath) : []);
      await this.o.handOver(this.home);
      if (sealed) await lendVolatile(this.o, this.dir, this.record!.keep);
      // Handing over changes the files' owner and ctime: record the new stat (git re-reads only those
      // files to confirm their content) so that the next update does not rewrite them all.
      const keep = this.record?.keep ?? [];
      const fingerprint = outputs === 'kept' && !sealed;
      const after = await this.session.run(
        `cd ${q(this.dir)} && { git update-index -q --refresh >/dev/null; true; }${fingerprint ? ` && ${fingerprintCommand(keep, false)}` : ''}`,
      );
      if (fingerprint && this.record && after.exitCode === 0) await this.saveRecord({ ...this.record, fingerprint: after.stdout.trim() });
      else if (outputs === 'kept' && (after.exitCode !== 0 || !this.record)) {
        outputs = 'dropped';
        await this.dropRecord();
      }
    }
    if (this.tracked?.tree !== treeish) {
      // The tree's listing is what read-tree put in the index; one call serves the setup's inputs and the checks' file list too.
      const ls = await this.session.run(`git ls-tree -r -z --full-tree ${treeish}`);
      if (ls.exitCode !== 0) throw new Error(`listing ${treeish} failed: ${ls.stderr.trim()}`);
      this.tracked = { tree: treeish, listing: ls.stdout, entries: parseStaged(ls.stdout) };
    }
    this.checkedOut = readTracked(this.dir, this.tracked.entries);
    this.homeAsGiven = homeStamp(this.home);
    // Kept setup outputs are judged by their fingerprint, which takes a process: stamped only without.
    this.wsAsGiven = this.wsUnstamped || this.record?.keep.length ? null : treeStamp(this.dir);
    this.wsUnstamped ||= this.wsAsGiven === null && !this.record?.keep.length;
    return { outputs, ms: performance.now() - started };
  }

  /**
   * The caller is done with this round (checks, measures): what they left beside the tree is removed
   * now, in the background, while the loop goes on; the next update() waits for it. Call it only
   * when the next use of the workspace is an update().
   */
  tidy(): void {
    if (this.current === null || this.tidying) return;
    this.tidying = this.clear().catch(() => null);
  }

  /**
   * Removes every file but the tree's and the kept setup outputs (see update), gives the folders to
   * the loop again, and empties HOME and TMPDIR. Returns whether the setup outputs were kept.
   */
  private async clear(): Promise<UpdateOutcome['outputs']> {
    const record = this.record;
    const keep = record?.keep ?? [];
    const clean = keep.length ? `git clean -ffdqx ${keep.map((k) => `-e ${q(`/${k}`)}`).join(' ')}` : 'git clean -ffdqx';
    const cleanNow = `if [ -n "$keep" ]; then ${clean}; else git clean -ffdqx; fi`;
    const prune = keep.length ? `\\( ${keep.map((k) => `-path ${q(`./${k.replace(/\/$/, '')}`)}`).join(' -o ')} \\) -prune -o ` : '';
    // Checks that left ws/ as they got it (no file made, no folder changed) leave nothing to remove:
    // looked at before it is taken back, which changes every owner.
    const given = this.wsAsGiven;
    this.wsAsGiven = null;
    const untouched = given !== null && keep.length === 0 && treeStamp(this.dir) === given;
    if (this.o.takeBack) await Promise.all([this.o.takeBack(this.dir), this.o.takeBack(this.home)]);
    if (untouched) {
      await this.resetHome();
      return 'none';
    }
    // One shell round trip, no subshell (the session's shell forks only the commands themselves).
    const script = [
      `umask 022 && cd ${q(this.dir)} && keep=`,
      ...(record && keep.length ? [`&& ${keepTest(record, this.dir)}`] : []),
      // git clean fails on what lies deeper than a path it can name (PATH_MAX): that goes, then git clean again.
      `&& { ${cleanNow} || { find . -regextype posix-extended -regex '.{3800,}' -prune -exec rm -rf -- {} + && ${cleanNow}; }; }`,
      // git clean never removes a folder named .git (a planted repository a test's git would find).
      `&& find . ${prune}-name .git -prune -exec rm -rf -- {} + -o -type d ! -perm 0755 -exec chmod 0755 -- {} +`,
      '&& echo "kept=$keep"',
    ].join(' ');
    const [r] = await Promise.all([this.session.run(script), this.resetHome()]);
    if (r.exitCode !== 0) throw new Error(`clearing the check workspace failed (${r.exitCode}): ${r.stderr.trim()}`);
    const outputs: UpdateOutcome['outputs'] = keep.length === 0 ? 'none' : r.stdout.trim() === 'kept=1' ? 'kept' : 'dropped';
    if (outputs === 'dropped') await this.dropRecord();
    return outputs;
  }

  /**
   * Runs `checks.setup` in the workspace unless the last successful setup ran on the same inputs
   * (the content of the files matching `inputs` in the tree, the command and checks.env) and its
   * outputs are still in place. A setup runs on exactly the tree: earlier outputs are removed first.
   * A failed setup is not recorded, so the next round tries again.
   */
  async setup(spec: SetupSpec): Promise<SetupOutcome> {
    if (!this.tracked) throw new Error('CheckWorkspace.setup: update() the workspace to a tree first');
    if (!spec.command) {
      if (this.record) await this.removeOutputs();
      return { state: 'none' };
    }
    const inputsHash = setupInputsHash(this.tracked.listing, spec.command, spec.inputs ?? DEFAULT_SETUP_INPUTS, this.o.env);
    if (this.record?.inputs_hash === inputsHash) return { state: 'reused', inputs_hash: inputsHash };
    if (this.record) await this.removeOutputs();
    const result = await runSetupCommand({ ...this.o, run: this.run }, { ...spec, command: spec.command }, inputsHash, { cwd: this.dir, env: this.env() });
    if (result.exitCode !== 0 || result.timedOut || result.aborted)
      return { state: 'failed', inputs_hash: inputsHash, result, reason: setupFailure(spec.command, result) };
    // What the setup made beside the tree is what later rounds keep; a setup that changed tracked
    // files would be undone by the next update, so it is not reused.
    const changed = this.changedTracked();
    const r = await this.session.run(`cd ${q(this.dir)} && git ls-files -z --others --directory`);
    if (r.exitCode !== 0) throw new Error(`reading what checks.setup produced failed: ${r.stderr.trim()}`);
    const made = r.stdout.split('\0').filter(Boolean);
    const note = unkeptNote(changed, made);
    const sealed = note === null && made.length ? await sealOutputs(this.o, this.dir, made, (script) => this.session.run(script)) : null;
    if (sealed !== null) await this.saveRecord({ inputs_hash: inputsHash, keep: made, fingerprint: '', sealed });
    else if (note === null && made.length) {
      const f = await this.session.run(`cd ${q(this.dir)} && ${fingerprintCommand(made, false)}`);
      if (f.exitCode !== 0) throw new Error(`fingerprinting the setup outputs failed: ${f.stderr.trim()}`);
      await this.saveRecord({ inputs_hash: inputsHash, keep: made, fingerprint: f.stdout.trim() });
    } else if (note === null) await this.saveRecord({ inputs_hash: inputsHash, keep: [], fingerprint: '' });
    return { state: 'ran', inputs_hash: inputsHash, result, cached: note === null, note, changed };
  }

  /** The files of `tree` when the workspace holds it (null otherwise), from the listing update() made. */
  files(tree: string): string[] | null {
    return this.tracked?.tree === tree ? this.tracked.entries.map((e) => e.path) : null;
  }

  /**
   * The tracked paths whose content (or kind: a file, a link, a folder) is no longer what the last update
   * checked out, read byte for byte (a folder above them ends with `/`): the judged tree must stay
   * the committed tree through setup and every check. `outputs`: the glob of the reports the checks
   * write (checks.junit), which the loop itself removes before a round: a committed copy is output
   * to be replaced, never the tree judged.
   */
  changedTracked(outputs?: string | null): string[] {
    if (!this.tracked || !this.checkedOut) throw new Error('CheckWorkspace.changedTracked: update() the workspace to a tree first');
    const changed = changedPaths(this.checkedOut, readTracked(this.dir, this.tracked.entries));
    if (!outputs) return changed;
    const output = picomatch(outputs, { dot: true });
    return changed.filter((p) => !output(p));
  }

  /** The checks' environment (check-env.ts). */
  env(): Record<string, string> {
    return checkEnvironment({ base: this.o.baseEnv ?? process.env, env: this.o.env, root: this.o.root, home: this.home });
  }

  async close(): Promise<void> {
    await this.tidying;
    await this.session.close();
  }

  /** close() and remove the whole workspace (a fresh one used once). */
  async dispose(): Promise<void> {
    await this.close();
    await this.o.takeBack?.(this.o.root);
    await removeTree(this.o.root);
  }

  /**
   * HOME and TMPDIR start empty: nothing a previous round wrote there (an .npmrc, a cache) carries
   * over. They are made anew only when a round touched them: removing and making folders every round
   * costs more than the look (on ext4 without a journal, every inode freed slows the files made after).
   */
  private async resetHome(): Promise<void> {
    const given = this.homeAsGiven;
    this.homeAsGiven = null;
    if (given !== null && homeStamp(this.home) === given) return;
    await removeTree(this.home);
    await mkdir(join(this.home, 'tmp'), { recursive: true, mode: 0o755 });
    await mkdir(join(this.home, '.config'), { mode: 0o755 });
  }

  /** Removes every setup output now (they belong to other inputs or to no setup at all). */
  private async removeOutputs(): Promise<void> {
    await this.dropRecord();
    const r = await this.session.run(`cd ${q(this.dir)} && git clean -ffdqx`);
    if (r.exitCode !== 0) throw new Error(`removing the earlier setup's outputs failed: ${r.stderr.trim()}`);
  }

  private async saveRecord(record: SetupRecord): Promise<void> {
    this.record = record;
    await atomicWrite(this.recordPath, JSON.stringify(record));
  }

  private async dropRecord(): Promise<void> {
    this.record = null;
    await rm(this.recordPath, { force: true });
  }
}
