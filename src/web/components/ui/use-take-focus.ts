/** A part that opens over the page (a question, a listening panel) takes the focus while it is there, and gives it back where it was. */
import { useEffect, type RefObject } from 'react';

/** `target` is a ref, the same object for the part's whole life: the focus moves once, when the part opens. */
export const useTakeFocus = (target: RefObject<HTMLElement | null>): void =>
  useEffect(() => {
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : undefined;
    target.current?.focus();
    return () => before?.focus();
  }, [target]);
