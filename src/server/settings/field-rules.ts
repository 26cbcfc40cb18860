/** The rules of fields that the config's parts and the providers' settings share: ids and digit strings. */
import { z } from 'zod';

export const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._~-]{0,63}$/;
export const ID_RULE = '1 to 64 letters, digits, ".", "_", "~" or "-", starting with a letter or digit';
export const idSchema = z.string().regex(ID_PATTERN, `must be ${ID_RULE}`);

export const digits = (min: number, max: number) => z.string().regex(new RegExp(`^[0-9]{${min},${max}}$`), `must be ${min} to ${max} digits`);
