import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ConcurrencyAreaChart, type ConcurrencyAreaChartProps } from './concurrency-area-chart.js';

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
  ticks: [from, from + 5 * minute, from + 10 * minute, from + 15 * minute],
  tickStepMinutes: 5,
  peak: { at: from + 5 * minute, inbound: 6, outbound: 3 },
  timeZone: 'UTC',
  size: 'normal',
};

// Without a layout engine the chart draws at 640 × 256 px.
describe('ConcurrencyAreaChart', () => {
  it('draws both series, the time and count axes and the peak, named in words', () => {
    const { container } = render(<ConcurrencyAreaChart {...props} />);
    const texts = [...container.querySelectorAll('text')].map((text) => text.textContent);
    expect(texts).toEqual(['14:00', '14:05', '14:10', '14:15', '0', '5', '10', 'Peak 9 at 14:05']);
    const drawn = [...container.querySelectorAll('path')].map((path) => path.getAttribute('d'));
    // Inbound's area and line, outbound's area and line, each a stepped shape over the three points.
    expect(drawn).toHaveLength(4);
    for (const d of drawn) expect(d).toMatch(/^M[\d.]+ [\d.]+H[\d.]+V[\d.]+H[\d.]+V[\d.]+/);
    expect(container.querySelector('circle')).not.toBeNull();
  });

  it('shows the counts under the pointer in words, and hides them when it leaves', () => {
    const { container } = render(<ConcurrencyAreaChart {...props} />);
    const svg = container.querySelector('svg') as SVGSVGElement;
    // The plot starts after the count axis (about 25 px) and spans the rest: 5 minutes in is about a third across.
    fireEvent.pointerMove(svg, { clientX: 25 + (640 - 25 - 16) / 3 });
    expect(screen.getByText('14:05:00')).toBeInTheDocument();
    expect(screen.getByText('Inbound 6')).toBeInTheDocument();
    expect(screen.getByText('Outbound 3')).toBeInTheDocument();
    fireEvent.pointerLeave(svg);
    expect(screen.queryByText('Inbound 6')).toBeNull();
  });

  it('draws no areas and no peak before any sample, and keeps no pointer readout on a wall', () => {
    const { container } = render(<ConcurrencyAreaChart {...props} points={[]} peak={undefined} size="wall" />);
    expect([...container.querySelectorAll('path')].map((path) => path.getAttribute('d'))).toEqual(['', '', '', '']);
    expect(container.querySelector('circle')).toBeNull();
    fireEvent.pointerMove(container.querySelector('svg') as SVGSVGElement, { clientX: 200 });
    expect(screen.queryByText(/Inbound/)).toBeNull();
  });
});
