#!/usr/bin/env node
// Bundles the CLI and the action entries with ncc into dist/ (committed: users run dist/, not src/).
import ncc from '@vercel/ncc';
import { mkdir, writeFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const entries = [
  ['src/cli/index.ts', 'dist/cli/index.js'],
  ['src/action/main.ts', 'dist/main/index.js'],
  ['src/action/post.ts', 'dist/post/index.js'],
];

async function bundle([input, output]) {
  const { code, assets } = await ncc(join(root, input), {
    minify: false,
    sourceMap: false,
    quiet: true,
    target: 'es2022',
    license: 'licenses.txt',
  });
  const outDir = join(root, dirname(output));
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  const shebang = input.startsWith('src/cli/') ? '#!/usr/bin/env node\n' : '';
  await writeFile(join(root, output), shebang + code.replace(/^#!.*\n/, ''), { mode: 0o755 });
  for (const [name, asset] of Object.entries(assets ?? {})) {
    await mkdir(dirname(join(outDir, name)), { recursive: true });
    await writeFile(join(outDir, name), asset.source);
  }
}

if (!process.argv.includes('--schema-only')) {
  for (const entry of entries) if (existsSync(join(root, entry[0]))) await bundle(entry);
  await writeFile(join(root, 'dist/package.json'), '{\n  "type": "module"\n}\n');
}
// The editor schema is generated from the zod schema through the bundled CLI, so it cannot drift.
const { stdout } = await promisify(execFile)(process.execPath, [join(root, 'dist/cli/index.js'), 'schema']);
await mkdir(join(root, 'schema'), { recursive: true });
await writeFile(join(root, 'schema/phuc-loop.schema.json'), stdout);
