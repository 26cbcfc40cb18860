/** Builds the phone system a provider's config names, by its type's definition in the provider registry. */
import type { FastifyBaseLogger } from 'fastify';
import { paths } from '../../contract/paths.js';
import type { Clock } from '../clock.js';
import { providerDefinition } from '../providers/provider-registry.js';
import type { PhoneSystemFactory } from './provider-runtimes.js';

export const phoneSystemFactory =
  (clock: Clock, log?: FastifyBaseLogger): PhoneSystemFactory =>
  (config, scope) =>
    providerDefinition(config.type).create(config.settings, {
      provider: config,
      scope,
      clock,
      ...(log ? { log: log.child({ provider: config.id }) } : {}),
      webhookPath: () => paths.webhook(config.type, scope),
    });
