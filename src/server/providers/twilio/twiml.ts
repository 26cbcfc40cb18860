/** The TwiML the service gives Twilio with a call it places: once the first leg answers, dial the other party. */

const escapeXml = (text: string): string =>
  text.replace(/[<>&'"]/g, (char) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[char] as string);

export interface DialTwimlOptions {
  /** The caller ID the dialed party sees. */
  callerID: string;
  timeoutSeconds: number;
  /** `+digits`, `client:NAME` or `sip:...`. */
  to: string;
  /** Where the dialed leg's status callbacks go; none: no callbacks for it. */
  statusCallback?: string;
}

/** The noun of `<Dial>` for an address: a phone number, a Voice SDK client or a SIP address. */
const noun = (to: string, callbacks: string): string => {
  if (/^client:/i.test(to)) return `<Client${callbacks}>${escapeXml(to.slice('client:'.length))}</Client>`;
  if (/^sip:/i.test(to)) return `<Sip${callbacks}>${escapeXml(to)}</Sip>`;
  return `<Number${callbacks}>${escapeXml(to)}</Number>`;
};

export const dialTwiml = (options: DialTwimlOptions): string => {
  const callbacks = options.statusCallback
    ? ` statusCallbackEvent="initiated ringing answered completed" statusCallback="${escapeXml(options.statusCallback)}" statusCallbackMethod="POST"`
    : '';
  return (
    '<?xml version="1.0" encoding="UTF-8"?>' +
    `<Response><Dial callerId="${escapeXml(options.callerID)}" timeout="${options.timeoutSeconds}">${noun(options.to, callbacks)}</Dial></Response>`
  );
};
