/**
 * A secret of the config (a provider's auth token, say), given as a string or read from an
 * environment variable or a file when the config is checked. Its value is read with `reveal()`
 * only where it is used; printed, logged or serialized it shows as "[secret]".
 */
import { readFileSync } from 'node:fs';
import { inspect } from 'node:util';
import { z } from 'zod';

const HIDDEN = '[secret]';

export class Secret {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  reveal(): string {
    return this.#value;
  }

  toString(): string {
    return HIDDEN;
  }

  toJSON(): string {
    return HIDDEN;
  }

  [inspect.custom](): string {
    return HIDDEN;
  }
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * `"the value"`, `{ "env": "VAR" }` or `{ "file": "path" }` (a relative path is read from the
 * service's working directory; one trailing line break is dropped). A variable that is not set,
 * or a file that cannot be read or is empty, is named where the config is checked.
 */
export const secretSchema = z
  .union([
    z.string().min(1, 'is empty: give the secret, or { "env": "VAR" } or { "file": "path" } to read it from there'),
    z.strictObject({ env: z.string().regex(ENV_NAME, 'must be the name of an environment variable') }),
    z.strictObject({ file: z.string().min(1) }),
  ])
  .transform((given, ctx) => {
    if (typeof given === 'string') return new Secret(given);
    if ('env' in given) {
      const value = process.env[given.env];
      if (value) return new Secret(value);
      ctx.addIssue({ code: 'custom', message: `environment variable ${given.env} is not set (or is empty)` });
      return z.NEVER;
    }
    let text: string;
    try {
      text = readFileSync(given.file, 'utf8').replace(/\r?\n$/, '');
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: `cannot read the file ${given.file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` });
      return z.NEVER;
    }
    if (text) return new Secret(text);
    ctx.addIssue({ code: 'custom', message: `the file ${given.file} is empty` });
    return z.NEVER;
  });
