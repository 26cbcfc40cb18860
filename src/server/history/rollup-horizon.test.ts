import { describe, expect, it } from 'vitest';
import { RollupHorizon } from './rollup-horizon.js';

const scope = { accountID: 'acme', applicationID: 'center', providerID: 'pbx' };
const other = { ...scope, providerID: 'other' };
const hour = { span: 'hour' as const, start: 3_600_000, end: 7_200_000 };

const horizonWithLog = () => {
  const unrolled: [string, number][] = [];
  const horizon = new RollupHorizon(async (of, at) => {
    unrolled.push([of.providerID, at]);
  });
  return { horizon, unrolled };
};

describe('the horizon of the agents’ rollups', () => {
  it('un-rolls on the first write, then only for writes dated before the latest rolled period’s end', async () => {
    const { horizon, unrolled } = horizonWithLog();
    await horizon.written(scope, 9_000_000);
    expect(unrolled).toEqual([['pbx', 9_000_000]]);
    await horizon.rolling(scope, hour, async () => undefined);
    await horizon.written(scope, 9_500_000);
    expect(unrolled).toHaveLength(1);
    await horizon.rolling(scope, { span: 'hour', start: 9_000_000, end: 12_600_000 }, async () => undefined);
    await horizon.written(scope, 10_000_000);
    expect(unrolled).toEqual([
      ['pbx', 9_000_000],
      ['pbx', 10_000_000],
    ]);
    await horizon.written(other, 10_000_000);
    expect(unrolled.at(-1)).toEqual(['other', 10_000_000]);
  });

  it('un-marks a period again when a write dated inside it commits while it is being rolled', async () => {
    const { horizon, unrolled } = horizonWithLog();
    await horizon.written(scope, 0);
    await horizon.rolling(scope, hour, async () => {
      // The roll has read the hour's rows; this write commits before the hour is marked.
      await horizon.written(scope, hour.start + 60_000);
    });
    expect(unrolled.at(-1)).toEqual(['pbx', hour.start + 60_000]);
  });

  it('forgets what it knew when another instance may roll: the next write un-rolls', async () => {
    const { horizon, unrolled } = horizonWithLog();
    await horizon.written(scope, 9_000_000);
    horizon.forget(scope);
    await horizon.written(scope, 9_500_000);
    expect(unrolled).toHaveLength(2);
  });
});
