// The `run:` steps of a workflow job run the way the runner runs them: bash in the step's folder, the
// step's env with `${{ inputs.* }}` and `${{ steps.*.outputs.* }}` filled in, fresh GITHUB_OUTPUT,
// GITHUB_PATH and GITHUB_ENV files, and what a step writes there handed to the steps after it. Only
// those expressions: any other one in a step run here fails the test (the stand-in would guess).
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import YAML from 'yaml';
import { parseFileCommands } from './runner.js';
import { traversableTempDir } from './git-origin.js';

interface WorkflowStep {
  id?: string;
  name?: string;
  run?: string;
  uses?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
}

export interface StepsResult {
  /** Outputs per step id. */
  outputs: Record<string, Record<string, string>>;
  /** Folders the steps added to PATH, the latest first (as the runner prepends them). */
  path: string[];
  env: Record<string, string>;
  log: string;
}

/** The steps of job `job` in the workflow file. */
export async function workflowSteps(file: string, job: string): Promise<WorkflowStep[]> {
  const doc = YAML.parse(await readFile(file, 'utf8')) as { jobs: Record<string, { steps: WorkflowStep[] }> };
  return doc.jobs[job].steps;
}

function fill(text: string, inputs: Record<string, string>, outputs: StepsResult['outputs']): string {
  return text.replace(/\$\{\{\s*([^}]*?)\s*\}\}/g, (_, expr: string) => {
    let m = /^inputs\.([\w-]+)$/.exec(expr);
    if (m) return inputs[m[1]] ?? '';
    m = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expr);
    if (m) return outputs[m[1]]?.[m[2]] ?? '';
    throw new Error(`the workflow stand-in cannot evaluate \${{ ${expr} }}`);
  });
}

function bash(script: string, cwd: string, env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

/**
 * Runs the `run:` steps of `steps` with these ids, in order, in `cwd` (the step's working-directory
 * as the runner resolves it), as bash does on the runner; a step that fails throws with its output.
 */
export async function runSteps(
  steps: WorkflowStep[],
  ids: string[],
  o: { cwd: string; inputs: Record<string, string>; env: Record<string, string> },
): Promise<StepsResult> {
  const result: StepsResult = { outputs: {}, path: [], env: {}, log: '' };
  const files = await traversableTempDir('wf-steps-');
  for (const id of ids) {
    const step = steps.find((s) => s.id === id || s.name === id);
    if (!step?.run) throw new Error(`no run step ${id} in the workflow`);
    const f = { output: join(files, `${id}.output`), path: join(files, `${id}.path`), env: join(files, `${id}.env`) };
    await Promise.all(Object.values(f).map((p) => writeFile(p, '')));
    const env: Record<string, string> = {
      ...o.env,
      ...result.env,
      PATH: [...result.path, o.env['PATH'] ?? process.env['PATH'] ?? ''].join(':'),
      GITHUB_OUTPUT: f.output,
      GITHUB_PATH: f.path,
      GITHUB_ENV: f.env,
    };
    for (const [k, v] of Object.entries(step.env ?? {})) env[k] = fill(v, o.inputs, result.outputs);
    const r = await bash(fill(step.run, o.inputs, result.outputs), o.cwd, env);
    result.log += `## ${id}\n${r.out}`;
    if (r.code !== 0) throw new Error(`step ${id} exited ${r.code}:\n${r.out}`);
    const key = step.id ?? id;
    result.outputs[key] = parseFileCommands(await readFile(f.output, 'utf8'));
    Object.assign(result.env, parseFileCommands(await readFile(f.env, 'utf8')));
    const added = (await readFile(f.path, 'utf8')).split('\n').filter(Boolean);
    result.path = [...added.reverse(), ...result.path];
  }
  return result;
}
