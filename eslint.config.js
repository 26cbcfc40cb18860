import js from '@eslint/js';
import pluginQuery from '@tanstack/eslint-plugin-query';
import importPlugin from 'eslint-plugin-import';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Import directions of the contract and the dashboard. */
const sharedZones = [
  {
    target: './src/contract',
    from: ['./src/server', './src/web'],
    message: 'The contract is imported by both sides and imports neither.',
  },
  { target: './src/server', from: './src/web', message: 'The service does not import the dashboard.' },
  {
    target: './src/web',
    from: './src/server',
    message: 'The dashboard talks to the service over HTTP only; share through src/contract.',
  },
  {
    target: './src/web/lib',
    from: ['./src/web/features', './src/web/app'],
    message: 'lib is shared: it imports no feature and not the app.',
  },
  {
    target: './src/web/components',
    from: ['./src/web/features', './src/web/app'],
    message: 'Shared components import no feature and not the app.',
  },
  { target: './src/web/features', from: './src/web/app', message: 'Features do not import the app shell.' },
];

/**
 * The service's layers point one way: contract <- settings <- providers, config <- domain (calls <- auth, history,
 * agents, idempotency) <- cluster <- runtime <- http <- routes <- app.
 */
const DOMAIN = ['./src/server/auth', './src/server/calls', './src/server/history', './src/server/agents', './src/server/idempotency'];
const ABOVE_DOMAIN = ['./src/server/cluster', './src/server/runtime', './src/server/http', './src/server/routes', './src/server/app.ts', './src/server/main.ts'];

const serverZones = [
  {
    target: './src/server/settings',
    from: './src/server',
    except: ['./settings'],
    message: 'Settings are the building blocks of the config and of the providers\' settings: they import no other part of the service.',
  },
  {
    target: './src/server/providers',
    from: ['./src/server/config', ...DOMAIN, ...ABOVE_DOMAIN],
    message:
      'Providers know phone systems only: each defines its settings and builds its phone system from them, and raises ProviderFailure / SubscriberRejection.',
  },
  {
    target: './src/server/config',
    from: [...DOMAIN, ...ABOVE_DOMAIN],
    message: 'The config format is read by the layers above it and imports none of them.',
  },
  {
    target: DOMAIN,
    from: ABOVE_DOMAIN,
    message: 'Domain code raises domain errors and knows nothing of the cluster it may run in, HTTP, routes or the runtime that wires it.',
  },
  {
    target: './src/server/calls',
    from: ['./src/server/auth', './src/server/history', './src/server/agents', './src/server/idempotency'],
    message:
      'The sync states what it needs of the journal and the cluster as ports (call-journal.ts, shared-sync.ts); history implements them, agents read the calls: none of them is imported here.',
  },
  {
    target: './src/server/cluster',
    from: ['./src/server/runtime', './src/server/http', './src/server/routes', './src/server/app.ts', './src/server/main.ts'],
    message: "A cluster's leadership serves the domain's ports (shared sync, feeds); the runtime and the app wire it in, never the reverse.",
  },
  {
    target: './src/server/runtime',
    from: ['./src/server/http', './src/server/routes', './src/server/app.ts', './src/server/main.ts'],
    message: 'The runtime wires providers to the domain; HTTP is a layer above it.',
  },
  {
    target: './src/server/http',
    from: ['./src/server/routes', './src/server/app.ts', './src/server/main.ts'],
    message: 'HTTP plugins serve every route; routes use them, not the other way round.',
  },
  {
    target: './src/server/routes',
    from: ['./src/server/app.ts', './src/server/main.ts'],
    message: 'Routes are registered by the app, never the reverse.',
  },
];

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
      // Packages never import our modules back, so no cycle runs through them: import/no-cycle
      // need not parse their sources and typings (four fifths of the lint's time when it did).
      'import/ignore': ['node_modules'],
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'import/no-cycle': 'error',
      'import/no-duplicates': 'error',
      'import/no-restricted-paths': ['error', { zones: sharedZones }],
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
  {
    // Tests and their support build the whole service on purpose; the layers bind the code they test.
    files: ['src/server/**/*.ts'],
    ignores: ['src/server/**/*.test.ts', 'src/server/test-support/**'],
    rules: { 'import/no-restricted-paths': ['error', { zones: [...sharedZones, ...serverZones] }] },
  },
  { files: ['scripts/**', 'e2e/**', 'bench/**'], rules: { 'no-console': 'off' } },
  // Served as is to the browser, before the app: plain script, browser globals.
  { files: ['public/**/*.js'], languageOptions: { sourceType: 'script', globals: { ...globals.browser } } },
);
