/** Layout checks in the real browser: does the page fit the screen, and is any text cut off. */
import type { Locator, Page } from '@playwright/test';

export interface PageFit {
  scrollWidth: number;
  scrollHeight: number;
  width: number;
  height: number;
}

/** How large the document is against the viewport: a wall screen cannot scroll. */
export const pageFit = (page: Page): Promise<PageFit> =>
  page.evaluate(() => {
    const root = document.scrollingElement ?? document.documentElement;
    return {
      scrollWidth: root.scrollWidth,
      scrollHeight: root.scrollHeight,
      width: window.innerWidth,
      height: window.innerHeight,
    };
  });

/** The part of an element's box inside the viewport, in pixels of height. */
export const visibleHeight = (locator: Locator): Promise<number> =>
  locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    return Math.max(0, Math.min(box.bottom, window.innerHeight) - Math.max(box.top, 0));
  });

/**
 * What `container` cuts off, in words: text in an element that clips its overflow (hidden or
 * clipped overflow, an ellipsis, a line clamp) and has more than fits. Cutting is allowed only
 * where the element carries its whole text in a title, and never for a phone number, which on a
 * screen that cannot scroll (`onScreen`) must also lie entirely in the viewport.
 */
export const cutOffText = (container: Locator, { onScreen = false } = {}): Promise<string[]> =>
  container.evaluate((root, checkViewport) => {
    const PHONE_NUMBER = /\+?\(?\d[\d ()-]{5,}\d/;
    const clips = (element: Element) => {
      const style = getComputedStyle(element);
      return (
        style.overflowX !== 'visible' ||
        style.overflowY !== 'visible' ||
        style.textOverflow === 'ellipsis' ||
        (style.webkitLineClamp !== 'none' && style.webkitLineClamp !== '')
      );
    };
    const overflows = (element: Element) =>
      element.scrollWidth > element.clientWidth + 1 || element.scrollHeight > element.clientHeight + 1;
    const problems: string[] = [];
    for (const element of root.querySelectorAll('*')) {
      const text = element.textContent?.trim() ?? '';
      // Charts draw their own text; visually hidden text (a 1px box) is there for screen readers only.
      if (text === '' || element instanceof SVGElement || element.getBoundingClientRect().width <= 1) continue;
      if (clips(element) && overflows(element)) {
        if (PHONE_NUMBER.test(text)) problems.push(`a phone number is cut: "${text}"`);
        else if (element.getAttribute('title') !== text) problems.push(`cut without its text in a title: "${text}"`);
      }
      const ownText = [...element.childNodes].some(
        (node) => node.nodeType === Node.TEXT_NODE && PHONE_NUMBER.test(node.textContent ?? ''),
      );
      if (!ownText) continue;
      const box = element.getBoundingClientRect();
      const offScreen = box.top < 0 || box.left < 0 || box.bottom > window.innerHeight + 1 || box.right > window.innerWidth + 1;
      if (checkViewport && offScreen) problems.push(`a phone number is off screen: "${text}"`);
      for (let ancestor = element.parentElement; ancestor && ancestor !== root.parentElement; ancestor = ancestor.parentElement) {
        if (!clips(ancestor)) continue;
        const room = ancestor.getBoundingClientRect();
        if (box.top < room.top - 1 || box.bottom > room.bottom + 1 || box.left < room.left - 1 || box.right > room.right + 1)
          problems.push(`a phone number is cut by its container: "${text}"`);
      }
    }
    return problems;
  }, onScreen);
