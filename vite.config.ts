import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

/**
 * Zod's schemas each carry a `.toJSONSchema()` (and the Standard Schema `jsonSchema`), so every
 * page would download zod's JSON Schema generator though only the service makes JSON Schema (its
 * OpenAPI document). In the dashboard the schemas get stand-ins for that generator: calling them
 * throws, and everything else about a schema (parsing, errors, its `minLength` and the like) is
 * zod's own. The stand-ins are written from the real modules' exports, so a zod that adds one
 * still builds; a zod that moves these imports brings the generator back, and the build says so.
 */
const zodWithoutJsonSchema = (): Plugin => {
  const STUB = '\0zod-json-schema-stub:';
  const classicSchemas = /[\\/]node_modules[\\/]zod[\\/]v4[\\/]classic[\\/]schemas\.js$/;
  const generator = /[\\/]node_modules[\\/]zod[\\/]v4[\\/]core[\\/]to-json-schema\.js$/;
  const replaced = ['../core/to-json-schema.js', '../core/json-schema-processors.js'];
  const exportsOf = (path: string) =>
    [...readFileSync(path, 'utf8').matchAll(/^export (?:const|let|class|function|async function) (\w+)/gm)].map(
      (m) => m[1] as string,
    );
  return {
    name: 'zod-without-json-schema',
    // The build only: in development zod comes pre-bundled, whole.
    apply: 'build',
    enforce: 'pre',
    async resolveId(source, importer) {
      if (!importer || !classicSchemas.test(importer) || !replaced.includes(source)) return null;
      const real = await this.resolve(source, importer, { skipSelf: true });
      return real ? STUB + real.id : null;
    },
    load(id) {
      if (!id.startsWith(STUB)) return null;
      const real = id.slice(STUB.length);
      const names = exportsOf(real).map((name) =>
        // The checks behind `schema.minLength`, `.format` and the like stay zod's own.
        name === 'aggregateChecks'
          ? `export { aggregateChecks } from ${JSON.stringify(real)};`
          : `export const ${name} = ${name.startsWith('create') ? '() => unavailable' : 'unavailable'};`,
      );
      return [
        `const unavailable = () => { throw new Error('JSON Schema is made by the service (/v1/openapi.json), not by the dashboard.'); };`,
        ...names,
      ].join('\n');
    },
    generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle))
        if (
          chunk.type === 'chunk' &&
          Object.entries(chunk.modules).some(
            ([id, module]) => generator.test(id) && !id.startsWith(STUB) && module.renderedLength > 0,
          )
        )
          this.error(`${chunk.fileName} holds zod's JSON Schema generator: something in the dashboard imports it.`);
    },
  };
};

export default defineConfig({
  plugins: [react(), tailwindcss(), zodWithoutJsonSchema()],
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
    proxy: {
      '/v1': process.env.CALLBOARD_API ?? 'http://127.0.0.1:8080',
      '/auth': process.env.CALLBOARD_API ?? 'http://127.0.0.1:8080',
      '/healthz': process.env.CALLBOARD_API ?? 'http://127.0.0.1:8080',
    },
  },
});
