import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ConcurrencyAreaChart, sameDrawing, timeLabelStep, type ConcurrencyAreaChartProps } from './concurrency-area-chart.js';

const minute = 60_000;
const from = Date.parse('2026-11-26T14:00:00Z');
const to = from + 15 * minute;

const props: ConcurrencyAreaChartProps = {
  points: [
    { at: from + minute, inbound: 2, outbound: 1 },
    { at: from + 5 * minute, inbound: 6, outbound: 3 },
    { at: from + 10 * minute, inbound: 1, outbound: 0 },
  ],
  from,
  to,
  minTickStepMinutes: 5,
  peak: { at: from + 5 * minute, inbound: 6, outbound: 3 },
  timeZone: 'UTC',
  size: 'normal',
};

const texts = (container: HTMLElement) => [...container.querySelectorAll('text')].map((text) => text.textContent);

// Without a layout engine the chart draws at 640 × 256 px.
describe('ConcurrencyAreaChart', () => {
  it('draws both series as one stepped path each, the time and count axes and the peak, named in words', async () => {
    const { container } = render(<ConcurrencyAreaChart {...props} />);
    await waitFor(() => expect(texts(container)).toContain('Peak 9 at 14:05'));
    expect(texts(container)).toEqual(expect.arrayContaining(['14:00', '14:05', '14:10', '14:15', '0', '5', '10']));
    // Each area's fill and its edge: one path apiece, however many samples.
    const areas = container.querySelectorAll('.recharts-area');
    expect(areas).toHaveLength(2);
    for (const area of areas) {
      expect(area.querySelectorAll('.recharts-area-area')).toHaveLength(1);
      expect(area.querySelectorAll('.recharts-area-curve')).toHaveLength(1);
    }
    expect(container.querySelector('.recharts-reference-dot circle')).not.toBeNull();
  });

  it('reads the counts out under the keyboard’s arrows, in words, from a surface that says how', async () => {
    const { container } = render(<ConcurrencyAreaChart {...props} />);
    const surface = await waitFor(() => screen.getByRole('application', { name: /left and right arrow keys/ }));
    // Focus reads the first sample out; each arrow moves one sample along.
    fireEvent.focus(surface);
    fireEvent.keyDown(surface, { key: 'ArrowRight' });
    await waitFor(() => expect(screen.getByText('Inbound 6')).toBeInTheDocument());
    expect(screen.getByText('14:05:00')).toBeInTheDocument();
    expect(screen.getByText('Outbound 3')).toBeInTheDocument();
    fireEvent.keyDown(surface, { key: 'ArrowLeft' });
    await waitFor(() => expect(screen.getByText('Inbound 2')).toBeInTheDocument());
    expect(screen.getByText('14:01:00')).toBeInTheDocument();
    expect(container.querySelector('.recharts-tooltip-cursor')).not.toBeNull();
  });

  it('draws no peak before any sample, and on a wall takes no keyboard and shows no readout', async () => {
    const { container } = render(<ConcurrencyAreaChart {...props} points={[]} peak={undefined} size="wall" />);
    await waitFor(() => expect(texts(container)).toContain('14:00'));
    expect(container.querySelector('.recharts-reference-dot')).toBeNull();
    const surface = container.querySelector('svg.recharts-surface');
    expect(surface?.getAttribute('tabindex')).toBeNull();
    expect(surface?.getAttribute('aria-hidden')).toBe('true');
    expect(screen.queryByText(/Inbound/)).toBeNull();
  });

  it('labels round times further apart where the chart is narrow, never closer than asked', () => {
    const quarterHour = 15 * minute;
    expect(timeLabelStep(2, quarterHour, 1200, 12)).toBe(2);
    // A phone's 340 px hold five labels of 12 px text: every 5 minutes rather than every 2.
    expect(timeLabelStep(2, quarterHour, 340, 12)).toBe(5);
    expect(timeLabelStep(2, quarterHour, undefined, 12)).toBe(2);
    expect(timeLabelStep(10, 60 * minute, 1200, 12)).toBe(10);
  });

  it('is not drawn again for points equal by value, only when one moves or the window steps on', () => {
    const copy = { ...props, points: props.points.map((point) => ({ ...point })), peak: { ...(props.peak as NonNullable<typeof props.peak>) } };
    expect(sameDrawing(props, copy)).toBe(true);
    expect(sameDrawing(props, { ...copy, points: [...copy.points.slice(0, 2), { at: from + 10 * minute, inbound: 2, outbound: 0 }] })).toBe(false);
    expect(sameDrawing(props, { ...copy, to: to + 5000 })).toBe(false);
    expect(sameDrawing(props, { ...copy, peak: undefined })).toBe(false);
  });
});
