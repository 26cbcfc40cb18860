/** The rules of fields that the config's parts and the providers' settings share: ids and digit strings. */
import { z } from 'zod';

export const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._~-]{0,63}$/;
export const ID_RULE = '1 to 64 letters, digits, ".", "_", "~" or "-", starting with a letter or digit';
export const idSchema = z.string().regex(ID_PATTERN, `must be ${ID_RULE}`);

export const digits = (min: number, max: number) => z.string().regex(new RegExp(`^[0-9]{${min},${max}}$`), `must be ${min} to ${max} digits`);

/**
 * Flags every entry of a list (the agents of a provider, say) whose `key` an earlier entry holds
 * already, at `list[i].key`. `sameAs` gives the form two values are compared in (an Asterisk
 * endpoint's case does not tell two apart); the message names the value as written.
 */
export const flagDuplicates = <Entry extends Record<Key, string>, Key extends string>(
  ctx: z.RefinementCtx,
  list: string,
  entries: readonly Entry[],
  keys: readonly Key[],
  sameAs: (value: string, key: Key) => string = (value) => value,
): void => {
  for (const key of keys) {
    const seen = new Set<string>();
    entries.forEach((entry, i) => {
      const value = sameAs(entry[key], key);
      if (seen.has(value)) ctx.addIssue({ code: 'custom', path: [list, i, key], message: `duplicate ${key} "${entry[key]}"` });
      seen.add(value);
    });
  }
};
