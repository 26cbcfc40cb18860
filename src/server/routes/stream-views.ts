/**
 * The change stream cut down to what a person may see, per stream: each log's events rewritten so
 * a supervisor's stream carries their queues' calls, agents and figures, and an agent's their own.
 * A stream that sees everything (a token, an admin) never comes here: it sends the shared text.
 * Each view remembers what it sent, so a call or agent that leaves the view is sent as removed.
 */
import { totalsOf, type Agent } from '../../contract/agents.js';
import type { CallRecord } from '../../contract/call-record.js';
import type { QueueFigures } from '../../contract/queues.js';
import type { CallSnapshot } from '../calls/call-snapshot.js';
import { selects, type QueueSelection } from '../queues/queue-selection.js';

/** A log's data rewritten for one stream: its whole state, and each change after it. */
export interface StreamView {
  snapshot(data: string): string;
  change(data: string): string;
}

/** A provider's calls as one stream may see them: the snapshot's visible records, then each change cut to them. */
export const callsView = (selection: QueueSelection) => {
  const sent = new Set<string>();
  return {
    /** The snapshot's visible records as a JSON array, in list order. */
    records(snapshot: CallSnapshot): string {
      sent.clear();
      const calls = snapshot.calls.filter((call) => selects(selection, call));
      for (const call of calls) sent.add(call.callID);
      return `[${calls.map((call) => snapshot.recordJSON(call)).join(',')}]`;
    },
    change(data: string): string {
      const event = JSON.parse(data) as { upserted: CallRecord[]; removed: string[] };
      const removed = event.removed.filter((callID) => sent.delete(callID));
      const upserted: CallRecord[] = [];
      for (const record of event.upserted) {
        if (selects(selection, record)) {
          sent.add(record.callID);
          upserted.push(record);
        } else if (sent.delete(record.callID)) removed.push(record.callID);
      }
      return JSON.stringify({ ...event, upserted, removed });
    },
  };
};

/** A provider's agent board as one stream may see it: the agents it may see, and their totals. */
export const agentsView = (visible: ReadonlySet<string>): StreamView => {
  const held = new Map<string, Agent>();
  return {
    snapshot(data) {
      const event = JSON.parse(data) as { agents: Agent[] };
      held.clear();
      const agents = event.agents.filter((agent) => visible.has(agent.subscriberID));
      for (const agent of agents) held.set(agent.subscriberID, agent);
      return JSON.stringify({ ...event, agents, totals: totalsOf(agents) });
    },
    change(data) {
      const event = JSON.parse(data) as { upserted: Agent[]; removed: string[] };
      const upserted = event.upserted.filter((agent) => visible.has(agent.subscriberID));
      const removed = event.removed.filter((id) => held.delete(id));
      for (const agent of upserted) held.set(agent.subscriberID, agent);
      return JSON.stringify({ ...event, upserted, removed, totals: totalsOf(held.values()) });
    },
  };
};

/** A provider's queue figures as one stream may see them: its queues, without the calls in no queue. */
export const queuesView = (visible: ReadonlySet<string>): StreamView => {
  const keep = (queues: QueueFigures[]) => queues.filter((queue) => visible.has(queue.queueID));
  return {
    snapshot(data) {
      const { unqueued: _hidden, ...event } = JSON.parse(data) as { queues: QueueFigures[]; unqueued?: unknown };
      return JSON.stringify({ ...event, queues: keep(event.queues) });
    },
    change(data) {
      const { unqueued: _hidden, ...event } = JSON.parse(data) as { upserted: QueueFigures[]; unqueued?: unknown };
      return JSON.stringify({ ...event, upserted: keep(event.upserted) });
    },
  };
};
