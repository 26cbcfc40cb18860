/**
 * A table of figures the analytics pages share: a row header, then left-aligned text columns, then
 * right-aligned numbers; a sticky head; a message in place of an empty body. Two frames around it:
 * folded away under the chart it explains, or scrolling with a hint when its columns do not fit.
 */
import { useRef, useState, type ReactNode } from 'react';
import { useHorizontalOverflow } from '../../lib/use-horizontal-overflow.js';
import { Button } from './button.js';

export interface FiguresRow {
  key: string;
  /** The row's header cell: the bucket's start, the subscriber's name. */
  header: ReactNode;
  /** The text columns after the header, then the figures. */
  cells: readonly ReactNode[];
}

interface FiguresTableProps {
  caption: ReactNode;
  /** Read by screen readers only (the panel's title already says what the table is). */
  captionHidden?: boolean;
  columns: readonly string[];
  /** How many columns, the header's included, hold text rather than figures (left-aligned). */
  textColumns?: number;
  rows: readonly FiguresRow[];
  empty?: string;
}

export const FiguresTable = ({ caption, captionHidden = false, columns, textColumns = 1, rows, empty }: FiguresTableProps) => (
  <table className="w-full text-sm tabular">
    <caption className={captionHidden ? 'sr-only' : 'px-3 py-2 text-left text-muted'}>{caption}</caption>
    <thead className="sticky top-0 bg-raised">
      <tr>
        {columns.map((title, i) => (
          <th key={title} scope="col" className={`px-3 py-1 font-medium ${i < textColumns ? 'text-left' : 'text-right'}`}>
            {title}
          </th>
        ))}
      </tr>
    </thead>
    <tbody>
      {rows.length === 0 && empty ? (
        <tr>
          <td colSpan={columns.length} className="px-3 py-2 text-muted">
            {empty}
          </td>
        </tr>
      ) : (
        rows.map((row) => (
          <tr key={row.key} className="border-t border-line">
            <th scope="row" className="px-3 py-1 text-left font-normal">
              {row.header}
            </th>
            {row.cells.map((value, i) => (
              <td key={i} className={`px-3 py-1 ${i + 1 < textColumns ? '' : 'text-right'}`}>
                {value}
              </td>
            ))}
          </tr>
        ))
      )}
    </tbody>
  </table>
);

/** A scrolling box's name: the table's caption where it is text. */
const labelOf = (caption: ReactNode) => (typeof caption === 'string' ? caption : 'Table of figures');

/**
 * The table folded under the chart it gives the numbers of. Its rows are built only while it is
 * open: a day of 5-minute buckets is hundreds of rows, and built folded they were most of the
 * page's elements and of its first style and layout, for a table few readers open.
 */
export const NumbersDisclosure = ({
  rows,
  ...props
}: Omit<FiguresTableProps, 'rows'> & { rows: () => readonly FiguresRow[] }) => {
  const [open, setOpen] = useState(false);
  return (
    <details className="rounded-md border border-line" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary className="cursor-pointer px-3 py-2 text-sm">Show the numbers as a table</summary>
      <div
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a region that scrolls must take focus to be scrolled by keyboard
        tabIndex={open ? 0 : -1}
        role="region"
        aria-label={labelOf(props.caption)}
        className="max-h-80 overflow-auto focus-visible:outline-2 focus-visible:outline-accent"
      >
        {open ? <FiguresTable {...props} rows={rows()} /> : null}
      </div>
    </details>
  );
};

/** The table in a bounded box that scrolls, saying so when its columns run past the side. */
export const ScrollingFiguresTable = (props: FiguresTableProps) => {
  const scroller = useRef<HTMLDivElement>(null);
  const scrolls = useHorizontalOverflow(scroller);
  return (
    <div className="flex flex-col gap-1">
      {scrolls ? (
        <p className="text-sm font-medium text-muted">
          Scroll sideways for all columns <span aria-hidden="true">→</span>
        </p>
      ) : null}
      {/* Reachable by keyboard, to scroll it without a pointer (a table of plain numbers has nothing focusable of its own). */}
      <div
        ref={scroller}
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a region that scrolls must take focus to be scrolled by keyboard
        tabIndex={0}
        role="region"
        aria-label={labelOf(props.caption)}
        className="max-h-96 overflow-auto rounded-md border border-line focus-visible:outline-2 focus-visible:outline-accent"
      >
        <FiguresTable {...props} captionHidden />
      </div>
    </div>
  );
};

/** A bucket's size as people say it: "15 min", "1 h". */
export const bucketSize = (bucketSeconds: number) =>
  bucketSeconds >= 3600 ? `${bucketSeconds / 3600} h` : `${bucketSeconds / 60} min`;

/** Rows a page of a long table holds. */
const PAGE_ROWS = 100;

/**
 * A long table a page at a time (a month of 15-minute intervals of five queues is 15,000 rows):
 * only the page's rows are built, and buttons step through the pages.
 */
export const PagedFiguresTable = ({
  rowCount,
  row,
  pageRows = PAGE_ROWS,
  ...props
}: Omit<FiguresTableProps, 'rows'> & { rowCount: number; row: (index: number) => FiguresRow; pageRows?: number }) => {
  const [page, setPage] = useState(0);
  const pages = Math.max(1, Math.ceil(rowCount / pageRows));
  const shown = Math.min(page, pages - 1);
  const first = shown * pageRows;
  const last = Math.min(rowCount, first + pageRows);
  const rows = Array.from({ length: last - first }, (_, i) => row(first + i));
  return (
    <div className="flex flex-col gap-2">
      <ScrollingFiguresTable {...props} rows={rows} />
      {pages > 1 ? (
        <nav aria-label={`Pages of ${labelOf(props.caption)}`} className="flex flex-wrap items-center gap-2 text-sm">
          <Button size="sm" disabled={shown === 0} onClick={() => setPage(shown - 1)}>
            Previous rows
          </Button>
          <span className="tabular" aria-live="polite">
            Rows {first + 1}–{last} of {rowCount}
          </span>
          <Button size="sm" disabled={shown === pages - 1} onClick={() => setPage(shown + 1)}>
            Next rows
          </Button>
        </nav>
      ) : null}
    </div>
  );
};
