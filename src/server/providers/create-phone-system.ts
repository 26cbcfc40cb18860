/** Builds the phone system a provider's config names. */
import { createHash } from 'node:crypto';
import type { Clock } from '../clock.js';
import { createKamailioPhoneSystem } from './kamailio/kamailio-phone-system.js';
import type { PhoneSystemFactory } from './provider-registry.js';
import { createPhoneSystemSimulator } from './simulator/phone-system-simulator.js';

/** A stable seed per provider, so two providers without a configured seed never share traffic. */
const seedFrom = (text: string) => createHash('sha256').update(text).digest().readUInt32BE(0);

export const phoneSystemFactory =
  (clock: Clock): PhoneSystemFactory =>
  (config, scope) => {
    switch (config.type) {
      case 'simulator':
        return createPhoneSystemSimulator({
          clock,
          name: config.id,
          seed: config.settings.seed ?? seedFrom(`${scope.accountID}/${scope.applicationID}/${scope.providerID}`),
          dialMode: config.settings.dialMode,
          agents: config.settings.agents,
          traffic: config.settings.traffic,
          speed: config.settings.speed,
          keepEndedMs: config.settings.keepEndedMs,
          emailDomain: config.settings.emailDomain,
        });
      case 'kamailio':
        return createKamailioPhoneSystem({ ...config.settings, clock });
    }
  };
