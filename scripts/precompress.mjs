/**
 * Brotli and gzip copies of the built dashboard's text files (`x.js` → `x.js.br`, `x.js.gz`), made
 * once at build time with the slowest, smallest settings, so the service sends them as they are to
 * every browser that accepts them. A copy that would not be smaller, header included, is not written.
 */
import { readdirSync, readFileSync, statSync, writeFileSync, rmSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** Text the browser downloads (source maps are fetched only by developer tools: sent as they are). */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt)$/;
/** A copy is kept only where it saves more than the Content-Encoding header it costs. */
const HEADER_BYTES = 24;

const filesUnder = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });

/** Writes the compressed copies under `dir`; returns the bytes before and after, for the build's report. */
export const precompress = (dir) => {
  let raw = 0;
  let brotli = 0;
  let gzip = 0;
  for (const path of filesUnder(dir)) {
    if (!COMPRESSIBLE.test(path)) continue;
    for (const old of [`${path}.br`, `${path}.gz`]) if (existsSync(old)) rmSync(old);
    const bytes = readFileSync(path);
    const br = brotliCompressSync(bytes, {
      params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
    });
    const gz = gzipSync(bytes, { level: 9 });
    raw += bytes.length;
    const gains = (copy) => copy.length + HEADER_BYTES < bytes.length;
    brotli += gains(br) ? br.length : bytes.length;
    gzip += gains(gz) ? gz.length : bytes.length;
    if (gains(br)) writeFileSync(`${path}.br`, br);
    if (gains(gz)) writeFileSync(`${path}.gz`, gz);
  }
  return { raw, brotli, gzip };
};
