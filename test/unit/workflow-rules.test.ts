// The rules scripts/check-workflows.mjs adds to actionlint: each shown failing on a broken copy of
// the real reusable workflow or of a real example caller from docs/action.md.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import { actionReferenceProblems, agentVersionProblems, callerProblems, STALE_ACTIONLINT, unpinnedUses } from '../../scripts/workflow-rules.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const read = (p: string) => readFileSync(`${ROOT}${p}`, 'utf8');
const reusable = () => YAML.parse(read('.github/workflows/phuc-loop.yml'));
const action = YAML.parse(read('action.yml'));
type Step = { name?: string; uses?: string; with?: Record<string, unknown> };
const steps = (wf: { jobs: { loop: { steps: Step[] } } }) => wf.jobs.loop.steps;
const actionStep = (wf: { jobs: { loop: { steps: Step[] } } }) => steps(wf).find((s) => s.uses?.startsWith('./'))!;
const selfCheckout = (wf: { jobs: { loop: { steps: Step[] } } }) => steps(wf).find((s) => s.with?.['repository'] === '${{ job.workflow_repository }}')!;

describe('the reusable workflow runs the action of its own commit', () => {
  test('as committed: no problem', () => {
    expect(actionReferenceProblems(reusable())).toEqual([]);
  });

  test('a published reference (org/phuc-loop@v2) fails', () => {
    const wf = reusable();
    actionStep(wf).uses = 'org/phuc-loop@v2';
    const p = actionReferenceProblems(wf);
    expect(p.join('\n')).toMatch(/runs a published copy \(org\/phuc-loop@v2\)/);
    expect(p.join('\n')).toMatch(/0 local action step\(s\), expected exactly one/);
  });

  test("the action checked out at the caller's commit fails", () => {
    const wf = reusable();
    selfCheckout(wf).with!['ref'] = '${{ github.workflow_sha }}';
    expect(actionReferenceProblems(wf).join('\n')).toMatch(/at \$\{\{ github\.workflow_sha \}\}; check out \$\{\{ job\.workflow_repository \}\}/);
    delete selfCheckout(wf).with!['repository'];
    expect(actionReferenceProblems(wf).join('\n')).toMatch(/checked out from \(the caller\)/);
  });

  test("the action inside the pull request's checkout (which the agent may write) fails", () => {
    const wf = reusable();
    const pr = steps(wf).find((s) => s.uses?.startsWith('actions/checkout@') && s.with?.['path'] === 'repo')!;
    delete pr.with!['path'];
    expect(actionReferenceProblems(wf).join('\n')).toMatch(/lies inside the checkout at \., which the agent may write/);
  });

  test("a working-directory outside the pull request's checkout fails", () => {
    const wf = reusable();
    actionStep(wf).with!['working-directory'] = '.';
    expect(actionReferenceProblems(wf).join('\n')).toMatch(/working-directory \. is not inside the pull request's checkout \(repo\)/);
  });

  test("only actionlint 1.7.7's two messages about the job context's newer fields are set aside", () => {
    const msg = (p: string) => `property "${p}" is not defined in object type {container: {id: string; network: string}; status: string}`;
    expect(STALE_ACTIONLINT.test(msg('workflow_sha'))).toBe(true);
    expect(STALE_ACTIONLINT.test(msg('workflow_repository'))).toBe(true);
    expect(STALE_ACTIONLINT.test(msg('workflow_shaa'))).toBe(false);
    expect(STALE_ACTIONLINT.test('property "workflow_sha" is not defined in object type {event: string}')).toBe(false);
  });
});

describe("the docs' example callers pass what the reusable workflow and action.yml declare", () => {
  const example = () => {
    const m = /```yaml\n(# workflow: [^\n]*\n[\s\S]*?)```/.exec(read('docs/action.md'))!;
    return YAML.parse(m[1]);
  };
  const loopJob = (e: { jobs: Record<string, { uses?: string; with?: Record<string, unknown>; secrets?: unknown }> }) =>
    Object.values(e.jobs).find((j) => j.uses?.includes('phuc-loop.yml'))!;

  test('the first example as written: no problem', () => {
    expect(callerProblems('ex', example(), reusable(), action)).toEqual([]);
  });

  test('an undeclared input, a wrong type and an undeclared secret fail', () => {
    const e = example();
    const job = loopJob(e);
    job.with = { ...job.with, 'max-iteration': '3', fresh: 'yes', 'timeout-minutes': '${{ vars.LIMIT }}' };
    job.secrets = { ANTHROPIC_KEY: 'x' };
    const p = callerProblems('ex', e, reusable(), action).join('\n');
    expect(p).toMatch(/input "max-iteration" is not declared/);
    expect(p).toMatch(/input "fresh" is a boolean, got "yes"/);
    expect(p).not.toMatch(/"timeout-minutes"/);
    expect(p).toMatch(/secret "ANTHROPIC_KEY" is not declared/);
  });

  test('a local or malformed reference to the reusable workflow fails', () => {
    const e = example();
    loopJob(e).uses = './.github/workflows/phuc-loop.yml';
    expect(callerProblems('ex', e, reusable(), action).join('\n')).toMatch(
      /call the reusable workflow as <owner>\/<repo>\/\.github\/workflows\/phuc-loop\.yml@<ref>/,
    );
  });

  test('a step using the action with an input action.yml lacks fails', () => {
    const e = { jobs: { a: { steps: [{ uses: 'acme/phuc-loop@v2', with: { 'stop-labl': 'STOP', comment: 'off' } }] } } };
    expect(callerProblems('ex', e, reusable(), action)).toEqual([expect.stringMatching(/input "stop-labl" is not declared/)]);
  });
});

describe('pins', () => {
  test('every third-party action of the workflows is pinned to a commit SHA with its version; a tag fails', () => {
    for (const f of ['ci.yml', 'release.yml', 'phuc-loop.yml']) expect(unpinnedUses(f, read(`.github/workflows/${f}`))).toEqual([]);
    const text = read('.github/workflows/phuc-loop.yml').replace(/actions\/setup-node@[0-9a-f]{40} # v[\d.]+/, 'actions/setup-node@v5');
    expect(unpinnedUses('wf', text)).toEqual([expect.stringMatching(/^wf:\d+: actions\/setup-node@v5 is not pinned to a full commit SHA/)]);
    expect(unpinnedUses('wf', '      - uses: a/b@0123456789012345678901234567890123456789\n')).toEqual([
      expect.stringMatching(/with its version in a comment/),
    ]);
  });

  test('the agent CLI defaults to the version the conformance suite tests, not latest', () => {
    expect(agentVersionProblems(reusable())).toEqual([]);
    const wf = reusable();
    wf.on.workflow_call.inputs['agent-version'].default = 'latest';
    expect(agentVersionProblems(wf)).toEqual([expect.stringMatching(/defaults to "latest"/)]);
  });
});
