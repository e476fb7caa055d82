// Start-up (issue 31): the entry bundles hold only what their first output needs. The CLI's
// `--version` and the Action's main step's first line come from the entry file alone — copied with
// none of the lazily loaded chunks beside it — and each entry stays small; everything else
// (commands, toolkit, engine) loads after it. bench/startup.ts measures the CPU this saves.
import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VERSION } from '../../src/engine/common/version.js';
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
