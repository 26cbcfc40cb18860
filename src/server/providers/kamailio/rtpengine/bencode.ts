/**
 * Bencode, the encoding of rtpengine's ng control protocol: byte strings (`4:ping`), integers
 * (`i42e`), lists (`l…e`) and dictionaries (`d…e`, keys sorted). Strings are decoded as UTF-8 (an
 * SDP is ASCII); a malformed message is an error naming its offset.
 */

export type BencodeValue = string | number | BencodeValue[] | { [key: string]: BencodeValue };

export class BencodeError extends Error {}

export const encodeBencode = (value: BencodeValue): Buffer => {
  const parts: Buffer[] = [];
  const write = (item: BencodeValue): void => {
    if (typeof item === 'string') {
      const bytes = Buffer.from(item, 'utf8');
      parts.push(Buffer.from(`${bytes.length}:`, 'ascii'), bytes);
    } else if (typeof item === 'number') {
      if (!Number.isSafeInteger(item)) throw new BencodeError(`bencode holds integers only, not ${item}`);
      parts.push(Buffer.from(`i${item}e`, 'ascii'));
    } else if (Array.isArray(item)) {
      parts.push(Buffer.from('l', 'ascii'));
      item.forEach(write);
      parts.push(Buffer.from('e', 'ascii'));
    } else {
      parts.push(Buffer.from('d', 'ascii'));
      for (const key of Object.keys(item).sort()) {
        write(key);
        write(item[key] as BencodeValue);
      }
      parts.push(Buffer.from('e', 'ascii'));
    }
  };
  write(value);
  return Buffer.concat(parts);
};

const DIGIT = /^[0-9]$/;

export const decodeBencode = (bytes: Buffer): BencodeValue => {
  let at = 0;
  const fail = (what: string): never => {
    throw new BencodeError(`malformed bencode at byte ${at}: ${what}`);
  };
  const char = () => (at < bytes.length ? String.fromCharCode(bytes[at] as number) : fail('the message ends early'));
  const until = (stop: string) => {
    const end = bytes.indexOf(stop, at, 'ascii');
    if (end < 0) fail(`no "${stop}"`);
    const text = bytes.toString('ascii', at, end);
    at = end + 1;
    return text;
  };
  const read = (): BencodeValue => {
    const c = char();
    if (c === 'i') {
      at += 1;
      const text = until('e');
      if (!/^-?(0|[1-9][0-9]*)$/.test(text)) fail(`"${text}" is not an integer`);
      return Number(text);
    }
    if (c === 'l') {
      at += 1;
      const list: BencodeValue[] = [];
      while (char() !== 'e') list.push(read());
      at += 1;
      return list;
    }
    if (c === 'd') {
      at += 1;
      const dict: Record<string, BencodeValue> = {};
      while (char() !== 'e') {
        const key = read();
        if (typeof key !== 'string') fail('a dictionary key must be a string');
        dict[key as string] = read();
      }
      at += 1;
      return dict;
    }
    if (DIGIT.test(c)) {
      const length = Number(until(':'));
      if (!Number.isSafeInteger(length) || at + length > bytes.length) fail(`a string of ${length} bytes runs past the end`);
      const text = bytes.toString('utf8', at, at + length);
      at += length;
      return text;
    }
    return fail(`unexpected "${c}"`);
  };
  const value = read();
  if (at !== bytes.length) fail(`${bytes.length - at} bytes after the value`);
  return value;
};
