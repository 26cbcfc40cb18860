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
 *
 * A tile has its final size from its first paint: the details' two lines are held (in rem, so on
 * the wallboard they follow its scale) while the figures load, and so is the box of a warning the
 * tile may raise. Nothing below moves when the data, or a warning, arrives.
 */
const styles: Record<
  TileSize,
  { tile: string; title: string; value: string; valueCap: string; detail: string; detailLines: string; tallDetailLines: string; warning: string }
> = {
  normal: {
    tile: 'gap-y-1 mb-3 p-4',
    title: 'text-sm',
    value: 'text-[length:min(2.25rem,20cqi)] leading-[1.1]',
    valueCap: '2.25rem, 20cqi',
    detail: 'text-sm',
    // Two lines of text-sm (1.25rem each).
    detailLines: 'min-h-[2.5rem]',
    tallDetailLines: '',
    warning: 'text-sm',
  },
  wall: {
    tile: 'gap-y-2 mb-4 px-6 py-4',
    title: 'text-[2rem] leading-tight',
    value: 'text-[length:min(7rem,24cqi)] leading-none',
    valueCap: '7rem, 24cqi',
    detail: 'text-[1.5rem] leading-snug',
    // Two lines of 1.5rem at leading-snug (1.375). A phone number wraps at its spaces on narrower tiles:
    // three lines where the scale makes the screen less than 112rem wide (in a `tiles` container), four upright.
    detailLines: 'min-h-[4.125rem]',
    tallDetailLines: 'landscape:@max-[112rem]/tiles:min-h-[6.1875rem] portrait:min-h-[8.25rem]',
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
  warningPlaceholder,
  level = 'warning',
  definition,
  size,
  busy = false,
  valueWidthEm,
  tallDetail = false,
}: {
  title: string;
  value: ReactNode;
  detail?: ReactNode;
  /** Shown, with its icon, when a threshold is crossed; colour alone never carries it. */
  warning?: string;
  /**
   * The words of the warning this tile may raise: while it has none, an empty box of their size
   * keeps its place, so the number and the rows below do not move when the warning comes or goes.
   */
  warningPlaceholder?: string;
  /** How far past its threshold: a critical one has its own colour and icon. */
  level?: 'warning' | 'critical';
  /** What the figure means, shown on hover or keyboard focus of the title's "about" button (not on a wall screen). */
  definition?: string;
  size: TileSize;
  busy?: boolean;
  /**
   * How wide the value is, in ems of its own font, when it is more than one short number (say
   * "112 in · 48 out"): its size then follows the tile so that it stays on one line, where a
   * wrapped value would take a row of height a wall screen does not have. Never larger than a
   * plain number's size, so the row is as high with it as with the "—" shown while loading.
   */
  valueWidthEm?: number;
  /** On a narrow wall tile the detail may take three or four lines (a phone number wrapped at its spaces, then names): that much is held. */
  tallDetail?: boolean;
}) => {
  const titleID = useId();
  const definitionID = useId();
  const style = styles[size];
  const alert = warning ? alertStyles[level] : undefined;
  const lines = tallDetail ? `${style.detailLines} ${style.tallDetailLines}` : style.detailLines;
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
        ) : warningPlaceholder ? (
          // The words drawn by CSS: the tile's text, for a reader or a search, has no warning in it.
          <p aria-hidden="true" className={`invisible font-semibold ${style.warning}`} data-placeholder="warning">
            {alertStyles[level].icon} <span className="before:content-[attr(data-words)]" data-words={warningPlaceholder} />
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
      {detail === undefined ? (
        <div aria-hidden="true" className={`${style.detail} ${lines}`} data-placeholder="detail" />
      ) : typeof detail === 'string' ? (
        <p className={`line-clamp-2 text-muted ${style.detail} ${lines}`} title={detail}>
          {detail}
        </p>
      ) : (
        <div className={`text-muted ${style.detail} ${lines}`}>{detail}</div>
      )}
    </div>
  );
};
