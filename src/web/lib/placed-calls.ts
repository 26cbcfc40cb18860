/**
 * The numbers this page asked the service to call a moment ago. A call placed while the browser is
 * the agent's phone rings the browser first; the browser answers that leg by itself only for a
 * number asked for here, once, so an INVITE merely dressed as such a leg still rings.
 */
export const PLACED_WITHIN_MS = 60_000;

const placed = new Map<string, number>();

/** Before the request goes: the phone system may ring the browser before the service answers it. */
export const notePlacedCall = (digits: string, at: number = Date.now()): void => {
  for (const [number, when] of placed) if (at - when > PLACED_WITHIN_MS) placed.delete(number);
  placed.set(digits, at);
};

/** Whether this page asked to call `digits` within the last minute; true once per call asked for. */
export const takePlacedCall = (digits: string, now: number = Date.now()): boolean => {
  const at = placed.get(digits);
  placed.delete(digits);
  return at !== undefined && now - at <= PLACED_WITHIN_MS;
};
