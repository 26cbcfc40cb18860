/** Listening to a call at the service: its offer (POST), the browser's answer (PUT), and stopping (DELETE). */
import { paths, type ProviderScope } from '../../../../contract/paths.js';
import { listenOfferSchema } from '../../../../contract/softphone.js';
import type { ApiClient } from '../../../lib/api/api-client.js';
import type { ListenPort } from '../utils/listen-session.js';

export const listenPort = (client: ApiClient, scope: ProviderScope, callID: string): ListenPort => ({
  start: () => client.postForAnswer(paths.listen(scope, callID), listenOfferSchema),
  answer: (listenID, sdp) => client.put(paths.listener(scope, callID, listenID), { sdp }),
  stop: (listenID) => client.delete(paths.listener(scope, callID, listenID)),
});
