/**
 * Whom an agent places calls as, shown instead of the subscriber picker: their token or their
 * sign-in decides, so there is nothing to pick (a short choice when it names several subscribers).
 */
import { useQuery } from '@tanstack/react-query';
import { memo, useId } from 'react';
import type { ProviderScope } from '../../../../contract/paths.js';
import type { Subscriber } from '../../../../contract/subscriber.js';
import { useApi } from '../../../lib/api/api-context.js';
import { subscribersQueryOptions } from '../../../lib/api/subscribers-query.js';
import { fullName, statusOf, warningFor } from '../subscriber-status.js';
import { fieldErrorClass, inputClass, labelClass } from './field-styles.js';

interface CallerIdentityProps {
  controlId: string;
  scope: ProviderScope;
  providerName: string;
  /** The connection's subscribers, from `/v1/me`; never empty. */
  subscriberIDs: string[];
  value: string;
  error?: string;
  onChange: (subscriberID: string) => void;
}

const optionText = (id: string, subscriber: Subscriber | undefined) =>
  subscriber ? `${fullName(subscriber)} · ext. ${subscriber.extension} · ${statusOf(subscriber)}` : id;

const nameOf = (id: string, subscriber: Subscriber | undefined) => (subscriber ? fullName(subscriber) : id);

/** Memoised, as the number field is: it renders when its own props change, not with every update of the calls. */
export const CallerIdentity = memo(function CallerIdentity({
  controlId,
  scope,
  providerName,
  subscriberIDs,
  value,
  error,
  onChange,
}: CallerIdentityProps) {
  const labelId = useId();
  const noteId = useId();
  const warningId = useId();
  const errorId = useId();
  const client = useApi();
  const listed = useQuery(subscribersQueryOptions(client, scope));
  const find = (id: string) => listed.data?.subscribers.find((s) => s.providerSubscriberID === id);
  const selected = find(value);
  const missing = listed.data && !selected ? `${value} is not in ${providerName}'s list: the service will check it.` : undefined;
  const warning = selected ? warningFor(selected) : missing;
  const names = subscriberIDs.map((id) => nameOf(id, find(id)));
  const describedBy = [noteId, warning && warningId, error && errorId].filter(Boolean).join(' ');

  return (
    <div role="group" aria-labelledby={labelId} aria-describedby={describedBy} className="flex flex-col gap-1">
      <p id={labelId} className={labelClass}>
        You place calls as
      </p>
      {subscriberIDs.length === 1 ? (
        <p className="rounded-md border border-line bg-raised px-2 py-1.5 text-sm text-ink" aria-busy={listed.isPending}>
          <span className="font-semibold">{nameOf(value, selected)}</span>
          {selected ? (
            <span className="text-muted">
              {' '}
              · ext. {selected.extension} · {statusOf(selected)}
            </span>
          ) : null}
        </p>
      ) : (
        <select
          id={controlId}
          aria-labelledby={labelId}
          aria-invalid={error ? true : undefined}
          className={inputClass}
          value={value}
          onChange={(event) => onChange(event.target.value)}
        >
          {subscriberIDs.map((id) => (
            <option key={id} value={id}>
              {optionText(id, find(id))}
            </option>
          ))}
        </select>
      )}
      <p id={noteId} className="text-xs text-muted">
        {client.connection.kind === 'session' ? 'You place calls only as' : 'Your token places calls only as'} {names.join(' or ')}.
      </p>
      {warning ? (
        <p id={warningId} className="flex gap-1.5 rounded bg-warn-bg px-2 py-1 text-sm text-warn">
          <span aria-hidden="true">⚠</span>
          <span>{warning}</span>
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className={fieldErrorClass}>
          {error}
        </p>
      ) : null}
    </div>
  );
});
