// The reusable workflow's toolchain steps for a Node, a Python and a Go project, then the action on
// the PATH they leave: the checks run as phuc-check (user+pidns), which reaches neither the runner
// user's HOME (here root's: pyenv's Python, rustup's Rust) nor a pip of the system Python. Each
// project converges, with the PR comment there before iteration 0 ends and the outputs set. The
// official setup actions (uses:) are not run offline: the machine's toolchains stand in for them.
import { existsSync } from 'node:fs';
import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { GitHubEmulator } from '../harness/github-emulator.js';
import { cloneWorkspace, traversableTempDir } from '../harness/git-origin.js';
import { runSteps, workflowSteps } from '../harness/workflow-steps.js';
import { config, NORTHSTAR } from '../helpers/repo.js';
import { debugJob, fixtureAgent, REPO, ROOT, runJob, scenario, useEmulator } from './helpers.js';

let gh: GitHubEmulator;
useEmulator((g) => (gh = g));

const WORKFLOW = join(ROOT, '.github/workflows/phuc-loop.yml');
// This machine's offline package index (pip's default index is out of reach here).
const PIP_INDEX = '/opt/pypi/simple';

interface Project {
  kind: string;
  files: Record<string, string>;
  check: string;
  /** The planted bug the agent fixes: file, from, to. */
  fix: [string, string, string];
}

const PROJECTS: Project[] = [
  {
    kind: 'node',
    files: {
      'package.json': '{ "name": "calc", "type": "module", "scripts": { "test": "node --test test/" } }\n',
      'src/calc.js': 'export const add = (a, b) => a - b;\n',
      'test/calc.test.js':
        "import test from 'node:test';\nimport assert from 'node:assert';\nimport { add } from '../src/calc.js';\ntest('add', () => assert.strictEqual(add(2, 3), 5));\n",
    },
    check: 'node --test test/',
    fix: ['src/calc.js', 'a - b', 'a + b'],
  },
  {
    kind: 'python',
    files: {
      // A dependency the system Python lacks: only the workflow's virtual environment has it.
      'pyproject.toml': '[project]\nname = "calc"\nversion = "0.1.0"\ndependencies = ["toolz"]\n\n[project.optional-dependencies]\ntest = ["pytest"]\n',
      'calc.py': 'import toolz\n\n\ndef add(a, b):\n    return toolz.identity(a) - b\n',
      'test/test_calc.py': 'from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n',
    },
    check: 'python3 -m pytest -q -p no:cacheprovider test',
    fix: ['calc.py', ') - b', ') + b'],
  },
  {
    kind: 'go',
    files: {
      'go.mod': 'module calc\n\ngo 1.19\n',
      'calc.go': 'package calc\n\nfunc Add(a, b int) int { return a - b }\n',
      'test/calc_test.go':
        'package calc_test\n\nimport (\n\t"testing"\n\n\t"calc"\n)\n\nfunc TestAdd(t *testing.T) {\n\tif calc.Add(2, 3) != 5 {\n\t\tt.Fatal("2 + 3")\n\t}\n}\n',
    },
    check: 'go test ./...',
    fix: ['calc.go', 'a - b', 'a + b'],
  },
];

const runnable = (p: Project) => p.kind !== 'python' || existsSync(PIP_INDEX);

describe.each(PROJECTS.map((p) => [p.kind, p] as const))('%s project', (kind, p) => {
  (runnable(p) ? test : test.skip)(
    'the workflow finds and prepares its toolchain; the loop converges with the checks as phuc-check',
    async () => {
      const number = 300 + PROJECTS.indexOf(p);
      const files = {
        ...p.files,
        'phuc-loop.yml':
          config({ criteria: [{ id: 'tests', run: p.check }], agent: `${fixtureAgent('replace.mjs')} ${p.fix.map((a) => JSON.stringify(a)).join(' ')}` }) +
          '\n',
        'NORTHSTAR.md': NORTHSTAR,
      };
      const s = await scenario(gh, number, files);
      // The runner's layout: the action beside the pull request's checkout, a tool cache.
      const runnerWorkspace = await traversableTempDir('wf-workspace-');
      await symlink(ROOT, join(runnerWorkspace, 'phuc-loop-action'));
      const toolCache = await traversableTempDir('wf-toolcache-');
      const workspace = await cloneWorkspace(s.origin, { token: 'unused', branch: `pr-${number}` });
      const steps = await workflowSteps(WORKFLOW, 'loop');
      const env: Record<string, string> = {
        PATH: process.env['PATH'] ?? '',
        HOME: process.env['HOME'] ?? '',
        GITHUB_WORKSPACE: runnerWorkspace,
        RUNNER_TOOL_CACHE: toolCache,
        PIP_INDEX_URL: `file://${PIP_INDEX}`,
        PIP_RETRIES: '0',
      };
      const prepared = await runSteps(steps, ['toolchain', 'toolchain-path'], {
        cwd: workspace,
        inputs: { toolchain: 'auto', 'working-directory': '.' },
        env,
      });
      expect(prepared.outputs['toolchain']).toEqual({ kind });
      expect(prepared.path.length).toBe(1);

      const job = await runJob(s, {
        workspace,
        env: { ...prepared.env, PATH: [...prepared.path, env.PATH].join(':') },
      });
      if (job.main.exitCode !== 0) throw new Error(`${prepared.log}\n${debugJob(job)}`);
      expect(job.main.outputs).toMatchObject({ status: 'EXIT_CONVERGED', iterations: '1', certificate: 'EXACT' });
      expect(job.main.outputs['certified-commit']).toMatch(/^[0-9a-f]{40}$/);
      // The comment was there while the run was RUNNING, before iteration 0 ended; then the final one.
      const writes = gh.calls
        .slice(job.callsBefore)
        .filter((c) => c.operation === 'issues/create-comment' || c.operation === 'issues/update-comment')
        .map((c) => (c.body as { body: string }).body.split('\n')[1]);
      expect(writes[0]).toMatch(/RUNNING/);
      expect(writes[0]).not.toMatch(/iteration 0 done/);
      expect(writes.at(-1)).toMatch(/EXIT_CONVERGED/);
      expect(gh.commentsOn(REPO, number)).toHaveLength(1);
      expect(job.main.stdout).toMatch(/isolation: user\+pidns/);
    },
    600_000,
  );
});
