import react from '@vitejs/plugin-react';
import { configDefaults, defineConfig } from 'vitest/config';

/** Real SIP calls through Kamailio and baresip phones (the test bed); slower, so a project of their own. */
const SIP_TESTS = 'src/**/*.sip.test.ts';

export default defineConfig({
  test: {
    testTimeout: 20_000,
    projects: [
      {
        test: {
          name: 'service',
          include: ['src/server/**/*.test.ts', 'src/contract/**/*.test.ts', 'src/testbed/**/*.test.ts'],
          exclude: [...configDefaults.exclude, SIP_TESTS],
          environment: 'node',
        },
      },
      { test: { name: 'sip', include: [SIP_TESTS], environment: 'node', testTimeout: 60_000, hookTimeout: 60_000 } },
      {
        plugins: [react()],
        test: {
          name: 'dashboard',
          include: ['src/web/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['src/web/test-setup.ts'],
        },
      },
    ],
  },
});
