import { screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EXPORT_COUNT_HEADER, RETENTION_CUT_HEADER } from '../../../../contract/reports.js';
import { stubFetch, type StubRequest } from '../../../test-support/fetch-stub.js';
import { renderWithApp } from '../../../test-support/render.js';
import { ExportCalls } from './export-calls.js';

const scope = { accountID: 'demo', applicationID: 'support', providerID: 'pbx-main' };
const request = {
  window: { from: Date.parse('2026-11-01T00:00:00Z'), to: Date.parse('2026-11-08T00:00:00Z') },
  queueParam: 'sales',
};
const days = { fromDay: '2026-11-01', toDay: '2026-11-07' };
const EXPORT = 'GET /v1/accounts/:accountID/applications/:applicationID/provider/:providerID/calls/export';
const COUNT = 'HEAD /v1/accounts/:accountID/applications/:applicationID/provider/:providerID/calls/export';
const CSV = 'callID,startTime\r\nc-1,2026-11-01T08:00:00.000Z\r\nc-2,2026-11-01T08:01:00.000Z\r\n';

const captureDownloads = () => {
  const saved: { blob: Blob; name: string }[] = [];
  let last: Blob | undefined;
  Object.assign(URL, {
    createObjectURL: vi.fn((blob: Blob) => {
      last = blob;
      return 'blob:export';
    }),
    revokeObjectURL: vi.fn(),
  });
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    if (last) saved.push({ blob: last, name: this.download });
  });
  return saved;
};

afterEach(() => vi.restoreAllMocks());

/** A body that sends `first`, then holds until the request is aborted. */
const heldBody = ({ init }: StubRequest, first: string) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(first));
      init?.signal?.addEventListener('abort', () => controller.error(new DOMException('The request was aborted', 'AbortError')));
    },
  });

describe('ExportCalls', () => {
  it('counts the calls first and shows the size, then downloads with the token in the header and saves the file', async () => {
    const saved = captureDownloads();
    const asked: StubRequest[] = [];
    stubFetch({
      [COUNT]: (req) => {
        asked.push(req);
        return new Response(null, { headers: { [EXPORT_COUNT_HEADER]: '1200' } });
      },
      [EXPORT]: (req) => {
        asked.push(req);
        return new Response(CSV, { headers: { 'content-type': 'text/csv', [RETENTION_CUT_HEADER]: '2026-11-02T00:00:00.000Z' } });
      },
    });
    const user = userEvent.setup();
    renderWithApp(<ExportCalls scope={scope} request={request} days={days} timeZone="UTC" />);
    expect(asked).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Export all calls…' }));
    expect(await screen.findByText('1,200 calls, about 504 KB as CSV.')).toBeInTheDocument();
    expect(asked).toHaveLength(1);
    expect(Object.fromEntries(asked[0]!.url.searchParams)).toEqual({
      fromDate: '2026-11-01T00:00:00.000Z',
      toDate: '2026-11-08T00:00:00.000Z',
      queueID: 'sales',
      format: 'csv',
    });
    await user.click(screen.getByRole('radio', { name: /NDJSON/ }));
    expect(screen.getByText('1,200 calls, about 864 KB as NDJSON.')).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'CSV' }));

    await user.click(screen.getByRole('button', { name: 'Download callboard-calls-2026-11-01-to-2026-11-07.csv' }));
    expect(await screen.findByText(/^Saved callboard-calls-2026-11-01-to-2026-11-07\.csv/)).toHaveTextContent(
      `Saved callboard-calls-2026-11-01-to-2026-11-07.csv (${CSV.length} B). The range begins before the oldest call the service keeps: the file starts at 2 Nov, 00:00:00.`,
    );
    const download = asked[1]!;
    expect(download.url.searchParams.get('format')).toBe('csv');
    // The token travels in the header, never in the address.
    expect(new Headers(download.init?.headers).get('authorization')).toBe('Bearer t');
    expect([...download.url.searchParams.keys()]).toEqual(['fromDate', 'toDate', 'queueID', 'format']);
    expect(saved).toHaveLength(1);
    expect(saved[0]!.name).toBe('callboard-calls-2026-11-01-to-2026-11-07.csv');
    expect(await saved[0]!.blob.text()).toBe(CSV);
  });

  it('shows the progress of a download and cancels it, saving nothing', async () => {
    const saved = captureDownloads();
    stubFetch({
      [COUNT]: () => new Response(null, { headers: { [EXPORT_COUNT_HEADER]: '10' } }),
      [EXPORT]: (req) => new Response(heldBody(req, 'callID,startTime\r\n'), { headers: { 'content-type': 'text/csv' } }),
    });
    const user = userEvent.setup();
    renderWithApp(<ExportCalls scope={scope} request={request} days={days} timeZone="UTC" />);
    await user.click(screen.getByRole('button', { name: 'Export all calls…' }));
    await user.click(await screen.findByRole('button', { name: /^Download / }));
    expect(await screen.findByText('18 B of about 4.2 KB')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Export progress' })).toHaveAttribute('value', '0');
    await user.click(screen.getByRole('button', { name: 'Cancel export' }));
    expect(await screen.findByText('Export cancelled; nothing was saved.')).toBeInTheDocument();
    expect(saved).toHaveLength(0);
  });

  it("shows the service's problem when it cannot count, and never starts a download", async () => {
    stubFetch({
      [COUNT]: () =>
        Response.json(
          {
            type: 'urn:callboard:problem:validation_failed',
            title: 'Bad Request',
            status: 400,
            detail: 'toDate must be after fromDate',
            code: 'validation_failed',
          },
          { status: 400, headers: { 'content-type': 'application/problem+json' } },
        ),
    });
    const user = userEvent.setup();
    renderWithApp(<ExportCalls scope={scope} request={request} days={days} timeZone="UTC" />);
    await user.click(screen.getByRole('button', { name: 'Export all calls…' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('toDate must be after fromDate');
    expect(screen.queryByRole('button', { name: /^Download / })).not.toBeInTheDocument();
  });
});
