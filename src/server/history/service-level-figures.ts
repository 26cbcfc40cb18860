/** The figures of `contract/service-levels.ts` from the sums the database counted: shares, means, and the sums of several groups. */
import { ANSWER_TIME_BOUNDS, type AnswerTimes, type ServiceLevelFigures } from '../../contract/service-levels.js';
import type { ServiceLevelSums } from './service-level-query.js';

export const emptySums = (): ServiceLevelSums => ({
  offered: 0,
  answered: 0,
  answeredWithin: 0,
  shortAbandoned: 0,
  abandoned: 0,
  waiting: 0,
  answerMsSum: 0,
  answerMsMax: undefined,
  talkMsSum: 0,
  talked: 0,
  outboundPlaced: 0,
  outboundConnected: 0,
  outboundTalkMsSum: 0,
  outboundTalked: 0,
  answeredWithinBounds: ANSWER_TIME_BOUNDS.map(() => 0),
});

/** The sums of two groups of calls together. */
export const addSums = (a: ServiceLevelSums, b: ServiceLevelSums): ServiceLevelSums => ({
  offered: a.offered + b.offered,
  answered: a.answered + b.answered,
  answeredWithin: a.answeredWithin + b.answeredWithin,
  shortAbandoned: a.shortAbandoned + b.shortAbandoned,
  abandoned: a.abandoned + b.abandoned,
  waiting: a.waiting + b.waiting,
  answerMsSum: a.answerMsSum + b.answerMsSum,
  answerMsMax: a.answerMsMax === undefined ? b.answerMsMax : b.answerMsMax === undefined ? a.answerMsMax : Math.max(a.answerMsMax, b.answerMsMax),
  talkMsSum: a.talkMsSum + b.talkMsSum,
  talked: a.talked + b.talked,
  outboundPlaced: a.outboundPlaced + b.outboundPlaced,
  outboundConnected: a.outboundConnected + b.outboundConnected,
  outboundTalkMsSum: a.outboundTalkMsSum + b.outboundTalkMsSum,
  outboundTalked: a.outboundTalked + b.outboundTalked,
  answeredWithinBounds: a.answeredWithinBounds.map((n, i) => n + (b.answeredWithinBounds[i] ?? 0)),
});

/** A share to three decimals (0.857), or null without a divisor. */
const shareOf = (part: number, whole: number) => (whole === 0 ? null : Math.round((part / whole) * 1000) / 1000);
/** Milliseconds as seconds to one decimal, or null without calls. */
const secondsOf = (ms: number | undefined) => (ms === undefined ? null : Math.round(ms / 100) / 10);
const meanSeconds = (sumMs: number, calls: number) => (calls === 0 ? null : secondsOf(sumMs / calls));

const answerTimesOf = (sums: ServiceLevelSums): AnswerTimes => {
  const [within10 = 0, within20 = 0, within30 = 0, within60 = 0, within120 = 0] = sums.answeredWithinBounds;
  return { within10, within20, within30, within60, within120, later: sums.answered - within120 };
};

export const figuresOf = (sums: ServiceLevelSums): ServiceLevelFigures => {
  const counted = sums.answered + sums.abandoned;
  return {
    offered: sums.offered,
    answered: sums.answered,
    answeredWithin: sums.answeredWithin,
    shortAbandoned: sums.shortAbandoned,
    abandoned: sums.abandoned,
    waiting: sums.waiting,
    serviceLevel: shareOf(sums.answeredWithin, counted),
    abandonRate: shareOf(sums.abandoned, counted),
    averageAnswerSeconds: meanSeconds(sums.answerMsSum, sums.answered),
    longestAnswerSeconds: secondsOf(sums.answerMsMax),
    averageTalkSeconds: meanSeconds(sums.talkMsSum, sums.talked),
    outboundPlaced: sums.outboundPlaced,
    outboundConnected: sums.outboundConnected,
    averageOutboundTalkSeconds: meanSeconds(sums.outboundTalkMsSum, sums.outboundTalked),
    answerTimes: answerTimesOf(sums),
  };
};
