/**
 * The change stream's wire format, in one place: the data of its `snapshot`, `changes` and
 * `status` events (schemas in `contract/call-stream.ts`), written by hand around JSON each call
 * record already has, so a record is serialized once whatever the number of streams.
 */
import type { Problem } from '../../contract/problem.js';
import type { CallDiff } from './call-diff.js';
import type { CallSnapshot } from './call-snapshot.js';
import { formatPosition, type LogPosition } from './change-log.js';

/** The `changes` event's data for a diff, at its position in the log. */
export const changesData = (providerID: string, position: LogPosition, snapshot: CallSnapshot, diff: CallDiff): string =>
  `{"providerID":${JSON.stringify(providerID)},"cursor":"${formatPosition(position)}","upserted":[${diff.upserted.map((call) => snapshot.recordJSON(call)).join(',')}],"removed":${JSON.stringify(diff.removed.map((call) => call.callID))}}`;

/** The `snapshot` event's data around the records' JSON array (shared by every stream): what goes before it, and after. */
export const snapshotDataAround = (providerID: string, position: LogPosition, ageMs: number): [before: string, after: string] => [
  `{"providerID":${JSON.stringify(providerID)},"cursor":"${formatPosition(position)}","snapshotAgeMs":${ageMs},"calls":`,
  '}',
];

/** The `status` event's data: the provider's health, with the problem a list would answer when it fails. */
export const statusData = (
  providerID: string,
  status: { available: boolean; snapshotAgeMs?: number; degraded?: string },
  problem: Problem | undefined,
): string =>
  JSON.stringify({
    providerID,
    available: status.available,
    ...(status.snapshotAgeMs === undefined ? {} : { snapshotAgeMs: Math.max(0, Math.round(status.snapshotAgeMs)) }),
    ...(problem ? { problem } : {}),
    ...(status.degraded === undefined ? {} : { degraded: status.degraded }),
  });
