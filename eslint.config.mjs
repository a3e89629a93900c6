import tseslint from 'typescript-eslint';
import boundaries from './eslint/module-boundaries.cjs';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.local/**', 'coverage/**', 'packages/*/dist/**', 'packages/sdk/src/generated/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    plugins: { project: boundaries },
    rules: {
      'project/module-boundaries': 'error',
      'project/surface-exports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.name='forwardRef']", message: 'No forwardRef: a module cycle means a responsibility is in the wrong place.' },
      ],
      'no-console': ['error', { allow: ['error', 'warn'] }],
    },
  },
  {
    // The environment is read in src/config/ (AppConfig and process-env.ts) and at the process
    // edge (main.ts, the CLI); everything else takes AppConfig (docs/module-skeleton.md).
    files: ['src/**/*.ts'],
    ignores: ['src/config/**', 'src/main.ts', 'src/cli/**', 'src/**/*.spec.ts'],
    rules: { 'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Read the environment in src/config/ (AppConfig or process-env.ts), not here.' }] },
  },
  {
    // Command-line entry points print their results.
    files: ['src/cli/**/*.ts', 'scripts/**/*.ts', 'bench/**/*.ts', 'test/**/*.ts', 'examples/**/*.ts', 'packages/sdk/test/**/*.ts'],
    rules: { 'no-console': 'off' },
  },
  {
    // The SDK and the examples show that the generated types need no casts: no `as` (except `as const`), no `<T>x`.
    files: ['packages/sdk/src/**/*.ts', 'packages/sdk/examples/**/*.ts', 'examples/**/*.ts'],
    ignores: ['packages/sdk/src/generated/**'],
    rules: { '@typescript-eslint/consistent-type-assertions': ['error', { assertionStyle: 'never' }] },
  },
);
