import { act, fireEvent, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CallRecord } from '../../../../contract/call-record.js';
import type * as Format from '../../../lib/format.js';
import { formatPhoneNumber } from '../../../lib/format.js';
import { renderWithApp } from '../../../test-support/render.js';
import { LiveCallsTable } from './live-calls-table.js';

vi.mock('../../../lib/format.js', async (importOriginal) => {
  const actual = await importOriginal<typeof Format>();
  return { ...actual, formatPhoneNumber: vi.fn(actual.formatPhoneNumber) };
});

// jsdom lays nothing out: give the scroll container a height so the virtualizer has a viewport.
const clientHeight = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientHeight');
beforeAll(() => {
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => 600 });
});
afterAll(() => {
  if (clientHeight) Object.defineProperty(HTMLElement.prototype, 'clientHeight', clientHeight);
});
// The clock stands still at NOW: ring times and durations read the same however long a busy machine takes.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'], now: NOW });
});
afterEach(() => {
  vi.useRealTimers();
  vi.clearAllMocks();
});

const NOW = Date.now();
const ago = (ms: number) => new Date(NOW - ms).toISOString();

const make = (callID: string, extra: Partial<CallRecord>): CallRecord => ({
  callID,
  providerCallID: `p-${callID}`,
  providerID: 'prov-1',
  providerName: 'Simulator',
  isOutbound: false,
  isMissedCall: false,
  remoteNumber: '15550100000',
  startedAt: ago(60_000),
  ...extra,
});

const ada = { subscriberID: 'sub-1', subscriberFirstName: 'Ada', subscriberLastName: 'Lovelace', subscriberExtension: '201' };
const alan = { subscriberID: 'sub-2', subscriberFirstName: 'Alan', subscriberLastName: 'Turing', subscriberExtension: '202' };

const longRinging = make('c-ring', { remoteNumber: '15550100001', remoteName: 'Grace Hopper', startedAt: ago(45_000), ...ada });
const talking = make('c-talk', {
  remoteNumber: '442079460958',
  remoteName: 'Tim Berners',
  isOutbound: true,
  startedAt: ago(5 * 60_000),
  answeredAt: ago(4 * 60_000),
  ...alan,
});
const missed = make('c-missed', {
  remoteNumber: '',
  remoteName: 'Unknown Caller',
  isMissedCall: true,
  startedAt: ago(10 * 60_000),
  endedAt: ago(9 * 60_000),
});
const ended = make('c-ended', {
  remoteNumber: '15550100004',
  remoteName: 'Linus Pauling',
  startedAt: ago(20 * 60_000),
  answeredAt: ago(19 * 60_000),
  endedAt: ago(2 * 60_000),
  ...ada,
});
const freshRinging = make('c-fresh', { remoteNumber: '15550100005', remoteName: 'Marie Curie', startedAt: ago(10_000), ...alan });

// The feed's order: oldest start first.
const calls = [ended, missed, talking, longRinging, freshRinging];

type Props = Parameters<typeof LiveCallsTable>[0];

const renderTable = (props: Partial<Props> = {}, url = '/') => {
  const tree = (next: Partial<Props>) => (
    <LiveCallsTable calls={calls} timeZone="UTC" showProvider={false} loading={false} {...next} />
  );
  const view = renderWithApp(tree(props), { url });
  return {
    ...view,
    user: userEvent.setup(),
    params: () => new URLSearchParams(view.location().search),
    rerenderWith: (next: Partial<Props>) => view.rerender(tree({ ...props, ...next })),
  };
};

const table = () => screen.getByRole('table', { name: 'Live calls' });
const bodyRows = () =>
  within(table())
    .getAllByRole('row')
    .filter((row) => row.getAttribute('aria-rowindex') !== '1');
const rowOf = (name: string) => {
  const row = bodyRows().find((candidate) => candidate.textContent?.includes(name));
  if (!row) throw new Error(`no row for ${name}`);
  return row;
};
const remoteNames = () =>
  bodyRows().map(
    (row) =>
      [longRinging, talking, missed, ended, freshRinging].find((c) => row.textContent?.includes(c.remoteName ?? '?'))?.remoteName,
  );

describe('LiveCallsTable', () => {
  it('lists the calls oldest first with a count line', () => {
    renderTable();
    expect(remoteNames()).toEqual(['Linus Pauling', 'Unknown Caller', 'Tim Berners', 'Grace Hopper', 'Marie Curie']);
    expect(screen.getByText('Showing all 5 calls')).toBeInTheDocument();
    expect(table()).toHaveAttribute('aria-rowcount', '6');
  });

  it('shows each state as a word beside its icon', () => {
    renderTable();
    expect(within(rowOf('Grace Hopper')).getByText('Ringing')).toBeInTheDocument();
    expect(within(rowOf('Tim Berners')).getByText('Talking')).toBeInTheDocument();
    expect(within(rowOf('Unknown Caller')).getByText('Missed')).toBeInTheDocument();
    expect(within(rowOf('Linus Pauling')).getByText('Ended')).toBeInTheDocument();
  });

  it('shows the remote party, subscriber, start time and direction', () => {
    renderTable();
    const row = rowOf('Tim Berners');
    expect(within(row).getByText('+44 20 7946 0958')).toBeInTheDocument();
    expect(within(row).getByText('Alan Turing')).toBeInTheDocument();
    expect(within(row).getByText('ext. 202')).toBeInTheDocument();
    expect(within(row).getByText('Outbound')).toBeInTheDocument();
    expect(within(row).getByText(new Date(talking.startedAt).toISOString().slice(11, 19))).toBeInTheDocument();
    expect(within(rowOf('Unknown Caller')).getByText('Withheld')).toBeInTheDocument();
  });

  it('reads numbers without a country code in the country of the URL, in the cell, its actions and the search', async () => {
    const local = make('c-local', { remoteNumber: '02079460958', remoteName: 'Local Caller' });
    const { user } = renderTable({ calls: [local, talking] }, '/?country=GB');
    const row = rowOf('Local Caller');
    expect(within(row).getByText('020 7946 0958')).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: 'Call back 020 7946 0958' })).toBeInTheDocument();

    await user.type(screen.getByRole('searchbox', { name: 'Search calls' }), '020 7946 0958');
    expect(bodyRows()).toHaveLength(2);
    expect(rowOf('Tim Berners')).toBeInTheDocument();
  });

  it('shows the final duration of ended calls and the ring time of ringing ones', () => {
    renderTable();
    expect(within(rowOf('Linus Pauling')).getByText('18:00')).toBeInTheDocument();
    expect(within(rowOf('Linus Pauling')).getByText('total')).toBeInTheDocument();
    expect(within(rowOf('Grace Hopper')).getByText('ringing')).toBeInTheDocument();
    // Rang 45 s before the module loaded, which a busy machine may have done some seconds ago.
    const shown = within(rowOf('Grace Hopper')).getByText(/^\d+:\d\d$/).textContent ?? '';
    const [minutes = 0, seconds = 0] = shown.split(':').map(Number);
    expect(minutes * 60 + seconds).toBeGreaterThanOrEqual(45);
    expect(minutes * 60 + seconds).toBeLessThanOrEqual(45 + Math.ceil((Date.now() - NOW) / 1000));
  });

  it('marks a call ringing past the threshold, and only that one', () => {
    renderTable();
    expect(within(rowOf('Grace Hopper')).getByText('Long ring')).toBeInTheDocument();
    expect(within(rowOf('Marie Curie')).queryByText('Long ring')).not.toBeInTheDocument();
    expect(within(rowOf('Linus Pauling')).queryByText(/long/i)).not.toBeInTheDocument();
  });

  it('sorts by a column header, says so with aria-sort, and keeps it in the URL', async () => {
    const { user, params } = renderTable();
    expect(screen.getByRole('columnheader', { name: /started/i })).toHaveAttribute('aria-sort', 'ascending');

    await user.click(screen.getByRole('button', { name: /duration/i }));
    expect(screen.getByRole('columnheader', { name: /duration/i })).toHaveAttribute('aria-sort', 'descending');
    expect(screen.getByRole('columnheader', { name: /started/i })).not.toHaveAttribute('aria-sort');
    expect(params().get('sort')).toBe('duration');
    expect(params().get('dir')).toBe('desc');
    expect(remoteNames()).toEqual(['Linus Pauling', 'Tim Berners', 'Unknown Caller', 'Grace Hopper', 'Marie Curie']);

    await user.click(screen.getByRole('button', { name: /remote party/i }));
    expect(params().get('dir')).toBe('asc');
    expect(remoteNames()).toEqual(['Grace Hopper', 'Linus Pauling', 'Marie Curie', 'Tim Berners', 'Unknown Caller']);
    await user.click(screen.getByRole('button', { name: /remote party/i }));
    expect(screen.getByRole('columnheader', { name: /remote party/i })).toHaveAttribute('aria-sort', 'descending');
    expect(remoteNames()[0]).toBe('Unknown Caller');
  });

  it('restores the sort and filters from a shared URL', () => {
    renderTable({}, '/?sort=started&dir=desc&state=ringing');
    expect(remoteNames()).toEqual(['Marie Curie', 'Grace Hopper']);
    expect(screen.getByText('Showing 2 of 5 calls')).toBeInTheDocument();
  });

  it('filters by state', async () => {
    const { user, params } = renderTable();
    await user.click(screen.getByRole('button', { name: /^state/i, expanded: false }));
    await user.click(screen.getByRole('checkbox', { name: /ringing/i }));
    await user.click(screen.getByRole('checkbox', { name: /missed/i }));
    expect(params().getAll('state')).toEqual(['ringing', 'missed']);
    expect(remoteNames()).toEqual(['Unknown Caller', 'Grace Hopper', 'Marie Curie']);
    expect(screen.getByText('Showing 3 of 5 calls')).toBeInTheDocument();
  });

  it('filters by direction', async () => {
    const { user, params } = renderTable();
    await user.click(screen.getByRole('button', { name: /^direction/i, expanded: false }));
    await user.click(screen.getByRole('checkbox', { name: /outbound/i }));
    expect(params().get('direction')).toBe('outbound');
    expect(remoteNames()).toEqual(['Tim Berners']);
  });

  it('filters by subscriber, found by typing, and names the choice on the closed filter', async () => {
    const { user, params } = renderTable();
    await user.click(screen.getByRole('button', { name: /^subscriber/i, expanded: false }));
    expect(screen.getByRole('searchbox', { name: 'Find a subscriber' })).toHaveFocus();
    await user.keyboard('lovel');
    expect(screen.getAllByRole('radio').map((radio) => radio.closest('label')?.textContent)).toEqual(['Ada Lovelace (ext. 201)2']);
    await user.click(screen.getByRole('radio', { name: /Ada Lovelace/ }));
    expect(params().get('subscriber')).toBe('sub-1');
    expect(remoteNames()).toEqual(['Linus Pauling', 'Grace Hopper']);
    await user.clear(screen.getByRole('searchbox', { name: 'Find a subscriber' }));
    await user.click(screen.getByRole('radio', { name: /Not assigned/ }));
    expect(remoteNames()).toEqual(['Unknown Caller']);
    await user.keyboard('{Escape}');
    expect(screen.getByRole('button', { name: /^subscriber/i, expanded: false })).toHaveTextContent('Not assigned');
    expect(screen.queryByRole('radio')).not.toBeInTheDocument();
  });

  it('searches numbers as typed, names, extensions and call IDs', async () => {
    const { user, params } = renderTable();
    const search = screen.getByRole('searchbox', { name: 'Search calls' });
    await user.type(search, '+1 (555) 010-0001');
    expect(params().get('search')).toBe('+1 (555) 010-0001');
    expect(remoteNames()).toEqual(['Grace Hopper']);
    await user.clear(search);
    await user.type(search, 'turing');
    expect(remoteNames()).toEqual(['Tim Berners', 'Marie Curie']);
    await user.clear(search);
    await user.type(search, 'c-missed');
    expect(remoteNames()).toEqual(['Unknown Caller']);
    await user.clear(search);
    expect(params().has('search')).toBe(false);
    expect(remoteNames()).toHaveLength(5);
  });

  it('explains an empty result and clears the filters on request', async () => {
    const { user, params } = renderTable({}, '/?state=talking&search=nobody&sort=duration&dir=desc');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.getByText('No calls match these filters')).toBeInTheDocument();
    expect(screen.getByText('Showing 0 of 5 calls')).toBeInTheDocument();
    await user.click(screen.getAllByRole('button', { name: 'Clear filters' }).at(-1)!);
    expect(remoteNames()).toHaveLength(5);
    expect(screen.getByRole('searchbox', { name: 'Search calls' })).toHaveValue('');
    expect(params().toString()).toBe('sort=duration&dir=desc');
  });

  it('says when there are no calls at all, and does not claim so while loading', () => {
    const { rerenderWith } = renderTable({ calls: [], loading: true });
    expect(screen.getByText('Loading calls…')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.queryByText(/no calls/i)).not.toBeInTheDocument();
    rerenderWith({ calls: [], loading: false });
    expect(screen.getByText('No calls right now')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Clear filters' })).not.toBeInTheDocument();
  });

  it('hides columns and keeps the choice in the URL', async () => {
    const { user, params } = renderTable();
    await user.click(screen.getByRole('button', { name: /columns/i }));
    expect(screen.getByRole('checkbox', { name: /state/i })).toBeDisabled();
    await user.click(screen.getByRole('checkbox', { name: 'Started' }));
    expect(screen.queryByRole('columnheader', { name: /started/i })).not.toBeInTheDocument();
    expect(params().getAll('hide')).toEqual(['started']);
  });

  it('shows the hidden columns of a shared URL hidden, and the provider only when asked', () => {
    const { rerenderWith } = renderTable({}, '/?hide=direction&hide=actions');
    expect(screen.queryByRole('columnheader', { name: /direction/i })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /call back/i })).not.toBeInTheDocument();
    expect(screen.queryByRole('columnheader', { name: /provider/i })).not.toBeInTheDocument();
    rerenderWith({ showProvider: true });
    expect(screen.getByRole('columnheader', { name: /provider/i })).toBeInTheDocument();
  });

  it('calls back by putting the number and subscriber in the URL for the click-to-call form', async () => {
    const { user, params } = renderTable({}, '/?tz=UTC');
    await user.click(within(rowOf('Grace Hopper')).getByRole('button', { name: 'Call back +1 (555) 010-0001' }));
    expect(params().get('dial')).toBe('15550100001');
    expect(params().get('agent')).toBe('sub-1');
    expect(params().get('tz')).toBe('UTC');
  });

  it('explains why a withheld number cannot be called back', async () => {
    const { user, params } = renderTable();
    const button = within(rowOf('Unknown Caller')).getByRole('button', { name: 'Call back' });
    expect(button).toHaveAttribute('aria-disabled', 'true');
    expect(button).toHaveAccessibleDescription(/withheld/i);
    await user.click(button);
    expect(params().has('dial')).toBe(false);
  });

  it('copies the number and confirms it visibly', async () => {
    const { user } = renderTable();
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
    await user.click(within(rowOf('Grace Hopper')).getByRole('button', { name: /copy number/i }));
    expect(writeText).toHaveBeenCalledWith('15550100001');
    expect(within(rowOf('Grace Hopper')).getByText('Copied')).toBeInTheDocument();
  });

  it('exports the filtered, sorted rows as a dated CSV file', async () => {
    const { user } = renderTable({}, '/?state=ringing&sort=started&dir=desc');
    const blobs: Blob[] = [];
    URL.createObjectURL = vi.fn((blob: Blob) => {
      blobs.push(blob);
      return 'blob:calls';
    });
    URL.revokeObjectURL = vi.fn();
    const names: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    click.mockRestore();
    const text = await blobs[0]!.text();
    const lines = text
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/^c-fresh,/);
    // The duration is read from the real clock at export, however long the suite took to get here.
    const ringingSeconds = Math.floor((Date.now() - Date.parse(longRinging.startedAt)) / 1000);
    const [, seconds] = /^c-ring,.*,ringing,(\d+),ring$/.exec(lines[2] ?? '') ?? [];
    expect(Number(seconds)).toBeGreaterThanOrEqual(45);
    expect(Number(seconds)).toBeLessThanOrEqual(ringingSeconds);
    expect(names[0]).toMatch(/^callboard-calls-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z\.csv$/);
  });

  it('applies new thresholds from its editor at once', async () => {
    const { user } = renderTable();
    expect(within(rowOf('Marie Curie')).queryByText('Long ring')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /thresholds/i }));
    // The settings forms load when first needed (the live view loads them after its first data).
    const ring = await screen.findByRole('spinbutton', { name: 'Long ring after' });
    await user.clear(ring);
    await user.type(ring, '5');
    await user.click(screen.getByRole('button', { name: 'Save thresholds' }));
    expect(within(rowOf('Marie Curie')).getByText('Long ring')).toBeInTheDocument();
  });

  it('does not re-render rows whose call did not change', () => {
    const { rerenderWith } = renderTable();
    const renders = (digits: string) => vi.mocked(formatPhoneNumber).mock.calls.filter(([value]) => value === digits).length;
    const before = { talking: renders(talking.remoteNumber), ringing: renders(longRinging.remoteNumber) };

    const answered = { ...longRinging, answeredAt: new Date().toISOString() };
    const newcomer = make('c-new', {
      remoteNumber: '15550100009',
      remoteName: 'New Caller',
      startedAt: new Date().toISOString(),
    });
    act(() => rerenderWith({ calls: [ended, missed, talking, answered, freshRinging, newcomer] }));

    expect(within(rowOf('Grace Hopper')).getByText('Talking')).toBeInTheDocument();
    expect(renders(talking.remoteNumber)).toBe(before.talking);
    expect(renders(longRinging.remoteNumber)).toBeGreaterThan(before.ringing);
    expect(rowOf('New Caller')).toHaveAttribute('aria-rowindex', '7');
  });

  it('renders only the rows in view out of thousands', () => {
    const many = Array.from({ length: 2000 }, (_, i) =>
      make(`bulk-${i}`, {
        remoteNumber: `1555${String(i).padStart(7, '0')}`,
        startedAt: new Date(NOW - 3_600_000 + i * 1000).toISOString(),
      }),
    );
    renderTable({ calls: many });
    const rendered = bodyRows();
    expect(table()).toHaveAttribute('aria-rowcount', '2001');
    expect(rendered.length).toBeGreaterThan(5);
    expect(rendered.length).toBeLessThan(60);
    expect(rendered[0]).toHaveAttribute('aria-rowindex', '2');
    expect(screen.getByText('Showing all 2,000 calls')).toBeInTheDocument();

    const scroller = table().parentElement!;
    Object.defineProperty(scroller, 'scrollTop', { configurable: true, value: 1500 * 52 });
    act(() => {
      fireEvent.scroll(scroller);
    });
    const indexes = bodyRows().map((row) => Number(row.getAttribute('aria-rowindex')));
    expect(indexes.length).toBeLessThan(60);
    expect(indexes).toContain(1502);
    expect(indexes).not.toContain(2);
  });

  it('lets the keyboard reach the sort buttons, then the row actions', async () => {
    const { user } = renderTable();
    const reached: string[] = [];
    for (let i = 0; i < 20 && !reached.includes('Call back'); i++) {
      await user.tab();
      const name = document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent ?? '';
      reached.push(name.startsWith('Call back') ? 'Call back' : name);
    }
    expect(reached.indexOf('Duration')).toBeGreaterThan(-1);
    expect(reached.indexOf('Duration')).toBeLessThan(reached.indexOf('Call back'));
  });
});
