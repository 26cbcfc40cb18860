import { describe, expect, it } from 'vitest';
import { PROVIDERS } from '../providers/provider-registry.js';
import { providerConfigSchema } from './config-schema.js';

const kamailio = { rpcURL: 'http://127.0.0.1:5071/RPC', sipDomain: '127.0.0.1', directory: [{ subscriberID: 'a', sipUser: '1001', firstName: 'A', lastName: 'B', email: '', extension: '101', number: '15550101' }] };
const twilio = { accountSid: `AC${'0a'.repeat(16)}`, authToken: 'plain-token-0123456789', callerID: '15005550006', agents: [{ subscriberID: 'a', firstName: 'A', lastName: 'B', email: '', extension: '101', number: '15550101', device: 'client:a' }] };
const asterisk = { ariURL: 'http://pbx.example.com:8088', username: 'u', password: 'p', dialContext: 'from-internal', agents: [{ subscriberID: 'a', firstName: 'A', lastName: 'B', email: '', extension: '101', number: '15550101', endpoint: 'PJSIP/101' }] };

const parse = (type: string, settings?: object, fields: object = {}) => providerConfigSchema.parse({ id: 'p', name: 'P', type, ...(settings ? { settings } : {}), ...fields });

describe("the config's provider types", () => {
  it("give each type its own defaults of the common fields, and the service's to the rest", () => {
    const timing = (config: ReturnType<typeof parse>) => [config.syncIntervalMs, config.minListIntervalMs, config.presenceIntervalMs];
    expect(timing(parse('simulator'))).toEqual([1000, undefined, 2000]);
    expect(timing(parse('kamailio', kamailio))).toEqual([1000, undefined, 5000]);
    expect(timing(parse('twilio', twilio))).toEqual([2000, 1000, 5000]);
    expect(timing(parse('asterisk', asterisk))).toEqual([2000, undefined, 5000]);
  });

  it("take a configured value over the type's default, within the common field's bounds", () => {
    expect(parse('twilio', twilio, { syncIntervalMs: 500, minListIntervalMs: 0 })).toMatchObject({ syncIntervalMs: 500, minListIntervalMs: 0 });
    expect(providerConfigSchema.safeParse({ id: 'p', name: 'P', type: 'twilio', settings: twilio, syncIntervalMs: 50 }).success).toBe(false);
  });

  it('name every registered type when the type is unknown', () => {
    const result = providerConfigSchema.safeParse({ id: 'p', name: 'P', type: 'pbx9000' });
    expect(result.error?.issues[0]?.message).toBe(`Invalid discriminator value. Expected ${PROVIDERS.map((provider) => `'${provider.type}'`).join(' | ')}`);
  });
});
