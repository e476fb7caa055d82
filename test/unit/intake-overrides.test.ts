// Overrides given outside the config (the action's agent and model inputs, CLI flags) reach the
// loop's config at intake; the model is not part of the contract, so changing it continues a loop.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { intake, type Intake } from '../../src/engine/config/intake.js';
import { config, NORTHSTAR } from '../helpers/repo.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'phuc-intake-'));
  await writeFile(join(dir, 'phuc-loop.yml'), config({ criteria: [{ id: 'ok', run: 'true' }], agent: 'true' }) + '\n');
  await writeFile(join(dir, 'NORTHSTAR.md'), NORTHSTAR);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

test('the model override replaces agent.model and leaves the contract as it was', async () => {
  const plain = (await intake(dir, 'phuc-loop.yml')) as Intake;
  const withModel = (await intake(dir, 'phuc-loop.yml', undefined, {}, 'claude-opus-4-1')) as Intake;
  expect(plain.config.agent.model).toBeUndefined();
  expect(withModel.config.agent.model).toBe('claude-opus-4-1');
  expect(withModel.contract).toBe(plain.contract);
});
