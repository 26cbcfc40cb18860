/** Whether the built service and dashboard in dist/ were built from the sources as they are now. */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const INPUTS = ['src', 'public', 'index.html', 'vite.config.ts', 'package-lock.json', 'tsconfig.base.json', 'tsconfig.server.json', 'tsconfig.web.json'];
const STAMP = 'dist/.build-inputs';

const filesUnder = (path) => {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => filesUnder(join(path, name)));
};

/** One digest over every input's path and content (about 300 files: a few milliseconds). */
export const buildInputsDigest = () => {
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap(filesUnder)) hash.update(file).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex');
};

export const isBuildCurrent = () => existsSync(STAMP) && existsSync('dist/server/main.js') && readFileSync(STAMP, 'utf8') === buildInputsDigest();

export const markBuildCurrent = () => writeFileSync(STAMP, buildInputsDigest());
