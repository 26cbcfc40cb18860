/**
 * Options for a TanStack virtualizer over an element that never force the page's layout while
 * React commits. When the scroll element is attached, the library's defaults read its size and
 * scroll it to the start, inside React's commit: both force the page's style and layout there. On
 * the live view's first load those were the longest pieces of the tasks that render the page and
 * its first snapshot (40-65 ms of forced style in a Lighthouse trace).
 *
 * - The size comes from a ResizeObserver alone: it reports after the browser's own layout, before
 *   the paint; until then the virtualizer works from its `initialRect`.
 * - A fresh scroll element already stands at the start, so the scroll there is skipped; every later
 *   scroll is the library's own.
 */
import { elementScroll, type Rect, type Virtualizer, type VirtualizerOptions } from '@tanstack/react-virtual';

const observeRectAfterLayout = <S extends Element, I extends Element>(instance: Virtualizer<S, I>, report: (rect: Rect) => void) => {
  const element = instance.scrollElement;
  if (!element || typeof ResizeObserver === 'undefined') return undefined;
  const observer = new ResizeObserver(() => report({ width: element.clientWidth, height: element.clientHeight }));
  observer.observe(element);
  return () => observer.disconnect();
};

const attached = new WeakSet<Element>();

const scrollUnlessFresh = <S extends Element, I extends Element>(
  offset: number,
  options: { adjustments?: number; behavior?: ScrollBehavior },
  instance: Virtualizer<S, I>,
) => {
  const element = instance.scrollElement;
  if (element && !attached.has(element)) {
    attached.add(element);
    if (offset + (options.adjustments ?? 0) === 0) return;
  }
  elementScroll(offset, options, instance);
};

export const afterLayout = {
  observeElementRect: observeRectAfterLayout,
  scrollToFn: scrollUnlessFresh,
} satisfies Pick<VirtualizerOptions<HTMLDivElement, Element>, 'observeElementRect' | 'scrollToFn'>;
