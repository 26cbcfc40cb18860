/** Types of precompress.mjs, for the service's tests. */
export function precompress(dir: string): { raw: number; brotli: number; gzip: number };
