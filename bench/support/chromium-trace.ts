/**
 * Where a page's main thread spends a window of time, from a Chromium trace: how busy it is, and
 * its layouts, style, paint and garbage collection; and what the page's DOM is made of.
 */
import type { Browser, Page } from '@playwright/test';

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  args?: { name?: string };
}

export interface MainThreadBreakdown {
  windowMs: number;
  busyMs: number;
  /** Layout, including layouts forced by script (reading a size after a change). */
  layoutMs: number;
  layouts: number;
  /** Layouts run inside script: a size read after a change, which makes the browser lay out at once. */
  forcedLayouts: number;
  longestLayoutMs: number;
  styleMs: number;
  paintMs: number;
  gcMs: number;
  domElements: number;
  /** The most numerous element names, with their counts. */
  commonestElements: [string, number][];
  /** The drop-down with the most options: its label and how many. */
  longestSelect?: { label: string; options: number };
}

const STYLE = new Set(['UpdateLayoutTree', 'RecalculateStyles']);
const PAINT = new Set(['Paint', 'PrePaint', 'Layerize']);
const GC = new Set(['MinorGC', 'MajorGC']);
const SCRIPT = new Set([
  'FunctionCall',
  'TimerFire',
  'EventDispatch',
  'EvaluateScript',
  'FireAnimationFrame',
  'RunMicrotasks',
  'V8.Execute',
]);

/**
 * The time `events` cover, in ms, each moment once: Chromium nests some of its events (a frame's
 * "Paint" holds the paint of the root element, one more "Paint" as long), and a sum would count
 * that time twice.
 */
export const coveredMs = (events: readonly Pick<TraceEvent, 'ts' | 'dur'>[]): number => {
  let covered = 0;
  let end = Number.NEGATIVE_INFINITY;
  for (const event of [...events].sort((a, b) => a.ts - b.ts)) {
    const eventEnd = event.ts + (event.dur ?? 0);
    if (eventEnd <= end) continue;
    covered += eventEnd - Math.max(event.ts, end);
    end = eventEnd;
  }
  return covered / 1000;
};

export const traceMainThread = async (browser: Browser, page: Page, ms: number): Promise<MainThreadBreakdown> => {
  await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] });
  await page.waitForTimeout(ms);
  const trace = JSON.parse((await browser.stopTracing()).toString('utf8')) as { traceEvents: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(trace) ? trace : trace.traceEvents;
  const mains = events
    .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
    .map((e) => `${e.pid}:${e.tid}`);
  const busiest = (names: Set<string>) => {
    const totals = new Map<string, number>();
    for (const e of events)
      if (e.name === 'RunTask' && e.dur && names.has(`${e.pid}:${e.tid}`))
        totals.set(`${e.pid}:${e.tid}`, (totals.get(`${e.pid}:${e.tid}`) ?? 0) + e.dur);
    return [...totals].sort((a, b) => b[1] - a[1])[0]?.[0];
  };
  const main = busiest(new Set(mains));
  const on = events.filter((e) => `${e.pid}:${e.tid}` === main && e.ph === 'X' && e.dur !== undefined);
  const total = (match: (name: string) => boolean) => coveredMs(on.filter((e) => match(e.name)));
  const layouts = on.filter((e) => e.name === 'Layout');
  const scripts = on.filter((e) => SCRIPT.has(e.name));
  const forced = layouts.filter((layout) =>
    scripts.some((script) => script.ts <= layout.ts && layout.ts + (layout.dur ?? 0) <= script.ts + (script.dur ?? 0)),
  );
  const busyMs = total((name) => name === 'RunTask');
  const layoutMs = total((name) => name === 'Layout');
  const styleMs = total((name) => STYLE.has(name));
  const paintMs = total((name) => PAINT.has(name));
  const gcMs = total((name) => GC.has(name));
  const dom = await page.evaluate(() => {
    const counts = new Map<string, number>();
    const all = document.querySelectorAll('*');
    all.forEach((element) => counts.set(element.localName, (counts.get(element.localName) ?? 0) + 1));
    const selects = [...document.querySelectorAll('select')].sort((a, b) => b.options.length - a.options.length);
    const longest = selects[0];
    // A label may wrap its select (and a hint): its own text, not its options', names it.
    const labelText = (element: HTMLLabelElement | undefined) =>
      element
        ? [...element.childNodes]
            .filter(
              (node) =>
                node.nodeType === Node.TEXT_NODE ||
                (node instanceof HTMLElement && !node.hidden && node.localName !== 'select' && !node.querySelector('select')),
            )
            .map((node) => node.textContent ?? '')
            .join(' ')
        : undefined;
    const label = longest ? (labelText(longest.labels[0]) ?? longest.getAttribute('aria-label') ?? '').trim() : '';
    return {
      elements: all.length,
      commonest: [...counts].sort((a, b) => b[1] - a[1]).slice(0, 3),
      longestSelect: longest ? { label, options: longest.options.length } : undefined,
    };
  });
  return {
    windowMs: ms,
    busyMs,
    layoutMs,
    layouts: layouts.length,
    forcedLayouts: forced.length,
    longestLayoutMs: Math.max(0, ...layouts.map((e) => (e.dur ?? 0) / 1000)),
    styleMs,
    paintMs,
    gcMs,
    domElements: dom.elements,
    commonestElements: dom.commonest,
    ...(dom.longestSelect ? { longestSelect: dom.longestSelect } : {}),
  };
};
