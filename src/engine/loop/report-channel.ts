// The agent's report channel (.phuc-loop/, REPORT_PATH) is the loop's: it empties it after every
// agent step (takeReport) and its content is left out of the user's kept files. A user's file
// standing there (committed, untracked or ignored: an older version's, another tool's) would be
// deleted, so the run refuses to start and names it (SPEC §7: the loop never deletes a user's file).
// Only an empty folder (the loop's own, kept between steps) or what a step a kill cut off left
// there (the agent's) is the loop's to clear.
import { lstat, readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { REPORT_PATH } from '../agent/agents.js';
import { listSome } from '../common/markdown.js';

const CHANNEL = dirname(REPORT_PATH);

/** The refusal when the report channel holds something of the user's, else null. */
export async function userInReportChannel(
  cwd: string,
  o: { cutOffStep: () => Promise<boolean>; tracked: (paths: string[]) => Promise<Set<string>> },
): Promise<string | null> {
  const at = join(cwd, CHANNEL);
  const st = await lstat(at).catch(() => null);
  if (!st) return null;
  const names = st.isDirectory() ? (await readdir(at).catch(() => [])).map((n) => `${CHANNEL}/${n}`) : [CHANNEL];
  if (!names.length) return null;
  const committed = await o.tracked(names);
  // A step a kill cut off left the agent's report (or more) there: the run that started it refused
  // any file of the user's there, so what is not committed is the agent's, for the next step to clear.
  if (!committed.size && (await o.cutOffStep())) return null;
  return (
    `${listSome(names)} ${names.length > 1 ? 'are' : 'is'} the user's${committed.size ? ` (committed: ${listSome([...committed])})` : ''}, ` +
    `but ${CHANNEL}/ is the loop's channel for the agent's report, emptied after every agent step: ` +
    `move ${names.length > 1 ? 'them' : 'it'} out of ${CHANNEL}/ (\`git mv\` ${committed.size ? 'and commit' : 'or `mv`'}), then \`phuc-loop run\` again`
  );
}
