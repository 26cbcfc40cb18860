/** Reads and validates the config file, and builds the demo config when there is none. */
import { readFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import { describePath, JsonSyntaxError, locate, parseJsonText, type ParsedConfigText } from './config-location.js';
import { serviceConfigSchema, type ServiceConfigInput, type ServiceConfig } from './config-schema.js';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** One line per problem: `file:line:column: account "acme" › token "wallboard" › permissions.0: message`. */
const formatIssues = (file: string, text: string, parsed: ParsedConfigText, error: z.ZodError) =>
  error.issues
    .map((issue) => {
      const at = locate(text, parsed.tree, issue.path);
      const where = at ? `${file}:${at.line}:${at.column}` : file;
      return `${where}: ${describePath(parsed.value, issue.path)}: ${issue.message}`;
    })
    .join('\n');

/** Parses config text; throws a ConfigError naming the file, the line and column, the thing and the problem. */
export const parseConfig = (text: string, file: string): ServiceConfig => {
  let parsed: ParsedConfigText;
  try {
    parsed = parseJsonText(text);
  } catch (error) {
    if (error instanceof JsonSyntaxError)
      throw new ConfigError(`${file}:${error.position.line}:${error.position.column}: not valid JSON: ${error.message}`);
    throw error;
  }
  const result = serviceConfigSchema.safeParse(parsed.value);
  if (!result.success) throw new ConfigError(formatIssues(file, text, parsed, result.error));
  return result.data;
};

export const loadConfigFile = async (file: string): Promise<ServiceConfig> => {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`${file}: cannot read the config file: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  return parseConfig(text, file);
};

export interface DemoConfig {
  config: ServiceConfig;
  token: string;
  /** Opens /metrics and nothing else. */
  metricsToken: string;
}

const randomToken = () => randomBytes(24).toString('base64url');

const members = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `agt-${String(from + i).padStart(4, '0')}`);

/**
 * The demo's three queues, each with a busy hour and a target of its own; some agents serve two.
 * Agents 23 and 24 (and the person at the screen, agent 1) are in no queue and take direct calls.
 */
const DEMO_QUEUES = [
  { id: 'support', name: 'Support', numbers: ['+18005550100', '+18005550101'], members: members(2, 13), answerWithinSeconds: 20, serviceLevelTarget: 0.8 },
  { id: 'billing', name: 'Billing', numbers: ['+18005550120'], members: members(3, 21), answerWithinSeconds: 60, serviceLevelTarget: 0.8 },
  { id: 'sales', name: 'Sales', numbers: ['+18005550140'], members: members(16, 22), answerWithinSeconds: 10, serviceLevelTarget: 0.9 },
];

/**
 * One account, one application, two simulated providers (two-step and direct dial), one
 * full-access token, and a token of its own for /metrics: the config file a user would write.
 */
export const demoConfigInput = (token: string, metricsToken: string): ServiceConfigInput => ({
  metrics: { token: metricsToken },
  accounts: [
    {
      id: 'demo',
      name: 'Demo Co.',
      applications: [
        {
          id: 'support',
          name: 'Support desk',
          providers: [
            { id: 'pbx-main', name: 'Main PBX', type: 'simulator', settings: { dialMode: 'two-step', seed: 1 }, queues: DEMO_QUEUES },
            { id: 'sip-trunk', name: 'SIP trunk', type: 'simulator', settings: { dialMode: 'direct', seed: 2, agents: 12 } },
          ],
        },
      ],
      // The person at the demo's screen is the supervisor: they may end calls too.
      tokens: [{ name: 'supervisor', token, applications: '*', permissions: ['calls:read', 'calls:write', 'calls:control'] }],
    },
  ],
});

/** The demo's config, checked, with its tokens. */
export const demoConfig = (token = randomToken(), metricsToken = randomToken()): DemoConfig => ({
  token,
  metricsToken,
  config: serviceConfigSchema.parse(demoConfigInput(token, metricsToken)),
});
