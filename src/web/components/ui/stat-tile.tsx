/** One number on the dashboard, with its context and, past a threshold, a warning in words. */
import { useId, type ReactNode } from 'react';
import { CriticalIcon, InfoIcon, WarningIcon } from './icons.js';

export type TileSize = 'normal' | 'wall';

/**
 * A tile spans three rows of its grid (subgrid): titles, numbers and details line up across a
 * row even when one title wraps or carries a warning. The number shrinks with its tile
 * (container units) rather than overflow it, say for a call past an hour on a narrow tile; its one
 * column is held to the tile's width, so a warning beside the title wraps below it instead of
 * running under the next tile.
 */
const styles: Record<TileSize, { tile: string; title: string; value: string; valueCap: string; detail: string; warning: string }> = {
  normal: {
    tile: 'gap-y-1 mb-3 p-4',
    title: 'text-sm',
    value: 'text-[length:min(2.25rem,20cqi)] leading-[1.1]',
    valueCap: '2.25rem',
    detail: 'text-sm',
    warning: 'text-sm',
  },
  wall: {
    tile: 'gap-y-2 mb-4 px-6 py-4',
    title: 'text-[2rem] leading-tight',
    value: 'text-[length:min(7rem,24cqi)] leading-none',
    valueCap: '7rem',
    detail: 'text-[1.5rem] leading-snug',
    warning: 'text-[1.5rem] leading-tight',
  },
};

const alertStyles = {
  warning: { tile: 'border-warn bg-warn-bg', text: 'text-warn', icon: <WarningIcon className="inline align-[-0.125em]" /> },
  critical: { tile: 'border-danger bg-danger-bg', text: 'text-danger', icon: <CriticalIcon className="inline align-[-0.125em]" /> },
} as const;

export const StatTile = ({
  title,
  value,
  detail,
  warning,
  level = 'warning',
  definition,
  size,
  busy = false,
  valueWidthEm,
}: {
  title: string;
  value: ReactNode;
  detail?: ReactNode;
  /** Shown, with its icon, when a threshold is crossed; colour alone never carries it. */
  warning?: string;
  /** How far past its threshold: a critical one has its own colour and icon. */
  level?: 'warning' | 'critical';
  /** What the figure means, shown on hover or keyboard focus of the title's "about" button (not on a wall screen). */
  definition?: string;
  size: TileSize;
  busy?: boolean;
  /**
   * How wide the value is, in ems of its own font, when it is more than one short number (say
   * "112 in · 48 out"): its size then follows the tile so that it stays on one line, where a
   * wrapped value would take a row of height a wall screen does not have.
   */
  valueWidthEm?: number;
}) => {
  const titleID = useId();
  const definitionID = useId();
  const style = styles[size];
  const alert = warning ? alertStyles[level] : undefined;
  return (
    <div
      role="group"
      aria-labelledby={titleID}
      aria-busy={busy || undefined}
      className={`row-span-3 grid min-w-0 grid-cols-[minmax(0,1fr)] grid-rows-subgrid rounded-lg border ${style.tile} ${alert ? alert.tile : 'border-line bg-panel'}`}
    >
      <div className="flex flex-wrap items-baseline justify-between gap-x-4">
        <div className="relative flex items-baseline gap-1">
          <h3 id={titleID} className={`font-medium text-muted ${style.title}`}>
            {title}
          </h3>
          {/* A wall screen has no pointer nor keyboard: its tiles say what they count in their details. */}
          {definition && size !== 'wall' ? (
            <span className="group">
              <button
                type="button"
                aria-label={`About ${title}`}
                aria-describedby={definitionID}
                className={`inline-flex items-center self-center rounded-full p-0.5 text-muted hover:text-ink focus-visible:outline-2 focus-visible:outline-accent ${style.title}`}
              >
                <InfoIcon />
              </button>
              <span
                id={definitionID}
                role="tooltip"
                className="absolute top-full left-0 z-20 mt-1 hidden w-64 max-w-[80vw] rounded-md border border-line bg-panel p-2 text-xs font-normal text-ink shadow-lg group-focus-within:block group-hover:block"
              >
                {definition}
              </span>
            </span>
          ) : null}
        </div>
        {warning && alert ? (
          <p className={`font-semibold ${alert.text} ${style.warning}`}>
            {alert.icon} {warning}
          </p>
        ) : null}
      </div>
      {/* The container for the number's cqi size: on the tile itself, containment would turn its subgrid off. */}
      <div className="@container">
        <p
          className={`font-semibold tabular ${alert ? alert.text : 'text-ink'} ${style.value}`}
          style={valueWidthEm === undefined ? undefined : { fontSize: `min(${style.valueCap}, ${(100 / valueWidthEm).toFixed(2)}cqi)` }}
        >
          {value}
        </p>
      </div>
      {/* Words are held to two lines; a detail of its own making (the longest call's number) decides what may give way. */}
      {detail === undefined ? null : typeof detail === 'string' ? (
        <p className={`line-clamp-2 text-muted ${style.detail}`} title={detail}>
          {detail}
        </p>
      ) : (
        <div className={`text-muted ${style.detail}`}>{detail}</div>
      )}
    </div>
  );
};
