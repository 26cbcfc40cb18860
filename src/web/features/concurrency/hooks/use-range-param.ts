/** The chart's time range, kept in the URL (`?range=15|60`) so a link or a wall screen reopens it. */
import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { parseRange, type RangeMinutes } from '../utils/chart-series.js';

export const useRangeParam = (): [RangeMinutes, (range: RangeMinutes) => void] => {
  const [params, setParams] = useSearchParams();
  const setRange = useCallback(
    (range: RangeMinutes) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.set('range', String(range));
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  return [parseRange(params.get('range')), setRange];
};
