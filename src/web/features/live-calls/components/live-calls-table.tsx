/** Placeholder until the table lands. */
import type { CallRecord } from '../../../../contract/call-record.js';

export const LiveCallsTable = (_props: { calls: CallRecord[]; timeZone: string; showProvider: boolean; loading: boolean }) => null;
