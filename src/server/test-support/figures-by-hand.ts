/**
 * The service-level figures of the definitions (`SERVICE_LEVEL_DEFINITIONS`), recomputed by hand
 * from a list of calls: the reference the database's answers must agree with. Each call is counted
 * with its own answer time (`aw`) and short-abandon time (`sa`), in ms.
 */
import type { ServiceLevelFigures } from '../../contract/service-levels.js';
import type { ProviderCall } from '../providers/phone-system.js';

const SEC = 1000;

export const figuresByHand = (calls: readonly ProviderCall[], parametersOf: (c: ProviderCall) => { aw: number; sa: number }): ServiceLevelFigures => {
  const inbound = calls.filter((c) => !c.isOutbound);
  const outbound = calls.filter((c) => c.isOutbound);
  const answered = inbound.filter((c) => c.answeredAt !== undefined);
  const waits = answered.map((c) => (c.answeredAt as number) - c.startedAt);
  const within = (ms: number) => waits.filter((w) => w <= ms).length;
  const withinOwn = answered.filter((c) => (c.answeredAt as number) - c.startedAt <= parametersOf(c).aw).length;
  const gone = inbound.filter((c) => c.answeredAt === undefined && c.endedAt !== undefined);
  const abandoned = gone.filter((c) => (c.endedAt as number) - c.startedAt >= parametersOf(c).sa).length;
  const talk = (list: ProviderCall[]) => list.filter((c) => c.answeredAt !== undefined && c.endedAt !== undefined).map((c) => (c.endedAt as number) - (c.answeredAt as number));
  const mean = (ms: number[]) => (ms.length === 0 ? null : Math.round(ms.reduce((a, b) => a + b, 0) / ms.length / 100) / 10);
  const share = (part: number, whole: number) => (whole === 0 ? null : Math.round((part / whole) * 1000) / 1000);
  return {
    offered: inbound.length,
    answered: answered.length,
    answeredWithin: withinOwn,
    shortAbandoned: gone.length - abandoned,
    abandoned,
    waiting: inbound.filter((c) => c.answeredAt === undefined && c.endedAt === undefined).length,
    serviceLevel: share(withinOwn, answered.length + abandoned),
    abandonRate: share(abandoned, answered.length + abandoned),
    averageAnswerSeconds: mean(waits),
    longestAnswerSeconds: waits.length === 0 ? null : Math.round(Math.max(...waits) / 100) / 10,
    averageTalkSeconds: mean(talk(inbound)),
    outboundPlaced: outbound.length,
    outboundConnected: outbound.filter((c) => c.answeredAt !== undefined).length,
    averageOutboundTalkSeconds: mean(talk(outbound)),
    answerTimes: {
      within10: within(10 * SEC),
      within20: within(20 * SEC),
      within30: within(30 * SEC),
      within60: within(60 * SEC),
      within120: within(120 * SEC),
      later: answered.length - within(120 * SEC),
    },
  };
};
