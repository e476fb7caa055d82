import { resolveBudget } from '../../src/engine/config/budget.js';
import { parseConfig } from '../../src/engine/config/config.js';
import { configTemplate, type InitPlan } from '../../src/cli/templates.js';

const cfg = (profile: string, budget = '') =>
  parseConfig(`version: 2\ngoal: g\nacceptance_criteria: [{id: t, run: "true"}]\ncertificates: [EXACT]\nagent: {use: claude}\nprofile: ${profile}\n${budget}`);

describe('budgets and profiles (seed §9.2)', () => {
  test('strict keeps the defaults and logs nothing', () => {
    const r = resolveBudget(cfg('strict'));
    expect(r.budget).toMatchObject({
      max_iterations: 10,
      max_seconds_per_iteration: 1800,
      max_total_seconds: 14400,
      max_tool_calls_per_iteration: 80,
      max_total_tool_calls: 500,
    });
    expect(r.reductions).toEqual([]);
  });
  test('fast halves with clamps and records each reduction', () => {
    const r = resolveBudget(cfg('fast'));
    expect(r.budget).toMatchObject({
      max_iterations: 5,
      max_seconds_per_iteration: 900,
      max_total_seconds: 7200,
      max_tool_calls_per_iteration: 40,
      max_total_tool_calls: 250,
    });
    expect(r.reductions).toContain('max_iterations: 10 → 5 (profile fast, scale 0.5)');
  });
  test('benchmark_adapt scales 0.7 / 0.8', () => {
    expect(resolveBudget(cfg('benchmark_adapt')).budget).toMatchObject({
      max_iterations: 7,
      max_tool_calls_per_iteration: 64,
      max_total_tool_calls: 400,
      max_seconds_per_iteration: 1260,
    });
  });
  test('explicit values are taken as written, even below a clamp', () => {
    const r = resolveBudget(cfg('fast', 'budget:\n  max_iterations: 2\n  max_seconds_per_iteration: 30\n'));
    expect(r.budget.max_iterations).toBe(2);
    expect(r.budget.max_seconds_per_iteration).toBe(30);
    expect(r.explicit).toEqual(['max_iterations', 'max_seconds_per_iteration']);
    expect(r.reductions.some((l) => l.startsWith('max_iterations'))).toBe(false);
  });
});

describe('the config `phuc-loop init` writes', () => {
  const plan: InitPlan = { type: 'npm', runner: 'npm test', run: 'npm test', junit: null, setup: null, setupNote: null, protected: ['test/**'] };
  test('leaves the budgets to the profile: switching it to fast reduces them, within the clamps', () => {
    const text = configTemplate(plan);
    expect(parseConfig(text).budget).toEqual({});
    const fast = resolveBudget(parseConfig(text.replace(/^profile: strict/m, 'profile: fast')));
    expect(fast.explicit).toEqual([]);
    expect(fast.budget).toMatchObject({ max_iterations: 5, max_seconds_per_iteration: 900, max_total_seconds: 7200 });
    expect(fast.reductions).toContain('max_iterations: 10 → 5 (profile fast, scale 0.5)');
    expect(resolveBudget(parseConfig(text)).budget).toMatchObject({ max_iterations: 10, max_seconds_per_iteration: 1800, max_total_seconds: 14400 });
  });
});
