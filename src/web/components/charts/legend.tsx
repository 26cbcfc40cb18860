/** A chart's legend: each series' swatch, drawn as the chart draws it, and its name. */
import type { ReactNode } from 'react';

export const Legend = ({ items }: { items: { label: string; swatch: ReactNode }[] }) => (
  <ul aria-label="Legend" className="flex flex-wrap gap-x-5 gap-y-1 text-sm">
    {items.map(({ label, swatch }) => (
      <li key={label} className="flex items-center gap-2">
        <svg aria-hidden="true" viewBox="0 0 24 16" className="h-4 w-6">
          {swatch}
        </svg>
        {label}
      </li>
    ))}
  </ul>
);
