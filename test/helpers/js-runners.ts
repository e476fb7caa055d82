// vitest, mocha and chai for tests that run them in real projects: installed once from the npm
// registry into a folder every user can read (the checks run as another user at user+pidns, with
// a /tmp of their own: as root, a folder of /var/lib) and kept there, so a later run needs no network. jest is this repository's own (ROOT/node_modules).
// Offline and never installed: null with the reason, for the test to skip and say why.
import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const exec = promisify(execFile);
export const JS_RUNNERS = { vitest: '3.2.4', mocha: '11.7.1', chai: '5.2.0' } as const;
const SPEC = Object.entries(JS_RUNNERS).map(([name, version]) => `${name}@${version}`);

/** The node_modules holding the pinned runners (installed now unless already there), or why not. */
export async function jsRunners(): Promise<{ nodeModules: string } | { missing: string }> {
  const dir = join(process.env.PHUC_JS_RUNNERS_CACHE ?? (process.getuid?.() === 0 ? '/var/lib' : tmpdir()), 'phuc-test-js-runners');
  const marker = join(dir, '.phuc-installed');
  if ((await readFile(marker, 'utf8').catch(() => '')) === SPEC.join(' ')) return { nodeModules: join(dir, 'node_modules') };
  await mkdir(join(dir, '..'), { recursive: true });
  // Installed beside the final place and renamed: a half-finished install is never taken for one.
  const staging = await mkdtemp(`${dir}.partial-`);
  try {
    await exec('npm', ['install', '--prefix', staging, '--no-audit', '--no-fund', '--no-save', '--prefer-offline', '--loglevel=error', ...SPEC], {
      maxBuffer: 1 << 24,
      timeout: 300_000,
    });
  } catch (e) {
    await rm(staging, { recursive: true, force: true });
    return { missing: `${SPEC.join(', ')} could not be installed from the npm registry: ${String(e).split('\n')[0]}` };
  }
  await chmod(staging, 0o755);
  await writeFile(join(staging, '.phuc-installed'), SPEC.join(' '));
  await rm(dir, { recursive: true, force: true });
  await rename(staging, dir);
  return { nodeModules: join(dir, 'node_modules') };
}
