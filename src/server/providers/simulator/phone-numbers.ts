/** Realistic phone numbers as digit strings: North American (1NXXNXXXXXX) and a few international ones. */
import type { Random } from './random.js';

/** Real area codes from across the US and Canada. */
// prettier-ignore
const AREA_CODES: readonly string[] = [
  '206', '210', '212', '213', '214', '216', '267', '301', '303', '305', '312', '313', '321', '347',
  '403', '404', '408', '410', '415', '416', '469', '480', '502', '503', '510', '512', '514', '571',
  '602', '604', '612', '613', '615', '617', '619', '628', '646', '647', '650', '678', '702', '703',
  '704', '713', '716', '718', '720', '727', '737', '773', '786', '801', '808', '813', '818', '832',
  '857', '858', '901', '916', '917', '919', '929', '949', '972', '978',
];

/** Country code, then the national number's leading digits and how many random digits follow them. */
const INTERNATIONAL_PLANS: ReadonlyArray<readonly [{ prefix: readonly string[]; rest: number }, number]> = [
  [{ prefix: ['447700', '447911', '447400', '447812', '447534'], rest: 6 }, 3], // UK mobiles
  [{ prefix: ['4420'], rest: 8 }, 1], // London
  [{ prefix: ['44161', '44131'], rest: 7 }, 1], // Manchester, Edinburgh
  [{ prefix: ['49151', '49160', '49170', '49176', '49157'], rest: 8 }, 2], // German mobiles
  [{ prefix: ['4930', '4989', '4940'], rest: 8 }, 1], // Berlin, Munich, Hamburg
  [{ prefix: ['336', '337'], rest: 8 }, 2], // French mobiles
  [{ prefix: ['331'], rest: 8 }, 1], // Paris
  [{ prefix: ['5255'], rest: 8 }, 1], // Mexico City
  [{ prefix: ['614'], rest: 8 }, 1], // Australian mobiles
];

export const randomAreaCode = (random: Random): string => random.pick(AREA_CODES);

/** 1 + NXX area + NXX exchange + four digits; exchanges never N11 nor the fictional 555. */
export const northAmericanNumber = (random: Random, areaCode = randomAreaCode(random)): string =>
  `1${areaCode}${randomExchange(random)}${randomDigits(random, 4)}`;

export const internationalNumber = (random: Random): string => {
  const plan = random.weighted(INTERNATIONAL_PLANS);
  return random.pick(plan.prefix) + randomDigits(random, plan.rest);
};

/** Someone outside the company: mostly North American, about one in ten from abroad. */
export const outsideNumber = (random: Random): string =>
  random.bernoulli(0.1) ? internationalNumber(random) : northAmericanNumber(random);

const randomExchange = (random: Random): string => {
  for (;;) {
    const exchange = String(random.int(200, 999));
    if (!exchange.endsWith('11') && exchange !== '555') return exchange;
  }
};

const randomDigits = (random: Random, count: number): string => {
  let digits = '';
  for (let index = 0; index < count; index += 1) digits += String(random.int(0, 9));
  return digits;
};
