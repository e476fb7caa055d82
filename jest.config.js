/** ESM TypeScript through ts-jest; integration tests run the built dist/ as child processes. */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true, isolatedModules: true }] },
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  testTimeout: 120000,
  maxWorkers: 2,
};
