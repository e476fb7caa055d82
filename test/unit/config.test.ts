import { ConfigError } from '../../src/engine/common/errors.js';
import { configJsonSchema, parseConfig } from '../../src/engine/config/config.js';
import { criteriaToWrite, filesNamedBy, filesRunBy, runnerFilesOf } from '../../src/engine/config/protected.js';

const GOOD = `version: 2
goal: Make the test suite pass without weakening any test.
acceptance_criteria:
  - id: tests
    description: npm test exits 0
    run: npm test
    timeout_seconds: 900
certificates: [EXACT, CONVERGED, DIVERGED]
residual:
  metric: failing_criteria
R_p: "1e-4"
rung_target: 274177
profile: strict
budget:
  max_iterations: 10
  max_total_cost_usd: "25"
northstar: NORTHSTAR.md
agent:
  use: claude
protected: ["test/**"]
`;

function problems(text: string): string[] {
  try {
    parseConfig(text);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as ConfigError).problems.map((p) => `${p.field}: ${p.message}`);
  }
  throw new Error('expected a ConfigError');
}

describe('phuc-loop.yml', () => {
  test('the SPEC example parses with defaults filled in', () => {
    const c = parseConfig(GOOD);
    expect(c.R_p).toBe('1e-4');
    expect(c.acceptance_criteria[0]).toMatchObject({ id: 'tests', run: 'npm test', timeout_seconds: 900, retries: 0 });
    expect(c.budget.max_total_cost_usd).toBe('25');
    expect(c.replays).toBe(2);
  });

  test('an unquoted YAML Decimal keeps its exact source text, never a float', () => {
    const c = parseConfig(
      GOOD.replace('R_p: "1e-4"', 'R_p: 0.1000000000000000000001').replace('max_total_cost_usd: "25"', 'max_total_cost_usd: 0.30000000000000004441'),
    );
    expect(c.R_p).toBe('0.1000000000000000000001');
    expect(c.budget.max_total_cost_usd).toBe('0.30000000000000004441');
  });

  test.each([
    ['agent preset', GOOD.replace('use: claude', 'use: claudex'), 'agent.use: got "claudex"; allowed: claude | codex | gemini | aider | command'],
    ['profile', GOOD.replace('profile: strict', 'profile: fastest'), 'profile: got "fastest"; allowed: strict | fast | benchmark_adapt'],
    [
      'metric',
      GOOD.replace('metric: failing_criteria', 'metric: coverage'),
      'residual.metric: got "coverage"; allowed: failing_criteria | failing_tests_fraction | command',
    ],
    [
      'certificate type',
      GOOD.replace('[EXACT, CONVERGED, DIVERGED]', '[EXACT, DONE]'),
      'certificates.1: got "DONE"; allowed: EXACT | CONVERGED | TIMEOUT | BACKPRESSURE | DIVERGED',
    ],
    ['rung', GOOD.replace('rung_target: 274177', 'rung_target: 1000'), 'rung_target: got 1000; must be one of 641 | 274177 | 65537'],
    ['R_p not a Decimal', GOOD.replace('R_p: "1e-4"', 'R_p: "1,5"'), 'R_p: must be a Decimal'],
    ['R_p NaN', GOOD.replace('R_p: "1e-4"', 'R_p: NaN'), 'R_p: must be a Decimal'],
    ['version', GOOD.replace('version: 2', 'version: 1'), 'version: got 1; allowed: 2'],
    ['empty goal', GOOD.replace(/goal: .*/, 'goal: ""'), 'goal: got ""; must state the goal of the loop'],
    [
      'no criteria',
      GOOD.replace(/acceptance_criteria:[\s\S]*?certificates/, 'acceptance_criteria: []\ncertificates'),
      'acceptance_criteria: got []; must list at least one criterion',
    ],
    ['empty run', GOOD.replace('run: npm test', 'run: "  "'), 'acceptance_criteria.0.run: got "  "; must be a non-empty shell command'],
    ['bad id', GOOD.replace('id: tests', 'id: "my tests"'), 'acceptance_criteria.0.id: got "my tests"'],
    ['timeout', GOOD.replace('timeout_seconds: 900', 'timeout_seconds: -5'), 'acceptance_criteria.0.timeout_seconds: got -5'],
    ['iterations', GOOD.replace('max_iterations: 10', 'max_iterations: 2.5'), 'budget.max_iterations: got 2.5'],
    ['cost', GOOD.replace('max_total_cost_usd: "25"', 'max_total_cost_usd: "$25"'), 'budget.max_total_cost_usd: must be a Decimal'],
    ['unknown top-level key', GOOD + 'profil: fast\n', 'profil: is not a known field; allowed here: version, goal'],
    ['unknown budget key', GOOD.replace('  max_iterations: 10', '  max_iters: 3'), 'budget.max_iters: is not a known field; allowed here: max_iterations'],
    ['no success certificate', GOOD.replace('[EXACT, CONVERGED, DIVERGED]', '[DIVERGED]'), 'certificates: must include EXACT or CONVERGED'],
    ['CONVERGED without R_p', GOOD.replace('R_p: "1e-4"\n', ''), 'R_p: is required when certificates include CONVERGED'],
    ['command agent without run', GOOD.replace('use: claude', 'use: command'), 'agent.run: is required when agent.use is command'],
    [
      'junit missing',
      GOOD.replace('metric: failing_criteria', 'metric: failing_tests_fraction'),
      'residual.junit: is required for metric failing_tests_fraction',
    ],
    ['command metric without run', GOOD.replace('metric: failing_criteria', 'metric: command'), 'residual.run: is required for metric command'],
    ['rung 65537 without security', GOOD.replace('rung_target: 274177', 'rung_target: 65537'), 'security: is required for rung_target 65537'],
    ['duplicate ids', GOOD.replace('certificates:', '  - id: tests\n    run: "true"\ncertificates:'), 'acceptance_criteria.1.id: duplicates id "tests"'],
  ])('%s: the message names the field, the value and what is allowed', (_name, text, expected) => {
    expect(problems(text).join('\n')).toContain(expected);
  });

  test('a missing required field is named', () => {
    expect(problems('version: 2\ngoal: x\n')).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^acceptance_criteria: is required/),
        expect.stringMatching(/^certificates: is required/),
        expect.stringMatching(/^agent: is required/),
      ]),
    );
  });

  test('YAML syntax errors and non-mappings are reported, not thrown raw', () => {
    expect(problems('goal: [unclosed\n')[0]).toMatch(/YAML syntax/);
    expect(problems('- a\n- b\n')[0]).toMatch(/must be a YAML mapping/);
  });

  test('the JSON Schema is generated from the zod schema', () => {
    const s = configJsonSchema() as { properties: Record<string, { enum?: string[] }>; required: string[] };
    expect(s.required).toEqual(expect.arrayContaining(['version', 'goal', 'acceptance_criteria', 'certificates', 'agent']));
    expect(JSON.stringify(s.properties.profile)).toContain('benchmark_adapt');
  });
});

describe('the files a criterion runs are protected, the files it reads are the work', () => {
  const files = new Set(['check.sh', 'test/check.sh', 'scripts/score.js', 'src/status.txt', 'src/main.py', 'verify.py']);
  test.each([
    ['./check.sh', ['check.sh']],
    ['sh test/check.sh && echo ok', ['test/check.sh']],
    ['bash -e test/check.sh', ['test/check.sh']],
    ['timeout 60 node scripts/score.js src/status.txt', ['scripts/score.js']],
    ['env -i CI=1 python3 verify.py src/main.py', ['verify.py']],
    ['grep -q fixed-1 src/status.txt', []],
    ['test -f src/main.py; cat src/status.txt | grep ok', []],
    ['npm test', []],
  ])('%s', (command, expected) => {
    expect(filesNamedBy(command, files).sort()).toEqual([...expected].sort());
  });
});

describe("what a criterion's runner reads first cannot be added beside it: python -m modules, make's rule files", () => {
  test.each([
    ['python3 -m pytest --junitxml=r.xml', ['pytest.*', 'pytest/**', '_pytest.*', '_pytest/**', 'pluggy.*', 'pluggy/**', 'py.*', 'py/**']],
    ['cd x && /usr/bin/python3.11 -m unittest discover -s tests', ['unittest.*', 'unittest/**']],
    ['env CI=1 python -m mypkg.cli check', ['mypkg.*', 'mypkg/**']],
    ['pytest -m slow', []],
    ['node -m x', []],
    ['python3 run.py -m fast', []],
    ['make test', ['GNUmakefile', 'makefile', 'Makefile', '**/*.mk']],
    ['timeout 60 /usr/bin/make -s check && just lint', ['GNUmakefile', 'makefile', 'Makefile', '**/*.mk', 'justfile', 'Justfile', '.justfile']],
  ])('%s', (command, expected) => {
    expect(runnerFilesOf(command).sort()).toEqual([...expected].sort());
  });
});

describe('bad input ends in a ConfigError naming the field (issue 30 item 5)', () => {
  test('a YAML syntax error says its line and column', () => {
    expect(problems('version: 2\ngoal: [unclosed\n')[0]).toMatch(/YAML syntax at line \d+, column \d+: /);
  });
  test('an alias bomb is refused, not expanded', () => {
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x, x]',
      ...'bcdefghi'.split('').map((k, i) => `${k}: &${k} [${Array(9).fill(`*${'abcdefghi'[i]}`).join(', ')}]`),
    ].join('\n');
    expect(problems(`${GOOD}${bomb}\n`)[0]).toMatch(/YAML aliases: .*at most 100 are expanded/);
  });
  test.each([
    ['R_p: "-1"', /^R_p: must be a Decimal above 0/],
    ['R_p: "0"', /^R_p: must be a Decimal above 0/],
    ['R_p: "1e999999"', /^R_p: must be a Decimal above 0 and at most 1000000000/],
  ])('%s is refused', (line, expected) => {
    expect(problems(GOOD.replace('R_p: "1e-4"', line))[0]).toMatch(expected);
  });
  test('a negative cost budget is refused', () => {
    expect(problems(GOOD.replace('max_total_cost_usd: "25"', 'max_total_cost_usd: "-5"'))[0]).toMatch(
      /^budget\.max_total_cost_usd: must be a Decimal of 0 or more/,
    );
  });
});

describe('the files a criterion runs by path, present or not (a criterion the agent could write)', () => {
  test.each([
    ['./hello.sh', ['hello.sh']],
    ['sh test/check.sh && node scripts/score.mjs', ['test/check.sh', 'scripts/score.mjs']],
    ['timeout 60 bash -e check.sh', ['check.sh']],
    ["sh -c 'exit 0'", []],
    ['python3 -c "import sys"', []],
    ['python3 -m unittest discover tests', []],
    ['npm test', []],
    ['/usr/bin/env node ../outside.js', []],
    ['for f in probe/*.sh; do sh "$f"; done', []],
  ])('%s', (command, expected) => {
    expect(filesRunBy(command).sort()).toEqual([...expected].sort());
  });

  test('refused unless marked agent_writes; a file the tree holds is no refusal', () => {
    const files = new Set(['test/check.sh']);
    const refused = criteriaToWrite(
      [
        { id: 'a', run: 'sh test/check.sh' },
        { id: 'b', run: './gen.sh' },
        { id: 'c', run: './gen.sh', agent_writes: true },
      ],
      files,
    );
    expect(refused.map((r) => r.id)).toEqual(['b']);
    expect(refused[0].reason).toMatch(/runs gen\.sh, which the tree does not hold.*agent_writes: true/);
  });
});

test('a folder the tree holds, run by a criterion (node --test test/), is not a program to write', () => {
  const files = new Set(['test/answer.test.js']);
  expect(criteriaToWrite([{ id: 'js', run: 'node --test test/' }], files)).toEqual([]);
  expect(criteriaToWrite([{ id: 'js', run: 'node --test spec/' }], files).map((r) => r.id)).toEqual(['js']);
});
