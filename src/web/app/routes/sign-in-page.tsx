/**
 * Where a person signs in with the company's identity provider: why they are here (a sign-in that
 * did not work, signed out, a session that ended), the company's button, and a quiet way to use an
 * API token instead. In the theme of the page it leads back to, so a wall screen stays dark.
 */
import { useQuery } from '@tanstack/react-query';
import { Link, Navigate, useSearchParams } from 'react-router';
import { authPaths, isSafeReturnPath, landingOf } from '../../../contract/session.js';
import { Banner } from '../../components/ui/banner.js';
import { buttonClass } from '../../components/ui/button.js';
import { signInProblemMessage } from '../../features/sign-in/sign-in-problems.js';
import { sessionQueryOptions } from '../../lib/api/auth-session.js';
import { SESSION_ENDED_REASON, useConnection } from '../../lib/connection-context.js';
import { useTitlePart } from '../../lib/document-title.js';
import { pendingCallNumber } from '../../lib/phone-links.js';
import { useAddressTheme, useAppliedTheme } from '../../lib/theme.js';
import type { ConnectState } from './connect-page.js';

const SESSION_ENDED_DETAIL =
  'A session ends after a while without use, at the end of its lifetime, when you sign out in another tab, or when an administrator ends it.';

/** The page to open after signing in, if the address names one of this site: never another site's. */
const returnToOf = (params: URLSearchParams): string | undefined => {
  const asked = params.get('returnTo');
  return asked !== null && isSafeReturnPath(asked) ? asked : undefined;
};

export const SignInPage = () => {
  const theme = useAddressTheme();
  useAppliedTheme(theme);
  useTitlePart('page', 'Sign in · Callboard');
  const [params] = useSearchParams();
  const returnTo = returnToOf(params);
  const { connection, signedOutReason } = useConnection();
  const session = useQuery({ ...sessionQueryOptions(), enabled: connection === undefined });
  const themeSearch = theme ? `?theme=${theme}` : '';
  const toConnect: ConnectState = returnTo === undefined ? {} : { from: returnTo };

  if (connection) return <Navigate to={returnTo ?? (connection.kind === 'session' ? landingOf(connection.roles) : '/')} replace />;
  const offer = session.data?.signedIn === false ? session.data.signIn : undefined;
  // A service without sign-in: tokens only.
  if (session.data && !offer) return <Navigate to={{ pathname: '/connect', search: themeSearch }} replace state={toConnect} />;

  const problem = signInProblemMessage(params.get('problem'));
  const signedOut = params.get('signedOut') === '1';
  const waitingNumber = pendingCallNumber(returnTo);
  return (
    <main id="main" className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-6 p-6">
      <div className="flex items-center gap-3">
        <img src="/favicon.svg" alt="" className="h-10 w-10" />
        <div>
          <h1 className="text-2xl font-semibold">Sign in to Callboard</h1>
          <p className="text-muted">Live calls, concurrency and click-to-call for your call center.</p>
        </div>
      </div>
      {problem ? (
        <Banner tone="danger" title={problem.title}>
          {problem.advice}
        </Banner>
      ) : null}
      {signedOutReason ? (
        <Banner tone="warn" title={signedOutReason}>
          {signedOutReason === SESSION_ENDED_REASON ? SESSION_ENDED_DETAIL : null}
        </Banner>
      ) : null}
      {signedOut && !signedOutReason ? <Banner tone="info" title="You signed out" /> : null}
      {waitingNumber ? (
        <Banner tone="info" title={`Sign in to call ${waitingNumber}`}>
          The number will be waiting in the click-to-call form. Nothing is dialed until you press Place call.
        </Banner>
      ) : null}
      {offer ? (
        // A link, not a script: the sign-in is a whole page load, to the identity provider and back.
        <a href={authPaths.signIn(returnTo)} className={`${buttonClass('primary')} w-full py-2 text-base`}>
          {offer.label}
        </a>
      ) : (
        <p role="status" className="text-muted">
          Checking your sign-in…
        </p>
      )}
      <p className="text-sm">
        <Link to={{ pathname: '/connect', search: themeSearch }} state={toConnect} className="text-muted underline underline-offset-2 hover:text-ink">
          Use an API token instead
        </Link>
      </p>
    </main>
  );
};
