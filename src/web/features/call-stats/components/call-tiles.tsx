/** Placeholder until the tiles land. */
import type { CallRecord } from '../../../../contract/call-record.js';
import type { ProviderScope } from '../../../../contract/paths.js';

export const CallTiles = (_props: { calls: CallRecord[]; scopes: ProviderScope[]; loading: boolean; size?: 'normal' | 'wall' }) => null;
