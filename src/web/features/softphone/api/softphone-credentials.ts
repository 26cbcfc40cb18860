/**
 * A subscriber's time-limited SIP credentials for the browser phone. The service refuses another
 * person's subscriber (403) and a provider without a browser phone (501 `not_supported`).
 */
import { paths, type ProviderScope } from '../../../../contract/paths.js';
import { softphoneCredentialsSchema, type SoftphoneCredentials, type SoftphoneCredentialsRequest } from '../../../../contract/softphone.js';
import type { ApiClient } from '../../../lib/api/api-client.js';

export const requestSoftphoneCredentials = (client: ApiClient, scope: ProviderScope, providerSubscriberID: string): Promise<SoftphoneCredentials> =>
  client.postForAnswer(paths.softphoneCredentials(scope), softphoneCredentialsSchema, { providerSubscriberID } satisfies SoftphoneCredentialsRequest);
