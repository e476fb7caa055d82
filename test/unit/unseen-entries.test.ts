// unseen-entries.ts listEntries: the listing after a step (kinds read from the folders, no lstat)
// gives the same entries and kinds as the one before it (an lstat per entry), on a real tree holding
// every kind, a regenerable folder (listed, not entered), a link to a folder (never followed) and a
// chain of folders past the depth the loop looks into.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listEntries } from '../../src/engine/agent/unseen-entries.js';

test('kinds from readdir equal kinds from lstat, entry for entry', () => {
  const root = mkdtempSync(join(tmpdir(), 'phuc-entries-'));
  try {
    mkdirSync(join(root, 'src/empty'), { recursive: true });
    writeFileSync(join(root, 'src/a.ts'), 'a');
    mkdirSync(join(root, 'node_modules/pkg'), { recursive: true });
    writeFileSync(join(root, 'node_modules/pkg/index.js'), 'x');
    symlinkSync('src', join(root, 'to-src'));
    symlinkSync('nowhere', join(root, 'dangling'));
    execFileSync('mkfifo', [join(root, 'src/fifo')]);
    let deep = join(root, 'deep');
    for (let i = 0; i < 20; i++) deep = join(deep, 'd'.repeat(200));
    mkdirSync(deep, { recursive: true });
    mkdirSync(join(root, '.git'));
    const kinds = (stats: boolean) =>
      Object.fromEntries([...listEntries(root, (p) => p === 'src/a.ts', new Set(['node_modules']), stats)].map(([p, e]) => [p, e.kind]));
    const withStats = kinds(true);
    expect(withStats).toMatchObject({ src: 'dir', 'src/empty': 'dir', 'src/fifo': 'special', node_modules: 'dir', 'to-src': 'link', dangling: 'link' });
    expect(Object.keys(withStats)).not.toEqual(expect.arrayContaining(['src/a.ts', 'node_modules/pkg', 'to-src/a.ts', '.git']));
    expect(Object.keys(withStats).filter((p) => p.startsWith('deep')).length).toBeGreaterThan(10);
    expect(kinds(false)).toEqual(withStats);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
