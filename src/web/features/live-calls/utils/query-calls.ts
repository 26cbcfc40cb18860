/** Filtering, searching and sorting of calls: pure functions of the calls and the view in the URL. */
import type { CallRecord } from '../../../../contract/call-record.js';
import { callState, type CallState } from '../../../lib/call-state.js';
import { formatPhoneNumber, nationalPhoneNumber } from '../../../lib/format.js';
import { defaultPhoneCountry, type CountryCode } from '../../../lib/phone-country.js';
import { phoneRules } from '../../../lib/phone-rules-loader.js';
import { callDirection, subscriberName, type Direction } from './call-fields.js';

/** The subscriber filter's value for calls that no subscriber has taken yet. */
export const UNASSIGNED = 'none';

export interface CallFilters {
  states: readonly CallState[];
  directions: readonly Direction[];
  /** A subscriberID, UNASSIGNED, or '' for everyone. */
  subscriber: string;
  search: string;
}

export type SortDir = 'asc' | 'desc';

export const hasFilters = (filters: CallFilters): boolean =>
  filters.states.length > 0 || filters.directions.length > 0 || filters.subscriber !== '' || filters.search.trim() !== '';

interface SearchForms {
  country: CountryCode;
  /** Built with the phone rules: before they load, numbers have only their digits. */
  ruled: boolean;
  /** Everything shown or stored about the call, lower case. */
  text: string;
  /** The digit strings a typed number may be part of: stored, as written nationally, the extension. */
  digits: string[];
}

// Call objects are kept by callID across polls, so each call's forms are built once per country (and once the phone rules arrive), not on every keystroke.
const searchCache = new WeakMap<CallRecord, SearchForms>();
const searchForms = (call: CallRecord, country: CountryCode): SearchForms => {
  const ruled = phoneRules() !== undefined;
  const cached = searchCache.get(call);
  if (cached?.country === country && cached.ruled === ruled) return cached;
  const national = nationalPhoneNumber(call.remoteNumber, country);
  const text = [call.callID, call.remoteNumber, formatPhoneNumber(call.remoteNumber, country), national, call.remoteName, subscriberName(call), call.subscriberExtension]
    .filter(Boolean)
    .join('\n')
    .toLowerCase();
  const digits = [call.remoteNumber, national?.replace(/\D/g, ''), call.subscriberExtension].filter((value): value is string => Boolean(value));
  const forms = { country, ruled, text, digits };
  searchCache.set(call, forms);
  return forms;
};

/** Something typed like a phone number ("+1 (555) 010-0199", "020 7946 0958") also matches the stored digits. */
const phoneDigits = (query: string): string | undefined =>
  /^[\d\s()+.-]*\d[\d\s()+.-]*$/.test(query) ? query.replace(/\D/g, '') : undefined;

export const matchesSearch = (call: CallRecord, search: string, country: CountryCode = defaultPhoneCountry()): boolean => {
  const query = search.trim().toLowerCase();
  if (query === '') return true;
  const forms = searchForms(call, country);
  if (forms.text.includes(query)) return true;
  const digits = phoneDigits(query);
  return digits !== undefined && forms.digits.some((value) => value.includes(digits));
};

const matchesSubscriber = (call: CallRecord, subscriber: string): boolean =>
  subscriber === '' || (subscriber === UNASSIGNED ? call.subscriberID === undefined : call.subscriberID === subscriber);

/** With no filter set, the list itself: no copy of 10,000 calls on every update. */
export const filterCalls = (calls: readonly CallRecord[], filters: CallFilters, country: CountryCode = defaultPhoneCountry()): CallRecord[] =>
  !hasFilters(filters) ? (calls as CallRecord[]) : calls.filter(
    (call) =>
      (filters.states.length === 0 || filters.states.includes(callState(call))) &&
      (filters.directions.length === 0 || filters.directions.includes(callDirection(call))) &&
      matchesSubscriber(call, filters.subscriber) &&
      matchesSearch(call, filters.search, country),
  );

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

const compare = (a: string | number, b: string | number): number =>
  typeof a === 'number' && typeof b === 'number' ? a - b : collator.compare(String(a), String(b));

/** Code-point order: right for ISO timestamps and IDs, and far cheaper than a collator on 10,000 rows. */
const compareRaw = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Stable: equal keys keep the API's order (start time, then callID), so rows do not shuffle between polls. */
export const sortCalls = (
  calls: readonly CallRecord[],
  key: (call: CallRecord) => string | number,
  dir: SortDir,
): CallRecord[] => {
  const sign = dir === 'asc' ? 1 : -1;
  const keys = calls.map((call) => key(call));
  const order = (i: number, j: number) => {
    const a = calls[i] as CallRecord;
    const b = calls[j] as CallRecord;
    return sign * (compare(keys[i] as string | number, keys[j] as string | number) || compareRaw(a.startedAt, b.startedAt) || compareRaw(a.callID, b.callID));
  };
  // The calls come oldest first: sorted by start they are in order already, or in reverse, and a
  // pass that says so costs far less than a sort of 10,000 rows on every update (nor does it make
  // an object per row).
  let ascending = true;
  let descending = true;
  for (let i = 1; i < calls.length && (ascending || descending); i += 1) {
    const compared = order(i - 1, i);
    if (compared > 0) ascending = false;
    if (compared <= 0) descending = false;
  }
  if (ascending) return calls as CallRecord[];
  if (descending) return [...calls].reverse();
  return Array.from(calls.keys())
    .sort(order)
    .map((i) => calls[i] as CallRecord);
};

export interface SubscriberOption {
  value: string;
  label: string;
  /** Current calls of this subscriber. */
  calls: number;
}

const NOT_ASSIGNED = 'Not assigned';

const subscriberLabel = (call: CallRecord, subscriberID: string): string => {
  const name = subscriberName(call) || subscriberID;
  return call.subscriberExtension ? `${name} (ext. ${call.subscriberExtension})` : name;
};

/** The filter's words for a chosen value: the subscriber's name while they have calls, else what was chosen. */
export const describeSubscriber = (calls: readonly CallRecord[], selected: string): string => {
  if (selected === UNASSIGNED) return NOT_ASSIGNED;
  for (const call of calls) if (call.subscriberID === selected) return subscriberLabel(call, selected);
  return selected;
};

export interface SubscriberChoices {
  /** At most `limit`, by name; the selected one first when it has no current calls. */
  options: SubscriberOption[];
  /** Further matches left out; typing narrows them. */
  more: number;
}

/**
 * The subscribers on the current calls that match what was typed (name, extension or ID), by name,
 * with their call counts, after the calls nobody has taken yet. A large center has thousands of
 * subscribers: a list longer than `limit` is cut, never drawn whole.
 */
export const subscriberChoices = (calls: readonly CallRecord[], selected: string, query = '', limit = Infinity): SubscriberChoices => {
  const byID = new Map<string, SubscriberOption>();
  let unassigned = 0;
  for (const call of calls) {
    if (call.subscriberID === undefined) unassigned += 1;
    else {
      const option = byID.get(call.subscriberID);
      if (option) option.calls += 1;
      else byID.set(call.subscriberID, { value: call.subscriberID, label: subscriberLabel(call, call.subscriberID), calls: 1 });
    }
  }
  const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean);
  const matches = (option: SubscriberOption) => {
    const text = `${option.label} ${option.value}`.toLowerCase();
    return words.every((word) => text.includes(word));
  };
  const found = [...byID.values()].filter(matches).sort((a, b) => collator.compare(a.label, b.label));
  if (unassigned > 0 || selected === UNASSIGNED) {
    const none = { value: UNASSIGNED, label: NOT_ASSIGNED, calls: unassigned };
    // First, where a cut list cannot hide it.
    if (matches(none)) found.unshift(none);
  }
  const options = found.slice(0, limit);
  if (selected !== '' && selected !== UNASSIGNED && !byID.has(selected) && words.length === 0)
    options.unshift({ value: selected, label: `${selected} (no current calls)`, calls: 0 });
  return { options, more: found.length - Math.min(found.length, limit) };
};

/** How many calls each option of a facet would show. */
export const countBy = <K extends string>(calls: readonly CallRecord[], key: (call: CallRecord) => K): Map<K, number> => {
  const counts = new Map<K, number>();
  for (const call of calls) {
    const value = key(call);
    counts.set(value, (counts.get(value) ?? 0) + 1);
  }
  return counts;
};
