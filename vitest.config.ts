import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 20_000,
    projects: [
      { test: { name: 'service', include: ['src/server/**/*.test.ts', 'src/contract/**/*.test.ts'], environment: 'node' } },
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
