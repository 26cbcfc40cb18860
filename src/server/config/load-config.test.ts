import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { demoConfig, loadConfigFile, parseConfig } from './load-config.js';
import { testConfig } from '../test-support/test-app.js';

describe('config', () => {
  it('accepts a valid file and fills defaults', () => {
    const config = parseConfig(JSON.stringify(testConfig()), 'callboard.json');
    expect(config.rateLimitPerMinute).toBe(1200);
    expect(config.accounts[0]?.applications[0]?.providers[0]).toMatchObject({ syncIntervalMs: 1000, staleAfterMs: 30_000, keepEndedMs: 120_000 });
  });

  it('takes how long ended calls stay listed per provider, and refuses a bad value by name', () => {
    const withKeep = (keepEndedMs: unknown) => {
      const config = testConfig();
      Object.assign(config.accounts[0]!.applications[0]!.providers[1]!, { keepEndedMs });
      return JSON.stringify(config);
    };
    const providers = parseConfig(withKeep(0), 'c.json').accounts[0]?.applications[0]?.providers;
    expect(providers?.map((p) => p.keepEndedMs)).toEqual([120_000, 0]);
    expect(() => parseConfig(withKeep(-1), 'c.json')).toThrow(/^c\.json:1:\d+: account "acme" › application "support" › provider "trunk" › keepEndedMs: /);
    expect(() => parseConfig(withKeep(90_000_000), 'c.json')).toThrow(/provider "trunk" › keepEndedMs: /);
    expect(() => parseConfig(withKeep('2 min'), 'c.json')).toThrow(/provider "trunk" › keepEndedMs: /);
  });

  it('names the file, the path inside it and the problem', () => {
    const bad = testConfig();
    (bad.accounts[0] as { applications: { providers: { type: string }[] }[] }).applications[0]!.providers[0]!.type = 'pbx9000';
    expect(() => parseConfig(JSON.stringify(bad, null, 2), 'callboard.json')).toThrow(
      /^callboard\.json:\d+:\d+: account "acme" › application "support" › provider "pbx" › type: /,
    );
  });

  it('refuses duplicate ids, unknown applications in tokens, and tokens given twice', () => {
    const dup = testConfig();
    dup.accounts.push({ ...dup.accounts[1]! });
    expect(() => parseConfig(JSON.stringify(dup), 'c.json')).toThrow(/duplicate account id "globex"/);
    const unknownApp = testConfig();
    (unknownApp.accounts[0]!.tokens[1] as { applications: string[] }).applications = ['nope'];
    expect(() => parseConfig(JSON.stringify(unknownApp), 'c.json')).toThrow(/token "support-read" › applications\.0: no application "nope"/);
    const both = testConfig();
    Object.assign(both.accounts[0]!.tokens[1]!, { sha256: 'a'.repeat(64) });
    expect(() => parseConfig(JSON.stringify(both), 'c.json')).toThrow(/exactly one of "sha256" or "token"/);
  });

  it("refuses an agent token's empty, malformed or repeated subscriberIDs, naming the token", () => {
    const withIDs = (subscriberIDs: unknown) => {
      const config = testConfig();
      Object.assign(config.accounts[0]!.tokens[3]!, { subscriberIDs });
      return JSON.stringify(config);
    };
    expect(parseConfig(withIDs(['agt-1', 'agt-2']), 'c.json').accounts[0]?.tokens[3]?.subscriberIDs).toEqual(['agt-1', 'agt-2']);
    expect(() => parseConfig(withIDs([]), 'c.json')).toThrow(
      /^c\.json:1:\d+: account "acme" › token "agent-1" › subscriberIDs: is empty: list the subscribers this token places calls as, or leave subscriberIDs out/,
    );
    expect(() => parseConfig(withIDs(['agt-1', 'agt 2']), 'c.json')).toThrow(
      /^c\.json:1:\d+: account "acme" › token "agent-1" › subscriberIDs\.1: must be a subscriber ID: 1 to 64 letters/,
    );
    expect(() => parseConfig(withIDs(['agt-1', '']), 'c.json')).toThrow(/token "agent-1" › subscriberIDs\.1: must be a subscriber ID/);
    expect(() => parseConfig(withIDs(['agt-1', 'agt-1']), 'c.json')).toThrow(/token "agent-1" › subscriberIDs\.1: subscriber "agt-1" is listed twice/);
    expect(() => parseConfig(withIDs('agt-1'), 'c.json')).toThrow(/token "agent-1" › subscriberIDs: /);
  });

  it('accepts a Kamailio provider and names the path of a bad directory entry', () => {
    const entry = { subscriberID: 'agt-1', sipUser: '1001', firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', extension: '101', number: '15550101001' };
    const withKamailio = (directory: object[]) => {
      const config = testConfig();
      config.accounts[0]!.applications[0]!.providers = [
        { id: 'sip', name: 'Kamailio', type: 'kamailio', settings: { rpcURL: 'http://127.0.0.1:5071/RPC', sipDomain: '127.0.0.1:5060', directory } },
      ] as never;
      return JSON.stringify(config);
    };
    const provider = parseConfig(withKamailio([entry]), 'c.json').accounts[0]?.applications[0]?.providers[0];
    expect(provider?.type === 'kamailio' && provider.settings.directory[0]?.active).toBe(true);
    expect(() => parseConfig(withKamailio([entry, { ...entry, subscriberID: 'agt-2', extension: '1-01' }]), 'c.json')).toThrow(
      /^c\.json:1:\d+: account "acme" › application "support" › provider "sip" › settings › directory entry "agt-2" › extension: must be 1 to 10 digits/,
    );
    expect(() => parseConfig(withKamailio([entry, { ...entry, subscriberID: 'agt-2' }]), 'c.json')).toThrow(/directory entry "agt-2" › sipUser: duplicate sipUser "1001"/);
  });

  it('accepts a simulator process to connect to, and says which settings belong to that process', () => {
    const withSimulator = (settings: object) => {
      const config = testConfig();
      config.accounts[0]!.applications[0]!.providers = [{ id: 'shared', name: 'Shared PBX', type: 'simulator', settings }] as never;
      return JSON.stringify(config, null, 2);
    };
    const provider = parseConfig(withSimulator({ url: 'http://127.0.0.1:8090', control: true }), 'c.json').accounts[0]?.applications[0]?.providers[0];
    expect(provider?.type === 'simulator' && provider.settings).toEqual({ url: 'http://127.0.0.1:8090', control: true });
    const text = withSimulator({ url: 'http://127.0.0.1:8090', seed: 7, agents: 30 });
    const seedLine = text.split('\n').findIndex((line) => line.includes('"seed"')) + 1;
    expect(() => parseConfig(text, 'c.json')).toThrow(
      new RegExp(`^c\\.json:${seedLine}:\\d+: account "acme" › application "support" › provider "shared" › settings\\.seed: is set on the simulator process \\(its --seed flag\\), not here: with "url" this provider connects to the center that process runs\nc\\.json:\\d+:\\d+: .*settings\\.agents: is set on the simulator process \\(its --agents flag\\)`),
    );
    expect(() => parseConfig(withSimulator({ url: 'ftp://127.0.0.1:8090' }), 'c.json')).toThrow(/settings\.url: must be the http URL the simulator process printed/);
    expect(() => parseConfig(withSimulator({ url: 'http://127.0.0.1:8090/?x=1' }), 'c.json')).toThrow(/settings\.url: must be the simulator's base URL, with no query or fragment/);
  });

  it('reports bad JSON and unreadable files plainly', async () => {
    expect(() => parseConfig('{', 'c.json')).toThrow(/^c\.json:1:2: not valid JSON/);
    const dir = await mkdtemp(join(tmpdir(), 'callboard-config-'));
    await expect(loadConfigFile(join(dir, 'missing.json'))).rejects.toThrow(/cannot read the config file: ENOENT/);
    await writeFile(join(dir, 'ok.json'), JSON.stringify(testConfig()));
    await expect(loadConfigFile(join(dir, 'ok.json'))).resolves.toMatchObject({ rateLimitPerMinute: 1200 });
    await rm(dir, { recursive: true });
  });

  it('points at the line and column of a syntax error', () => {
    const text = ['{', '  "accounts": [', '    { "id": "acme" "name": "Acme" }', '  ]', '}'].join('\n');
    expect(() => parseConfig(text, 'c.json')).toThrow(/^c\.json:3:20: not valid JSON: a comma is missing/);
    expect(() => parseConfig('{ "accounts": [], }', 'c.json')).toThrow(/^c\.json:1:19: not valid JSON: a property name in double quotes/);
    expect(() => parseConfig('{ // note\n}', 'c.json')).toThrow(/^c\.json:1:3: not valid JSON: JSON does not allow comments/);
  });

  it('points at the line of a bad value and names the token it belongs to', () => {
    const bad = testConfig();
    (bad.accounts[0]!.tokens[2] as { permissions: string[] }).permissions = ['calls:read', 'calls:delete'];
    const text = JSON.stringify(bad, null, 2);
    const line = text.split('\n').findIndex((l) => l.includes('"calls:delete"')) + 1;
    expect(() => parseConfig(text, 'c.json')).toThrow(new RegExp(`^c\\.json:${line}:\\d+: account "acme" › token "sales-write" › permissions\\.1: `));
  });

  it('points at the object that lacks a required property', () => {
    const bad = testConfig();
    delete (bad.accounts[1] as { name?: string }).name;
    const text = JSON.stringify(bad, null, 2);
    // The account's "{" is the line above its id: 0-based index of the id line = 1-based line of the brace.
    const line = text.split('\n').findIndex((l) => l.includes('"globex"'));
    expect(() => parseConfig(text, 'c.json')).toThrow(new RegExp(`^c\\.json:${line}:\\d+: account "globex" › name: `));
  });

  it('builds a demo with two simulated providers, one two-step and one direct', () => {
    const { config, token } = demoConfig();
    expect(token.length).toBeGreaterThanOrEqual(32);
    const providers = config.accounts[0]?.applications[0]?.providers ?? [];
    expect(providers.map((p) => p.type === 'simulator' && p.settings.dialMode)).toEqual(['two-step', 'direct']);
    expect(demoConfig('my-own-demo-token-123').token).toBe('my-own-demo-token-123');
  });

  it("gives the demo's /metrics a token of its own, apart from the API token", () => {
    const { config, token, metricsToken } = demoConfig();
    expect(metricsToken.length).toBeGreaterThanOrEqual(32);
    expect(metricsToken).not.toBe(token);
    expect(config.metrics.token).toBe(metricsToken);
  });

  it('serves no /metrics without a token of its own, and refuses one switched on without it', () => {
    expect(parseConfig(JSON.stringify(testConfig()), 'c.json').metrics).toEqual({});
    expect(() => parseConfig(JSON.stringify(testConfig({ metrics: { enabled: true } })), 'c.json')).toThrow(
      /c\.json:\d+:\d+: metrics: \/metrics lists every account, application and provider, so it needs a token of its own/,
    );
  });

  it('checks the limits: headers must arrive before the whole request may', () => {
    const config = testConfig({ limits: { requestTimeoutMs: 5000, headersTimeoutMs: 10_000 } });
    expect(() => parseConfig(JSON.stringify(config), 'c.json')).toThrow(/limits\.headersTimeoutMs: must be at most requestTimeoutMs/);
    expect(parseConfig(JSON.stringify(testConfig()), 'c.json').limits.requestsPerToken).toBe(32);
  });
});

describe('a Twilio provider in the config', () => {
  const withTwilio = (settings: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
    const config = testConfig();
    config.accounts[0]!.applications[0]!.providers.push({
      id: 'twilio',
      name: 'Twilio',
      type: 'twilio',
      settings: {
        accountSid: `AC${'0a'.repeat(16)}`,
        authToken: 'plain-token-0123456789',
        callerID: '15005550006',
        agents: [{ subscriberID: 'agt-ada', firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', extension: '101', number: '15551230101', device: 'client:ada' }],
        ...settings,
      },
      ...extra,
    } as never);
    return JSON.stringify(config, null, 2);
  };
  const twilioOf = (text: string) => {
    const provider = parseConfig(text, 'c.json').accounts[0]?.applications[0]?.providers[2];
    if (provider?.type !== 'twilio') throw new Error('no twilio provider');
    return provider;
  };

  it('takes the names the docs give, with Twilio’s defaults: its API, two steps, listed every 2 s and never closer than 1 s', () => {
    const provider = twilioOf(withTwilio({ webhookBaseURL: 'https://callboard.example.com' }));
    expect(provider).toMatchObject({ syncIntervalMs: 2000, minListIntervalMs: 1000, settings: { apiBaseURL: 'https://api.twilio.com', dialMode: 'two-step' } });
    expect(provider.settings.agents[0]).toMatchObject({ device: 'client:ada', active: true });
  });

  it('reads the auth token from an environment variable or a file, and names one that is missing', async () => {
    process.env.CALLBOARD_TEST_TWILIO_TOKEN = 'from-the-environment-0123';
    try {
      expect(twilioOf(withTwilio({ authToken: { env: 'CALLBOARD_TEST_TWILIO_TOKEN' } })).settings.authToken.reveal()).toBe('from-the-environment-0123');
    } finally {
      delete process.env.CALLBOARD_TEST_TWILIO_TOKEN;
    }
    expect(() => parseConfig(withTwilio({ authToken: { env: 'CALLBOARD_TEST_TWILIO_TOKEN' } }), 'c.json')).toThrow(
      /^c\.json:\d+:\d+: account "acme" › application "support" › provider "twilio" › settings\.authToken: environment variable CALLBOARD_TEST_TWILIO_TOKEN is not set/,
    );
    const dir = await mkdtemp(join(tmpdir(), 'callboard-secret-'));
    try {
      await writeFile(join(dir, 'token'), 'from-a-file-0123456789\n');
      expect(twilioOf(withTwilio({ authToken: { file: join(dir, 'token') } })).settings.authToken.reveal()).toBe('from-a-file-0123456789');
      expect(() => parseConfig(withTwilio({ authToken: { file: join(dir, 'missing') } }), 'c.json')).toThrow(/settings\.authToken: cannot read the file .*missing: ENOENT/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    expect(() => parseConfig(withTwilio({ authToken: { vault: 'x' } }), 'c.json')).toThrow(/provider "twilio" › settings\.authToken/);
  });

  it('never shows the auth token when the parsed config is printed, logged or serialized', () => {
    const provider = twilioOf(withTwilio({}));
    expect(JSON.stringify(provider)).not.toContain('plain-token');
    expect(String(provider.settings.authToken)).toBe('[secret]');
    expect(inspect(provider, { depth: 10 })).not.toContain('plain-token');
  });

  it('refuses a bad account SID, device, duplicate agent or webhook URL by name', () => {
    expect(() => parseConfig(withTwilio({ accountSid: 'AC123' }), 'c.json')).toThrow(/settings\.accountSid: must be the account SID/);
    const agent = { subscriberID: 'agt-max', firstName: 'Max', lastName: 'P', email: '', extension: '102', number: '15551230102' };
    expect(() => parseConfig(withTwilio({ agents: [{ ...agent, device: 'ada' }] }), 'c.json')).toThrow(/settings › agent "agt-max" › device: must be "client:NAME"/);
    expect(() =>
      parseConfig(withTwilio({ agents: [{ ...agent, device: 'client:ada' }, { ...agent, subscriberID: 'agt-2', device: 'client:ada' }] }), 'c.json'),
    ).toThrow(/duplicate device "client:ada"/);
    expect(() => parseConfig(withTwilio({ webhookBaseURL: 'callboard.example.com' }), 'c.json')).toThrow(/settings\.webhookBaseURL: must be the https URL/);
  });
});

describe('an Asterisk provider in the config', () => {
  const withAsterisk = (settings: Record<string, unknown>) => {
    const config = testConfig();
    config.accounts[0]!.applications[0]!.providers.push({
      id: 'asterisk',
      name: 'Asterisk',
      type: 'asterisk',
      settings: {
        ariURL: 'http://pbx.example.com:8088',
        username: 'callboard',
        password: 'plain-ari-password-0123',
        app: 'callboard',
        dialContext: 'from-internal',
        trunkEndpoint: 'PJSIP/{number}@trunk',
        agents: [{ subscriberID: 'agt-101', firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', extension: '101', number: '15551230101', endpoint: 'PJSIP/101' }],
        ...settings,
      },
    } as never);
    return JSON.stringify(config, null, 2);
  };
  const asteriskOf = (text: string) => {
    const provider = parseConfig(text, 'c.json').accounts[0]?.applications[0]?.providers[2];
    if (provider?.type !== 'asterisk') throw new Error('no asterisk provider');
    return provider;
  };

  it('takes the names the docs give, with the defaults: two steps, polled every 2 s while the socket is down; the password hidden', () => {
    const provider = asteriskOf(withAsterisk({}));
    expect(provider).toMatchObject({ syncIntervalMs: 2000, settings: { dialMode: 'two-step', app: 'callboard', dialContext: 'from-internal' } });
    expect(provider.settings.agents[0]).toMatchObject({ endpoint: 'PJSIP/101', active: true });
    expect(JSON.stringify(provider)).not.toContain('plain-ari-password');
    expect(provider.settings.password.reveal()).toBe('plain-ari-password-0123');
  });

  it('refuses what would fail later, by name: the /ari path in the URL, direct dialing without a trunk, a malformed or repeated endpoint', () => {
    expect(() => parseConfig(withAsterisk({ ariURL: 'http://pbx.example.com:8088/ari' }), 'c.json')).toThrow(/settings\.ariURL: must be the HTTP server's base, without "\/ari"/);
    expect(() => parseConfig(withAsterisk({ dialMode: 'direct', trunkEndpoint: undefined }), 'c.json')).toThrow(/settings\.trunkEndpoint: is required with "dialMode": "direct"/);
    expect(() => parseConfig(withAsterisk({ trunkEndpoint: 'PJSIP/trunk' }), 'c.json')).toThrow(/settings\.trunkEndpoint: must be an endpoint with "\{number\}"/);
    const agent = { subscriberID: 'agt-102', firstName: 'Max', lastName: 'P', email: '', extension: '102', number: '15551230102' };
    expect(() => parseConfig(withAsterisk({ agents: [{ ...agent, endpoint: '102' }] }), 'c.json')).toThrow(/settings › agent "agt-102" › endpoint: must be an Asterisk endpoint "technology\/resource"/);
    expect(() =>
      parseConfig(withAsterisk({ agents: [{ ...agent, endpoint: 'PJSIP/102' }, { ...agent, subscriberID: 'agt-2', endpoint: 'pjsip/102' }] }), 'c.json'),
    ).toThrow(/duplicate endpoint "pjsip\/102"/);
  });
  it("takes a provider's queues with their defaults, and refuses a number or provider queue two queues list, naming both, with its line", () => {
    const withQueues = (queues: unknown) => {
      const config = testConfig();
      Object.assign(config.accounts[0]!.applications[0]!.providers[0]!, { queues });
      return JSON.stringify(config, null, 2);
    };
    const support = { id: 'support', name: 'Support', numbers: ['+18005550100'], members: ['agt-1'] };
    const provider = parseConfig(withQueues([support]), 'c.json').accounts[0]?.applications[0]?.providers[0];
    expect(provider?.queues).toEqual([
      { ...support, providerQueues: [], answerWithinSeconds: 20, shortAbandonSeconds: 5, serviceLevelTarget: 0.8 },
    ]);
    expect(parseConfig(JSON.stringify(testConfig()), 'c.json').accounts[0]?.applications[0]?.providers[0]?.queues).toEqual([]);

    // The same number written two ways is one number.
    const text = withQueues([support, { id: 'sales', name: 'Sales', numbers: ['18005550100'] }]);
    const line = text.split('\n').findIndex((l) => l.includes('"18005550100"')) + 1;
    expect(() => parseConfig(text, 'c.json')).toThrow(
      new RegExp(`^c\\.json:${line}:\\d+: account "acme" › application "support" › provider "pbx" › queue "sales" › numbers\\.0: number "18005550100" is listed by queue "support" and by queue "sales"`),
    );
    expect(() =>
      parseConfig(withQueues([{ ...support, providerQueues: ['q1'] }, { id: 'sales', name: 'Sales', providerQueues: ['q1'] }]), 'c.json'),
    ).toThrow(/queue "sales" › providerQueues\.0: provider queue "q1" is listed by queue "support" and by queue "sales"/);
    expect(() => parseConfig(withQueues([support, { ...support, numbers: [] }]), 'c.json')).toThrow(/› id: duplicate queue id "support"/);
    expect(() => parseConfig(withQueues([{ ...support, id: 'Support' }]), 'c.json')).toThrow(/queue "Support" › id: must be 1 to 64 lowercase letters/);
    expect(() => parseConfig(withQueues([{ ...support, serviceLevelTarget: 80 }]), 'c.json')).toThrow(/queue "support" › serviceLevelTarget: /);
    expect(() => parseConfig(withQueues([{ ...support, answerWithinSeconds: 0 }]), 'c.json')).toThrow(/queue "support" › answerWithinSeconds: /);
    expect(() => parseConfig(withQueues([{ ...support, members: ['agt-1', 'agt-1'] }]), 'c.json')).toThrow(/queue "support" › members\.1: member "agt-1" is listed twice/);
    expect(() => parseConfig(withQueues([{ ...support, name: '' }]), 'c.json')).toThrow(/queue "support" › name: must not be empty/);
  });

  it('gives the demo three queues whose members overlap', () => {
    const queues = demoConfig().config.accounts[0]?.applications[0]?.providers[0]?.queues ?? [];
    expect(queues.map((queue) => queue.name)).toEqual(['Support', 'Billing', 'Sales']);
    const [support, billing] = queues;
    expect(support?.members.some((member) => billing?.members.includes(member))).toBe(true);
  });
});
