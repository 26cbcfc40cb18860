/** The browser phone of a line, while it is shown: started when it mounts (or its line changes), stopped when it goes. */
import { useEffect, useMemo, useRef, useSyncExternalStore } from 'react';
import { useApi } from '../../../lib/api/api-context.js';
import { takePlacedCall } from '../../../lib/placed-calls.js';
import { requestSoftphoneCredentials } from '../api/softphone-credentials.js';
import { Phone, type JsSIPModule } from '../phone/phone.js';
import type { PhoneState } from '../phone/phone-state.js';
import type { PhoneLine } from './use-softphone-settings.js';

export const usePhone = (line: PhoneLine, microphone: string | undefined, loadJsSIP: () => Promise<JsSIPModule>): { phone: Phone; state: PhoneState } => {
  const client = useApi();
  // Read whenever credentials are asked for: a session's new CSRF token must not restart the phone and drop its call.
  const latestClient = useRef(client);
  useEffect(() => {
    latestClient.current = client;
  }, [client]);
  const phone = useMemo(() => new Phone({ loadJsSIP, placedHere: takePlacedCall }), [loadJsSIP]);
  const { accountID, applicationID, providerID, subscriberID } = line;
  useEffect(() => {
    phone.start(() => requestSoftphoneCredentials(latestClient.current, { accountID, applicationID, providerID }, subscriberID));
    // A closed tab unregisters too, so the phone system stops offering it calls at once.
    const leave = () => phone.stop();
    window.addEventListener('pagehide', leave);
    return () => {
      window.removeEventListener('pagehide', leave);
      phone.stop();
    };
  }, [phone, accountID, applicationID, providerID, subscriberID]);
  useEffect(() => phone.setMicrophone(microphone), [phone, microphone]);
  const state = useSyncExternalStore(phone.subscribe, phone.getState, phone.getState);
  return { phone, state };
};
