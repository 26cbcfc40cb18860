/** One concurrency sample per poll: a new `receivedAt` means the service answered again. */
import { useEffect } from 'react';
import type { CallRecord } from '../../../../contract/call-record.js';
import { liveSample, recordSample } from '../../../lib/concurrency-samples.js';

export const useRecordConcurrency = (storageKey: string, calls: readonly CallRecord[], receivedAt: number): void => {
  useEffect(() => {
    // Nothing received yet: an empty list is not a count of zero.
    if (receivedAt <= 0 || storageKey === '') return;
    recordSample(storageKey, liveSample(calls, receivedAt));
  }, [storageKey, calls, receivedAt]);
};
