/** The agents of a Twilio provider, found by the device Twilio dials them at or by their own number. */
import type { Subscriber } from '../../../contract/subscriber.js';
import { toSubscriber, type AgentPerson } from '../agent-person.js';

export interface TwilioAgent extends AgentPerson {
  /** `client:NAME`, `sip:user@domain` or digits. */
  device: string;
}

/** Digits of a phone number as Twilio writes it (`+15551230101`); '' for a client or SIP address, or none. */
export const digitsOf = (address: string | null | undefined): string => {
  if (!address || /^(client|sip):/i.test(address)) return '';
  const digits = address.replace(/[^0-9]/g, '');
  return digits.length > 0 && digits.length <= 15 ? digits : '';
};

/** A device address as comparable text: a client's identity as is, a SIP address without its parameters, a phone number's digits. */
export const deviceKey = (address: string): string => {
  if (/^client:/i.test(address)) return `client:${address.slice('client:'.length)}`;
  if (/^sip:/i.test(address)) return `sip:${address.slice('sip:'.length).split(/[;?]/, 1)[0]?.toLowerCase() ?? ''}`;
  return digitsOf(address);
};

/** What Twilio is asked to dial to reach a device: a client and a SIP address as they are, a number in E.164. */
export const dialAddress = (device: string): string => (/^(client|sip):/i.test(device) ? device : `+${device}`);

export class AgentDirectory {
  private readonly byDeviceKey: Map<string, TwilioAgent>;
  private readonly byOwnNumber: Map<string, TwilioAgent>;
  private readonly byID: Map<string, TwilioAgent>;

  constructor(readonly agents: readonly TwilioAgent[]) {
    this.byDeviceKey = new Map(agents.map((agent) => [deviceKey(agent.device), agent]));
    this.byOwnNumber = new Map(agents.map((agent) => [agent.number, agent]));
    this.byID = new Map(agents.map((agent) => [agent.subscriberID, agent]));
  }

  /** The agent whose device this address is (a leg's `to`). */
  byDevice(address: string | null | undefined): TwilioAgent | undefined {
    return address ? this.byDeviceKey.get(deviceKey(address)) : undefined;
  }

  /** The agent whose own number this is (a direct call's `from`). */
  byNumber(address: string | null | undefined): TwilioAgent | undefined {
    const digits = digitsOf(address);
    return digits ? this.byOwnNumber.get(digits) : undefined;
  }

  bySubscriberID(id: string): TwilioAgent | undefined {
    return this.byID.get(id);
  }

  /**
   * Twilio's Voice API has no presence for clients, SIP addresses or phones: whether a device can be
   * reached is known only by calling it, so `registered` is null (unknown), never guessed.
   */
  subscribers(): Subscriber[] {
    return this.agents.map((agent) => toSubscriber(agent, null));
  }
}
