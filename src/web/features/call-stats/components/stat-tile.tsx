/** One number on the dashboard, with its context and, past a threshold, a warning in words. */
import { useId, type ReactNode } from 'react';

export type TileSize = 'normal' | 'wall';

const styles: Record<TileSize, { tile: string; title: string; value: string; detail: string }> = {
  normal: { tile: 'gap-1 p-4', title: 'text-sm', value: 'text-4xl', detail: 'text-sm' },
  wall: { tile: 'gap-2 px-6 py-5', title: 'text-[2rem] leading-tight', value: 'text-[7rem] leading-none', detail: 'text-[1.75rem] leading-snug' },
};

export const StatTile = ({
  title,
  value,
  detail,
  warning,
  size,
  busy = false,
}: {
  title: string;
  value: ReactNode;
  detail?: ReactNode;
  /** Shown, with its icon, when a threshold is crossed; colour alone never carries it. */
  warning?: string;
  size: TileSize;
  busy?: boolean;
}) => {
  const titleID = useId();
  const style = styles[size];
  return (
    <div
      role="group"
      aria-labelledby={titleID}
      aria-busy={busy || undefined}
      data-warning={warning ? true : undefined}
      className={`flex min-w-0 flex-col rounded-lg border ${style.tile} ${warning ? 'border-warn bg-warn-bg' : 'border-line bg-panel'}`}
    >
      <h3 id={titleID} className={`font-medium text-muted ${style.title}`}>
        {title}
      </h3>
      <p className={`font-semibold tabular ${warning ? 'text-warn' : 'text-ink'} ${style.value}`}>{value}</p>
      {detail ? <p className={`line-clamp-2 text-muted ${style.detail}`}>{detail}</p> : null}
      {warning ? (
        <p className={`font-semibold text-warn ${style.detail}`}>
          <span aria-hidden="true">⚠ </span>
          {warning}
        </p>
      ) : null}
    </div>
  );
};
