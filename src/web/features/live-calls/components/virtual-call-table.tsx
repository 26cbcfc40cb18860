/**
 * The data table: a semantic <table> whose body renders only the rows in view (plus overscan),
 * with spacer rows keeping the scroll height, and aria-rowcount / aria-rowindex telling assistive
 * technology where each rendered row sits among all of them.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useRef } from 'react';
import type { CallRecord } from '../../../../contract/call-record.js';
import { afterLayout } from '../../../lib/virtualizer-after-layout.js';
import type { Sort } from '../hooks/use-table-params.js';
import type { CallColumn, CellContext } from './call-columns.js';
import { CallRow } from './call-row.js';
import { ColumnHeader } from './column-header.js';

const ROW_HEIGHT = 52;

// Before the first measurement, assume a typical viewport so the first paint already shows rows.
const INITIAL_RECT = { width: 1024, height: 600 };

const Spacer = ({ height, span }: { height: number; span: number }) =>
  height > 0 ? (
    <tr aria-hidden="true" style={{ height }}>
      <td colSpan={span} className="p-0" />
    </tr>
  ) : null;

export const VirtualCallTable = ({
  rows,
  columns,
  context,
  sort,
  onSort,
}: {
  rows: readonly CallRecord[];
  columns: readonly CallColumn[];
  context: CellContext;
  sort: Sort;
  onSort: (sort: Sort) => void;
}) => {
  const scrollElement = useRef<HTMLDivElement>(null);
  const getItemKey = useCallback((index: number) => rows[index]?.callID ?? index, [rows]);
  // The app does not run React Compiler, and nothing memoises the virtualizer's functions: it is read afresh each render.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollElement.current,
    estimateSize: () => ROW_HEIGHT,
    getItemKey,
    overscan: 10,
    ...afterLayout,
    initialRect: INITIAL_RECT,
  });
  const items = virtualizer.getVirtualItems();
  const before = items[0]?.start ?? 0;
  const after = virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0);
  const minWidth = columns.reduce((sum, column) => sum + column.width, 0);

  return (
    // Positioned, so that it also clips the visually hidden (absolutely positioned) text of its rows,
    // which would otherwise widen the whole page on a phone. Scrolled on a layer of its own, so a
    // scroll or a changed row repaints the table, not the page around it.
    <div ref={scrollElement} className="relative max-h-[60vh] overflow-auto rounded-md border border-line will-change-scroll">
      <table
        aria-label="Live calls"
        aria-rowcount={rows.length + 1}
        style={{ minWidth }}
        className="w-full table-fixed border-separate border-spacing-0 text-sm"
      >
        <colgroup>
          {columns.map((column) => (
            <col key={column.id} style={{ width: column.width }} />
          ))}
        </colgroup>
        <thead>
          <tr aria-rowindex={1}>
            {columns.map((column) => (
              <ColumnHeader key={column.id} column={column} sort={sort} onSort={onSort} />
            ))}
          </tr>
        </thead>
        <tbody>
          <Spacer height={before} span={columns.length} />
          {items.map((item) => {
            const call = rows[item.index];
            return call ? (
              <CallRow
                key={call.callID}
                call={call}
                rowIndex={item.index + 2}
                height={ROW_HEIGHT}
                columns={columns}
                context={context}
              />
            ) : null;
          })}
          <Spacer height={after} span={columns.length} />
        </tbody>
      </table>
    </div>
  );
};
