// A folder the loop must write that is read-only (chmod a-w by the user or an agent of the same
// user, a read-only mount) ends the run EXIT_BLOCKED(FOLDER_READ_ONLY) naming it, before anything is
// written or an agent step is spent: the evidence and state stay as they are, and once the folder is
// writable again a plain `phuc-loop run` goes on.
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';

export const FOLDER_READ_ONLY = 'FOLDER_READ_ONLY';

/** The first of `folders` (what each is, for the message) that exists and this process cannot write, said as the halt's detail. */
export async function readOnlyFolder(folders: readonly (readonly [path: string, what: string])[]): Promise<string | null> {
  for (const [path, what] of folders) {
    const code = await access(path, constants.W_OK).then(
      () => null,
      (e: unknown) => (e as NodeJS.ErrnoException).code ?? 'EACCES',
    );
    if (code && code !== 'ENOENT' && code !== 'ENOTDIR')
      return `${path} (${what}) is read-only here (${code}): make it writable (\`chmod u+w\`, or mount it read-write), then \`phuc-loop run\` goes on`;
  }
  return null;
}
