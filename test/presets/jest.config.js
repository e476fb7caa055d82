/** The conformance suite (`npm run test:presets`): the main config with only test/presets, one test at a time. */
import base from '../../jest.config.js';

export default { ...base, rootDir: '../..', testMatch: ['<rootDir>/test/presets/**/*.spec.ts'], maxWorkers: 1, testTimeout: 300000 };
