/** The live tiles' figures of several providers together: counts added, shares and means recomputed from them. */
import type { ServiceLevelFigures } from '../../../../contract/service-levels.js';

export type TileFigures = Pick<
  ServiceLevelFigures,
  'offered' | 'answered' | 'answeredWithin' | 'shortAbandoned' | 'abandoned' | 'waiting' | 'serviceLevel' | 'abandonRate' | 'averageAnswerSeconds' | 'longestAnswerSeconds'
>;

const shareOf = (part: number, whole: number) => (whole === 0 ? null : Math.round((part / whole) * 1000) / 1000);

export const combineFigures = (all: readonly TileFigures[]): TileFigures => {
  let offered = 0;
  let answered = 0;
  let answeredWithin = 0;
  let shortAbandoned = 0;
  let abandoned = 0;
  let waiting = 0;
  let answerSeconds = 0;
  let longest: number | null = null;
  for (const figures of all) {
    offered += figures.offered;
    answered += figures.answered;
    answeredWithin += figures.answeredWithin;
    shortAbandoned += figures.shortAbandoned;
    abandoned += figures.abandoned;
    waiting += figures.waiting;
    // Each provider's mean, weighted by its answered calls, is its sum.
    answerSeconds += (figures.averageAnswerSeconds ?? 0) * figures.answered;
    if (figures.longestAnswerSeconds !== null) longest = Math.max(longest ?? 0, figures.longestAnswerSeconds);
  }
  return {
    offered,
    answered,
    answeredWithin,
    shortAbandoned,
    abandoned,
    waiting,
    serviceLevel: shareOf(answeredWithin, answered + abandoned),
    abandonRate: shareOf(abandoned, answered + abandoned),
    averageAnswerSeconds: answered === 0 ? null : Math.round((answerSeconds / answered) * 10) / 10,
    longestAnswerSeconds: longest,
  };
};
