import react from '@vitejs/plugin-react';
import { configDefaults, defineConfig } from 'vitest/config';

/** Real SIP calls through Kamailio and baresip phones (the test bed); slower, so a project of their own. */
const SIP_TESTS = 'src/**/*.sip.test.ts';
/** Faults of a cluster of real processes (instances, PostgreSQL, HAProxy); slower still. */
const CLUSTER_TESTS = 'src/**/*.cluster.test.ts';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'service',
          // A project does not inherit the root's test options: each says its own time limit.
          testTimeout: 20_000,
          include: [
            'src/server/**/*.test.ts',
            'src/contract/**/*.test.ts',
            'src/testbed/**/*.test.ts',
            'bench/**/*.test.ts',
            'scripts/**/*.test.ts',
          ],
          exclude: [...configDefaults.exclude, SIP_TESTS, CLUSTER_TESTS],
          environment: 'node',
          // Each app a test builds starts worker threads: from one bundled file each, not through tsx.
          globalSetup: ['src/server/test-support/worker-bundles.ts'],
        },
      },
      { test: { name: 'sip', include: [SIP_TESTS], environment: 'node', testTimeout: 60_000, hookTimeout: 60_000 } },
      { test: { name: 'cluster', include: [CLUSTER_TESTS], environment: 'node', testTimeout: 120_000, hookTimeout: 240_000 } },
      {
        plugins: [react()],
        test: {
          name: 'dashboard',
          // Above the queries' 5 s wait (test-setup.ts), so a slow wait fails as itself, not as a test timeout.
          testTimeout: 20_000,
          include: ['src/web/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['src/web/test-setup.ts'],
        },
      },
    ],
  },
});
