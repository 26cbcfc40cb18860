/** Where a dashboard without a (working) connection lands: say why, and connect. */
import { Navigate, useLocation, useNavigate } from 'react-router';
import { Banner } from '../../components/ui/banner.js';
import { ConnectForm } from '../../features/connection/components/connect-form.js';
import { useConnection } from '../../lib/connection-context.js';
import { useTitlePart } from '../../lib/document-title.js';
import { pendingCallNumber } from '../../lib/phone-links.js';
import { useAddressTheme, useAppliedTheme } from '../../lib/theme.js';

export interface ConnectState {
  /** The page to return to once connected. */
  from?: string;
}

export const ConnectPage = () => {
  useAppliedTheme(useAddressTheme());
  const { connection, signedOutReason, signIn } = useConnection();
  const navigate = useNavigate();
  const state = (useLocation().state ?? {}) as ConnectState;
  useTitlePart('page', 'Connect · Callboard');
  if (connection) return <Navigate to={state.from ?? '/'} replace />;
  const waitingNumber = pendingCallNumber(state.from);
  return (
    <main id="main" className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-6 p-6">
      <div className="flex items-center gap-3">
        <img src="/favicon.svg" alt="" className="h-10 w-10" />
        <div>
          <h1 className="text-2xl font-semibold">Connect to Callboard</h1>
          <p className="text-muted">Live calls, concurrency and click-to-call for your call center.</p>
        </div>
      </div>
      {signedOutReason ? (
        <Banner tone="warn" title="Signed out">
          {signedOutReason}
        </Banner>
      ) : null}
      {waitingNumber ? (
        <Banner tone="info" title={`Sign in to call ${waitingNumber}`}>
          The number will be waiting in the click-to-call form. Nothing is dialed until you press Place call.
        </Banner>
      ) : null}
      <ConnectForm
        onConnected={(next) => {
          signIn(next);
          navigate(state.from ?? '/', { replace: true });
        }}
      />
    </main>
  );
};
