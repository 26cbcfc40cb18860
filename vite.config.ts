import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react(), tailwindcss()],
  // Every `zod` import of the dashboard (the shared contract's too) gets zod configured for the CSP first.
  resolve: { alias: [{ find: /^zod$/, replacement: fileURLToPath(new URL('./src/web/zod-without-eval.ts', import.meta.url)) }] },
  build: {
    outDir: 'dist/web',
    emptyOutDir: true,
    sourcemap: true,
    // No inline scripts or styles: the service's CSP forbids them.
    assetsInlineLimit: 0,
  },
  server: {
    port: 5173,
    // In development the API comes from a running service (npm start), 8080 unless CALLBOARD_API says otherwise.
    proxy: { '/v1': process.env.CALLBOARD_API ?? 'http://127.0.0.1:8080', '/healthz': process.env.CALLBOARD_API ?? 'http://127.0.0.1:8080' },
  },
});
