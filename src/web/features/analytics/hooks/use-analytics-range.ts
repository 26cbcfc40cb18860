/** The analytics range in the URL (`?range=1h|24h|7d`, or `range=custom&from=&to=`), and the window it covers now. */
import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { parseAnalyticsRange, rangeParams, type AnalyticsRange } from '../utils/analytics-range.js';

export const useAnalyticsRange = (): [AnalyticsRange, (range: AnalyticsRange) => void] => {
  const [params, setParams] = useSearchParams();
  const setRange = useCallback(
    (range: AnalyticsRange) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const key of ['range', 'from', 'to']) next.delete(key);
          for (const [key, value] of Object.entries(rangeParams(range))) next.set(key, value);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  return [parseAnalyticsRange(params), setRange];
};
