// The agent sees what failed (SPEC §7 "What the agent sees"): its prompt carries the last round's
// failing tests and assertion messages, and the logs it names are readable copies in its sandbox.
// The agent fixture finds the expected values only in those messages, and each round's failure
// reveals the next one: it converges only when every prompt holds the latest round's failures.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { agent, cli, config, makeRepo, NORTHSTAR, readJson } from '../helpers/repo.js';

const ev = (repo: string, f: string) => join(repo, 'evidence/loop', f);

const PY_TEST = `import unittest
from src.answer import answer


class AnswerTest(unittest.TestCase):
    def test_answer(self):
        got = answer()
        want = ['fixed-%d' % (6 * 7)]
        self.assertEqual(got[:1], want)
        self.assertEqual(got[:2], want + ['fixed-%d' % (6 * 7 + 1)])
`;

const JS_TEST = `const test = require('node:test');
const assert = require('node:assert');
const { answer } = require('../src/answer.js');

test('the answer', () => {
  const want = ['fixed-' + 6 * 7];
  assert.deepStrictEqual(answer().slice(0, 1), want);
  assert.deepStrictEqual(answer().slice(0, 2), [...want, 'fixed-' + (6 * 7 + 1)]);
});
`;

const projects = {
  'Python (unittest: the failure is in the log)': {
    run: 'python3 -m unittest test.test_answer',
    extra: '',
    logNames: 'names',
    files: {
      'src/__init__.py': '',
      'src/answer.py':
        "import os\n\n\ndef answer():\n    with open(os.path.join(os.path.dirname(__file__), 'answer.txt')) as f:\n        return [l.strip() for l in f if l.strip()]\n",
      'test/__init__.py': '',
      'test/test_answer.py': PY_TEST,
    },
  },
  'JS (node:test: the failure is in the JUnit report)': {
    run: 'mkdir -p reports && node --test --test-reporter=junit --test-reporter-destination=reports/junit.xml test/',
    extra: 'checks:\n  junit: "reports/*.xml"\n',
    logNames: 'does not name',
    files: {
      'src/answer.js':
        "const { readFileSync } = require('node:fs');\nexports.answer = () => readFileSync(__dirname + '/answer.txt', 'utf8').split('\\n').filter(Boolean);\n",
      'test/answer.test.js': JS_TEST,
    },
  },
};

describe.each(Object.entries(projects))('%s at user+pidns', (_name, p) => {
  let repo: string;
  let code: number | null;
  beforeAll(async () => {
    repo = await makeRepo({
      'phuc-loop.yml': config({ criteria: [{ id: 'tests', run: p.run }], agent: agent('blind-fixer.mjs'), extra: `${p.extra}budget:\n  max_iterations: 3\n` }),
      'NORTHSTAR.md': NORTHSTAR,
      'src/answer.txt': 'broken\n',
      ...p.files,
    });
    const r = await cli(repo, ['run', '--isolation', 'user+pidns']);
    expect(r.stdout).toMatch(/isolation: user\+pidns/);
    code = r.code;
  });

  test('converges in two iterations, each fixing what the latest failure names', async () => {
    expect(code).toBe(0);
    expect(await readJson(ev(repo, 'halting_report.json'))).toMatchObject({ status: 'EXIT_CONVERGED', iterations_completed: 2 });
    expect(await readFile(join(repo, 'src/answer.txt'), 'utf8')).toBe('fixed-42\nfixed-43\n');
  });

  test("each prompt holds the latest round's failure (the baseline's, then iteration 0's), recorded in that round's failures.json", async () => {
    for (const [n, round, value] of [
      [0, 'baseline', 'fixed-42'],
      [1, 'iter_0', 'fixed-43'],
    ] as const) {
      const prompt = await readFile(ev(repo, `iter_${n}/prompt.md`), 'utf8');
      expect(prompt).toContain(`### What failed in the last round of checks (${round}`);
      expect(prompt).toContain(value);
      expect(prompt).toContain(`\`$PHUC_EVIDENCE_DIR/evidence/loop/${round}/checks/tests.log\``);
      const capsule = await readJson<{ current_state_summary: { last_round_failures: { round: string; excerpt: string } } }>(
        ev(repo, `iter_${n}/cnf_capsule.json`),
      );
      const failures = await readJson<{ round: string; failing_criteria: string[]; excerpt: string }>(ev(repo, `${round}/failures.json`));
      expect(failures).toMatchObject({ round, failing_criteria: ['tests'] });
      expect(failures.excerpt).toContain(value);
      expect(capsule.current_state_summary.last_round_failures).toEqual({ round, excerpt: failures.excerpt });
      // No machine path of the judged checkout and no duration: the same failure gives the same bytes.
      expect(failures.excerpt).not.toMatch(/\/var\/lib\/phuc-loop|\/tmp\/|\d+\.\d+s\b/);
    }
  });

  test('the agent read the logs its prompt names, as copies in its sandbox', async () => {
    const log = await readFile(ev(repo, 'iter_1/agent.log'), 'utf8');
    expect(log).toContain(`blind-fixer: read evidence/loop/iter_0/checks/tests.log: ${p.logNames} an expected value`);
    expect(log).not.toMatch(/cannot read/);
    expect(log).toContain('blind-fixer: iteration 1 added fixed-43');
  });
});
