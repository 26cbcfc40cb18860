/**
 * Reads the `text/event-stream` wire format (the WHATWG rules for fields, comments and line
 * ends) chunk by chunk: the change stream's clients, the dashboard and the service's tests, share it.
 */

export interface ServerSentEvent {
  event: string;
  data: string;
  /** The stream's last event ID after this event (it carries over from earlier events). */
  id: string;
}

export interface EventStreamParser {
  /** Feeds decoded text; returns the events it completed. */
  push(text: string): ServerSentEvent[];
  /** The `retry:` the server asked for, in ms, if any. */
  readonly retryMs: number | undefined;
}

export const createEventStreamParser = (): EventStreamParser => {
  let buffer = '';
  let event = '';
  let data: string[] = [];
  let lastID = '';
  let retryMs: number | undefined;

  const field = (line: string, out: ServerSentEvent[]) => {
    if (line === '') {
      if (data.length > 0) out.push({ event: event || 'message', data: data.join('\n'), id: lastID });
      event = '';
      data = [];
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const name = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (name === 'event') event = value;
    else if (name === 'data') data.push(value);
    else if (name === 'id' && !value.includes('\0')) lastID = value;
    else if (name === 'retry' && /^\d+$/.test(value)) retryMs = Number(value);
  };

  return {
    push(text) {
      buffer += text;
      const out: ServerSentEvent[] = [];
      let start = 0;
      for (let i = 0; i < buffer.length; i += 1) {
        const char = buffer[i];
        if (char !== '\n' && char !== '\r') continue;
        // A "\r" at the very end may be the first half of "\r\n": wait for the next chunk.
        if (char === '\r' && i === buffer.length - 1) break;
        field(buffer.slice(start, i), out);
        if (char === '\r' && buffer[i + 1] === '\n') i += 1;
        start = i + 1;
      }
      buffer = buffer.slice(start);
      return out;
    },
    get retryMs() {
      return retryMs;
    },
  };
};
