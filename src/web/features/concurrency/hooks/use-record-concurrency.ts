/**
 * One concurrency sample per update, at most one a second: a pushed stream can bring several
 * updates a second, which the chart cannot show and the stored series need not hold. The last
 * update of a busy second is still sampled, a moment later.
 */
import { useEffect, useRef } from 'react';
import type { CallRecord } from '../../../../contract/call-record.js';
import { liveSample, recordSample } from '../../../lib/concurrency-samples.js';

export const SAMPLE_EVERY_MS = 1_000;

export const useRecordConcurrency = (storageKey: string, calls: readonly CallRecord[], receivedAt: number): void => {
  const lastAt = useRef(0);
  useEffect(() => {
    // Nothing received yet: an empty list is not a count of zero.
    if (receivedAt <= 0 || storageKey === '') return undefined;
    const record = () => {
      if (recordSample(storageKey, liveSample(calls, receivedAt))) lastAt.current = receivedAt;
    };
    const wait = lastAt.current + SAMPLE_EVERY_MS - receivedAt;
    if (wait <= 0) {
      record();
      return undefined;
    }
    // A newer update replaces this one before it is due.
    const timer = setTimeout(record, wait);
    return () => clearTimeout(timer);
  }, [storageKey, calls, receivedAt]);
};
