import { describe, expect, it, vi } from 'vitest';
import { serviceConfigSchema } from '../config/config-schema.js';
import { testConfig, tokens } from '../test-support/test-app.js';
import { sameToken, TokenIndex } from './token-index.js';

const indexOf = (config = testConfig()) => TokenIndex.fromConfig(serviceConfigSchema.parse(config));

describe('sameToken', () => {
  it.each([
    ['the same token', tokens.acmeAll, tokens.acmeAll, true],
    ['one character changed', tokens.acmeAll, `${tokens.acmeAll.slice(0, -1)}X`, false],
    ['a prefix of it', tokens.acmeAll, tokens.acmeAll.slice(0, -1), false],
    ['it and more', tokens.acmeAll, `${tokens.acmeAll}0`, false],
    ['nothing', tokens.acmeAll, '', false],
  ])('tells %s apart', (_label, known, presented, same) => {
    expect(sameToken(known, presented)).toBe(same);
  });
});

describe('a token remembered per connection', () => {
  it('looks a token up once on a connection that keeps sending it', () => {
    const index = indexOf();
    const find = vi.spyOn(index, 'find');
    const connection = {};
    const first = index.findOn(connection, tokens.acmeAll);
    expect(index.findOn(connection, tokens.acmeAll)).toBe(first);
    expect(first?.tokenName).toBe('all');
    expect(find).toHaveBeenCalledTimes(1);
    // Another connection is another client, until it has shown the token itself.
    expect(index.findOn({}, tokens.acmeAll)).toBe(first);
    expect(find).toHaveBeenCalledTimes(2);
  });

  it('never gives a different token on the same connection the principal it remembers', () => {
    const index = indexOf();
    const connection = {};
    expect(index.findOn(connection, tokens.acmeAll)?.accountID).toBe('acme');
    expect(index.findOn(connection, tokens.globex)?.accountID).toBe('globex');
    expect(index.findOn(connection, `${tokens.globex.slice(0, -1)}X`)).toBeUndefined();
    expect(index.findOn(connection, tokens.globex.slice(0, -1))).toBeUndefined();
    expect(index.findOn(connection, tokens.globex)?.accountID).toBe('globex');
  });

  it('remembers nothing across a reloaded configuration: a token taken out of it is refused on a connection that used it', () => {
    const connection = {};
    expect(indexOf().findOn(connection, tokens.globex)?.accountID).toBe('globex');
    const config = testConfig();
    const reloaded = indexOf({ ...config, accounts: config.accounts.filter((account) => account.id !== 'globex') });
    expect(reloaded.findOn(connection, tokens.globex)).toBeUndefined();
  });
});
