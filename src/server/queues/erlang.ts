/**
 * Agents needed, by Erlang C: the queue's traffic `A` (erlangs) from its calls offered and their
 * handle time, and the smallest number of agents whose predicted service level reaches the target.
 * Erlang C comes from Erlang B's recursion, which stays exact where factorials overflow.
 */

/** Erlang B: the chance a call finds all `n` servers busy with no queue, for traffic `a` (B(0) = 1, B(k) = a·B(k−1) / (k + a·B(k−1))). */
export const erlangB = (n: number, a: number): number => {
  let b = 1;
  for (let k = 1; k <= n; k += 1) b = (a * b) / (k + a * b);
  return b;
};

/** Erlang C: the chance a call waits, for `n` agents and traffic `a` (n > a). */
export const erlangC = (n: number, a: number): number => {
  const b = erlangB(n, a);
  return b / (1 - (a / n) * (1 - b));
};

/** The share of calls answered within `answerWithinSeconds` that `n` agents predict. */
export const predictedServiceLevel = (n: number, a: number, answerWithinSeconds: number, averageHandleSeconds: number): number => {
  if (a === 0) return 1;
  if (n <= a) return 0;
  return 1 - erlangC(n, a) * Math.exp((-(n - a) * answerWithinSeconds) / averageHandleSeconds);
};

export interface StaffingInput {
  offeredPerHour: number;
  averageHandleSeconds: number;
  answerWithinSeconds: number;
  serviceLevelTarget: number;
}

/** Past this many agents the search stops (a center's queue never needs more): `agents` is the bound. */
const MOST_AGENTS = 100_000;

/**
 * The smallest whole `n > A` whose predicted service level reaches the target, and that level;
 * 0 agents (and no prediction) when no call is offered.
 */
export const agentsFor = (input: StaffingInput): { agents: number; serviceLevel: number | null } => {
  const a = (input.offeredPerHour / 3600) * input.averageHandleSeconds;
  if (a === 0) return { agents: 0, serviceLevel: null };
  let n = Math.floor(a) + 1;
  let level = predictedServiceLevel(n, a, input.answerWithinSeconds, input.averageHandleSeconds);
  while (level < input.serviceLevelTarget && n < MOST_AGENTS) {
    n += 1;
    level = predictedServiceLevel(n, a, input.answerWithinSeconds, input.averageHandleSeconds);
  }
  return { agents: n, serviceLevel: Math.round(level * 1000) / 1000 };
};
