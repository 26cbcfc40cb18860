/** Placeholder until the chart lands. */
import type { CallRecord } from '../../../../contract/call-record.js';

export const LiveConcurrencyChart = (_props: { calls: CallRecord[]; receivedAt: number; storageKey: string; timeZone: string; size?: 'normal' | 'wall' }) => null;
