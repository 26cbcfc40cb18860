/**
 * The subscriber filter: a search over the subscribers on the current calls, behind a toolbar
 * button like the other filters. A large center has thousands of subscribers, so the choices are
 * worked out only while the panel is open, and never more than a screenful is drawn.
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { CallRecord } from '../../../../contract/call-record.js';
import { describeSubscriber, subscriberChoices } from '../utils/query-calls.js';
import { ToolbarDisclosure } from './toolbar-disclosure.js';

/** Choices drawn at once; typing narrows the rest. */
export const SUBSCRIBER_CHOICES_SHOWN = 30;

export const SubscriberFilter = ({
  calls,
  selected,
  onChange,
}: {
  calls: readonly CallRecord[];
  /** A subscriberID, UNASSIGNED, or '' for everyone. */
  selected: string;
  onChange: (subscriber: string) => void;
}) => {
  const summary = useMemo(() => (selected === '' ? undefined : describeSubscriber(calls, selected)), [calls, selected]);
  return (
    <ToolbarDisclosure label="Subscriber" summary={summary}>
      <SubscriberChoices calls={calls} selected={selected} onChange={onChange} />
    </ToolbarDisclosure>
  );
};

const SubscriberChoices = ({ calls, selected, onChange }: { calls: readonly CallRecord[]; selected: string; onChange: (subscriber: string) => void }) => {
  const [query, setQuery] = useState('');
  const name = useId();
  const search = useRef<HTMLInputElement>(null);
  // Opened to find someone: the search box takes the keys at once.
  useEffect(() => search.current?.focus(), []);
  const { options, more } = useMemo(() => subscriberChoices(calls, selected, query, SUBSCRIBER_CHOICES_SHOWN), [calls, selected, query]);

  const choice = (value: string, label: string, count?: number) => (
    <label key={value} className="flex cursor-pointer items-center gap-2 rounded px-1 py-1 hover:bg-raised">
      <input type="radio" name={name} className="accent-accent" checked={selected === value} onChange={() => onChange(value)} />
      <span className="flex-1 truncate">{label}</span>
      {count === undefined ? null : <span className="text-xs text-muted tabular">{count}</span>}
    </label>
  );

  return (
    <fieldset className="flex w-72 max-w-[calc(100vw-2rem)] flex-col gap-1">
      <legend className="mb-1 text-xs font-semibold tracking-wide text-muted uppercase">Show calls of</legend>
      <input
        ref={search}
        type="search"
        aria-label="Find a subscriber"
        placeholder="Name, extension or ID"
        value={query}
        onChange={(event) => setQuery(event.target.value)}
        className="mb-1 rounded-md border border-line bg-panel px-2 py-1 text-sm text-ink focus-visible:outline-2 focus-visible:outline-accent"
      />
      <div className="flex max-h-72 flex-col overflow-y-auto">
        {query.trim() === '' ? choice('', 'Everyone', calls.length) : null}
        {options.map((option) => choice(option.value, option.label, option.calls))}
      </div>
      <p aria-live="polite" className="text-xs text-muted empty:hidden">
        {options.length === 0 && query.trim() !== ''
          ? `No subscriber on the current calls matches “${query.trim()}”.`
          : more > 0
            ? `${more.toLocaleString()} more: type a name, extension or ID to find them.`
            : ''}
      </p>
    </fieldset>
  );
};
