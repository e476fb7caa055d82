// The planted bug every preset is asked to fix, and the model's scripted answers that fix it.
import type { Step } from './standin.js';

/** In the user's part of AGENTS.md: no CLI may load it on its own (the capsule carries the memory). */
export const MEMORY_MARKER = 'PROJECT-RULE-MARKER-5c1e';

export const PLANTED_BUG: Record<string, string> = {
  'src/sum.mjs': 'export const sum = (a, b) => a - b;\n',
  'test/sum.test.mjs':
    "import { sum } from '../src/sum.mjs';\nif (sum(2, 3) !== 5) {\n  console.error(`sum(2, 3) is ${sum(2, 3)}, expected 5`);\n  process.exit(1);\n}\n",
  'AGENTS.md': `# Project rules\n\n${MEMORY_MARKER}: keep functions small.\n`,
};

export const REPORT = {
  tried: ['replaced a - b with a + b in src/sum.mjs'],
  claims: ['sum(2, 3) is 5'],
  failures: [],
  open_questions: [],
  can_further_iteration_help: false,
};

/** Read the file, edit it with the CLI's own edit tool, write the report through the shell, finish. */
export const FIX_STEPS: Step[] = [
  { read: 'src/sum.mjs' },
  { edit: { path: 'src/sum.mjs', old: 'a - b', new: 'a + b' } },
  { shell: `printf '%s' '${JSON.stringify(REPORT)}' > "$PHUC_REPORT_FILE"` },
  { text: 'Fixed sum: it added nothing, it subtracted.' },
];

/** The error the stand-in answers in the API-error case: the console must show it. */
export const REFUSAL = 'The stand-in refuses this request (test error 7f3a).';

/**
 * aider's answer (its "diff" edit format, used for Claude models): SEARCH/REPLACE blocks that fix
 * the bug and fill the report file it was given with --file.
 */
export function aiderEdits(reportPath: string): Step[] {
  const fence = '`'.repeat(3);
  const block = (file: string, search: string, replace: string) => `${file}\n${fence}\n<<<<<<< SEARCH\n${search}=======\n${replace}>>>>>>> REPLACE\n${fence}\n`;
  return [
    {
      text: [
        'The sum subtracts; it must add.',
        '',
        block('src/sum.mjs', PLANTED_BUG['src/sum.mjs'], PLANTED_BUG['src/sum.mjs'].replace('a - b', 'a + b')),
        block(reportPath, '', `${JSON.stringify(REPORT)}\n`),
      ].join('\n'),
    },
  ];
}
