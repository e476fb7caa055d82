// The environment of everything run in the clean check workspace (judge/workspace.ts): a fresh
// HOME and TMPDIR, no system/global git config, no user/global npm config, PATH, LANG, TZ and the
// CA bundle variables of the loop, and `checks.env`; nothing else of the loop's environment.
// checks.env cannot replace the variables that isolate the checks.
import { join } from 'node:path';
import { CA_BUNDLE_VARS } from '../os/secrets.js';

export function checkEnvironment(o: {
  /** The loop's environment. */
  base: Record<string, string | undefined>;
  /** checks.env. */
  env: Record<string, string> | undefined;
  /** The workspace's root: a test's git stops climbing there. */
  root: string;
  home: string;
}): Record<string, string> {
  const { base, home } = o;
  const env: Record<string, string> = { PATH: base.PATH ?? '/usr/local/bin:/usr/bin:/bin' };
  for (const k of ['LANG', 'TZ'] as const) {
    const v = base[k];
    if (v !== undefined) env[k] = v;
  }
  // The CA certificates the agent gets (os/secrets.ts), under any case of their names (npm_config_cafile).
  const ca = new Set<string>(CA_BUNDLE_VARS);
  for (const [k, v] of Object.entries(base)) if (v !== undefined && ca.has(k.toUpperCase())) env[k] = v;
  return {
    ...env,
    ...o.env,
    HOME: home,
    TMPDIR: join(home, 'tmp'),
    XDG_CONFIG_HOME: join(home, '.config'),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    // A test's own git calls must not climb out of the workspace into another repository.
    GIT_CEILING_DIRECTORIES: o.root,
    // Files that do not exist in the fresh HOME (npm refuses one file loaded as both user and global config).
    NPM_CONFIG_USERCONFIG: join(home, '.npmrc'),
    NPM_CONFIG_GLOBALCONFIG: join(home, '.npm-globalrc'),
  };
}
