/** Answers of the service-levels and missed-calls endpoints for component tests; override what the test is about. */
import type { MissedCall, MissedCallsResponse, ServiceLevelFigures, ServiceLevelsResponse } from '../../contract/service-levels.js';

export const figures = (overrides: Partial<ServiceLevelFigures> = {}): ServiceLevelFigures => ({
  offered: 0,
  answered: 0,
  answeredWithin: 0,
  shortAbandoned: 0,
  abandoned: 0,
  waiting: 0,
  serviceLevel: null,
  abandonRate: null,
  averageAnswerSeconds: null,
  longestAnswerSeconds: null,
  averageTalkSeconds: null,
  outboundPlaced: 0,
  outboundConnected: 0,
  averageOutboundTalkSeconds: null,
  answerTimes: { within10: 0, within20: 0, within30: 0, within60: 0, within120: 0, later: 0 },
  ...overrides,
});

/** The answer for the window a request asks, one bucket with these totals. */
export const serviceLevelsAnswer = (url: URL, totals: ServiceLevelFigures = figures()): ServiceLevelsResponse => {
  const fromDate = url.searchParams.get('fromDate') ?? new Date().toISOString();
  return {
    fromDate,
    toDate: url.searchParams.get('toDate') ?? new Date().toISOString(),
    bucketSeconds: Number(url.searchParams.get('bucketSeconds') ?? 60),
    answerWithinSeconds: Number(url.searchParams.get('answerWithinSeconds') ?? 20),
    shortAbandonSeconds: Number(url.searchParams.get('shortAbandonSeconds') ?? 5),
    totals,
    buckets: [{ start: fromDate, ...totals }],
    subscribers: [],
  };
};

export const missedCallsAnswer = (url: URL, missedCalls: MissedCall[] = []): MissedCallsResponse => ({
  fromDate: url.searchParams.get('fromDate') ?? new Date().toISOString(),
  toDate: url.searchParams.get('toDate') ?? new Date().toISOString(),
  shortAbandonSeconds: Number(url.searchParams.get('shortAbandonSeconds') ?? 5),
  missedCalls,
  totalMissedCalls: missedCalls.length,
  calledBackWithinHour: null,
});
