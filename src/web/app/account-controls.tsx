/**
 * Who is connected, at the header's end: a signed-in person's name and roles in words, and signing
 * out (the service ends the session, then the whole page goes where it says); a token's sign-out
 * forgets the token here, as it always did.
 */
import { useMutation } from '@tanstack/react-query';
import { Button } from '../components/ui/button.js';
import { useApi } from '../lib/api/api-context.js';
import { signOutSession } from '../lib/api/auth-session.js';
import type { SessionConnection } from '../lib/connection.js';
import { useConnection } from '../lib/connection-context.js';
import { pageLoad } from '../lib/page-load.js';
import { rolesText } from '../lib/roles.js';

const SessionAccount = ({ session }: { session: SessionConnection }) => {
  const client = useApi();
  // A 401 here means the session had ended already: the connection then goes to the sign-in by itself.
  const signOut = useMutation({
    mutationFn: () => signOutSession(client),
    onSuccess: ({ redirectTo }) => pageLoad.assign(redirectTo),
  });
  const leaving = signOut.isPending || signOut.isSuccess;
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
      <p className="text-sm" title={session.person.email}>
        <span className="font-medium text-ink">{session.person.name}</span>
        <span className="text-muted"> · {rolesText(session.roles)}</span>
      </p>
      <Button size="sm" variant="ghost" disabled={leaving} onClick={() => signOut.mutate()}>
        {leaving ? 'Signing out…' : 'Sign out'}
      </Button>
      {signOut.isError ? (
        <p role="alert" className="basis-full text-sm text-danger">
          Could not sign out: {signOut.error.detail} You are still signed in; try again.
        </p>
      ) : null}
    </div>
  );
};

export const AccountControls = () => {
  const { connection, signOut } = useConnection();
  if (connection?.kind === 'session') return <SessionAccount session={connection} />;
  return (
    <Button size="sm" variant="ghost" onClick={() => signOut()}>
      Sign out
    </Button>
  );
};
