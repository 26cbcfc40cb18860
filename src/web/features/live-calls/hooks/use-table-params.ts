/**
 * The table's view (sort, filters, search, hidden columns) lives in the URL, so a shared link or a
 * reload shows the same rows. Keys are the table's own; `dial`, `agent`, `tz` and the rest belong to others.
 */
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { callStates, type CallState } from '../../../lib/call-state.js';
import { callColumns, type ColumnID } from '../components/call-columns.js';
import { directions, type Direction } from '../utils/call-fields.js';
import type { CallFilters, SortDir } from '../utils/query-calls.js';

const tableKeys = {
  sort: 'sort',
  dir: 'dir',
  state: 'state',
  direction: 'direction',
  subscriber: 'subscriber',
  search: 'search',
  hide: 'hide',
} as const;

export interface Sort {
  column: ColumnID;
  dir: SortDir;
}

/** Oldest first, as the API lists them: the calls that have run longest, the ones to step into, lead. */
const defaultSort: Sort = { column: 'started', dir: 'asc' };

const isOneOf = <T extends string>(allowed: Iterable<string>) => {
  const set = new Set(allowed);
  return (value: string): value is T => set.has(value);
};

const isSortable = isOneOf<ColumnID>(callColumns.filter((column) => column.sort).map((column) => column.id));
const isHideable = isOneOf<ColumnID>(callColumns.filter((column) => column.hideable).map((column) => column.id));
const isState = isOneOf<CallState>(callStates);
const isDirection = isOneOf<Direction>(directions);

export interface TableParams {
  sort: Sort;
  filters: CallFilters;
  hidden: readonly ColumnID[];
  setSort: (sort: Sort) => void;
  setStates: (states: readonly CallState[]) => void;
  setDirections: (directions: readonly Direction[]) => void;
  setSubscriber: (subscriber: string) => void;
  setSearch: (search: string) => void;
  setHidden: (hidden: readonly ColumnID[]) => void;
  clearFilters: () => void;
}

export const useTableParams = (): TableParams => {
  const [params, setParams] = useSearchParams();

  // Parsed from the raw strings, so an unrelated URL change keeps the same arrays and objects.
  const sortText = `${params.get(tableKeys.sort) ?? ''}|${params.get(tableKeys.dir) ?? ''}`;
  const statesText = params.getAll(tableKeys.state).join(',');
  const directionsText = params.getAll(tableKeys.direction).join(',');
  const hiddenText = params.getAll(tableKeys.hide).join(',');
  const subscriber = params.get(tableKeys.subscriber) ?? '';
  const search = params.get(tableKeys.search) ?? '';

  const sort = useMemo((): Sort => {
    const [column = '', dir = ''] = sortText.split('|');
    return isSortable(column) ? { column, dir: dir === 'desc' ? 'desc' : 'asc' } : defaultSort;
  }, [sortText]);
  const states = useMemo(() => statesText.split(',').filter(isState), [statesText]);
  const directionList = useMemo(() => directionsText.split(',').filter(isDirection), [directionsText]);
  const hidden = useMemo(() => hiddenText.split(',').filter(isHideable), [hiddenText]);
  const filters = useMemo(
    () => ({ states, directions: directionList, subscriber, search }),
    [states, directionList, subscriber, search],
  );

  // Replace, not push: Back should leave the page, not step through every sort click and keystroke.
  const update = useCallback(
    (change: (next: URLSearchParams) => void) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          change(next);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );

  const setList = useCallback(
    (key: string, values: readonly string[]) =>
      update((next) => {
        next.delete(key);
        for (const value of values) next.append(key, value);
      }),
    [update],
  );

  const setText = useCallback(
    (key: string, value: string) =>
      update((next) => {
        if (value === '') next.delete(key);
        else next.set(key, value);
      }),
    [update],
  );

  // Stable while the URL stays put: the controls they are handed render again only when it moves.
  const setters = useMemo(
    (): Omit<TableParams, 'sort' | 'filters' | 'hidden'> => ({
      setSort: (next) =>
        update((url) => {
          const isDefault = next.column === defaultSort.column && next.dir === defaultSort.dir;
          if (isDefault) {
            url.delete(tableKeys.sort);
            url.delete(tableKeys.dir);
          } else {
            url.set(tableKeys.sort, next.column);
            url.set(tableKeys.dir, next.dir);
          }
        }),
      setStates: (next) => setList(tableKeys.state, next),
      setDirections: (next) => setList(tableKeys.direction, next),
      setSubscriber: (next) => setText(tableKeys.subscriber, next),
      setSearch: (next) => setText(tableKeys.search, next),
      setHidden: (next) => setList(tableKeys.hide, next),
      clearFilters: () =>
        update((url) => {
          for (const key of [tableKeys.state, tableKeys.direction, tableKeys.subscriber, tableKeys.search]) url.delete(key);
        }),
    }),
    [update, setList, setText],
  );

  return { sort, filters, hidden, ...setters };
};
