// A sandboxed command's environment: the role's own HOME, TMPDIR, USER and PATH (without the folders
// the role cannot reach), the files its HOME starts with, and (under sudo) the file that carries it.
import { mkdir, realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { firstBlocked } from './reach.js';
import type { RoleUser } from './role-users.js';
import { DEFAULT_PATH } from './sandbox-tools.js';

/** Variables the sandbox sets for its role (a fresh HOME and TMPDIR, a PATH the role can reach). */
const ROLE_OWNED_ENV = new Set(['HOME', 'TMPDIR', 'USER', 'LOGNAME', 'PATH', 'PWD', 'OLDPWD']);

/** `env` without the variables the sandbox sets for the role: given, they would replace the role's own (see wrap). */
export function withoutRoleVariables(env: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter(([k]) => !ROLE_OWNED_ENV.has(k)));
}

/** The only variables taken from the loop's environment (besides PATH); the caller adds the rest. */
const LOCALE_VARS = /^(LANG|LANGUAGE|LC_[A-Z_]+|TZ)$/;

const SHELL_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Writes `files` into the fresh folder `home`; returns every path it made, parents first. */
export async function writeHome(home: string, files: [string, string][]): Promise<string[]> {
  const made: string[] = [];
  for (const [rel, text] of files) {
    const parts = rel.split('/');
    if (parts.some((p) => p === '' || p === '.' || p === '..')) throw new Error(`a HOME file must be a plain relative path, not ${JSON.stringify(rel)}`);
    for (let k = 1; k <= parts.length; k++) {
      const path = join(home, ...parts.slice(0, k));
      if (made.includes(path)) continue;
      if (k < parts.length) await mkdir(path, { mode: 0o700 });
      else await writeFile(path, text, { flag: 'wx', mode: 0o600 });
      made.push(path);
    }
  }
  return made;
}

export function seconds(ms: number): string {
  return (Math.max(0, ms) / 1000).toFixed(3);
}

export function envFileText(env: Record<string, string>): string {
  let text = '';
  for (const [k, v] of Object.entries(env)) {
    if (!SHELL_NAME.test(k)) throw new Error(`the variable name ${JSON.stringify(k)} cannot be passed to a sandboxed command under sudo`);
    text += `export ${k}='${v.replace(/'/g, `'\\''`)}'\n`;
  }
  return text;
}

/**
 * A role's environment: LANG, LC_* and TZ of the loop's, its PATH, the role's HOME, TMPDIR, USER and
 * LOGNAME (`dirs`: fresh ones; null: the loop's own), then `given`, which wins.
 */
export function roleEnvironment(
  loopEnv: Record<string, string | undefined>,
  name: string,
  dirs: { home: string; tmp: string } | null,
  given: Record<string, string>,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(loopEnv)) if (v !== undefined && LOCALE_VARS.test(k)) env[k] = v;
  env.PATH = loopEnv.PATH ?? DEFAULT_PATH;
  const identity: Record<string, string | undefined> = dirs
    ? { HOME: dirs.home, TMPDIR: dirs.tmp, USER: name, LOGNAME: name }
    : { HOME: loopEnv.HOME, TMPDIR: loopEnv.TMPDIR, USER: loopEnv.USER, LOGNAME: loopEnv.LOGNAME };
  for (const [k, v] of Object.entries(identity)) if (v !== undefined) env[k] = v;
  return Object.assign(env, given);
}

/** PATH without the directories the role cannot reach (toolchains under /root, another user's HOME). */
export class ReachablePath {
  /** Per PATH string; PATH filtering is the same for both roles (neither owns a PATH folder). */
  private readonly known = new Map<string, Promise<string>>();

  of(path: string, user: RoleUser): Promise<string> {
    let p = this.known.get(path);
    if (!p) {
      p = (async () => {
        const dirs = path.split(':').filter(Boolean);
        const blocked = await Promise.all(
          dirs.map((d) =>
            realpath(d).then(
              (r) => firstBlocked(r, user),
              () => d,
            ),
          ),
        );
        return dirs.filter((_, i) => blocked[i] === null).join(':');
      })();
      this.known.set(path, p);
    }
    return p;
  }
}
