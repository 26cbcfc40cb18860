/**
 * The dashboard's files go out compressed to every browser that accepts it (the copies the build
 * makes), as they are to one that does not, and always with the caching and CSP they had.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompress } from '../../../scripts/precompress.mjs';
import { buildApp } from '../app.js';
import { serviceConfigSchema } from '../config/config-schema.js';
import { ScriptedPhoneSystem } from '../test-support/scripted-phone-system.js';
import { testConfig } from '../test-support/test-app.js';
import { createTestHistory } from '../test-support/test-history.js';
import { acceptedEncoding, WEB_CSP } from './web-app-plugin.js';

const SCRIPT = `export const rows = [${Array.from({ length: 400 }, (_, i) => `{ id: ${i}, label: "row ${i}" }`).join(', ')}];\n`;
const INDEX = `<!doctype html><html><head><title>Callboard</title><script type="module" src="/assets/app-1a2b3c.js"></script></head><body><div id="root"></div>${'<!-- padding -->'.repeat(80)}</body></html>`;

let app: FastifyInstance;
let webRoot: string;
let dispose: () => Promise<void>;

beforeAll(async () => {
  webRoot = mkdtempSync(join(tmpdir(), 'callboard-web-'));
  mkdirSync(join(webRoot, 'assets'));
  writeFileSync(join(webRoot, 'index.html'), INDEX);
  writeFileSync(join(webRoot, 'assets', 'app-1a2b3c.js'), SCRIPT);
  writeFileSync(join(webRoot, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  const sizes = precompress(webRoot);
  expect(sizes.brotli).toBeLessThan(sizes.raw / 4);
  const history = await createTestHistory();
  app = await buildApp({
    config: serviceConfigSchema.parse(testConfig()),
    history: await history.open(),
    autoSync: false,
    webRoot,
    createPhoneSystem: () => new ScriptedPhoneSystem(),
  });
  await app.ready();
  dispose = () => history.dispose();
});

afterAll(async () => {
  await app?.close();
  await dispose?.();
  rmSync(webRoot, { recursive: true, force: true });
});

const get = (url: string, acceptEncoding?: string) =>
  app.inject({ method: 'GET', url, headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } });

describe('the dashboard on the wire', () => {
  it('sends a hashed script as brotli, else gzip, else as it is, cached for good either way', async () => {
    const br = await get('/assets/app-1a2b3c.js', 'gzip, deflate, br, zstd');
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(SCRIPT);
    expect(br.rawPayload.length).toBeLessThan(SCRIPT.length / 4);
    const gzip = await get('/assets/app-1a2b3c.js', 'gzip, deflate');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(SCRIPT);
    const plain = await get('/assets/app-1a2b3c.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
    for (const reply of [br, gzip, plain]) {
      expect(reply.statusCode).toBe(200);
      expect(reply.headers['content-type']).toMatch(/javascript/);
      expect(reply.headers['cache-control'], String(reply.headers['content-encoding'])).toBe('public, max-age=31536000, immutable');
      expect(reply.headers.vary).toMatch(/accept-encoding/i);
    }
  });

  it('sends the page for every client-side route compressed too, with its CSP, never cached stale', async () => {
    const page = await get('/wallboard?agents=1', 'br;q=1.0, gzip;q=0.8');
    expect(page.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(page.rawPayload).toString()).toBe(INDEX);
    expect(page.headers['content-security-policy']).toBe(WEB_CSP);
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.headers.vary).toMatch(/accept-encoding/i);
    const plain = await get('/analytics', 'br;q=0, gzip;q=0');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(INDEX);
  });

  it('leaves a file too small to gain as it is', async () => {
    const icon = await get('/favicon.svg', 'br');
    expect(icon.headers['content-encoding']).toBeUndefined();
    expect(icon.body).toContain('<svg');
  });

  it('reads Accept-Encoding as browsers and proxies write it', () => {
    expect(acceptedEncoding('gzip, deflate, br')).toBe('br');
    expect(acceptedEncoding('gzip;q=0.9, br;q=0')).toBe('gzip');
    expect(acceptedEncoding('*')).toBe('br');
    expect(acceptedEncoding('*;q=0.5, br;q=0')).toBe('gzip');
    expect(acceptedEncoding('identity')).toBeUndefined();
    expect(acceptedEncoding(undefined)).toBeUndefined();
  });
});
