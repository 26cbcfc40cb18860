/** A phone system whose calls and failures a test sets directly, and which records what it was asked. */
import type { Subscriber } from '../../contract/subscriber.js';
import {
  type CallUpdate,
  ProviderFailure,
  SubscriberRejection,
  type PhoneSystem,
  type PhoneSystemControl,
  type PlaceCallRequest,
  type ProviderCall,
  type ProviderFailureKind,
  type ProviderWebhook,
} from '../providers/phone-system.js';

export type ScriptedFailure = ProviderFailureKind | 'stall' | null;

export class ScriptedPhoneSystem implements PhoneSystem {
  calls: ProviderCall[] = [];
  subscribers: Subscriber[] = [];
  failure: ScriptedFailure = null;
  listRequests = 0;
  readonly placed: PlaceCallRequest[] = [];
  /** Delay before placeCall settles, to let tests overlap requests. */
  placeDelayMs = 0;
  /** Offered only when a test sets it, as a provider offers it only when its config enables it. */
  control?: PhoneSystemControl;
  /** Offered only when a test sets it: a phone system that tells of its changes. */
  watchChanges?: (onChange: () => void) => () => void;
  /** Offered only when a test sets it: a connection over which the phone system pushes updates. */
  streamUpdates?: PhoneSystem['streamUpdates'];
  /** Offered only when a test sets it: a webhook the provider pushes updates to. */
  webhook?: ProviderWebhook;
  /** Offered only when a test sets it (see `endsCalls`): a phone system that can end a live call. */
  endCall?: (call: ProviderCall, signal: AbortSignal) => Promise<CallUpdate[] | void>;
  /** The calls it was asked to end, by ID. */
  readonly ended: string[] = [];
  /** What the phone system tells of each call it places, taken in as pushed updates. */
  placedUpdates?: (request: PlaceCallRequest) => CallUpdate[];
  /**
   * Awaited after a list is read and before it is answered, so a test can act while a list is on
   * its way: the list answers the calls as they were when it was asked.
   */
  listLatency?: () => Promise<void>;

  async listCalls(signal: AbortSignal): Promise<ProviderCall[]> {
    this.listRequests += 1;
    await this.failIfSet(signal);
    const calls = this.calls.map((call) => ({ ...call }));
    await this.listLatency?.();
    return calls;
  }

  async placeCall(request: PlaceCallRequest, signal: AbortSignal): Promise<CallUpdate[] | void> {
    await this.failIfSet(signal);
    const subscriber = this.subscribers.find((s) => s.providerSubscriberID === request.providerSubscriberID);
    if (!subscriber) throw new SubscriberRejection('subscriber_not_found', `No subscriber "${request.providerSubscriberID}".`);
    if (!subscriber.registered)
      throw new SubscriberRejection('subscriber_not_registered', `Extension ${subscriber.extension} is not registered: their phone is offline.`);
    if (!subscriber.active) throw new SubscriberRejection('subscriber_inactive', `Extension ${subscriber.extension} is inactive.`);
    if (this.placeDelayMs) await new Promise((resolve) => setTimeout(resolve, this.placeDelayMs));
    this.placed.push(request);
    return this.placedUpdates?.(request);
  }

  /**
   * Lets it end calls: an ended call leaves its list as a hang-up on the switch does (the sync then
   * closes it), or the phone system fails or refuses as `refuse` says.
   */
  endsCalls(refuse?: (call: ProviderCall) => Error | undefined): this {
    this.endCall = async (call, signal) => {
      await this.failIfSet(signal);
      const refusal = refuse?.(call);
      if (refusal) throw refusal;
      this.ended.push(call.callID);
      this.calls = this.calls.filter((known) => known.callID !== call.callID);
    };
    return this;
  }

  async listSubscribers(signal: AbortSignal): Promise<Subscriber[]> {
    await this.failIfSet(signal);
    return this.subscribers;
  }

  async close(): Promise<void> {}

  private async failIfSet(signal: AbortSignal): Promise<void> {
    if (this.failure === null) return;
    if (this.failure === 'stall')
      return new Promise((_resolve, reject) =>
        signal.addEventListener('abort', () => reject(new ProviderFailure('timeout', 'stalled')), { once: true }),
      );
    throw new ProviderFailure(this.failure, `scripted ${this.failure}`);
  }
}

export const subscriber = (overrides: Partial<Subscriber> & Pick<Subscriber, 'providerSubscriberID'>): Subscriber => ({
  firstName: 'Maya',
  lastName: 'Chen',
  email: 'maya.chen@example.com',
  extension: '104',
  number: '15555550104',
  registered: true,
  active: true,
  ...overrides,
});
