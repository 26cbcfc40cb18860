/** Whether an element's content is wider than the element, kept up to date as either resizes. */
import { useLayoutEffect, useState, type RefObject } from 'react';

export const useHorizontalOverflow = (ref: RefObject<HTMLElement | null>): boolean => {
  const [overflows, setOverflows] = useState(false);
  useLayoutEffect(() => {
    const element = ref.current;
    // Without layout (a test DOM) nothing can overflow.
    if (!element || typeof ResizeObserver === 'undefined') return;
    const check = () => setOverflows(element.scrollWidth > element.clientWidth + 1);
    const observer = new ResizeObserver(check);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    check();
    return () => observer.disconnect();
  }, [ref]);
  return overflows;
};
