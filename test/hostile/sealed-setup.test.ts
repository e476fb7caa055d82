// Sealed setup outputs (SPEC §7, clean workspace at user+pidns): what checks.setup made beside the
// tree is the loop's once the setup ends, read-only to the check user. A check (the agent's code)
// cannot change an installed dependency for a later round, and cannot slip another folder in its
// place: a swapped folder is seen without walking the outputs and the setup runs again. The tools'
// caches inside node_modules stay writable, empty every round. Real CLI, real repos, real users.
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { checkStateDir, cli, config, makeRepo, NORTHSTAR, readJson } from '../helpers/repo.js';
import { isolationFacts } from '../helpers/isolation.js';

const facts = await isolationFacts();
const strong = process.getuid?.() === 0 && facts.userPidns === null;
const maybe = strong ? test : test.skip;

const AGENT = `if [ "$PHUC_ITERATION" = 1 ]; then echo fixed > src/status.txt; else echo still-broken > src/status.txt; fi
echo '{"tried":["t"],"claims":["c"],"failures":[],"open_questions":[],"can_further_iteration_help":true}' > "$PHUC_REPORT_FILE"
`;

/** Every round: what the installed dependency says, whether the check could change it, and whether the cache is writable. */
function repo(state: string, attack: string): Promise<string> {
  const check = `#!/bin/sh
{ printf 'round dep=%s private=%s ' "$(cat node_modules/dep/index.js)" "$(cat node_modules/dep/private.txt)"
  ( echo planted > node_modules/dep/index.js ) 2>/dev/null; printf 'write=%s ' $?
  ( touch node_modules/planted ) 2>/dev/null; printf 'add=%s ' $?
  ( mkdir -p node_modules/.cache/tool && echo x > node_modules/.cache/tool/c ) 2>/dev/null; printf 'cache=%s\\n' $?
} >> ${state}/rounds
${attack}
grep -qx fixed src/status.txt
`;
  return makeRepo({
    'phuc-loop.yml': config({
      criteria: [{ id: 'tests', run: 'sh test/check.sh' }],
      agent: 'sh agent.sh',
      writable: [state],
      extra: `checks:\n  setup: "echo setup >> ${state}/setups; mkdir -p node_modules/dep && echo installed > node_modules/dep/index.js && echo mine > node_modules/dep/private.txt && chmod 600 node_modules/dep/private.txt"`,
    }),
    'NORTHSTAR.md': NORTHSTAR,
    'agent.sh': AGENT,
    'test/check.sh': check,
    'src/status.txt': 'broken\n',
  });
}

const setupState = async (dir: string, round: string) => (await readJson<{ state: string }>(join(dir, 'evidence/loop', round, 'setup.json'))).state;

maybe(
  'a check cannot change what checks.setup installed: every round sees it as installed, and the setup runs once a run (the confirmation links its sealed outputs)',
  async () => {
    const state = await checkStateDir();
    try {
      const dir = await repo(state, '');
      const r = await cli(dir, ['run']);
      expect(r.stdout + r.stderr).toMatch(/halt: EXIT_CONVERGED/);
      const rounds = (await readFile(join(state, 'rounds'), 'utf8')).trim().split('\n');
      // The baseline, iterations 0 and 1, and the confirmation on a fresh checkout (no canary: no runner is recognised).
      expect(rounds).toHaveLength(4);
      for (const line of rounds) expect(line).toMatch(/^round dep=installed private=mine write=[1-9]\d* add=[1-9]\d* cache=0$/);
      expect(await setupState(dir, 'baseline')).toBe('ran');
      expect(await setupState(dir, 'iter_0')).toBe('reused');
      expect(await setupState(dir, 'iter_1')).toBe('reused');
      // Once a run: the confirmation's fresh checkout links the sealed outputs of the same inputs,
      // which its check could neither change nor add to (its round above), instead of installing again.
      expect(await setupState(dir, 'iter_1/replay_1')).toBe('reused');
      expect((await readFile(join(state, 'setups'), 'utf8')).trim().split('\n')).toHaveLength(1);
    } finally {
      await rm(state, { recursive: true, force: true });
    }
  },
  240_000,
);

maybe(
  'a check that puts another node_modules in place of the installed one gets the setup run again, never its own folder',
  async () => {
    const state = await checkStateDir();
    try {
      // In the baseline round only (the marker file is the check's own, in the writable state folder).
      const swap = `[ -f ${state}/swapped ] || { mv node_modules nm-old && mkdir -p node_modules/dep && echo planted > node_modules/dep/index.js && touch ${state}/swapped; }`;
      const dir = await repo(state, swap);
      const r = await cli(dir, ['run']);
      expect(r.stdout + r.stderr).toMatch(/halt: EXIT_CONVERGED/);
      expect(await readFile(join(state, 'swapped'), 'utf8')).toBe('');
      const rounds = (await readFile(join(state, 'rounds'), 'utf8')).trim().split('\n');
      for (const line of rounds) expect(line).toMatch(/^round dep=installed /);
      expect(await setupState(dir, 'baseline')).toBe('ran');
      expect(await setupState(dir, 'iter_0')).toBe('ran');
      expect(await setupState(dir, 'iter_1')).toBe('reused');
    } finally {
      await rm(state, { recursive: true, force: true });
    }
  },
  240_000,
);
