/** Builds the phone system a provider's config names: the one place that knows every provider type. */
import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.js';
import type { PhoneSystem } from '../providers/phone-system.js';
import { paths } from '../../contract/paths.js';
import { createAsteriskPhoneSystem } from '../providers/asterisk/asterisk-phone-system.js';
import { createKamailioPhoneSystem } from '../providers/kamailio/kamailio-phone-system.js';
import { createTwilioPhoneSystem } from '../providers/twilio/twilio-phone-system.js';
import { createPhoneSystemSimulator } from '../providers/simulator/phone-system-simulator.js';
import { createRemoteSimulator } from '../providers/simulator/remote/remote-simulator.js';
import type { PhoneSystemFactory } from './provider-runtimes.js';

/** A stable seed per provider, so two providers without a configured seed never share traffic. */
const seedFrom = (text: string) => createHash('sha256').update(text).digest().readUInt32BE(0);

/** The same phone system without its drill controls, for configs that do not enable them. */
const withoutControl = ({ control: _control, ...phoneSystem }: PhoneSystem): PhoneSystem => phoneSystem;

export const phoneSystemFactory =
  (clock: Clock, log?: FastifyBaseLogger): PhoneSystemFactory =>
  (config, scope) => {
    switch (config.type) {
      case 'simulator': {
        const { url, control, ...center } = config.settings;
        const simulator = url
          ? createRemoteSimulator({ url, requestTimeoutMs: config.requestTimeoutMs })
          : createPhoneSystemSimulator({
              clock,
              name: config.id,
              ...center,
              seed: center.seed ?? seedFrom(`${scope.accountID}/${scope.applicationID}/${scope.providerID}`),
            });
        return control ? simulator : withoutControl(simulator);
      }
      case 'kamailio':
        return createKamailioPhoneSystem({ ...config.settings, clock });
      case 'twilio': {
        const { authToken, webhookBaseURL, ...settings } = config.settings;
        return createTwilioPhoneSystem({
          ...settings,
          authToken: authToken.reveal(),
          clock,
          ...(webhookBaseURL ? { webhookBaseURL, webhookURL: `${webhookBaseURL.replace(/\/+$/, '')}${paths.webhook('twilio', scope)}` } : {}),
        });
      }
      case 'asterisk': {
        const { password, ...settings } = config.settings;
        return createAsteriskPhoneSystem({ ...settings, password: password.reveal(), keepEndedMs: config.keepEndedMs, clock, ...(log ? { log: log.child({ provider: config.id }) } : {}) });
      }
    }
  };
