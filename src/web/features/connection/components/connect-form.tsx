/** Service address, token and (for services without /v1/me) the scope, checked before they are kept. */
import { useId, useState, type FormEvent } from 'react';
import { Banner } from '../../../components/ui/banner.js';
import { Button } from '../../../components/ui/button.js';
import type { ManualScope, TokenConnection } from '../../../lib/connection.js';
import { normalizeBaseURL } from '../../../lib/connection.js';
import { checkConnection, connectionMessage } from '../api/check-connection.js';

const inputClass = 'w-full rounded-md border border-line bg-panel px-3 py-2 text-ink placeholder:text-muted focus-visible:outline-2 focus-visible:outline-accent';

const Field = ({ label, hint, children, id }: { label: string; hint?: string; children: React.ReactNode; id: string }) => (
  <div className="flex flex-col gap-1">
    <label htmlFor={id} className="text-sm font-medium">
      {label}
    </label>
    {children}
    {hint ? (
      <p id={`${id}-hint`} className="text-sm text-muted">
        {hint}
      </p>
    ) : null}
  </div>
);

export const ConnectForm = ({ onConnected, initial }: { onConnected: (connection: TokenConnection) => void; initial?: Partial<TokenConnection> }) => {
  const id = useId();
  const [baseURL, setBaseURL] = useState(initial?.baseURL ?? '');
  const [token, setToken] = useState('');
  const [remember, setRemember] = useState(false);
  const [showToken, setShowToken] = useState(false);
  const [needsScope, setNeedsScope] = useState(false);
  const [scope, setScope] = useState({ accountID: '', applicationID: '', providerIDs: '' });
  const [error, setError] = useState<string | undefined>();
  const [checking, setChecking] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const address = normalizeBaseURL(baseURL);
    if (address !== '' && !/^https?:\/\/[^/\s]+/i.test(address)) {
      setError('The service address must start with http:// or https://, or be left empty for this site.');
      return;
    }
    if (token.trim() === '') {
      setError('Paste the API token you were given.');
      return;
    }
    const manualScope: ManualScope | undefined = needsScope
      ? {
          accountID: scope.accountID.trim(),
          applicationID: scope.applicationID.trim(),
          providerIDs: scope.providerIDs.split(',').map((p) => p.trim()).filter(Boolean),
        }
      : undefined;
    if (manualScope && (!manualScope.accountID || !manualScope.applicationID || manualScope.providerIDs.length === 0)) {
      setError('Fill in the account, application and at least one provider.');
      return;
    }
    setChecking(true);
    setError(undefined);
    const result = await checkConnection({ kind: 'token', baseURL: address, token: token.trim(), remember }, manualScope);
    setChecking(false);
    if (result.ok) return onConnected(result.connection);
    if (result.needsScope) {
      setNeedsScope(true);
      setError('This service does not say what the token may see (no /v1/me). Type the account, application and provider IDs.');
      return;
    }
    setError(connectionMessage(result.error));
  };

  return (
    <form onSubmit={submit} className="flex flex-col gap-4" noValidate aria-describedby={error ? `${id}-error` : undefined}>
      {error ? (
        <div id={`${id}-error`}>
          <Banner tone="danger" title="Could not connect">
            {error}
          </Banner>
        </div>
      ) : null}
      <Field id={`${id}-base`} label="Service address" hint="Leave empty to use the service that serves this page.">
        <input
          id={`${id}-base`}
          className={inputClass}
          type="url"
          inputMode="url"
          autoComplete="url"
          placeholder="https://calls.example.com"
          value={baseURL}
          onChange={(e) => setBaseURL(e.target.value)}
          aria-describedby={`${id}-base-hint`}
        />
      </Field>
      <Field id={`${id}-token`} label="API token">
        <div className="flex gap-2">
          <input
            id={`${id}-token`}
            className={inputClass}
            type={showToken ? 'text' : 'password'}
            autoComplete="off"
            spellCheck={false}
            value={token}
            onChange={(e) => setToken(e.target.value)}
            required
          />
          <Button onClick={() => setShowToken(!showToken)} aria-pressed={showToken}>
            {showToken ? 'Hide' : 'Show'}
          </Button>
        </div>
      </Field>
      {needsScope ? (
        <fieldset className="flex flex-col gap-3 rounded-md border border-line p-3">
          <legend className="px-1 text-sm font-medium">What to show</legend>
          <Field id={`${id}-account`} label="Account ID">
            <input id={`${id}-account`} className={inputClass} value={scope.accountID} onChange={(e) => setScope({ ...scope, accountID: e.target.value })} />
          </Field>
          <Field id={`${id}-app`} label="Application ID">
            <input id={`${id}-app`} className={inputClass} value={scope.applicationID} onChange={(e) => setScope({ ...scope, applicationID: e.target.value })} />
          </Field>
          <Field id={`${id}-providers`} label="Provider IDs" hint="Separate several with commas.">
            <input
              id={`${id}-providers`}
              className={inputClass}
              value={scope.providerIDs}
              onChange={(e) => setScope({ ...scope, providerIDs: e.target.value })}
              aria-describedby={`${id}-providers-hint`}
            />
          </Field>
        </fieldset>
      ) : null}
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} className="h-4 w-4 accent-accent" />
        Remember on this device (otherwise the token is forgotten when this tab closes)
      </label>
      <Button type="submit" variant="primary" disabled={checking}>
        {checking ? 'Connecting…' : 'Connect'}
      </Button>
    </form>
  );
};
