/** Bodies of the simulator's fault-injection routes (our extension, for outage drills and tests). */
import { z } from 'zod';

export const simulatorFailureSchema = z.strictObject({ mode: z.enum(['unavailable', 'error', 'timeout', 'stall']).nullable() }).meta({ id: 'SimulatorFailure' });
export type SimulatorFailure = z.infer<typeof simulatorFailureSchema>;

const simulatedMs = z.number().int().min(0).max(3_600_000);

/** How the next call placed through the API goes; what is left out is drawn as usual. Simulated ms. */
export const nextPlacedCallSchema = z.strictObject({
  agent: z.enum(['answer', 'no-answer']).optional(),
  agentRingMs: simulatedMs.optional(),
  remote: z.enum(['answer', 'busy', 'no-answer']).optional(),
  remoteRingMs: simulatedMs.optional(),
  talkMs: simulatedMs.optional(),
}).meta({ id: 'NextPlacedCall' });
export type NextPlacedCall = z.infer<typeof nextPlacedCallSchema>;
