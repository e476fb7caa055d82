// What the loop hands git: the environment it keeps, and paths on stdin or on the command line.

/** The variables of the loop's environment git is given (its identity, its config overrides, its certificates). */
export const GIT_ENV_KEEP =
  /^(PATH|HOME|LANG|LC_[A-Z]+|TZ|TMPDIR|GIT_CONFIG_(COUNT|KEY_\d+|VALUE_\d+)|GIT_AUTHOR_(NAME|EMAIL)|GIT_COMMITTER_(NAME|EMAIL)|GIT_SSH_COMMAND|XDG_CONFIG_HOME|SSL_CERT_FILE|SSL_CERT_DIR)$/;

/**
 * Paths go to git on its standard input (update-index, checkout-index: exact names, read in linear
 * time), never on its command line, where an agent's many long names would pass the kernel's limit
 * (E2BIG: no git would run). Lookups (ls-files, ls-tree, diff) get them on the command line up to
 * this many bytes; beyond, git lists everything and the loop picks the paths out.
 */
const ARGV_PATHS_BYTES = 16 * 1024;

/**
 * Stages the exact paths on stdin (NUL-separated) as `git add -A` does: new and changed files added,
 * missing ones removed, a file replacing a folder (or the reverse) replacing its entries; a path
 * beyond a link refused, attribute conversions applied. Not `git add`: it matches every file against
 * every pathspec, which for an agent's ten thousand new files takes minutes.
 */
export const STAGE_FROM_STDIN = ['update-index', '--add', '--remove', '--replace', '-z', '--stdin'];

/** Whether `paths` may go on a command line (see ARGV_PATHS_BYTES). */
export function fitsArgv(paths: string[]): boolean {
  let bytes = 0;
  for (const p of paths) if ((bytes += Buffer.byteLength(p) + 1) > ARGV_PATHS_BYTES) return false;
  return true;
}

/** A git command line for a message: a long one (paths) cut short, with the count of what was left out. */
export function describeArgs(args: string[], limit = 300): string {
  let text = '';
  for (let i = 0; i < args.length; i++) {
    const next = text ? `${text} ${args[i]}` : args[i];
    if (next.length > limit) return `${text || args[i].slice(0, limit)} … (${args.length - (text ? i : i + 1)} more argument(s))`;
    text = next;
  }
  return text;
}
