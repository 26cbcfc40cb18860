/** Offers to open the browser's phone (tel:) links in the click-to-call form; absent where the browser cannot. */
import { useId, useState } from 'react';
import { Button } from '../../../components/ui/button.js';
import { useAnnounce } from '../../../lib/announcer.js';
import { useConnection } from '../../../lib/connection-context.js';
import { canHandlePhoneLinks, phoneLinkHandlerURL } from '../../../lib/phone-links.js';

/** Browsers do not say whether a handler is registered, so the dashboard remembers having asked. */
const ASKED_KEY = 'callboard.phoneLinks';

type OfferState = { status: 'idle' | 'asked' } | { status: 'failed'; reason: string };

const initialState = (): OfferState => ({ status: localStorage.getItem(ASKED_KEY) === null ? 'idle' : 'asked' });

const ASKED =
  'Asked this browser to open phone links here: confirm in its prompt if one shows (near the address bar). To undo it, remove Callboard from the protocol handlers in the browser’s site settings.';

export const PhoneLinksOffer = () => {
  const headingId = useId();
  const { connection } = useConnection();
  const [state, setState] = useState<OfferState>(initialState);
  const announce = useAnnounce();
  if (!canHandlePhoneLinks()) return null;

  const register = () => {
    try {
      navigator.registerProtocolHandler('tel', phoneLinkHandlerURL(window.location.origin));
      localStorage.setItem(ASKED_KEY, new Date().toISOString());
      setState({ status: 'asked' });
      announce(ASKED);
    } catch (error) {
      const reason = error instanceof Error || error instanceof DOMException ? error.message : String(error);
      setState({ status: 'failed', reason });
      announce(`The browser refused: ${reason}`);
    }
  };

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-1.5 border-t border-line pt-3 text-sm">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={headingId} className="text-xs font-semibold tracking-wide text-muted uppercase">
          Phone links
        </h3>
        <Button size="sm" onClick={register}>
          {state.status === 'asked' ? 'Ask the browser again' : 'Open phone links here'}
        </Button>
      </div>
      <p className="text-muted">
        Numbers you click in your CRM, email or any web page open in this form, filled in. Nothing is dialed until you press Place
        call.
      </p>
      {connection?.kind === 'token' && !connection.remember ? (
        <p className="text-xs text-muted">Sign in with “Remember on this device”, or each link asks for your token first.</p>
      ) : null}
      {state.status === 'asked' ? <p className="text-ink">{ASKED}</p> : null}
      {state.status === 'failed' ? <p className="text-danger">The browser refused: {state.reason}</p> : null}
    </section>
  );
};
