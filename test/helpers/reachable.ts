// The checkout may sit in a folder other users cannot enter (a 0700 `mktemp -d`, /root, a 0750
// /home/runner). What a sandboxed agent, a check or a test's own loop user runs from the checkout
// (the scripted agents, the hostile scripts, the built CLI) is therefore used through a copy every
// user can read, made once per content: two suites at once share it, a changed file gets a new one.
import { createHash } from 'node:crypto';
import { chmodSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

/**
 * Where the copies go: not under a scratch folder the sandbox gives each command its own (/tmp
 * becomes a private layer over the real one, or an empty folder where overlayfs cannot mount), so
 * as root a folder of /var/lib; the loop's own temporary folder otherwise (the roles are then the
 * loop's own user, or sudo's, whose /tmp layer shows the real one).
 */
const PARENT = process.getuid?.() === 0 ? '/var/lib' : tmpdir();

function filesOf(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/**
 * A copy of the folder `dir`, plus `extra` files (name → text), that every user can read and enter;
 * its path is stable by content.
 */
export function reachableCopy(dir: string, label: string, extra: Readonly<Record<string, string>> = {}): string {
  const hash = createHash('sha256');
  for (const f of filesOf(dir)) hash.update(`${relative(dir, f)}\0${String(statSync(f).mode & 0o111)}\0`).update(readFileSync(f));
  for (const [name, text] of Object.entries(extra)) hash.update(`${name}\0extra\0${text}`);
  const target = join(PARENT, `phuc-test-${label}-${hash.digest('hex').slice(0, 16)}`);
  if (existsSync(target)) return target;
  const staging = mkdtempSync(`${target}.tmp-`);
  cpSync(dir, staging, { recursive: true });
  for (const [name, text] of Object.entries(extra)) writeFileSync(join(staging, name), text);
  chmodSync(staging, 0o755);
  for (const e of readdirSync(staging, { withFileTypes: true, recursive: true })) {
    const p = join(e.parentPath, e.name);
    if (e.isDirectory()) chmodSync(p, 0o755);
    else if (e.isFile()) chmodSync(p, statSync(p).mode & 0o111 ? 0o755 : 0o644);
  }
  try {
    renameSync(staging, target);
  } catch {
    // Another test process made it meanwhile: the same content.
    rmSync(staging, { recursive: true, force: true });
  }
  return target;
}
