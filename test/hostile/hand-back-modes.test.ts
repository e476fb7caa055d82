// At user+pidns the tree the agent hands back holds no mode that git does not keep and that would
// outlive the step in the user's tree: a setgid folder others may write, a sticky one, a setuid or
// setgid file, the user's own folder made setgid and group-writable. git never checks out such a
// mode (nor does tar or rsync as a plain user): the loop clears them when it takes the tree back,
// and puts back the ones the user had (a shared folder of the user's, setgid and group-writable).
// Real CLI, real repo, as root (at pidns and none the agent runs as the loop's user and can set any
// mode on what that user owns, in the tree or outside it: the limits say so).
import { chmod, mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { cli, config, FIXTURES, git, makeRepo, NORTHSTAR } from '../helpers/repo.js';
import { isolationFacts } from '../helpers/isolation.js';

const facts = await isolationFacts();
const skipped = process.getuid?.() !== 0 ? 'user+pidns as root only' : facts.userPidns;
if (skipped) console.warn(`test/hostile/hand-back-modes.test.ts skipped: ${skipped}`);
const mode = async (path: string) => ((await stat(path)).mode & 0o7777).toString(8);

(skipped ? test.skip : test)(
  'setgid, sticky, setuid and shared modes the agent made are cleared when the tree comes back; the user own setgid folder stays one',
  async () => {
    const repo = await makeRepo({
      'phuc-loop.yml': config({
        criteria: [{ id: 'fixed', run: 'grep -q fixed src/status.txt' }],
        agent: `sh ${JSON.stringify(join(FIXTURES, 'hostile', 'modes.sh'))}`,
      }),
      'NORTHSTAR.md': NORTHSTAR,
      'src/status.txt': 'broken\n',
      'team/README.md': 'shared\n',
    });
    await mkdir(join(repo, 'team'), { recursive: true });
    await chmod(join(repo, 'team'), 0o2775);
    await writeFile(join(repo, 'team/notes.txt'), 'the team notes\n');
    const r = await cli(repo, ['run', '--isolation', 'user+pidns']);
    expect(r.stdout).toMatch(/halt: EXIT_CONVERGED/);
    const modes = Object.fromEntries(
      await Promise.all(['src', 'src/shared', 'src/sticky', 'src/tool.sh', 'team'].map(async (p) => [p, await mode(join(repo, p))])),
    );
    expect(modes).toEqual({ src: '755', 'src/shared': '755', 'src/sticky': '755', 'src/tool.sh': '755', team: '2775' });
    // git keeps the executable bit alone.
    expect(await git(repo, 'ls-tree', 'HEAD', 'src/tool.sh')).toMatch(/^100755 /);
  },
  180_000,
);
