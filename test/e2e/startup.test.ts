// Start-up (issue 31): the entry bundles hold only what their first output needs. The CLI's
// `--version` and the Action's main step's first line come from the entry file alone — copied with
// none of the lazily loaded chunks beside it — and each entry stays small; everything else
// (commands, toolkit, engine) loads after it. bench/startup.ts measures the CPU this saves.
import { execFile } from 'node:child_process';
import { copyFile, cp, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VERSION } from '../../src/engine/common/version.js';
import { parseFileCommands } from '../harness/runner.js';
import { assertBuilt, ROOT } from './helpers.js';

// The entries carry the version and the loader of their chunks: a few kB (the whole CLI is ~3 MB).
const ENTRY_LIMIT = 64 * 1024;

/** Runs `node entry args…` from a folder holding only that entry (and the ESM marker beside it). */
async function alone(bundle: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'entry-alone-'));
  try {
    await copyFile(join(ROOT, 'dist', bundle, 'index.js'), join(dir, 'index.js'));
    await writeFile(join(dir, 'package.json'), '{ "type": "module" }\n');
    return await new Promise((resolve) =>
      execFile(process.execPath, [join(dir, 'index.js'), ...args], { env: { PATH: process.env['PATH'] ?? '' } }, (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      ),
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

beforeAll(() => assertBuilt());

test('phuc-loop --version needs only the entry file; any other command loads its chunk', async () => {
  expect((await stat(join(ROOT, 'dist/cli/index.js'))).size).toBeLessThan(ENTRY_LIMIT);
  expect(await alone('cli', ['--version'])).toEqual({ code: 0, stdout: `phuc-loop ${VERSION}\n`, stderr: '' });
  // Without its chunks a command has nothing to run: the split is real.
  const help = await alone('cli', ['--help']);
  expect(help.code).not.toBe(0);
  expect(help.stdout).toBe('');
});

test("the Action's main step prints its first line before its modules load", async () => {
  expect((await stat(join(ROOT, 'dist/main/index.js'))).size).toBeLessThan(ENTRY_LIMIT);
  const r = await alone('main', []);
  expect(r.stdout).toBe(`phuc-loop ${VERSION}\n`);
  expect(r.code).not.toBe(0);
});

// A bad input is refused with the runner's file commands alone (src/action/file-commands.ts): the
// chunks that carry undici (the HTTP client @actions/core brings, most of a refusal's CPU before; its
// errors are named UND_ERR_*) are taken away and the refusal is whole; a valid input then needs them
// to start the run.
test("the Action's main step refuses bad inputs without loading @actions/core's undici", async () => {
  const dir = await mkdtemp(join(tmpdir(), 'main-refusal-'));
  try {
    await cp(join(ROOT, 'dist/main'), dir, { recursive: true });
    await writeFile(join(dir, 'package.json'), '{ "type": "module" }\n');
    let removed = 0;
    for (const f of await readdir(dir))
      if (f.endsWith('.js') && (await readFile(join(dir, f), 'utf8')).includes('UND_ERR_')) {
        await rm(join(dir, f));
        removed++;
      }
    expect(removed).toBeGreaterThan(0);
    const step = async (inputs: Record<string, string>) => {
      const output = join(dir, `output-${Object.keys(inputs).length}`);
      await writeFile(output, '');
      const r = await new Promise<{ code: number; stdout: string }>((resolve) =>
        execFile(process.execPath, [join(dir, 'index.js')], { env: { PATH: process.env['PATH'] ?? '', GITHUB_OUTPUT: output, ...inputs } }, (err, stdout) =>
          resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout }),
        ),
      );
      return { ...r, outputs: parseFileCommands(await readFile(output, 'utf8')) };
    };
    const bad = await step({ 'INPUT_GITHUB-TOKEN': 'ghs_x', INPUT_COMMENT: 'loud' });
    expect(bad.code).toBe(13);
    expect(bad.outputs).toMatchObject({ status: 'EXIT_NEED_INFO', 'stop-reason': 'INVALID_INPUT', certificate: 'NONE', iterations: '0' });
    expect(bad.stdout).toContain('::error::phuc-loop: invalid input:%0A  - input "comment": got "loud"; must be one of sticky | per-iteration | off');
    // Valid inputs go on to the run, which the missing chunks held.
    const good = await step({ 'INPUT_GITHUB-TOKEN': 'ghs_x' });
    expect(good.code).toBe(1);
    expect(good.outputs).toEqual({});
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('the post bundle carries only what post needs: no tokenizer table, no audit of the evidence', async () => {
  const dir = join(ROOT, 'dist/post');
  const files = (await readdir(dir)).filter((f) => f.endsWith('.js'));
  let size = 0;
  for (const f of files) {
    const text = await readFile(join(dir, f), 'utf8');
    size += text.length;
    // The tokenizer's table (AGENTS.md's budgets) and the Phuc Test came through the log-tail cut's verifier.
    expect([f, /cl100k_base|gpt-tokenizer/.test(text)]).toEqual([f, false]);
    expect([f, text.includes('Triangle')]).toEqual([f, false]);
  }
  // The artifact client (Azure blob storage) is most of it: ~4 MB; the engine's whole was ~8 MB.
  expect(size).toBeLessThan(6 * 1024 * 1024);
});
