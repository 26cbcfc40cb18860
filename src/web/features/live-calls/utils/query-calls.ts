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

export const filterCalls = (calls: readonly CallRecord[], filters: CallFilters, country: CountryCode = defaultPhoneCountry()): CallRecord[] =>
  calls.filter(
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
  return calls
    .map((call) => ({ call, key: key(call) }))
    .sort(
      (a, b) =>
        sign * (compare(a.key, b.key) || compareRaw(a.call.startedAt, b.call.startedAt) || compareRaw(a.call.callID, b.call.callID)),
    )
    .map(({ call }) => call);
};

interface SubscriberOption {
  value: string;
  label: string;
}

/** The subscribers on the current calls, by name; the selected one stays listed after its calls end. */
export const subscriberOptions = (calls: readonly CallRecord[], selected: string): SubscriberOption[] => {
  const byID = new Map<string, string>();
  let unassigned = false;
  for (const call of calls) {
    if (call.subscriberID === undefined) unassigned = true;
    else if (!byID.has(call.subscriberID)) {
      const name = subscriberName(call) || call.subscriberID;
      byID.set(call.subscriberID, call.subscriberExtension ? `${name} (ext. ${call.subscriberExtension})` : name);
    }
  }
  if (selected !== '' && selected !== UNASSIGNED && !byID.has(selected)) byID.set(selected, `${selected} (no current calls)`);
  const options = [...byID].map(([value, label]) => ({ value, label })).sort((a, b) => collator.compare(a.label, b.label));
  return unassigned || selected === UNASSIGNED ? [...options, { value: UNASSIGNED, label: 'Not assigned' }] : options;
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
