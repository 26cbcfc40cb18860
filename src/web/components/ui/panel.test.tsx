import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { useNow } from '../../lib/clock.js';
import { Panel } from './panel.js';

/** An IntersectionObserver the test moves: `show(false)` scrolls the observed panel out of view. */
class FakeObserver {
  static latest: FakeObserver | undefined;
  private element: Element | undefined;
  constructor(private readonly callback: IntersectionObserverCallback) {
    FakeObserver.latest = this;
  }
  observe(element: Element) {
    this.element = element;
  }
  disconnect() {
    this.element = undefined;
  }
  show(isIntersecting: boolean) {
    const target = this.element;
    if (!target) throw new Error('nothing observed');
    act(() => this.callback([{ isIntersecting, target } as IntersectionObserverEntry], this as unknown as IntersectionObserver));
  }
}

const Seconds = () => <p>{Math.floor(useNow() / 1000)}</p>;
const START = Date.UTC(2026, 0, 5, 9, 0, 0);

beforeEach(() => {
  FakeObserver.latest = undefined;
  vi.useFakeTimers({ now: START });
  vi.stubGlobal('IntersectionObserver', FakeObserver);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

const seconds = () => Number(screen.getByRole('region', { name: 'Durations' }).querySelector('p')?.textContent) - START / 1000;

test('a panel off screen holds its durations, and shows the current second as soon as it is back', () => {
  render(
    <Panel title="Durations">
      <Seconds />
    </Panel>,
  );
  act(() => vi.advanceTimersByTime(2000));
  expect(seconds()).toBe(2);

  FakeObserver.latest?.show(false);
  act(() => vi.advanceTimersByTime(5000));
  expect(seconds()).toBe(2);

  FakeObserver.latest?.show(true);
  expect(seconds()).toBe(7);
  act(() => vi.advanceTimersByTime(1000));
  expect(seconds()).toBe(8);
});

test('a duration outside any panel keeps ticking whatever the panels do', () => {
  render(
    <>
      <Panel title="Durations">
        <Seconds />
      </Panel>
      <Seconds />
    </>,
  );
  FakeObserver.latest?.show(false);
  act(() => vi.advanceTimersByTime(3000));
  const [inPanel, outside] = screen.getAllByText(/^\d+$/).map((p) => Number(p.textContent) - START / 1000);
  expect(inPanel).toBe(0);
  expect(outside).toBe(3);
});

test('what renders off screen for another reason (an update, a new row) reads the current second', () => {
  const { rerender } = render(
    <Panel title="Durations">
      <Seconds key="first" />
    </Panel>,
  );
  FakeObserver.latest?.show(false);
  act(() => vi.advanceTimersByTime(4000));
  expect(seconds()).toBe(0);
  // A row that mounts while the panel is off screen starts from now, not from when the panel left.
  rerender(
    <Panel title="Durations">
      <Seconds key="second" />
    </Panel>,
  );
  expect(seconds()).toBe(4);
});

test('a panel told to tick off screen keeps the page clock', () => {
  render(
    <Panel title="Durations" tickOffScreen>
      <Seconds />
    </Panel>,
  );
  // Nothing watches whether it is on screen.
  expect(FakeObserver.latest).toBeUndefined();
  act(() => vi.advanceTimersByTime(3000));
  expect(seconds()).toBe(3);
});
