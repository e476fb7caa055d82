#!/usr/bin/env node
// A deterministic example agent (no API key): it reads the capsule the loop gives it, fixes the
// first open criterion it knows how to fix, and writes its report where the loop asks.
import { readFileSync, writeFileSync } from 'node:fs';

const capsule = JSON.parse(readFileSync(process.env.PHUC_CAPSULE_FILE, 'utf8'));
const open = capsule.current_state_summary.criteria_still_open;
const FIXES = {
  add: ['return a - b;', 'return a + b;'],
  mul: ['return a + b;\n}\n\nexport function div', 'return a * b;\n}\n\nexport function div'],
  div: ['if (b === 0) return 0;', "if (b === 0) throw new RangeError('division by zero');"],
};
const target = open.find((id) => FIXES[id]);
const report = { tried: [], claims: [], failures: [], open_questions: [], can_further_iteration_help: true };
if (target) {
  const file = 'src/calc.js';
  const text = readFileSync(file, 'utf8');
  const [from, to] = FIXES[target];
  if (text.includes(from)) {
    writeFileSync(file, text.replace(from, to));
    report.tried.push(`fixed ${target}() in ${file}`);
    report.claims.push(`${target} should pass now`);
  } else {
    report.failures.push(`the known fix for ${target} does not apply`);
  }
} else {
  report.tried.push('nothing left that this agent knows how to fix');
  report.can_further_iteration_help = false;
}
if (open.length > 1) report.open_questions.push(`after ${target ?? 'this'}, still open: ${open.filter((id) => id !== target).join(', ')}`);
writeFileSync(process.env.PHUC_REPORT_FILE, JSON.stringify(report, null, 2));
console.log(`fix-agent: iteration ${process.env.PHUC_ITERATION}, ${target ? `fixed ${target}` : 'nothing to fix'}`);
