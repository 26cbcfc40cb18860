/** Lets a simulator request run, or fails it as a demo outage would: at once, or by stalling until aborted. */
import { ProviderFailure } from '../phone-system.js';

export type SimulatedFailure = 'unavailable' | 'error' | 'timeout' | 'stall';

const FAILURE_MESSAGES = {
  unavailable: 'the simulated phone system is down (outage demo)',
  error: 'the simulated phone system answered 500 Internal Server Error (outage demo)',
  timeout: 'the simulated phone system did not answer in time (outage demo)',
} as const;

export class RequestGate {
  private failure: SimulatedFailure | null = null;
  private closed = false;
  private readonly stalled = new Set<(error: ProviderFailure) => void>();

  setFailure(mode: SimulatedFailure | null): void {
    this.failure = mode;
  }

  /** Refuses every later request; requests stalled so far fail as the connection drops. */
  close(): void {
    this.closed = true;
    for (const fail of this.stalled) fail(closedFailure());
  }

  run<T>(signal: AbortSignal, work: () => T): Promise<T> {
    const refusal = this.refusal(signal);
    if (refusal) return Promise.reject(refusal);
    if (this.failure === 'stall') return this.stall(signal);
    try {
      return Promise.resolve(work());
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }

  private refusal(signal: AbortSignal): ProviderFailure | undefined {
    if (this.closed) return closedFailure();
    if (signal.aborted) return new ProviderFailure('timeout', 'the request was aborted before the simulator answered');
    if (this.failure && this.failure !== 'stall') return new ProviderFailure(this.failure, FAILURE_MESSAGES[this.failure]);
    return undefined;
  }

  private stall(signal: AbortSignal): Promise<never> {
    return new Promise((_, reject) => {
      const fail = (error: ProviderFailure) => {
        this.stalled.delete(fail);
        signal.removeEventListener('abort', onAbort);
        reject(error);
      };
      const onAbort = () => fail(new ProviderFailure('timeout', 'the simulated phone system stalled (outage demo)'));
      this.stalled.add(fail);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }
}

const closedFailure = () => new ProviderFailure('unavailable', 'the simulator has been closed');
