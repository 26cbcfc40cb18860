/**
 * Busiest hours of the week as a heatmap that is a real table: each cell shows its count, and the
 * shading only repeats it, so the numbers never depend on colour. All 24 hours fit from a desk
 * screen up; on a phone the table scrolls sideways, says so, and keeps the day names in view.
 */
import { useId, useRef } from 'react';
import { useHorizontalOverflow } from '../../../lib/use-horizontal-overflow.js';
import { weekdayNames } from '../../../lib/zoned-time.js';
import type { HourOfWeekGrid } from '../utils/busiest-hours.js';

const HOURS = Array.from({ length: 24 }, (_, hour) => hour);

export const BusiestHours = ({ grid, timeZone }: { grid: HourOfWeekGrid; timeZone: string }) => {
  const scroller = useRef<HTMLDivElement>(null);
  const scrolls = useHorizontalOverflow(scroller);
  const captionID = useId();
  return (
    <div className="flex flex-col gap-1">
      {/* The table's name, outside the part that scrolls so that it is always read whole. */}
      <p id={captionID} className="pb-1 text-sm text-muted">
        Calls started per hour, last 7 days, hours in {timeZone}
      </p>
      {scrolls ? (
        <p className="text-sm font-medium text-muted">
          Scroll sideways for all 24 hours <span aria-hidden="true">→</span>
        </p>
      ) : null}
      {/* Focusable only while it scrolls, so a keyboard can scroll it too. */}
      <div
        ref={scroller}
        className="overflow-x-auto"
        {...(scrolls ? { tabIndex: 0, role: 'region', 'aria-labelledby': captionID } : {})}
      >
        <table aria-labelledby={captionID} className="w-full border-separate border-spacing-0.5 text-xs tabular">
          <thead>
            <tr>
              <th scope="col" className="sr-only">
                Day
              </th>
              {HOURS.map((hour) => (
                <th key={hour} scope="col" className="px-0.5 font-normal text-muted">
                  {String(hour).padStart(2, '0')}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {grid.cells.map((row, day) => (
              <tr key={day}>
                <th scope="row" className="sticky left-0 bg-panel pr-1 text-left font-medium">
                  {weekdayNames[day]}
                </th>
                {row.map((count, hour) => {
                  const share = grid.max > 0 ? count / grid.max : 0;
                  return (
                    <td
                      key={hour}
                      className={`min-w-[2.5em] rounded-sm px-0.5 py-1 text-center text-ink ${share > 0.75 ? 'font-semibold' : ''}`}
                      // At most half accent, so the count in --ink stays readable on the shading in both themes.
                      style={{ background: `color-mix(in srgb, var(--accent) ${Math.round(share * 50)}%, var(--panel))` }}
                    >
                      {count}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
};
