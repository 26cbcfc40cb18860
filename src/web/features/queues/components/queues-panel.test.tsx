import { screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { QueueFigures, QueuePeriod } from '../../../../contract/queues.js';
import { applyQueueChanges } from '../../../lib/api/queues-query.js';
import { markQueuesReceived, QUEUES_TO_COMMIT } from '../../../lib/perf-marks.js';
import { renderWithApp } from '../../../test-support/render.js';
import type { QueuesFeed } from '../../../lib/api/use-queues.js';
import { QueuesPanel } from './queues-panel.js';

const period = (extra: Partial<QueuePeriod> = {}): QueuePeriod => ({
  offered: 100,
  answered: 90,
  answeredWithin: 72,
  shortAbandoned: 2,
  abandoned: 8,
  waiting: 0,
  serviceLevel: 0.735,
  abandonRate: 0.082,
  averageAnswerSeconds: 14.2,
  longestAnswerSeconds: 95,
  averageTalkSeconds: 180,
  ...extra,
});

const queue = (queueID: string, name: string, extra: Partial<QueueFigures> = {}): QueueFigures => ({
  queueID,
  name,
  numbers: [],
  providerQueues: [],
  members: ['agt-1', 'agt-2'],
  answerWithinSeconds: 20,
  shortAbandonSeconds: 5,
  serviceLevelTarget: 0.8,
  now: {
    waiting: 2,
    longestWaitSeconds: 40,
    oldestWaitingSince: new Date(Date.now() - 40_000).toISOString(),
    talking: 3,
    agents: { staffed: 9, available: 1, ringing: 0, onCall: 8, inactive: 0, offline: 1 },
  },
  today: period(),
  last15Minutes: period(),
  agentsNeeded: { agents: 12, serviceLevel: 0.83, offeredPerHour: 180, averageHandleSeconds: 200, basedOnMinutes: 30 },
  ...extra,
});

const feed = (queues: QueueFigures[]): QueuesFeed => ({
  status: 'ready',
  rows: queues.map((q) => ({ providerID: 'pbx', queue: q })),
  unqueued: [
    {
      providerID: 'pbx',
      figures: { now: { waiting: 0, longestWaitSeconds: 0, talking: 1 }, today: period({ serviceLevel: 1 }) },
    },
  ],
  partial: false,
});

describe('QueuesPanel', () => {
  it('says in words, not colour alone, which queue is below its own target and how many agents it is short', () => {
    renderWithApp(
      <QueuesPanel
        feed={feed([
          queue('support', 'Support'),
          queue('sales', 'Sales', {
            serviceLevelTarget: 0.7,
            agentsNeeded: { agents: 5, serviceLevel: 0.8, offeredPerHour: 40, averageHandleSeconds: 100, basedOnMinutes: 30 },
          }),
        ])}
        selected={[]}
        onSelect={() => undefined}
        showProvider={false}
      />,
    );
    const table = screen.getByRole('table');
    const support = within(table).getByRole('row', { name: /Support/ });
    expect(support).toHaveTextContent(/74\s%\s*Below target/);
    expect(support).toHaveTextContent(/target 80\s%/);
    expect(support).toHaveTextContent(/12 needed · 9 staffed\s*3 short/);
    const sales = within(table).getByRole('row', { name: /Sales/ });
    expect(sales).not.toHaveTextContent('Below target');
    expect(sales).not.toHaveTextContent('short');
    expect(screen.getByRole('region', { name: 'Queues' })).toHaveTextContent('2 queues · 1 below target');
  });

  it("adds and takes away a queue from the page's scope when its name is pressed", async () => {
    const onSelect = vi.fn();
    const { rerender } = renderWithApp(
      <QueuesPanel
        feed={feed([queue('support', 'Support'), queue('sales', 'Sales')])}
        selected={['sales']}
        onSelect={onSelect}
        showProvider={false}
      />,
    );
    const table = screen.getByRole('table');
    expect(within(table).getByRole('button', { name: '✓ Sales' })).toHaveAttribute('aria-pressed', 'true');
    await userEvent.click(within(table).getByRole('button', { name: 'Support' }));
    expect(onSelect).toHaveBeenLastCalledWith(['sales', 'support']);
    await userEvent.click(within(table).getByRole('button', { name: '✓ Sales' }));
    expect(onSelect).toHaveBeenLastCalledWith([]);
    await userEvent.click(within(table).getByRole('button', { name: 'No queue' }));
    expect(onSelect).toHaveBeenLastCalledWith(['sales', 'none']);
    rerender(<QueuesPanel feed={{ ...feed([]), rows: [] }} selected={[]} onSelect={onSelect} showProvider={false} />);
    expect(screen.queryByRole('region', { name: 'Queues' })).toBeNull();
  });

  it('measures from the figures written into the cache to the commit that shows them, once per arrival', () => {
    performance.clearMeasures();
    const measures = () => performance.getEntriesByName(QUEUES_TO_COMMIT, 'measure').length;
    const props = { selected: [], onSelect: () => undefined, showProvider: false };
    const { rerender } = renderWithApp(<QueuesPanel feed={feed([queue('support', 'Support')])} {...props} />);
    expect(measures()).toBe(0);
    markQueuesReceived();
    rerender(<QueuesPanel feed={feed([queue('support', 'Support', { today: period({ offered: 101 }) })])} {...props} />);
    expect(measures()).toBe(1);
    rerender(<QueuesPanel feed={feed([queue('support', 'Support', { today: period({ offered: 102 }) })])} {...props} />);
    expect(measures()).toBe(1);
    performance.clearMeasures();
  });

  it("applies a stream's change: a changed queue replaced where it stands, the others kept as they were", () => {
    const before = {
      figuresAt: '2026-11-22T09:00:00.000Z',
      dayStart: '2026-11-22T00:00:00.000Z',
      queues: [queue('support', 'Support'), queue('sales', 'Sales')],
      unqueued: feed([]).unqueued[0]!.figures,
    };
    const changed = queue('sales', 'Sales', { today: period({ offered: 101 }) });
    const after = applyQueueChanges(before, {
      providerID: 'pbx',
      cursor: 'e.2',
      figuresAt: '2026-11-22T09:00:05.000Z',
      dayStart: before.dayStart,
      upserted: [changed],
      unqueued: before.unqueued,
    });
    expect(after.queues[0]).toBe(before.queues[0]);
    expect(after.queues[1]).toBe(changed);
    expect(after.figuresAt).toBe('2026-11-22T09:00:05.000Z');
  });
});
