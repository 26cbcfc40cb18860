/**
 * Every provider type the service knows, each defined whole in its own folder: the config's
 * `type` union and the runtime's phone systems are built from this list. A new type is one
 * entry here (and its import); the order is the one the config's error messages list them in.
 */
import { asteriskProvider } from './asterisk/asterisk-provider.js';
import { kamailioProvider } from './kamailio/kamailio-provider.js';
import type { AnyProviderDefinition } from './provider-definition.js';
import { simulatorProvider } from './simulator/simulator-provider.js';
import { twilioProvider } from './twilio/twilio-provider.js';

export const PROVIDERS = [simulatorProvider, kamailioProvider, twilioProvider, asteriskProvider] as const;

export type ProviderType = (typeof PROVIDERS)[number]['type'];

/** The definition of a type the config accepted. */
export const providerDefinition = (type: ProviderType): AnyProviderDefinition => {
  const definition = PROVIDERS.find((candidate) => candidate.type === type);
  if (!definition) throw new Error(`no provider type "${type}"`);
  return definition;
};
