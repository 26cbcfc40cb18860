/**
 * Whether this connection may have the browser as a phone, and as whom: a provider that offers it
 * (`softphone` in `/v1/me`), and a subscriber to be there: a signed-in agent's own, a token's
 * `subscriberIDs`, or any subscriber for a token allowed every one. A person without a subscriber
 * of their own, and a connection with a hand-typed scope (no `/v1/me`), are offered none.
 */
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { MeResponse } from '../../../../contract/me.js';
import type { ProviderScope } from '../../../../contract/paths.js';
import { useApi } from '../../../lib/api/api-context.js';
import { meQueryOptions } from '../../../lib/api/me-query.js';
import type { Connection } from '../../../lib/connection.js';
import type { PhoneLine } from './use-softphone-settings.js';

export interface PhoneProvider {
  scope: ProviderScope;
  /** The provider's name, with its application's where there are several. */
  name: string;
}

export interface SoftphoneOffer {
  providers: PhoneProvider[];
  /** The subscribers the connection may be: its own, or `any` (typed or picked from the provider's list). */
  subscribers: readonly string[] | 'any';
}

export const offerOf = (me: MeResponse, kind: Connection['kind']): SoftphoneOffer | undefined => {
  const subscribers = me.subscriberIDs ?? (kind === 'token' ? 'any' : undefined);
  const providers = me.applications.flatMap((application) =>
    application.providers
      .filter((provider) => provider.softphone)
      .map((provider) => ({
        scope: { accountID: me.account.id, applicationID: application.id, providerID: provider.id },
        name: me.applications.length > 1 ? `${provider.name} (${application.name})` : provider.name,
      })),
  );
  return subscribers === undefined || providers.length === 0 ? undefined : { providers, subscribers };
};

export const useSoftphoneOffer = (): SoftphoneOffer | undefined => {
  const client = useApi();
  const { data: me } = useQuery(meQueryOptions(client));
  const kind = client.connection.kind;
  return useMemo(() => (me ? offerOf(me, kind) : undefined), [me, kind]);
};

const sameProvider = (a: ProviderScope, b: ProviderScope) =>
  a.accountID === b.accountID && a.applicationID === b.applicationID && a.providerID === b.providerID;

/** The kept line where the offer still allows it; else the first provider as the first (or only) subscriber; undefined while a subscriber must be chosen. */
export const lineFor = (offer: SoftphoneOffer, kept: PhoneLine | undefined): PhoneLine | undefined => {
  const allowed = (line: PhoneLine) =>
    offer.providers.some(({ scope }) => sameProvider(scope, line)) && (offer.subscribers === 'any' || offer.subscribers.includes(line.subscriberID));
  if (kept && allowed(kept)) return kept;
  const first = offer.providers[0];
  const subscriberID = offer.subscribers === 'any' ? undefined : offer.subscribers[0];
  return first && subscriberID !== undefined ? { ...first.scope, subscriberID } : undefined;
};
