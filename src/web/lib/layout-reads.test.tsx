import { act, render, screen } from '@testing-library/react';
import type { Virtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useElementSize } from './use-element-size.js';
import { useHorizontalOverflow } from './use-horizontal-overflow.js';
import { afterLayout } from './virtualizer-after-layout.js';

/** A ResizeObserver the test fires by hand, as the browser would after its layout. */
const observers: { callback: ResizeObserverCallback; targets: Element[] }[] = [];
class ManualResizeObserver {
  private readonly entry: { callback: ResizeObserverCallback; targets: Element[] };
  constructor(callback: ResizeObserverCallback) {
    this.entry = { callback, targets: [] };
    observers.push(this.entry);
  }
  observe(target: Element) {
    this.entry.targets.push(target);
  }
  disconnect() {
    this.entry.targets = [];
  }
  unobserve() {}
}
const afterBrowserLayout = () => {
  for (const { callback, targets } of observers) if (targets.length > 0) callback([], {} as ResizeObserver);
};

beforeEach(() => {
  observers.length = 0;
  vi.stubGlobal('ResizeObserver', ManualResizeObserver);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const Sized = () => {
  const ref = useRef<HTMLDivElement>(null);
  const { width } = useElementSize(ref, { width: 1024, height: 320 });
  const wide = useHorizontalOverflow(ref);
  return (
    <div ref={ref}>
      {width} px{wide ? ', scrolls sideways' : ''}
    </div>
  );
};

describe('sizes read after the browser’s layout', () => {
  it('never reads layout while React commits, and shows the observed size before the next paint', () => {
    const rect = vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue({ width: 412, height: 300 } as DOMRect);
    const scrollWidth = vi.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockReturnValue(900);
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(412);

    render(<Sized />);
    expect(rect).not.toHaveBeenCalled();
    expect(scrollWidth).not.toHaveBeenCalled();
    expect(screen.getByText('1024 px')).toBeInTheDocument();

    // Rendered inside the observer's callback itself (flushSync), not in a later task.
    act(() => afterBrowserLayout());
    expect(screen.getByText('412 px, scrolls sideways')).toBeInTheDocument();
  });
});

const Empty = () => {
  const ref = useRef<HTMLDivElement>(null);
  const { width } = useElementSize(ref, { width: 1024, height: 320 }, { beforePaint: false });
  return <div ref={ref}>{width} px</div>;
};

describe('the size of an element that draws nothing from it yet', () => {
  it('is rendered in React’s own time, not inside the observer (which would run the effects of the commit before it)', async () => {
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue({ width: 412, height: 300 } as DOMRect);
    render(<Empty />);

    // Outside act: a render inside the callback (flushSync) would be on screen now.
    const reactGlobals = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
    const actEnvironment = reactGlobals.IS_REACT_ACT_ENVIRONMENT;
    reactGlobals.IS_REACT_ACT_ENVIRONMENT = false;
    try {
      afterBrowserLayout();
      expect(screen.getByText('1024 px')).toBeInTheDocument();
      expect(await screen.findByText('412 px')).toBeInTheDocument();
    } finally {
      reactGlobals.IS_REACT_ACT_ENVIRONMENT = actEnvironment;
    }
  });
});

describe('afterLayout (virtualizer options)', () => {
  const virtualizerOver = (element: HTMLElement) =>
    ({ scrollElement: element, options: { horizontal: false, isRtl: false } }) as unknown as Virtualizer<HTMLDivElement, Element>;

  it('skips the scroll to the start of a freshly attached element, and makes every other scroll', () => {
    const element = document.createElement('div');
    const scrollTo = vi.fn();
    element.scrollTo = scrollTo as typeof element.scrollTo;
    const instance = virtualizerOver(element);

    afterLayout.scrollToFn(0, {}, instance);
    expect(scrollTo).not.toHaveBeenCalled();
    afterLayout.scrollToFn(0, {}, instance);
    afterLayout.scrollToFn(520, { adjustments: 4 }, instance);
    expect(scrollTo.mock.calls).toEqual([[{ top: 0, behavior: undefined }], [{ top: 524, behavior: undefined }]]);

    const restored = document.createElement('div');
    restored.scrollTo = scrollTo as typeof restored.scrollTo;
    afterLayout.scrollToFn(300, {}, virtualizerOver(restored));
    expect(scrollTo).toHaveBeenLastCalledWith({ top: 300, behavior: undefined });
  });

  it('reports the element’s size only from its observer', () => {
    const element = document.createElement('div');
    const clientHeight = vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(480);
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(1200);
    const report = vi.fn();
    const stop = afterLayout.observeElementRect(virtualizerOver(element), report);
    expect(clientHeight).not.toHaveBeenCalled();
    expect(report).not.toHaveBeenCalled();
    afterBrowserLayout();
    expect(report).toHaveBeenCalledWith({ width: 1200, height: 480 });
    stop?.();
  });
});
