/**
 * Benchmark client process: the heavy tenant downloading an export (`path`) again and again as
 * fast as it reads, until SIGTERM ends the one under way; then it prints what it got as one JSON line.
 */
import { request, type ClientRequest } from 'node:http';
import { HEAVY_TENANT_TOKEN } from './bench-token.js';

const [portText, path] = process.argv.slice(2) as [string, string];
let bytes = 0;
let files = 0;
let failed = 0;
let stopped = false;
let current: ClientRequest | undefined;

const once = () =>
  new Promise<void>((resolve) => {
    current = request(
      { host: '127.0.0.1', port: Number(portText), path, headers: { authorization: `Bearer ${HEAVY_TENANT_TOKEN}` } },
      (res) => {
        if (res.statusCode !== 200) failed += 1;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () => {
          files += 1;
          resolve();
        });
        res.on('error', () => resolve());
        res.on('close', () => resolve());
      },
    );
    current.on('error', () => resolve());
    current.end();
  });

const done = (async () => {
  while (!stopped) await once();
})();
process.stdout.write('ready 0\n');
process.once('SIGTERM', () => {
  stopped = true;
  current?.destroy();
  void done.then(() => process.stdout.write(`result ${JSON.stringify({ bytes, files, failed })}\n`));
});
