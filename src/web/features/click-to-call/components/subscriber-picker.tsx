/**
 * Who places the call: the provider's subscribers, searchable by name or extension, status in
 * words; a plain ID field where the service does not list subscribers.
 */
import { useQuery } from '@tanstack/react-query';
import { memo, useEffect, useId, useState, type KeyboardEvent } from 'react';
import type { ProviderScope } from '../../../../contract/paths.js';
import type { Subscriber } from '../../../../contract/subscriber.js';
import { useApi } from '../../../lib/api/api-context.js';
import { subscribersQueryOptions } from '../../../lib/api/subscribers-query.js';
import { useAnnounce } from '../../../lib/announcer.js';
import { fullName, statusOf, warningFor } from '../subscriber-status.js';
import { fieldErrorClass, inputClass, labelClass } from './field-styles.js';

const optionText = (subscriber: Subscriber) => `${fullName(subscriber)} · ext. ${subscriber.extension} · ${statusOf(subscriber)}`;

/** Case- and accent-insensitive, so "lucia" finds Lucía and "muller" finds Müller. */
const searchable = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();

const matches = (subscriber: Subscriber, query: string) =>
  searchable(fullName(subscriber)).includes(query) || subscriber.extension.includes(query);

interface FieldProps {
  controlId: string;
  providerName: string;
  value: string;
  error?: string;
  onChange: (subscriberID: string) => void;
}

const FieldError = ({ id, error }: { id: string; error: string | undefined }) =>
  error ? (
    <p id={id} className={fieldErrorClass}>
      {error}
    </p>
  ) : null;

const describedBy = (...ids: (string | false | undefined)[]) => ids.filter(Boolean).join(' ') || undefined;

const ManualSubscriberField = ({ controlId, value, error, onChange, note }: FieldProps & { note: string }) => {
  const noteId = useId();
  const errorId = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={controlId} className={labelClass}>
        Subscriber ID
      </label>
      <input
        id={controlId}
        type="text"
        autoComplete="off"
        spellCheck={false}
        className={`${inputClass} font-mono`}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(!!error && errorId, noteId)}
        onChange={(event) => onChange(event.target.value)}
      />
      <p id={noteId} className="text-sm text-muted">
        {note} Type the ID of the subscriber who places the call.
      </p>
      <FieldError id={errorId} error={error} />
    </div>
  );
};

const SubscriberSelect = ({
  controlId,
  providerName,
  value,
  error,
  onChange,
  subscribers,
}: FieldProps & { subscribers: Subscriber[] | undefined }) => {
  const searchId = useId();
  const countId = useId();
  const warningId = useId();
  const errorId = useId();
  const [search, setSearch] = useState('');
  const announce = useAnnounce();

  const all = subscribers ?? [];
  const query = searchable(search.trim());
  const found = query ? all.filter((subscriber) => matches(subscriber, query)) : all;
  const selected = all.find((subscriber) => subscriber.providerSubscriberID === value);
  // The chosen subscriber stays an option while filtered out, so the select never shows a value it lacks.
  const options = selected && !found.includes(selected) ? [selected, ...found] : found;
  const count =
    subscribers === undefined
      ? 'Loading subscribers…'
      : query
        ? `${found.length} of ${all.length} match "${search.trim()}"`
        : `${all.length} subscribers`;
  const warning = selected
    ? warningFor(selected)
    : value && subscribers
      ? `${value} is not in ${providerName}'s list: the service will check it.`
      : undefined;

  // Said once typing pauses, not on every keystroke.
  useEffect(() => {
    if (!query) return;
    const timer = setTimeout(() => announce(count), 600);
    return () => clearTimeout(timer);
  }, [announce, query, count]);

  /** Enter picks the first match instead of submitting the form with whoever was chosen before. */
  const onSearchKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    const first = found[0];
    if (first) onChange(first.providerSubscriberID);
  };

  return (
    <fieldset className="flex flex-col gap-1">
      <legend className={`${labelClass} mb-1`}>Who places the call</legend>
      <label htmlFor={searchId} className="sr-only">
        Search subscribers by name or extension
      </label>
      <input
        id={searchId}
        type="search"
        autoComplete="off"
        placeholder="Search by name or extension"
        className={inputClass}
        value={search}
        aria-describedby={countId}
        onChange={(event) => setSearch(event.target.value)}
        onKeyDown={onSearchKeyDown}
      />
      <p id={countId} className="text-xs text-muted">
        {count}
      </p>
      <label htmlFor={controlId} className="sr-only">
        Subscriber
      </label>
      <select
        id={controlId}
        className={inputClass}
        value={value}
        aria-busy={subscribers === undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(!!error && errorId, !!warning && warningId)}
        onChange={(event) => onChange(event.target.value)}
      >
        <option value="">
          {subscribers === undefined
            ? 'Loading subscribers…'
            : found.length === 0
              ? 'No subscriber matches'
              : 'Choose a subscriber…'}
        </option>
        {value && !selected ? <option value={value}>{value}</option> : null}
        {options.map((subscriber) => (
          <option key={subscriber.providerSubscriberID} value={subscriber.providerSubscriberID}>
            {optionText(subscriber)}
          </option>
        ))}
      </select>
      {warning ? (
        <p id={warningId} className="flex gap-1.5 rounded bg-warn-bg px-2 py-1 text-sm text-warn">
          <span aria-hidden="true">⚠</span>
          <span>{warning}</span>
        </p>
      ) : null}
      <FieldError id={errorId} error={error} />
    </fieldset>
  );
};

/** Memoised, as the number field is: it renders when its own props or the subscribers change, not with every update of the calls. */
export const SubscriberPicker = memo(function SubscriberPicker({ scope, ...field }: FieldProps & { scope: ProviderScope }) {
  const subscribers = useQuery(subscribersQueryOptions(useApi(), scope));
  if (subscribers.isError)
    return (
      <ManualSubscriberField
        {...field}
        note={`The service does not list ${field.providerName}'s subscribers (${subscribers.error.message}).`}
      />
    );
  if (subscribers.data?.subscribers.length === 0)
    return <ManualSubscriberField {...field} note={`${field.providerName} lists no subscribers.`} />;
  return <SubscriberSelect {...field} subscribers={subscribers.data?.subscribers} />;
});
