/**
 * Whom the browser phone is: the provider, where several offer it, and the subscriber: one of the
 * connection's own, or (a token allowed any) one typed or picked from the provider's list.
 */
import { useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button.js';
import { useApi } from '../../../lib/api/api-context.js';
import { subscribersQueryOptions } from '../../../lib/api/subscribers-query.js';
import type { ProviderScope } from '../../../../contract/paths.js';
import type { SoftphoneOffer } from '../hooks/use-softphone-offer.js';
import type { PhoneLine } from '../hooks/use-softphone-settings.js';

const fieldClass = 'w-full rounded-md border border-line bg-panel px-2 py-1 text-sm text-ink';

const providerKey = (scope: ProviderScope) => `${scope.applicationID}/${scope.providerID}`;

/** The provider's subscribers as suggestions for the typed ID; none where the service does not list them. */
const SubscriberSuggestions = ({ id, scope }: { id: string; scope: ProviderScope }) => {
  const listed = useQuery(subscribersQueryOptions(useApi(), scope));
  return (
    <datalist id={id}>
      {(listed.data?.subscribers ?? []).map((subscriber) => (
        <option key={subscriber.providerSubscriberID} value={subscriber.providerSubscriberID}>
          {`${subscriber.firstName} ${subscriber.lastName} · ext. ${subscriber.extension}`}
        </option>
      ))}
    </datalist>
  );
};

export const LinePicker = ({
  offer,
  line,
  busy,
  onChoose,
}: {
  offer: SoftphoneOffer;
  line: PhoneLine | undefined;
  /** A call is on: changing the line would end it. */
  busy: boolean;
  onChoose: (line: PhoneLine) => void;
}) => {
  const id = useId();
  const first = offer.providers[0];
  const [providerChoice, setProviderChoice] = useState(line ? providerKey(line) : first ? providerKey(first.scope) : '');
  const [subscriberID, setSubscriberID] = useState(line?.subscriberID ?? (offer.subscribers === 'any' ? '' : (offer.subscribers[0] ?? '')));
  const provider = offer.providers.find(({ scope }) => providerKey(scope) === providerChoice) ?? first;
  const chosen = subscriberID.trim();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (provider && chosen !== '' && !busy) onChoose({ ...provider.scope, subscriberID: chosen });
  };

  return (
    <form className="flex flex-col gap-2" aria-label="Phone line" onSubmit={submit}>
      {offer.providers.length > 1 ? (
        <label className="flex flex-col gap-1 text-sm">
          <span className="text-muted">Provider</span>
          <select className={fieldClass} value={providerChoice} onChange={(event) => setProviderChoice(event.target.value)}>
            {offer.providers.map(({ scope, name }) => (
              <option key={providerKey(scope)} value={providerKey(scope)}>
                {name}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      {offer.subscribers === 'any' ? (
        <label className="flex flex-col gap-1 text-sm">
          <span className="text-muted">Subscriber ID</span>
          <input
            className={`${fieldClass} font-mono`}
            list={`${id}-subscribers`}
            autoComplete="off"
            spellCheck={false}
            value={subscriberID}
            onChange={(event) => setSubscriberID(event.target.value)}
          />
          {provider ? <SubscriberSuggestions id={`${id}-subscribers`} scope={provider.scope} /> : null}
        </label>
      ) : offer.subscribers.length > 1 ? (
        <label className="flex flex-col gap-1 text-sm">
          <span className="text-muted">Subscriber</span>
          <select className={fieldClass} value={subscriberID} onChange={(event) => setSubscriberID(event.target.value)}>
            {offer.subscribers.map((subscriber) => (
              <option key={subscriber} value={subscriber}>
                {subscriber}
              </option>
            ))}
          </select>
        </label>
      ) : (
        <p className="text-sm">As subscriber {offer.subscribers[0]}</p>
      )}
      <div className="flex flex-wrap items-center gap-2">
        <Button type="submit" size="sm" variant="primary" disabled={busy || chosen === ''} aria-describedby={busy ? `${id}-busy` : undefined}>
          Use this line
        </Button>
        {busy ? (
          <span id={`${id}-busy`} className="text-xs text-muted">
            Hang up first: changing the line ends the call.
          </span>
        ) : null}
      </div>
    </form>
  );
};
