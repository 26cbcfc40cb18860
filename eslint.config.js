import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'test-results', 'playwright-report', 'data'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: { globals: { ...globals.node } },
    plugins: { 'import-x': importX },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'import-x/no-cycle': 'error',
      'import-x/no-default-export': 'off',
      'import-x/no-duplicates': 'error',
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './src/contract', from: ['./src/server', './src/web'], message: 'The contract is imported by both sides and imports neither.' },
            { target: './src/server', from: './src/web', message: 'The service does not import the dashboard.' },
            { target: './src/web', from: './src/server', message: 'The dashboard talks to the service over HTTP only; share through src/contract.' },
          ],
        },
      ],
      'no-console': 'error',
    },
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver({ alwaysTryTypes: true })] },
  },
  { files: ['scripts/**', 'e2e/**', 'bench/**'], rules: { 'no-console': 'off' } },
);
