import { describe, expect, it } from 'vitest';
import { intervalReportSchema, type IntervalReport } from '../../../../contract/reports.js';
import { intervalRow, intervalReport } from '../../../test-support/reports.js';
import { drawnQueues, serviceLevelPoints, staffingPoints } from './interval-series.js';

const report: IntervalReport = intervalReportSchema.parse(
  intervalReport({
    fromDate: '2026-11-26T08:00:00.000Z',
    toDate: '2026-11-26T09:00:00.000Z',
    intervalMinutes: 30,
    rows: [
      intervalRow({
        start: '2026-11-26T08:00:00.000Z',
        queueID: 'sales',
        offered: 10,
        serviceLevel: 0.9,
        serviceLevelTarget: 0.8,
        agentsNeeded: 4,
        agentsStaffed: 3.04,
      }),
      intervalRow({
        start: '2026-11-26T08:00:00.000Z',
        queueID: 'support',
        offered: 30,
        serviceLevel: 0.6,
        serviceLevelTarget: 0.9,
        agentsNeeded: 6,
        agentsStaffed: 7,
      }),
      intervalRow({
        start: '2026-11-26T08:00:00.000Z',
        queueID: null,
        offered: 2,
        serviceLevel: 1,
        serviceLevelTarget: null,
        agentsNeeded: null,
        agentsStaffed: null,
      }),
      intervalRow({
        start: '2026-11-26T08:30:00.000Z',
        queueID: 'sales',
        offered: 0,
        serviceLevel: null,
        serviceLevelTarget: 0.85,
        agentsNeeded: 0,
        agentsStaffed: 2,
      }),
      intervalRow({
        start: '2026-11-26T08:30:00.000Z',
        queueID: 'support',
        offered: 12,
        serviceLevel: 0.75,
        serviceLevelTarget: 0.9,
        agentsNeeded: null,
        agentsStaffed: 5,
      }),
      intervalRow({
        start: '2026-11-26T08:30:00.000Z',
        queueID: null,
        offered: 0,
        serviceLevel: null,
        serviceLevelTarget: null,
        agentsNeeded: null,
        agentsStaffed: null,
      }),
    ],
  }),
);

describe('interval series', () => {
  it('draws the configured queues, the busiest first', () => {
    expect(drawnQueues(report).map((queue) => queue.queueID)).toEqual(['support', 'sales']);
  });

  it("steps each queue's target as each interval's row states it, and closes the last step at the report's end", () => {
    const points = serviceLevelPoints(report, drawnQueues(report));
    expect(points.map((p) => [new Date(p.at).toISOString().slice(11, 16), p.level0, p.target0, p.level1, p.target1])).toEqual([
      ['08:00', 60, 90, 90, 80],
      ['08:30', 75, 90, null, 85],
      ['09:00', 75, 90, null, 85],
    ]);
  });

  it('sums offered, needed and staffed over the queues (never the calls in no queue), and shades where fewer were staffed than needed', () => {
    const all = staffingPoints(report, undefined);
    expect(all[0]).toMatchObject({ offered: 40, needed: 10, staffed: 10, gap: null, short: 0 });
    expect(all[1]).toMatchObject({ offered: 12, needed: 0, staffed: 7, gap: null });
    const sales = staffingPoints(report, 'sales');
    expect(sales[0]).toMatchObject({ offered: 10, needed: 4, staffed: 3, gap: [3, 4], short: 1 });
  });
});
