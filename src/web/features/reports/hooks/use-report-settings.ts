/** The reports' period and interval in the URL (`?period=&fromDay=&toDay=&interval=`), so a view can be shared and reloaded. */
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { parseReportSettings, reportParams, type ReportSettings } from '../utils/report-range.js';

const KEYS = ['period', 'fromDay', 'toDay', 'interval'];

export const useReportSettings = (): [ReportSettings, (settings: ReportSettings) => void] => {
  const [params, setParams] = useSearchParams();
  const settings = useMemo(() => parseReportSettings(params), [params]);
  const set = useCallback(
    (next: ReportSettings) =>
      setParams(
        (current) => {
          const updated = new URLSearchParams(current);
          for (const key of KEYS) updated.delete(key);
          for (const [key, value] of Object.entries(reportParams(next))) updated.set(key, value);
          return updated;
        },
        { replace: true },
      ),
    [setParams],
  );
  return [settings, set];
};
