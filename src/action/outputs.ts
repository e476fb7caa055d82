// The action's outputs (action.yml), all of them set at every end: a missing one reads as empty.
import { setOutput } from './file-commands.js';

export const OUTPUTS = [
  'status',
  'stop-reason',
  'certificate',
  'residual',
  'iterations',
  'glow',
  'report-path',
  'certified-commit',
  'cost-usd',
  'tokens',
] as const;

export function setOutputs(values: Partial<Record<(typeof OUTPUTS)[number], string>>, scrub: (s: string) => string): void {
  for (const name of OUTPUTS) setOutput(name, scrub(values[name] ?? ''));
}
