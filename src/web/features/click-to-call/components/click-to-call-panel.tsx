/** Placeholder until click-to-call lands. */
import type { CallRecord } from '../../../../contract/call-record.js';
import type { Workspace } from '../../../lib/workspace.js';

export const ClickToCallPanel = (_props: { workspace: Workspace; calls: CallRecord[] }) => null;
