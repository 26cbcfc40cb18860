/**
 * The change stream's event IDs: one opaque token carrying, for each provider of the stream, the
 * change-log position the client's copy stands at. Anything unreadable resumes nothing.
 */
import { formatPosition, parsePosition, type LogPosition } from '../calls/change-log.js';

const PREFIX = 'c1.';

export class StreamCursor {
  private readonly positions: Map<string, LogPosition>;

  constructor(from?: ReadonlyMap<string, LogPosition>) {
    this.positions = new Map(from);
  }

  set(providerID: string, position: LogPosition): void {
    this.positions.set(providerID, position);
  }

  toString(): string {
    const byProvider = Object.fromEntries([...this.positions].map(([providerID, position]) => [providerID, formatPosition(position)]));
    return PREFIX + Buffer.from(JSON.stringify(byProvider), 'utf8').toString('base64url');
  }
}

/** The positions a Last-Event-ID names, or undefined when it is absent or not one of ours. */
export const parseStreamCursor = (header: string | string[] | undefined): Map<string, LogPosition> | undefined => {
  const text = Array.isArray(header) ? header[0] : header;
  if (!text?.startsWith(PREFIX) || text.length > 4096) return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(text.slice(PREFIX.length), 'base64url').toString('utf8'));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
    const positions = new Map<string, LogPosition>();
    for (const [providerID, value] of Object.entries(parsed)) {
      const position = typeof value === 'string' ? parsePosition(value) : undefined;
      if (position) positions.set(providerID, position);
    }
    return positions;
  } catch {
    return undefined;
  }
};
