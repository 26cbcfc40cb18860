import js from '@eslint/js';
import pluginQuery from '@tanstack/eslint-plugin-query';
import importPlugin from 'eslint-plugin-import';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'test-results', 'playwright-report', 'data', 'bench/results'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: { globals: { ...globals.node } },
    plugins: { import: importPlugin },
    settings: {
      'import/resolver': { typescript: { alwaysTryTypes: true }, node: true },
      'import/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'import/no-cycle': 'error',
      'import/no-duplicates': 'error',
      'import/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './src/contract', from: ['./src/server', './src/web'], message: 'The contract is imported by both sides and imports neither.' },
            { target: './src/server', from: './src/web', message: 'The service does not import the dashboard.' },
            { target: './src/web', from: './src/server', message: 'The dashboard talks to the service over HTTP only; share through src/contract.' },
            { target: './src/web/lib', from: ['./src/web/features', './src/web/app'], message: 'lib is shared: it imports no feature and not the app.' },
            { target: './src/web/components', from: ['./src/web/features', './src/web/app'], message: 'Shared components import no feature and not the app.' },
            { target: './src/web/features', from: './src/web/app', message: 'Features do not import the app shell.' },
          ],
        },
      ],
      'no-console': 'error',
    },
  },
  {
    files: ['src/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y, '@tanstack/query': pluginQuery },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
      ...pluginQuery.configs['flat/recommended'][0].rules,
    },
  },
  { files: ['scripts/**', 'e2e/**', 'bench/**'], rules: { 'no-console': 'off' } },
  // Served as is to the browser, before the app: plain script, browser globals.
  { files: ['public/**/*.js'], languageOptions: { sourceType: 'script', globals: { ...globals.browser } } },
);
