import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChartFrame } from './chart-frame.js';

/** An IntersectionObserver the test moves: `enter()` brings every observed element near the screen. */
const stubIntersections = () => {
  const observers: { callback: IntersectionObserverCallback; elements: Element[] }[] = [];
  class Stub {
    private readonly entry: { callback: IntersectionObserverCallback; elements: Element[] };
    constructor(callback: IntersectionObserverCallback) {
      this.entry = { callback, elements: [] };
      observers.push(this.entry);
    }
    observe(element: Element) {
      this.entry.elements.push(element);
    }
    disconnect() {
      this.entry.elements = [];
    }
  }
  vi.stubGlobal('IntersectionObserver', Stub);
  return {
    enter: () =>
      act(() => {
        for (const { callback, elements } of observers)
          callback(elements.map((target) => ({ target, isIntersecting: true }) as IntersectionObserverEntry), {} as IntersectionObserver);
      }),
  };
};

afterEach(() => vi.unstubAllGlobals());

describe('ChartFrame', () => {
  it('draws at its size, and tells its width', async () => {
    const onWidth = vi.fn();
    render(<ChartFrame onWidth={onWidth}>{({ width, height }) => <p>drawn at {width} × {height}</p>}</ChartFrame>);
    expect(await screen.findByText('drawn at 640 × 256')).toBeInTheDocument();
    expect(onWidth).toHaveBeenCalledWith(640);
  });

  it('draws nothing until its box comes near the screen, then stays drawn', async () => {
    const { enter } = stubIntersections();
    const draw = vi.fn(() => <p>drawn</p>);
    render(<ChartFrame>{draw}</ChartFrame>);
    await act(async () => undefined);
    expect(draw).not.toHaveBeenCalled();
    enter();
    expect(await screen.findByText('drawn')).toBeInTheDocument();
  });
});
