// What carries from one iteration to the next (AGENTS.md learnings, the capsule) through the built
// CLI on real repositories: volatile agent text, sorted criteria, cumulative evidence links.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { agent, cli, config, makeRepo, NORTHSTAR, readJson } from '../helpers/repo.js';

const three = [3, 1, 2].map((i) => ({ id: `bug${i}`, run: `grep -q fixed-${i} src/status.txt` }));
const ev = (repo: string, f: string) => join(repo, 'evidence/loop', f);

interface Capsule {
  acceptance_criteria: string[];
  accumulated_learnings: string;
  artifact_links: { path: string; sha256: string; role: string }[];
  current_state_summary: { open_questions_from_last_iteration: string[]; criteria_met_so_far: string[]; criteria_still_open: string[] };
}

describe('an agent whose report is full of clock times, pids and temporary paths', () => {
  const runs: string[] = [];
  beforeAll(async () => {
    // The second run names its evidence folder by an absolute path.
    for (const absolute of [false, true]) {
      const repo = await makeRepo({
        'phuc-loop.yml': config({ criteria: three, agent: agent('stamper.mjs') }),
        'NORTHSTAR.md': NORTHSTAR,
        'src/status.txt': 'bugs: 3\n',
      });
      runs.push(repo);
      expect((await cli(repo, ['run', ...(absolute ? ['--evidence', ev(repo, '')] : [])])).code).toBe(0);
    }
  });

  test('converges with every learning carried: the volatile text is normalised at intake', async () => {
    const [repo] = runs;
    const rep = await readJson<Record<string, any>>(ev(repo, 'halting_report.json'));
    expect(rep).toMatchObject({ status: 'EXIT_CONVERGED', iterations_completed: 3 });
    expect(rep.phuc_test_result.pass).toBe(true);
    for (const n of [1, 2]) {
      const c = await readJson<Capsule>(ev(repo, `iter_${n}/cnf_capsule.json`));
      expect(c.accumulated_learnings).toContain(`## Iteration ${n - 1}\n`);
      expect(c.current_state_summary.open_questions_from_last_iteration[0]).toMatch(/: does bug \d need the same fix\?$/);
    }
    // The placeholders are inert in markdown (a word joiner after each "<"): read without the joiners.
    const entry = (await readFile(ev(repo, 'iter_0/agents_md_entry.md'), 'utf8')).replace(/\u2060/g, '');
    expect(entry).toMatch(/- \[C\] \[<time>\] pid <pid> at <time> on <date>: fixed bug 1 in <duration> \(scratch in <tmp-path>\)/);
    expect(entry).not.toMatch(/\d{4}-\d{2}-\d{2}|\d{2}:\d{2}|\/tmp\//);
  });

  test('the capsule lists criteria sorted and links the evidence of every earlier iteration by repo-relative paths', async () => {
    for (const repo of runs) {
      const c = await readJson<Capsule>(ev(repo, 'iter_2/cnf_capsule.json'));
      expect(c.acceptance_criteria.map((a) => a.split(':')[0])).toEqual(['bug1', 'bug2', 'bug3']);
      expect(c.current_state_summary.criteria_met_so_far).toEqual(['bug1', 'bug2']);
      const paths = c.artifact_links.map((l) => `${l.role} ${l.path}`);
      expect(paths).toEqual(expect.arrayContaining(['plan evidence/loop/plan.json', 'test evidence/loop/baseline/checks/bug1.log']));
      for (const i of [0, 1])
        expect(paths).toEqual(
          expect.arrayContaining([
            `proof evidence/loop/iter_${i}/certificate.json`,
            `artifact evidence/loop/iter_${i}/diff.patch`,
            `log evidence/loop/iter_${i}/agents_md_entry.md`,
            `test evidence/loop/iter_${i}/checks/bug1.log`,
          ]),
        );
      expect(paths.filter((p) => p.startsWith('test evidence/loop/iter_1/'))).toEqual(
        ['bug1', 'bug2', 'bug3'].map((id) => `test evidence/loop/iter_1/checks/${id}.log`),
      );
      // Every link is a hash of a file in the tree, and no machine path appears anywhere in the capsule.
      for (const l of c.artifact_links) expect(l.path).not.toMatch(/^\//);
      const text = await readFile(ev(repo, 'iter_2/cnf_capsule.json'), 'utf8');
      expect(text).not.toContain(repo);
      expect(text).not.toMatch(/"\/|\/tmp\//);
    }
  });

  test('two runs give byte-identical AGENTS.md entries and capsules (up to hashes and measured seconds)', async () => {
    const norm = (t: string) => t.replace(/#[0-9a-f]{64}|"[0-9a-f]{64}"/g, 'H').replace(/"seconds_remaining": \d+/, 'S');
    for (const n of [0, 1, 2])
      for (const f of ['agents_md_entry.md', 'cnf_capsule.json'])
        expect(norm(await readFile(ev(runs[0], `iter_${n}/${f}`), 'utf8'))).toBe(norm(await readFile(ev(runs[1], `iter_${n}/${f}`), 'utf8')));
  });
});
