/** Reads and validates the config file, and builds the demo config when there is none. */
import { readFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import { serviceConfigSchema, type ServiceConfig } from './config-schema.js';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const formatIssues = (file: string, error: z.ZodError) =>
  error.issues
    .map((issue) => `${file}: ${issue.path.length ? issue.path.join('.') : '(top level)'}: ${issue.message}`)
    .join('\n');

/** Parses config text; throws a ConfigError naming the file, the path inside it and the problem. */
export const parseConfig = (text: string, file: string): ServiceConfig => {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${file}: not valid JSON: ${(error as Error).message}`);
  }
  const result = serviceConfigSchema.safeParse(json);
  if (!result.success) throw new ConfigError(formatIssues(file, result.error));
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
}

/** One account, one application, two simulated providers (two-step and direct dial), one full-access token. */
export const demoConfig = (token = randomBytes(24).toString('base64url')): DemoConfig => ({
  token,
  config: serviceConfigSchema.parse({
    accounts: [
      {
        id: 'demo',
        name: 'Demo Co.',
        applications: [
          {
            id: 'support',
            name: 'Support desk',
            providers: [
              { id: 'pbx-main', name: 'Main PBX', type: 'simulator', settings: { dialMode: 'two-step', seed: 1 } },
              { id: 'sip-trunk', name: 'SIP trunk', type: 'simulator', settings: { dialMode: 'direct', seed: 2, agents: 12 } },
            ],
          },
        ],
        tokens: [{ name: 'demo', token, applications: '*', permissions: ['calls:read', 'calls:write'] }],
      },
    ],
  }),
});
