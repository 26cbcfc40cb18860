import { afterEach, describe, expect, it, vi } from 'vitest';
import { agent } from '../../test-support/agents.js';
import { callRecord } from '../../test-support/call-record.js';
import { stubFetch, type StubRequest } from '../../test-support/fetch-stub.js';
import { ApiClient } from './api-client.js';
import { CallStream, type StreamHandlers, type StreamState } from './call-stream.js';

const STREAM = 'GET /v1/accounts/:accountID/applications/:applicationID/calls/stream';
const target = { accountID: 'demo', applicationID: 'support', providers: ['pbx-main'] };

/** An event-stream answer whose body is these chunks, then (unless `open`) its end. */
const eventStream = (chunks: string[], { open = false } = {}) =>
  new Response(
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
        if (!open) controller.close();
      },
    }),
    { headers: { 'content-type': 'text/event-stream' } },
  );

const event = (name: string, id: string, data: unknown) => `event: ${name}\nid: ${id}\ndata: ${JSON.stringify(data)}\n\n`;
const snapshot = (id: string, calls = [callRecord('a')]) =>
  event('snapshot', id, { providerID: 'pbx-main', cursor: id, calls, snapshotAgeMs: 120 });
const changes = (id: string, upserted: string[], removed: string[] = []) =>
  event('changes', id, { providerID: 'pbx-main', cursor: id, upserted: upserted.map((callID) => callRecord(callID)), removed });
const problem = (status: number, code: string) =>
  Response.json(
    { type: 'about:blank', title: 'Refused', status, detail: `refused with ${code}`, code },
    { status, headers: { 'content-type': 'application/problem+json' } },
  );

const recorder = () => {
  const seen: string[] = [];
  const handlers: StreamHandlers = {
    onSnapshot: (e) => seen.push(`snapshot ${e.calls.map((c) => c.callID).join(',')}`),
    onChanges: (e) => seen.push(`changes +${e.upserted.map((c) => c.callID).join(',')} -${e.removed.join(',')}`),
    onStatus: (e) => seen.push(`status ${e.available}`),
  };
  return { seen, handlers };
};

const openStream = (handlers: StreamHandlers) => {
  const stream = new CallStream(new ApiClient({ kind: 'token', baseURL: '', token: 't', remember: false }), target, handlers);
  const states: StreamState[] = [];
  stream.subscribe(() => states.push(stream.getState()));
  return { stream, states };
};

let running: CallStream | undefined;
afterEach(() => {
  running?.stop();
  vi.useRealTimers();
});

describe('CallStream', () => {
  it('hands on the snapshot and each change in order, and says it streams', async () => {
    const requests: StubRequest[] = [];
    stubFetch({
      [STREAM]: (request) => {
        requests.push(request);
        return eventStream([snapshot('c1.1'), changes('c1.2', ['b']), changes('c1.3', [], ['a'])], { open: true });
      },
    });
    const { seen, handlers } = recorder();
    const { stream } = openStream(handlers);
    running = stream;
    stream.start();
    await vi.waitFor(() => expect(seen).toHaveLength(3));
    expect(seen).toEqual(['snapshot a', 'changes +b -', 'changes + -a']);
    expect(stream.getState().mode).toBe('streaming');
    expect(requests[0]?.url.searchParams.get('providers')).toBe('pbx-main');
    // The token goes in the header, never in the URL.
    expect(new Headers(requests[0]?.init?.headers).get('authorization')).toBe('Bearer t');
    expect(requests[0]?.url.search).not.toContain('t=');
  });

  it('asks for the agent board when told to, and hands on its snapshot and changes', async () => {
    const requests: StubRequest[] = [];
    const board = { providerID: 'pbx-main', cursor: 'b.1', agents: [agent('agt-1')], totals: { offline: 0, inactive: 0, available: 1, ringing: 0, onCall: 0 }, dayStart: '2026-11-26T00:00:00.000Z', figuresAt: '2026-11-26T09:00:00.000Z' };
    const change = { ...board, cursor: 'b.2', upserted: [agent('agt-1', { state: 'ringing', callID: 'c9' })], removed: [], agents: undefined };
    stubFetch({
      [STREAM]: (request) => {
        requests.push(request);
        return eventStream([snapshot('c1.1'), event('agents', 'c1.2', board), event('agent-changes', 'c1.3', change)], { open: true });
      },
    });
    const seen: string[] = [];
    const { handlers } = recorder();
    const stream = new CallStream(new ApiClient({ kind: 'token', baseURL: '', token: 't', remember: false }), { ...target, include: ['agents'] }, {
      ...handlers,
      onAgents: (e) => seen.push(`agents ${e.agents.map((a) => a.state).join(',')}`),
      onAgentChanges: (e) => seen.push(`agent-changes ${e.upserted.map((a) => `${a.subscriberID} ${a.state}`).join(',')}`),
    });
    running = stream;
    stream.start();
    await vi.waitFor(() => expect(seen).toHaveLength(2));
    expect(seen).toEqual(['agents available', 'agent-changes agt-1 ringing']);
    expect(requests[0]?.url.searchParams.get('include')).toBe('agents');
  });

  it('resumes with Last-Event-ID after the service ends the stream, and after a stop and start', async () => {
    const resumedFrom: (string | null)[] = [];
    stubFetch({
      [STREAM]: ({ init }) => {
        const lastID = new Headers(init?.headers).get('last-event-id');
        resumedFrom.push(lastID);
        // `retry: 5` makes the client come back at once, as a service restarting would ask.
        return lastID
          ? eventStream([changes(`c1.${resumedFrom.length + 2}`, ['z'])], { open: true })
          : eventStream(['retry: 5\n\n', snapshot('c1.1'), changes('c1.2', ['b'])]);
      },
    });
    const { seen, handlers } = recorder();
    const { stream } = openStream(handlers);
    running = stream;
    stream.start();
    await vi.waitFor(() => expect(resumedFrom).toEqual([null, 'c1.2']));
    await vi.waitFor(() => expect(seen).toEqual(['snapshot a', 'changes +b -', 'changes +z -']));

    stream.stop();
    stream.start();
    await vi.waitFor(() => expect(resumedFrom).toEqual([null, 'c1.2', 'c1.4']));
  });

  it('starts over from a snapshot when the data it would resume on is gone', async () => {
    const resumedFrom: (string | null)[] = [];
    stubFetch({
      [STREAM]: ({ init }) => {
        resumedFrom.push(new Headers(init?.headers).get('last-event-id'));
        return eventStream([snapshot('c1.1')], { open: true });
      },
    });
    const { stream } = openStream(recorder().handlers);
    running = stream;
    stream.start();
    await vi.waitFor(() => expect(stream.getState().mode).toBe('streaming'));
    stream.stop();
    stream.start(() => false);
    await vi.waitFor(() => expect(resumedFrom).toEqual([null, null]));
  });

  it.each([
    [404, 'not_found'],
    [401, 'unauthorized'],
    [403, 'forbidden'],
  ])('polls at once when the service answers %i, and says why', async (status, code) => {
    stubFetch({ [STREAM]: () => problem(status, code) });
    const { stream, states } = openStream(recorder().handlers);
    running = stream;
    stream.start();
    await vi.waitFor(() => expect(stream.getState().mode).toBe('polling'));
    expect(stream.getState().reason).toBe(`refused with ${code}`);
    expect(states.some((s) => s.mode === 'streaming')).toBe(false);
  });

  it('polls when something on the way answers with other than events', async () => {
    stubFetch({ [STREAM]: () => new Response('<html>proxy</html>', { headers: { 'content-type': 'text/html' } }) });
    const { stream } = openStream(recorder().handlers);
    running = stream;
    stream.start();
    await vi.waitFor(() => expect(stream.getState().mode).toBe('polling'));
    expect(stream.getState().reason).toMatch(/other than events/);
  });

  it('polls after three failures in a row, and streams again once the service can', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let healthy = false;
    stubFetch({
      [STREAM]: () => (healthy ? eventStream([snapshot('c1.1')], { open: true }) : problem(503, 'provider_unavailable')),
    });
    const { stream } = openStream(recorder().handlers);
    running = stream;
    stream.start();
    await vi.waitFor(async () => {
      await vi.advanceTimersByTimeAsync(5_000);
      expect(stream.getState().mode).toBe('polling');
    });
    healthy = true;
    await vi.waitFor(async () => {
      await vi.advanceTimersByTimeAsync(30_000);
      expect(stream.getState().mode).toBe('streaming');
    });
  });

  it('starts over without a cursor when an event does not match the API', async () => {
    const resumedFrom: (string | null)[] = [];
    stubFetch({
      [STREAM]: ({ init }) => {
        resumedFrom.push(new Headers(init?.headers).get('last-event-id'));
        return resumedFrom.length === 1
          ? eventStream([
              'retry: 5\n\n',
              snapshot('c1.1'),
              event('changes', 'c1.2', { providerID: 'pbx-main', cursor: 'c1.2', upserted: [{ callID: 1 }], removed: [] }),
            ])
          : eventStream([snapshot('c1.3')], { open: true });
      },
    });
    const { seen, handlers } = recorder();
    const { stream } = openStream(handlers);
    running = stream;
    stream.start();
    await vi.waitFor(() => expect(resumedFrom).toHaveLength(2));
    expect(resumedFrom[1]).toBeNull();
    await vi.waitFor(() => expect(seen).toEqual(['snapshot a', 'snapshot a']));
  });
});
