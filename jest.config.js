/** Two tiers: fast unit specs beside the code, and integration specs against real Postgres, Redis and anvil. */
const transform = { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] };

module.exports = {
  testTimeout: 60000,
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      rootDir: '.',
      testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/scripts/**/*.spec.ts', '<rootDir>/eslint/**/*.spec.ts', '<rootDir>/dashboard/src/**/*.spec.ts', '<rootDir>/packages/sdk/test/**/*.spec.ts'],
      testPathIgnorePatterns: ['\\.integration\\.spec\\.ts$'],
      setupFiles: ['reflect-metadata'],
      transform,
    },
    {
      displayName: 'integration',
      testEnvironment: 'node',
      rootDir: '.',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts', '<rootDir>/src/**/*.integration.spec.ts', '<rootDir>/packages/sdk/test/**/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
      setupFiles: ['reflect-metadata'],
      transform,
    },
  ],
};
