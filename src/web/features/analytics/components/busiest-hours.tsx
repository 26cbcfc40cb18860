/**
 * Busiest hours of the week as a heatmap that is a real table: each cell shows its count, and the
 * shading only repeats it, so the numbers never depend on colour.
 */
import type { HourOfWeekGrid } from '../utils/busiest-hours.js';
import { weekdayNames } from '../../../lib/zoned-time.js';

const HOURS = Array.from({ length: 24 }, (_, hour) => hour);

export const BusiestHours = ({ grid, timeZone }: { grid: HourOfWeekGrid; timeZone: string }) => (
  <div className="overflow-x-auto">
    <table className="w-full border-separate border-spacing-0.5 text-xs tabular">
      <caption className="pb-2 text-left text-sm text-muted">Calls started per hour, last 7 days, hours in {timeZone}</caption>
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
            <th scope="row" className="pr-1 text-left font-medium">
              {weekdayNames[day]}
            </th>
            {row.map((count, hour) => {
              const share = grid.max > 0 ? count / grid.max : 0;
              return (
                <td
                  key={hour}
                  className={`rounded-sm px-0.5 py-1 text-center text-ink ${share > 0.75 ? 'font-semibold' : ''}`}
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
);
