/** What a chart shows of the point under the pointer, or under the keyboard's left and right arrows: recharts' tooltip, in the dashboard's look. */
import type { TooltipContentProps } from 'recharts';

export interface ReadoutRow {
  name: string;
  value: string;
}

export type Readout<P> = (point: P) => { heading: string; rows: ReadoutRow[] };

/** The tooltip's content for `readout`; give it to `<Tooltip content={…}>` as an element, recharts fills in the rest. */
export const ChartReadout = <P,>({ readout, active, payload }: Partial<TooltipContentProps<number, string>> & { readout: Readout<P> }) => {
  const point = payload?.[0]?.payload as P | undefined;
  if (!active || point === undefined) return null;
  const shown = readout(point);
  return (
    <div className="rounded-md border border-line bg-panel px-2 py-1 text-xs text-ink shadow-sm tabular">
      <p className="font-semibold">{shown.heading}</p>
      {shown.rows.map((row) => (
        <p key={row.name}>
          {row.name} {row.value}
        </p>
      ))}
    </div>
  );
};

/** The line the readout follows, and the tooltip's own settings: no animation, no box of its own. */
export const READOUT_CURSOR = { stroke: 'var(--muted)', strokeWidth: 1 } as const;
export const READOUT_WRAPPER = { outline: 'none' } as const;

/** The surface's name when it takes the keyboard: what the arrows do. */
export const READOUT_KEYS_LABEL = 'Readout: the left and right arrow keys move from point to point';
