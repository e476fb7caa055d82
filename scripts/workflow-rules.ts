// Rules scripts/check-workflows.mjs applies beyond actionlint and GitHub's parser:
//  - the reusable workflow runs the action of its own commit (whoever publishes it), checked out
//    beside the pull request's checkout, never inside it (the agent may write its work tree);
//  - the example callers of the docs pass the inputs and secrets the reusable workflow and
//    action.yml declare, with the declared types (the wasm actionlint cannot read a called
//    workflow, so it checks no `with:` of ours).
// Pure functions over parsed YAML, so test/unit/workflow-rules.test.ts can show each one failing.

type Doc = Record<string, unknown>;
interface Step {
  uses?: string;
  with?: Record<string, unknown>;
}

/** A YAML scalar as text ('' for anything else). */
const str = (v: unknown, otherwise = ''): string => (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : otherwise);
const obj = (v: unknown): Doc => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Doc) : {});
const stepsOf = (wf: unknown): Step[][] => Object.values(obj(obj(wf)['jobs'])).map((j) => (Array.isArray(obj(j)['steps']) ? (obj(j)['steps'] as Step[]) : []));
const norm = (p: unknown) => str(p).replace(/^\.\//, '').replace(/\/+$/, '') || '.';
const inside = (child: string, parent: string) => parent === '.' || child === parent || child.startsWith(`${parent}/`);

/** The expressions that name the called workflow's repository and commit (not the caller's). */
export const SELF_REPOSITORY = '${{ job.workflow_repository }}';
export const SELF_SHA = '${{ job.workflow_sha }}';

/**
 * actionlint 1.7.7 (the newest offline build) predates the job context's workflow_repository and
 * workflow_sha (GitHub, 2026); only these two messages are set aside.
 */
export const STALE_ACTIONLINT = /^property "(?:workflow_repository|workflow_sha)" is not defined in object type \{container: /;

/** Why the reusable workflow would not run the action of its own commit; empty when it does. */
export function actionReferenceProblems(wf: unknown): string[] {
  const problems: string[] = [];
  const how = `check out ${SELF_REPOSITORY} at ${SELF_SHA} into a folder beside the pull request's checkout and run it as uses: ./<that folder>`;
  let found = 0;
  for (const steps of stepsOf(wf)) {
    steps.forEach((s, i) => {
      const uses = s.uses ?? '';
      if (/(^|\/)phuc-loop@/.test(uses)) problems.push(`the reusable workflow runs a published copy (${uses}), not the action of its own commit: ${how}`);
      if (!uses.startsWith('./')) return;
      found++;
      const dir = norm(uses);
      const checkouts = steps.slice(0, i).filter((c) => (c.uses ?? '').startsWith('actions/checkout@'));
      const own = checkouts.find((c) => norm(c.with?.['path']) === dir);
      if (!own) return void problems.push(`${uses}: no earlier actions/checkout step with path ${dir}: ${how}`);
      if (own.with?.['repository'] !== SELF_REPOSITORY || own.with?.['ref'] !== SELF_SHA)
        problems.push(`${uses}: checked out from ${str(own.with?.['repository'], '(the caller)')} at ${str(own.with?.['ref'], '(the caller’s ref)')}; ${how}`);
      const work = checkouts.filter((c) => c !== own).map((c) => norm(c.with?.['path']));
      for (const p of work)
        if (inside(dir, p)) problems.push(`${uses}: the action's folder lies inside the checkout at ${p}, which the agent may write: ${how}`);
      const wd = norm(s.with?.['working-directory']);
      if (!work.some((p) => inside(wd, p) && p !== '.'))
        problems.push(`${uses}: working-directory ${wd} is not inside the pull request's checkout (${work.join(', ') || 'none'})`);
    });
  }
  if (found !== 1) problems.push(`the reusable workflow has ${found} local action step(s), expected exactly one: ${how}`);
  return problems;
}

const EXPR = /^\$\{\{[\s\S]*\}\}$/;

function withProblems(where: string, given: unknown, declared: Doc, typed: boolean): string[] {
  const problems: string[] = [];
  const values = obj(given);
  for (const [name, value] of Object.entries(values)) {
    const d = declared[name];
    if (d === undefined) {
      problems.push(`${where}: input "${name}" is not declared (declared: ${Object.keys(declared).join(', ')})`);
      continue;
    }
    const type = typed ? str(obj(d)['type'], 'string') : 'string';
    const expression = typeof value === 'string' && EXPR.test(value.trim());
    if (!expression && type !== 'string' && typeof value !== type)
      problems.push(`${where}: input "${name}" is a ${type}, got ${JSON.stringify(value)} (${typeof value})`);
  }
  for (const [name, d] of Object.entries(declared))
    if (obj(d)['required'] === true && obj(d)['default'] === undefined && !(name in values)) problems.push(`${where}: required input "${name}" is missing`);
  return problems;
}

/** Problems of an example caller's use of the reusable workflow and of the action. */
export function callerProblems(name: string, caller: unknown, reusable: unknown, action: unknown): string[] {
  const problems: string[] = [];
  const call = obj(obj(obj(reusable)['on'])['workflow_call']);
  for (const [id, job] of Object.entries(obj(obj(caller)['jobs']))) {
    const j = obj(job);
    const uses = str(j['uses']);
    if (uses.includes('phuc-loop.yml')) {
      if (!/^[^/\s]+\/[^/\s]+\/\.github\/workflows\/phuc-loop\.yml@\S+$/.test(uses))
        problems.push(`${name} job ${id}: call the reusable workflow as <owner>/<repo>/.github/workflows/phuc-loop.yml@<ref>, not ${uses}`);
      problems.push(...withProblems(`${name} job ${id}`, j['with'], obj(call['inputs']), true));
      const secrets = j['secrets'];
      if (secrets !== undefined && secrets !== 'inherit')
        for (const s of Object.keys(obj(secrets)))
          if (!(s in obj(call['secrets'])))
            problems.push(`${name} job ${id}: secret "${s}" is not declared (declared: ${Object.keys(obj(call['secrets'])).join(', ')})`);
    }
    for (const step of Array.isArray(j['steps']) ? (j['steps'] as Step[]) : [])
      if (/^[^./$][^/\s]*\/phuc-loop@\S+$/.test(step.uses ?? ''))
        problems.push(...withProblems(`${name} job ${id} step ${step.uses}`, step.with, obj(obj(action)['inputs']), false));
  }
  return problems;
}

/**
 * Third-party actions and workflows not pinned to a full commit SHA (with the version it is in a
 * `# vX.Y.Z` comment, which Dependabot keeps up to date): organisations that require SHA pins cannot
 * call a workflow that has one.
 */
export function unpinnedUses(name: string, text: string): string[] {
  const problems: string[] = [];
  text.split('\n').forEach((line, i) => {
    const m = /^\s*(?:-\s+)?uses:\s*(\S+)(.*)$/.exec(line);
    if (!m || m[1].startsWith('./') || m[1].startsWith('$/')) return;
    if (!/@[0-9a-f]{40}$/.test(m[1]) || !/#\s*v\d/.test(m[2]))
      problems.push(`${name}:${i + 1}: ${m[1]} is not pinned to a full commit SHA with its version in a comment (uses: owner/repo@<sha> # vX.Y.Z)`);
  });
  return problems;
}

/** The reusable workflow installs the agent CLI the conformance suite tests unless a version is given. */
export function agentVersionProblems(wf: unknown): string[] {
  const d = obj(obj(obj(obj(obj(wf)['on'])['workflow_call'])['inputs'])['agent-version'])['default'];
  return d === ''
    ? []
    : [
        `the reusable workflow's agent-version defaults to ${JSON.stringify(d)}; it must be '' (the versions in .github/agent-clis/package.json, which the conformance suite tests)`,
      ];
}
